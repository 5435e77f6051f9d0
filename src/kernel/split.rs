//! Splitting a kernel that reads more input buffers than a device binds (decision 5).
//!
//! [`split_inputs`] packs inputs: while the kernel reads more than `max_inputs` buffers, up to
//! `max_inputs` inputs of one dtype are copied, back to back, into one new buffer by a packing
//! kernel (a chain of `Where`s on the flat position), and the original loads become loads of
//! the packed buffer at the input's offset. Each pack removes at least one binding, so the
//! loop ends as soon as `max_inputs ≥ 2` (or fewer dtypes than `max_inputs` remain); every
//! step reads at most `max_inputs` buffers. This is exact for any kernel (elementwise,
//! reductions, gathers): no expression is evaluated where the original would not evaluate it,
//! and each input element is copied once. Inputs a kernel declares but never loads are
//! dropped first.

use std::collections::BTreeSet;

use super::alu::{AluExp, AluKind, CompareOp};
use super::Kernel;
use crate::core::DType;
use crate::util::{Error, Result};

/// Where a step reads one of its inputs from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// Input `i` of the original kernel.
    Input(usize),
    /// The output of an earlier step.
    Step(usize),
}

/// One kernel of a split plan and where its inputs come from, by position.
#[derive(Debug, Clone)]
pub struct Step {
    pub kernel: Kernel,
    pub sources: Vec<Source>,
}

/// The inputs the expression loads, in increasing order.
pub fn used_inputs(exp: &AluExp) -> BTreeSet<usize> {
    fn walk(e: &AluExp, out: &mut BTreeSet<usize>) {
        if let AluKind::Load { input, .. } = &e.kind {
            out.insert(*input);
        }
        for c in e.children() {
            walk(c, out);
        }
    }
    let mut out = BTreeSet::new();
    walk(exp, &mut out);
    out
}

/// `exp` with input `i` renamed to `map(i)` and its loads' indices shifted by `offset(i)`.
pub(super) fn relabel(exp: &AluExp, map: &dyn Fn(usize) -> (usize, usize)) -> AluExp {
    exp.rewrite(&|e| match &e.kind {
        AluKind::Load { input, index } => {
            let (to, offset) = map(*input);
            let index = relabel(index, map);
            let index = AluExp::index_add(index, AluExp::constant(DType::Int32, offset as f64));
            Some(AluExp::load(e.dtype, to, index))
        }
        _ => None,
    })
}

/// The kernel that copies `sizes[j]` elements of inputs `0..sizes.len()` back to back.
fn pack_kernel(dtype: DType, sizes: &[usize]) -> Kernel {
    let total: usize = sizes.iter().sum();
    let i = AluExp::index;
    let int = |v: usize| AluExp::constant(DType::Int32, v as f64);
    let mut starts = Vec::with_capacity(sizes.len());
    let mut start = 0;
    for &s in sizes {
        starts.push(start);
        start += s;
    }
    let last = sizes.len() - 1;
    let shifted = |j: usize| AluExp::binary(super::BinaryOp::Sub, i(), int(starts[j]));
    let mut exp = AluExp::load(dtype, last, shifted(last));
    for j in (0..last).rev() {
        let end = starts[j] + sizes[j];
        exp = AluExp::where_(
            AluExp::compare(CompareOp::Lt, i(), int(end)),
            AluExp::load(dtype, j, shifted(j)),
            exp,
        );
    }
    Kernel::elementwise(vec![dtype; sizes.len()], total, exp)
}

/// Splits `kernel` into steps that each read at most `max_inputs` buffers; the last step
/// computes the kernel's output. `input_sizes[i]` is the number of elements in input `i`'s
/// buffer.
pub fn split_inputs(
    kernel: &Kernel,
    input_sizes: &[usize],
    max_inputs: usize,
) -> Result<Vec<Step>> {
    let fail = |what: String| Error::new("webgpu", what);
    // The current kernel reads `sources[j]` as its input j.
    let mut sources: Vec<Source> = (0..kernel.inputs.len()).map(Source::Input).collect();
    let mut dtypes = kernel.inputs.clone();
    let mut sizes = input_sizes.to_vec();
    let mut exp = kernel.exp.clone();
    let mut steps: Vec<Step> = Vec::new();
    loop {
        // Drop the inputs that are not loaded, renumbering the rest.
        let used: Vec<usize> = used_inputs(&exp).into_iter().collect();
        if used.len() < sources.len() {
            let mut new_index = vec![0; sources.len()];
            for (k, &u) in used.iter().enumerate() {
                new_index[u] = k;
            }
            exp = relabel(&exp, &|j| (new_index[j], 0));
            sources = used.iter().map(|&u| sources[u]).collect();
            dtypes = used.iter().map(|&u| dtypes[u]).collect();
            sizes = used.iter().map(|&u| sizes[u]).collect();
        }
        let n = sources.len();
        if n <= max_inputs {
            steps.push(Step {
                kernel: Kernel {
                    inputs: dtypes,
                    exp,
                    ..kernel.clone()
                },
                sources,
            });
            return Ok(steps);
        }
        // The dtype with the most inputs; pack just enough of them.
        let mut best: Option<(DType, usize)> = None;
        for &d in &dtypes {
            let count = dtypes.iter().filter(|&&x| x == d).count();
            if best.is_none_or(|(_, c)| count > c) {
                best = Some((d, count));
            }
        }
        let (dtype, count) = best.expect("n > max_inputs ≥ 0 means at least one input");
        let k = count.min(max_inputs).min(n - max_inputs + 1);
        if k < 2 {
            return Err(fail(format!(
                "a kernel reading {n} buffers cannot be split to the device's limit of \
                 {max_inputs} inputs"
            )));
        }
        let members: Vec<usize> = (0..n).filter(|&j| dtypes[j] == dtype).take(k).collect();
        let member_sizes: Vec<usize> = members.iter().map(|&j| sizes[j]).collect();
        let total: usize = member_sizes.iter().sum();
        if total > i32::MAX as usize {
            return Err(fail(format!(
                "packing {total} elements to fit the device's buffer limit overflows int32 indices"
            )));
        }
        steps.push(Step {
            kernel: pack_kernel(dtype, &member_sizes),
            sources: members.iter().map(|&j| sources[j]).collect(),
        });
        // The packed buffer becomes input `n` (renumbered by the next round's compaction).
        let mut offsets = vec![None; n];
        let mut start = 0;
        for (&j, &s) in members.iter().zip(&member_sizes) {
            offsets[j] = Some(start);
            start += s;
        }
        exp = relabel(&exp, &|j| match offsets[j] {
            Some(offset) => (n, offset),
            None => (j, 0),
        });
        sources.push(Source::Step(steps.len() - 1));
        dtypes.push(dtype);
        sizes.push(total);
    }
}
