//! L0 utilities shared by every layer: the error type and bounded caches.

pub mod error;
pub mod lru;
pub mod oneshot;

pub use error::{Error, Result};
