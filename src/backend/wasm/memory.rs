//! Buffers of the wasm device: 16-byte aligned allocations in this module's linear memory, so a
//! kernel module that imports the same memory addresses them directly.
//!
//! Freed buffers go to a [`Pool`] by size class (16-byte steps up to 256 bytes, then four
//! classes per power of two, so at most a quarter is wasted) and are handed out again for the
//! next allocation of the same class: a loop that allocates and frees the same shapes reaches a
//! steady state without calling the allocator. The pool is bounded by bytes; beyond the bound a
//! freed buffer goes back to the allocator. When the allocator refuses (the 4 GiB of a wasm32
//! memory are taken), the pool gives its buffers back and the allocation is tried once more.
//!
//! New buffers are zeroed (`alloc_zeroed`; memory the module has just grown is zero already),
//! so every byte of a buffer is initialised and [`HostBuffer::bytes`] is a sound `&[u8]`.

use std::alloc::{alloc_zeroed, dealloc, Layout};
use std::collections::HashMap;

use crate::util::{Error, Result};

const ALIGN: usize = 16;
/// The most bytes the pool keeps for reuse.
pub const POOL_LIMIT: usize = 64 << 20;

pub struct HostBuffer {
    ptr: *mut u8,
    len: usize,
    layout: Layout,
}

/// The capacity of the size class that holds `len` bytes (`len` at most
/// [`super::MAX_BUFFER_BYTES`]).
pub fn size_class(len: usize) -> usize {
    let len = len.max(ALIGN);
    if len <= 256 || len > POOL_LIMIT {
        // Small, or too large to be pooled at all: the request itself, 16-byte aligned.
        return len.next_multiple_of(ALIGN);
    }
    let top = usize::BITS - 1 - (len - 1).leading_zeros();
    len.next_multiple_of(1 << (top - 2))
}

impl HostBuffer {
    /// A buffer of `len` bytes (capacity: its size class), zeroed.
    pub fn new(len: usize) -> Result<HostBuffer> {
        let layout = Layout::from_size_align(size_class(len), ALIGN)
            .map_err(|_| Error::msg("the size is too large for one allocation"))?;
        // SAFETY: the layout has a non-zero size.
        let ptr = unsafe { alloc_zeroed(layout) };
        if ptr.is_null() {
            return Err(Error::msg("the allocator refused (memory full)"));
        }
        Ok(HostBuffer { ptr, len, layout })
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn capacity(&self) -> usize {
        self.layout.size()
    }

    pub fn bytes(&self) -> &[u8] {
        // SAFETY: `ptr` points to `capacity ≥ len` bytes owned by this buffer, all initialised
        // (zeroed at allocation, and only ever overwritten with initialised bytes since).
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }

    pub fn bytes_mut(&mut self) -> &mut [u8] {
        // SAFETY: as above, and `&mut self` guarantees exclusive access.
        unsafe { std::slice::from_raw_parts_mut(self.ptr, self.len) }
    }

    /// The start of the buffer (for host routines, which address several buffers at once).
    pub fn ptr(&self) -> *mut u8 {
        self.ptr
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

/// Freed buffers kept for reuse, by capacity.
#[derive(Default)]
pub struct Pool {
    free: HashMap<usize, Vec<HostBuffer>>,
    bytes: usize,
    buffers: usize,
    /// Allocations served from the pool / from the allocator.
    pub hits: u64,
    pub misses: u64,
}

impl Pool {
    /// A buffer of `len` bytes: a pooled one of the same size class, or a new one.
    pub fn take(&mut self, len: usize) -> Result<HostBuffer> {
        let class = size_class(len);
        if let Some(mut b) = self.free.get_mut(&class).and_then(Vec::pop) {
            self.bytes -= class;
            self.buffers -= 1;
            self.hits += 1;
            b.len = len;
            return Ok(b);
        }
        self.misses += 1;
        HostBuffer::new(len).or_else(|_| {
            // Out of memory: give the pooled buffers back to the allocator and try once more.
            self.clear();
            HostBuffer::new(len)
        })
    }

    /// Keeps `b` for reuse, or frees it when the pool is full.
    pub fn give(&mut self, b: HostBuffer) {
        let class = b.capacity();
        if self.bytes + class > POOL_LIMIT {
            return;
        }
        self.bytes += class;
        self.buffers += 1;
        self.free.entry(class).or_default().push(b);
    }

    /// Returns every pooled buffer to the allocator.
    pub fn clear(&mut self) {
        self.free.clear();
        self.bytes = 0;
        self.buffers = 0;
    }

    /// Bytes held for reuse.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    pub fn buffers(&self) -> usize {
        self.buffers
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_classes_cover_the_request_and_waste_at_most_a_quarter() {
        for len in [
            0,
            1,
            15,
            16,
            17,
            255,
            256,
            257,
            320,
            321,
            1000,
            1024,
            1025,
            1 << 20,
        ] {
            let c = size_class(len);
            assert!(c >= len.max(16) && c.is_multiple_of(16), "{len} -> {c}");
            assert!(len <= 256 || (c - len) * 4 <= len, "{len} -> {c}");
        }
        assert_eq!(size_class(POOL_LIMIT + 1), POOL_LIMIT + 16);
        assert_eq!(size_class(257), 320);
        assert_eq!(size_class(1024), 1024);
        assert_eq!(size_class(1025), 1280);
    }

    #[test]
    fn a_refused_allocation_is_an_error_and_new_buffers_are_zeroed() {
        let mut pool = Pool::default();
        let kept = pool.take(100).unwrap();
        pool.give(kept);
        // More than any allocator gives: an error, not an abort, and the pool is emptied.
        assert!(pool.take(isize::MAX as usize / 2).is_err());
        assert_eq!(pool.buffers(), 0);
        let b = pool.take(4096).unwrap();
        assert!(b.bytes().iter().all(|&x| x == 0));
    }

    #[test]
    fn freed_buffers_are_reused_by_size_class() {
        let mut pool = Pool::default();
        let a = pool.take(1000).unwrap();
        let address = a.address();
        pool.give(a);
        assert_eq!((pool.buffers(), pool.bytes()), (1, size_class(1000)));
        let b = pool.take(1010).unwrap(); // same class (1024)
        assert_eq!(
            (b.address(), b.len(), pool.hits, pool.misses),
            (address, 1010, 1, 1)
        );
        assert_eq!(pool.bytes(), 0);
        let c = pool.take(5000).unwrap();
        assert_eq!(pool.misses, 2);
        pool.give(b);
        pool.give(c);
        assert_eq!(pool.buffers(), 2);
        pool.clear();
        assert_eq!((pool.buffers(), pool.bytes()), (0, 0));
        let d = pool.take(1000).unwrap();
        assert_eq!(pool.misses, 3);
        pool.give(d);
    }
}
