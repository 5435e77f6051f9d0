//! Kernels and batched routines split across worker threads: the work of a dispatch, its
//! chunks, and the calls into the worker pool (which dispatches are split is chosen in
//! `strategy.rs`) (`js/wasm-pool.ts`, attached from
//! TypeScript at import time). A split dispatch publishes its chunks to the pool; the calling
//! thread and the workers claim chunks one at a time until none is left (so a worker that is
//! slow to wake costs the others nothing), then the calling thread waits for the chunks
//! workers took and computes again any they did not complete. A dispatch still returns only
//! when its whole output is written: a buffer is never freed, reused or read while a worker is
//! writing or reading it.
//!
//! A split never changes a value: every output element is computed by the same code whatever
//! chunk it falls in (kernel chunks start at multiples of `emit::split_align`; a routine's
//! chunks are whole problems of its batch, each solved by the same code as in one call), and
//! reductions are never split (each output element's reduction runs on one thread, in
//! `kernel::order`'s order). Chunks a worker did not complete (it threw, or the pool stopped)
//! are computed again on the calling thread; a kernel or routine writes each output element
//! from its inputs only (an output is never one of its inputs), so computing a chunk twice
//! writes the same bytes.

use std::cell::Cell;

use crate::kernel::{AluExp, Kernel, Routine, RoutineKind};

/// Each chunk gets at least this much work.
pub const MIN_WORK_PER_CHUNK: u64 = 1 << 16;
/// At most this many chunks per thread (more chunks balance uneven threads better; each claim
/// costs a compare-exchange and a call).
pub const CHUNKS_PER_THREAD: usize = 4;
/// At most this many chunks per dispatch (the pool's control block, `js/wasm-worker.ts`).
pub const MAX_CHUNKS: usize = 256;

thread_local! {
    static SPLIT_EVERYTHING: Cell<bool> = const { Cell::new(false) };
    static NEXT_POOL_ID: Cell<u64> = const { Cell::new(1) };
}

/// A new id for a module the worker pool may run (workers keep modules by it).
pub fn next_pool_id() -> u64 {
    NEXT_POOL_ID.with(|n| n.replace(n.get() + 1))
}

/// Test switch: split every kernel and batched routine compiled from now on into the smallest
/// chunks its alignment allows, whatever its work (tests that run a corpus of small kernels on
/// several threads).
pub fn set_split_everything(on: bool) {
    SPLIT_EVERYTHING.with(|s| s.set(on));
}

/// Whether [`set_split_everything`] is on.
pub(super) fn split_everything() -> bool {
    SPLIT_EVERYTHING.with(Cell::get)
}

/// The work of one call of `kernel`: output elements × reduction length × expression nodes
/// (`caps::WASM_SPLIT_MIN_WORK`).
pub fn work(kernel: &Kernel) -> u64 {
    fn nodes(e: &AluExp) -> u64 {
        1 + e.children().into_iter().map(nodes).sum::<u64>()
    }
    let reduce = kernel.reduction.map_or(1, |r| r.size.max(1)) as u64;
    let epilogue = kernel.epilogue.as_ref().map_or(0, nodes);
    kernel.size as u64 * (reduce * nodes(&kernel.exp) + epilogue)
}

/// The work of one call of an emitted routine (multiply-adds, roughly): batch × n³ for a
/// factorisation, batch × k² × (columns of the right-hand side) for a triangular solve.
pub fn routine_work(routine: &Routine) -> u64 {
    let (m, n) = (routine.m as u64, routine.n as u64);
    let per = match routine.kind {
        RoutineKind::TriangularSolve { .. } => routine.k() as u64 * m * n,
        _ => m * n * m.max(n),
    };
    routine.batch as u64 * per
}

/// Chunks `start..end` covering `0..size`, each starting at a multiple of `align`: at most
/// [`CHUNKS_PER_THREAD`] per thread and [`MAX_CHUNKS`], each with at least
/// [`MIN_WORK_PER_CHUNK`] of `work` (with [`set_split_everything`], as many as the alignment
/// allows, within [`MAX_CHUNKS`]). One chunk means the dispatch runs on the calling thread.
pub fn split(size: usize, align: usize, work: u64, threads: usize) -> Vec<(u32, u32)> {
    let units = size.div_ceil(align.max(1));
    let parts = if split_everything() {
        units
    } else {
        let by_work = (work / MIN_WORK_PER_CHUNK).max(1) as usize;
        units.min(by_work).min(threads * CHUNKS_PER_THREAD)
    };
    let parts = parts.clamp(1, MAX_CHUNKS);
    let per = units.div_ceil(parts) * align.max(1);
    (0..parts)
        .map(|p| (p * per, ((p + 1) * per).min(size)))
        .filter(|(a, b)| a < b)
        .map(|(a, b)| (a as u32, b as u32))
        .collect()
}

#[cfg(target_arch = "wasm32")]
mod pool;

#[cfg(target_arch = "wasm32")]
pub use pool::{attach, run_split};

#[cfg(not(target_arch = "wasm32"))]
pub fn run_split(
    _module: &super::module::KernelModule,
    _addresses: &[u32],
) -> crate::util::Result<bool> {
    Ok(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_cover_the_output_once_and_start_aligned() {
        for (size, align, threads) in [
            (1000, 16, 4),
            (1 << 20, 16, 16),
            (4096, 512, 3),
            (17, 16, 8),
        ] {
            let r = split(size, align, u64::MAX, threads);
            assert!(r.len() <= threads * CHUNKS_PER_THREAD && !r.is_empty());
            assert_eq!((r[0].0, r.last().unwrap().1), (0, size as u32));
            for w in r.windows(2) {
                assert_eq!(w[0].1, w[1].0);
            }
            assert!(r.iter().all(|&(a, _)| (a as usize).is_multiple_of(align)));
        }
        assert_eq!(split(17, 16, u64::MAX, 8), vec![(0, 16), (16, 17)]);
    }

    #[test]
    fn small_work_stays_on_one_thread() {
        assert_eq!(split(1 << 20, 16, MIN_WORK_PER_CHUNK, 16).len(), 1);
        assert_eq!(split(1 << 20, 16, 3 * MIN_WORK_PER_CHUNK, 16).len(), 3);
        assert_eq!(split(1 << 20, 16, u64::MAX, 2).len(), 2 * CHUNKS_PER_THREAD);
    }

    #[test]
    fn split_everything_cuts_at_every_alignment() {
        set_split_everything(true);
        assert_eq!(split(64, 16, 1, 2).len(), 4);
        assert_eq!(split(1 << 20, 16, 1, 2).len(), MAX_CHUNKS);
        set_split_everything(false);
    }
}
