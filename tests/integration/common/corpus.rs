//! A corpus of kernels covering every node of the Kernel IR on every dtype it is defined for,
//! with input data that includes the awkward values (NaN, ±∞, ±0, extremes, division by zero).
//! Each case also says what it computes (`Spec`), so `oracle` can compute its results without
//! the kernel; the cpu interpreter is checked against that oracle, and the other backends
//! against the cpu interpreter.

use oxjax::core::DType;
use oxjax::kernel::{
    AluExp, BinaryOp, CompareOp, Kernel, ReduceOp, Reduction, ThreefryMode, UnaryOp,
};

use super::encode;

/// What a case computes, independently of its kernel: the operation and its operand dtype
/// (for casts and bitcasts the source and target dtypes).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Spec {
    Unary(UnaryOp, DType),
    Binary(BinaryOp, DType),
    Compare(CompareOp, DType),
    /// `where(cond: bool, x, y)` on x and y of this dtype.
    Where(DType),
    Cast(DType, DType),
    Bitcast(DType, DType),
    /// `out[i] = 3i < N ? in[3i] : -1` on float32.
    GuardedLoad,
    /// `out[i] = op over r < 8 of in[8i + r]`.
    Reduce(ReduceOp, DType),
    /// threefry2x32 of four uint32 inputs `(k0, k1, c0, c1)`, elementwise.
    Threefry(ThreefryMode),
    /// threefry2x32 with key `(in[0], in[1])` on counter `(0, i)` (uint32): `random.bits`.
    ThreefryKeyed(ThreefryMode),
}

/// One test case: a name, what it computes, a kernel and its input buffers.
pub struct Case {
    pub name: String,
    /// `None` for cases made outside the corpus, which are checked against the interpreter only.
    pub spec: Option<Spec>,
    pub kernel: Kernel,
    pub inputs: Vec<Vec<u8>>,
    /// Transcendental results may differ from the cpu interpreter by a few ulp; exact ops must
    /// match bit for bit.
    pub exact: bool,
}

pub const N: usize = 64;

/// Test values of a dtype: special values first, then a deterministic spread.
pub fn sample(dtype: DType, seed: u32) -> Vec<f64> {
    let special: Vec<f64> = match dtype {
        DType::Float32 | DType::Float64 | DType::Float16 => vec![
            0.0,
            -0.0,
            1.0,
            -1.0,
            0.5,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            1e-30,
            -3.5,
            100.25,
            1e30,
        ],
        DType::Int32 => vec![
            0.0,
            1.0,
            -1.0,
            i32::MAX as f64,
            i32::MIN as f64,
            7.0,
            -7.0,
            31.0,
        ],
        DType::Uint32 => vec![0.0, 1.0, u32::MAX as f64, 7.0, 31.0, 2147483648.0],
        DType::Bool => vec![0.0, 1.0],
    };
    let mut state = seed.wrapping_mul(2654435761).wrapping_add(12345);
    let mut out = special;
    while out.len() < N {
        state = state.wrapping_mul(1664525).wrapping_add(1013904223);
        let unit = (state >> 8) as f64 / (1u32 << 24) as f64; // [0, 1)
        out.push(match dtype {
            DType::Bool => (unit < 0.5) as u32 as f64,
            DType::Uint32 => (unit * 1000.0).floor(),
            DType::Int32 => (unit * 2000.0 - 1000.0).floor(),
            _ => {
                (unit * 20.0 - 10.0)
                    * if out.len().is_multiple_of(3) {
                        0.01
                    } else {
                        1.0
                    }
            }
        });
    }
    out.truncate(N);
    out
}

fn case(name: String, spec: Spec, inputs: &[DType], exp: AluExp, exact: bool) -> Case {
    let data = inputs
        .iter()
        .enumerate()
        .map(|(i, &d)| encode(d, &sample(d, i as u32 + 1)));
    Case {
        name,
        spec: Some(spec),
        kernel: Kernel::elementwise(inputs.to_vec(), N, exp),
        inputs: data.collect(),
        exact,
    }
}

fn load(dtype: DType, input: usize) -> AluExp {
    AluExp::load(dtype, input, AluExp::index())
}

const FLOATS: [DType; 2] = [DType::Float32, DType::Float64];
const NUMERIC: [DType; 4] = [DType::Float32, DType::Float64, DType::Int32, DType::Uint32];
const ALL: [DType; 5] = [
    DType::Float32,
    DType::Float64,
    DType::Int32,
    DType::Uint32,
    DType::Bool,
];

