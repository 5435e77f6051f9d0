//! Scheduling the ops of one step of the looping scan shader (`looping`): each op gets a
//! dependency LEVEL (one more than the highest level of the earlier ops it must follow: it
//! reads what they write, writes what they write, or writes what they read) and a LANE (the
//! first invocation of the range it runs on). Ops of one level run side by side on disjoint
//! invocation ranges, each from a warp boundary, while they fit the workgroup, so a step
//! costs one barrier per level rather than one per dependent op, and its latency is that of
//! its longest dependency chain (an RTS smoother step on a 2×2 state: six ops in three levels).
//!
//! The barriers between levels are only those of the memory spaces through which a level
//! depends on what was written (or read) since the last barrier of that space; the barrier at
//! the end of a step only those of the spaces a step leaves state in for the next one.

use super::looping::{LoopOp, Space, MAX_WORKGROUP};

/// Where an op runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slotting {
    pub level: usize,
    /// The first invocation of the op's range (its element `idx` runs on `lid = lane + idx`
    /// when it fits after the lane, else the op is a strided loop from invocation 0).
    pub lane: u32,
}

type Region = (usize, Space);

fn reads(op: &LoopOp) -> impl Iterator<Item = Region> + '_ {
    op.inputs.iter().map(|p| (p.region, p.space))
}

fn writes(op: &LoopOp) -> Region {
    (op.output.region, op.output.space)
}

/// The spaces through which `later` must wait for `earlier` (empty: independent).
fn hazards(earlier: &LoopOp, later: &LoopOp) -> Vec<Space> {
    let w = writes(earlier);
    let out = writes(later);
    let mut spaces: Vec<Space> = reads(later)
        .filter(|r| *r == w)
        .chain((out == w).then_some(w))
        .chain(reads(earlier).filter(|r| *r == out))
        .map(|r| r.1)
        .collect();
    spaces.dedup();
    spaces
}

/// The level and lane of every op, for a workgroup of `wg` invocations.
pub fn schedule(ops: &[LoopOp], wg: u32) -> Vec<Slotting> {
    let mut levels = vec![0usize; ops.len()];
    for k in 0..ops.len() {
        for j in 0..k {
            if !hazards(&ops[j], &ops[k]).is_empty() {
                levels[k] = levels[k].max(levels[j] + 1);
            }
        }
    }
    let depth = levels.iter().copied().max().map_or(0, |d| d + 1);
    let mut next_lane = vec![0u32; depth];
    levels
        .iter()
        .zip(ops)
        .map(|(&level, op)| {
            let size = op.kernel.size as u64;
            // Each op of a level starts a warp of its own: lanes of one warp that branch apart
            // run one after the other, different warps side by side.
            let lane = next_lane[level].div_ceil(WARP) * WARP;
            let lane = if lane as u64 + size <= wg as u64 {
                next_lane[level] = lane + size as u32;
                lane
            } else {
                0
            };
            Slotting { level, lane }
        })
        .collect()
}

/// The lanes of one warp (32 on NVIDIA and most desktop GPUs; a multiple of it elsewhere).
pub const WARP: u32 = 32;

/// Invocations wanted: the widest level (its ops side by side), at most [`MAX_WORKGROUP`].
pub fn widest_level(ops: &[LoopOp]) -> u32 {
    let sched = schedule(ops, MAX_WORKGROUP);
    let mut width = vec![0u64; sched.iter().map(|s| s.level + 1).max().unwrap_or(0)];
    for (s, op) in sched.iter().zip(ops) {
        width[s.level] = width[s.level].max(s.lane as u64 + op.kernel.size as u64);
    }
    width
        .into_iter()
        .max()
        .unwrap_or(1)
        .min(MAX_WORKGROUP as u64) as u32
}

/// The ops in emission order (by level, then program order) with the barrier spaces to emit
/// before each.
pub fn emission(ops: &[LoopOp], sched: &[Slotting]) -> Vec<(usize, Vec<Space>)> {
    let mut order: Vec<usize> = (0..ops.len()).collect();
    order.sort_by_key(|&k| (sched[k].level, k));
    // Ops emitted since the last barrier of each space (by index into `ops`).
    let mut pending: Vec<usize> = Vec::new();
    let mut out = Vec::with_capacity(ops.len());
    let mut cleared: [Vec<usize>; 2] = [Vec::new(), Vec::new()];
    for &k in &order {
        let mut spaces: Vec<Space> = Vec::new();
        for &j in &pending {
            for s in hazards(&ops[j], &ops[k]) {
                let i = space_index(s);
                if !cleared[i].contains(&j) && !spaces.contains(&s) {
                    spaces.push(s);
                }
            }
        }
        spaces.sort_by_key(|&s| space_index(s));
        for &s in &spaces {
            // A barrier of `s` settles every earlier op's accesses to `s`.
            cleared[space_index(s)] = pending.clone();
        }
        pending.push(k);
        out.push((k, spaces));
    }
    out
}

