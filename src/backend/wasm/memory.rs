//! Buffers of the wasm device: 16-byte aligned ranges of the data memory (`data.rs`), so a
//! kernel module that imports that memory addresses them directly. This file is the
//! allocator's bookkeeping, kept in Rust: [`Arena`] hands out address ranges (best fit among
//! freed ranges, coalesced with their neighbours, else the end of the used space, growing the
//! memory), and [`Pool`] keeps freed buffers by size class for reuse.
//!
//! Size classes are 16-byte steps up to 256 bytes, then four classes per power of two, so at
//! most a quarter is wasted. A loop that allocates and frees the same shapes reaches a steady
//! state without touching the arena. The pool is bounded by bytes; beyond the bound a freed
//! buffer goes back to the arena. When the arena refuses (the 4 GiB of a wasm32 memory are
//! taken), the pool gives its buffers back and the allocation is tried once more.
//!
//! Address 0 is never handed out. Buffers are not cleared when reused: every kernel writes all
//! of its output, and the host writes what it uploads.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::data;
use crate::util::{Error, Result};

const ALIGN: usize = 16;
/// The most bytes the pool keeps for reuse.
pub const POOL_LIMIT: usize = 64 << 20;

/// One buffer: `len` bytes at `address` of the data memory, in a range of `capacity` bytes.
#[derive(Debug)]
pub struct HostBuffer {
    address: u32,
    len: usize,
    capacity: usize,
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
    pub fn len(&self) -> usize {
        self.len
    }

    /// The buffer's byte address in the data memory.
    pub fn address(&self) -> u32 {
        self.address
    }
}

/// Address ranges of the data memory: free ranges by address and by size, and the end of the
/// used space.
pub struct Arena {
    by_address: BTreeMap<u64, u64>,
    by_size: BTreeSet<(u64, u64)>,
    top: u64,
}

impl Default for Arena {
    fn default() -> Self {
        Arena {
            by_address: BTreeMap::new(),
            by_size: BTreeSet::new(),
            top: ALIGN as u64,
        }
    }
}

impl Arena {
    fn insert(&mut self, at: u64, bytes: u64) {
        self.by_address.insert(at, bytes);
        self.by_size.insert((bytes, at));
    }

    fn remove(&mut self, at: u64, bytes: u64) {
        self.by_address.remove(&at);
        self.by_size.remove(&(bytes, at));
    }

    /// The address of `bytes` (a multiple of 16) free bytes, or None when the memory is full.
    pub fn alloc(&mut self, bytes: u64) -> Option<u64> {
        if let Some(&(size, at)) = self.by_size.range((bytes, 0)..).next() {
            self.remove(at, size);
            if size > bytes {
                self.insert(at + bytes, size - bytes);
            }
            return Some(at);
        }
        let at = self.top;
        let end = at + bytes;
        if !data::reserve(end) {
            return None;
        }
        self.top = end;
        Some(at)
    }

    /// Gives back the range at `at` (as allocated), merging it with free neighbours.
    pub fn free(&mut self, at: u64, bytes: u64) {
        let (mut at, mut bytes) = (at, bytes);
        if let Some((&prev, &size)) = self.by_address.range(..at).next_back() {
            if prev + size == at {
                self.remove(prev, size);
                at = prev;
                bytes += size;
            }
        }
        if let Some(&size) = self.by_address.get(&(at + bytes)) {
            self.remove(at + bytes, size);
            bytes += size;
        }
        if at + bytes == self.top {
            self.top = at;
        } else {
            self.insert(at, bytes);
        }
    }

    /// The end of the used space.
    #[cfg(test)]
    pub fn top(&self) -> u64 {
        self.top
    }

    /// Free ranges below the top.
    #[cfg(test)]
    pub fn holes(&self) -> usize {
        self.by_address.len()
    }
}

/// Freed buffers kept for reuse, by capacity, over the arena.
#[derive(Default)]
pub struct Pool {
    arena: Arena,
    free: HashMap<usize, Vec<u32>>,
    bytes: usize,
    buffers: usize,
    /// Allocations served from the pool / from the arena.
    pub hits: u64,
    pub misses: u64,
}

impl Pool {
    /// A buffer of `len` bytes: a pooled one of the same size class, or a new one.
    pub fn take(&mut self, len: usize) -> Result<HostBuffer> {
        let class = size_class(len);
        if let Some(address) = self.free.get_mut(&class).and_then(Vec::pop) {
            self.bytes -= class;
            self.buffers -= 1;
            self.hits += 1;
            return Ok(HostBuffer {
                address,
                len,
                capacity: class,
            });
        }
        self.misses += 1;
        let at = match self.arena.alloc(class as u64) {
            Some(at) => at,
            None => {
                // Out of memory: give the pooled buffers back and try once more.
                self.clear();
                self.arena
                    .alloc(class as u64)
                    .ok_or_else(|| Error::msg("the allocator refused (memory full)"))?
            }
        };
        Ok(HostBuffer {
            address: at as u32,
            len,
            capacity: class,
        })
    }

    /// Keeps `b` for reuse, or gives it back to the arena when the pool is full.
    pub fn give(&mut self, b: HostBuffer) {
        let class = b.capacity;
        if self.bytes + class > POOL_LIMIT {
            self.arena.free(u64::from(b.address), class as u64);
            return;
        }
        self.bytes += class;
        self.buffers += 1;
        self.free.entry(class).or_default().push(b.address);
    }

    /// Returns every pooled buffer to the arena.
    pub fn clear(&mut self) {
        for (class, addresses) in self.free.drain() {
            for at in addresses {
                self.arena.free(u64::from(at), class as u64);
            }
        }
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
#[path = "memory_tests.rs"]
mod tests;
