//! Builders that bind one primitive each through an [`Emit`]: the one way rules (derivatives,
//! batching), transformations and the library write operations. `lax::add(e, &x, 1.0)` binds
//! `Binary(Add)` on `x` and a literal; operands that may be literals take anything that
//! converts into an [`Arg`] (`&value` or an `f64`). Each builder binds exactly its primitive
//! (no shortcuts for empty axis lists or identity permutations) unless its doc says otherwise,
//! so a rewrite onto these builders does not change the operations a trace records.

use super::emit::{Arg, Emit};
use crate::core::ops::{BinaryOp, CompareOp, ReduceOp, ThreefryMode, UnaryOp};
use crate::core::{ConvParams, DType, Primitive};
use crate::util::Result;

/// `op(x)` (`x` a value or a literal).
pub fn unary<'a, E: Emit>(e: &mut E, op: UnaryOp, x: impl Into<Arg<'a, E::V>>) -> Result<E::V>
where
    E::V: 'a,
{
    e.bind(Primitive::Unary(op), &[x.into()])
}

/// `op(a, b)`, NumPy broadcasting: a binary operation (`BinaryOp`) or, giving bool, a
/// comparison (`CompareOp`).
pub fn binary<'a, E: Emit>(
    e: &mut E,
    op: impl Into<Primitive>,
    a: impl Into<Arg<'a, E::V>>,
    b: impl Into<Arg<'a, E::V>>,
) -> Result<E::V>
where
    E::V: 'a,
{
    e.bind(op.into(), &[a.into(), b.into()])
}

macro_rules! unary_builders {
    ($($name:ident = $op:ident),* $(,)?) => {$(
        #[doc = concat!("`", stringify!($op), "(x)`.")]
        pub fn $name<E: Emit>(e: &mut E, x: &E::V) -> Result<E::V> {
            unary(e, UnaryOp::$op, x)
        }
    )*};
}

macro_rules! binary_builders {
    ($ty:ident: $($name:ident = $op:ident),* $(,)?) => {$(
        #[doc = concat!("`", stringify!($op), "(a, b)`.")]
        pub fn $name<'a, E: Emit>(
            e: &mut E,
            a: impl Into<Arg<'a, E::V>>,
            b: impl Into<Arg<'a, E::V>>,
        ) -> Result<E::V>
        where
            E::V: 'a,
        {
            binary(e, $ty::$op, a, b)
        }
    )*};
}

unary_builders!(
    neg = Neg,
    abs = Abs,
    reciprocal = Reciprocal,
    floor = Floor,
    ceil = Ceil,
    round_even = RoundEven,
    sqrt = Sqrt,
    exp = Exp,
    log = Log,
    sin = Sin,
    cos = Cos,
    tanh = Tanh,
);
binary_builders!(BinaryOp:
    add = Add, sub = Sub, mul = Mul, div = Div, rem = Rem, max = Max, min = Min);
binary_builders!(CompareOp: lt = Lt, le = Le, eq = Eq, ne = Ne);

/// `c ? a : b` elementwise (`where`).
pub fn select<'a, E: Emit>(
    e: &mut E,
    c: impl Into<Arg<'a, E::V>>,
    a: impl Into<Arg<'a, E::V>>,
    b: impl Into<Arg<'a, E::V>>,
) -> Result<E::V>
where
    E::V: 'a,
{
    e.bind(Primitive::Where, &[c.into(), a.into(), b.into()])
}

/// threefry2x32 of key words `k0`, `k1` on counter words `c0`, `c1` (uint32, broadcast
/// together; JS numbers take uint32): the words `mode` names.
pub fn threefry<'a, E: Emit>(
    e: &mut E,
    mode: ThreefryMode,
    [k0, k1, c0, c1]: [Arg<'a, E::V>; 4],
) -> Result<E::V>
where
    E::V: 'a,
{
    e.bind(Primitive::Threefry(mode), &[k0, k1, c0, c1])
}

/// `x * 0`: zeros of `x`'s shape and dtype that stay a function of `x` (NaN where `x` is).
pub fn zeros_like<E: Emit>(e: &mut E, x: &E::V) -> Result<E::V> {
    mul(e, x, 0.0)
}

