//! Whole jitted programs on webgpu that the staged path cannot take whole
//! (`Backend::compile_program`/`run_program`, after `whole` and `stages` decline): the
//! program's steps are cut, in program order, into PARTS, each either
//!
//! - a run of steps compiled as row-partitioned stages (`stages::build` on the run as a
//!   program of its own: what it reads from outside are its consts, what later parts or the
//!   program's outputs read of it its outputs), over a packed buffer of its own; or
//! - one ORDINARY step, dispatched as the step-by-step path would: a kernel through its own
//!   pipeline (the Program was lowered for the device's storage-buffer limit, so it binds
//!   what the device allows; the staged parts bind only their packed buffer), a routine
//!   through the routine's.
//!
//! A step is ordinary when it touches a slot that is not 32-bit, when `stages::build` names it
//! as over a cap on its own (the loop budget, a band's caps, a multi-pass routine, a routine
//! that does not fit), or when a run around it would save no dispatch. A run whose packed
//! buffer would not fit one binding is halved until its halves fit. Runs are tried as stages
//! at most `WEBGPU_MIXED_MAX_TRIES` times (each try plans the run again); what is left runs
//! ordinary. Everything is encoded into the current batch in order; values cross between
//! parts through ordinary buffers (a slot written by one part and read by a later one gets a
//! buffer of its own for the run, freed after its last reader), and into and out of a staged
//! part's packed buffer by copies, not dispatches. So a program with one kernel over a cap
//! runs as the stages before it, the kernel, and the stages after it.
//!
//! A float16 program runs widened (`widen_half::widened_program`): its float16 inputs and
//! outputs are converted at its ends by ordinary kernels and every other step computes the
//! float16 values in float32 slots, so the rest can be staged.

use std::cell::Cell;
use std::ops::Range;
use std::rc::Rc;

use super::compiled::{keep, CompiledProgram};
use super::stages::{self, word_slot, Staged, Unstaged};
use super::widen_half;
use crate::backend::caps::WEBGPU_MIXED_MAX_TRIES;
use crate::backend::webgpu::WebGpuBackend;
use crate::backend::{Backend, BufferId, ExeId};
use crate::kernel::device_program::{DeviceProgram, LoopBody, LoopStep, SlotInfo, SlotRole};
use crate::kernel::{Kernel, Routine};
use crate::util::{Error, Result};

/// A compiled mixed program.
pub(super) struct Mixed {
    /// The body it runs (the plan's, or its widened rewrite): slots past the plan's are temps.
    body: Rc<LoopBody>,
    parts: Vec<Part>,
    /// Per part: the temps it writes first (given buffers before it runs) and those it reads
    /// last (freed after it).
    allocs: Vec<Vec<usize>>,
    frees: Vec<Vec<usize>>,
}

impl Mixed {
    /// Staged parts, their dispatches in all, and ordinary steps.
    pub fn counts(&self) -> (usize, usize, usize) {
        let staged = self.parts.iter().filter_map(|p| match p {
            Part::Staged { staged, .. } => Some(staged.stages.len()),
            _ => None,
        });
        let (parts, dispatches) = staged.fold((0, 0), |(p, d), n| (p + 1, d + n));
        (parts, dispatches, self.parts.len() - parts)
    }
}

/// One part of a mixed program.
enum Part {
    /// A run of steps as stages: sub-program slot `i` is body slot `slots[i]`.
    Staged { staged: Staged, slots: Vec<usize> },
    /// A kernel step, with its compiled id and the generation of the kernel cache it was
    /// read under.
    Kernel {
        kernel: Kernel,
        inputs: Vec<usize>,
        output: usize,
        kept: Cell<(u64, ExeId)>,
    },
    /// A routine step.
    Routine {
        routine: Routine,
        inputs: Vec<usize>,
        outputs: Vec<usize>,
    },
}

/// What the partition does next, in program order.
enum Job {
    /// Try these steps as stages.
    Run(Range<usize>),
    /// Run this step as an ordinary dispatch.
    Step(usize),
}

