//! Whole jitted programs as a few row-partitioned dispatches on webgpu (`Backend::
//! compile_program`/`run_program`, where one workgroup would be too small or its shader too
//! large: `whole`'s caps). The program's kernels are cut into stages (`stage_plan`);
//! each stage is ONE dispatch of many workgroups, workgroup `w` computing a band of `B` global
//! rows of every kernel of the stage (kernel `K`'s rows `r` with `r + shift_K` in the band),
//! the stage's dependency levels one after another with storage barriers between them, the
//! independent kernels of a level side by side on disjoint invocation ranges
//! (`stage_members`: one copy of the code per kernel shape in a level). All operands
//! live in one packed storage buffer, each slot in a region of its own (nothing is reused
//! within a call), laid out as for the looping shader (`layout`, storage only): consts
//! are copied in, the stages dispatched in one compute pass, the outputs copied out.
//!
//! A jitted `associativeScan` of Kalman elements (m = 2: ~10 kernels per Kogge–Stone round)
//! becomes one stage for its first four rounds (halos of up to 15 rows) and one per later
//! round, each with a few barriers per round (cheap to compile on software adapters), each
//! running on as many workgroups as its rows fill. On an adapter with a loop limit
//! (`loop_budget`) a program whose stages' loops could run past it is not staged whole:
//! [`build`] names the step that cannot be a stage on its own, and `mixed` runs that step as
//! its own dispatch and the rest as stages.

use std::fmt::Write;

use super::compiled::{keep, CompiledProgram, Dispatch};
use super::layout::{layout_with, Layout};
use super::looping::{element, entry_head, MAX_WORKGROUP};
use super::schedule::WARP;
use super::stage_members::{place, Lanes, Piece};
use super::stage_plan::{plan, Member, StagePlan};
use crate::backend::caps::{
    WEBGPU_STAGE_MAX_SOURCE_BYTES, WEBGPU_STAGE_MAX_TERMS_PER_INVOCATION,
    WEBGPU_WORKGROUP_MAX_BARRIERS,
};
use crate::backend::webgpu::loop_budget::{element_loops, routine_loops, strided};
use crate::backend::webgpu::wgsl_alu::Emitter;
use crate::backend::webgpu::wgsl_routines::packed_routine;
use crate::backend::webgpu::wgsl_routines_group::group_size;
use crate::backend::webgpu::WebGpuBackend;
use crate::backend::{BufferId, ExeId};
use crate::kernel::device_program::{DeviceProgram, LoopBody, LoopStep, SlotInfo};
use crate::util::{Error, Result};
use std::rc::Rc;

/// Rows per workgroup: at most this many.
const MAX_BAND: usize = 64;
/// Bands narrow until a stage has this many workgroups (about one per compute unit of a
/// large GPU) or its halos would cost more than its band.
const TARGET_GROUPS: usize = 128;

/// A compiled staged program: the layout of its packed buffer and one pipeline per stage
/// with its workgroup count.
pub(super) struct Staged {
    pub layout: Layout,
    pub stages: Vec<Dispatch>,
}

/// A stage's shader.
enum Emitted {
    /// The WGSL and the workgroup count.
    Source(String, u32),
    /// Over [`WEBGPU_STAGE_MAX_SOURCE_BYTES`] (split it).
    TooLarge,
}

/// The shader of `stage` (kernels of `layout`'s ops), or None when it is over the caps
/// (other than the source size).
fn emit(
    stage: &StagePlan,
    layout: &Layout,
    steps: &[LoopStep],
    op_of: &[usize],
    spread: bool,
    loop_limit: Option<usize>,
) -> Result<Option<Emitted>> {
    emit_with(stage, layout, steps, op_of, spread, false, loop_limit)
}

/// The shader of a stage of one kernel whatever its size (None: over the loop limit).
fn emit_any(
    stage: &StagePlan,
    layout: &Layout,
    steps: &[LoopStep],
    op_of: &[usize],
    loop_limit: Option<usize>,
) -> Result<Option<(String, u32)>> {
    match emit_with(stage, layout, steps, op_of, false, true, loop_limit)? {
        Some(Emitted::Source(src, groups)) => Ok(Some((src, groups))),
        None => Ok(None),
        _ => Err(Error::new("jit", "internal error: a stage has no shader")),
    }
}

/// Elements per workgroup of member `m` for bands of `band` rows (halos included).
fn member_share(band: usize, m: &Member) -> usize {
    m.rows.min(band + (m.ext_lo + m.ext_hi) as usize) * m.per_row
}

/// How a stage is spread over workgroups.
struct BandShape {
    /// Rows per workgroup.
    band: usize,
    /// Workgroups.
    groups: usize,
    /// Invocations per workgroup.
    wg: u32,
}

