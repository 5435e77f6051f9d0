//! The looping scan shader: a whole `scan` as ONE compute dispatch of one workgroup. The
//! shader loops over the steps; each body kernel becomes a workgroup-strided loop over its
//! output elements (the same exact expression emitter as ordinary kernels, `wgsl_alu`), with a
//! barrier wherever an op reads what an earlier op of the step wrote (or overwrites what one
//! read) and at the end of every step; independent ops run side by side on disjoint
//! invocations, one dependency level after another (`schedule`).
//!
//! Every operand lives in ONE packed `array<u32>` storage buffer (`ox_buf`, one binding whatever
//! the storage-buffer limit): constants, the xs and ys (a row per step, addressed by the step's
//! row index, reversed for a reverse scan), the temporaries of a step, and the carries, which
//! are double-buffered by step parity (step `s` reads half `s & 1` and writes the other half),
//! so no op ever reads what another thread of the same op writes.
//!
//! A scan nested in the body (`nested`) is a `for` loop over its steps inside the step of its
//! enclosing loop, with barriers around it and at the end of each of its steps; its carries
//! are double-buffered by its own step's parity, and its x and y rows are addressed by its own
//! row (`step1`/`row1` one level down, and so on).
//!
//! When they fit, constants, carries and temporaries live in workgroup memory instead
//! (`ox_wg`: moved in before the loop and out after it), and each xs row is prefetched into a
//! register at the start of the step before and staged in workgroup memory at its end, so the
//! dependent chain of a step never waits on device memory.

use std::fmt::Write;
use std::ops::Range;

use super::schedule;
use crate::backend::webgpu::loop_budget::{element_loops, strided};
use crate::backend::webgpu::wgsl::{epilogue_into, reduce_into};
use crate::backend::webgpu::wgsl_alu::{to_storage, value_type, Emitter};
use crate::core::DType;
use crate::kernel::{verify, Kernel};
use crate::util::{Error, Result};

/// Where a value of the body lives in the packed buffer (in 32-bit words).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Place {
    pub space: Space,
    /// Identifies the storage the place belongs to, for barrier placement: places of the
    /// same region may overlap, places of different regions never do.
    pub region: usize,
    pub base: u32,
    /// Words per row: the value is row `row` of a stacked array (xs, ys); 0 otherwise.
    pub row_stride: u32,
    /// Words per row at each depth of nested loops (`row1`, `row2`, …): the value is that row
    /// of a stacked array a nested loop addresses; 0 at depths where it is not.
    pub nested_rows: [u32; MAX_NEST],
    pub parity: Parity,
    /// The loop depth whose step the parity follows (0: the scan's own loop).
    pub depth: u8,
    /// In storage: 0 for the packed buffer `ox_buf`, `j` for the run's buffer bound directly
    /// as `ox_b{j}` ([`LoopShader::bound`]).
    pub binding: u8,
}

/// The most loops nested inside one another in a body the looping shader runs.
pub const MAX_NEST: usize = 3;

/// The WGSL names of the step and the row of the loop at `depth` (0: the scan's own loop).
pub fn step_row(depth: u8) -> (String, String) {
    match depth {
        0 => ("step".into(), "row".into()),
        d => (format!("step{d}"), format!("row{d}")),
    }
}

/// A scan nested in the body: the ops `start..end` of [`LoopShader::ops`] (the loops nested
/// in it lie within that range) run at each of its `length` steps, at loop depth `depth`
/// (its step and row are `step{depth}` and `row{depth}`), between the ops before `start` and
/// those from `end`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Nest {
    pub start: usize,
    pub end: usize,
    pub depth: u8,
    pub length: u32,
    pub reverse: bool,
}

/// Which memory a place is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Space {
    /// The packed storage buffer `ox_buf`.
    Storage,
    /// The workgroup array `ox_wg`.
    Workgroup,
}

impl Space {
    fn array(self) -> &'static str {
        match self {
            Space::Storage => "ox_buf",
            Space::Workgroup => "ox_wg",
        }
    }

    fn barrier(self) -> &'static str {
        match self {
            Space::Storage => "storageBarrier();",
            Space::Workgroup => "workgroupBarrier();",
        }
    }
}

/// A copy of `words` words between the spaces, before or after the loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: (Space, u32),
    pub to: (Space, u32),
    pub words: u32,
}

