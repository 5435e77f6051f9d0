//! The data memory: the separate `WebAssembly.Memory` that holds every array buffer of the
//! `wasm` device. Emitted kernel, routine and loop modules import it as `env.memory`; worker
//! threads (`js/wasm-pool.ts`) instantiate the same modules against it. It is shared (backed
//! by a `SharedArrayBuffer`) wherever the runtime has shared memory, and a plain memory
//! elsewhere. This module's own memory is never shared: Rust keeps only the allocator's
//! bookkeeping (`memory.rs`) and moves bytes in and out through the JS boundary.
//!
//! Natively (for `cargo test`) the data memory is a byte vector with the same interface, so the
//! allocator and the bookkeeping are tested without a JS engine.

/// Bytes of one WebAssembly page.
pub const PAGE: u64 = 1 << 16;
/// The most pages the data memory grows to (4 GiB, the wasm32 limit).
pub const MAX_PAGES: u32 = 1 << 16;

#[cfg(target_arch = "wasm32")]
mod imp {
    use super::{MAX_PAGES, PAGE};
    use js_sys::{Object, Reflect, Uint8Array, WebAssembly};
    use wasm_bindgen::JsValue;

    struct Data {
        memory: WebAssembly::Memory,
        shared: bool,
    }

    thread_local! {
        static DATA: Data = create();
    }

    /// A memory of `initial` pages growing to [`MAX_PAGES`], shared if `shared`.
    fn memory(shared: bool) -> Result<WebAssembly::Memory, JsValue> {
        let desc = Object::new();
        Reflect::set(&desc, &"initial".into(), &1.into())?;
        Reflect::set(&desc, &"maximum".into(), &MAX_PAGES.into())?;
        if shared {
            Reflect::set(&desc, &"shared".into(), &true.into())?;
        }
        WebAssembly::Memory::new(&desc)
    }

    fn create() -> Data {
        let global = js_sys::global();
        let has_shared = Reflect::get(&global, &"SharedArrayBuffer".into())
            .map(|v| !v.is_undefined())
            .unwrap_or(false);
        if has_shared {
            if let Ok(memory) = memory(true) {
                return Data {
                    memory,
                    shared: true,
                };
            }
        }
        Data {
            memory: memory(false).expect("a WebAssembly.Memory"),
            shared: false,
        }
    }

    pub fn object() -> WebAssembly::Memory {
        DATA.with(|d| d.memory.clone())
    }

    pub fn shared() -> bool {
        DATA.with(|d| d.shared)
    }

    fn view(at: u32, len: usize) -> Uint8Array {
        DATA.with(|d| {
            Uint8Array::new_with_byte_offset_and_length(&d.memory.buffer(), at, len as u32)
        })
    }

    pub fn size() -> u64 {
        DATA.with(|d| {
            let buffer = d.memory.buffer();
            Reflect::get(&buffer, &"byteLength".into())
                .ok()
                .and_then(|v| v.as_f64())
                .unwrap_or(0.0) as u64
        })
    }

    pub fn grow(pages: u32) -> bool {
        DATA.with(|d| {
            let grown = Reflect::get(&d.memory, &"grow".into())
                .ok()
                .and_then(|f| {
                    js_sys::Function::from(f)
                        .call1(&d.memory, &pages.into())
                        .ok()
                })
                .is_some();
            grown && size() <= u64::from(MAX_PAGES) * PAGE
        })
    }

    pub fn write(at: u32, bytes: &[u8]) {
        if !bytes.is_empty() {
            view(at, bytes.len()).copy_from(bytes);
        }
    }

    pub fn read_into(at: u32, out: &mut [u8]) {
        if !out.is_empty() {
            view(at, out.len()).copy_to(out);
        }
    }

    /// The bytes at `at` as a JS `Uint8Array` copy (for reads handed to JS).
    pub fn read_js(at: u32, len: usize) -> Uint8Array {
        view(at, len).slice(0, len as u32)
    }

    /// Copies the bytes of a JS array to `at`, in one copy.
    pub fn write_js(at: u32, bytes: &Uint8Array) {
        let len = bytes.length() as usize;
        if len != 0 {
            view(at, len).set(bytes, 0);
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
mod imp {
    use std::cell::RefCell;

    thread_local! {
        static DATA: RefCell<Vec<u8>> = RefCell::new(vec![0; super::PAGE as usize]);
    }

    pub fn shared() -> bool {
        false
    }

    pub fn size() -> u64 {
        DATA.with(|d| d.borrow().len() as u64)
    }

    pub fn grow(pages: u32) -> bool {
        let new = size() + u64::from(pages) * super::PAGE;
        if new > u64::from(super::MAX_PAGES) * super::PAGE {
            return false;
        }
        DATA.with(|d| d.borrow_mut().resize(new as usize, 0));
        true
    }

    pub fn write(at: u32, bytes: &[u8]) {
        let at = at as usize;
        DATA.with(|d| d.borrow_mut()[at..at + bytes.len()].copy_from_slice(bytes));
    }

    pub fn read_into(at: u32, out: &mut [u8]) {
        let at = at as usize;
        DATA.with(|d| out.copy_from_slice(&d.borrow()[at..at + out.len()]));
    }
}

pub use imp::{grow, read_into, shared, size, write};
#[cfg(target_arch = "wasm32")]
pub use imp::{object, read_js, write_js};

/// Makes the data memory at least `bytes` long, growing it by at least an eighth of its size
/// at a time (so a run of growing allocations grows it a few times, not once each). False when
/// the memory cannot grow that far.
pub fn reserve(bytes: u64) -> bool {
    let have = size();
    if bytes <= have {
        return true;
    }
    let limit = u64::from(MAX_PAGES) * PAGE;
    if bytes > limit {
        return false;
    }
    let need = (bytes - have).div_ceil(PAGE);
    let step = (have / PAGE / 8).max(need).min(limit / PAGE - have / PAGE);
    grow(step as u32) || grow(need as u32)
}

/// The `len` bytes at `at`.
pub fn read(at: u32, len: usize) -> Vec<u8> {
    let mut out = vec![0; len];
    read_into(at, &mut out);
    out
}
