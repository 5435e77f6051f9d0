//! Placing a device program ([`DeviceProgram`], `kernel/device_program.rs`) into the one
//! packed buffer of the looping shader (`looping`): every slot gets a word offset — consts and
//! temps one value, xs and ys their whole stacked arrays (a row per step), each carry two
//! halves (read half and written half swap every step). The layout also says what to copy in
//! before the dispatch (consts, xs, initial carries) and out after it (ys, final carries); xs
//! and ys may instead be bound directly (`ox_b1`, …: the run's own buffers, at word 0 of their
//! binding), up to a number of roles the caller gives (the storage-buffer limit's spare).
//! The ops of the body, scans nested in it included, are placed by `nested`.
//!
//! When consts, carries, temps and two staged rows of each xs fit the device's workgroup
//! memory, they are placed there (`Space::Workgroup`): the shader moves consts and initial
//! carries in before its loop and the final carries out after it, and prefetches xs rows.

use super::looping::{workgroup_size, LoopShader, Move, Parity, Place, Prefetch, Space};
use super::nested::{self, BodyOps};
use crate::backend::caps::{WEBGPU_LOOP_MAX_KERNEL_ELEMENTS, WEBGPU_LOOP_MAX_KERNEL_STEPS};
use crate::kernel::device_program::{DeviceProgram, LoopStep, SlotRole};
use crate::util::{Error, Result};

/// Staged xs rows come in chunks of at most this many steps (a power of two) ...
pub const MAX_CHUNK: u32 = 16;
/// ... of at most this many words per invocation.
pub const CHUNK_LOADS: u32 = 4;

/// Where a buffer of the run goes in (or comes out of) the packed buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The buffer of slot `s` (consts, xs; ys on the way out).
    Slot(usize),
    /// Initial carry `k` (in) or final carry `k` (out).
    Carry(usize),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    pub shader: LoopShader,
    /// Words of the packed buffer.
    pub words: u32,
    pub copy_in: Vec<(Source, u32)>,
    pub copy_out: Vec<(Source, u32)>,
    /// Where each slot of the body lives.
    pub places: Vec<Place>,
    /// The run's buffers bound directly (`LoopShader::bound`: `ox_b{j}` is entry `j - 1`),
    /// neither copied in nor out.
    pub bound: Vec<Source>,
}

fn not_single(why: String) -> Error {
    Error::new("scan", why)
}

/// The single-dispatch layout of `plan`, or why the body does not suit one dispatch;
/// `workgroup_limit` is the device's workgroup memory in words.
pub fn layout(plan: &DeviceProgram, workgroup_limit: u32) -> Result<Layout> {
    layout_bound(plan, workgroup_limit, 0)
}

/// [`layout`] with the xs and ys of up to `bindable` roles bound directly (the rest copied).
pub fn layout_bound(plan: &DeviceProgram, workgroup_limit: u32, bindable: usize) -> Result<Layout> {
    layout_of(
        plan,
        workgroup_limit,
        WEBGPU_LOOP_MAX_KERNEL_ELEMENTS,
        bindable,
    )
}

/// [`layout`] for ops of at most `max_elements` elements.
pub fn layout_with(
    plan: &DeviceProgram,
    workgroup_limit: u32,
    max_elements: usize,
) -> Result<Layout> {
    layout_of(plan, workgroup_limit, max_elements, 0)
}

fn layout_of(
    plan: &DeviceProgram,
    workgroup_limit: u32,
    max_elements: usize,
    bindable: usize,
) -> Result<Layout> {
    let length = u32::try_from(plan.length).map_err(|_| not_single("too many steps".into()))?;
    if nested::executed_steps(&plan.body, plan.length) > WEBGPU_LOOP_MAX_KERNEL_STEPS {
        return Err(not_single("too many steps for one dispatch".into()));
    }
    let Storage {
        words,
        mut places,
        copy_in,
        copy_out,
        bound,
    } = storage(plan, length, bindable)?;
    // A body with nested loops keeps everything in storage (`nested`).
    let staged = match nested::has_nested(&plan.body) {
        true => Staged::default(),
        false => stage_in_workgroup(plan, &mut places, workgroup_limit),
    };
    let mut ops = BodyOps {
        ops: Vec::with_capacity(plan.body.steps.len()),
        nests: Vec::new(),
        words: words as u64,
        regions: plan.body.slots.len(),
        max_elements,
    };
    ops.body(&plan.body, &places, 0)?;
    Ok(Layout {
        shader: LoopShader {
            ops: ops.ops,
            length,
            reverse: plan.reverse,
            // Declared rounded up (within the limit), so that programs of nearby sizes
            // declare the same array and share their shader (`stage_templates`).
            workgroup_words: match staged.words {
                0 => 0,
                w => w.next_power_of_two().min(workgroup_limit.max(w)),
            },
            prologue: staged.prologue,
            epilogue: staged.epilogue,
            prefetch: staged.prefetch,
            nests: ops.nests,
            bound: bound
                .iter()
                .map(|&src| match src {
                    Source::Slot(s) => matches!(plan.body.slots[s].role, SlotRole::YRow(_)),
                    Source::Carry(_) => false,
                })
                .collect(),
        },
        words: ops.words as u32,
        copy_in,
        copy_out,
        places,
        bound,
    })
}