/// An xs operand staged in workgroup memory: a ring of `rows` rows (a power of two) of
/// `words` words at `dst` (workgroup), step `s` reading ring row `s & (rows - 1)`. The rows of
/// steps come in chunks of `rows / 2` from `src` (storage, rows `words` apart): the first
/// before the loop, the next one loaded into registers at the start of every chunk's first
/// step and stored at its end, so a step waits on device memory once per chunk at most.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Prefetch {
    /// The storage array `src` is in: 0 for `ox_buf`, `j` for `ox_b{j}`.
    pub binding: u8,
    pub src: u32,
    pub dst: u32,
    pub words: u32,
    pub rows: u32,
}

/// Double buffering of carries by step parity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Parity {
    None,
    /// The half read at step `s` (`s & 1`), halves `size` words apart.
    Current(u32),
    /// The half written at step `s` (`(s + 1) & 1`).
    Next(u32),
    /// Row `s & (rows - 1)` of a ring of rows of `size` words (staged xs rows).
    Ring {
        rows: u32,
        size: u32,
    },
}

impl Place {
    pub fn fixed(region: usize, base: u32) -> Place {
        Place {
            space: Space::Storage,
            region,
            base,
            row_stride: 0,
            nested_rows: [0; MAX_NEST],
            parity: Parity::None,
            depth: 0,
            binding: 0,
        }
    }

    /// The WGSL array the place is in.
    pub fn array(&self) -> String {
        match (self.space, self.binding) {
            (Space::Storage, j) if j > 0 => format!("ox_b{j}"),
            (space, _) => space.array().to_string(),
        }
    }

    /// The WGSL `u32` expression of the place's first word at the current step (of every
    /// loop it is in).
    fn offset(&self) -> String {
        let mut s = format!("{}u", self.base);
        if self.row_stride != 0 {
            write!(s, " + row * {}u", self.row_stride).unwrap();
        }
        for (d, &stride) in self.nested_rows.iter().enumerate() {
            if stride != 0 {
                write!(s, " + {} * {stride}u", step_row(d as u8 + 1).1).unwrap();
            }
        }
        let step = step_row(self.depth).0;
        match self.parity {
            Parity::None => {}
            Parity::Current(size) => write!(s, " + ({step} & 1u) * {size}u").unwrap(),
            Parity::Next(size) => write!(s, " + (({step} + 1u) & 1u) * {size}u").unwrap(),
            Parity::Ring { rows, size } => {
                write!(s, " + ({step} & {}u) * {size}u", rows - 1).unwrap()
            }
        }
        s
    }
}

/// One kernel of the body with the places of its inputs and output.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct LoopOp {
    pub kernel: Kernel,
    pub inputs: Vec<Place>,
    pub output: Place,
}

/// The whole loop: the body's ops run in order at each of `length` steps.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct LoopShader {
    pub ops: Vec<LoopOp>,
    pub length: u32,
    pub reverse: bool,
    /// Words of workgroup memory (0: none).
    pub workgroup_words: u32,
    /// Copies before the loop (into workgroup memory) and after it (out of it).
    pub prologue: Vec<Move>,
    pub epilogue: Vec<Move>,
    pub prefetch: Vec<Prefetch>,
    /// The scans nested in the body, by their first op (none: every op runs once a step).
    pub nests: Vec<Nest>,
    /// The run's buffers bound directly rather than copied into the packed buffer: `ox_b{j}`
    /// is entry `j - 1`, at binding [`FIRST_BOUND`]` + j - 1`, written when its flag is set.
    pub bound: Vec<bool>,
}

/// The binding of the first buffer bound directly (after `ox_buf` and the parameters of
/// `stage_params`).
pub const FIRST_BOUND: u32 = 2;

/// The declarations of the buffers `bound` directly ([`LoopShader::bound`]).
pub fn bound_declarations(bound: &[bool]) -> String {
    let mut out = String::new();
    for (j, &written) in bound.iter().enumerate() {
        let access = if written { "read_write" } else { "read" };
        writeln!(
            out,
            "@group(0) @binding({}) var<storage, {access}> ox_b{}: array<u32>;",
            FIRST_BOUND + j as u32,
            j + 1
        )
        .unwrap();
    }
    out
}

/// The WGSL array of storage binding `binding` (0: `ox_buf`).
pub fn storage_array(binding: u8) -> String {
    match binding {
        0 => "ox_buf".to_string(),
        j => format!("ox_b{j}"),
    }
}

