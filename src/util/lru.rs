//! A bounded least-recently-used map. Every cache in oxjax (compiled kernels, pipelines,
//! programs) is one of these, so long-running processes reach a steady state.

use std::collections::HashMap;

use super::fast_hash::FastBuildHasher;
use std::hash::Hash;
use std::sync::atomic::{AtomicU64, Ordering};

/// Numbers every [`Lru`], so that generations of different caches never coincide.
static SERIAL: AtomicU64 = AtomicU64::new(1);

/// Counters that describe a cache, reported by `memoryStats()`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CacheStats {
    pub entries: usize,
    pub capacity: usize,
    pub hits: u64,
    pub misses: u64,
    pub evictions: u64,
}

/// A map holding at most `capacity` entries; inserting past that evicts the least recently
/// used entry.
pub struct Lru<K, V> {
    map: HashMap<K, (V, u64), FastBuildHasher>,
    clock: u64,
    stats: CacheStats,
    serial: u64,
    clears: u64,
}

impl<K: Hash + Eq + Clone, V> Lru<K, V> {
    pub fn new(capacity: usize) -> Self {
        assert!(capacity > 0, "an Lru needs room for one entry");
        Lru {
            map: HashMap::default(),
            clock: 0,
            stats: CacheStats {
                capacity,
                ..CacheStats::default()
            },
            serial: SERIAL.fetch_add(1, Ordering::Relaxed),
            clears: 0,
        }
    }

    /// Changes whenever an entry leaves the cache (evicted or cleared) and differs between
    /// caches, so a value copied out of it (e.g. a compiled kernel id kept by a jit Program)
    /// is still valid exactly while the generation it was read under is current.
    pub fn generation(&self) -> u64 {
        (self.serial << 40) | (self.stats.evictions + self.clears)
    }

    /// Raises the capacity to at least `entries` (never lowers it): an owner that knows how
    /// many entries one unit of work uses (a jitted program's kernels) sizes the cache so that
    /// they never evict each other.
    pub fn reserve(&mut self, entries: usize) {
        self.stats.capacity = self.stats.capacity.max(entries);
    }

    /// Whether `key` is present, without marking it as used.
    pub fn contains_key(&self, key: &K) -> bool {
        self.map.contains_key(key)
    }

    /// Looks `key` up, marking it as recently used.
    pub fn get(&mut self, key: &K) -> Option<&V> {
        self.clock += 1;
        let clock = self.clock;
        match self.map.get_mut(key) {
            Some(entry) => {
                entry.1 = clock;
                self.stats.hits += 1;
                Some(&entry.0)
            }
            None => {
                self.stats.misses += 1;
                None
            }
        }
    }

    /// Inserts `value`, evicting the least recently used entry when full. Returns the evicted
    /// value, if any, so the owner can release what it holds.
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        self.clock += 1;
        let mut evicted = None;
        if !self.map.contains_key(&key) && self.map.len() >= self.stats.capacity {
            let oldest = self
                .map
                .iter()
                .min_by_key(|(_, (_, t))| *t)
                .map(|(k, _)| k.clone());
            if let Some(oldest) = oldest {
                evicted = self.map.remove(&oldest).map(|(v, _)| v);
                self.stats.evictions += 1;
            }
        }
        self.map.insert(key, (value, self.clock));
        evicted
    }

    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    pub fn clear(&mut self) {
        self.map.clear();
        self.clears += 1;
    }

    pub fn stats(&self) -> CacheStats {
        CacheStats {
            entries: self.map.len(),
            ..self.stats
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evicts_least_recently_used() {
        let mut lru = Lru::new(2);
        lru.insert("a", 1);
        lru.insert("b", 2);
        assert_eq!(lru.get(&"a"), Some(&1));
        assert_eq!(lru.insert("c", 3), Some(2));
        assert_eq!(lru.get(&"b"), None);
        assert_eq!(lru.len(), 2);
        let stats = lru.stats();
        assert_eq!((stats.hits, stats.misses, stats.evictions), (1, 1, 1));
    }

    #[test]
    fn the_generation_changes_when_entries_leave() {
        let mut lru = Lru::new(2);
        let other: Lru<&str, i32> = Lru::new(2);
        assert_ne!(lru.generation(), other.generation());
        let g0 = lru.generation();
        lru.insert("a", 1);
        lru.insert("b", 2);
        lru.get(&"a");
        assert_eq!(lru.generation(), g0);
        lru.insert("c", 3);
        let g1 = lru.generation();
        assert_ne!(g1, g0);
        lru.clear();
        assert_ne!(lru.generation(), g1);
    }
}