/// Every slot placed in the packed storage buffer, and the copies in and out.
struct Storage {
    words: u32,
    places: Vec<Place>,
    copy_in: Vec<(Source, u32)>,
    copy_out: Vec<(Source, u32)>,
    bound: Vec<Source>,
}

/// Places every slot of `plan`'s body (of `length` steps) in storage: slots of one role (but
/// temps) share their words; the xs and ys of the first `bindable` such roles are the run's
/// buffers bound directly (word 0 of binding `j`), the rest are copied.
fn storage(plan: &DeviceProgram, length: u32, bindable: usize) -> Result<Storage> {
    let body = &plan.body;
    let mut words: u64 = 0;
    let mut places: Vec<Place> = Vec::with_capacity(body.slots.len());
    // The base and binding of each shared storage (by role), so slots of one role share it.
    let mut shared: Vec<(SlotRole, u32, u8)> = Vec::new();
    let mut copy_in = Vec::new();
    let mut copy_out = Vec::new();
    let mut bound = Vec::new();
    for (s, info) in body.slots.iter().enumerate() {
        let elements = info.elements as u64;
        let key = match info.role {
            SlotRole::CarryOut(k) => SlotRole::CarryIn(k),
            r => r,
        };
        let found = shared
            .iter()
            .find(|(r, ..)| *r == key)
            .map(|&(_, b, j)| (b, j));
        let row = matches!(info.role, SlotRole::XRow(_) | SlotRole::YRow(_));
        let (base, binding) = match (found, info.role) {
            (Some(b), _) if info.role != SlotRole::Temp => b,
            _ if row && bound.len() < bindable && bound.len() < u8::MAX as usize => {
                bound.push(Source::Slot(s));
                let j = bound.len() as u8;
                shared.push((key, 0, j));
                (0, j)
            }
            _ => {
                let base = words as u32;
                words += match info.role {
                    SlotRole::XRow(_) | SlotRole::YRow(_) => elements * plan.length as u64,
                    SlotRole::CarryIn(_) | SlotRole::CarryOut(_) => 2 * elements,
                    SlotRole::Const(_) | SlotRole::Temp => elements,
                };
                if words > u32::MAX as u64 / 2 {
                    return Err(not_single("the body's buffers are too large".into()));
                }
                if info.role != SlotRole::Temp {
                    shared.push((key, base, 0));
                    match info.role {
                        SlotRole::Const(_) | SlotRole::XRow(_) => {
                            copy_in.push((Source::Slot(s), base))
                        }
                        SlotRole::YRow(_) => copy_out.push((Source::Slot(s), base)),
                        SlotRole::CarryIn(k) | SlotRole::CarryOut(k) => {
                            let last = (length & 1) * info.elements as u32;
                            copy_in.push((Source::Carry(k), base));
                            copy_out.push((Source::Carry(k), base + last));
                        }
                        SlotRole::Temp => {}
                    }
                }
                (base, 0)
            }
        };
        let size = info.elements as u32;
        let (row_stride, parity) = match info.role {
            SlotRole::XRow(_) | SlotRole::YRow(_) => (size, Parity::None),
            SlotRole::CarryIn(_) => (0, Parity::Current(size)),
            SlotRole::CarryOut(_) => (0, Parity::Next(size)),
            SlotRole::Const(_) | SlotRole::Temp => (0, Parity::None),
        };
        places.push(Place {
            space: Space::Storage,
            region: s,
            base,
            row_stride,
            parity,
            binding,
            ..Place::fixed(s, base)
        });
    }
    Ok(Storage {
        words: words as u32,
        places,
        copy_in,
        copy_out,
        bound,
    })
}

