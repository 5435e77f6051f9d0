//! Cutting a whole jitted program (a one-step loop body, `lower::whole`) into STAGES for
//! row-partitioned dispatch (`stages`): each stage is one dispatch of many workgroups,
//! workgroup `w` computing, for every kernel `K` of the stage, the rows `r` (leading-axis
//! indices) with `r + shift_K` in its band `[g_lo + w·B, g_lo + (w+1)·B)` — widened by
//! `ext_lo_K` rows below and `ext_hi_K` above (a HALO) — the stage's dependency levels
//! separated by workgroup barriers.
//!
//! That is right when every row a kernel reads from a producer of the same stage was computed
//! by the same workgroup: consumer `C` reads producer `P` (written earlier in the stage) only
//! at `P`-rows `n + lo ..= n + hi` for its output row `n` (`kernel::row_reads`). With
//! `shift_C = shift_P + d` and `lo = hi = d` (a row-local edge) the bands line up exactly.
//! Otherwise `P`'s halo is widened until it covers what `C`'s rows (halo included) read:
//! rows near a band's edges are then computed by two workgroups, which write the same values
//! (the same code on the same inputs). Kernels are taken in program order; exact shifts are
//! solved as offsets within connected components (a kernel joining two components re-bases
//! one); a kernel whose in-stage reads are data-dependent, whose halos would pass
//! [`WEBGPU_STAGE_MAX_HALO_ROWS`], or that would pass the stage's kernel or level caps,
//! starts a new stage: reads of what earlier stages wrote are unconstrained (their dispatch
//! has finished).
//!
//! In a jitted `associativeScan` each Kogge–Stone round reads the previous round's result at
//! rows `n` and `n + k`: the first rounds (k = 1, 2, 4, 8: halos of 30 rows in all) share one
//! stage; each later round is two, its body and its concatenate, which runs `k` rows later and
//! so never shares a stage with the body ([`WEBGPU_STAGE_MAX_SHIFT_SPAN`]).

use crate::backend::caps::{
    WEBGPU_STAGE_MAX_HALO_ROWS, WEBGPU_STAGE_MAX_KERNELS, WEBGPU_STAGE_MAX_LEVELS,
    WEBGPU_STAGE_MAX_SHIFT_SPAN,
};
use crate::backend::webgpu::wgsl_routines_group::group_size;
use crate::kernel::device_program::{LoopBody, LoopStep};
use crate::kernel::row_reads::{row_reads, Rows};

/// A read of a producer of the same stage: its member index and the rows read, relative to
/// the consumer's row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Edge {
    pub producer: usize,
    pub lo: i64,
    pub hi: i64,
}

/// One kernel of a stage.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    /// The index of the kernel's step in the body.
    pub step: usize,
    /// Its rows `r` run in the workgroup whose band holds `r + shift` ...
    pub shift: i64,
    /// ... and in the workgroups up to this many rows below and above (a halo).
    pub ext_lo: i64,
    pub ext_hi: i64,
    /// Its dependency level within the stage.
    pub level: usize,
    /// Rows of its output, and elements per row.
    pub rows: usize,
    pub per_row: usize,
    pub edges: Vec<Edge>,
    comp: usize,
    /// A routine (it reads back what it wrote): computed by one workgroup only (no halo),
    /// since two computing the same rows would see each other's partial writes.
    in_place: bool,
}

/// One dispatch: its kernels by program order and the band of global rows it covers.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct StagePlan {
    pub members: Vec<Member>,
    /// A stage of one routine step (by its index in the body; `members` is empty): one
    /// invocation per matrix of its batch.
    pub routine: Option<usize>,
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
        for m in rest.iter_mut() {
            m.level -= low;
            m.edges.retain(|e| e.producer >= half);
            m.edges.iter_mut().for_each(|e| e.producer -= half);
        }
        let part = |members| {
            close(StagePlan {
                members,
                ..StagePlan::default()
            })
        };
        (part(first), part(rest))
    }
}

