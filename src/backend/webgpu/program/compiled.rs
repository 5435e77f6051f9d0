//! Compiled device programs on webgpu ([`CompiledProgram`]), their cache, and running a
//! compiled scan (`Backend::compile_loop`/`run_loop`; the form is chosen by `strategy`). A
//! looping or serial shader runs over one packed storage buffer: the operands are copied in,
//! the shader runs as ONE dispatch, and the results are copied out, all encoded into the
//! current batch (copies are not dispatches); a scan's xs and ys are bound directly instead,
//! as many as the storage-buffer limit allows besides the packed buffer and the parameters
//! (`layout`), so that only its carries and consts are copied. A pre-encoded scan (`encoded`)
//! runs its steps' dispatches in one pass. Compiled programs are cached by plan, pipelines by shader
//! source (a scan's with its length as a parameter, `length_params`).

use std::rc::Rc;

use super::encoded::Encoded;
use super::layout::{Layout, Source};
use super::looping::{LoopShader, FIRST_BOUND};
use super::stage_params::Shared;
use super::strategy::choose_loop;
use crate::backend::webgpu::exe::Stage;
use crate::backend::webgpu::{padded, WebGpuBackend, MAX_BATCH};
use crate::backend::{Backend, BufferId, ExeId, LoopStats};
use crate::kernel::device_program::{DeviceProgram, LoopBody, LoopBuffers};
use crate::util::lru::Lru;
use crate::util::{Error, Result};

/// Compiled loops (and looping pipelines) kept.
const LOOP_CACHE_CAPACITY: usize = 64;
/// Stage pipelines kept by source (a staged program has tens).
const STAGE_SOURCE_CAPACITY: usize = 512;
/// A looping dispatch counts toward the batch (`MAX_BATCH`) as one more dispatch per this
/// many steps: a long loop is long device work, which should start while the host records
/// the next calls rather than after up to `MAX_BATCH` of them, while short loops are still
/// batched (a submit per call costs the host more than their device time). H100, case 2
/// m = 2, 100 calls then one read, same run: N = 1600 0.68–0.71 → 0.60–0.61 ms per call,
/// N = 400 0.35–0.38 → 0.28–0.31 ms, N = 100 unchanged (~0.31 ms).
const STEPS_PER_DISPATCH: u32 = 16;

/// A compiled device program: a scan's loop, or a whole jitted program (a one-step loop).
pub(super) enum CompiledProgram {
    /// The looping shader (`looping`): the whole scan, or the whole program, as one dispatch
    /// of one workgroup (a scan's reading its length from parameters, `length_params`).
    Looping { layout: Layout, dispatch: Dispatch },
    /// The whole scan as one dispatch of one warp (or one invocation) running the same chain
    /// (`serial`, tiny bodies; the length a parameter, `length_params`).
    Serial {
        layout: Layout,
        dispatch: Dispatch,
        lanes: u32,
    },
    /// Every step's kernels of a scan pre-encoded into one compute pass.
    Encoded(Encoded),
    /// A whole program (never a scan) as row-partitioned stages (`stages`), a dispatch each.
    Staged(super::stages::Staged),
    /// A whole program (never a scan) as runs of stages and ordinary dispatches (`mixed`).
    Mixed(super::mixed::Mixed),
}

/// One dispatch over a packed buffer: the stage, its workgroup count and the buffer of its
/// parameters, if its shader reads any (`stage_params`).
#[derive(Clone)]
pub(super) struct Dispatch {
    pub stage: Stage,
    pub groups: u32,
    pub params: Option<wgpu::Buffer>,
}

impl Dispatch {
    pub fn of(stage: &Stage, groups: u32) -> Dispatch {
        Dispatch {
            stage: stage.clone(),
            groups,
            params: None,
        }
    }
}

