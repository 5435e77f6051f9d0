//! The serial looping scan shader, for tiny bodies (e.g. a Kalman or RTS step on a 2×2 state):
//! the whole scan is ONE dispatch of one warp-sized workgroup whose invocations all run the
//! same chain: every step's kernels fully unrolled over their (constant, few) output and
//! reduction indices as straight-line code, with the index arithmetic of every load folded to
//! a constant (`kernel::fold`). Carries, consts and temporaries are function-local `u32`
//! arrays indexed by constants (so the driver keeps them in registers). Lane j keeps the ys
//! row of a chunk's step j in registers (a `select` per step) and all lanes store theirs at
//! the chunk's end, coalesced. xs rows are staged in workgroup memory a chunk of
//! [`CHUNK`] steps at a time, double-buffered: each lane loads its share of the next chunk
//! into registers at the top of a chunk (coalesced, one device-memory round trip per chunk)
//! and stores it after the chunk's steps, then one barrier; the steps read their rows from
//! workgroup memory, [`UNROLL`] steps' loads issued together (on CPU adapters the workgroup
//! is one invocation, which copies each chunk itself: see [`LANES`]). On a tiny step the
//! level-scheduled shader (`looping`) pays for barriers and warp divergence; this chain is
//! just the arithmetic, several times faster per step. Longer unrolls or chunks than
//! [`UNROLL`] and [`CHUNK`] cost WGSL and compile time without a gain (measurements in
//! `bench/RESULTS.md`, "Measurements behind design choices").
//!
//! Each element is emitted by the same expression emitter as every other kernel (`wgsl_alu`),
//! with the same float32 sums (`wgsl::combine`: compensated (Neumaier) above
//! `wgsl::PLAIN_SUM_TERMS` terms, plain up to it, which gives the same bits), so the results
//! equal the level-scheduled shader's bit for bit; the first term of a compensated sum is
//! added without the compensation update, which is exactly zero there. The shader reads and
//! writes the same packed storage buffer as the level-scheduled one (`layout`, all in
//! storage), so running it is unchanged (`compiled`). A scan nested in the body is a loop
//! inside the step (`serial_nested`). Only float32 bodies of at most
//! [`WEBGPU_SERIAL_MAX_TERMS`] element-terms per step are taken, and on an adapter with a
//! loop limit only scans whose loops fit it (`loop_budget`); others return `None`.

use std::fmt::Write;

use super::compiled::Dispatch;
use super::layout::{layout_bound, Layout, Source};
use super::length_params;
use super::looping::bound_declarations;
use super::serial_nested;
use crate::backend::caps::{WEBGPU_SERIAL_MAX_TERMS, WEBGPU_SERIAL_MAX_WORDS};
use crate::backend::webgpu::wgsl::{combine, compensated_sum, epilogue_into};
use crate::backend::webgpu::wgsl_alu::{to_storage, Emitter};
use crate::backend::webgpu::WebGpuBackend;
use crate::core::DType;
use crate::kernel::device_program::{DeviceProgram, LoopStep, SlotRole};
use crate::kernel::fold::fold_indices;
use crate::kernel::{reduce_identity, verify, Kernel, Reduction};
use crate::util::Result;

/// Steps per iteration of the loop over a chunk (it is unrolled this many times).
pub const UNROLL: u32 = 4;
/// Invocations of the one workgroup on a GPU (one warp): together they stage each chunk of
/// xs rows in workgroup memory, one load per lane and slot, coalesced; all run the same chain
/// in lockstep, and lane 0 alone writes the ys rows and final carries. On a CPU adapter
/// (lavapipe, SwiftShader: `fast` kernels off) 32 invocations would run the chain 32 times
/// over (lavapipe, case 2 m = 2: 1.04 µs per step against 0.07), so one invocation copies
/// each chunk itself.
pub const LANES: u32 = 32;
/// Steps per staged chunk of xs rows (fewer for wide rows), a multiple of [`UNROLL`].
const CHUNK: u32 = 32;
/// Words of workgroup memory the two chunk buffers may take (WebGPU guarantees 16 KB).
const STAGE_WORDS: u32 = 2048;
// Lane j keeps the ys row of a chunk's step j.
const _: () = assert!(CHUNK <= LANES);

