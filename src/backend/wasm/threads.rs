//! Kernels split across worker threads: which kernels are split, into which ranges of output
//! elements, and the calls into the worker pool (`js/wasm-pool.ts`, attached from TypeScript
//! at import time). The calling thread computes the first range itself and then waits for the
//! others, so a dispatch still returns only when its whole output is written: a buffer is
//! never freed, reused or read while a worker is writing or reading it.
//!
//! A split never changes a value: every output element is computed by the same code whatever
//! range it falls in (ranges start at multiples of `emit::split_align`), and reductions are
//! never split (each output element's reduction runs on one thread, in `kernel::order`'s
//! order). Ranges a worker did not complete (it threw, or the pool stopped) are computed again
//! on the calling thread; a kernel writes each output element from its inputs only (its
//! output is never one of its inputs), so computing a range twice writes the same bytes.

use crate::kernel::{AluExp, Kernel};

/// Kernels of less work (output elements × reduction length × expression nodes) run on the
/// calling thread: waking a worker costs tens of microseconds.
pub const MIN_PARALLEL_WORK: u64 = 1 << 18;
/// Each thread gets at least this much work.
pub const MIN_WORK_PER_THREAD: u64 = 1 << 17;

/// The work of one call of `kernel` (see [`MIN_PARALLEL_WORK`]).
pub fn work(kernel: &Kernel) -> u64 {
    fn nodes(e: &AluExp) -> u64 {
        1 + e.children().into_iter().map(nodes).sum::<u64>()
    }
    let reduce = kernel.reduction.map_or(1, |r| r.size.max(1)) as u64;
    let epilogue = kernel.epilogue.as_ref().map_or(0, nodes);
    kernel.size as u64 * (reduce * nodes(&kernel.exp) + epilogue)
}

/// Ranges `start..end` covering `0..size`, each starting at a multiple of `align`, for at most
/// `threads` threads with at least [`MIN_WORK_PER_THREAD`] of `work` each. One range means
/// the kernel runs on the calling thread.
pub fn split(size: usize, align: usize, work: u64, threads: usize) -> Vec<(u32, u32)> {
    let by_work = (work / MIN_WORK_PER_THREAD).max(1) as usize;
    let units = size.div_ceil(align.max(1));
    let parts = threads.min(by_work).min(units).max(1);
    let per = units.div_ceil(parts) * align.max(1);
    (0..parts)
        .map(|p| (p * per, ((p + 1) * per).min(size)))
        .filter(|(a, b)| a < b)
        .map(|(a, b)| (a as u32, b as u32))
        .collect()
}

#[cfg(target_arch = "wasm32")]
mod pool {
    use js_sys::{Array, Function, Reflect, Uint32Array, Uint8Array};
    use std::cell::RefCell;
    use wasm_bindgen::{JsCast, JsValue};

    /// The pool's entry points (`js/wasm-pool.ts`): `threads()`, `begin(id, bytes, args,
    /// ranges)` and `finish()`.
    struct Pool {
        threads: Function,
        begin: Function,
        finish: Function,
    }

    thread_local! {
        static POOL: RefCell<Option<Pool>> = const { RefCell::new(None) };
    }

    fn function(pool: &JsValue, name: &str) -> Option<Function> {
        Reflect::get(pool, &name.into()).ok()?.dyn_into().ok()
    }

    /// Attaches the pool object TypeScript made (replacing any earlier one).
    pub fn attach(pool: &JsValue) {
        let entry = (|| {
            Some(Pool {
                threads: function(pool, "threads")?,
                begin: function(pool, "begin")?,
                finish: function(pool, "finish")?,
            })
        })();
        POOL.with(|p| *p.borrow_mut() = entry);
    }

    /// Threads that can run a kernel now, the calling thread included (1: no pool yet; asking
    /// starts it where it is enabled).
    pub fn threads() -> usize {
        POOL.with(|p| {
            let p = p.borrow();
            let Some(pool) = p.as_ref() else { return 1 };
            pool.threads
                .call0(&JsValue::NULL)
                .ok()
                .and_then(|v| v.as_f64())
                .map_or(1, |t| t.max(1.0) as usize)
        })
    }

    /// Hands `ranges` of kernel `id` (its module's `bytes`, its buffer `args`) to workers, one
    /// range each. False when the pool took none of them.
    pub fn begin(
        id: crate::backend::ExeId,
        bytes: &Uint8Array,
        args: &[u32],
        ranges: &[(u32, u32)],
    ) -> bool {
        let flat: Vec<u32> = ranges.iter().flat_map(|&(a, b)| [a, b]).collect();
        let call_args = Array::of4(
            &JsValue::from(id as f64),
            bytes,
            &Uint32Array::from(args),
            &Uint32Array::from(&flat[..]),
        );
        POOL.with(|p| {
            let p = p.borrow();
            p.as_ref().is_some_and(|pool| {
                pool.begin
                    .apply(&JsValue::NULL, &call_args)
                    .is_ok_and(|v| v.is_truthy())
            })
        })
    }

    /// Waits for the ranges handed out by [`begin`]; returns the indices (into those ranges)
    /// that no worker completed.
    pub fn finish(count: usize) -> Vec<usize> {
        POOL.with(|p| {
            let p = p.borrow();
            let Some(pool) = p.as_ref() else {
                return (0..count).collect();
            };
            match pool.finish.call0(&JsValue::NULL) {
                Ok(v) => Array::from(&v)
                    .iter()
                    .filter_map(|x| x.as_f64())
                    .map(|x| x as usize)
                    .collect(),
                Err(_) => (0..count).collect(),
            }
        })
    }
}

#[cfg(target_arch = "wasm32")]
pub use pool::{attach, begin, finish, threads};

/// Runs kernel `module` (cache id `id`) on `addresses` (output, then inputs) split across
/// threads, when it is split and the pool has threads now: the calling thread computes the
/// first range, waits for the workers, and computes any range they did not complete. False
/// (nothing run) when the kernel stays on the calling thread.
#[cfg(target_arch = "wasm32")]
pub fn run_split(
    module: &super::module::KernelModule,
    id: crate::backend::ExeId,
    addresses: &[u32],
) -> crate::util::Result<bool> {
    let Some(split_at) = module.split() else {
        return Ok(false);
    };
    let available = threads();
    if available < 2 {
        return Ok(false);
    }
    let ranges = split(module.size(), split_at.align, split_at.work, available);
    if ranges.len() < 2 || !begin(id, &split_at.bytes, addresses, &ranges[1..]) {
        return Ok(false);
    }
    let own = module.call_range(ranges[0], addresses);
    // Always wait for the workers before returning, even when the own range failed.
    let missed = finish(ranges.len() - 1);
    own?;
    for i in missed {
        module.call_range(ranges[1 + i], addresses)?;
    }
    Ok(true)
}

#[cfg(not(target_arch = "wasm32"))]
pub fn run_split(
    _module: &super::module::KernelModule,
    _id: crate::backend::ExeId,
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
            assert!(r.len() <= threads && !r.is_empty());
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
        assert_eq!(split(1 << 20, 16, MIN_WORK_PER_THREAD, 16).len(), 1);
        assert_eq!(split(1 << 20, 16, 3 * MIN_WORK_PER_THREAD, 16).len(), 3);
    }
}