/// The backend's compiled loops.
pub(in crate::backend::webgpu) struct LoopCache {
    pub(super) ids: Lru<DeviceProgram, ExeId>,
    pub(super) exes: Lru<ExeId, Rc<CompiledProgram>>,
    pipelines: Lru<LoopShader, Stage>,
    /// Pipelines of packed-buffer shaders by WGSL source: staged programs' (`stage_params`
    /// makes rounds share one) and scans' (`length_params` makes lengths share one).
    pub(super) stage_sources: Lru<String, Stage>,
    /// The templates of whole programs' shaders (`stage_templates`: sizes share pipelines).
    pub(super) templates: super::stage_templates::Templates,
    /// Pre-encoded scans' kernel pipelines by WGSL source (it does not depend on the length).
    pub(super) encoded_pipelines: Lru<String, (wgpu::ComputePipeline, wgpu::BindGroupLayout)>,
    next: ExeId,
    runs: u64,
    /// Whether looping shaders may keep state in workgroup memory (tests turn it off).
    pub(super) workgroup: bool,
    /// Whether tiny bodies run as the serial shader (compiled per plan, cached as a loop).
    pub(super) serial: bool,
    /// Whether the serial and looping shaders bind xs and ys directly (`layout`).
    bind_direct: bool,
    /// The most bytes a packed buffer may have below the device's binding limit (tests).
    packed_bytes: Option<u64>,
    /// The plan compiled last, its id and detail: a jitted scan called again hands over the
    /// same planned body (`Rc`), found without hashing the plan's kernels (H100 host: the
    /// hash was a tenth of a case-2 call's host time).
    last: Option<(DeviceProgram, ExeId, Rc<str>)>,
    /// The float16 body rewritten last and its widened body (`strategy`): the rewrite runs
    /// once per body, not per call, and the widened body keeps its identity, so [`compile`]
    /// finds it as the plan compiled last.
    pub(super) widened: Option<(Rc<LoopBody>, Rc<LoopBody>)>,
}

impl Default for LoopCache {
    fn default() -> LoopCache {
        LoopCache {
            ids: Lru::new(LOOP_CACHE_CAPACITY),
            exes: Lru::new(LOOP_CACHE_CAPACITY),
            pipelines: Lru::new(LOOP_CACHE_CAPACITY),
            stage_sources: Lru::new(STAGE_SOURCE_CAPACITY),
            encoded_pipelines: Lru::new(STAGE_SOURCE_CAPACITY),
            templates: Default::default(),
            next: 1,
            runs: 0,
            workgroup: true,
            serial: true,
            bind_direct: true,
            packed_bytes: None,
            last: None,
            widened: None,
        }
    }
}

impl LoopCache {
    /// Hands out ids after those of `old` (a cache this one replaces).
    pub fn continue_ids_from(&mut self, old: &LoopCache) {
        self.next = self.next.max(old.next);
    }

    pub fn clear(&mut self) {
        self.last = None;
        self.widened = None;
        self.ids.clear();
        self.exes.clear();
        self.pipelines.clear();
        self.stage_sources.clear();
        self.encoded_pipelines.clear();
        self.templates.clear();
    }

    pub fn stats(&self) -> LoopStats {
        LoopStats {
            runs: self.runs,
            cache: self.ids.stats(),
        }
    }
}

/// `Backend::compile_loop`: the compiled loop of `plan` and its path detail.
pub(super) fn compile(gpu: &mut WebGpuBackend, plan: &DeviceProgram) -> Result<(ExeId, String)> {
    let same = |lp: &DeviceProgram| {
        Rc::ptr_eq(&lp.body, &plan.body) && lp.length == plan.length && lp.reverse == plan.reverse
    };
    let last = gpu.loops.last.as_ref().filter(|(lp, ..)| same(lp));
    if let Some((id, detail)) = last.map(|(_, id, detail)| (*id, detail.to_string())) {
        if gpu.loops.exes.get(&id).is_some() {
            return Ok((id, detail));
        }
    }
    let (id, exe) = match gpu.loops.ids.get(plan).copied() {
        Some(id) => match gpu.loops.exes.get(&id).cloned() {
            Some(exe) => (id, exe),
            None => choose_loop(gpu, plan)?,
        },
        None => choose_loop(gpu, plan)?,
    };
    let detail: Rc<str> = detail(&exe).into();
    gpu.loops.last = Some((plan.clone(), id, detail.clone()));
    Ok((id, detail.to_string()))
}

fn detail(exe: &CompiledProgram) -> String {
    match exe {
        CompiledProgram::Looping { layout, .. } => format!(
            "webgpu: one dispatch ({} ops per step{}, workgroup of {}, state in {} memory)",
            layout.shader.ops.len(),
            match layout.shader.nests.len() {
                0 => String::new(),
                n => format!(", {n} nested loops"),
            },
            layout.shader.workgroup_size(),
            if layout.shader.workgroup_words > 0 {
                "workgroup"
            } else {
                "storage"
            }
        ),
        CompiledProgram::Serial { layout, lanes, .. } => format!(
            "webgpu: one dispatch, serial ({lanes} invocation(s) run the {} ops of a step \
             unrolled{}, state in registers, xs rows staged in workgroup memory)",
            layout.shader.ops.len(),
            match layout.shader.nests.len() {
                0 => String::new(),
                n => format!(", {n} nested loops"),
            },
        ),
        CompiledProgram::Encoded(enc) => format!(
            "webgpu: pre-encoded ({} dispatches per step, one submit)",
            enc.ops()
        ),
        CompiledProgram::Staged(st) => format!("webgpu: {} staged dispatches", st.stages.len()),
        CompiledProgram::Mixed(m) => {
            let (parts, dispatches, ordinary) = m.counts();
            format!(
                "webgpu: {parts} staged part(s) of {dispatches} dispatches and {ordinary} \
                 ordinary step(s)"
            )
        }
    }
}

