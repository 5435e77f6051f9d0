//! Cutting a whole jitted program (a one-step loop body, `lower::whole`) into STAGES for
//! row-partitioned dispatch (`scan_stages`): each stage is one dispatch of many workgroups,
//! workgroup `w` computing, for every kernel `K` of the stage, the rows `r` (leading-axis
//! indices) with `r + shift_K` in its band `[g_lo + w·B, g_lo + (w+1)·B)`, the stage's
//! dependency levels separated by workgroup barriers.
//!
//! That is right when every dependency inside a stage stays inside one workgroup: consumer `C`
//! reads producer `P` (written earlier in the stage) only at `P`-rows `n + d` for its output
//! row `n` and one constant `d` (`kernel::row_reads`), and `shift_C = shift_P + d`. Kernels
//! are taken in program order; shifts are solved as offsets within connected components (a
//! kernel joining two components re-bases one). A kernel whose in-stage reads are not
//! row-local, whose shifts disagree, or that would pass the stage's kernel or level caps,
//! starts a new stage: reads of what earlier stages wrote are unconstrained (their dispatch
//! has finished). In a jitted `associativeScan` each Kogge–Stone round reads the previous
//! round's result at rows `n` and `n + k` together, so a stage starts at every round, while
//! the round's own matmuls, adds and the concatenate (rows shifted by `k`) fit in one.

use crate::kernel::row_reads::{row_reads, Rows};
use crate::kernel::scan_loop::{LoopBody, LoopStep};

/// At most this many kernels in one stage (its shader stays small).
pub const STAGE_KERNELS: usize = 48;
/// At most this many dependency levels (barriers + 1) in one stage.
pub const STAGE_LEVELS: usize = 24;

/// One kernel of a stage.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Member {
    /// The index of the kernel's step in the body.
    pub step: usize,
    /// Its rows `r` run in the workgroup whose band holds `r + shift`.
    pub shift: i64,
    /// Its dependency level within the stage.
    pub level: usize,
    /// Rows of its output, and elements per row.
    pub rows: usize,
    pub per_row: usize,
    comp: usize,
}

/// One dispatch: its kernels by program order and the band of global rows it covers.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct StagePlan {
    pub members: Vec<Member>,
    pub g_lo: i64,
    pub g_hi: i64,
}

impl StagePlan {
    /// Dependency levels of the stage.
    pub fn levels(&self) -> usize {
        self.members.iter().map(|m| m.level + 1).max().unwrap_or(0)
    }

    /// The stage as two (its first half of kernels, then the rest): still right, the second
    /// reading what the first wrote from an earlier dispatch (a shader over the size cap).
    pub fn split(&self) -> (StagePlan, StagePlan) {
        let half = self.members.len().div_ceil(2);
        let first = self.members[..half].to_vec();
        let mut rest = self.members[half..].to_vec();
        let low = rest.iter().map(|m| m.level).min().unwrap_or(0);
        rest.iter_mut().for_each(|m| m.level -= low);
        let part = |members| {
            close(StagePlan {
                members,
                ..StagePlan::default()
            })
        };
        (part(first), part(rest))
    }
}

/// The stages of `body` (every step a kernel, rows known), or None.
pub fn plan(body: &LoopBody) -> Option<Vec<StagePlan>> {
    if body.rows.len() != body.slots.len() {
        return None;
    }
    let mut stages: Vec<StagePlan> = Vec::new();
    let mut open = StagePlan::default();
    // Slot → member writing it in the open stage; slots the open stage reads.
    let mut written: Vec<Option<usize>> = vec![None; body.slots.len()];
    let mut read = vec![false; body.slots.len()];
    let mut comps = 0usize;
    for (k, step) in body.steps.iter().enumerate() {
        let LoopStep::Kernel {
            kernel,
            inputs,
            output,
        } = step
        else {
            return None;
        };
        let rows = body.rows[*output].max(1);
        if kernel.size == 0 || !kernel.size.is_multiple_of(rows) {
            return None;
        }
        let shapes: Vec<(usize, usize)> = inputs
            .iter()
            .map(|&s| (body.slots[s].elements, body.rows[s].max(1)))
            .collect();
        // Only reads of what the open stage wrote constrain (the analysis evaluates every
        // element: skip it for kernels that read none).
        let reads = if inputs.iter().any(|&s| written[s].is_some()) {
            row_reads(kernel, rows, &shapes)
        } else {
            vec![Rows::Unread; inputs.len()]
        };
        let mut member = Member {
            step: k,
            shift: 0,
            level: 0,
            rows,
            per_row: kernel.size / rows,
            comp: comps,
        };
        let joined = join(&open, &written, &read, inputs, *output, &reads);
        match joined {
            Some((shift, level, comp, rebase)) => {
                let comp = comp.unwrap_or(member.comp);
                for m in open.members.iter_mut() {
                    if let Some(&(_, delta)) = rebase.iter().find(|(c, _)| *c == m.comp) {
                        m.shift += delta;
                        m.comp = comp;
                    }
                }
                member.shift = shift;
                member.level = level;
                member.comp = comp;
                comps += 1;
            }
            None => {
                stages.push(close(std::mem::take(&mut open)));
                written.iter_mut().for_each(|w| *w = None);
                read.iter_mut().for_each(|r| *r = false);
                comps += 1;
            }
        }
        for &s in inputs {
            read[s] = true;
        }
        written[*output] = Some(open.members.len());
        open.members.push(member);
    }
    if !open.members.is_empty() {
        stages.push(close(open));
    }
    Some(stages)
}

/// Where a kernel joins the open stage: (its shift, level, component (None: one of its own),
/// components re-based by how much), or None when it must start a new stage.
#[allow(clippy::type_complexity)]
fn join(
    open: &StagePlan,
    written: &[Option<usize>],
    read: &[bool],
    inputs: &[usize],
    output: usize,
    reads: &[Rows],
) -> Option<(i64, usize, Option<usize>, Vec<(usize, i64)>)> {
    if open.members.len() >= STAGE_KERNELS || written[output].is_some() || read[output] {
        return None;
    }
    let mut frame: Option<(usize, i64)> = None;
    let mut rebase: Vec<(usize, i64)> = Vec::new();
    let mut level = 0;
    for (j, &s) in inputs.iter().enumerate() {
        let Some(m) = written[s] else { continue };
        let d = match reads[j] {
            Rows::Unread => continue,
            Rows::Shift(d) => d,
            Rows::Any => return None,
        };
        let p = &open.members[m];
        level = level.max(p.level + 1);
        let want = p.shift + d;
        match frame {
            None => frame = Some((p.comp, want)),
            Some((comp, shift)) if comp == p.comp => {
                if shift != want {
                    return None;
                }
            }
            Some((_, shift)) => {
                let delta = shift - want;
                match rebase.iter().find(|(c, _)| *c == p.comp) {
                    Some(&(_, d0)) if d0 != delta => return None,
                    Some(_) => {}
                    None => rebase.push((p.comp, delta)),
                }
            }
        }
    }
    if level >= STAGE_LEVELS {
        return None;
    }
    let (comp, shift) = match frame {
        Some((c, s)) => (Some(c), s),
        None => (None, 0),
    };
    Some((shift, level, comp, rebase))
}

fn close(mut stage: StagePlan) -> StagePlan {
    stage.g_lo = stage.members.iter().map(|m| m.shift).min().unwrap_or(0);
    stage.g_hi = stage
        .members
        .iter()
        .map(|m| m.shift + m.rows as i64)
        .max()
        .unwrap_or(0);
    stage
}
