//! The serial looping scan shader, for tiny bodies (e.g. a Kalman or RTS step on a 2×2 state):
//! the whole scan is ONE dispatch of ONE invocation, which runs every step's kernels fully
//! unrolled over their (constant, few) output and reduction indices as straight-line code,
//! with the index arithmetic of every load folded to a constant (`kernel::fold`; the m = 2
//! shader is 49 KB of WGSL instead of 116 KB). Carries, consts and temporaries are
//! function-local `u32` arrays indexed by constants (so the driver keeps them in registers),
//! ys rows are written straight to storage, and xs rows are loaded [`AHEAD`] steps ahead into
//! registers (the loop unrolled [`AHEAD`] times), so the dependent chain of a step does not
//! wait on device memory, and there is no barrier at all. On a tiny step the level-scheduled
//! shader (`scan_wgsl`) pays for barriers and warp divergence; this chain is just the
//! arithmetic (H100, case 2 with m = 2, N = 1600, kernel alone: 0.14 µs per step, 225 µs
//! per dispatch; level-scheduled 0.95 µs, 1.51 ms; before plain two-term sums and folded
//! indices 0.25 µs; without the xs loads it would be 0.07 µs).
//!
//! Each element is emitted by the same expression emitter as every other kernel (`wgsl_alu`),
//! with the same float32 sums (`wgsl::combine`: compensated (Neumaier) above
//! `wgsl::PLAIN_SUM_TERMS` terms, plain up to it, which gives the same bits), so the results
//! equal the level-scheduled shader's bit for bit; the first term of a compensated sum is
//! added without the compensation update, which is exactly zero there. The shader reads and
//! writes the same packed storage buffer as the level-scheduled one (`scan_layout`, all in
//! storage), so running it is unchanged (`scan_single`). Only float32 bodies of at most
//! [`SERIAL_MAX_TERMS`] element-terms per step are taken; others return `None`.

use std::fmt::Write;

use super::exe::Stage;
use super::scan_layout::{layout, Layout, Source};
use super::wgsl::{combine, compensated_sum, epilogue_into};
use super::wgsl_alu::{to_storage, Emitter};
use super::WebGpuBackend;
use crate::core::DType;
use crate::kernel::fold::fold_indices;
use crate::kernel::scan_loop::{LoopStep, ScanLoop, SlotRole};
use crate::kernel::{reduce_identity, verify, Kernel, Reduction};
use crate::util::Result;

/// The most element-terms (Σ over the step's kernels of outputs × reduction length) one
/// invocation runs per step. Measured on the H100 with case-2 steps written as serial WGSL:
/// m = 2 (28 terms) 0.26 µs per step against 0.95 µs level-scheduled; m = 3 (78 terms)
/// 1.0–1.3 µs, no better than level-scheduled; m = 4 (~200 terms) 2.5 µs; m = 8 43 µs.
pub const SERIAL_MAX_TERMS: usize = 64;
/// The most words of all the body's slots (registers of the one invocation).
const SERIAL_MAX_WORDS: usize = 256;
/// Steps the xs rows are loaded ahead of their use (4 measured best on the H100: 1 leaves the
/// load latency in the chain; 8, with the loop unrolled 8 times, 0.20 µs per step against
/// 0.14).
pub const AHEAD: u32 = 4;

/// The element-terms per step of `plan` when it suits the serial shader.
pub fn serial_terms(plan: &ScanLoop) -> Option<usize> {
    let body = &plan.body;
    let words: usize = body.slots.iter().map(|s| s.elements).sum();
    if words > SERIAL_MAX_WORDS
        || body
            .slots
            .iter()
            .any(|s| s.dtype != DType::Float32 || s.elements == 0)
    {
        return None;
    }
    let mut terms = 0usize;
    for step in &body.steps {
        let LoopStep::Kernel { kernel, .. } = step else {
            return None;
        };
        if kernel.output_dtype() != DType::Float32
            || kernel.inputs.iter().any(|&d| d != DType::Float32)
            || verify::verify(kernel).is_err()
        {
            return None;
        }
        terms += kernel.size * kernel.reduction.map_or(1, |r| r.size.max(1));
        if terms > SERIAL_MAX_TERMS {
            return None;
        }
    }
    Some(terms)
}

/// The serial shader of `plan` over the storage-only layout, or `None` when the body does
/// not suit it (too large, not float32, a routine, no layout).
pub fn source(plan: &ScanLoop) -> Result<Option<(Layout, String)>> {
    if serial_terms(plan).is_none() {
        return Ok(None);
    }
    let Ok(layout) = layout(plan, 0) else {
        return Ok(None);
    };
    let source = emit(plan, &layout)?;
    Ok(Some((layout, source)))
}

/// The compiled serial loop of `plan` (its layout and pipeline), or `None`.
pub(super) fn build(gpu: &mut WebGpuBackend, plan: &ScanLoop) -> Result<Option<(Layout, Stage)>> {
    if !gpu.loops.serial {
        return Ok(None);
    }
    let Some((layout, source)) = source(plan)? else {
        return Ok(None);
    };
    if !gpu.loop_fits(layout.words as u64) {
        return Ok(None);
    }
    let stage = gpu.make_stage(source, (1, 1));
    Ok(Some((layout, stage)))
}