/// The element-terms per step of `plan` when it suits the serial shader.
pub fn serial_terms(plan: &DeviceProgram) -> Option<usize> {
    let body = &plan.body;
    let words: usize = body.slots.iter().map(|s| s.elements).sum();
    if words > WEBGPU_SERIAL_MAX_WORDS
        || body
            .slots
            .iter()
            .any(|s| s.dtype != DType::Float32 || s.elements == 0)
    {
        return None;
    }
    let terms = serial_nested::body_terms(body)?;
    (terms <= WEBGPU_SERIAL_MAX_TERMS).then_some(terms)
}

/// Whether `kernel` suits the serial shader (float32 in and out, valid).
pub(super) fn float32_kernel(kernel: &Kernel) -> bool {
    kernel.output_dtype() == DType::Float32
        && kernel.inputs.iter().all(|&d| d == DType::Float32)
        && verify::verify(kernel).is_ok()
}

/// The serial shader of `plan` over the storage-only layout, or `None` when the body does
/// not suit it (too large, not float32, a routine, no layout).
/// `lanes`: the workgroup's invocations, [`LANES`] (a GPU) or 1 (a CPU adapter).
pub fn source(plan: &DeviceProgram, lanes: u32) -> Result<Option<(Layout, String)>> {
    source_bound(plan, lanes, 0)
}

/// [`source`] with the xs and ys of up to `bindable` roles bound directly (`layout`).
pub fn source_bound(
    plan: &DeviceProgram,
    lanes: u32,
    bindable: usize,
) -> Result<Option<(Layout, String)>> {
    if serial_terms(plan).is_none() {
        return Ok(None);
    }
    let Ok(layout) = layout_bound(plan, 0, bindable) else {
        return Ok(None);
    };
    let source = emit(plan, &layout, lanes.max(1))?;
    Ok(Some((layout, source)))
}

/// Steps per staged chunk for xs rows of `row_words` words in all.
fn chunk_steps(row_words: u32) -> u32 {
    // (Rows are at most WEBGPU_SERIAL_MAX_WORDS = 256 words: 2 · 4 · 256 words fit STAGE_WORDS.)
    (STAGE_WORDS / 2)
        .checked_div(row_words)
        .map_or(CHUNK, |c| (c / UNROLL * UNROLL).clamp(UNROLL, CHUNK))
}

/// Loop iterations one invocation of the serial shader of `plan` may run (an upper bound,
/// for adapters with a loop limit, `loop_budget`): the loops over chunks and over a chunk's
/// steps, the copies of xs rows (one invocation copies them in loops), and the loops of the
/// unrolled elements' expressions.
fn loop_iterations(plan: &DeviceProgram, lanes: u32) -> usize {
    let body = &plan.body;
    let mut xs: Vec<(SlotRole, usize)> = Vec::new();
    for info in &body.slots {
        if matches!(info.role, SlotRole::XRow(_)) && !xs.iter().any(|x| x.0 == info.role) {
            xs.push((info.role, info.elements));
        }
    }
    let row_words: usize = xs.iter().map(|x| x.1).sum();
    let chunk = chunk_steps(row_words as u32) as usize;
    let copies = match lanes {
        1 => chunk * row_words + xs.len(),
        _ => 0,
    };
    let per_chunk = 2 + chunk / UNROLL as usize + copies;
    let per_step = serial_nested::step_loops(body);
    let chunks = plan.length.div_ceil(chunk) + 1;
    (chunks * per_chunk).saturating_add(plan.length.saturating_mul(per_step)) + 1
}

