//! The closed set of primitives: what a Jaxpr's equations apply. Each family's rules live in
//! one file of `rules/`, reached through exhaustive matches, so adding a variant here points at
//! every rule to write. Elementwise primitives carry the ALU operation they map onto.

use std::fmt;

use super::ops::{BinaryOp, CompareOp, ReduceOp, ThreefryMode, UnaryOp};
use super::DType;

/// Parameters of [`Primitive::Conv`], one entry per spatial axis.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ConvParams {
    pub strides: Vec<usize>,
    pub padding: Vec<(i64, i64)>,
    pub lhs_dilation: Vec<usize>,
    pub rhs_dilation: Vec<usize>,
    pub groups: usize,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Primitive {
    Unary(UnaryOp),
    Binary(BinaryOp),
    /// Result is bool.
    Compare(CompareOp),
    /// `where(cond, x, y)`.
    Where,
    /// Converts to a dtype (`astype`).
    Cast(DType),
    /// Reinterprets the bits as a dtype of the same size.
    Bitcast(DType),
    /// The identity whose derivative is zero.
    StopGradient,
    /// threefry2x32 of uint32 operands `(k0, k1, c0, c1)` (broadcast together): the result of
    /// its mode, uint32 (`core::ops::ThreefryMode`).
    Threefry(ThreefryMode),
    /// Reduces over `axes` (sorted, unique), removing them.
    Reduce {
        op: ReduceOp,
        axes: Vec<usize>,
    },
    /// Same elements in row-major order, new shape.
    Reshape(Vec<usize>),
    /// Axis `k` of the result is axis `perm[k]` of the operand.
    Transpose(Vec<usize>),
    /// `broadcast_in_dim`: operand axis `i` becomes result axis `axes[i]` (size equal or 1);
    /// the other result axes repeat.
    Broadcast {
        shape: Vec<usize>,
        axes: Vec<usize>,
    },
    /// Keeps `[start, end)` of every axis.
    Shrink(Vec<(usize, usize)>),
    /// Adds zeros: `(before, after)` per axis.
    Pad(Vec<(usize, usize)>),
    /// Reverses the listed axes.
    Flip(Vec<usize>),
    /// Joins operands along an axis.
    Concatenate(usize),
    /// Running reduction along `axis` (from the end when `reverse`): cumsum, cumprod, ….
    Cumulative {
        op: ReduceOp,
        axis: usize,
        reverse: bool,
    },
    /// Advanced indexing: operands are `x` then one integer index array per entry of `axes`
    /// (broadcast together to shape `I`). The result is `x` with `axes` removed and `I`
    /// inserted at `out_dim`. Negative indices count from the end; out-of-range ones clamp.
    Gather {
        axes: Vec<usize>,
        out_dim: usize,
    },
    /// `conv_general_dilated` with layouts lhs `[N, C, spatial…]`, rhs `[O, C/groups,
    /// spatial…]`, out `[N, O, spatial…]`. `padding` may be negative (crops).
    Conv(ConvParams),
    /// Sorts `[..., n]` along its last axis, stably, NaN last (a routine: see
    /// `kernel::RoutineKind::Sort`); two outputs: the sorted values and the int32 permutation
    /// (`sorted[..., i] = x[..., perm[..., i]]`).
    Sort,
    /// The unnormalized discrete Fourier transform along the last axis of complex `[..., n]`
    /// given as real and imaginary parts (two operands, two outputs): exponent sign `-`, or
    /// `+` when `inverse` (a routine: see `kernel::RoutineKind::Fft`).
    Fft {
        inverse: bool,
    },
    /// No operands: the index along `axis` of each element of an array of `shape`.
    Iota {
        shape: Vec<usize>,
        axis: usize,
        dtype: DType,
    },
    /// Batched matrix product `[..., M, K] × [..., K, N] → [..., M, N]`, batch axes broadcast
    /// (NumPy's `matmul` on arrays of rank ≥ 2).
    Matmul,
    /// The lower Cholesky factor of each matrix of `[..., n, n]`, reading the lower triangle
    /// (a routine: see `kernel::RoutineKind::Cholesky`).
    Cholesky,
    /// `a [..., k, k]` triangular, `b [..., m, n]` (same batch axes): solves `op(a) x = b`
    /// (`left_side`) or `x op(a) = b`, `op(a) = aᵀ` when `transpose_a` (a routine).
    TriangularSolve {
        left_side: bool,
        lower: bool,
        transpose_a: bool,
        unit_diagonal: bool,
    },
    /// `lax.scan`: a loop of a body Jaxpr (multi-output: final carries, then stacked ys).
    Scan(super::scan::ScanParams),
    /// LU with partial pivoting of each matrix of `[..., m, n]`; three outputs: the packed
    /// `lu`, `pivots` (int32 `[..., min(m, n)]`) and `permutation` (int32 `[..., m]`) (a
    /// routine: see `kernel::RoutineKind::Lu`).
    Lu,
    /// The eigendecomposition of each symmetric matrix of `[..., n, n]`; two outputs: the
    /// diagonalized matrix (eigenvalues on its diagonal, unsorted) and the eigenvectors as columns (a
    /// routine: see `kernel::RoutineKind::Diagonalize`). Internal to the library, which applies
    /// it only to values whose gradient is stopped and attaches the derivatives itself: its
    /// rule passes no cotangent back.
    Diagonalize,
    /// The singular value decomposition of each matrix of `[..., m, n]` as two outputs: the
    /// mutually orthogonal columns `w = a v` and the orthogonal `v [..., n, n]`, or without
    /// `vectors` only columns whose norms are the singular values (a routine: see
    /// `kernel::RoutineKind::OrthogonalColumns`). Internal, as `Diagonalize`.
    OrthogonalColumns {
        vectors: bool,
    },
}

