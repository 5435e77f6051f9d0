//! Matrix products whose two operands both read the contracted axis contiguously (`a·bᵀ`,
//! `x·xᵀ`, `q·kᵀ`: `inner`, `cov`, attention scores, einsums and dots that contract last axes)
//! run as two kernels: the column operand is first stored transposed — a dense `[batch, k, n]`
//! copy, one layout change — and the product then reads it along the columns, as an ordinary
//! matrix product does.
//!
//! By the summation-order rule (`order`) such a product would otherwise be lane-blocked (its
//! loads read the reduced axis with stride 1) and accumulate in f64, which no tiled matrix
//! code computes; staged, its column loads have stride `n` in the reduction, so it is a
//! float32 sum of products summed in order (`order::narrow`), which the register-tiled wasm
//! code and the WGSL tiles compute. [`staged`] is the one place that decides: every kernel
//! is finished (eagerly in `transform::eval`, in a Program by `lower::fuse`) and then offered
//! to it, so every device — the `cpu` interpreter included — runs the same two kernels, and
//! results stay bit-identical across backends.
//!
//! Only products worth a copy are staged: at least [`MIN_TERMS`] products summed (output
//! elements × contracted length) and at least [`MIN_SIDE`] rows and columns per product
//! (each stored element is then read by at least that many rows); smaller ones keep the
//! lane-blocked order, where a copy would be pure overhead. A batch of products whose copy
//! would pass 4 times the output (a column operand shared by several products of the batch,
//! copied once per product, with a long contraction) is not staged either.

use super::alu::{AluExp, AluKind, BinaryOp};
use super::matmul::structure;
use super::split::{relabel, used_inputs, Source, Step};
use super::{order, simplify, Kernel};
use crate::core::DType;

/// The fewest terms (output elements × contracted length) of a staged product.
pub const MIN_TERMS: usize = 1 << 15;

/// The fewest rows and columns per product of a staged product.
pub const MIN_SIDE: usize = 8;

/// `e` with `Index` and `ReduceIndex` replaced (`ReduceIndex` by `reduce` where given).
fn at(e: &AluExp, index: &AluExp, reduce: Option<&AluExp>) -> AluExp {
    e.rewrite(&|x| match x.kind {
        AluKind::Index => Some(index.clone()),
        AluKind::ReduceIndex => reduce.cloned(),
        _ => None,
    })
}

/// `exp`'s inputs renumbered to those it loads, and which inputs of `dtypes` they are.
fn compact(exp: &AluExp, dtypes: &[DType]) -> (AluExp, Vec<usize>, Vec<DType>) {
    let used: Vec<usize> = used_inputs(exp).into_iter().collect();
    let mut to = vec![0; dtypes.len()];
    for (j, &u) in used.iter().enumerate() {
        to[u] = j;
    }
    let exp = relabel(exp, &|i| (to[i], 0));
    let types = used.iter().map(|&u| dtypes[u]).collect();
    (exp, used, types)
}