/// The local array holding a slot of `role` (slot `s`).
fn local(role: SlotRole, s: usize) -> String {
    match role {
        SlotRole::Const(j) => format!("ox_c{j}"),
        SlotRole::CarryIn(k) => format!("ox_k{k}"),
        SlotRole::CarryOut(k) => format!("ox_n{k}"),
        SlotRole::XRow(j) => format!("ox_x{j}"),
        SlotRole::YRow(j) => format!("ox_y{j}"),
        SlotRole::Temp => format!("ox_t{s}"),
    }
}

/// `array<u32, n>(ox_buf[base + 0u], …)`.
fn load_array(base: u32, n: usize) -> String {
    let words: Vec<String> = (0..n)
        .map(|e| format!("ox_buf[{}u]", base as usize + e))
        .collect();
    format!("array<u32, {n}>({})", words.join(", "))
}

fn emit(plan: &ScanLoop, layout: &Layout) -> Result<String> {
    let body = &plan.body;
    let length = plan.length as u32;
    let last = length.saturating_sub(1);
    let row_of = |step: &str| {
        if plan.reverse {
            format!("{last}u - {step}")
        } else {
            step.to_string()
        }
    };
    // Storage words of each slot's role: the first slot of a role holds its copy entry.
    let word_of = |s: usize, list: &[(Source, u32)], carry: Option<usize>| {
        list.iter().find_map(|&(src, w)| match (src, carry) {
            (Source::Slot(t), None) if body.slots[t].role == body.slots[s].role => Some(w),
            (Source::Carry(k), Some(c)) if k == c => Some(w),
            _ => None,
        })
    };
    let mut decl = String::new();
    // The xs statements of the sub-step reading ring slot `d`, one string per slot.
    let mut fetch = vec![String::new(); AHEAD as usize];
    let mut swap = String::new();
    let mut finals = String::new();
    let mut declared: Vec<String> = Vec::new();
    for (s, info) in body.slots.iter().enumerate() {
        let (name, n) = (local(info.role, s), info.elements);
        if declared.contains(&name) {
            continue;
        }
        declared.push(name.clone());
        match info.role {
            SlotRole::Const(_) => {
                let w = word_of(s, &layout.copy_in, None).unwrap_or(0);
                writeln!(decl, "  var {name} = {};", load_array(w, n)).unwrap();
            }
            SlotRole::CarryIn(k) | SlotRole::CarryOut(k) => {
                // Both slots of carry k: the value read (`ox_k`) and the one written (`ox_n`).
                declared.push(local(SlotRole::CarryIn(k), s));
                declared.push(local(SlotRole::CarryOut(k), s));
                let init = word_of(s, &layout.copy_in, Some(k)).unwrap_or(0);
                let fin = word_of(s, &layout.copy_out, Some(k)).unwrap_or(0);
                writeln!(decl, "  var ox_k{k} = {};", load_array(init, n)).unwrap();
                writeln!(decl, "  var ox_n{k} = ox_k{k};").unwrap();
                writeln!(swap, "    ox_k{k} = ox_n{k};").unwrap();
                for e in 0..n {
                    writeln!(finals, "  ox_buf[{}u] = ox_k{k}[{e}u];", fin as usize + e).unwrap();
                }
            }
            SlotRole::XRow(_) => {
                // Ring slot d holds, as scalars, the row of the next step ≡ d (mod AHEAD).
                let w = word_of(s, &layout.copy_in, None).unwrap_or(0);
                let word = |row: &str, e: usize| format!("ox_buf[{w}u + ({row}) * {n}u + {e}u]");
                for d in 0..AHEAD {
                    let row = row_of(&format!("min({d}u, {last}u)"));
                    for e in 0..n {
                        let init = if length > 0 {
                            word(&row, e)
                        } else {
                            "0u".to_string()
                        };
                        writeln!(decl, "  var {name}_{d}_{e}: u32 = {init};").unwrap();
                    }
                }
                for (d, f) in fetch.iter_mut().enumerate() {
                    let now: Vec<String> = (0..n).map(|e| format!("{name}_{d}_{e}")).collect();
                    writeln!(f, "      var {name} = array<u32, {n}>({});", now.join(", ")).unwrap();
                    for e in 0..n {
                        writeln!(f, "      {name}_{d}_{e} = {};", word("ox_ahead", e)).unwrap();
                    }
                }
            }
            SlotRole::YRow(_) | SlotRole::Temp => {
                writeln!(decl, "  var {name}: array<u32, {n}>;").unwrap();
            }
        }
    }
    let mut e = Emitter::new(0, "      ");
    let mut steps = String::new();
    for step in &body.steps {
        let LoopStep::Kernel {
            kernel,
            inputs,
            output,
        } = step
        else {
            return Err(crate::util::Error::new(
                "scan",
                "internal error: a routine in a serial loop",
            ));
        };
        e.loaded = vec![false; kernel.inputs.len()];
        e.packed = Some(
            inputs
                .iter()
                .map(|&s| (local(body.slots[s].role, s), "0u".to_string()))
                .collect(),
        );
        let out = local(body.slots[*output].role, *output);
        for idx in 0..kernel.size {
            e.body.clear();
            e.set_indent("      ");
            // The index arithmetic folded for this element (`kernel::fold`).
            let i = Some(idx as i32);
            let value = match kernel.reduction {
                None => e.emit(&fold_indices(&kernel.exp, i, None))?,
                Some(red) => unrolled(&mut e, kernel, red, idx as i32)?,
            };
            e.set_indent("      ");
            let folded = Kernel {
                epilogue: kernel.epilogue.as_ref().map(|ep| fold_indices(ep, i, None)),
                ..kernel.clone()
            };
            let value = epilogue_into(&mut e, &folded, value)?;
            let word = format!("bitcast<u32>({})", to_storage(DType::Float32, &value));
            write!(
                steps,
                "    {{\n      let i = {idx}i;\n{}      {out}[{idx}u] = {word};\n    }}\n",
                e.body
            )
            .unwrap();
        }
        if let SlotRole::YRow(_) = body.slots[*output].role {
            let w = word_of(*output, &layout.copy_out, None).unwrap_or(0);
            let n = kernel.size;
            for idx in 0..n {
                writeln!(
                    steps,
                    "    ox_buf[{w}u + row * {n}u + {idx}u] = {out}[{idx}u];"
                )
                .unwrap();
            }
        }
    }
    // The loop is unrolled AHEAD times; sub-step d reads ring slot d, whose loads were
    // issued AHEAD steps before, and reloads it (turning a ring instead, of arrays or of
    // scalars, makes every step wait on the load of the step before: H100, case 2 m = 2,
    // 0.26 µs per step against 0.22).
    let row = row_of("step");
    let ahead = row_of(&format!("min(step + {AHEAD}u, {last}u)"));
    let mut unrolled_steps = String::new();
    for (d, f) in fetch.iter().enumerate() {
        // Sub-step 0 always runs (`ox_s < length`); the others only past the end of a length
        // that AHEAD does not divide.
        let guard = if d == 0 || length.is_multiple_of(AHEAD) {
            String::new()
        } else {
            format!("if (ox_s + {d}u < {length}u) ")
        };
        write!(
            unrolled_steps,
            "    {guard}{{
      let step = ox_s + {d}u;
      let row = {row};
      let ox_ahead = {ahead};
{f}{steps}{swap}    }}
"
        )
        .unwrap();
    }
    let mut src = format!(
        "@group(0) @binding(0) var<storage, read_write> ox_buf: array<u32>;
var<private> ox_zp: u32;

@compute @workgroup_size(1)
fn main(@builtin(workgroup_id) wid: vec3<u32>) {{
  ox_zp = wid.z;
{decl}  for (var ox_s: u32 = 0u; ox_s < {length}u; ox_s = ox_s + {AHEAD}u) {{
{unrolled_steps}  }}
{finals}}}
"
    );
    src.push_str(&e.helpers.source());
    Ok(src)
}

