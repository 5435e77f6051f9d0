//! The library functions JavaScript calls by typed id (`libCall`): numpy's reductions, shape
//! helpers, products, polynomials, windows, logspace, tri and FFTs, nn's axis functions and
//! attention, random distributions, lax's structured operations and the linear algebra of
//! `lax.linalg`, `numpy.linalg` and `scipyLinalg`. Each line of `calls!` declares one id: the
//! name its errors use, its argument struct (`call_args`), its number of results and its
//! implementation; [`call`] reads the arguments and runs it. The TypeScript call layer
//! (`js/lib-calls.ts`) is rendered from these declarations; a test here checks it is current.

use super::args::{ArrayLike, Reader};
use super::call_args::*;
use super::signature::calls;
use super::{call_run as run, call_run_linalg as run_linalg};
use super::{
    differences, fft, indexing, lax_linalg, logic, manipulation, math, matrices, nn, np_linalg,
    np_norms, np_solve, np_svd, products, random, selection, slicing, spaced, statistics,
};
use crate::transform::{eager_jit, Value};
use crate::util::{Error, Result};

calls! {
    Indices "indices" (Indices) -> One = |a| one(selection::indices(&a.dimensions)),
    Fftfreq "fftfreq" | Rfftfreq "rfftfreq" (FftFreq) -> One
        by |name, a| one(fft::fftfreq(name, a.n, a.d)),
    Glu "glu" (Glu) -> One = |a| one(nn::glu(&a.x, a.axis)),
    Logmeanexp "logmeanexp" (Logmeanexp) -> One =
        |a| one(nn::logmeanexp(&a.x, a.axis.as_deref(), a.keepdims)),
    Standardize "standardize" (Standardize) -> One = run::standardize,
    DotProductAttention "dotProductAttention" (Attention) -> One =
        |a| one(super::nn::attention::dot_product_attention(a)),
    Ptp "ptp" | CountNonzero "countNonzero" | Nansum "nansum" | Nanprod "nanprod"
        | Nanmax "nanmax" | Nanmin "nanmin" | Nanmean "nanmean" | Nanvar "nanvar"
        | Nanstd "nanstd" (NanReduction) -> One by run::reduction,
    Nanargmax "nanargmax" | Nanargmin "nanargmin" | Nancumsum "nancumsum"
        | Nancumprod "nancumprod" (NanScan) -> One
        by |name, a| one(statistics::nan_scan(name, &a.x, a.axis)),
    CumulativeSum "cumulativeSum" | CumulativeProd "cumulativeProd" (Cumulative) -> One
        by run::cumulative,
    Average "average" (Average) -> One =
        |a| one(statistics::average(&a.x, a.weights.as_deref(), a.axis.as_deref())),
    Allclose "allclose" (Allclose) -> One = |a| one(logic::allclose(&a.a, &a.b, a.rtol, a.atol)),
    ArrayEqual "arrayEqual" | ArrayEquiv "arrayEquiv" (ArrayEqual) -> One
        by |name, a| one(logic::array_equal(name, &a.a, &a.b, a.equal_nan)),
    Cov "cov" | Corrcoef "corrcoef" (Cov) -> One
        by |name, a| one(statistics::cov(name, &a.x, a.y.as_deref(), a.rowvar, a.ddof)),
    Frexp "frexp" (Unary) -> Two = |a| math::frexp(&a.x),
    Modf "modf" (Unary) -> Two = |a| math::modf(&a.x),
    Repeat "repeat" (Repeat) -> One = |a| one(manipulation::repeat(&a.x, a.repeats, a.axis)),
    Roll "roll" (Roll) -> One = |a| one(manipulation::roll(&a.x, &a.shift, a.axis.as_deref())),
    Rot90 "rot90" (Rot90) -> One = run::rot90,
    Append "append" (Append) -> One = |a| one(manipulation::append(&a.x, &a.values, a.axis)),
    Diff "diff" (Diff) -> One = |a| one(differences::diff(&a.x, a.n, a.axis)),
    Ediff1d "ediff1d" (Unary) -> One = run::ediff1d,
    Take "take" (Take) -> One = |a| one(selection::take(&a.x, &a.indices, a.axis)),
    TakeAlongAxis "takeAlongAxis" (TakeAlongAxis) -> One =
        |a| one(selection::take_along_axis(&a.x, &a.indices, a.axis)),
    Meshgrid "meshgrid" (Meshgrid) -> Many =
        |a| selection::meshgrid(&values(&a.arrays), a.indexing == Indexing::Ij),
    BroadcastArrays "broadcastArrays" (ArrayList) -> Many =
        |a| manipulation::broadcast_arrays(&values(&a.arrays)),
    Unstack "unstack" (AxisSplit) -> Many = |a| manipulation::unstack(&a.x, a.axis),
    ArraySplit "arraySplit" (ArraySplit) -> Many = |a| manipulation::array_split(&a.x, a.sections, a.axis),
    Vander "vander" (Vander) -> One = |a| one(matrices::vander(&a.x, a.n, a.increasing)),
    Select "select" (Select) -> One = run::select,
    Isin "isin" (Isin) -> One = |a| one(selection::isin(&a.element, &a.test_elements, a.invert)),
    Trapezoid "trapezoid" (Trapezoid) -> One =
        |a| one(differences::trapezoid(&a.y, a.x.as_deref(), a.dx, a.axis)),
    Window "window" (Window) -> One = |a| one(spaced::window(a.kind, a.m, a.device)),
    Logspace "logspace" (Logspace) -> One = |a| one(spaced::logspace(a)),
    Geomspace "geomspace" (Geomspace) -> One = |a| one(spaced::geomspace(a)),
    Tri "tri" (Tri) -> One = |a| one(spaced::tri(a)),
    Diagflat "diagflat" (Diagflat) -> One = |a| one(super::matrices::diagflat(&a.v, a.k)),
    Tensordot "tensordot" (Tensordot) -> One =
        |a| one(products::tensordot_axes(&a.a, &a.b, a.count, &a.a_axes, &a.b_axes)),
    Inner "inner" | Outer "outer" | Vdot "vdot" | Matvec "matvec" | Vecmat "vecmat"
        | Cross "cross" (Binary) -> One by run::product,
    Vecdot "vecdot" (Vecdot) -> One = |a| one(products::vecdot(&a.a, &a.b, a.axis)),
    Polyval "polyval" | Polyadd "polyadd" | Polysub "polysub" | Polymul "polymul" (Binary)
        -> One by |name, a| one(products::poly(name, &a.a, &a.b)),
    Polyder "polyder" (Polyder) -> One = |a| one(products::polyder(&a.p, a.m)),
    ScatterAdd "scatterAdd" (ScatterAdd) -> One =
        |a| one(random::shuffle::scatter_add(&a.target, &a.indices, &a.updates, a.axis)),
    Unwrap "unwrap" (Unwrap) -> One =
        |a| one(differences::unwrap(&a.p, a.discont, a.axis, a.period)),
    Fft "fft" | Ifft "ifft" (ComplexFft) -> Two by run::complex_fft,
    Irfft "irfft" | Hfft "hfft" (ComplexFft) -> One by run::complex_fft,
    Rfft "rfft" | Ihfft "ihfft" (RealFft) -> Two
        by |name, a| fft::fft(name, &[a.x.0], a.axis, a.n),
    Fftn "fftn" | Ifftn "ifftn" (ComplexFftn) -> Two by run::complex_fftn,
    Irfftn "irfftn" (ComplexFftn) -> One by run::complex_fftn,
    Rfftn "rfftn" (RealFftn) -> Two by |name, a| fft::fftn(name, &[a.x], a.axes.as_deref()),
    Fftshift "fftshift" | Ifftshift "ifftshift" (FftShift) -> One
        by |name, a| one(fft::shift(name, &a.x, a.axes.as_deref())),

    Cauchy "cauchy" | Exponential "exponential" | Gumbel "gumbel" | Laplace "laplace"
        | Logistic "logistic" | Maxwell "maxwell" | Rademacher "rademacher" (Draw) -> One
        by |name, a| run::draw(name, &a.key, &a.shape, []),
    Lognormal "lognormal" (Lognormal) -> One =
        |a| run::draw("lognormal", &a.key, &a.shape, [a.sigma]),
    Rayleigh "rayleigh" (Rayleigh) -> One = |a| run::draw("rayleigh", &a.key, &a.shape, [a.scale]),
    Pareto "pareto" (Pareto) -> One = |a| run::draw("pareto", &a.key, &a.shape, [a.b]),
    Geometric "geometric" (Geometric) -> One = |a| run::draw("geometric", &a.key, &a.shape, [a.p]),
    DoubleSidedMaxwell "doubleSidedMaxwell" (DoubleSidedMaxwell) -> One =
        |a| run::draw("doubleSidedMaxwell", &a.key, &a.shape, [a.loc, a.scale]),
    WeibullMin "weibullMin" (WeibullMin) -> One =
        |a| run::draw("weibullMin", &a.key, &a.shape, [a.scale, a.concentration]),
    Triangular "triangular" (Triangular) -> One =
        |a| run::draw("triangular", &a.key, &a.shape, [a.left, a.mode, a.right]),
    Randint "randint" (Randint) -> One =
        |a| run::draw("randint", &a.key, &a.shape, [a.minval, a.maxval]),
    Ball "ball" (Ball) -> One = |a| one(random::dist::ball(&a.key, a.d, a.p, &a.shape)),
    Categorical "categorical" (Categorical) -> One = |a| one(random::dist::categorical(
        &a.key, &a.logits, a.axis, a.shape.as_deref(), a.replace,
    )),
    MultivariateNormal "multivariateNormal" (MultivariateNormal) -> One =
        |a| one(random::dist::multivariate_normal(&a.key, &a.mean, &a.cov, a.shape.as_deref())),
    PermutationCount "permutation" (PermutationCount) -> One =
        |a| one(random::shuffle::permutation_count(&a.key, a.n)),
    Permutation "permutation" (Permutation) -> One =
        |a| one(random::shuffle::permutation(&a.key, &a.x, a.axis, a.independent)),
    Choice "choice" (Choice) -> One = run::choice,

    Dot "dot" (Dot) -> One = run::dot,
    DynamicSlice "dynamicSlice" (DynamicSlice) -> One =
        |a| one(slicing::dynamic_slice(&a.x, &values(&a.start_indices), &a.slice_sizes)),
    DynamicIndexInDim "dynamicIndexInDim" (DynamicIndexInDim) -> One = run::dynamic_index_in_dim,
    DynamicUpdateSlice "dynamicUpdateSlice" (DynamicUpdateSlice) -> One =
        |a| one(slicing::dynamic_update_slice(&a.dst, &a.src, &a.offset, a.axis)),
    TopK "topK" (TopK) -> Two = |a| indexing::top_k(&a.x, a.k, a.axis),
    Pool "reduceWindow" (Pool) -> One =
        |a| one(super::conv::pool(&a.x, &a.window_dimensions, &a.strides)),
    ConvTranspose "convTranspose" (ConvTranspose) -> One = run::conv_transpose,

    LaxCholesky "cholesky" (LaxCholesky) -> One = run_linalg::lax_cholesky,
    LaxTriangularSolve "triangularSolve" (LaxTriangularSolve) -> One =
        run_linalg::lax_triangular_solve,
    LaxQr "qr" (Qr) -> Two by run_linalg::qr,
    LaxEigh "eigh" (Eigh) -> Two = run_linalg::lax_eigh,
    LaxSvd "svd" (Svd) -> Many by run_linalg::svd,
    LaxLu "lu" (Matrix) -> Three = |a| super::np_solve::lu("lu", &a.a),
    ScipyCholesky "cholesky" (ScipyCholesky) -> One = run_linalg::scipy_cholesky,
    ScipySolveTriangular "solveTriangular" (SolveTriangular) -> One = |a| one(
        lax_linalg::solve_triangular(&a.a, &a.b, a.lower, a.trans, a.unit_diagonal),
    ),
    LinalgCholesky "cholesky" (Cholesky) -> One =
        |a| one(np_linalg::cholesky(&a.a, a.upper, a.symmetrize_input)),
    LinalgVectorNorm "vectorNorm" (VectorNorm) -> One = run_linalg::vector_norm,
    LinalgMatrixNorm "matrixNorm" (MatrixNorm) -> One = run_linalg::matrix_norm,
    LinalgNorm "norm" (Norm) -> One = run_linalg::norm,
    LinalgCross "cross" (Cross) -> One = |a| one(np_norms::cross(&a.a, &a.b, a.axis)),
    LinalgMultiDot "multiDot" (MatrixList) -> One = |a| one(np_norms::multi_dot(&a.arrays)),
    LinalgMatrixPower "matrixPower" (MatrixPower) -> One =
        |a| one(np_norms::matrix_power(&a.a, a.n)),
    LinalgLstsq "lstsq" (MatrixPair) -> One = |a| one(np_norms::lstsq(&a.a, &a.b)),
    LinalgQr "qr" (Qr) -> Two by run_linalg::qr,
    LinalgEigh "eigh" (Eigh) -> Two = run_linalg::numpy_eigh,
    LinalgEigvalsh "eigvalsh" (Eigh) -> One = run_linalg::eigvalsh,
    LinalgSvd "svd" (Svd) -> Many by run_linalg::svd,
    LinalgSvdvals "svdvals" (Matrix) -> One = |a| np_svd::svd("svdvals", &a.a, false, false),
    LinalgSolve "solve" (MatrixPair) -> One = |a| one(np_solve::solve("solve", &a.a, &a.b)),
    LinalgInv "inv" (Matrix) -> One = |a| one(np_solve::inv(&a.a)),
    LinalgDet "det" (Matrix) -> One = |a| one(np_solve::det(&a.a)),
    LinalgSlogdet "slogdet" (Matrix) -> Two = |a| np_solve::slogdet(&a.a),
}