/// The two steps computing `kernel` with its column operand stored transposed first, when it
/// is a float32 matrix product whose operands both read the contracted axis contiguously and
/// large enough to gain (see the module documentation), and neither step binds more than
/// `max_inputs` buffers; `None` otherwise. Step 0 stores the operand (reading
/// `Source::Input`s of `kernel`); step 1, the product (reading inputs of `kernel` and
/// `Source::Step(0)`), writes `kernel`'s output.
pub fn staged(kernel: &Kernel, max_inputs: usize) -> Option<[Step; 2]> {
    let red = kernel.reduction?;
    let plain_product = matches!(kernel.exp.kind, AluKind::Binary(BinaryOp::Mul, ..));
    if !plain_product
        || kernel.exp.dtype != DType::Float32
        || !order::blocked(kernel)
        || kernel.size.saturating_mul(red.size) < MIN_TERMS
    {
        return None;
    }
    let m = structure(kernel)?;
    // A batch of products may read one operand for several products (broadcast batch axes);
    // its stored copy is then held to 4 times the output. (And to int32 indices.)
    let stored_size = m.batches.checked_mul(m.k)?.checked_mul(m.n)?;
    let outgrows = m.batches > 1 && stored_size > kernel.size.saturating_mul(4);
    if m.rows < MIN_SIDE || m.n < MIN_SIDE || outgrows || stored_size > i32::MAX as usize {
        return None;
    }
    let (rows, n, k) = (m.rows, m.n, m.k);
    // The stored operand: t = (batch · k + kk) · n + col holds b at (batch, col, kk).
    let t = AluExp::index;
    let batch = AluExp::index_div(t(), k * n);
    let kk = AluExp::index_rem(AluExp::index_div(t(), n), k);
    let col = AluExp::index_rem(t(), n);
    let b_index = AluExp::index_add(AluExp::index_mul(batch, (rows * n) as isize), col);
    let (b_exp, b_inputs, b_types) = compact(&at(&m.b, &b_index, Some(&kk)), &kernel.inputs);
    let copy = simplify::kernel(&Kernel::elementwise(b_types, stored_size, b_exp));
    // The product reads it at (batch, r, col) of its own output index.
    let (a_exp, a_inputs, mut a_types) = compact(&m.a, &kernel.inputs);
    let i = AluExp::index;
    let stored = AluExp::index_add(
        AluExp::index_add(
            AluExp::index_mul(AluExp::index_div(i(), rows * n), (k * n) as isize),
            AluExp::index_mul(AluExp::reduce_index(), n as isize),
        ),
        AluExp::index_rem(i(), n),
    );
    let load = AluExp::load(DType::Float32, a_types.len(), stored);
    a_types.push(DType::Float32);
    let product = simplify::kernel(&Kernel {
        inputs: a_types,
        exp: AluExp::binary(BinaryOp::Mul, a_exp, load),
        ..kernel.clone()
    });
    let mut sources: Vec<Source> = a_inputs.into_iter().map(Source::Input).collect();
    sources.push(Source::Step(0));
    if sources.len() > max_inputs || b_inputs.len() > max_inputs {
        return None;
    }
    Some([
        Step {
            kernel: copy,
            sources: b_inputs.into_iter().map(Source::Input).collect(),
        },
        Step {
            kernel: product,
            sources,
        },
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::matmul::structure;
    use crate::kernel::{ReduceOp, Reduction};

    /// `out[i, j] = Σ_r x[i, r] · y[j, r]` over `m × k` and `n × k` row-major inputs.
    fn inner(m: usize, n: usize, k: usize) -> Kernel {
        let r = AluExp::reduce_index;
        let i = AluExp::index;
        let row = AluExp::index_div(i(), n);
        let col = AluExp::index_rem(i(), n);
        let x = AluExp::load(
            DType::Float32,
            0,
            AluExp::index_add(AluExp::index_mul(row, k as isize), r()),
        );
        let y = AluExp::load(
            DType::Float32,
            1,
            AluExp::index_add(AluExp::index_mul(col, k as isize), r()),
        );
        Kernel {
            inputs: vec![DType::Float32; 2],
            size: m * n,
            exp: AluExp::binary(BinaryOp::Mul, x, y),
            reduction: Some(Reduction {
                op: ReduceOp::Sum,
                size: k,
            }),
            epilogue: None,
        }
    }

    /// `out[g, h, i, j] = Σ_r x[g, h, i, r] · y[h, j, r]`: `groups · heads` products of
    /// `m × n`, `y` shared by the groups.
    fn shared(groups: usize, heads: usize, m: usize, n: usize, k: usize) -> Kernel {
        let i = AluExp::index;
        let x_index = AluExp::index_add(
            AluExp::index_mul(AluExp::index_div(i(), n), k as isize),
            AluExp::reduce_index(),
        );
        let head = AluExp::index_rem(AluExp::index_div(i(), m * n), heads);
        let y_row = AluExp::index_add(
            AluExp::index_mul(head, n as isize),
            AluExp::index_rem(i(), n),
        );
        let y_index =
            AluExp::index_add(AluExp::index_mul(y_row, k as isize), AluExp::reduce_index());
        Kernel {
            inputs: vec![DType::Float32; 2],
            size: groups * heads * m * n,
            exp: AluExp::binary(
                BinaryOp::Mul,
                AluExp::load(DType::Float32, 0, x_index),
                AluExp::load(DType::Float32, 1, y_index),
            ),
            reduction: Some(Reduction {
                op: ReduceOp::Sum,
                size: k,
            }),
            epilogue: None,
        }
    }

    #[test]
    fn batches_of_products_are_staged_unless_the_copy_outgrows_the_output() {
        let steps = staged(&shared(4, 2, 32, 32, 32), 8).expect("a batch of 8 products");
        assert_eq!(steps[0].kernel.size, 8 * 32 * 32);
        let m = structure(&steps[1].kernel).expect("a batch of products");
        assert_eq!((m.batches, m.rows, m.n, m.k), (8, 32, 32, 32));
        assert!(order::narrow(&steps[1].kernel));
        // y copied for each of the 8 products: 8·256·8 elements for an output of 512.
        let long = shared(4, 2, 8, 8, 256);
        assert!(order::blocked(&long) && structure(&long).is_some_and(|m| m.batches == 8));
        assert!(staged(&long, 8).is_none());
    }

    #[test]
    fn large_inner_products_store_the_column_operand_transposed() {
        let kernel = inner(64, 64, 64);
        assert!(order::blocked(&kernel));
        let steps = staged(&kernel, 8).expect("a 64×64×64 inner product is staged");
        assert_eq!(steps[0].sources, vec![Source::Input(1)]);
        assert_eq!(steps[0].kernel.size, 64 * 64);
        assert!(steps[0].kernel.reduction.is_none());
        assert_eq!(steps[1].sources, vec![Source::Input(0), Source::Step(0)]);
        let product = &steps[1].kernel;
        assert!(order::narrow(product) && !order::blocked(product));
        let m = structure(product).expect("still a matrix product");
        assert_eq!((m.rows, m.n, m.k, m.batches), (64, 64, 64, 1));
    }

    #[test]
    fn small_or_strided_products_are_left_alone() {
        assert!(staged(&inner(16, 16, 16), 8).is_none());
        assert!(staged(&inner(4096, 4, 64), 8).is_none());
        // x·xᵀ reads one buffer; staged, the product reads two.
        let mut gram = inner(64, 64, 64);
        gram.exp = relabel(&gram.exp, &|_| (0, 0));
        gram.inputs.truncate(1);
        assert!(staged(&gram, 2).is_some());
        assert!(staged(&gram, 1).is_none());
        let mut plain = inner(64, 64, 64);
        // y read down its columns (an ordinary matmul layout): already narrow.
        plain.exp = plain.exp.rewrite(&|e| match &e.kind {
            AluKind::Load { input: 1, .. } => Some(AluExp::load(
                DType::Float32,
                1,
                AluExp::index_add(
                    AluExp::index_mul(AluExp::reduce_index(), 64),
                    AluExp::index_rem(AluExp::index(), 64),
                ),
            )),
            _ => None,
        });
        assert!(order::narrow(&plain));
        assert!(staged(&plain, 8).is_none());
    }
}
