//! The arguments of every library call (`library::call`), declared once: each struct is read
//! from the call buffers in field order and rendered as a TypeScript interface and encoder in
//! `js/lib-calls.ts`. A default (`= …`) is a TypeScript literal applied when the field is left
//! out or null. `ArrayLike` fields accept JS numbers and nested lists; `Value` fields only
//! arrays.

use super::args::{choice, ArrayLike, Axes};
use super::signature::call_args;
use crate::transform::Value;

choice! {
    /// `numpy.meshgrid`'s indexing.
    pub enum Indexing { Xy = "xy", Ij = "ij" }
}

choice! {
    /// The window functions of `numpy` (`hamming`, …), in `products::window`'s numbering.
    pub enum WindowKind { Hamming = "hamming", Hann = "hann", Bartlett = "bartlett", Blackman = "blackman" }
}

choice! {
    /// A dtype by name (`numpy`'s `dtype` options; TypeScript checks the name first).
    pub enum DTypeName {
        Bool = "bool", Uint32 = "uint32", Int32 = "int32",
        Float16 = "float16", Float32 = "float32", Float64 = "float64",
    }
}

choice! {
    /// A device by name (the `device` option of creation functions): naming one commits the
    /// result to it; `webgl` is named only to be refused with `Device::parse`'s message.
    pub enum DeviceName { Cpu = "cpu", Wasm = "wasm", WebGpu = "webgpu", WebGl = "webgl" }
}

choice! {
    /// `lax.convTranspose` padding: the pairs of field `pads`, or a named mode.
    pub enum PadMode { Explicit = "explicit", Valid = "VALID", Same = "SAME" }
}

choice! {
    /// Named matrix norm orders.
    pub enum NormName { Fro = "fro", Nuc = "nuc" }
}