/// A part of a step's ops (`LoopShader::parts`).
enum Part {
    Ops(Range<usize>),
    Nest(Nest),
}

/// Most invocations of the one workgroup.
pub const MAX_WORKGROUP: u32 = 256;

/// The workgroup size for ops of at most `largest` elements.
pub fn workgroup_size(largest: usize) -> u32 {
    (largest.min(MAX_WORKGROUP as usize) as u32)
        .max(1)
        .next_power_of_two()
        .max(32)
}

impl LoopShader {
    /// Invocations of the workgroup: the largest op's size rounded up to a power of two
    /// (32..=256): every op of a small body is then one element per invocation.
    pub fn workgroup_size(&self) -> u32 {
        let largest = self.ops.iter().map(|op| op.kernel.size).max().unwrap_or(1);
        let widest = self
            .runs(0..self.ops.len(), 0)
            .iter()
            .map(|r| schedule::widest_level(&self.ops[r.clone()]))
            .max()
            .unwrap_or(1);
        workgroup_size(largest.max(widest as usize))
    }

    /// The parts of the ops `range` at loop depth `depth`: runs of ops of that depth and
    /// the loops nested directly in it.
    fn parts(&self, range: Range<usize>, depth: u8) -> Vec<Part> {
        let mut parts = Vec::new();
        let mut at = range.start;
        let mut nests: Vec<&Nest> = self
            .nests
            .iter()
            .filter(|n| n.depth == depth + 1 && n.start >= range.start && n.end <= range.end)
            .collect();
        nests.sort_by_key(|n| n.start);
        for n in nests {
            if n.start > at {
                parts.push(Part::Ops(at..n.start));
            }
            parts.push(Part::Nest(*n));
            at = n.end;
        }
        if at < range.end {
            parts.push(Part::Ops(at..range.end));
        }
        parts
    }

    /// Every run of ops of one depth in `range` (at `depth`) and in the loops nested in it.
    fn runs(&self, range: Range<usize>, depth: u8) -> Vec<Range<usize>> {
        let mut runs = Vec::new();
        for part in self.parts(range, depth) {
            match part {
                Part::Ops(r) => runs.push(r),
                Part::Nest(n) => runs.extend(self.runs(n.start..n.end, n.depth)),
            }
        }
        runs
    }

    /// Loop iterations one invocation of the shader may run (an upper bound, for adapters
    /// with a loop limit, `loop_budget`): the moves and the prefetch before the loop, every
    /// step's strided op loops and nested loops, the moves after it.
    pub fn loop_iterations(&self) -> usize {
        let wg = self.workgroup_size() as usize;
        let moves = |list: &[Move]| -> usize {
            list.iter()
                .map(|m| strided(m.words as usize, wg, 0))
                .fold(0, usize::saturating_add)
        };
        let prefetch = self
            .prefetch
            .iter()
            .map(|p| strided((p.rows / 2 * p.words) as usize, wg, 0))
            .fold(0, usize::saturating_add);
        let step = self.range_iterations(0..self.ops.len(), 0, wg);
        let steps = strided(self.length as usize, 1, step);
        moves(&self.prologue)
            .saturating_add(prefetch)
            .saturating_add(steps)
            .saturating_add(moves(&self.epilogue))
    }

    /// Loop iterations of one step's ops `range` at `depth`, with its nested loops.
    fn range_iterations(&self, range: Range<usize>, depth: u8, wg: usize) -> usize {
        let mut total = 0usize;
        for part in self.parts(range, depth) {
            let n = match part {
                // An op of at most `wg` elements is an `if`, a larger one a strided loop.
                Part::Ops(r) => self.ops[r]
                    .iter()
                    .map(|op| match op.kernel.size <= wg {
                        true => element_loops(&op.kernel),
                        false => strided(op.kernel.size, wg, element_loops(&op.kernel)),
                    })
                    .fold(0, usize::saturating_add),
                Part::Nest(n) => strided(
                    n.length as usize,
                    1,
                    self.range_iterations(n.start..n.end, n.depth, wg),
                ),
            };
            total = total.saturating_add(n);
        }
        total
    }

