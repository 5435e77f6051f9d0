//! The device-program IR: the one form in which a compiled `scan`, and a whole jitted program,
//! are handed to a device that runs them without seeing a Jaxpr (ARCHITECTURE.md decision 6).
//! A [`LoopBody`] is a list of [`LoopStep`]s (kernels, routines and nested loops) over buffer
//! slots, each slot with a [`SlotRole`]; a [`DeviceProgram`] adds the number of steps and the
//! direction. `lower::scan_plan` builds one from a scan body, `lower::whole` one of a single
//! step from a whole jitted Program (its inputs the consts, its outputs the y rows).
//! `Backend::compile_loop`/`run_loop` run a scan's, `Backend::compile_program`/`run_program` a
//! whole program's (the defaults are "not supported": the scan runs as a host loop, the
//! program kernel by kernel).
//!
//! The meaning of one run, which every backend implements (the `cpu` host loop is the oracle):
//!
//! ```text
//! carry_in[k] ← init[k]                                  (for every carry k)
//! for t in 0..length:  i = reverse ? length-1-t : t
//!     x-row slot of xs j      = row i of xs buffer j     (base + i·row_bytes)
//!     y-row slot of ys j      = row i of ys buffer j     (written in place)
//!     run every step in order (a step reads only slots written before it, or inputs)
//!     carry_in[k] ← carry_out[k]                         (a pointer swap is fine)
//! final[k] ← carry_in[k]
//! ```
//!
//! A [`LoopStep::Loop`] step (a scan nested in the body) runs its inner [`DeviceProgram`] with this
//! same meaning, over buffers that are slots of the enclosing body: inner slot `s` is the buffer
//! of enclosing slot `slots[s]` (for the inner x/y slots: the whole stacked array, whose rows
//! the inner loop addresses within it; when that enclosing slot is itself an x/y row, its
//! current row), inner carry `k` starts from slot `init[k]` and ends in slot `finals[k]`.
//!
//! Invariants the planner guarantees: every carry-out and y-row slot is written by exactly one
//! step and is no other output; no step writes a const, carry-in or x-row slot; every buffer
//! is dense and row-major; temps hold nothing between steps of the loop. A nested loop's
//! outputs (the slots of its inner y slots and `finals`) follow the same rules; the slots of
//! its inner carry and temp slots are temps of the enclosing body used by that step alone.

use std::rc::Rc;

use super::{Kernel, Routine};
use crate::core::DType;

/// A buffer slot of a loop body.
pub type LoopSlot = usize;

/// What a slot's buffer is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SlotRole {
    /// Operand `j` of the scan's consts (read only, the same every step).
    Const(usize),
    /// The current value of carry `k` (read only within a step).
    CarryIn(usize),
    /// The next value of carry `k`, written by one step.
    CarryOut(usize),
    /// Row `i` of xs operand `j`: the slot's bytes are the row, at `base + i · bytes`.
    XRow(usize),
    /// Row `i` of ys output `j`, written in place at `base + i · bytes`.
    YRow(usize),
    /// An intermediate of one step of the loop.
    Temp,
}

/// One slot: its role, element dtype and the bytes of one step's value (a row for x/y).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SlotInfo {
    pub role: SlotRole,
    pub dtype: DType,
    /// The number of elements of one step's value.
    pub elements: usize,
}

impl SlotInfo {
    /// Bytes of one step's value (for x/y slots: the row stride).
    pub fn bytes(&self) -> usize {
        self.elements * self.dtype.byte_size()
    }
}

/// One step of the body.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum LoopStep {
    /// `kernel` over dense slots: its input `j` is slot `inputs[j]`.
    Kernel {
        kernel: Kernel,
        inputs: Vec<LoopSlot>,
        output: LoopSlot,
    },
    /// A routine over dense slots, in the routine's input and output order.
    Routine {
        routine: Routine,
        inputs: Vec<LoopSlot>,
        outputs: Vec<LoopSlot>,
    },
    /// A nested loop (see the module doc): `inner` over enclosing slots `slots` (one per inner
    /// slot), from initial carries `init` to final carries `finals`.
    Loop {
        inner: DeviceProgram,
        slots: Vec<LoopSlot>,
        init: Vec<LoopSlot>,
        finals: Vec<LoopSlot>,
    },
}