impl CallId {
    /// Linear algebra: float16 operands are computed in float32 (`half::in_f32`).
    fn widens_f16(self) -> bool {
        self as usize >= CallId::LaxCholesky as usize
    }
}

/// Runs library function `id` on `arrays` (its array arguments in field order) with `nums`
/// (its other arguments, laid out as `args` describes).
/// Called eagerly, the composition runs as a cached compiled program from its second call with
/// the same arguments' avals and numbers (`transform::eager_jit`).
pub fn call(id: CallId, arrays: &[Value], nums: &[f64]) -> Result<Vec<Value>> {
    let decode_and_run = |arrays: &[Value]| id.run(&mut Reader::new(id.name(), arrays, nums));
    let run = |arrays: &[Value]| {
        if id.widens_f16() {
            super::half::in_f32(arrays, decode_and_run)
        } else {
            decode_and_run(arrays)
        }
    };
    let mut params = Vec::with_capacity(nums.len() + 1);
    params.push(id as usize as f64);
    params.extend_from_slice(nums);
    let outs = eager_jit::run("libCall", &params, arrays, run)?;
    if !id.out().accepts(outs.len()) {
        let problem = format!("returned {} results, expected {:?}", outs.len(), id.out());
        return Err(Error::new(id.name(), problem));
    }
    Ok(outs)
}

