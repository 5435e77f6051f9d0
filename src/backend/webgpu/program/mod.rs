//! Device programs on webgpu: compiled scan loops (`Backend::compile_loop`/`run_loop`) and
//! whole jitted programs (`Backend::compile_program`/`run_program`), both given as a
//! `kernel::device_program::DeviceProgram`. Each file is one way of running them or one part
//! of it:
//!
//! - `strategy`: the one place that chooses among the forms below, in order of preference;
//! - `compiled`: the compiled programs and their cache, the packed storage buffer the
//!   shaders read and write, and running a compiled scan;
//! - `serial`: the serial shader for tiny bodies (one warp, every step unrolled), scans
//!   nested in the body emitted by `serial_nested`;
//! - `looping`: the looping shader (one workgroup, one dispatch), laid out by `layout` and
//!   scheduled by `schedule`, scans nested in the body placed by `nested`;
//! - `length_params`: the scan's length as a parameter of the serial and looping shaders, so
//!   that a new length of a body compiles nothing;
//! - `encoded`: every step's kernels pre-encoded into one compute pass (no shader loop);
//! - `widen_half`: the rewrite of float16 bodies to run widened to float32 on any of the
//!   scan forms;
//! - `whole`: a whole program as the looping shader with one step, within its caps;
//! - `stages`: a whole program as a few row-partitioned dispatches, cut by `stage_plan`,
//!   each level's kernels placed on the workgroup's lanes by `stage_members`, stages that
//!   differ only in integer constants sharing a pipeline (`stage_params`), and programs of
//!   other sizes sharing it too (`stage_templates`);
//! - `mixed`: a whole program the staged path cannot take whole, as runs of stages and the
//!   steps it cannot stage as ordinary dispatches (float16 programs widened first).

pub mod compiled;
pub mod encoded;
pub mod layout;
mod length_params;
pub mod looping;
mod mixed;
mod nested;
pub mod schedule;
pub mod serial;
mod serial_nested;
mod stage_members;
mod stage_params;
pub mod stage_plan;
mod stage_templates;
pub mod stages;
pub(super) mod strategy;
pub mod whole;
mod widen_half;