/// `compile_program`'s mixed path: the compiled parts of `plan`, or None where no run of its
/// steps can be staged (it then runs kernel by kernel).
pub(super) fn compile(gpu: &mut WebGpuBackend, plan: &DeviceProgram) -> Result<Option<ExeId>> {
    if plan.length != 1 || plan.body.num_ys == 0 || plan.body.rows.len() != plan.body.slots.len() {
        return Ok(None);
    }
    if let Some(id) = gpu.loops.ids.get(plan).copied() {
        if let Some(CompiledProgram::Mixed(_)) = gpu.loops.exes.get(&id).map(|c| &**c) {
            return Ok(Some(id));
        }
    }
    let body = match widen_half::widened_program(&plan.body) {
        Some(wide) => Rc::new(wide),
        None => plan.body.clone(),
    };
    if !single_assignment(&body) {
        return Ok(None);
    }
    let Some(parts) = partition(gpu, &body)? else {
        return Ok(None);
    };
    if !parts.iter().any(|p| matches!(p, Part::Staged { .. })) {
        return Ok(None);
    }
    let (allocs, frees) = lifetimes(&body, &parts);
    let mixed = Mixed {
        body,
        parts,
        allocs,
        frees,
    };
    Ok(Some(keep(
        gpu,
        plan,
        Rc::new(CompiledProgram::Mixed(mixed)),
    )))
}

/// Whether every slot is written by at most one step, never one of the program's inputs, and
/// no step reads what it writes (so a run of steps reads exactly what it does not write).
fn single_assignment(body: &LoopBody) -> bool {
    let mut written = vec![false; body.slots.len()];
    for step in &body.steps {
        let (inputs, outputs) = match step {
            LoopStep::Kernel { inputs, output, .. } => (inputs.clone(), vec![*output]),
            LoopStep::Routine {
                inputs, outputs, ..
            } => (inputs.clone(), outputs.clone()),
            LoopStep::Loop { .. } => return false,
        };
        for &o in &outputs {
            if written[o] || inputs.contains(&o) || matches!(body.slots[o].role, SlotRole::Const(_))
            {
                return false;
            }
            written[o] = true;
        }
    }
    true
}

/// Whether step `k` may be a stage member at all (before its caps are checked).
fn may_stage(body: &LoopBody, step: &LoopStep) -> bool {
    match step {
        LoopStep::Kernel {
            kernel,
            inputs,
            output,
        } => {
            let rows = body.rows[*output].max(1);
            kernel.size > 0
                && kernel.size.is_multiple_of(rows)
                && inputs
                    .iter()
                    .chain([output])
                    .all(|&s| word_slot(&body.slots[s]))
        }
        LoopStep::Routine {
            inputs, outputs, ..
        } => inputs
            .iter()
            .chain(outputs)
            .all(|&s| word_slot(&body.slots[s])),
        LoopStep::Loop { .. } => false,
    }
}

/// The parts of `body` in program order (see the module doc).
fn partition(gpu: &mut WebGpuBackend, body: &Rc<LoopBody>) -> Result<Option<Vec<Part>>> {
    let n = body.steps.len();
    let stageable: Vec<bool> = body.steps.iter().map(|s| may_stage(body, s)).collect();
    let mut jobs = Vec::new();
    let mut k = 0;
    while k < n {
        let start = k;
        while k < n && stageable[k] {
            k += 1;
        }
        if k > start {
            jobs.push(Job::Run(start..k));
        } else {
            jobs.push(Job::Step(k));
            k += 1;
        }
    }
    // A stack: the next job is last.
    jobs.reverse();
    let mut parts = Vec::new();
    let mut tries = 0;
    while let Some(job) = jobs.pop() {
        let range = match job {
            Job::Step(k) => {
                match ordinary(gpu, body, k)? {
                    Some(part) => parts.push(part),
                    None => return Ok(None),
                }
                continue;
            }
            Job::Run(range) if range.len() < 2 || tries >= WEBGPU_MIXED_MAX_TRIES => {
                jobs.extend(range.rev().map(Job::Step));
                continue;
            }
            Job::Run(range) => range,
        };
        tries += 1;
        let (sub, slots) = sub_program(body, range.clone());
        match stages::build(gpu, &sub)? {
            Ok(staged) => parts.push(Part::Staged { staged, slots }),
            Err(Unstaged::Step(j)) => {
                let k = range.start + j;
                jobs.push(Job::Run(k + 1..range.end));
                jobs.push(Job::Step(k));
                jobs.push(Job::Run(range.start..k));
            }
            Err(Unstaged::TooLarge) => {
                let mid = range.start + range.len() / 2;
                jobs.push(Job::Run(mid..range.end));
                jobs.push(Job::Run(range.start..mid));
            }
            Err(Unstaged::Declined) => jobs.extend(range.rev().map(Job::Step)),
        }
    }
    Ok(Some(parts))
}