impl LoopStep {
    /// The slots this step writes (for a nested loop: its inner y slots and final carries; the
    /// scratch temps of its inner carries and temps are not counted).
    pub fn outputs(&self) -> Vec<LoopSlot> {
        match self {
            LoopStep::Kernel { output, .. } => vec![*output],
            LoopStep::Routine { outputs, .. } => outputs.clone(),
            LoopStep::Loop {
                inner,
                slots,
                finals,
                ..
            } => {
                let ys = inner.body.slots.iter().zip(slots);
                let mut out: Vec<LoopSlot> = ys
                    .filter(|(i, _)| matches!(i.role, SlotRole::YRow(_)))
                    .map(|(_, &s)| s)
                    .collect();
                out.extend_from_slice(finals);
                out
            }
        }
    }
}

/// A scan body as a device-independent loop program (what backends compile and cache).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct LoopBody {
    pub slots: Vec<SlotInfo>,
    pub steps: Vec<LoopStep>,
    pub num_consts: usize,
    pub num_carry: usize,
    pub num_xs: usize,
    pub num_ys: usize,
    /// The leading-axis length of each slot's value (1 for a scalar), where the planner knows
    /// it (a whole jitted Program, `lower::whole`); empty otherwise. Backends that split a
    /// body by rows (webgpu's staged programs) need it.
    pub rows: Vec<usize>,
}

impl LoopBody {
    /// The slot of the first slot with `role`.
    pub fn slot_of(&self, role: SlotRole) -> Option<LoopSlot> {
        self.slots.iter().position(|s| s.role == role)
    }

    /// The slot of carry `k`'s current value.
    pub fn carry_in(&self, k: usize) -> LoopSlot {
        self.slot_of(SlotRole::CarryIn(k))
            .expect("every carry has a slot")
    }

    /// The slot of carry `k`'s next value.
    pub fn carry_out(&self, k: usize) -> LoopSlot {
        self.slot_of(SlotRole::CarryOut(k))
            .expect("every carry has a slot")
    }

    pub fn kernel_count(&self) -> usize {
        self.steps
            .iter()
            .filter(|s| matches!(s, LoopStep::Kernel { .. }))
            .count()
    }

    pub fn routine_count(&self) -> usize {
        self.steps
            .iter()
            .filter(|s| matches!(s, LoopStep::Routine { .. }))
            .count()
    }

    /// The number of nested loops among the steps.
    pub fn loop_count(&self) -> usize {
        self.steps.len() - self.kernel_count() - self.routine_count()
    }

    /// The largest number of elements of any slot (a backend's workgroup test).
    pub fn max_elements(&self) -> usize {
        self.slots.iter().map(|s| s.elements).max().unwrap_or(0)
    }
}

/// A loop to run: a body, the number of steps and the direction.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct DeviceProgram {
    pub body: Rc<LoopBody>,
    pub length: usize,
    pub reverse: bool,
}

/// The buffers of one run, indexed as the body's slots (`slots[s]` for every slot `s`: the
/// whole stacked array for x/y slots, a scratch buffer of one value for carry and temp slots),
/// plus the initial carries (read) and the final carries (written), one per carry.
#[derive(Debug, Clone, Copy)]
pub struct LoopBuffers<'a, B> {
    pub slots: &'a [B],
    pub init: &'a [B],
    pub finals: &'a [B],
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::AluExp;

    #[test]
    fn roles_and_counts() {
        let f = DType::Float32;
        let slot = |role, elements| SlotInfo {
            role,
            dtype: f,
            elements,
        };
        let body = LoopBody {
            slots: vec![
                slot(SlotRole::CarryIn(0), 4),
                slot(SlotRole::XRow(0), 4),
                slot(SlotRole::CarryOut(0), 4),
            ],
            steps: vec![LoopStep::Kernel {
                kernel: Kernel::elementwise(vec![f], 4, AluExp::load(f, 0, AluExp::index())),
                inputs: vec![1],
                output: 2,
            }],
            num_consts: 0,
            num_carry: 1,
            num_xs: 1,
            num_ys: 0,
            rows: vec![],
        };
        assert_eq!((body.carry_in(0), body.carry_out(0)), (0, 2));
        assert_eq!((body.kernel_count(), body.routine_count()), (1, 0));
        assert_eq!((body.max_elements(), body.slots[1].bytes()), (4, 16));
    }
}