/// Every IR node on every dtype it is defined for. `dtypes` filters the dtypes a backend
/// supports (e.g. no float64 on WebGPU).
pub fn corpus(supported: &[DType]) -> Vec<Case> {
    let ok = |d: &DType| supported.contains(d);
    let mut cases = Vec::new();
    use UnaryOp::*;
    for op in [
        Neg, Abs, Reciprocal, Floor, Ceil, RoundEven, Sqrt, Exp, Log, Sin, Cos, Asin, Atan, Tanh,
        Erf, Erfc,
    ] {
        for d in FLOATS.iter().filter(|d| ok(d)) {
            let exact = matches!(op, Neg | Abs | Reciprocal | Floor | Ceil | RoundEven | Sqrt);
            cases.push(case(
                format!("{op:?} {d:?}"),
                Spec::Unary(op, *d),
                &[*d],
                AluExp::unary(op, load(*d, 0)),
                exact,
            ));
        }
    }
    for op in [Neg, Abs, Not] {
        for d in [DType::Int32, DType::Uint32].iter().filter(|d| ok(d)) {
            cases.push(case(
                format!("{op:?} {d:?}"),
                Spec::Unary(op, *d),
                &[*d],
                AluExp::unary(op, load(*d, 0)),
                true,
            ));
        }
    }
    cases.push(case(
        "Not Bool".into(),
        Spec::Unary(Not, DType::Bool),
        &[DType::Bool],
        AluExp::unary(Not, load(DType::Bool, 0)),
        true,
    ));
    use BinaryOp::*;
    for op in [Add, Sub, Mul, Div, Rem, Min, Max] {
        for d in NUMERIC.iter().filter(|d| ok(d)) {
            let exp = AluExp::binary(op, load(*d, 0), load(*d, 1));
            let spec = Spec::Binary(op, *d);
            cases.push(case(format!("{op:?} {d:?}"), spec, &[*d, *d], exp, true));
        }
    }
    for op in [And, Or, Xor] {
        for d in [DType::Int32, DType::Uint32, DType::Bool]
            .iter()
            .filter(|d| ok(d))
        {
            let exp = AluExp::binary(op, load(*d, 0), load(*d, 1));
            let spec = Spec::Binary(op, *d);
            cases.push(case(format!("{op:?} {d:?}"), spec, &[*d, *d], exp, true));
        }
    }
    for op in [Shl, Shr] {
        for d in [DType::Int32, DType::Uint32].iter().filter(|d| ok(d)) {
            let exp = AluExp::binary(op, load(*d, 0), load(*d, 1));
            let spec = Spec::Binary(op, *d);
            cases.push(case(format!("{op:?} {d:?}"), spec, &[*d, *d], exp, true));
        }
    }
    for op in [CompareOp::Lt, CompareOp::Le, CompareOp::Eq, CompareOp::Ne] {
        for d in ALL.iter().filter(|d| ok(d)) {
            let exp = AluExp::compare(op, load(*d, 0), load(*d, 1));
            let spec = Spec::Compare(op, *d);
            cases.push(case(format!("{op:?} {d:?}"), spec, &[*d, *d], exp, true));
        }
    }
    for d in ALL.iter().filter(|d| ok(d)) {
        let exp = AluExp::where_(load(DType::Bool, 0), load(*d, 1), load(*d, 2));
        cases.push(case(
            format!("Where {d:?}"),
            Spec::Where(*d),
            &[DType::Bool, *d, *d],
            exp,
            true,
        ));
        for to in ALL.iter().filter(|t| ok(t) && *t != d) {
            let exp = AluExp::cast(load(*d, 0), *to);
            let spec = Spec::Cast(*d, *to);
            cases.push(case(
                format!("Cast {d:?} -> {to:?}"),
                spec,
                &[*d],
                exp,
                true,
            ));
        }
    }
    for (from, to) in [
        (DType::Float32, DType::Int32),
        (DType::Int32, DType::Float32),
        (DType::Uint32, DType::Int32),
        (DType::Float32, DType::Uint32),
    ] {
        if ok(&from) && ok(&to) {
            let exp = AluExp::bitcast(load(from, 0), to);
            cases.push(case(
                format!("Bitcast {from:?} -> {to:?}"),
                Spec::Bitcast(from, to),
                &[from],
                exp,
                true,
            ));
        }
    }
    if ok(&DType::Uint32) {
        threefry_cases(&mut cases);
    }
    // A guarded load: out of range indices are never read.
    if ok(&DType::Float32) {
        let idx = AluExp::binary(
            BinaryOp::Mul,
            AluExp::index(),
            AluExp::constant(DType::Int32, 3.0),
        );
        let inside = AluExp::compare(
            CompareOp::Lt,
            idx.clone(),
            AluExp::constant(DType::Int32, N as f64),
        );
        let exp = AluExp::where_(
            inside,
            AluExp::load(DType::Float32, 0, idx),
            AluExp::constant(DType::Float32, -1.0),
        );
        let spec = Spec::GuardedLoad;
        cases.push(case(
            "guarded load".into(),
            spec,
            &[DType::Float32],
            exp,
            true,
        ));
    }
    // Reductions: out[i] = op over r of in[i * R + r], with R = 8 (8 outputs of 8).
    for op in [ReduceOp::Sum, ReduceOp::Prod, ReduceOp::Max, ReduceOp::Min] {
        for d in ALL.iter().filter(|d| ok(d)) {
            if *d == DType::Bool && matches!(op, ReduceOp::Sum | ReduceOp::Prod) {
                continue;
            }
            let idx = AluExp::binary(
                BinaryOp::Add,
                AluExp::binary(
                    BinaryOp::Mul,
                    AluExp::index(),
                    AluExp::constant(DType::Int32, 8.0),
                ),
                AluExp::reduce_index(),
            );
            let mut c = case(
                format!("Reduce {op:?} {d:?}"),
                Spec::Reduce(op, *d),
                &[*d],
                AluExp::load(*d, 0, idx),
                true,
            );
            c.kernel.size = N / 8;
            c.kernel.reduction = Some(Reduction { op, size: 8 });
            // Float sums may be accumulated in another order or precision than the oracle's.
            c.exact = !(d.is_float() && matches!(op, ReduceOp::Sum | ReduceOp::Prod));
            cases.push(c);
        }
    }
    cases
}