/// Keeps the compiled program `exe` of `plan` in the cache under a new id.
pub(super) fn keep(
    gpu: &mut WebGpuBackend,
    plan: &DeviceProgram,
    exe: Rc<CompiledProgram>,
) -> ExeId {
    let id = gpu.loops.next;
    gpu.loops.next += 1;
    gpu.loops.ids.insert(plan.clone(), id);
    gpu.loops.exes.insert(id, exe);
    id
}

/// `Backend::run_loop`.
pub(super) fn run(
    gpu: &mut WebGpuBackend,
    exe: ExeId,
    plan: &DeviceProgram,
    buffers: LoopBuffers<'_, BufferId>,
) -> Result<()> {
    let compiled = match gpu.loops.exes.get(&exe).cloned() {
        Some(c) => c,
        None => choose_loop(gpu, plan)?.1,
    };
    gpu.loops.runs += 1;
    match &*compiled {
        CompiledProgram::Looping { layout, dispatch }
        | CompiledProgram::Serial {
            layout, dispatch, ..
        } => run_single(gpu, layout, dispatch, buffers),
        CompiledProgram::Encoded(enc) => gpu.run_encoded(enc, buffers),
        CompiledProgram::Staged(_) | CompiledProgram::Mixed(_) => Err(Error::new(
            "scan",
            "internal error: a staged program runs only as a whole program",
        )),
    }
}

/// `Backend::loop_uses_scratch`: a single-dispatch loop (looping or serial shader) keeps its
/// carries and temps in the packed buffer; a pre-encoded one (or one no longer cached) uses
/// the scratch buffers.
pub(in crate::backend::webgpu) fn uses_scratch(gpu: &mut WebGpuBackend, exe: ExeId) -> bool {
    !matches!(
        gpu.loops.exes.get(&exe).map(|c| &**c),
        Some(CompiledProgram::Looping { .. } | CompiledProgram::Serial { .. })
    )
}

/// Runs a single-dispatch loop (looping or serial shader): copies in, one dispatch, copies out.
pub(super) fn run_single(
    gpu: &mut WebGpuBackend,
    layout: &Layout,
    dispatch: &Dispatch,
    buffers: LoopBuffers<'_, BufferId>,
) -> Result<()> {
    let missing = |what| Error::new("scan", format!("internal error: {what} is missing"));
    let input = |source| {
        match source {
            Source::Slot(s) => buffers.slots.get(s),
            Source::Carry(k) => buffers.init.get(k),
        }
        .copied()
        .ok_or_else(|| missing("a loop buffer"))
    };
    let output = |source| match source {
        Source::Slot(s) => input(Source::Slot(s)),
        Source::Carry(k) => buffers
            .finals
            .get(k)
            .copied()
            .ok_or_else(|| missing("a final carry")),
    };
    let (inputs, outputs) = packed(layout, input, output)?;
    let bound = layout
        .bound
        .iter()
        .map(|&source| input(source))
        .collect::<Result<Vec<_>>>()?;
    gpu.dispatch_bound(
        std::slice::from_ref(dispatch),
        layout.words,
        (&inputs, &outputs),
        &bound,
    )?;
    gpu.pending += (layout.shader.length / STEPS_PER_DISPATCH) as usize;
    if gpu.pending >= MAX_BATCH {
        gpu.flush();
    }
    Ok(())
}

/// A buffer and where its words start in the packed buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Packed {
    pub buffer: BufferId,
    pub word: u32,
}

/// The buffers `layout` copies into the packed buffer (`input` finds each source's buffer)
/// and out of it (`output`), each with its word offset.
pub(super) fn packed(
    layout: &Layout,
    input: impl Fn(Source) -> Result<BufferId>,
    output: impl Fn(Source) -> Result<BufferId>,
) -> Result<(Vec<Packed>, Vec<Packed>)> {
    let list = |copies: &[(Source, u32)], find: &dyn Fn(Source) -> Result<BufferId>| {
        copies
            .iter()
            .map(|&(source, word)| {
                Ok(Packed {
                    buffer: find(source)?,
                    word,
                })
            })
            .collect::<Result<Vec<_>>>()
    };
    Ok((
        list(&layout.copy_in, &input)?,
        list(&layout.copy_out, &output)?,
    ))
}

