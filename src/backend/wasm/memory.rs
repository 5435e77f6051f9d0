//! Buffers of the wasm device: 16-byte aligned allocations in this module's linear memory, so a
//! kernel module that imports the same memory addresses them directly.

use std::alloc::{alloc_zeroed, dealloc, Layout};

use crate::util::{Error, Result};

const ALIGN: usize = 16;

pub struct HostBuffer {
    ptr: *mut u8,
    len: usize,
    layout: Layout,
}

impl HostBuffer {
    pub fn new(len: usize) -> Result<HostBuffer> {
        let layout = Layout::from_size_align(len.max(1), ALIGN)
            .map_err(|_| Error::new("wasm", format!("cannot allocate {len} bytes")))?;
        // SAFETY: the layout has a non-zero size.
        let ptr = unsafe { alloc_zeroed(layout) };
        if ptr.is_null() {
            return Err(Error::new(
                "wasm",
                format!("out of memory allocating {len} bytes"),
            ));
        }
        Ok(HostBuffer { ptr, len, layout })
    }

    pub fn bytes(&self) -> &[u8] {
        // SAFETY: `ptr` points to `len` initialised bytes owned by this buffer.
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }

    pub fn bytes_mut(&mut self) -> &mut [u8] {
        // SAFETY: as above, and `&mut self` guarantees exclusive access.
        unsafe { std::slice::from_raw_parts_mut(self.ptr, self.len) }
    }

    /// The buffer's byte address in linear memory (meaningful on wasm32 only).
    pub fn address(&self) -> u32 {
        self.ptr as usize as u32
    }
}

impl Drop for HostBuffer {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with this layout.
        unsafe { dealloc(self.ptr, self.layout) }
    }
}