/// threefry2x32 in every mode: on four varying operands, and with a uniform key on counters
/// `(0, i)` (a constant word and the output index), as random draws use it.
fn threefry_cases(cases: &mut Vec<Case>) {
    let u = DType::Uint32;
    for mode in [ThreefryMode::Xor, ThreefryMode::Word0, ThreefryMode::Word1] {
        let exp = AluExp::threefry(mode, [load(u, 0), load(u, 1), load(u, 2), load(u, 3)]);
        let spec = Spec::Threefry(mode);
        cases.push(case(format!("Threefry {mode:?}"), spec, &[u; 4], exp, true));
        let word = |k: f64| AluExp::load(u, 0, AluExp::constant(DType::Int32, k));
        let operands = [
            word(0.0),
            word(1.0),
            AluExp::constant(u, 0.0),
            AluExp::cast(AluExp::index(), u),
        ];
        let exp = AluExp::threefry(mode, operands);
        let spec = Spec::ThreefryKeyed(mode);
        cases.push(case(
            format!("Threefry {mode:?} keyed"),
            spec,
            &[u],
            exp,
            true,
        ));
    }
}

/// Compares a backend's output with the cpu interpreter's: bit for bit for exact cases (NaNs
/// compare equal to any NaN), within `ulps` units in the last place otherwise.
pub fn check(case: &Case, got: &[u8], want: &[u8], ulps: u64) -> Result<(), String> {
    let dtype = case.kernel.output_dtype();
    let n = dtype.byte_size();
    for i in 0..case.kernel.size {
        let (g, w) = (&got[i * n..(i + 1) * n], &want[i * n..(i + 1) * n]);
        let ok = match dtype {
            DType::Float32 => {
                let (g, w) = (
                    f32::from_le_bytes(g.try_into().unwrap()),
                    f32::from_le_bytes(w.try_into().unwrap()),
                );
                (g.is_nan() && w.is_nan())
                    || g.to_bits() == w.to_bits()
                    || (!case.exact
                        && (g.to_bits() as i64 - w.to_bits() as i64).unsigned_abs() <= ulps)
            }
            DType::Float64 => {
                let (g, w) = (
                    f64::from_le_bytes(g.try_into().unwrap()),
                    f64::from_le_bytes(w.try_into().unwrap()),
                );
                (g.is_nan() && w.is_nan())
                    || g.to_bits() == w.to_bits()
                    || (!case.exact
                        && (g.to_bits() as i128 - w.to_bits() as i128).unsigned_abs()
                            <= ulps as u128)
            }
            _ => g == w,
        };
        if !ok {
            return Err(format!("{}: element {i}: got {g:?}, want {w:?}", case.name));
        }
    }
    Ok(())
}