impl Primitive {
    /// Shorthands for the common elementwise primitives.
    pub const ADD: Primitive = Primitive::Binary(BinaryOp::Add);
    pub const MUL: Primitive = Primitive::Binary(BinaryOp::Mul);

    /// The name printed in Jaxprs and used in error messages (JAX's names where JAX has one).
    pub fn name(&self) -> &'static str {
        use BinaryOp as B;
        use UnaryOp as U;
        match self {
            Primitive::Unary(op) => match op {
                U::Neg => "neg",
                U::Abs => "abs",
                U::Reciprocal => "reciprocal",
                U::Floor => "floor",
                U::Ceil => "ceil",
                U::RoundEven => "round_even",
                U::Sqrt => "sqrt",
                U::Exp => "exp",
                U::Log => "log",
                U::Sin => "sin",
                U::Cos => "cos",
                U::Asin => "asin",
                U::Atan => "atan",
                U::Tanh => "tanh",
                U::Erf => "erf",
                U::Erfc => "erfc",
                U::Not => "not",
            },
            Primitive::Binary(op) => match op {
                B::Add => "add",
                B::Sub => "sub",
                B::Mul => "mul",
                B::Div => "div",
                B::Rem => "rem",
                B::Min => "min",
                B::Max => "max",
                B::And => "and",
                B::Or => "or",
                B::Xor => "xor",
                B::Shl => "shift_left",
                B::Shr => "shift_right",
            },
            Primitive::Compare(op) => match op {
                CompareOp::Lt => "lt",
                CompareOp::Le => "le",
                CompareOp::Eq => "eq",
                CompareOp::Ne => "ne",
            },
            Primitive::Where => "where",
            Primitive::Cast(_) => "convert_element_type",
            Primitive::Bitcast(_) => "bitcast_convert_type",
            Primitive::StopGradient => "stop_gradient",
            Primitive::Threefry(_) => "threefry2x32",
            Primitive::Reshape(_) => "reshape",
            Primitive::Transpose(_) => "transpose",
            Primitive::Broadcast { .. } => "broadcast_in_dim",
            Primitive::Shrink(_) => "slice",
            Primitive::Pad(_) => "pad",
            Primitive::Flip(_) => "rev",
            Primitive::Concatenate(_) => "concatenate",
            Primitive::Iota { .. } => "iota",
            Primitive::Gather { .. } => "gather",
            Primitive::Sort => "sort",
            Primitive::Fft { .. } => "fft",
            Primitive::Conv(_) => "conv_general_dilated",
            Primitive::Cumulative { op, .. } => match op {
                ReduceOp::Sum => "cumsum",
                ReduceOp::Prod => "cumprod",
                ReduceOp::Max => "cummax",
                ReduceOp::Min => "cummin",
            },
            Primitive::Matmul => "matmul",
            Primitive::Cholesky => "cholesky",
            Primitive::TriangularSolve { .. } => "triangular_solve",
            Primitive::Scan(_) => "scan",
            Primitive::Lu => "lu",
            Primitive::Diagonalize => "diagonalize",
            Primitive::OrthogonalColumns { .. } => "orthogonal_columns",
            Primitive::Reduce { op, .. } => match op {
                ReduceOp::Sum => "reduce_sum",
                ReduceOp::Prod => "reduce_prod",
                ReduceOp::Max => "reduce_max",
                ReduceOp::Min => "reduce_min",
            },
        }
    }

    /// Looks up a primitive without parameters by its name (every eager operation asks: the
    /// table is built once per thread).
    pub fn by_name(name: &str) -> Option<Primitive> {
        thread_local! {
            static BY_NAME: std::collections::HashMap<&'static str, Primitive> =
                Primitive::without_parameters().map(|p| (p.name(), p)).collect();
        }
        BY_NAME.with(|table| table.get(name).cloned())
    }

    /// The primitives without parameters, which [`Primitive::by_name`] finds.
    fn without_parameters() -> impl Iterator<Item = Primitive> {
        use BinaryOp as B;
        use UnaryOp as U;
        let unary = [
            U::Neg,
            U::Abs,
            U::Reciprocal,
            U::Floor,
            U::Ceil,
            U::RoundEven,
            U::Sqrt,
            U::Exp,
            U::Log,
            U::Sin,
            U::Cos,
            U::Asin,
            U::Atan,
            U::Tanh,
            U::Erf,
            U::Erfc,
            U::Not,
        ]
        .map(Primitive::Unary);
        let binary = [
            B::Add,
            B::Sub,
            B::Mul,
            B::Div,
            B::Rem,
            B::Min,
            B::Max,
            B::And,
            B::Or,
            B::Xor,
            B::Shl,
            B::Shr,
        ]
        .map(Primitive::Binary);
        let compare =
            [CompareOp::Lt, CompareOp::Le, CompareOp::Eq, CompareOp::Ne].map(Primitive::Compare);
        let others = [Primitive::Where, Primitive::StopGradient, Primitive::Matmul];
        unary.into_iter().chain(binary).chain(compare).chain(others)
    }
}

