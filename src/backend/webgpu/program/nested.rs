//! The ops of a loop body for the looping shader (`looping`), scans nested in it included: a
//! nested loop (`LoopStep::Loop`, `kernel/device_program.rs`) runs inside the step of its
//! enclosing loop as a `for` loop of its own ([`Nest`]), in the same dispatch.
//!
//! A nested body's slots are placed over the enclosing ones: its consts, and its temps (temps
//! of the enclosing body), are the enclosing slots' places; its x and y rows are rows of the
//! enclosing slot's stacked array, addressed by the nested loop's row (`Place::nested_rows`),
//! on top of whatever addressing the enclosing place has (an enclosing x row is itself a row
//! of the outer loop). Each of its carries gets two halves of storage of its own, read and
//! written by the nested step's parity like the outer carries; a copy op before the loop moves
//! the initial carry into the first half and one after it moves the final half into the
//! enclosing slot that receives it. Such a body keeps everything in the storage buffer.

use super::looping::{LoopOp, Nest, Parity, Place, Space, MAX_NEST};
use crate::core::DType;
use crate::kernel::device_program::{DeviceProgram, LoopBody, LoopSlot, LoopStep, SlotRole};
use crate::kernel::{AluExp, Kernel};
use crate::util::{Error, Result};

/// The ops of a body being laid out, and the storage its nested loops' carries take.
pub(super) struct BodyOps {
    pub ops: Vec<LoopOp>,
    pub nests: Vec<Nest>,
    /// Words of the packed buffer so far (nested carries are appended).
    pub words: u64,
    /// The next region id (for barrier placement) free for a nested carry.
    pub regions: usize,
    /// The most elements one op may have.
    pub max_elements: usize,
}

fn not_single(why: String) -> Error {
    Error::new("scan", why)
}

/// Whether `body` runs a nested loop.
pub fn has_nested(body: &LoopBody) -> bool {
    body.loop_count() > 0
}

/// Kernel steps run by `length` steps of `body`, nested loops' included.
pub fn executed_steps(body: &LoopBody, length: usize) -> u64 {
    let per_step: u64 = body
        .steps
        .iter()
        .map(|st| match st {
            LoopStep::Loop { inner, .. } => executed_steps(&inner.body, inner.length) + 2,
            _ => 1,
        })
        .fold(0, u64::saturating_add);
    per_step.saturating_mul(length as u64)
}

fn copy(dtype: DType, elements: usize) -> Kernel {
    Kernel::elementwise(
        vec![dtype],
        elements,
        AluExp::load(dtype, 0, AluExp::index()),
    )
}

impl BodyOps {
    /// Appends the ops of one step of `body` (at loop depth `depth`, its slots at `places`).
    pub fn body(&mut self, body: &LoopBody, places: &[Place], depth: u8) -> Result<()> {
        for step in &body.steps {
            match step {
                LoopStep::Kernel {
                    kernel,
                    inputs,
                    output,
                } => {
                    if kernel.size > self.max_elements {
                        return Err(not_single(format!(
                            "an op of {} elements is larger than one workgroup's share ({})",
                            kernel.size, self.max_elements
                        )));
                    }
                    self.ops.push(LoopOp {
                        kernel: kernel.clone(),
                        inputs: inputs.iter().map(|&i| places[i]).collect(),
                        output: places[*output],
                    });
                }
                LoopStep::Routine { routine, .. } => {
                    return Err(not_single(format!(
                        "the body runs the routine {}",
                        routine.name()
                    )))
                }
                LoopStep::Loop {
                    inner,
                    slots,
                    init,
                    finals,
                } => self.nested(inner, slots, init, finals, places, depth + 1)?,
            }
        }
        Ok(())
    }

    /// Appends nested loop `inner` at `depth` (its slot `s` is enclosing slot `slots[s]`, its
    /// carries start from enclosing slots `init` and end in `finals`; `outer` places the
    /// enclosing slots): the copies of its initial carries, its ops as a [`Nest`], the copies
    /// of its final carries.
    fn nested(
        &mut self,
        inner: &DeviceProgram,
        slots: &[LoopSlot],
        init: &[LoopSlot],
        finals: &[LoopSlot],
        outer: &[Place],
        depth: u8,
    ) -> Result<()> {
        if depth as usize > MAX_NEST {
            return Err(not_single(format!(
                "the body nests scans more than {MAX_NEST} deep"
            )));
        }
        let length = u32::try_from(inner.length)
            .map_err(|_| not_single("a nested scan has too many steps".into()))?;
        let body = &inner.body;
        // Each carry's two halves: (first word, words, dtype).
        let mut carries: Vec<(u32, u32, DType)> = Vec::with_capacity(body.num_carry);
        for k in 0..body.num_carry {
            let info = body.slots[body.carry_in(k)];
            let base = self.words;
            self.words += 2 * info.elements as u64;
            if self.words > u32::MAX as u64 / 2 {
                return Err(not_single("the body's buffers are too large".into()));
            }
            carries.push((base as u32, info.elements as u32, info.dtype));
        }
        let first_region = self.regions;
        self.regions += body.num_carry;
        let half = |k: usize, second: bool| Place {
            base: carries[k].0 + if second { carries[k].1 } else { 0 },
            ..Place::fixed(first_region + k, 0)
        };
        let mut places = Vec::with_capacity(body.slots.len());
        for (s, info) in body.slots.iter().enumerate() {
            let enclosing = slots
                .get(s)
                .map(|&e| outer[e])
                .ok_or_else(|| not_single("internal error: a nested slot is unmapped".into()))?;
            places.push(match info.role {
                SlotRole::Const(_) | SlotRole::Temp => enclosing,
                SlotRole::XRow(_) | SlotRole::YRow(_) => {
                    let mut p = enclosing;
                    p.nested_rows[depth as usize - 1] = info.elements as u32;
                    p
                }
                SlotRole::CarryIn(k) | SlotRole::CarryOut(k) => {
                    let size = carries[k].1;
                    Place {
                        parity: match info.role {
                            SlotRole::CarryIn(_) => Parity::Current(size),
                            _ => Parity::Next(size),
                        },
                        depth,
                        ..half(k, false)
                    }
                }
            });
            if places[s].space != Space::Storage {
                return Err(not_single(
                    "internal error: a nested loop over workgroup memory".into(),
                ));
            }
        }
        for (k, &(_, words, dtype)) in carries.iter().enumerate() {
            self.ops.push(LoopOp {
                kernel: copy(dtype, words as usize),
                inputs: vec![outer[init[k]]],
                output: half(k, false),
            });
        }
        let start = self.ops.len();
        let nests_before = self.nests.len();
        self.body(body, &places, depth)?;
        self.nests.insert(
            nests_before,
            Nest {
                start,
                end: self.ops.len(),
                depth,
                length,
                reverse: inner.reverse,
            },
        );
        for (k, &(_, words, dtype)) in carries.iter().enumerate() {
            self.ops.push(LoopOp {
                kernel: copy(dtype, words as usize),
                inputs: vec![half(k, length & 1 == 1)],
                output: outer[finals[k]],
            });
        }
        Ok(())
    }
}
