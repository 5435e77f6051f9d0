//! The operation vocabularies shared by primitives (what appears in a Jaxpr) and the Kernel IR
//! (what backends compile): one definition, so an elementwise primitive maps 1:1 onto its ALU
//! operation. The meaning of each is defined by the `cpu` interpreter (`backend/cpu/scalar.rs`).

/// One-operand operations. Float-only unless noted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    /// Any numeric dtype (integers wrap).
    Neg,
    /// Any numeric dtype (`i32::MIN` stays `i32::MIN`).
    Abs,
    Reciprocal,
    Floor,
    Ceil,
    /// Round to the nearest integer, ties to even (NumPy's `rint`); zero keeps its sign.
    RoundEven,
    Sqrt,
    Exp,
    Log,
    Sin,
    Cos,
    Asin,
    Atan,
    Tanh,
    Erf,
    Erfc,
    /// Bool: logical not; integers: bitwise not.
    Not,
}

/// Two-operand operations; both operands and the result share one dtype.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    /// Floats: IEEE division. Integers: truncates toward zero; division by zero gives 0, and
    /// `i32::MIN / -1` wraps to `i32::MIN` (no traps).
    Div,
    /// Remainder with the sign of the dividend (C and JS `%`); integer `x % 0` gives 0.
    Rem,
    /// NaN-propagating for floats.
    Min,
    Max,
    /// Bool and integers only: logical/bitwise.
    And,
    Or,
    Xor,
    /// Integers only; the shift amount is taken modulo 32. `Shr` is arithmetic for int32 and
    /// logical for uint32.
    Shl,
    Shr,
}

impl BinaryOp {
    /// `x op y` on int32 with the semantics documented above (wrapping `+ − ×`, truncating
    /// division, `x / 0 = x % 0 = 0`, shifts modulo 32, arithmetic `Shr`): the one definition
    /// that the `cpu` interpreter and constant folding (`kernel::fold`) both evaluate.
    pub fn int32(self, x: i32, y: i32) -> i32 {
        match self {
            BinaryOp::Add => x.wrapping_add(y),
            BinaryOp::Sub => x.wrapping_sub(y),
            BinaryOp::Mul => x.wrapping_mul(y),
            BinaryOp::Div | BinaryOp::Rem if y == 0 => 0,
            BinaryOp::Div => x.wrapping_div(y),
            BinaryOp::Rem => x.wrapping_rem(y),
            BinaryOp::Min => x.min(y),
            BinaryOp::Max => x.max(y),
            BinaryOp::And => x & y,
            BinaryOp::Or => x | y,
            BinaryOp::Xor => x ^ y,
            BinaryOp::Shl => x.wrapping_shl(y as u32),
            BinaryOp::Shr => x.wrapping_shr(y as u32),
        }
    }
}

/// Comparisons; the result is bool. Floats compare as IEEE (NaN is unequal to everything).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CompareOp {
    Lt,
    Le,
    Eq,
    Ne,
}

/// How a reduction combines values. The identity is 0 (sum), 1 (prod), −∞/+∞ for floats or the
/// dtype's min/max for integers (max/min). Float max/min propagate NaN.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ReduceOp {
    Sum,
    Prod,
    Max,
    Min,
}

/// The rotation of each round of threefry2x32, by parity of its group of four rounds.
pub const THREEFRY_ROTATIONS: [[u32; 4]; 2] = [[13, 15, 26, 6], [17, 29, 16, 24]];

/// The constant xor-ed into threefry2x32's third key word (Skein's key-schedule parity).
pub const THREEFRY_PARITY: u32 = 0x1BD1_1BDA;

/// Which result of threefry2x32 an operation gives. threefry2x32 is Random123's Threefry-2x32
/// with 20 rounds (JAX's default PRNG): key words `(k0, k1)` and counter words `(c0, c1)`, all
/// uint32, map to two uint32 words; `Xor` gives `word0 ^ word1` (one draw of `random.bits`),
/// `Word0` and `Word1` one word each (the two halves of a derived key).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ThreefryMode {
    Xor,
    Word0,
    Word1,
}

impl ThreefryMode {
    /// The name printed in Jaxprs (`threefry2x32[mode=xor]`).
    pub fn name(self) -> &'static str {
        match self {
            ThreefryMode::Xor => "xor",
            ThreefryMode::Word0 => "0",
            ThreefryMode::Word1 => "1",
        }
    }

    /// The result of this mode from the two words.
    pub fn pick(self, [x0, x1]: [u32; 2]) -> u32 {
        match self {
            ThreefryMode::Xor => x0 ^ x1,
            ThreefryMode::Word0 => x0,
            ThreefryMode::Word1 => x1,
        }
    }
}