/// The steps `range` of `body` as a program of their own, and the body slot of each of its
/// slots: slots they read but do not write are its consts, slots they write that a later step
/// reads or that are program outputs its outputs, the rest its temps.
fn sub_program(body: &LoopBody, range: Range<usize>) -> (DeviceProgram, Vec<usize>) {
    let n = body.slots.len();
    let (mut read, mut written, mut later) = (vec![false; n], vec![false; n], vec![false; n]);
    for (k, step) in body.steps.iter().enumerate() {
        let (ins, outs) = operands(step);
        if range.contains(&k) {
            ins.iter().for_each(|&s| read[s] = true);
            outs.iter().for_each(|&s| written[s] = true);
        } else if k >= range.end {
            ins.iter().for_each(|&s| later[s] = true);
        }
    }
    let mut index = vec![usize::MAX; n];
    let mut slots = Vec::new();
    let mut infos = Vec::new();
    let mut rows = Vec::new();
    let (mut consts, mut ys) = (0, 0);
    for s in 0..n {
        if !read[s] && !written[s] {
            continue;
        }
        let role = if !written[s] {
            consts += 1;
            SlotRole::Const(consts - 1)
        } else if later[s] || matches!(body.slots[s].role, SlotRole::YRow(_)) {
            ys += 1;
            SlotRole::YRow(ys - 1)
        } else {
            SlotRole::Temp
        };
        index[s] = slots.len();
        slots.push(s);
        infos.push(SlotInfo {
            role,
            ..body.slots[s]
        });
        rows.push(body.rows[s]);
    }
    let map = |v: &[usize]| v.iter().map(|&s| index[s]).collect::<Vec<_>>();
    let steps = body.steps[range]
        .iter()
        .map(|step| match step {
            LoopStep::Kernel {
                kernel,
                inputs,
                output,
            } => LoopStep::Kernel {
                kernel: kernel.clone(),
                inputs: map(inputs),
                output: index[*output],
            },
            LoopStep::Routine {
                routine,
                inputs,
                outputs,
            } => LoopStep::Routine {
                routine: *routine,
                inputs: map(inputs),
                outputs: map(outputs),
            },
            LoopStep::Loop { .. } => step.clone(),
        })
        .collect();
    let sub = DeviceProgram {
        body: Rc::new(LoopBody {
            slots: infos,
            steps,
            num_consts: consts,
            num_carry: 0,
            num_xs: 0,
            num_ys: ys,
            rows,
        }),
        length: 1,
        reverse: false,
    };
    (sub, slots)
}

/// The slots `step` reads and writes.
fn operands(step: &LoopStep) -> (Vec<usize>, Vec<usize>) {
    match step {
        LoopStep::Kernel { inputs, output, .. } => (inputs.clone(), vec![*output]),
        LoopStep::Routine {
            inputs, outputs, ..
        } => (inputs.clone(), outputs.clone()),
        LoopStep::Loop { .. } => (Vec::new(), step.outputs()),
    }
}

/// Step `k` of `body` as an ordinary part, compiled (an error where its own dispatch cannot
/// run either: the program then runs step by step, which reports it), or None for a kernel
/// that binds more buffers than the device allows (a Program lowered for another device).
fn ordinary(gpu: &mut WebGpuBackend, body: &LoopBody, k: usize) -> Result<Option<Part>> {
    match &body.steps[k] {
        LoopStep::Kernel {
            kernel,
            inputs,
            output,
        } => {
            if kernel.inputs.len() > gpu.limits().max_kernel_inputs {
                return Ok(None);
            }
            let exe = gpu.compile(kernel)?;
            Ok(Some(Part::Kernel {
                kernel: kernel.clone(),
                inputs: inputs.clone(),
                output: *output,
                kept: Cell::new((gpu.exe_generation(), exe)),
            }))
        }
        LoopStep::Routine {
            routine,
            inputs,
            outputs,
        } => {
            gpu.compile_routine(routine)?;
            Ok(Some(Part::Routine {
                routine: *routine,
                inputs: inputs.clone(),
                outputs: outputs.clone(),
            }))
        }
        LoopStep::Loop { .. } => Ok(None),
    }
}

/// The body slots part `part` reads from and writes to ordinary buffers.
fn buffered(part: &Part) -> (Vec<usize>, Vec<usize>) {
    match part {
        Part::Staged { staged, slots } => {
            let slot = |&(source, _): &(super::layout::Source, u32)| match source {
                super::layout::Source::Slot(s) => slots.get(s).copied(),
                super::layout::Source::Carry(_) => None,
            };
            let layout = &staged.layout;
            (
                layout.copy_in.iter().filter_map(slot).collect(),
                layout.copy_out.iter().filter_map(slot).collect(),
            )
        }
        Part::Kernel { inputs, output, .. } => (inputs.clone(), vec![*output]),
        Part::Routine {
            inputs, outputs, ..
        } => (inputs.clone(), outputs.clone()),
    }
}