    /// The WGSL source of the looping shader.
    pub fn emit(&self) -> Result<String> {
        let wg = self.workgroup_size();
        let mut e = Emitter::new(0, "      ");
        let mut body = String::new();
        for (k, op) in self.ops.iter().enumerate() {
            verify::verify(&op.kernel)?;
            if op.inputs.len() != op.kernel.inputs.len() {
                return Err(Error::new(
                    "scan",
                    format!(
                        "internal error: op {k} has {} places for {} inputs",
                        op.inputs.len(),
                        op.kernel.inputs.len()
                    ),
                ));
            }
        }
        self.emit_range(&mut e, wg, 0..self.ops.len(), 0, &mut body)?;
        let mut step_end = String::new();
        for space in schedule::step_end(&self.ops, !self.prefetch.is_empty()) {
            writeln!(step_end, "    {}", space.barrier()).unwrap();
        }
        let length = self.length;
        let row_of = |step: &str| {
            if self.reverse {
                format!("{}u - {step}", length.saturating_sub(1))
            } else {
                step.to_string()
            }
        };
        let mut src = String::new();
        if self.workgroup_words > 0 {
            writeln!(
                src,
                "var<workgroup> ox_wg: array<u32, {}>;",
                self.workgroup_words
            )
            .unwrap();
        }
        src.push_str(&bound_declarations(&self.bound));
        let mut prologue = String::new();
        for m in &self.prologue {
            prologue.push_str(&emit_move(m, wg));
        }
        if length > 0 {
            for p in &self.prefetch {
                let (e, n) = (p.words, p.rows / 2 * p.words);
                writeln!(
                    prologue,
                    "  for (var w: u32 = lid; w < {n}u; w = w + {wg}u) {{ let t = w / {e}u; if (t < {length}u) {{ ox_wg[{dst}u + w] = {array}[{src}u + ({row}) * {e}u + w % {e}u]; }} }}",
                    dst = p.dst,
                    src = p.src,
                    array = storage_array(p.binding),
                    row = row_of("t"),
                )
                .unwrap();
            }
        }
        let (fetch, stage) = self.chunk_loads(wg, &row_of("t"));
        let mut epilogue = String::new();
        for m in &self.epilogue {
            epilogue.push_str(&emit_move(m, wg));
        }
        let row = row_of("step");
        write!(
            src,
            "{head}{prologue}  storageBarrier();
  workgroupBarrier();
  for (var step: u32 = 0u; step < {length}u; step = step + 1u) {{
    let row = {row};
{fetch}{body}{stage}{step_end}  }}
{epilogue}}}
",
            head = entry_head(wg),
        )
        .unwrap();
        src.push_str(&e.helpers.source());
        Ok(src)
    }

    /// The statements of the ops `range` at loop depth `depth` into `body`: each run of ops
    /// of that depth scheduled by dependency level (`schedule`), each nested loop a `for`
    /// loop over its steps with every barrier before it, at the end of each of its steps and
    /// after it (its trip count is a constant: the barriers stay in uniform control flow).
    fn emit_range(
        &self,
        e: &mut Emitter,
        wg: u32,
        range: Range<usize>,
        depth: u8,
        body: &mut String,
    ) -> Result<()> {
        let mut all = Space::Storage.barrier().to_string();
        if self.workgroup_words > 0 {
            all.push(' ');
            all.push_str(Space::Workgroup.barrier());
        }
        for part in self.parts(range, depth) {
            match part {
                Part::Ops(r) => {
                    let ops = &self.ops[r];
                    let sched = schedule::schedule(ops, wg);
                    for (k, barriers) in schedule::emission(ops, &sched) {
                        for space in barriers {
                            writeln!(body, "    {}", space.barrier()).unwrap();
                        }
                        body.push_str(&self.emit_op(e, &ops[k], wg, sched[k].lane)?);
                    }
                }
                Part::Nest(n) => {
                    let (step, row) = step_row(n.depth);
                    let len = n.length;
                    let row_of = match n.reverse {
                        true => format!("{}u - {step}", len.saturating_sub(1)),
                        false => step.clone(),
                    };
                    writeln!(
                        body,
                    "    {all}\n    for (var {step}: u32 = 0u; {step} < {len}u; {step} = {step} + 1u) {{\n    let {row} = {row_of};"
                    )
                    .unwrap();
                    self.emit_range(e, wg, n.start..n.end, n.depth, body)?;
                    writeln!(body, "    {all}\n    }}\n    {all}").unwrap();
                }
            }
        }
        Ok(())
    }

    /// The statements loading the next chunk of staged xs rows into registers (at the start
    /// of a chunk's first step) and storing them into their ring rows (at its end).
    fn chunk_loads(&self, wg: u32, row_of_t: &str) -> (String, String) {
        let (mut fetch, mut stage) = (String::new(), String::new());
        let Some(chunk) = self.prefetch.first().map(|p| p.rows / 2) else {
            return (fetch, stage);
        };
        let length = self.length;
        writeln!(fetch, "    let ox_fetch = (step & {}u) == 0u;", chunk - 1).unwrap();
        for (j, p) in self.prefetch.iter().enumerate() {
            let (e, n) = (p.words, chunk * p.words);
            for k in 0..n.div_ceil(wg) {
                let w = format!(
                    "let w = lid + {}u; let t = step + {chunk}u + w / {e}u;",
                    k * wg
                );
                writeln!(
                    fetch,
                    "    var ox_pf{j}_{k}: u32 = 0u;\n    if (ox_fetch) {{ {w} if (w < {n}u && t < {length}u) {{ ox_pf{j}_{k} = {array}[{src}u + ({row_of_t}) * {e}u + w % {e}u]; }} }}",
                    src = p.src,
                    array = storage_array(p.binding),
                )
                .unwrap();
                writeln!(
                    stage,
                    "    if (ox_fetch) {{ {w} if (w < {n}u) {{ ox_wg[{dst}u + (t & {mask}u) * {e}u + w % {e}u] = ox_pf{j}_{k}; }} }}",
                    dst = p.dst,
                    mask = p.rows - 1,
                )
                .unwrap();
            }
        }
        (fetch, stage)
    }

    /// The statements of one op: a strided loop over its output elements.
    fn emit_op(&self, e: &mut Emitter, op: &LoopOp, wg: u32, lane: u32) -> Result<String> {
        let (body, word) = element(e, op)?;
        let size = op.kernel.size;
        let head = if lane > 0 && lane as usize + size <= wg as usize {
            format!(
                "    if (lid >= {lane}u && lid < {}u) {{\n      let idx = lid - {lane}u;\n",
                lane as usize + size
            )
        } else if size as u32 <= wg {
            format!("    if (lid < {size}u) {{\n      let idx = lid;\n")
        } else {
            format!("    for (var idx: u32 = lid; idx < {size}u; idx = idx + {wg}u) {{\n")
        };
        Ok(format!(
            "{head}      let i = i32(idx);\n{body}      {}[{} + idx] = {word};\n    }}\n",
            op.output.array(),
            op.output.offset()
        ))
    }
}