call_args! {
    pub struct Unary { x: ArrayLike }
    pub struct Binary { a: ArrayLike, b: ArrayLike }
    pub struct ArrayList { arrays: Vec<ArrayLike> }
    pub struct Indices { dimensions: Vec<usize> }
    pub struct FftFreq { n: usize, d: f64 = 1.0 }
    pub struct Glu { x: ArrayLike, axis: i64 = -1 }
    pub struct Logmeanexp { x: ArrayLike, axis: Axes, keepdims: bool = false }
    pub struct Standardize {
        x: ArrayLike,
        axis: Axes,
        mean: Option<ArrayLike>,
        variance: Option<ArrayLike>,
        epsilon: f64 = 1e-5,
    }
    pub struct Attention {
        q: Value,
        k: Value,
        v: Value,
        bias: Option<Value>,
        mask: Option<Value>,
        scale: Option<f64>,
        is_causal: bool = false,
    }
    pub struct NanReduction { x: ArrayLike, axis: Axes, keepdims: bool = false, ddof: f64 = 0 }
    pub struct NanScan { x: ArrayLike, axis: Option<i64> }
    pub struct Cumulative { x: Value, axis: Option<i64>, include_initial: bool = false }
    pub struct Average { x: ArrayLike, axis: Axes, weights: Option<ArrayLike> }
    pub struct Allclose { a: ArrayLike, b: ArrayLike, rtol: f64 = 1e-5, atol: f64 = 1e-7 }
    pub struct ArrayEqual { a: ArrayLike, b: ArrayLike, equal_nan: bool = false }
    pub struct Cov { x: ArrayLike, y: Option<ArrayLike>, rowvar: bool = true, ddof: f64 = 1 }
    pub struct Repeat { x: ArrayLike, repeats: usize, axis: Option<i64> }
    pub struct Roll { x: ArrayLike, shift: Vec<i64>, axis: Option<Vec<i64>> }
    pub struct Rot90 { x: ArrayLike, k: i64 = 1, axes: Vec<i64> = [0, 1] }
    pub struct Append { x: ArrayLike, values: ArrayLike, axis: Option<i64> }
    pub struct Diff { x: ArrayLike, n: usize = 1, axis: i64 = -1 }
    pub struct Take { x: ArrayLike, indices: ArrayLike, axis: Option<i64> }
    pub struct TakeAlongAxis { x: ArrayLike, indices: ArrayLike, axis: i64 }
    pub struct Meshgrid { arrays: Vec<ArrayLike>, indexing: Indexing = "xy" }
    pub struct AxisSplit { x: ArrayLike, axis: i64 = 0 }
    pub struct ArraySplit { x: ArrayLike, sections: usize, axis: i64 = 0 }
    pub struct Vander { x: ArrayLike, n: Option<usize>, increasing: bool = false }
    pub struct Select {
        condlist: Vec<ArrayLike>,
        choicelist: Vec<ArrayLike>,
        default_value: ArrayLike,
    }
    pub struct Isin { element: ArrayLike, test_elements: ArrayLike, invert: bool = false }
    pub struct Trapezoid { y: ArrayLike, x: Option<ArrayLike>, dx: f64 = 1, axis: i64 = -1 }
    pub struct Window { kind: WindowKind, m: usize, device: Option<DeviceName> }
    pub struct Logspace {
        start: f64,
        stop: f64,
        num: usize = 50,
        endpoint: bool = true,
        base: f64 = 10,
        dtype: Option<DTypeName>,
        device: Option<DeviceName>,
    }
    pub struct Geomspace {
        start: f64,
        stop: f64,
        num: usize = 50,
        endpoint: bool = true,
        dtype: Option<DTypeName>,
        device: Option<DeviceName>,
    }
    pub struct Tri {
        n: usize,
        m: Option<usize>,
        k: i64 = 0,
        dtype: Option<DTypeName>,
        device: Option<DeviceName>,
    }
    pub struct Diagflat { v: Value, k: i64 = 0 }
    /// `count` contracts the last `count` axes of `a` with the first of `b`; without it the
    /// axis lists pair up.
    pub struct Tensordot {
        a: ArrayLike,
        b: ArrayLike,
        count: Option<i64>,
        a_axes: Vec<i64> = [],
        b_axes: Vec<i64> = [],
    }
    pub struct Vecdot { a: ArrayLike, b: ArrayLike, axis: i64 = -1 }
    pub struct Polyder { p: ArrayLike, m: usize = 1 }
    pub struct ScatterAdd { target: ArrayLike, indices: ArrayLike, updates: ArrayLike, axis: i64 = 0 }
    pub struct Unwrap { p: ArrayLike, discont: Option<f64>, axis: i64 = -1, period: f64 = 2 * Math.PI }
    pub struct ComplexFft { real: ArrayLike, imag: ArrayLike, axis: i64 = -1, n: Option<usize> }
    pub struct RealFft { x: ArrayLike, axis: i64 = -1, n: Option<usize> }
    pub struct FftShift { x: ArrayLike, axes: Axes }
    /// An n-D transform over `axes` (`None`: every axis).
    pub struct ComplexFftn { real: Value, imag: Value, axes: Option<Vec<i64>> }
    pub struct RealFftn { x: Value, axes: Option<Vec<i64>> }

    /// A draw from a distribution without parameters.
    pub struct Draw { key: ArrayLike, shape: Vec<usize> = [] }
    pub struct Lognormal { key: ArrayLike, sigma: f64 = 1, shape: Vec<usize> = [] }
    pub struct Rayleigh { key: ArrayLike, scale: f64 = 1, shape: Vec<usize> = [] }
    pub struct Pareto { key: ArrayLike, b: f64, shape: Vec<usize> = [] }
    pub struct Geometric { key: ArrayLike, p: f64, shape: Vec<usize> = [] }
    pub struct DoubleSidedMaxwell { key: ArrayLike, loc: f64, scale: f64, shape: Vec<usize> = [] }
    pub struct WeibullMin { key: ArrayLike, scale: f64, concentration: f64, shape: Vec<usize> = [] }
    pub struct Triangular { key: ArrayLike, left: f64, mode: f64, right: f64, shape: Vec<usize> = [] }
    pub struct Randint { key: ArrayLike, minval: f64, maxval: f64, shape: Vec<usize> = [] }
    pub struct Ball { key: ArrayLike, d: f64, p: f64 = 2, shape: Vec<usize> = [] }
    pub struct Categorical {
        key: ArrayLike,
        logits: ArrayLike,
        axis: i64 = -1,
        shape: Option<Vec<usize>>,
        replace: bool = true,
    }
    pub struct MultivariateNormal {
        key: ArrayLike,
        mean: ArrayLike,
        cov: ArrayLike,
        shape: Option<Vec<usize>>,
    }
    pub struct PermutationCount { key: ArrayLike, n: usize }
    pub struct Permutation { key: ArrayLike, x: ArrayLike, axis: i64 = 0, independent: bool = false }
    /// Samples of `a`, or of `arange(n)` when `a` is absent.
    pub struct Choice {
        key: ArrayLike,
        a: Option<ArrayLike>,
        n: usize = 0,
        shape: Vec<usize> = [],
        replace: bool = true,
        p: Option<ArrayLike>,
        axis: i64 = 0,
    }

    pub struct Dot {
        lhs: ArrayLike,
        rhs: ArrayLike,
        lhs_contracting_dims: Option<Vec<i64>>,
        rhs_contracting_dims: Option<Vec<i64>>,
        lhs_batch_dims: Vec<i64> = [],
        rhs_batch_dims: Vec<i64> = [],
    }
    pub struct DynamicSlice { x: ArrayLike, start_indices: Vec<ArrayLike>, slice_sizes: Vec<usize> }
    pub struct DynamicIndexInDim { x: ArrayLike, index: ArrayLike, axis: i64 = 0, keepdims: bool = false }
    pub struct DynamicUpdateSlice { dst: ArrayLike, src: ArrayLike, offset: ArrayLike, axis: i64 = 0 }
    pub struct TopK { x: ArrayLike, k: usize, axis: i64 = -1 }
    pub struct Pool { x: ArrayLike, window_dimensions: Vec<usize>, strides: Vec<usize> }
    pub struct ConvTranspose {
        lhs: ArrayLike,
        rhs: ArrayLike,
        strides: Vec<usize>,
        padding: PadMode,
        /// With `padding: "explicit"`: (low, high) for each spatial axis, flattened.
        pads: Vec<i64> = [],
        rhs_dilation: Option<Vec<usize>>,
        transpose_kernel: bool = false,
    }

    /// A linear algebra function of one matrix.
    pub struct Matrix { a: Value }
    pub struct MatrixPair { a: Value, b: Value }
    pub struct MatrixList { arrays: Vec<Value> }
    pub struct LaxCholesky { a: Value, upper: bool = false }
    pub struct LaxTriangularSolve {
        a: Value,
        b: Value,
        left_side: bool = false,
        lower: bool = false,
        transpose_a: bool = false,
        unit_diagonal: bool = false,
    }
    pub struct Qr { a: Value, full_matrices: bool = true }
    pub struct Eigh { a: Value, lower: bool = true, symmetrize_input: bool = true }
    pub struct Svd { a: Value, full_matrices: bool = true, compute_uv: bool = true }
    pub struct ScipyCholesky { a: Value, lower: bool = false }
    pub struct SolveTriangular {
        a: Value,
        b: Value,
        lower: bool = false,
        trans: bool = false,
        unit_diagonal: bool = false,
    }
    pub struct Cholesky { a: Value, upper: bool = false, symmetrize_input: bool = true }
    pub struct VectorNorm { x: Value, ord: f64 = 2, axis: Axes, keepdims: bool = false }
    /// A norm order is a number (`ord`) or a name (`ord_name`); neither: the default.
    pub struct Norm {
        x: Value,
        ord: Option<f64>,
        ord_name: Option<NormName>,
        axis: Axes,
        keepdims: bool = false,
    }
    pub struct MatrixNorm {
        x: Value,
        ord: Option<f64>,
        ord_name: Option<NormName>,
        keepdims: bool = false,
    }
    pub struct Cross { a: Value, b: Value, axis: i64 = -1 }
    pub struct MatrixPower { a: Value, n: f64 }
}
