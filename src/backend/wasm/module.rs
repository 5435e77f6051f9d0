//! An instantiated kernel module. On wasm32 the emitted bytes are compiled by the host's
//! WebAssembly engine and instantiated with the data memory (`data.rs`) and the host routines'
//! exports (`host.rs`); natively they are only kept
//! (the native build validates codegen; it cannot run it).

use crate::util::{Error, Result};

/// The import object of every emitted module: `env.memory`, the data memory, and the host
/// routines (this module's own exports; modules that do not import them ignore them). Built
/// once per thread: the data memory and the exports never change.
#[cfg(target_arch = "wasm32")]
fn imports() -> std::result::Result<js_sys::Object, wasm_bindgen::JsValue> {
    use crate::util::panic_cell::PanicCell;
    use js_sys::{Object, Reflect};
    thread_local! {
        static IMPORTS: PanicCell<Option<Object>> = const { PanicCell::new(None) };
    }
    if let Some(o) = IMPORTS.with(|i| i.borrow().clone()) {
        return Ok(o);
    }
    let env = Object::new();
    Reflect::set(&env, &"memory".into(), &super::data::object())?;
    let exports = wasm_bindgen::exports();
    for name in super::host::IMPORTS {
        Reflect::set(&env, &name.into(), &Reflect::get(&exports, &name.into())?)?;
    }
    let imports = Object::new();
    Reflect::set(&imports, &"env".into(), &env)?;
    IMPORTS.with(|i| *i.borrow_mut() = Some(imports.clone()));
    Ok(imports)
}

pub struct KernelModule {
    size: usize,
    /// The bytes a kernel writes into its output buffer (0: not checked).
    output_bytes: usize,
    /// For a kernel worth splitting across threads (`threads.rs`): how.
    split: Option<Split>,
    #[cfg(target_arch = "wasm32")]
    function: js_sys::Function,
}

/// How a kernel's output elements, or a routine's batch, may be split into chunks run by worker
/// threads.
pub struct Split {
    /// Chunks start at multiples of this (`emit::split_align`; 1 for a routine's batch).
    pub align: usize,
    /// The dispatch's work (`threads::work`, `threads::routine_work`).
    pub work: u64,
    /// Empty for a kernel; for a batched routine, the bytes each buffer (outputs, then inputs)
    /// advances per problem (`emit::routines::batch_strides`).
    pub strides: Vec<u32>,
    /// The module's id in the worker pool (`threads::next_pool_id`): unique among every
    /// module split on this thread, kernels and routines of every backend alike.
    pub pool_id: u64,
    /// The module's bytes, which each worker compiles.
    #[cfg(target_arch = "wasm32")]
    pub bytes: js_sys::Uint8Array,
}

impl KernelModule {
    #[cfg(target_arch = "wasm32")]
    pub fn new(bytes: &[u8], size: usize) -> Result<KernelModule> {
        use js_sys::{Reflect, Uint8Array, WebAssembly};
        use wasm_bindgen::JsCast;
        let fail = |what: &str, e: wasm_bindgen::JsValue| {
            Error::new("wasm", format!("internal error: {what}: {e:?}"))
        };
        let module = WebAssembly::Module::new(&Uint8Array::from(bytes))
            .map_err(|e| fail("compiling kernel", e))?;
        let imports = imports().map_err(|e| fail("imports", e))?;
        let instance =
            WebAssembly::Instance::new(&module, &imports).map_err(|e| fail("instantiating", e))?;
        let function = Reflect::get(&instance.exports(), &super::emit::KERNEL_EXPORT.into())
            .map_err(|e| fail("export", e))?
            .dyn_into::<js_sys::Function>()
            .map_err(|e| fail("export", e))?;
        Ok(KernelModule {
            size,
            output_bytes: 0,
            split: None,
            function,
        })
    }

    #[cfg(not(target_arch = "wasm32"))]
    pub fn new(_bytes: &[u8], size: usize) -> Result<KernelModule> {
        Ok(KernelModule {
            size,
            output_bytes: 0,
            split: None,
        })
    }

    /// The same compiled kernel run over `size` elements (its code reads the size only as the
    /// end of its range: `emit::size_free`), not split across threads.
    pub fn resized(&self, size: usize) -> KernelModule {
        KernelModule {
            size,
            output_bytes: 0,
            split: None,
            #[cfg(target_arch = "wasm32")]
            function: self.function.clone(),
        }
    }

    /// This module, noting that it writes `bytes` bytes of its output buffer.
    pub fn writing(self, bytes: usize) -> KernelModule {
        KernelModule {
            output_bytes: bytes,
            ..self
        }
    }

    /// This module, splittable into chunks starting at multiples of `align` (its emitted
    /// `bytes` go to the workers); `strides` as in [`Split`].
    pub fn splitting(
        self,
        align: usize,
        work: u64,
        strides: Vec<u32>,
        bytes: &[u8],
    ) -> KernelModule {
        #[cfg(not(target_arch = "wasm32"))]
        let _ = bytes;
        KernelModule {
            split: Some(Split {
                align,
                work,
                strides,
                pool_id: super::threads::next_pool_id(),
                #[cfg(target_arch = "wasm32")]
                bytes: js_sys::Uint8Array::from(bytes),
            }),
            ..self
        }
    }

    pub fn split(&self) -> Option<&Split> {
        self.split.as_ref()
    }

    /// The elements (kernels) or the batch (routines) of one call.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The bytes written into the output buffer (0 where not known).
    pub fn output_bytes(&self) -> usize {
        self.output_bytes
    }

    /// Runs a kernel module's elements `start..end`; `addresses` are the output then the inputs.
    pub fn call_range(&self, (start, end): (u32, u32), addresses: &[u32]) -> Result<()> {
        let mut args = vec![start, end];
        args.extend_from_slice(addresses);
        self.call_args(&args)
    }

    /// Runs chunk `start..end` of a split module: a kernel's elements (`strides` empty), or
    /// problems of a routine's batch (each address advanced by `start` × its stride).
    pub fn call_chunk(
        &self,
        (start, end): (u32, u32),
        addresses: &[u32],
        strides: &[u32],
    ) -> Result<()> {
        if strides.is_empty() {
            return self.call_range((start, end), addresses);
        }
        let mut args = vec![end - start];
        args.extend(addresses.iter().zip(strides).map(|(a, s)| a + start * s));
        self.call_args(&args)
    }

    /// Runs a routine module over `size` (its batch); `addresses` are the outputs then the
    /// inputs.
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