/// `x` (a value or a literal) converted to `dtype`.
pub fn cast<'a, E: Emit>(e: &mut E, x: impl Into<Arg<'a, E::V>>, dtype: DType) -> Result<E::V>
where
    E::V: 'a,
{
    e.bind(Primitive::Cast(dtype), &[x.into()])
}

/// The bits of `x` reinterpreted as `dtype` (of the same size).
pub fn bitcast<E: Emit>(e: &mut E, x: &E::V, dtype: DType) -> Result<E::V> {
    e.bind(Primitive::Bitcast(dtype), &[Arg::V(x)])
}

/// `x`, with no derivative.
pub fn stop_gradient<E: Emit>(e: &mut E, x: &E::V) -> Result<E::V> {
    e.bind(Primitive::StopGradient, &[Arg::V(x)])
}

/// `x` as `dtype`: `x` itself when it already is (JAX's `convert_element_type`), else a cast.
pub fn convert<E: Emit>(e: &mut E, x: &E::V, dtype: DType) -> Result<E::V> {
    if e.aval(x).dtype == dtype {
        return Ok(x.clone());
    }
    cast(e, x, dtype)
}

/// `x` with `shape` (same size).
pub fn reshape<E: Emit>(e: &mut E, x: &E::V, shape: Vec<usize>) -> Result<E::V> {
    e.bind(Primitive::Reshape(shape), &[Arg::V(x)])
}

/// `x` as one axis of its size.
pub fn ravel<E: Emit>(e: &mut E, x: &E::V) -> Result<E::V> {
    let size = e.aval(x).size();
    reshape(e, x, vec![size])
}

/// `x` with its axes permuted: output axis `i` is input axis `perm[i]`.
pub fn transpose<E: Emit>(e: &mut E, x: &E::V, perm: Vec<usize>) -> Result<E::V> {
    e.bind(Primitive::Transpose(perm), &[Arg::V(x)])
}

/// `x` with axis `from` moved to position `to` (a transpose; `x` itself when they are equal).
pub fn moveaxis<E: Emit>(e: &mut E, x: &E::V, from: usize, to: usize) -> Result<E::V> {
    if from == to {
        return Ok(x.clone());
    }
    let rank = e.aval(x).shape.len();
    let mut perm: Vec<usize> = (0..rank).filter(|&a| a != from).collect();
    perm.insert(to, from);
    transpose(e, x, perm)
}

/// `x` with its last two axes swapped (the matrix transpose of a stack).
pub fn swap_last2<E: Emit>(e: &mut E, x: &E::V) -> Result<E::V> {
    let r = e.aval(x).shape.len();
    let mut perm: Vec<usize> = (0..r).collect();
    perm.swap(r - 2, r - 1);
    transpose(e, x, perm)
}

/// `x` broadcast to `shape`, its axes landing at `axes` (`broadcast_in_dim`).
pub fn broadcast<E: Emit>(
    e: &mut E,
    x: &E::V,
    shape: Vec<usize>,
    axes: Vec<usize>,
) -> Result<E::V> {
    e.bind(Primitive::Broadcast { shape, axes }, &[Arg::V(x)])
}

/// `x[ranges]`: `[start, end)` on every axis.
pub fn shrink<E: Emit>(e: &mut E, x: &E::V, ranges: Vec<(usize, usize)>) -> Result<E::V> {
    e.bind(Primitive::Shrink(ranges), &[Arg::V(x)])
}

/// `[start, end)` of axis `axis` of `x`, the other axes whole.
pub fn slice_axis<E: Emit>(
    e: &mut E,
    x: &E::V,
    axis: usize,
    start: usize,
    end: usize,
) -> Result<E::V> {
    let mut ranges: Vec<(usize, usize)> = e.aval(x).shape.iter().map(|&d| (0, d)).collect();
    ranges[axis] = (start, end);
    shrink(e, x, ranges)
}

/// `x` padded with zeros: `(before, after)` on every axis.
pub fn pad<E: Emit>(e: &mut E, x: &E::V, widths: Vec<(usize, usize)>) -> Result<E::V> {
    e.bind(Primitive::Pad(widths), &[Arg::V(x)])
}

/// `x` reversed along `axes`.
pub fn flip<E: Emit>(e: &mut E, x: &E::V, axes: Vec<usize>) -> Result<E::V> {
    e.bind(Primitive::Flip(axes), &[Arg::V(x)])
}