/// The stages of `body` (every step a kernel or a routine, rows known), or None. A routine
/// is a stage of its own.
pub fn plan(body: &LoopBody) -> Option<Vec<StagePlan>> {
    if body.rows.len() != body.slots.len() {
        return None;
    }
    let mut stages: Vec<StagePlan> = Vec::new();
    let mut open = StagePlan::default();
    // Slot → member writing it in the open stage; slots the open stage reads.
    let mut written: Vec<Option<usize>> = vec![None; body.slots.len()];
    let mut read = vec![false; body.slots.len()];
    for (k, step) in body.steps.iter().enumerate() {
        let (kernel, inputs, output) = match step {
            LoopStep::Kernel {
                kernel,
                inputs,
                output,
            } => (kernel, inputs, output),
            LoopStep::Routine {
                routine,
                inputs,
                outputs,
            } => {
                let batch = routine.batch;
                // A routine that runs with a workgroup per matrix on its own (a large
                // factorization) stays a stage of its own, which `stages` leaves to that
                // pipeline: a stage runs a routine with one invocation per matrix.
                let by_rows = batch > 0
                    && group_size(routine).is_none()
                    && inputs.iter().chain(outputs).all(|&s| body.rows[s] == batch);
                if by_rows {
                    let join =
                        |open: &mut StagePlan, written: &mut [Option<usize>], read: &mut [bool]| {
                            join_routine(open, written, read, k, batch, inputs, outputs)
                        };
                    if !join(&mut open, &mut written, &mut read) {
                        stages.push(close(std::mem::take(&mut open)));
                        written.iter_mut().for_each(|w| *w = None);
                        read.iter_mut().for_each(|r| *r = false);
                        // An empty stage takes any routine.
                        join(&mut open, &mut written, &mut read);
                    }
                    continue;
                }
                if !open.members.is_empty() {
                    stages.push(close(std::mem::take(&mut open)));
                }
                stages.push(StagePlan {
                    routine: Some(k),
                    ..StagePlan::default()
                });
                written.iter_mut().for_each(|w| *w = None);
                read.iter_mut().for_each(|r| *r = false);
                continue;
            }
            LoopStep::Loop { .. } => return None,
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
            ext_lo: 0,
            ext_hi: 0,
            level: 0,
            rows,
            per_row: kernel.size / rows,
            edges: Vec::new(),
            // A component of its own (ids: step indices).
            comp: k,
            in_place: false,
        };
        let fits = open.members.len() < WEBGPU_STAGE_MAX_KERNELS
            && written[*output].is_none()
            && !read[*output];
        let edges = fits.then(|| edges(&written, inputs, &reads)).flatten();
        let joined = edges.and_then(|edges| {
            let level = edges
                .iter()
                .map(|e| open.members[e.producer].level + 1)
                .max()
                .unwrap_or(0);
            (level < WEBGPU_STAGE_MAX_LEVELS).then_some(())?;
            member.level = level;
            member.edges = edges;
            join_exact(&mut open, &mut member).or_else(|| join_halo(&mut open, &mut member))
        });
        if joined.is_none() {
            stages.push(close(std::mem::take(&mut open)));
            written.iter_mut().for_each(|w| *w = None);
            read.iter_mut().for_each(|r| *r = false);
            member.level = 0;
            member.shift = 0;
            member.edges.clear();
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

/// Joins routine step `k` (one matrix of its `batch` per row of every operand) to the open
/// stage, or a new one after it: it reads and writes its operands row by row, so its reads of
/// in-stage producers are row-local. False when it fits neither (a routine stage of its own).
fn join_routine(
    open: &mut StagePlan,
    written: &mut [Option<usize>],
    read: &mut [bool],
    k: usize,
    batch: usize,
    inputs: &[usize],
    outputs: &[usize],
) -> bool {
    let mut member = Member {
        step: k,
        shift: 0,
        ext_lo: 0,
        ext_hi: 0,
        level: 0,
        rows: batch,
        per_row: 1,
        edges: Vec::new(),
        comp: k,
        in_place: true,
    };
    let free = |written: &[Option<usize>], read: &[bool]| {
        outputs.iter().all(|&o| written[o].is_none() && !read[o])
    };
    let mut joined = None;
    if open.members.len() < WEBGPU_STAGE_MAX_KERNELS && free(written, read) {
        let edges: Vec<Edge> = inputs
            .iter()
            .filter_map(|&s| {
                written[s].map(|producer| Edge {
                    producer,
                    lo: 0,
                    hi: 0,
                })
            })
            .collect();
        let level = edges
            .iter()
            .map(|e| open.members[e.producer].level + 1)
            .max()
            .unwrap_or(0);
        if level < WEBGPU_STAGE_MAX_LEVELS {
            member.level = level;
            member.edges = edges;
            joined = join_exact(open, &mut member);
        }
    }
    if joined.is_none() {
        return false;
    }
    for &s in inputs {
        read[s] = true;
    }
    for &o in outputs {
        written[o] = Some(open.members.len());
    }
    open.members.push(member);
    true
}

/// The in-stage reads of a kernel with inputs `inputs` read as `reads`, or None when one is
/// data-dependent.
fn edges(written: &[Option<usize>], inputs: &[usize], reads: &[Rows]) -> Option<Vec<Edge>> {
    let mut out = Vec::new();
    for (j, &s) in inputs.iter().enumerate() {
        let Some(producer) = written[s] else { continue };
        match reads[j] {
            Rows::Unread => {}
            Rows::Range(lo, hi) => out.push(Edge { producer, lo, hi }),
            Rows::Any => return None,
        }
    }
    Some(out)
}

/// Joins `member` to `open` with no halo: every edge row-local, shifts consistent (re-basing
/// whole components as needed).
fn join_exact(open: &mut StagePlan, member: &mut Member) -> Option<()> {
    let mut frame: Option<(usize, i64)> = None;
    let mut rebase: Vec<(usize, i64)> = Vec::new();
    for e in &member.edges {
        if e.lo != e.hi {
            return None;
        }
        let p = &open.members[e.producer];
        let want = p.shift + e.lo;
        match frame {
            None => frame = Some((p.comp, want)),
            Some((comp, shift)) if comp == p.comp => (shift == want).then_some(())?,
            Some((_, shift)) => {
                let delta = shift - want;
                match rebase.iter().find(|(c, _)| *c == p.comp) {
                    Some(&(_, d0)) => (d0 == delta).then_some(())?,
                    None => rebase.push((p.comp, delta)),
                }
            }
        }
    }
    let Some((comp, shift)) = frame else {
        return Some(());
    };
    for m in open.members.iter_mut() {
        if let Some(&(_, delta)) = rebase.iter().find(|(c, _)| *c == m.comp) {
            m.shift += delta;
            m.comp = comp;
        }
    }
    member.shift = shift;
    member.comp = comp;
    // Halos of earlier joins grow with this member's reads.
    halos_fit(open, member)
}

/// Joins `member` to `open` with halos: its shift follows its first edge, its producers'
/// components merge into one (so later re-basing moves them together), and every halo of the
/// stage must stay within [`WEBGPU_STAGE_MAX_HALO_ROWS`].
fn join_halo(open: &mut StagePlan, member: &mut Member) -> Option<()> {
    let first = *member.edges.first()?;
    let p = &open.members[first.producer];
    let (comp, shift) = (p.comp, p.shift + first.lo);
    let comps: Vec<usize> = member
        .edges
        .iter()
        .map(|e| open.members[e.producer].comp)
        .collect();
    member.shift = shift;
    member.comp = comp;
    halos_fit(open, member)?;
    for m in open.members.iter_mut() {
        if comps.contains(&m.comp) {
            m.comp = comp;
        }
    }
    Some(())
}

/// Whether the halos of `open` with `member` added stay within
/// [`WEBGPU_STAGE_MAX_HALO_ROWS`], with its members' shifts at most
/// [`WEBGPU_STAGE_MAX_SHIFT_SPAN`] apart.
fn halos_fit(open: &StagePlan, member: &Member) -> Option<()> {
    let shifts = open.members.iter().chain([member]).map(|m| m.shift);
    let (lo, hi) = shifts.fold((i64::MAX, i64::MIN), |(lo, hi), s| (lo.min(s), hi.max(s)));
    if hi - lo > WEBGPU_STAGE_MAX_SHIFT_SPAN {
        return None;
    }
    let mut all = open.members.clone();
    all.push(member.clone());
    halos(&all)
        .iter()
        .zip(&all)
        .all(|(&(lo, hi), m)| {
            lo + hi
                <= if m.in_place {
                    0
                } else {
                    WEBGPU_STAGE_MAX_HALO_ROWS
                }
        })
        .then_some(())
}

/// The rows below and above its band each member must compute for its consumers (which come
/// after it): what a consumer's rows, halo included, read of it, beyond its own band.
fn halos(members: &[Member]) -> Vec<(i64, i64)> {
    let mut ext = vec![(0i64, 0i64); members.len()];
    for c in (0..members.len()).rev() {
        let (shift, (lo, hi)) = (members[c].shift, ext[c]);
        for e in &members[c].edges {
            let s_p = members[e.producer].shift;
            let need_lo = (shift - s_p - e.lo + lo).max(0);
            let need_hi = (s_p - shift + e.hi + hi).max(0);
            let x = &mut ext[e.producer];
            *x = (x.0.max(need_lo), x.1.max(need_hi));
        }
    }
    ext
}

fn close(mut stage: StagePlan) -> StagePlan {
    let ext = halos(&stage.members);
    for (m, (lo, hi)) in stage.members.iter_mut().zip(ext) {
        m.ext_lo = lo;
        m.ext_hi = hi;
    }
    stage.g_lo = stage.members.iter().map(|m| m.shift).min().unwrap_or(0);
    stage.g_hi = stage
        .members
        .iter()
        .map(|m| m.shift + m.rows as i64)
        .max()
        .unwrap_or(0);
    stage
}