/// The band, workgroup count and workgroup size of `stage` (see [`emit_with`]), or None when
/// the stage is over the caps (workgroups, barriers, work per invocation).
fn band_shape(
    stage: &StagePlan,
    layout: &Layout,
    op_of: &[usize],
    spread: bool,
) -> Option<BandShape> {
    let width = |b: usize| {
        let mut w = vec![0usize; stage.levels()];
        for m in &stage.members {
            w[m.level] += member_share(b, m).div_ceil(WARP as usize) * WARP as usize;
        }
        w.into_iter().max().unwrap_or(1)
    };
    let mut band = MAX_BAND;
    while band > 1 && width(band) > MAX_WORKGROUP as usize {
        band /= 2;
    }
    let rows = (stage.g_hi - stage.g_lo).max(1) as usize;
    // Narrower bands spread a stage over more workgroups (each level's work is a chain of
    // dependent steps: the more of the GPU runs it, the sooner it ends), as long as a band
    // stays wider than the rows its halos recompute.
    let halo = stage
        .members
        .iter()
        .map(|m| (m.ext_lo + m.ext_hi) as usize)
        .max()
        .unwrap_or(0);
    while spread && band > 1 && rows.div_ceil(band) < TARGET_GROUPS && band / 2 >= halo.max(1) {
        band /= 2;
    }
    let groups = rows.div_ceil(band);
    let wg = (width(band).min(MAX_WORKGROUP as usize) as u32)
        .next_power_of_two()
        .max(WARP);
    let long = stage.members.iter().any(|m| {
        let k = match &layout.shader.ops.get(op_of[m.step]) {
            Some(op) => op.kernel.reduction.map_or(1, |r| r.size.max(1)),
            None if op_of[m.step] == usize::MAX => 1,
            None => usize::MAX,
        };
        member_share(band, m).saturating_mul(k)
            > WEBGPU_STAGE_MAX_TERMS_PER_INVOCATION * wg as usize
    });
    if groups > 65535 || stage.levels() > WEBGPU_WORKGROUP_MAX_BARRIERS + 1 || long {
        return None;
    }
    Some(BandShape { band, groups, wg })
}

/// `op_of[k]`: the index in `layout`'s ops of the body's kernel step `k` (`usize::MAX` for a
/// routine step of `steps`); `spread`: narrow the bands for more workgroups (GPUs, not CPU
/// adapters, where idle invocations of a narrow band still cost); None also when an
/// invocation's loops could run past `loop_limit` (`loop_budget`).
fn emit_with(
    stage: &StagePlan,
    layout: &Layout,
    steps: &[LoopStep],
    op_of: &[usize],
    spread: bool,
    any_size: bool,
    loop_limit: Option<usize>,
) -> Result<Option<Emitted>> {
    let Some(BandShape { band, groups, wg }) = band_shape(stage, layout, op_of, spread) else {
        return Ok(None);
    };
    let mut e = Emitter::new(0, "      ");
    let mut body = String::new();
    let mut accessors = String::new();
    let mut by_level: Vec<Vec<usize>> = vec![Vec::new(); stage.levels()];
    for (i, m) in stage.members.iter().enumerate() {
        by_level[m.level].push(i);
    }
    let mut loops = 0usize;
    for (n, members) in by_level.iter().filter(|l| !l.is_empty()).enumerate() {
        if n > 0 {
            body.push_str("  storageBarrier();\n");
        }
        let mut lanes = Lanes::new(wg);
        let mut pieces = Vec::new();
        let mut kernels = Vec::new();
        for &i in members {
            let m = &stage.members[i];
            let want = member_share(band, m) as u32;
            let (r, c) = (m.rows, m.per_row);
            let (lo, hi) = (-m.shift - m.ext_lo, band as i64 - m.shift + m.ext_hi);
            let band_rows = ((hi - lo).max(0) as usize).min(r);
            if op_of[m.step] != usize::MAX {
                let op = &layout.shader.ops[op_of[m.step]];
                let (code, word) = element(&mut e, op)?;
                pieces.push(Piece {
                    bounds: format!(
                        "    let ox_lo = u32(clamp(ox_g + ({lo}i), 0i, {r}i)) * {c}u;
    let ox_hi = u32(clamp(ox_g + ({hi}i), 0i, {r}i)) * {c}u;
"
                    ),
                    body: format!(
                        "      let i = i32(idx);
{code}      ox_buf[{out}u + idx] = {word};
",
                        out = op.output.base,
                    ),
                    want,
                });
                kernels.push((band_rows * c, element_loops(&op.kernel)));
                continue;
            }
            let (lane, span) = lanes.take(want);
            if loop_limit.is_some() {
                loops = loops.saturating_add(match &steps[m.step] {
                    LoopStep::Routine { routine, .. } => {
                        strided(band_rows, span as usize, routine_loops(routine))
                    }
                    _ => usize::MAX,
                });
            }
            let Some((code, fns)) = routine_code(&steps[m.step], i, layout)? else {
                return Ok(None);
            };
            accessors.push_str(&fns);
            write!(
                body,
                "  if (lid >= {lane}u && lid < {end}u) {{
    let ox_lo = u32(clamp(ox_g + ({lo}i), 0i, {r}i));
    let ox_hi = u32(clamp(ox_g + ({hi}i), 0i, {r}i));
    for (var bi: u32 = ox_lo + lid - {lane}u; bi < ox_hi; bi = bi + {span}u) {{
{code}    }}
  }}
",
                end = lane + span,
            )
            .unwrap();
        }
        let spans = place(&pieces, &mut lanes, &mut body);
        for ((elements, per), span) in kernels.into_iter().zip(spans) {
            loops = loops.saturating_add(strided(elements, span as usize, per));
        }
    }
    if loop_limit.is_some_and(|limit| loops > limit) {
        return Ok(None);
    }
    let g_lo = stage.g_lo;
    let mut src = format!(
        "{head}  let step = 0u;
  let row = 0u;
  let ox_g = i32(wid.x) * {band}i + ({g_lo}i);
{body}}}
",
        head = entry_head(wg),
    );
    src.push_str(&e.helpers.source());
    src.push_str(&accessors);
    if src.len() > WEBGPU_STAGE_MAX_SOURCE_BYTES && !any_size {
        return Ok(Some(Emitted::TooLarge));
    }
    Ok(Some(Emitted::Source(src, groups as u32)))
}

