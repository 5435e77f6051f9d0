//! L0 utilities shared by every layer: the error type, bounded caches and the panic-proof
//! cell of thread-local state.

pub mod error;
pub mod fast_hash;
pub mod lru;
pub mod oneshot;
pub mod panic_cell;

pub use error::{Error, Result};