/// Prints the name with its parameters, as JAX does: `reduce_sum[axes=(0, 1)]`.
impl From<BinaryOp> for Primitive {
    fn from(op: BinaryOp) -> Self {
        Primitive::Binary(op)
    }
}

impl From<CompareOp> for Primitive {
    fn from(op: CompareOp) -> Self {
        Primitive::Compare(op)
    }
}

impl fmt::Display for Primitive {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tuple = |v: &[usize]| {
            let items: Vec<String> = v.iter().map(|x| x.to_string()).collect();
            if items.len() == 1 {
                format!("({},)", items[0])
            } else {
                format!("({})", items.join(", "))
            }
        };
        match self {
            Primitive::Cast(d) | Primitive::Bitcast(d) => {
                write!(f, "{}[new_dtype={}]", self.name(), d.name())
            }
            Primitive::Reduce { axes, .. } => write!(f, "{}[axes={}]", self.name(), tuple(axes)),
            Primitive::Threefry(mode) => write!(f, "{}[mode={}]", self.name(), mode.name()),
            Primitive::Reshape(shape) => write!(f, "reshape[new_sizes={}]", tuple(shape)),
            Primitive::Transpose(perm) => write!(f, "transpose[permutation={}]", tuple(perm)),
            Primitive::Broadcast { shape, axes } => write!(
                f,
                "broadcast_in_dim[shape={} broadcast_dimensions={}]",
                tuple(shape),
                tuple(axes)
            ),
            Primitive::Shrink(r) => {
                let (s, e): (Vec<usize>, Vec<usize>) = r.iter().copied().unzip();
                write!(
                    f,
                    "slice[start_indices={} limit_indices={}]",
                    tuple(&s),
                    tuple(&e)
                )
            }
            Primitive::Pad(p) => {
                let items: Vec<String> = p.iter().map(|(a, b)| format!("({a}, {b})")).collect();
                write!(f, "pad[padding_config=({})]", items.join(", "))
            }
            Primitive::Flip(axes) => write!(f, "rev[dimensions={}]", tuple(axes)),
            Primitive::Concatenate(axis) => write!(f, "concatenate[dimension={axis}]"),
            Primitive::Conv(p) => {
                let pads: Vec<String> = p
                    .padding
                    .iter()
                    .map(|(a, b)| format!("({a}, {b})"))
                    .collect();
                write!(
                    f,
                    "conv_general_dilated[window_strides={} padding=({}) lhs_dilation={} \
                     rhs_dilation={} feature_group_count={}]",
                    tuple(&p.strides),
                    pads.join(", "),
                    tuple(&p.lhs_dilation),
                    tuple(&p.rhs_dilation),
                    p.groups
                )
            }
            Primitive::Sort => write!(f, "sort[dimension=-1 is_stable=True num_keys=1]"),
            Primitive::Fft { inverse } => {
                let t = if *inverse { "IFFT" } else { "FFT" };
                write!(f, "fft[fft_type={t}]")
            }
            Primitive::Gather { axes, out_dim } => {
                write!(f, "gather[axes={} out_dim={out_dim}]", tuple(axes))
            }
            Primitive::Cumulative { axis, reverse, .. } => {
                write!(f, "{}[axis={axis} reverse={reverse}]", self.name())
            }
            Primitive::Iota { shape, axis, dtype } => write!(
                f,
                "iota[dtype={} shape={} dimension={axis}]",
                dtype.name(),
                tuple(shape)
            ),
            Primitive::TriangularSolve {
                left_side,
                lower,
                transpose_a,
                unit_diagonal,
            } => write!(
                f,
                "triangular_solve[left_side={left_side} lower={lower} transpose_a={transpose_a} \
                 unit_diagonal={unit_diagonal}]"
            ),
            Primitive::Scan(p) => {
                // acceptPath is printed where it restricts (bodies compare by their text, so
                // a nested scan's acceptPath must be part of it).
                let accept = match (p.accept.fused, p.accept.fallback) {
                    (true, true) => "",
                    (true, false) => " accept=fused",
                    (false, true) => " accept=fallback",
                    (false, false) => " accept=none",
                };
                write!(
                    f,
                    "scan[length={} reverse={} num_consts={} num_carry={} segment={}{accept} \
                     jaxpr={}]",
                    p.length,
                    p.reverse,
                    p.num_consts,
                    p.num_carry,
                    p.segment,
                    p.body.text()
                )
            }
            _ => f.write_str(self.name()),
        }
    }
}
