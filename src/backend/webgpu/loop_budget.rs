//! The shader loop limit of some adapters, and the loop iterations emitted shaders may run.
//!
//! Mesa's llvmpipe (lavapipe: the Vulkan driver of machines without a GPU, and so of CI and of
//! Deno there) compiles every shader loop with a limiter: an invocation has one counter of
//! [`LLVMPIPE_LOOP_LIMIT`] loop iterations shared by all its loops (each loop's exiting test
//! counts as an iteration too, loops with a small constant trip count are unrolled and cost
//! nothing), and once it runs out every loop ends early, silently. So on such an adapter
//! (`WebGpuBackend::loop_limit`) the backend plans every shader so that no invocation can run
//! more loop iterations than the limit: long reductions are cut into parts of a kernel each
//! (`exe`), the looping scan shaders and one-workgroup programs are used only when their
//! whole run fits (otherwise the pre-encoded scan, staged programs or kernel-by-kernel
//! execution run), and routines, sorts and FFTs that cannot fit fail with an error rather
//! than give a wrong answer. The counts here are upper bounds of that counter's use.

use super::WebGpuBackend;
use crate::kernel::routine::LeftSolve;
use crate::kernel::{AluExp, AluKind, BinaryOp, Kernel, Routine, RoutineKind};

/// Loop iterations per invocation on llvmpipe (`LP_MAX_TGSI_LOOP_ITERATIONS`).
pub const LLVMPIPE_LOOP_LIMIT: usize = 65535;

/// Iterations of the one data-dependent loop of the expression helpers: float `fmod` shifts
/// the dividend's significand 8 bits at a time across an exponent gap of at most 253, so at
/// most 32 iterations and the exiting test (`wgsl_lib`).
pub const FMOD_LOOPS: usize = 33;

/// The loop limit of an adapter named `name` (wgpu's `AdapterInfo::name`: the Vulkan device
/// name natively, WebGPU's `GPUAdapterInfo.description` in a browser or Deno), if it has one.
pub fn detect(name: &str) -> Option<usize> {
    name.to_ascii_lowercase()
        .contains("llvmpipe")
        .then_some(LLVMPIPE_LOOP_LIMIT)
}

/// Loop iterations one evaluation of `exp` may run (its float remainders).
pub fn exp_loops(exp: &AluExp) -> usize {
    let own = match exp.kind {
        AluKind::Binary(BinaryOp::Rem, ..) if exp.dtype.is_float() => FMOD_LOOPS,
        _ => 0,
    };
    exp.children()
        .into_iter()
        .fold(own, |n, child| n.saturating_add(exp_loops(child)))
}

/// Loop iterations the one-invocation emitter (`wgsl::reduce_into`, `wgsl::epilogue_into`)
/// may run for one output element of `kernel`.
pub fn element_loops(kernel: &Kernel) -> usize {
    let exp = exp_loops(&kernel.exp);
    let epilogue = kernel.epilogue.as_ref().map_or(0, exp_loops);
    let value = match kernel.reduction {
        None => exp,
        Some(red) => red.size.saturating_add(1).saturating_mul(exp + 1),
    };
    value.saturating_add(epilogue)
}

/// Iterations of a loop `for (x = start; x < n; x += step)` that starts below `step`, each
/// running `body` iterations of inner loops.
pub fn strided(n: usize, step: usize, body: usize) -> usize {
    let trips = n.div_ceil(step.max(1));
    trips
        .saturating_mul(body.saturating_add(1))
        .saturating_add(1)
}

/// Loop iterations one invocation of a single-shader routine (`wgsl_routines`: one matrix
/// of the batch) may run, following its loops. The sort and the FFT are not counted: their
/// passes loop within a tile of at most a thousand elements.
pub fn routine_loops(routine: &Routine) -> usize {
    let sum = |range: std::ops::Range<usize>, f: &dyn Fn(usize) -> usize| {
        range.map(f).fold(0usize, usize::saturating_add)
    };
    match routine.kind {
        RoutineKind::Cholesky => {
            let n = routine.n;
            let per_column = |j: usize| (j + 1) + (n - j) + (n - j - 1) * (j + 1) + (j + 1);
            (n + 1) + sum(0..n, &per_column) + n * n + 1
        }
        RoutineKind::TriangularSolve { .. } => {
            let Some(s) = LeftSolve::of(routine) else {
                return usize::MAX;
            };
            let per_column = (s.k + 1) + sum(0..s.k, &|p| p + 1);
            (routine.m * routine.n + 1) + (s.cols + 1) + s.cols.saturating_mul(per_column)
        }
        RoutineKind::Lu => {
            let (m, n) = (routine.m, routine.n);
            let per_column = |j: usize| 3 * (m - j) + (n + 1) + (m - j) + (m - j) * (n - j);
            (m * n + 1) + (m + 1) + (m.min(n) + 1) + sum(0..m.min(n), &per_column)
        }
        // Every sweep (at most `MAX_SWEEPS`) may rotate every pair `p < q`.
        RoutineKind::Diagonalize => {
            let n = routine.n;
            let pair = 3 * (n + 1);
            (n * n + 1) + jacobi_sweeps(n, pair)
        }
        RoutineKind::OrthogonalColumns { .. } => {
            let (m, n) = (routine.m, routine.n);
            let pair = 2 * (m + 1) + (n + 1);
            (m * n + 1) + (n * n + 1) + jacobi_sweeps(n, pair)
        }
        RoutineKind::Sort | RoutineKind::Fft { .. } => 0,
    }
}