/// The statements computing element `idx` (`i`, as i32) of `op` into the returned u32 word
/// expression (with the statements, at six spaces' indent).
pub(super) fn element(e: &mut Emitter, op: &LoopOp) -> Result<(String, String)> {
    let kernel = &op.kernel;
    e.loaded = vec![false; kernel.inputs.len()];
    e.packed = Some(op.inputs.iter().map(|p| (p.array(), p.offset())).collect());
    e.body.clear();
    let dtype = kernel.output_dtype();
    let value = match kernel.reduction {
        None => {
            e.set_indent("      ");
            e.emit(&kernel.exp)?
        }
        Some(red) => reduce_into(e, kernel, red, "      ")?,
    };
    e.set_indent("      ");
    let value = epilogue_into(e, kernel, value)?;
    let stored = to_storage(dtype, &value);
    let word = match dtype {
        DType::Uint32 | DType::Bool => stored,
        _ => {
            value_type(dtype)?;
            format!("bitcast<u32>({stored})")
        }
    };
    Ok((std::mem::take(&mut e.body), word))
}

/// A strided copy loop for a [`Move`].
fn emit_move(m: &Move, wg: u32) -> String {
    format!(
        "  for (var w: u32 = lid; w < {words}u; w = w + {wg}u) {{ {}[{}u + w] = {}[{}u + w]; }}\n",
        m.to.0.array(),
        m.to.1,
        m.from.0.array(),
        m.from.1,
        words = m.words,
    )
}

/// The start of every packed-buffer shader (looping, program and stage shaders): the one
/// binding, the `ox_zp` private, and `main`'s signature up to its first statement.
pub(super) fn entry_head(wg: u32) -> String {
    format!(
        "@group(0) @binding(0) var<storage, read_write> ox_buf: array<u32>;
var<private> ox_zp: u32;

@compute @workgroup_size({wg})
fn main(@builtin(local_invocation_index) lid: u32,
        @builtin(workgroup_id) wid: vec3<u32>) {{
  ox_zp = wid.z;
"
    )
}