/// The compiled serial loop of `plan` (its layout, dispatch and workgroup size), or `None`.
/// The length is a parameter (`length_params`): lengths of one body share the pipeline.
pub(super) fn build(
    gpu: &mut WebGpuBackend,
    plan: &DeviceProgram,
) -> Result<Option<(Layout, Dispatch, u32)>> {
    if !gpu.loops.serial {
        return Ok(None);
    }
    let lanes = if gpu.fast { LANES } else { 1 };
    if serial_terms(plan).is_none() || !gpu.loops_fit(|| loop_iterations(plan, lanes)) {
        return Ok(None);
    }
    let bindable = gpu.bindable();
    let Some((layout, src)) = source_bound(plan, lanes, bindable)? else {
        return Ok(None);
    };
    if !gpu.loop_fits(layout.words as u64) {
        return Ok(None);
    }
    let probe = source_bound(&length_params::probe(plan), lanes, bindable)?;
    let shared = length_params::by_length(src, probe.as_ref().map(|p| p.1.as_str()));
    Ok(Some((layout, gpu.shared_dispatch(shared, 1)?, lanes)))
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

/// The storage word of slot `s`'s role in `list` (a layout's copies: the first slot of a role
/// holds its copy entry), or with `carry`, of that carry.
fn word_of(plan: &DeviceProgram, s: usize, list: &[(Source, u32)], carry: Option<usize>) -> u32 {
    let slots = &plan.body.slots;
    list.iter()
        .find_map(|&(src, w)| match (src, carry) {
            (Source::Slot(t), None) if slots[t].role == slots[s].role => Some(w),
            (Source::Carry(k), Some(c)) if k == c => Some(w),
            _ => None,
        })
        .unwrap_or(0)
}

/// The row of the step named `step` (counted down for a reverse scan).
fn row_of(plan: &DeviceProgram, step: &str) -> String {
    if plan.reverse {
        format!("{}u - {step}", (plan.length as u32).saturating_sub(1))
    } else {
        step.to_string()
    }
}

/// The serial shader's local arrays and the code around the steps that uses them.
#[derive(Default)]
struct Locals {
    /// Declarations at the top of `main` (consts and initial carries loaded from storage).
    decl: String,
    /// The carries' swap at the end of a step.
    swap: String,
    /// The final carries' stores after the loop.
    finals: String,
    /// The names declared so far.
    declared: Vec<String>,
    /// The xs slots: local name, words per row, first storage word and its array.
    xs: Vec<(String, u32, u32, String)>,
}

/// Declares one local array per slot role of `plan`'s body.
fn locals(plan: &DeviceProgram, layout: &Layout) -> Locals {
    let mut l = Locals::default();
    for (s, info) in plan.body.slots.iter().enumerate() {
        let (name, n) = (local(info.role, s), info.elements);
        if l.declared.contains(&name) {
            continue;
        }
        l.declared.push(name.clone());
        match info.role {
            SlotRole::Const(_) => {
                let w = word_of(plan, s, &layout.copy_in, None);
                writeln!(l.decl, "  var {name} = {};", load_array(w, n)).unwrap();
            }
            SlotRole::CarryIn(k) | SlotRole::CarryOut(k) => {
                // Both slots of carry k: the value read (`ox_k`) and the one written (`ox_n`).
                l.declared.push(local(SlotRole::CarryIn(k), s));
                l.declared.push(local(SlotRole::CarryOut(k), s));
                let init = word_of(plan, s, &layout.copy_in, Some(k));
                let fin = word_of(plan, s, &layout.copy_out, Some(k));
                writeln!(l.decl, "  var ox_k{k} = {};", load_array(init, n)).unwrap();
                writeln!(l.decl, "  var ox_n{k} = ox_k{k};").unwrap();
                writeln!(l.swap, "      ox_k{k} = ox_n{k};").unwrap();
                for e in 0..n {
                    let word = fin as usize + e;
                    writeln!(l.finals, "    ox_buf[{word}u] = ox_k{k}[{e}u];").unwrap();
                }
            }
            SlotRole::XRow(_) => {
                let p = layout.places[s];
                l.xs.push((name, n as u32, p.base, p.array()));
            }
            SlotRole::YRow(_) | SlotRole::Temp => {
                writeln!(l.decl, "  var {name}: array<u32, {n}>;").unwrap();
            }
        }
    }
    l
}

/// How xs rows are staged in workgroup memory, a chunk at a time.
#[derive(Default)]
struct XsStaging {
    /// Each lane's loads of its share of chunk `ox_chunk` into registers `ox_xr*`.
    load: String,
    /// Their stores into the buffer at word `ox_to` (one invocation: a loop copying the chunk).
    store: String,
    /// The rows of chunk-local step `ox_j` of the buffer at word `ox_cur`, read by every lane.
    fetch: String,
}

/// The staging of `l.xs` in chunks of `chunk` steps by `lanes` invocations (declaring the
/// registers in `l.decl`).
fn stage_xs(plan: &DeviceProgram, l: &mut Locals, chunk: u32, lanes: u32) -> XsStaging {
    let last = (plan.length as u32).saturating_sub(1);
    let mut x = XsStaging::default();
    let (mut off, mut reg) = (0u32, 0usize);
    for (name, n, w, array) in &l.xs {
        let (n, w) = (*n, *w);
        let total = chunk * n;
        let row = row_of(plan, "ox_st");
        let source = |q: &str| {
            format!(
                "let ox_st = min(ox_chunk * {chunk}u + {q} / {n}u, {last}u);\n        \
                 let ox_word = {array}[{w}u + ({row}) * {n}u + {q} % {n}u];"
            )
        };
        if lanes == 1 {
            writeln!(
                x.store,
                "      for (var ox_q: u32 = 0u; ox_q < {total}u; ox_q = ox_q + 1u) {{\n        \
                 {}\n        ox_xs[ox_to + {off}u + ox_q] = ox_word;\n      }}",
                source("ox_q")
            )
            .unwrap();
        }
        let parts = if lanes == 1 { 0 } else { total.div_ceil(lanes) };
        for part in 0..parts {
            let q = format!("ox_lane + {}u", part * lanes);
            let partial = (part + 1) * lanes > total;
            let qc = if partial {
                format!("min({q}, {}u)", total - 1)
            } else {
                q.clone()
            };
            writeln!(l.decl, "  var ox_xr{reg}: u32;").unwrap();
            writeln!(
                x.load,
                "      {{\n        let ox_q = {qc};\n        {}\n        ox_xr{reg} = ox_word;\n      }}",
                source("ox_q")
            )
            .unwrap();
            let put = format!("ox_xs[ox_to + {off}u + {q}] = ox_xr{reg};");
            if partial {
                writeln!(x.store, "      if ({q} < {total}u) {{ {put} }}").unwrap();
            } else {
                writeln!(x.store, "      {put}").unwrap();
            }
            reg += 1;
        }
        let words: Vec<String> = (0..n)
            .map(|e| format!("ox_xs[ox_cur + {off}u + ox_j * {n}u + {e}u]"))
            .collect();
        writeln!(
            x.fetch,
            "      var {name} = array<u32, {n}>({});",
            words.join(", ")
        )
        .unwrap();
        off += total;
    }
    x
}

/// The code of one step (`.0`: every kernel's elements unrolled, with the index arithmetic
/// of each folded, `kernel::fold`) and the stores of the ys rows the lanes keep during a chunk
/// (`.1`, run at its end).
fn step_code(
    plan: &DeviceProgram,
    layout: &Layout,
    lanes: u32,
    l: &mut Locals,
    e: &mut Emitter,
) -> Result<(String, String)> {
    let body = &plan.body;
    let (mut steps, mut flush) = (String::new(), String::new());
    let names: Vec<Name> = (0..body.slots.len())
        .map(|s| (local(body.slots[s].role, s), "0u".to_string()))
        .collect();
    for step in &body.steps {
        let outputs = match step {
            LoopStep::Kernel {
                kernel,
                inputs,
                output,
            } => {
                steps.push_str(&kernel_code(e, kernel, inputs, &names, &names[*output])?);
                vec![*output]
            }
            LoopStep::Loop {
                inner,
                slots,
                init,
                finals,
            } => {
                let at = serial_nested::At {
                    slots,
                    init,
                    finals,
                    depth: 1,
                };
                steps.push_str(&serial_nested::loop_code(e, inner, &at, &names)?);
                step.outputs()
            }
            LoopStep::Routine { .. } => {
                return Err(crate::util::Error::new(
                    "scan",
                    "internal error: a routine in a serial loop",
                ))
            }
        };
        for output in outputs {
            if !matches!(body.slots[output].role, SlotRole::YRow(_)) {
                continue;
            }
            let out = &names[output].0;
            let p = layout.places[output];
            let (w, array) = (p.base, p.array());
            let n = body.slots[output].elements;
            for idx in 0..n {
                let word = format!("{array}[{w}u + row * {n}u + {idx}u]");
                if lanes == 1 {
                    writeln!(steps, "    {word} = {out}[{idx}u];").unwrap();
                    continue;
                }
                // Lane j keeps the row of the chunk's step j; all store theirs at its end.
                let keep = format!("{out}_c{idx}");
                if !l.declared.contains(&keep) {
                    writeln!(l.decl, "  var {keep}: u32;").unwrap();
                    l.declared.push(keep.clone());
                }
                writeln!(
                    steps,
                    "    {keep} = select({keep}, {out}[{idx}u], ox_mine);"
                )
                .unwrap();
                writeln!(flush, "        {word} = {keep};").unwrap();
            }
        }
    }
    Ok((steps, flush))
}

/// A slot's local array and the offset of its value in it (a row of a stacked array in a
/// nested loop).
pub(super) type Name = (String, String);

/// The statements of `kernel` over slots named by `names` (its inputs `inputs`), writing
/// `out`: every element unrolled, with the index arithmetic of each folded.
pub(super) fn kernel_code(
    e: &mut Emitter,
    kernel: &Kernel,
    inputs: &[usize],
    names: &[Name],
    out: &Name,
) -> Result<String> {
    e.loaded = vec![false; kernel.inputs.len()];
    e.packed = Some(inputs.iter().map(|&s| names[s].clone()).collect());
    let mut code = String::new();
    let (array, offset) = out;
    for idx in 0..kernel.size {
        let word = element(e, kernel, idx)?;
        let at = match offset.as_str() {
            "0u" => format!("{idx}u"),
            o => format!("{o} + {idx}u"),
        };
        write!(
            code,
            "    {{\n      let i = {idx}i;\n{}      {array}[{at}] = {word};\n    }}\n",
            e.body
        )
        .unwrap();
    }
    Ok(code)
}

/// Element `idx` of `kernel` as a storage word, its statements left in `e.body`.
fn element(e: &mut Emitter, kernel: &Kernel, idx: usize) -> Result<String> {
    e.body.clear();
    e.set_indent("      ");
    // The index arithmetic folded for this element (`kernel::fold`).
    let i = Some(idx as i32);
    let value = match kernel.reduction {
        None => e.emit(&fold_indices(&kernel.exp, i, None))?,
        Some(red) => unrolled(e, kernel, red, idx as i32)?,
    };
    e.set_indent("      ");
    let folded = Kernel {
        epilogue: kernel.epilogue.as_ref().map(|ep| fold_indices(ep, i, None)),
        ..kernel.clone()
    };
    let value = epilogue_into(e, &folded, value)?;
    Ok(format!(
        "bitcast<u32>({})",
        to_storage(DType::Float32, &value)
    ))
}

/// The loop body over a chunk's steps, unrolled [`UNROLL`] times: the workgroup-memory loads
/// of their xs rows do not wait on the chain, and issue together.
fn unrolled_steps(plan: &DeviceProgram, chunk: u32, step: &str) -> String {
    let length = plan.length as u32;
    let row = row_of(plan, "step");
    let mut out = String::new();
    for d in 0..UNROLL {
        // Only a length that `chunk` does not divide runs past its end; the guard is there for
        // every length, so that lengths share the shader (`length_params`).
        let guard = format!("if (ox_c * {chunk}u + ox_t + {d}u < {length}u) ");
        write!(
            out,
            "    {guard}{{
      let ox_j = ox_t + {d}u;
      let ox_mine = ox_lane == ox_j;
      let step = ox_c * {chunk}u + ox_j;
      let row = {row};
{step}    }}
"
        )
        .unwrap();
    }
    out
}

