//! oxjax: JAX for JavaScript, rebuilt in Rust.
//!
//! The crate is layered (see `ARCHITECTURE.md`, which also numbers the fixed decisions that
//! comments cite as "decision N"): data flows down and a module imports only from lower
//! layers. `tests/integration/layering.rs` enforces the order below.
//!
//! - `util` (L0): errors, bounded caches, slabs.
//! - `core` (L1): dtypes, shapes, devices, primitives, abstract values.
//! - `kernel` (L2): the Kernel IR shared by every backend.
//! - `rules` and `backend` (L3, siblings): per-primitive rules; device code generators.
//! - `lower` (L4): Jaxpr → Program (fusion, device-limit splits, buffer lifetimes).
//! - `transform` (L5): evaluation (eager = one equation), the trace stack, transformations.
//! - `library` (L6): numpy/lax operations as primitives or compositions of them.
//! - `api` (L7): the only `#[wasm_bindgen]` code.

#[cfg(target_arch = "wasm32")]
pub mod api;
pub mod backend;
pub mod core;
pub mod kernel;
pub mod library;
pub mod lower;
pub mod rules;
pub mod transform;
pub mod util;