fn space_index(s: Space) -> usize {
    match s {
        Space::Storage => 0,
        Space::Workgroup => 1,
    }
}

/// The barriers at the end of a step: storage when an op leaves state in the storage buffer
/// for the next step (carries or temps there; xs rows are only read and ys rows written once,
/// at rows of their own), workgroup when anything lives in workgroup memory (`staged`: xs
/// rows are staged there too).
pub fn step_end(ops: &[LoopOp], staged: bool) -> Vec<Space> {
    let mut spaces = Vec::new();
    if ops
        .iter()
        .any(|op| op.output.space == Space::Storage && op.output.row_stride == 0)
    {
        spaces.push(Space::Storage);
    }
    if staged
        || ops.iter().any(|op| {
            op.output.space == Space::Workgroup || reads(op).any(|r| r.1 == Space::Workgroup)
        })
    {
        spaces.push(Space::Workgroup);
    }
    spaces
}

#[cfg(test)]
mod tests {
    use super::super::looping::Place;
    use super::*;
    use crate::core::DType;
    use crate::kernel::{AluExp, Kernel};

    fn place(region: usize, space: Space) -> Place {
        Place {
            space,
            ..Place::fixed(region, 0)
        }
    }

    fn op(inputs: &[usize], output: usize, size: usize, space: Space) -> LoopOp {
        let f = DType::Float32;
        LoopOp {
            kernel: Kernel::elementwise(vec![f; inputs.len()], size, AluExp::index()),
            inputs: inputs.iter().map(|&r| place(r, space)).collect(),
            output: place(output, space),
        }
    }

    /// Case 2's step (regions: r 0, N 1, A 2, b 3, S 4; temps 5, 7, 8; r' 6, N' 9, y 10):
    /// six ops in three levels, side by side within a level, two barriers inside the step.
    #[test]
    fn case_2_runs_in_three_levels() {
        let w = Space::Workgroup;
        let ops = vec![
            op(&[2, 0], 5, 2, w),
            op(&[5, 3], 6, 2, w),
            op(&[2, 1], 7, 4, w),
            op(&[7, 2], 8, 4, w),
            op(&[8, 4], 9, 4, w),
            op(&[6], 10, 2, w),
        ];
        let sched = schedule(&ops, 64);
        let levels: Vec<usize> = sched.iter().map(|s| s.level).collect();
        assert_eq!(levels, [0, 1, 0, 1, 2, 2]);
        let lanes: Vec<u32> = sched.iter().map(|s| s.lane).collect();
        assert_eq!(lanes, [0, 0, 32, 32, 0, 32]);
        assert_eq!(widest_level(&ops), 36);
        let order = emission(&ops, &sched);
        let ks: Vec<usize> = order.iter().map(|(k, _)| *k).collect();
        assert_eq!(ks, [0, 2, 1, 3, 4, 5]);
        let barriers: usize = order.iter().map(|(_, b)| b.len()).sum();
        assert_eq!(barriers, 2);
        assert_eq!(step_end(&ops, false), [Space::Workgroup]);
    }

    /// A write after a read waits for the read; ops that do not fit side by side share lane 0;
    /// a storage barrier settles only storage hazards.
    #[test]
    fn hazards_and_spaces() {
        let (s, w) = (Space::Storage, Space::Workgroup);
        let ops = vec![
            op(&[0], 1, 20, s),
            op(&[0], 2, 20, w),
            op(&[3], 0, 4, s),
            op(&[1], 4, 4, s),
            op(&[2], 5, 4, w),
        ];
        let sched = schedule(&ops, 32);
        let levels: Vec<usize> = sched.iter().map(|s| s.level).collect();
        assert_eq!(levels, [0, 0, 1, 1, 1]);
        assert_eq!(sched[1].lane, 0, "20 + 20 > 32: the second op starts at 0");
        let order = emission(&ops, &sched);
        assert_eq!(order[2], (2, vec![Space::Storage]));
        assert_eq!(order[3], (3, vec![]), "op 1's storage write is settled");
        assert_eq!(order[4], (4, vec![Space::Workgroup]));
        assert_eq!(step_end(&ops, false), [Space::Storage, Space::Workgroup]);
    }
}
