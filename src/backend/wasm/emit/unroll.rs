//! Unrolled small kernels, for loop modules (`emit::loops`): a scan body's kernels are run
//! once per step on a few elements (a 2×2 matrix product, a carry of four values), where the
//! loop counters, the bounds checks and the index arithmetic of a loop cost more than the
//! values. In a loop module a kernel's `n` is always its size, so such a kernel is emitted as
//! straight-line code: the output index (and, in `emit::reduce`, a short reduction's index) is
//! set to each constant in turn before the same scalar expression, which the engine folds. The
//! values and their order are exactly those of the scalar loop.

use super::dsl::{i32c, E, S};
use super::{store_kind, Cx};
use crate::backend::caps::{
    WASM_UNROLL_MAX_ELEMENTS, WASM_UNROLL_MAX_NODES, WASM_UNROLL_MAX_REDUCTION,
};
use crate::core::DType;
use crate::kernel::{AluExp, Kernel};

fn nodes(exp: &AluExp) -> usize {
    1 + exp.children().into_iter().map(nodes).sum::<usize>()
}

/// Whether `kernel` is small enough to unroll.
pub fn small(kernel: &Kernel) -> bool {
    let reduce = kernel.reduction.map_or(1, |r| {
        if r.size <= WASM_UNROLL_MAX_REDUCTION {
            r.size
        } else {
            1
        }
    });
    let per = nodes(&kernel.exp) + kernel.epilogue.as_ref().map_or(0, nodes);
    kernel.size <= WASM_UNROLL_MAX_ELEMENTS && kernel.size * reduce * per <= WASM_UNROLL_MAX_NODES
}

/// One store of `value` at `addr` per output index `0..size`, then one of the epilogue's
/// mapped value per index (it reads the stored results in place).
pub fn stores(
    cx: &Cx,
    size: usize,
    dtype: DType,
    (addr, value): (E, E),
    epilogue: Option<(E, E)>,
) -> Vec<S> {
    let index = cx.index;
    let kind = store_kind(dtype);
    let mut body = Vec::with_capacity(2 * size);
    for (a, v) in std::iter::once((addr, value)).chain(epilogue) {
        for c in 0..size {
            body.push(index.set(i32c(c as i32)));
            body.push(S::Store(cx.memory, kind, a.clone(), v.clone()));
        }
    }
    body
}