/// Moves what fits of `places` into workgroup memory (`to_workgroup`), with chunks of staged
/// xs rows of as many steps as fit (at most [`CHUNK_LOADS`] loads per invocation per chunk),
/// fewer when workgroup memory is short.
fn stage_in_workgroup(plan: &DeviceProgram, places: &mut [Place], workgroup_limit: u32) -> Staged {
    let body = &plan.body;
    let largest = body
        .steps
        .iter()
        .map(|st| match st {
            LoopStep::Kernel { kernel, .. } => kernel.size,
            LoopStep::Routine { .. } | LoopStep::Loop { .. } => 0,
        })
        .max()
        .unwrap_or(1);
    let wg = workgroup_size(largest);
    let widest = body
        .slots
        .iter()
        .filter(|s| matches!(s.role, SlotRole::XRow(_)) && s.elements as u32 <= wg)
        .map(|s| s.elements as u32)
        .max()
        .unwrap_or(1)
        .max(1);
    let mut chunk = MAX_CHUNK;
    while chunk > 1 && chunk * widest > CHUNK_LOADS * wg {
        chunk /= 2;
    }
    let mut staged = Staged::default();
    while chunk >= 1 {
        staged = to_workgroup(plan, places, wg, workgroup_limit, chunk);
        if staged.words > 0 {
            break;
        }
        chunk /= 2;
    }
    staged
}

#[derive(Default)]
struct Staged {
    words: u32,
    prologue: Vec<Move>,
    epilogue: Vec<Move>,
    prefetch: Vec<Prefetch>,
}

/// Moves consts, carries, temps and staged xs rows to workgroup memory when all of them fit
/// in `limit` words (else nothing moves); rewrites `places` and returns the moves.
fn to_workgroup(
    plan: &DeviceProgram,
    places: &mut [Place],
    wg: u32,
    limit: u32,
    chunk: u32,
) -> Staged {
    let body = &plan.body;
    let mut st = Staged::default();
    let mut moved: Vec<Place> = places.to_vec();
    // Workgroup bases by the storage base they replace (slots sharing storage share them).
    let mut bases: Vec<((u8, u32), u32)> = Vec::new();
    let last = (plan.length as u32) & 1;
    for (s, info) in body.slots.iter().enumerate() {
        let e = info.elements as u32;
        let storage = places[s].base;
        let binding = places[s].binding;
        let words = match info.role {
            SlotRole::YRow(_) => continue,
            SlotRole::XRow(_) if e > wg => continue,
            SlotRole::XRow(_) => 2 * chunk * e,
            SlotRole::CarryIn(_) | SlotRole::CarryOut(_) => 2 * e,
            SlotRole::Const(_) | SlotRole::Temp => e,
        };
        let base = match bases
            .iter()
            .find(|(b, _)| *b == (binding, storage) && info.role != SlotRole::Temp)
        {
            Some(&(_, w)) => w,
            None => {
                let w = st.words;
                st.words = match st.words.checked_add(words) {
                    Some(n) if n <= limit => n,
                    _ => return Staged::default(),
                };
                bases.push(((binding, storage), w));
                match info.role {
                    SlotRole::Const(_) => st.prologue.push(Move {
                        from: (Space::Storage, storage),
                        to: (Space::Workgroup, w),
                        words: e,
                    }),
                    SlotRole::CarryIn(_) | SlotRole::CarryOut(_) => {
                        st.prologue.push(Move {
                            from: (Space::Storage, storage),
                            to: (Space::Workgroup, w),
                            words: e,
                        });
                        st.epilogue.push(Move {
                            from: (Space::Workgroup, w + last * e),
                            to: (Space::Storage, storage + last * e),
                            words: e,
                        });
                    }
                    SlotRole::XRow(_) => st.prefetch.push(Prefetch {
                        binding,
                        src: storage,
                        dst: w,
                        words: e,
                        rows: 2 * chunk,
                    }),
                    SlotRole::Temp | SlotRole::YRow(_) => {}
                }
                w
            }
        };
        let p = &mut moved[s];
        p.space = Space::Workgroup;
        p.base = base;
        if let SlotRole::XRow(_) = info.role {
            p.row_stride = 0;
            p.parity = Parity::Ring {
                rows: 2 * chunk,
                size: e,
            };
        }
    }
    if st.words == 0 {
        return Staged::default();
    }
    places.copy_from_slice(&moved);
    st
}