impl WebGpuBackend {
    /// Lets looping scan shaders keep their state in workgroup memory (the default) or not
    /// (everything in the storage buffer; tests check both).
    pub fn set_loop_workgroup_memory(&mut self, on: bool) {
        if self.loops.workgroup != on {
            self.loops.clear();
            self.loops.workgroup = on;
        }
    }

    /// Lets the serial and looping scan shaders bind the run's xs and ys buffers directly (the
    /// default) or copy them into and out of the packed buffer (tests compare both).
    pub fn set_loop_bind_direct(&mut self, on: bool) {
        if self.loops.bind_direct != on {
            self.loops.clear();
            self.loops.bind_direct = on;
        }
    }

    /// How many of a scan's xs and ys buffers its serial or looping shader binds directly:
    /// the storage-buffer limit less the packed buffer and the parameters.
    pub(super) fn bindable(&self) -> usize {
        match self.loops.bind_direct {
            true => self.max_storage_buffers.saturating_sub(2) as usize,
            false => 0,
        }
    }

    /// Lets tiny scan bodies run as the serial looping shader (the default) or not (tests and
    /// benchmarks compare it with the level-scheduled one).
    pub fn set_loop_serial(&mut self, on: bool) {
        if self.loops.serial != on {
            self.loops.clear();
            self.loops.serial = on;
        }
    }

    /// The dispatch of `shared` (a packed-buffer shader and its parameters) on `groups`
    /// workgroups: its pipeline compiled once per source (cached by it), its parameter buffer
    /// when it reads any.
    pub(super) fn shared_dispatch(&mut self, shared: Shared, groups: u32) -> Result<Dispatch> {
        let stage = match self.loops.stage_sources.get(&shared.source) {
            Some(stage) => stage.clone(),
            None => {
                let stage = self.make_stage(shared.source.clone(), (groups, 1));
                self.loops
                    .stage_sources
                    .insert(shared.source, stage.clone());
                stage
            }
        };
        let params = match shared.params.is_empty() {
            true => None,
            false => Some(self.params_buffer(&shared.params)?),
        };
        Ok(Dispatch {
            stage,
            groups,
            params,
        })
    }

    /// Lowers the bytes a packed buffer (looping shaders, staged programs) may have below the
    /// device's binding limit (tests: programs whose packed buffer would not fit one binding).
    pub fn set_packed_buffer_limit(&mut self, bytes: Option<u64>) {
        if self.loops.packed_bytes != bytes {
            self.loops.clear();
            self.loops.packed_bytes = bytes;
        }
    }