/// Invocations per workgroup of a routine's stage (one per matrix of its batch).
const ROUTINE_WORKGROUP: u32 = 64;

/// The routine of step `step`, its code for matrix `bi` and its accessors (see
/// `packed_routine`), or None when its operands are not 32-bit.
fn routine_code(step: &LoopStep, tag: usize, layout: &Layout) -> Result<Option<(String, String)>> {
    let LoopStep::Routine {
        routine,
        inputs,
        outputs,
    } = step
    else {
        return Err(Error::new(
            "jit",
            "internal error: a routine stage without a routine",
        ));
    };
    let bases: Vec<u32> = inputs
        .iter()
        .chain(outputs)
        .map(|&s| layout.places[s].base)
        .collect();
    packed_routine(routine, tag, &bases)
}

/// The shader of a stage of one routine step and its workgroup count (one invocation per
/// matrix of its batch), or None when its operands are not 32-bit.
fn routine_stage(step: &LoopStep, layout: &Layout) -> Result<Option<(String, u32)>> {
    let LoopStep::Routine { routine, .. } = step else {
        return Ok(None);
    };
    let Some((code, accessors)) = routine_code(step, 0, layout)? else {
        return Ok(None);
    };
    let src = format!(
        "{head}  let bi = wid.x * {wg}u + lid;
  if (bi < {batch}u) {{
{code}  }}
}}
{accessors}",
        head = entry_head(ROUTINE_WORKGROUP),
        wg = ROUTINE_WORKGROUP,
        batch = routine.batch,
    );
    let groups = (routine.batch as u32).div_ceil(ROUTINE_WORKGROUP).max(1);
    Ok(Some((src, groups)))
}

/// Why [`build`] did not stage a program.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Unstaged {
    /// Body step `k` cannot be a stage on its own: a kernel or routine over a cap (the loop
    /// budget, a band's caps) or with operands that are not 32-bit.
    Step(usize),
    /// Its packed buffer would not fit one binding.
    TooLarge,
    /// It would save no dispatch (as many stages as steps), or it is no program of 32-bit
    /// kernels and routines.
    Declined,
}

/// Whether a stage's packed buffer may hold `info`'s slot: one 32-bit word per element.
pub(super) fn word_slot(info: &SlotInfo) -> bool {
    info.dtype.byte_size() == 4 || info.dtype == crate::core::DType::Bool
}

/// `compile_program`'s staged path: the compiled stages of `plan`, or None (fewer stages than
/// kernels only; every stage under the caps).
pub(super) fn compile(gpu: &mut WebGpuBackend, plan_: &DeviceProgram) -> Result<Option<ExeId>> {
    if let Some(id) = gpu.loops.ids.get(plan_).copied() {
        if let Some(CompiledProgram::Staged(_)) = gpu.loops.exes.get(&id).map(|c| &**c) {
            return Ok(Some(id));
        }
    }
    Ok(match build(gpu, plan_)? {
        Ok(staged) => Some(keep(gpu, plan_, Rc::new(CompiledProgram::Staged(staged)))),
        Err(_) => None,
    })
}

