//! A whole jitted [`Program`] as a one-step loop body (`kernel/scan_loop.rs`): the Program's
//! inputs are the loop's consts, its outputs the y rows of its single step, every other slot a
//! temp. A device that runs such a body as ONE call (`Backend::compile_program`; wasm: one
//! loop module; webgpu: the looping shader, one workgroup with barriers between dependent
//! kernels) saves a call per kernel; for programs of many small kernels (an `associativeScan`
//! under `jit`: ~10 per round) the calls are most of the time. [`WholeCache`] keeps the body and each
//! device's answer with the Program, so a repeated call neither rebuilds nor re-hashes it.

use std::cell::{OnceCell, RefCell};
use std::rc::Rc;

use super::program::{Program, Step};
use super::scan_plan::{loop_steps, own_outputs};
use crate::backend::caps::{WHOLE_MAX_STEPS, WHOLE_MIN_STEPS};
use crate::backend::ExeId;
use crate::core::{Device, Primitive};
use crate::kernel::scan_loop::{LoopBody, ScanLoop, SlotInfo, SlotRole};
use crate::kernel::DeviceLimits;

/// The one-step loop of `program`, or None when it has a scan, a step that is neither a kernel
/// nor a routine on slots (`scan_plan::loop_steps`), or fewer than [`WHOLE_MIN_STEPS`] or more
/// than [`WHOLE_MAX_STEPS`] steps.
pub fn one_step_loop(program: &Program) -> Option<ScanLoop> {
    if !(WHOLE_MIN_STEPS..=WHOLE_MAX_STEPS).contains(&program.steps.len()) {
        return None;
    }
    // A scan keeps its own path (reported to `setScanPathCallback`, checked against its
    // `acceptPath`), so a program with one runs step by step.
    let scans = program.steps.iter().any(|s| {
        matches!(
            s,
            Step::Fallback {
                primitive: Primitive::Scan(_),
                ..
            }
        )
    });
    if scans {
        return None;
    }
    let mut slots: Vec<SlotInfo> = program
        .avals
        .iter()
        .enumerate()
        .map(|(s, aval)| SlotInfo {
            role: if s < program.inputs {
                SlotRole::Const(s)
            } else {
                SlotRole::Temp
            },
            dtype: aval.dtype,
            elements: aval.size(),
        })
        .collect();
    let mut steps = loop_steps(program, &mut slots, DeviceLimits::UNBOUNDED).ok()?;
    let out_avals: Vec<_> = program
        .outputs
        .iter()
        .map(|a| match a {
            super::Arg::Slot(s) => program.avals[*s].clone(),
            super::Arg::Literal(_, aval) => aval.clone(),
        })
        .collect();
    let lead = |a: &crate::core::Aval| a.shape.first().copied().unwrap_or(1).max(1);
    own_outputs(
        program.inputs,
        &mut slots,
        &mut steps,
        &program.outputs,
        &out_avals,
        SlotRole::YRow,
    );
    // Slots own_outputs added are output copies (role YRow(j)).
    let rows = slots
        .iter()
        .enumerate()
        .map(|(s, info)| match info.role {
            SlotRole::YRow(j) => lead(&out_avals[j]),
            _ => program.avals.get(s).map_or(1, lead),
        })
        .collect();
    Some(ScanLoop {
        body: Rc::new(LoopBody {
            slots,
            steps,
            num_consts: program.inputs,
            num_carry: 0,
            num_xs: 0,
            num_ys: program.outputs.len(),
            rows,
        }),
        length: 1,
        reverse: false,
    })
}

/// Runtime state attached to a Program (like `exes::ExeCache`: clones start empty, every
/// cache compares equal): the one-step loop, built once, and per device the compiled id the
/// backend gave it (None: that device runs the Program kernel by kernel).
#[derive(Default)]
pub struct WholeCache {
    body: OnceCell<Option<Rc<ScanLoop>>>,
    devices: RefCell<Vec<(Device, Option<ExeId>)>>,
}

impl WholeCache {
    /// The one-step loop of `program` (whose cache this is).
    pub fn plan(&self, program: &Program) -> Option<Rc<ScanLoop>> {
        self.body
            .get_or_init(|| one_step_loop(program).map(Rc::new))
            .clone()
    }

    /// The answer kept for `device`: None when there is none yet.
    pub fn get(&self, device: Device) -> Option<Option<ExeId>> {
        self.devices
            .borrow()
            .iter()
            .find(|(d, _)| *d == device)
            .map(|&(_, id)| id)
    }

    pub fn set(&self, device: Device, id: Option<ExeId>) {
        let mut devices = self.devices.borrow_mut();
        devices.retain(|(d, _)| *d != device);
        devices.push((device, id));
    }
}

impl Clone for WholeCache {
    fn clone(&self) -> Self {
        WholeCache::default()
    }
}

impl PartialEq for WholeCache {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl std::fmt::Debug for WholeCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("WholeCache")
    }
}