/// The statements of a reduction unrolled over its (constant) reduction indices, in the
/// current element's scope; returns the name of the result. Sums are compensated exactly when
/// the level-scheduled shader's are (`wgsl::compensated_sum`). A compensated sum's first term
/// is added without the compensation update: from `acc = +0`, that update adds exactly +0 (or
/// a NaN only when the sum is already ±∞ or NaN, where the compensation is dropped anyway).
fn unrolled(e: &mut Emitter, kernel: &Kernel, red: Reduction, idx: i32) -> Result<String> {
    let dtype = kernel.output_dtype();
    let identity = e.constant(dtype, reduce_identity(red.op, dtype))?;
    let compensated = compensated_sum(red.op, dtype, red.size);
    writeln!(e.body, "      var acc: f32 = {identity};").unwrap();
    if compensated {
        writeln!(e.body, "      var comp: f32 = 0.0f;").unwrap();
    }
    for r in 0..red.size {
        writeln!(e.body, "      {{\n        let r = {r}i;").unwrap();
        e.set_indent("        ");
        let x = e.emit(&fold_indices(&kernel.exp, Some(idx), Some(r as i32)))?;
        let comp = (compensated && r > 0).then_some("comp");
        let c = combine(e, red.op, dtype, "acc", comp, &x).replace("\n    ", "\n        ");
        writeln!(e.body, "        {c}").unwrap();
        writeln!(e.body, "      }}").unwrap();
    }
    e.set_indent("      ");
    if compensated {
        writeln!(
            e.body,
            "      let sum = select(acc, acc + comp, (bitcast<u32>(acc) & 0x7f800000u) != 0x7f800000u);"
        )
        .unwrap();
        return Ok("sum".to_string());
    }
    Ok("acc".to_string())
}
