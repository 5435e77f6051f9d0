//! Tests of the data memory's allocator (`memory.rs`).

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
fn a_refused_allocation_is_an_error_and_empties_the_pool() {
    let mut pool = Pool::default();
    let kept = pool.take(100).unwrap();
    pool.give(kept);
    // More than the 4 GiB a wasm32 memory can hold: an error, not an abort.
    assert!(pool.take(5 << 30).is_err());
    assert_eq!(pool.buffers(), 0);
    let b = pool.take(4096).unwrap();
    assert!(b.address() > 0 && b.address().is_multiple_of(16));
    pool.give(b);
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

#[test]
fn the_arena_never_overlaps_live_ranges_and_coalesces_freed_ones() {
    let mut arena = Arena::default();
    let base = arena.top();
    // A deterministic mix of sizes, freed in an interleaved order.
    let mut live: Vec<(u64, u64)> = Vec::new();
    let mut state = 12345u64;
    for round in 0..400 {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let bytes = 16 * (1 + (state >> 33) % 300);
        if round % 3 == 2 && !live.is_empty() {
            let (at, b) = live.swap_remove((state >> 20) as usize % live.len());
            arena.free(at, b);
        }
        let at = arena.alloc(bytes).unwrap();
        assert!(at >= base && at.is_multiple_of(16));
        for &(o, ob) in &live {
            assert!(at + bytes <= o || o + ob <= at, "overlap");
        }
        live.push((at, bytes));
    }
    assert!(arena.top() <= data::size());
    for (at, b) in live.drain(..) {
        arena.free(at, b);
    }
    // Everything freed: the used space shrinks back to its start and no hole is left.
    assert_eq!((arena.top(), arena.holes()), (base, 0));
}

#[test]
fn bytes_written_to_a_buffer_read_back() {
    let mut pool = Pool::default();
    let a = pool.take(40).unwrap();
    let b = pool.take(40).unwrap();
    data::write(a.address(), &[7; 40]);
    data::write(b.address(), &[9; 40]);
    assert_eq!(data::read(a.address(), 40), vec![7; 40]);
    assert_eq!(data::read(b.address(), 40), vec![9; 40]);
    pool.give(a);
    pool.give(b);
}
