//! L1: the vocabulary every other layer speaks: dtypes, shapes, devices, primitives and
//! abstract values (avals).

pub mod aval;
pub mod device;
pub mod dtype;
pub mod f16;
pub mod jaxpr;
pub mod key;
pub mod ops;
pub mod primitive;
pub mod scan;
pub mod shape;
pub mod view;

pub use aval::Aval;
pub use device::Device;
pub use dtype::DType;
pub use primitive::{ConvParams, Primitive};
