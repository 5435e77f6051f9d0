//! L4: lowering a Jaxpr to a [`Program`] — an ordered list of steps over buffer slots that the
//! executor (`transform::jit`) runs through `&dyn Backend`. Lowering is a sequence of named
//! passes ([`lower_traced`] hands the Program after each to a caller, `setDebug(3)` prints
//! them):
//!
//! 1. [`fuse`]: elementwise chains, broadcasts, view changes and constants are substituted into
//!    their consumers' loads, so a chain becomes one kernel and elementwise prologues run inside
//!    reductions; elementwise operations on a reduction's result become its epilogue
//!    ([`epilogue`]). A producer is fused only where that never multiplies work (one consumer that
//!    reads each element once, or a cheap expression); on webgpu a reduction of a few terms with
//!    one consumer is written out inside it ([`inline_sum`]). [`split`] keeps every kernel within the
//!    device's `max_kernel_inputs`, materialising intermediates where needed (decision 5).
//!    Equations without a kernel become fallback steps run by the eager evaluator. Lowered
//!    with [`Fusion::Barriers`], the computed operands of float reductions are kernels of their
//!    own, so each reduction sums what its eager application sums ([`barrier`]).
//! 2. [`PASSES`], in order: [`lifetimes`] (each intermediate slot is freed after its last use).
//!
//! Where a device runs whole programs as one call, a Program becomes a one-step loop
//! ([`whole`]); a scan body, lowered by these same passes (through a [`Lowering`], so its
//! passes are dumped like a program's), becomes a loop body ([`scan_plan`]). The executor keeps compiled
//! ids beside a Program (`transform::runnable`), never in it.
//!
//! A Program names no device; [`crate::core::key::structural_key`] identifies a Jaxpr by its structure so
//! that a fresh closure of the same code finds the cached Program (decision 7).

pub mod barrier;
pub mod epilogue;
pub mod expr;
pub mod fuse;
pub mod inline_sum;
pub mod lifetimes;
pub mod program;
pub mod scan_plan;
pub mod split;
pub mod whole;

pub use barrier::Fusion;
pub use program::{Arg, Program, Slot, Step};

use crate::core::jaxpr::Jaxpr;
use crate::kernel::DeviceLimits;

/// A pass over a fused Program.
pub type Pass = fn(&mut Program);

/// A lowering of a Jaxpr for a device's limits: [`lower`], or a caller's that records the
/// Program after each pass (`transform::jit_cache::lower_logged`) around [`lower_traced`].
pub type Lowering<'a> = &'a mut dyn FnMut(&Jaxpr, DeviceLimits) -> Program;

/// The passes after [`fuse`], in order, by name.
pub const PASSES: &[(&str, Pass)] = &[("lifetimes", lifetimes::plan)];

/// Lowers `jaxpr` (its constants, then its inputs, are the Program's first slots) for a device
/// with `limits`, fusing fully.
pub fn lower(jaxpr: &Jaxpr, limits: DeviceLimits) -> Program {
    lower_traced(jaxpr, limits, Fusion::Full, &mut |_, _| {})
}

/// [`lower`] with `fusion`, handing the Program to `after` after each pass with the pass's name
/// (`"fuse"` first, then [`PASSES`]).
pub fn lower_traced(
    jaxpr: &Jaxpr,
    limits: DeviceLimits,
    fusion: Fusion,
    after: &mut dyn FnMut(&'static str, &Program),
) -> Program {
    let mut program = fuse::fuse(jaxpr, limits, fusion);
    after("fuse", &program);
    for (name, pass) in PASSES {
        pass(&mut program);
        after(name, &program);
    }
    program
}
