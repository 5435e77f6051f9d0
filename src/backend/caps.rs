//! Every cap that decides how a device program runs — a compiled scan (`Backend::compile_loop`)
//! or a whole jitted program (`Backend::compile_program`) — in one place, each named for what
//! it bounds. Lowering reads the first group (`lower::whole`: which programs are offered to a
//! device whole); each device reads its own group where it picks a form
//! (`backend::wasm::strategy`, `backend::wasm::emit::unroll`,
//! `backend::webgpu::program::strategy`).
//! A program over a cap takes the next form in that device's order, at worst the host loop or
//! the step-by-step path, so the caps bound cost (compile time, code size, one invocation's
//! work), never what can run.

// ---- Whole programs, every device (`lower::whole`) ----

/// Programs with fewer steps (kernels and routines) run step by step: a few calls cost little,
/// and each dispatch keeps the parallelism of a whole grid.
pub const WHOLE_MIN_STEPS: usize = 8;
/// Programs with more steps run step by step too: building, hashing and lowering a body of
/// thousands of steps costs more than it saves. Devices bound the steps further
/// ([`WASM_PROGRAM_MAX_STEPS`], [`WEBGPU_WORKGROUP_MAX_KERNELS`]).
pub const WHOLE_MAX_STEPS: usize = 8192;

// ---- wasm: a kernel or batched routine split across worker threads (`backend::wasm::strategy`) ----

/// Dispatches of less work (`backend::wasm::threads::work`, `routine_work`) run on the calling
/// thread: waking a worker costs tens of microseconds.
pub const WASM_SPLIT_MIN_WORK: u64 = 1 << 18;

// ---- wasm: a whole program as one module call (`backend::wasm::strategy`) ----

/// Programs of more steps run step by step: a jitted eigh or svd (thousands of kernels) runs
/// faster per call as one module, but its first call, which emits the whole module, takes
/// about twice as long, and the largest (an svd of 64×64) run out of memory emitting it.
pub const WASM_PROGRAM_MAX_STEPS: usize = 1024;
/// Kernels of at most this many output elements. Above it the call overhead is noise next to
/// the kernel's own work (and the step-by-step path frees large temps as it goes).
pub const WASM_PROGRAM_MAX_KERNEL_ELEMENTS: usize = 1 << 16;
/// At most this many bytes of packed temps (the scratch of one run).
pub const WASM_PROGRAM_MAX_SCRATCH_BYTES: usize = 16 << 20;

// ---- wasm: kernels unrolled in loop modules (`backend::wasm::emit::unroll`) ----

/// The most output elements of an unrolled kernel.
pub const WASM_UNROLL_MAX_ELEMENTS: usize = 16;
/// The longest reduction that is unrolled.
pub const WASM_UNROLL_MAX_REDUCTION: usize = 8;
/// The most expression nodes emitted for one unrolled kernel (code size).
pub const WASM_UNROLL_MAX_NODES: usize = 4096;

// ---- webgpu: compiled scans (`backend::webgpu::program::compiled`) ----

/// Kernels of more elements make a scan body too large for one workgroup's looping shader:
/// it is pre-encoded instead.
pub const WEBGPU_LOOP_MAX_KERNEL_ELEMENTS: usize = 1024;
/// At most this many kernels × steps in one looping dispatch (a very long dispatch may trip a
/// driver's watchdog): longer scans are pre-encoded.
pub const WEBGPU_LOOP_MAX_KERNEL_STEPS: u64 = 1 << 24;
/// The most element-terms (Σ over the step's kernels of outputs × reduction length) the serial
/// shader's one invocation runs per step. Measured on the H100 with case-2 steps written as
/// serial WGSL: m = 2 (28 terms) 0.26 µs per step against 0.95 µs level-scheduled; m = 3 (78
/// terms) 1.0–1.3 µs, no better than level-scheduled; m = 4 (~200 terms) 2.5 µs; m = 8 43 µs.
pub const WEBGPU_SERIAL_MAX_TERMS: usize = 64;
/// The most words of all of a serial body's slots (registers of the one invocation).
pub const WEBGPU_SERIAL_MAX_WORDS: usize = 256;
/// The uniform buffer of a pre-encoded scan's step rows is at most this large (else the host
/// loop runs).
pub const WEBGPU_ENCODED_MAX_UNIFORM_BYTES: u64 = 64 << 20;