/// `xs` joined along `axis`.
pub fn concatenate<E: Emit>(e: &mut E, xs: &[E::V], axis: usize) -> Result<E::V> {
    let args: Vec<Arg<E::V>> = xs.iter().map(Arg::V).collect();
    e.bind(Primitive::Concatenate(axis), &args)
}

/// `op` over `axes` of `x` (the axes dropped).
pub fn reduce<E: Emit>(e: &mut E, op: ReduceOp, x: &E::V, axes: Vec<usize>) -> Result<E::V> {
    e.bind(Primitive::Reduce { op, axes }, &[Arg::V(x)])
}

/// The sum over `axes` of `x` (the axes dropped).
pub fn sum<E: Emit>(e: &mut E, x: &E::V, axes: Vec<usize>) -> Result<E::V> {
    reduce(e, ReduceOp::Sum, x, axes)
}

/// The running `op` along `axis` of `x` (from the end when `reverse`).
pub fn cumulative<E: Emit>(
    e: &mut E,
    op: ReduceOp,
    x: &E::V,
    axis: usize,
    reverse: bool,
) -> Result<E::V> {
    e.bind(Primitive::Cumulative { op, axis, reverse }, &[Arg::V(x)])
}

/// Axes of a running reduction longer than this are cut into blocks of it ([`running`]).
pub const RUNNING_BLOCK: usize = 32;

/// A running reduction `op` along `axis` (from the end when `reverse`) of any length, in
/// `O(length · RUNNING_BLOCK)` work where one `Cumulative` over the axis is quadratic in its
/// length: `Cumulative` itself on an axis of at most `RUNNING_BLOCK` elements. A longer axis is
/// zero-padded at its end (no earlier position reads the padding) and cut into blocks, each
/// block's running reduction is taken, the blocks' last elements are reduced by `running` in
/// turn, and each block but the first is combined with the running total before it.
pub fn running<E: Emit>(
    e: &mut E,
    op: ReduceOp,
    x: &E::V,
    axis: usize,
    reverse: bool,
) -> Result<E::V> {
    let shape = e.aval(x).shape.clone();
    let (len, b) = (shape[axis], RUNNING_BLOCK);
    if len <= b {
        return cumulative(e, op, x, axis, reverse);
    }
    if reverse {
        let flipped = flip(e, x, vec![axis])?;
        let out = running(e, op, &flipped, axis, false)?;
        return flip(e, &out, vec![axis]);
    }
    let blocks = len.div_ceil(b);
    let mut widths = vec![(0, 0); shape.len()];
    widths[axis] = (0, blocks * b - len);
    let padded = pad(e, x, widths)?;
    let mut padded_shape = shape.clone();
    padded_shape[axis] = blocks * b;
    let mut split = shape[..axis].to_vec();
    split.extend([blocks, b]);
    split.extend_from_slice(&shape[axis + 1..]);
    let tiles = reshape(e, &padded, split)?;
    let inner = cumulative(e, op, &tiles, axis + 1, false)?;
    let last = slice_axis(e, &inner, axis + 1, b - 1, b)?;
    let totals = running(e, op, &last, axis, false)?;
    let before = slice_axis(e, &totals, axis, 0, blocks - 1)?;
    let rest = slice_axis(e, &inner, axis, 1, blocks)?;
    let combine = match (op, e.aval(x).dtype) {
        (ReduceOp::Sum, _) => BinaryOp::Add,
        (ReduceOp::Prod, _) => BinaryOp::Mul,
        (ReduceOp::Max, DType::Bool) => BinaryOp::Or,
        (ReduceOp::Min, DType::Bool) => BinaryOp::And,
        (ReduceOp::Max, _) => BinaryOp::Max,
        (ReduceOp::Min, _) => BinaryOp::Min,
    };
    let combined = binary(e, combine, &before, &rest)?;
    let first = slice_axis(e, &inner, axis, 0, 1)?;
    let joined = concatenate(e, &[first, combined], axis)?;
    let flat = reshape(e, &joined, padded_shape)?;
    slice_axis(e, &flat, axis, 0, len)
}