pub(super) fn one(v: Result<Value>) -> Result<Vec<Value>> {
    v.map(|v| vec![v])
}

/// The values of array arguments.
pub(super) fn values(xs: &[ArrayLike]) -> Vec<Value> {
    xs.iter().map(|x| x.0.clone()).collect()
}

#[cfg(test)]
mod tests {
    use super::super::call_args::ARGS;
    use super::CALLS;

    const GENERATED: &str = "js/lib-calls.ts";

    /// `js/lib-calls.ts` is rendered from the declarations; with `OXJAX_WRITE_LIB_CALLS=1`
    /// (`node scripts/gen_lib_calls.mjs`) this test writes it instead.
    #[test]
    fn typescript_call_layer_is_current() {
        let text = super::super::signature::typescript(ARGS, CALLS);
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(GENERATED);
        if std::env::var_os("OXJAX_WRITE_LIB_CALLS").is_some() {
            std::fs::write(&path, &text).unwrap();
        }
        let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            on_disk == text,
            "{GENERATED} is stale: run `node scripts/gen_lib_calls.mjs`"
        );
    }

    #[test]
    fn every_argument_struct_is_used_and_ids_round_trip() {
        for a in ARGS {
            assert!(
                CALLS.iter().any(|c| c.args == a.name),
                "argument struct {} has no call",
                a.name
            );
        }
        for (i, c) in CALLS.iter().enumerate() {
            let id = super::CallId::from_index(i as u32).unwrap();
            assert_eq!(id.name(), c.name);
        }
        assert!(super::CallId::from_index(CALLS.len() as u32).is_none());
    }
}
