//! An instantiated kernel module. On wasm32 the emitted bytes are compiled by the host's
//! WebAssembly engine and instantiated with this module's memory (and the host routines'
//! exports, `host.rs`); natively they are only kept
//! (the native build validates codegen; it cannot run it).

use crate::util::{Error, Result};

pub struct KernelModule {
    size: usize,
    /// The bytes a kernel writes into its output buffer (0: not checked).
    output_bytes: usize,
    #[cfg(target_arch = "wasm32")]
    function: js_sys::Function,
}

impl KernelModule {
    #[cfg(target_arch = "wasm32")]
    pub fn new(bytes: &[u8], size: usize) -> Result<KernelModule> {
        use js_sys::{Object, Reflect, Uint8Array, WebAssembly};
        use wasm_bindgen::JsCast;
        let fail = |what: &str, e: wasm_bindgen::JsValue| {
            Error::new("wasm", format!("internal error: {what}: {e:?}"))
        };
        let module = WebAssembly::Module::new(&Uint8Array::from(bytes))
            .map_err(|e| fail("compiling kernel", e))?;
        let env = Object::new();
        Reflect::set(&env, &"memory".into(), &wasm_bindgen::memory())
            .map_err(|e| fail("imports", e))?;
        // Host routines: this module's own exports (modules that do not import them ignore them).
        let exports = wasm_bindgen::exports();
        for name in super::host::IMPORTS {
            let f = Reflect::get(&exports, &name.into()).map_err(|e| fail("host export", e))?;
            Reflect::set(&env, &name.into(), &f).map_err(|e| fail("imports", e))?;
        }
        let imports = Object::new();
        Reflect::set(&imports, &"env".into(), &env).map_err(|e| fail("imports", e))?;
        let instance =
            WebAssembly::Instance::new(&module, &imports).map_err(|e| fail("instantiating", e))?;
        let function = Reflect::get(&instance.exports(), &super::emit::KERNEL_EXPORT.into())
            .map_err(|e| fail("export", e))?
            .dyn_into::<js_sys::Function>()
            .map_err(|e| fail("export", e))?;
        Ok(KernelModule {
            size,
            output_bytes: 0,
            function,
        })
    }

    #[cfg(not(target_arch = "wasm32"))]
    pub fn new(_bytes: &[u8], size: usize) -> Result<KernelModule> {
        Ok(KernelModule {
            size,
            output_bytes: 0,
        })
    }

    /// This module, noting that it writes `bytes` bytes of its output buffer.
    pub fn writing(self, bytes: usize) -> KernelModule {
        KernelModule {
            output_bytes: bytes,
            ..self
        }
    }

    /// The bytes written into the output buffer (0 where not known).
    pub fn output_bytes(&self) -> usize {
        self.output_bytes
    }

    /// Runs the kernel over `size` elements; `addresses` are the output then the inputs.
    pub fn call(&self, addresses: &[u32]) -> Result<()> {
        let mut args = vec![self.size as u32];
        args.extend_from_slice(addresses);
        self.call_args(&args)
    }

    /// Calls the export with `args` as they are (a loop module's driver).
    #[cfg(target_arch = "wasm32")]
    pub fn call_args(&self, values: &[u32]) -> Result<()> {
        let args = js_sys::Array::new();
        for &a in values {
            args.push(&a.into());
        }
        self.function
            .apply(&wasm_bindgen::JsValue::NULL, &args)
            .map(|_| ())
            .map_err(|e| Error::new("wasm", format!("kernel trapped: {e:?}")))
    }

    #[cfg(not(target_arch = "wasm32"))]
    pub fn call_args(&self, _values: &[u32]) -> Result<()> {
        Err(Error::new(
            "wasm",
            format!(
                "the wasm device runs its {}-element kernels only when oxjax is compiled to \
                 WebAssembly",
                self.size
            ),
        ))
    }
}
