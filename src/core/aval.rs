//! Abstract values: what is known of an array without its data.

use super::dtype::DType;
use super::shape;

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Aval {
    pub shape: Vec<usize>,
    pub dtype: DType,
    /// True for values made from bare JS numbers; they adopt a strong partner's dtype.
    pub weak: bool,
}

impl Aval {
    pub fn new(shape: Vec<usize>, dtype: DType) -> Self {
        Aval {
            shape,
            dtype,
            weak: false,
        }
    }

    pub fn size(&self) -> usize {
        shape::size(&self.shape)
    }

    /// The bytes of a dense buffer of this aval (saturating for avals not yet [`Aval::check`]ed).
    pub fn byte_size(&self) -> usize {
        self.size().saturating_mul(self.dtype.byte_size())
    }

    /// Checks the size limits of every array (`shape::check`), naming `function`.
    pub fn check(&self, function: &str) -> crate::util::Result<()> {
        shape::check(function, &self.shape, self.dtype.byte_size())
    }

    /// jax-js's description, e.g. `Array:float32[2,3]`.
    pub fn describe(&self) -> String {
        let dims: Vec<String> = self.shape.iter().map(|d| d.to_string()).collect();
        format!("Array:{}[{}]", self.dtype.name(), dims.join(","))
    }
}
