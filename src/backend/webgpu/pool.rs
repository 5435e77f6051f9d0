//! Buffer sizes (padded to WebGPU's multiple of 4, size classes) and a pool of free storage
//! buffers by size class, so that eager code which frees and allocates arrays of similar
//! sizes reuses GPU buffers instead of creating one per op. Classes are
//! powers of two split into sixteenths (less than 12.5% of a buffer is slack; 256 bytes
//! minimum).
//! The pool is bounded by bytes and by count (LRU: the oldest free buffers are destroyed
//! first); pooled buffers are not live arrays, so `memoryStats` reports them separately.
//! The byte bound follows the program: at least [`MAX_POOL_BYTES`], and up to its peak of live
//! bytes less the bytes live now, so a loop that keeps every result of a call (and frees them
//! together later) finds them all again on its next round, while live and pooled buffers
//! together never hold more than that peak (or the floor more than what is live). Creating a
//! large buffer costs the host about as much per megabyte whatever its use (a slab of several
//! results is no cheaper than the results' own buffers), so reuse is what saves it.
//! `clear_caches` empties the pool and starts the peak again from the bytes live.

use std::collections::{HashMap, VecDeque};

/// The most bytes of free buffers kept whatever the program's peak (the floor of the bound).
pub const MAX_POOL_BYTES: u64 = 512 << 20;
/// The most free buffers kept.
pub const MAX_POOL_BUFFERS: usize = 1024;

/// WebGPU buffer sizes must be non-zero multiples of 4.
pub fn padded(bytes: usize) -> u64 {
    (bytes.max(4).div_ceil(4) * 4) as u64
}

/// The size class of a buffer of `bytes` bytes: the size actually allocated.
pub fn size_class(bytes: u64) -> u64 {
    let bytes = bytes.max(256);
    let p = bytes.next_power_of_two();
    let step = (p / 16).max(256);
    bytes.div_ceil(step) * step
}

/// The most bytes of one array on a device of `limits`: its buffer and binding limits less the
/// slack of the size classes (under 1/8), so the buffer actually created stays within them.
pub fn max_buffer_bytes(limits: &wgpu::Limits) -> u64 {
    let cap = limits
        .max_buffer_size
        .min(limits.max_storage_buffer_binding_size);
    cap.min(crate::core::shape::MAX_BYTES) * 7 / 8
}

pub struct Pool {
    free: HashMap<u64, Vec<wgpu::Buffer>>,
    /// Free buffers in the order they were returned (class, for eviction).
    order: VecDeque<u64>,
    bytes: u64,
    /// Bytes (of size classes) handed out and not returned, and their peak.
    live: u64,
    peak: u64,
    /// The byte bound's floor ([`MAX_POOL_BYTES`]; tests lower it).
    floor: u64,
    pub hits: u64,
    pub misses: u64,
}

impl Default for Pool {
    fn default() -> Pool {
        Pool {
            free: HashMap::new(),
            order: VecDeque::new(),
            bytes: 0,
            live: 0,
            peak: 0,
            floor: MAX_POOL_BYTES,
            hits: 0,
            misses: 0,
        }
    }
}

impl Pool {
    /// The most bytes of free buffers kept now.
    pub fn limit(&self) -> u64 {
        self.floor.max(self.peak.saturating_sub(self.live))
    }

    /// Lowers (or raises) the byte bound's floor (tests).
    pub fn set_floor(&mut self, bytes: u64) {
        self.floor = bytes;
    }

    /// A free buffer of `class` bytes, if one is pooled: the newest one that `avoid` does not
    /// reject, else the newest. Every allocation asks (a miss creates the buffer), so the
    /// bytes handed out are counted here.
    pub fn take(
        &mut self,
        class: u64,
        avoid: impl Fn(&wgpu::Buffer) -> bool,
    ) -> Option<wgpu::Buffer> {
        self.live += class;
        self.peak = self.peak.max(self.live);
        let buffer = self.free.get_mut(&class).and_then(|list| {
            let pick = list.iter().rposition(|b| !avoid(b))?;
            Some(list.remove(pick))
        });
        let buffer = buffer.or_else(|| self.free.get_mut(&class).and_then(Vec::pop));
        match &buffer {
            Some(_) => {
                self.hits += 1;
                self.bytes -= class;
                // Forget one entry of this class in the eviction order (the newest).
                if let Some(pos) = self.order.iter().rposition(|&c| c == class) {
                    self.order.remove(pos);
                }
            }
            None => self.misses += 1,
        }
        buffer
    }

    /// Returns a buffer of `class` bytes to the pool, evicting the oldest ones over the bounds;
    /// returns the buffers to destroy (the caller defers those the pending batch still uses).
    #[must_use]
    pub fn put(&mut self, class: u64, buffer: wgpu::Buffer) -> Vec<wgpu::Buffer> {
        self.live = self.live.saturating_sub(class);
        let limit = self.limit();
        if class > limit {
            return vec![buffer];
        }
        let mut evicted = Vec::new();
        self.free.entry(class).or_default().push(buffer);
        self.order.push_back(class);
        self.bytes += class;
        while self.bytes > limit || self.order.len() > MAX_POOL_BUFFERS {
            let Some(oldest) = self.order.pop_front() else {
                break;
            };
            if let Some(list) = self.free.get_mut(&oldest) {
                if !list.is_empty() {
                    evicted.push(list.remove(0));
                    self.bytes -= oldest;
                }
            }
        }
        evicted
    }

    /// Destroys every pooled buffer; the peak starts again from the bytes live.
    pub fn clear(&mut self) {
        self.peak = self.live;
        for (_, list) in self.free.drain() {
            for b in list {
                b.destroy();
            }
        }
        self.order.clear();
        self.bytes = 0;
    }

    pub fn buffers(&self) -> usize {
        self.order.len()
    }

    pub fn bytes(&self) -> u64 {
        self.bytes
    }
}

#[cfg(test)]
mod tests {
    use super::size_class;

    #[test]
    fn classes_bound_the_slack() {
        assert_eq!(size_class(1), 256);
        assert_eq!(size_class(256), 256);
        assert_eq!(size_class(257), 512);
        assert_eq!(size_class(4096), 4096);
        assert_eq!(size_class(4097), 4608);
        for bytes in [1000u64, 5000, 1 << 20, (1 << 26) + 3, 64_000_000] {
            let c = size_class(bytes);
            assert!(
                c >= bytes && (c - bytes) * 8 <= c.max(2048),
                "{bytes} → {c}"
            );
        }
    }
}
