//! The closed set of primitives. Each primitive's rules live in one file of `rules/`; the
//! `match` there is exhaustive, so adding a variant here points at every rule to write.

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Primitive {
    Add,
    Mul,
}

impl Primitive {
    /// The name used in printed Jaxprs and error messages.
    pub fn name(self) -> &'static str {
        match self {
            Primitive::Add => "add",
            Primitive::Mul => "mul",
        }
    }
}