/// The compiled stages of `plan` (not kept), or why there are none.
pub(super) fn build(
    gpu: &mut WebGpuBackend,
    plan_: &DeviceProgram,
) -> Result<std::result::Result<Staged, Unstaged>> {
    let body = &plan_.body;
    if plan_.length != 1 || body.num_ys == 0 {
        return Ok(Err(Unstaged::Declined));
    }
    if !body.slots.iter().all(word_slot) {
        return Ok(Err(Unstaged::Declined));
    }
    let Some(stages) = plan(body) else {
        return Ok(Err(Unstaged::Declined));
    };
    let steps = body.steps.len();
    if stages.len() >= steps {
        return Ok(Err(Unstaged::Declined));
    }
    // Slots are laid out from the kernels' view of the body (routines read and write slots
    // in place: their stages address the same words).
    let mut op_of = vec![usize::MAX; steps];
    let mut kernels = Vec::with_capacity(steps);
    for (k, step) in body.steps.iter().enumerate() {
        if let LoopStep::Kernel { .. } = step {
            op_of[k] = kernels.len();
            kernels.push(step.clone());
        }
    }
    let kernel_plan = DeviceProgram {
        body: Rc::new(LoopBody {
            steps: kernels,
            ..(**body).clone()
        }),
        length: 1,
        reverse: false,
    };
    let layout = match layout_with(&kernel_plan, 0, usize::MAX) {
        Ok(l) if gpu.loop_fits(l.words as u64) && l.shader.workgroup_words == 0 => l,
        _ => return Ok(Err(Unstaged::TooLarge)),
    };
    // Stages in order; one whose shader is too large is split in two, in place.
    let mut todo: Vec<StagePlan> = stages.into_iter().rev().collect();
    let mut shaders = Vec::new();
    while let Some(stage) = todo.pop() {
        if let Some(k) = stage.routine {
            if let LoopStep::Routine { routine, .. } = &body.steps[k] {
                // One invocation per matrix here; a large one runs ordinary, with the
                // routine's own workgroup per matrix.
                if group_size(routine).is_some() || !gpu.loops_fit(|| routine_loops(routine)) {
                    return Ok(Err(Unstaged::Step(k)));
                }
            }
            match routine_stage(&body.steps[k], &layout)? {
                Some(shader) => shaders.push(shader),
                None => return Ok(Err(Unstaged::Step(k))),
            }
            continue;
        }
        let alone = stage.members.first().map(|m| m.step);
        match emit(
            &stage,
            &layout,
            &body.steps,
            &op_of,
            gpu.fast,
            gpu.loop_limit,
        )? {
            Some(Emitted::Source(src, groups)) => shaders.push((src, groups)),
            // Over a cap that fewer kernels may meet (the loop budget, the barriers): each
            // half is tried on its own (one kernel over a cap is reported as that step).
            Some(Emitted::TooLarge) | None if stage.members.len() > 1 => {
                let (first, rest) = stage.split();
                todo.push(rest);
                todo.push(first);
            }
            // One kernel: about the shader its own dispatch would compile anyway.
            Some(Emitted::TooLarge) => {
                match emit_any(&stage, &layout, &body.steps, &op_of, gpu.loop_limit)? {
                    Some(shader) => shaders.push(shader),
                    None => return Ok(Err(alone.map_or(Unstaged::Declined, Unstaged::Step))),
                }
            }
            None => return Ok(Err(alone.map_or(Unstaged::Declined, Unstaged::Step))),
        }
    }
    if shaders.len() >= steps {
        return Ok(Err(Unstaged::Declined));
    }
    let sources: Vec<String> = shaders.iter().map(|(src, _)| src.clone()).collect();
    let mut compiled = Vec::with_capacity(shaders.len());
    let shared = gpu.loops.templates.share(&sources);
    for (shared, (_, groups)) in shared.into_iter().zip(&shaders) {
        compiled.push(gpu.shared_dispatch(shared, *groups)?);
    }
    Ok(Ok(Staged {
        layout,
        stages: compiled,
    }))
}

/// Runs a staged program: copies in, one dispatch per stage, copies out.
pub(super) fn run(gpu: &mut WebGpuBackend, staged: &Staged, slots: &[BufferId]) -> Result<()> {
    let find = |source| match source {
        super::layout::Source::Slot(s) => slots
            .get(s)
            .copied()
            .ok_or_else(|| Error::new("jit", "internal error: a program buffer is missing")),
        super::layout::Source::Carry(_) => Err(Error::new(
            "jit",
            "internal error: a whole program has no carries",
        )),
    };
    let layout = &staged.layout;
    let (inputs, outputs) = super::compiled::packed(layout, find, find)?;
    gpu.dispatch_packed(&staged.stages, layout.words, &inputs, &outputs)
}