/// Loop iterations one invocation of a workgroup-per-matrix routine (`wgsl_routines_group`,
/// `w` invocations per matrix) may run, following its loops (invocation 0, which has the
/// most rows of every step); None for routines without such a shader.
pub fn group_routine_loops(routine: &Routine, w: usize) -> Option<usize> {
    let sum = |range: std::ops::Range<usize>, f: &dyn Fn(usize) -> usize| {
        range.map(f).fold(0usize, usize::saturating_add)
    };
    let (m, n) = (routine.m, routine.n);
    Some(match routine.kind {
        RoutineKind::Cholesky => {
            let per_column =
                |j: usize| strided(n - j, w, j + 1) + strided(j, w, 0) + strided(n - j - 1, w, 0);
            (n + 1) + sum(0..n, &per_column)
        }
        RoutineKind::TriangularSolve { .. } => {
            let s = LeftSolve::of(routine)?;
            let per_row = |p: usize| strided(s.cols, w, 0) + strided((s.k - 1 - p) * s.cols, w, 0);
            strided(m * n, w, 0) + (s.k + 1) + sum(0..s.k, &per_row)
        }
        RoutineKind::Lu => {
            let reduction = w.ilog2() as usize + 1;
            let per_column = |j: usize| {
                strided(m - j, w, 0)
                    + reduction
                    + strided(n, w, 0)
                    + strided(m - j - 1, w, 0)
                    + strided((m - j - 1) * (n - j - 1), w, 0)
            };
            strided(m * n, w, 0) + strided(m, w, 0) + (m.min(n) + 1) + sum(0..m.min(n), &per_column)
        }
        RoutineKind::Diagonalize | RoutineKind::OrthogonalColumns { .. } => {
            let pairs = n.div_ceil(2);
            let rounds = 2 * pairs - 1;
            let per_round = match routine.kind {
                RoutineKind::Diagonalize => 2 * strided(pairs, w, 0) + 3 * strided(pairs * n, w, 0),
                _ => strided(pairs, w, m + 1) + strided(pairs * m, w, 0) + strided(pairs * n, w, 0),
            };
            let sweep = rounds.saturating_mul(per_round) + 2;
            strided(m * n, w, 0)
                + strided(n * n, w, 0)
                + (w.ilog2() as usize + 1)
                + crate::backend::jacobi::MAX_SWEEPS.saturating_mul(sweep)
                + 1
        }
        RoutineKind::Sort | RoutineKind::Fft { .. } => return None,
    })
}

/// Loop iterations of the Jacobi sweeps over the pairs of `n` columns, each pair running
/// `pair` iterations when it rotates.
fn jacobi_sweeps(n: usize, pair: usize) -> usize {
    let pairs = n * n.saturating_sub(1) / 2;
    let sweep = (n + 1) + (pairs + n) + pairs.saturating_mul(pair);
    crate::backend::jacobi::MAX_SWEEPS
        .saturating_mul(sweep + 1)
        .saturating_add(1)
}

impl WebGpuBackend {
    /// The most loop iterations one invocation of a shader may run on this adapter (None: no
    /// limit); detected from the adapter's name.
    pub fn loop_limit(&self) -> Option<usize> {
        self.loop_limit
    }

    /// Sets the loop limit that shaders are planned against (tests lower it to exercise the
    /// split plans on any adapter; None lifts it). Compiled kernels and loops are dropped.
    pub fn set_loop_limit(&mut self, limit: Option<usize>) {
        if self.loop_limit != limit {
            self.loop_limit = limit;
            self.kernel_ids.clear();
            self.pipelines.clear();
            self.bind_groups.clear();
            self.loops.clear();
            self.routines.clear();
        }
    }

    /// Whether a shader whose invocations run at most `iterations()` loop iterations runs
    /// whole on this adapter (counted only where there is a limit).
    pub(super) fn loops_fit(&self, iterations: impl FnOnce() -> usize) -> bool {
        self.loop_limit.is_none_or(|limit| iterations() <= limit)
    }
}