/// The serial shader of `plan` laid out by `layout`, for a workgroup of `lanes` invocations.
fn emit(plan: &DeviceProgram, layout: &Layout, lanes: u32) -> Result<String> {
    let length = plan.length as u32;
    let mut l = locals(plan, layout);
    // Chunks of xs rows staged in workgroup memory (two buffers of `chunk_words`).
    let row_words: u32 = l.xs.iter().map(|x| x.1).sum();
    let chunk = chunk_steps(row_words);
    let chunk_words = chunk * row_words;
    let chunks = length.div_ceil(chunk);
    let XsStaging { load, store, fetch } = stage_xs(plan, &mut l, chunk, lanes);
    let mut e = Emitter::new(0, "      ");
    let (steps, flush) = step_code(plan, layout, lanes, &mut l, &mut e)?;
    let unrolled_steps = unrolled_steps(plan, chunk, &format!("{fetch}{steps}{}", l.swap));
    let staged = row_words > 0;
    let (shared, first, prefetch, put, barrier) = if staged {
        let next = format!(
            "let ox_chunk = min(ox_c + 1u, {}u);",
            chunks.saturating_sub(1)
        );
        (
            format!("var<workgroup> ox_xs: array<u32, {}>;\n", 2 * chunk_words),
            if length > 0 {
                format!("  {{\n    let ox_chunk = 0u;\n{load}    let ox_to = 0u;\n{store}  }}\n  workgroupBarrier();\n")
            } else {
                String::new()
            },
            format!(
                "    let ox_cur = (ox_c & 1u) * {chunk_words}u;\n    {{\n      {next}\n{load}    }}\n"
            ),
            format!(
                "    {{\n      {next}\n      let ox_to = {chunk_words}u - ox_cur;\n{store}    }}\n"
            ),
            "    workgroupBarrier();\n",
        )
    } else {
        Default::default()
    };
    // The ys rows kept by the lanes during a chunk, stored at its end (coalesced).
    let keep_ys = if flush.is_empty() {
        String::new()
    } else {
        format!(
            "    {{\n      let step = ox_c * {chunk}u + ox_lane;\n      \
             if (ox_lane < {chunk}u && step < {length}u) {{\n        let row = {};\n\
             {flush}      }}\n    }}\n",
            row_of(plan, "step")
        )
    };
    let Locals { decl, finals, .. } = l;
    let bound = bound_declarations(&layout.shader.bound);
    let mut src = format!(
        "@group(0) @binding(0) var<storage, read_write> ox_buf: array<u32>;
var<private> ox_zp: u32;
{bound}{shared}
@compute @workgroup_size({lanes})
fn main(@builtin(workgroup_id) wid: vec3<u32>,
        @builtin(local_invocation_index) ox_lane: u32) {{
  ox_zp = wid.z;
{decl}{first}  for (var ox_c: u32 = 0u; ox_c < {chunks}u; ox_c = ox_c + 1u) {{
{prefetch}    for (var ox_t: u32 = 0u; ox_t < {chunk}u; ox_t = ox_t + {UNROLL}u) {{
{unrolled_steps}    }}
{keep_ys}{put}{barrier}  }}
  if (ox_lane == 0u) {{
{finals}  }}
}}
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
