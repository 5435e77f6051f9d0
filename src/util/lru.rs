//! A bounded least-recently-used map. Every cache in oxjax (compiled kernels, pipelines,
//! programs) is one of these, so long-running processes reach a steady state.

use std::collections::HashMap;
use std::hash::Hash;

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
    map: HashMap<K, (V, u64)>,
    clock: u64,
    stats: CacheStats,
}

impl<K: Hash + Eq + Clone, V> Lru<K, V> {
    pub fn new(capacity: usize) -> Self {
        assert!(capacity > 0, "an Lru needs room for one entry");
        Lru {
            map: HashMap::new(),
            clock: 0,
            stats: CacheStats {
                capacity,
                ..CacheStats::default()
            },
        }
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
}
