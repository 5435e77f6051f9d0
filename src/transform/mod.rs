//! L5: evaluation, the trace stack and the transformations (autodiff, linearize, vmap, jit,
//! scan). Eager evaluation applies one primitive at a time through the rules and a backend.

pub mod autodiff;
pub mod eager_exes;
pub mod eager_jit;
pub mod eval;
pub mod eval_host;
pub mod eval_routine;
pub mod jit;
pub mod jit_cache;
pub mod jit_whole;
pub mod linearize;
pub mod runnable;
pub mod scan;
pub mod scan_ad;
pub mod scan_eval;
pub mod scan_fused;
pub mod scan_vmap;
pub mod scope;
pub mod trace;
pub mod value;
pub mod vmap;

pub use trace::{ClosedJaxpr, Operand, Tracer, Value};
pub use value::ArrayValue;
