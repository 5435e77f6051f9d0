//! Element types and jax-js's promotion rules.
//!
//! The lattice is `bool < uint32 < int32 < float16 < float32 < float64`. A weakly typed value
//! (one made from a bare JS number) adopts the dtype of a strongly typed partner, so
//! `x.add(1)` keeps `x`'s dtype.

use crate::util::{Error, Result};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DType {
    Bool,
    Uint32,
    Int32,
    Float16,
    Float32,
    Float64,
}

impl DType {
    pub const ALL: [DType; 6] = [
        DType::Bool,
        DType::Uint32,
        DType::Int32,
        DType::Float16,
        DType::Float32,
        DType::Float64,
    ];

    /// The name jax-js uses (`DType.Float32 === "float32"`).
    pub fn name(self) -> &'static str {
        match self {
            DType::Bool => "bool",
            DType::Uint32 => "uint32",
            DType::Int32 => "int32",
            DType::Float16 => "float16",
            DType::Float32 => "float32",
            DType::Float64 => "float64",
        }
    }

    pub fn parse(function: &str, name: &str) -> Result<DType> {
        DType::ALL
            .into_iter()
            .find(|d| d.name() == name)
            .ok_or_else(|| Error::new(function, format!("unknown dtype {name:?}")))
    }

    /// Bytes per element as stored in a device buffer (bool is stored as 4-byte int, as in
    /// jax-js, so that every backend can address it without sub-word loads).
    pub fn byte_size(self) -> usize {
        match self {
            DType::Float16 => 2,
            DType::Float64 => 8,
            DType::Bool | DType::Uint32 | DType::Int32 | DType::Float32 => 4,
        }
    }

    pub fn is_float(self) -> bool {
        matches!(self, DType::Float16 | DType::Float32 | DType::Float64)
    }
}

/// The result dtype of combining two operands, each with a weak-type flag, and whether the
/// result is weakly typed. As in jax-js, a weak operand adopts its strong partner's dtype
/// (so `int32Array.add(0.5)` stays int32); two weak or two strong operands take the join.
/// The exception is a strong bool: arithmetic needs numbers, so `boolArray.add(1.5)` gives
/// float32, as in JAX.
pub fn promote(a: DType, a_weak: bool, b: DType, b_weak: bool) -> (DType, bool) {
    match (a_weak, b_weak) {
        (true, false) if b == DType::Bool => (a, false),
        (false, true) if a == DType::Bool => (b, false),
        (true, false) => (b, false),
        (false, true) => (a, false),
        (weak, _) => (a.max(b), weak),
    }
}

/// The dtype an operation on operands of these dtypes and weak-type flags gives: [`promote`]
/// folded from the left (NumPy's `result_type`), and whether it is weak; `None` for no operands.
pub fn result_type(operands: impl IntoIterator<Item = (DType, bool)>) -> Option<(DType, bool)> {
    operands
        .into_iter()
        .reduce(|(a, a_weak), (b, b_weak)| promote(a, a_weak, b, b_weak))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for d in DType::ALL {
            assert_eq!(DType::parse("t", d.name()), Ok(d));
        }
        assert_eq!(
            DType::parse("np.array", "complex64").unwrap_err().message(),
            "np.array: unknown dtype \"complex64\""
        );
    }

    #[test]
    fn promotion_follows_the_lattice_and_weak_types() {
        use DType::*;
        assert_eq!(promote(Int32, false, Float32, false), (Float32, false));
        assert_eq!(promote(Float16, false, Float32, true), (Float16, false));
        assert_eq!(promote(Int32, false, Float32, true), (Int32, false));
        assert_eq!(promote(Float32, true, Float32, true), (Float32, true));
        assert_eq!(promote(Bool, false, Uint32, false), (Uint32, false));
        assert_eq!(promote(Bool, false, Float32, true), (Float32, false));
        assert_eq!(result_type([]), None);
        assert_eq!(
            result_type([(Int32, false), (Float32, true)]),
            Some((Int32, false))
        );
        // Left to right: two weak floats stay weak, then adopt the strong uint32.
        let weak_then_strong = [(Float32, true), (Float32, true), (Uint32, false)];
        assert_eq!(result_type(weak_then_strong), Some((Uint32, false)));
    }
}