    /// A read-only storage buffer holding `values` (a stage's parameters, `stage_params`).
    pub(super) fn params_buffer(&self, values: &[u32]) -> Result<wgpu::Buffer> {
        let mut bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        bytes.resize(bytes.len().max(4), 0);
        let buffer = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("oxjax stage parameters"),
            size: bytes.len() as u64,
            usage: wgpu::BufferUsages::STORAGE,
            mapped_at_creation: true,
        });
        buffer
            .slice(..)
            .get_mapped_range_mut()
            .map_err(|e| Error::new("webgpu", format!("internal error: parameters: {e:?}")))?
            .copy_from_slice(&bytes);
        buffer.unmap();
        Ok(buffer)
    }

    /// Whether a packed buffer of `words` 32-bit words can be bound.
    pub fn loop_fits(&self, words: u64) -> bool {
        let limits = self.device.limits();
        let bytes = words.max(1) * 4;
        bytes <= limits.max_storage_buffer_binding_size
            && bytes <= limits.max_buffer_size
            && self.loops.packed_bytes.is_none_or(|cap| bytes <= cap)
    }

    /// Runs `shader` over a packed buffer of `words` words: each of `inputs` is copied in at
    /// its word offset first (its whole logical size), each of `outputs` is copied out from its
    /// word offset afterwards (as many bytes as the output buffer holds). One dispatch.
    pub fn run_loop(
        &mut self,
        shader: &LoopShader,
        words: u32,
        inputs: &[Packed],
        outputs: &[Packed],
    ) -> Result<()> {
        if !self.loop_fits(words as u64) {
            return Err(Error::new(
                "scan",
                format!("internal error: a looping shader of {words} words does not fit a binding"),
            ));
        }
        let stage = self.loop_stage(shader)?;
        self.dispatch_packed(&[Dispatch::of(&stage, 1)], words, inputs, outputs)
    }

    /// Copies `inputs` into one packed buffer of `words` words, encodes `dispatches` (a
    /// pipeline and its workgroup count each) over it, and copies `outputs` back out: the run
    /// of every packed-buffer path (looping and serial shaders, staged programs).
    pub(super) fn dispatch_packed(
        &mut self,
        dispatches: &[Dispatch],
        words: u32,
        inputs: &[Packed],
        outputs: &[Packed],
    ) -> Result<()> {
        self.dispatch_bound(dispatches, words, (inputs, outputs), &[])
    }

    /// [`Self::dispatch_packed`] with `bound` bound directly as well (`ox_b1`, … at
    /// `looping::FIRST_BOUND` on: the shaders' `LoopShader::bound`).
    pub(super) fn dispatch_bound(
        &mut self,
        dispatches: &[Dispatch],
        words: u32,
        (inputs, outputs): (&[Packed], &[Packed]),
        bound: &[BufferId],
    ) -> Result<()> {
        let packed = self.alloc(words.max(1) as usize * 4)?;
        let result = self.encode_packed(dispatches, packed, (inputs, outputs), bound);
        self.free(packed);
        result?;
        self.dispatches += dispatches.len() as u64;
        if self.pending >= MAX_BATCH {
            self.flush();
        }
        Ok(())
    }

    fn encode_packed(
        &mut self,
        dispatches: &[Dispatch],
        packed: BufferId,
        (inputs, outputs): (&[Packed], &[Packed]),
        bound: &[BufferId],
    ) -> Result<()> {
        let dst = self.buffer(packed)?.gpu.clone();
        let mut direct = Vec::with_capacity(bound.len());
        for &id in bound {
            direct.push(self.buffer(id)?.gpu.clone());
        }
        let mut copies = Vec::with_capacity(inputs.len());
        for p in inputs {
            let b = self.buffer(p.buffer)?;
            copies.push((b.gpu.clone(), b.bytes));
        }
        self.buffer_copies += copies.iter().filter(|c| c.1 > 0).count() as u64;
        let encoder = self.encoder();
        for ((src, bytes), p) in copies.iter().zip(inputs) {
            if *bytes > 0 {
                encoder.copy_buffer_to_buffer(src, 0, &dst, p.word as u64 * 4, padded(*bytes));
            }
        }
        let packed_gpu = self.buffer(packed)?.gpu.clone();
        for d in dispatches {
            let mut buffers = vec![packed_gpu.clone()];
            buffers.extend(d.params.iter().cloned());
            let mut numbers: Vec<u32> = (0..buffers.len() as u32).collect();
            numbers.extend((0..direct.len() as u32).map(|j| FIRST_BOUND + j));
            buffers.extend(direct.iter().cloned());
            self.encode_buffers(
                &d.stage.pipeline,
                Some(&d.stage.layout),
                (d.groups, 1),
                buffers,
                &numbers,
            )?;
        }
        let mut outs = Vec::with_capacity(outputs.len());
        for p in outputs {
            let b = self.buffer(p.buffer)?;
            outs.push((b.gpu.clone(), b.bytes));
        }
        self.buffer_copies += outs.iter().filter(|c| c.1 > 0).count() as u64;
        let encoder = self.encoder();
        for ((out, bytes), p) in outs.iter().zip(outputs) {
            if *bytes > 0 {
                encoder.copy_buffer_to_buffer(&dst, p.word as u64 * 4, out, 0, padded(*bytes));
            }
        }
        Ok(())
    }

    /// The compiled pipeline of `shader` (cached by structure).
    pub(super) fn loop_stage(&mut self, shader: &LoopShader) -> Result<Stage> {
        if let Some(stage) = self.loops.pipelines.get(shader) {
            return Ok(stage.clone());
        }
        let source = shader.emit()?;
        Ok(self.loop_stage_of(shader, source))
    }

    /// The compiled pipeline of `shader` whose WGSL the caller has already emitted as
    /// `source` (cached by structure, like [`Self::loop_stage`]).
    pub(super) fn loop_stage_of(&mut self, shader: &LoopShader, source: String) -> Stage {
        if let Some(stage) = self.loops.pipelines.get(shader) {
            return stage.clone();
        }
        let stage = self.make_stage(source, (1, 1));
        self.loops.pipelines.insert(shader.clone(), stage.clone());
        stage
    }
}