// ---- webgpu: a whole program in one workgroup (`backend::webgpu::program::whole`) ----
//
// The shader must stay cheap to compile everywhere, software adapters included: SwiftShader
// compiles a shader in time that grows much faster than linearly in its workgroup barriers.

/// Kernels of at most this many elements (a few dozen per invocation of the one workgroup).
pub const WEBGPU_WORKGROUP_MAX_KERNEL_ELEMENTS: usize = 8192;
/// Reductions of at most this many terms (one invocation sums each output serially).
pub const WEBGPU_WORKGROUP_MAX_REDUCTION: usize = 64;
/// At most this many terms in all (elements times reduction terms, summed over the kernels):
/// the one workgroup's work stays around a millisecond even on a software adapter.
pub const WEBGPU_WORKGROUP_MAX_TERMS: usize = 1 << 20;
/// At most this many kernels in one shader.
pub const WEBGPU_WORKGROUP_MAX_KERNELS: usize = 128;
/// At most this many workgroup barriers (dependent levels) in one shader; also the most
/// barriers of one stage of a staged program.
pub const WEBGPU_WORKGROUP_MAX_BARRIERS: usize = 48;
/// [`WEBGPU_WORKGROUP_MAX_BARRIERS`] on CPU adapters: SwiftShader took 16 s to compile a
/// one-workgroup program of a forward and a reverse `associativeScan` (n = 100) within the
/// general caps; there such programs run as stages.
pub const WEBGPU_WORKGROUP_MAX_BARRIERS_CPU: usize = 16;
/// At most this many bytes of WGSL in one shader.
pub const WEBGPU_WORKGROUP_MAX_SOURCE_BYTES: usize = 96 << 10;

// ---- webgpu: a whole program as row-partitioned stages (`backend::webgpu::program::stages`) ----

/// At most this many kernels in one stage (its shader stays small).
pub const WEBGPU_STAGE_MAX_KERNELS: usize = 48;
/// At most this many dependency levels (barriers + 1) in one stage.
pub const WEBGPU_STAGE_MAX_LEVELS: usize = 24;
/// At most this many extra rows (below and above its band together) for any kernel.
pub const WEBGPU_STAGE_MAX_HALO_ROWS: i64 = 32;
/// At most this far apart, in rows, the shifts of a stage's kernels: none, so a kernel that
/// would run shifted against the others (reading a producer at rows `n + d` only) starts a
/// new stage. Then the rounds of a scan (each reading the last at rows `n` and `n + k`, beyond
/// the halos from `k = 32` on) get stages of one shape, integer constants apart, and every
/// round after the first reuses their pipelines (`stage_params`): a few more dispatches than
/// stages spanning several rounds, but far less WGSL to compile.
pub const WEBGPU_STAGE_MAX_SHIFT_SPAN: i64 = 0;
/// At most this many bytes of WGSL in one stage's shader (a stage of one kernel may have
/// more: about what its own dispatch would compile). More than one workgroup's program
/// ([`WEBGPU_WORKGROUP_MAX_SOURCE_BYTES`]): a stage has few barriers (SwiftShader's compile
/// time grows with them), and the first Kogge–Stone rounds of a jitted `associativeScan` of
/// m = 2 (four rounds of ~10 kernels, halos included) should fit one.
pub const WEBGPU_STAGE_MAX_SOURCE_BYTES: usize = 256 << 10;
/// At most this many element-terms per invocation of a stage's level (a row of rows-1
/// kernels runs in one workgroup: a long reduction over the batch is slow, but right).
pub const WEBGPU_STAGE_MAX_TERMS_PER_INVOCATION: usize = 1 << 16;
/// A program the stages cannot take whole (`backend::webgpu::program::mixed`) tries its runs
/// of steps as stages at most this many times (each try plans the run again); the steps of
/// the runs left then run as ordinary dispatches.
pub const WEBGPU_MIXED_MAX_TRIES: usize = 64;