/// Per part, the temps given buffers before it (those it writes) and freed after it (those
/// last read or written by it).
fn lifetimes(body: &LoopBody, parts: &[Part]) -> (Vec<Vec<usize>>, Vec<Vec<usize>>) {
    let temp = |s: usize| body.slots[s].role == SlotRole::Temp;
    let mut allocs = vec![Vec::new(); parts.len()];
    let mut last = vec![usize::MAX; body.slots.len()];
    for (p, part) in parts.iter().enumerate() {
        let (reads, writes) = buffered(part);
        for s in writes.into_iter().filter(|&s| temp(s)) {
            if last[s] == usize::MAX {
                allocs[p].push(s);
            }
            last[s] = p;
        }
        for s in reads.into_iter().filter(|&s| temp(s)) {
            last[s] = p;
        }
    }
    let mut frees = vec![Vec::new(); parts.len()];
    for (s, &p) in last.iter().enumerate() {
        if p != usize::MAX {
            frees[p].push(s);
        }
    }
    (allocs, frees)
}

/// Runs a mixed program on the program's `inputs`, writing its `outputs`: every part in
/// order, into the current batch.
pub(super) fn run(
    gpu: &mut WebGpuBackend,
    mixed: &Mixed,
    inputs: &[BufferId],
    outputs: &[BufferId],
) -> Result<()> {
    let body = &mixed.body;
    let mut buffers: Vec<Option<BufferId>> = body
        .slots
        .iter()
        .map(|s| match s.role {
            SlotRole::Const(j) => inputs.get(j).copied(),
            SlotRole::YRow(j) => outputs.get(j).copied(),
            _ => None,
        })
        .collect();
    let mut result = Ok(());
    for (p, part) in mixed.parts.iter().enumerate() {
        for &s in &mixed.allocs[p] {
            match gpu.alloc(body.slots[s].bytes()) {
                Ok(b) => buffers[s] = Some(b),
                Err(e) => result = Err(e),
            }
        }
        if result.is_ok() {
            result = run_part(gpu, part, &buffers);
        }
        for &s in &mixed.frees[p] {
            if let Some(b) = buffers[s].take() {
                gpu.free(b);
            }
        }
        if result.is_err() {
            break;
        }
    }
    // After an error: the temps still holding a buffer.
    for (s, info) in body.slots.iter().enumerate() {
        if info.role == SlotRole::Temp {
            if let Some(b) = buffers[s].take() {
                gpu.free(b);
            }
        }
    }
    result
}

fn missing() -> Error {
    Error::new("jit", "internal error: a mixed program's buffer is missing")
}

/// Encodes one part over the body's `buffers`.
fn run_part(gpu: &mut WebGpuBackend, part: &Part, buffers: &[Option<BufferId>]) -> Result<()> {
    let of = |s: usize| buffers.get(s).copied().flatten().ok_or_else(missing);
    match part {
        Part::Staged { staged, slots } => {
            // Temps of the part live in its packed buffer: their entries are never read.
            let any = slots.iter().find_map(|&s| buffers[s]).ok_or_else(missing)?;
            let bound: Vec<BufferId> = slots.iter().map(|&s| buffers[s].unwrap_or(any)).collect();
            stages::run(gpu, staged, &bound)
        }
        Part::Kernel {
            kernel,
            inputs,
            output,
            kept,
        } => {
            let ids = inputs.iter().map(|&s| of(s)).collect::<Result<Vec<_>>>()?;
            let (generation, mut exe) = kept.get();
            if generation != gpu.exe_generation() {
                exe = gpu.compile(kernel)?;
                kept.set((gpu.exe_generation(), exe));
            }
            gpu.dispatch(exe, &ids, of(*output)?)
        }
        Part::Routine {
            routine,
            inputs,
            outputs,
        } => {
            let ins = inputs.iter().map(|&s| of(s)).collect::<Result<Vec<_>>>()?;
            let outs = outputs.iter().map(|&s| of(s)).collect::<Result<Vec<_>>>()?;
            let exe = gpu.compile_routine(routine)?;
            gpu.dispatch_routine(exe, &ins, &outs)
        }
    }
}