/// Positions along `axis` over an array of `shape`, as `dtype`.
pub fn iota<E: Emit>(e: &mut E, shape: Vec<usize>, axis: usize, dtype: DType) -> Result<E::V> {
    e.bind(Primitive::Iota { shape, axis, dtype }, &[])
}

/// int32 positions along `axis` over an array of `shape`.
pub fn iota_i32<E: Emit>(e: &mut E, shape: Vec<usize>, axis: usize) -> Result<E::V> {
    iota(e, shape, axis, DType::Int32)
}

/// The matrix product of stacks `a [..., m, k]` and `b [..., k, n]`.
pub fn matmul<E: Emit>(e: &mut E, a: &E::V, b: &E::V) -> Result<E::V> {
    e.bind(Primitive::Matmul, &[Arg::V(a), Arg::V(b)])
}

/// `x` indexed on `axes` by the broadcast `indices` (their axes placed at `out_dim`).
pub fn gather<E: Emit>(
    e: &mut E,
    x: &E::V,
    indices: &[E::V],
    axes: Vec<usize>,
    out_dim: usize,
) -> Result<E::V> {
    let args: Vec<Arg<E::V>> = std::iter::once(x).chain(indices).map(Arg::V).collect();
    e.bind(Primitive::Gather { axes, out_dim }, &args)
}

/// The lower Cholesky factor of each matrix of `a [..., n, n]`.
pub fn cholesky<E: Emit>(e: &mut E, a: &E::V) -> Result<E::V> {
    e.bind(Primitive::Cholesky, &[Arg::V(a)])
}

/// Solves `op(a) x = b` (`left_side`) or `x op(a) = b` for triangular `a` (`op(a) = aᵀ` when
/// `transpose_a`; ones assumed on the diagonal when `unit_diagonal`).
pub fn triangular_solve<E: Emit>(
    e: &mut E,
    a: &E::V,
    b: &E::V,
    left_side: bool,
    lower: bool,
    transpose_a: bool,
    unit_diagonal: bool,
) -> Result<E::V> {
    let prim = Primitive::TriangularSolve {
        left_side,
        lower,
        transpose_a,
        unit_diagonal,
    };
    e.bind(prim, &[Arg::V(a), Arg::V(b)])
}

/// LU with partial pivoting of each matrix of `a`: `[lu, pivots, permutation]`.
pub fn lu<E: Emit>(e: &mut E, a: &E::V) -> Result<Vec<E::V>> {
    e.bind_multi(Primitive::Lu, &[Arg::V(a)])
}

/// `x` sorted along its last axis, stably, NaN last: `[sorted, permutation]`.
pub fn sort<E: Emit>(e: &mut E, x: &E::V) -> Result<Vec<E::V>> {
    e.bind_multi(Primitive::Sort, &[Arg::V(x)])
}

/// The unnormalized DFT along the last axis of `re + i·im` (`inverse`: exponent sign `+`):
/// `[re, im]`.
pub fn fft<E: Emit>(e: &mut E, re: &E::V, im: &E::V, inverse: bool) -> Result<Vec<E::V>> {
    e.bind_multi(Primitive::Fft { inverse }, &[Arg::V(re), Arg::V(im)])
}

/// The eigendecomposition of each symmetric matrix of `a`: `[diagonalized, eigenvectors]` (internal to
/// the library: see `Primitive::Diagonalize`).
pub fn diagonalize<E: Emit>(e: &mut E, a: &E::V) -> Result<Vec<E::V>> {
    e.bind_multi(Primitive::Diagonalize, &[Arg::V(a)])
}

/// The orthogonal columns `[w, v]` of each matrix of `a`, or without `vectors` columns whose
/// norms are its singular values (internal to the library: see `Primitive::OrthogonalColumns`).
pub fn orthogonal_columns<E: Emit>(e: &mut E, a: &E::V, vectors: bool) -> Result<Vec<E::V>> {
    e.bind_multi(Primitive::OrthogonalColumns { vectors }, &[Arg::V(a)])
}

/// `conv_general_dilated(lhs, rhs)` with `params`.
pub fn conv<E: Emit>(e: &mut E, lhs: &E::V, rhs: &E::V, params: ConvParams) -> Result<E::V> {
    e.bind(Primitive::Conv(params), &[Arg::V(lhs), Arg::V(rhs)])
}
