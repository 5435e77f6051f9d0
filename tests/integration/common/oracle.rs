//! The results of a corpus case computed without its kernel: from the case's `Spec`, with Rust's
//! native arithmetic in the operand dtype (float32 in f32, whose +, −, ×, ÷, % and sqrt are
//! correctly rounded) and the meaning the Kernel IR gives each operation: integer arithmetic
//! wraps, integer ÷ and % by zero give 0, shift amounts are taken mod 32, float min/max
//! propagate NaN, float → integer casts truncate and saturate (NaN → 0), → bool is `!= 0`
//! (NaN → true), int32 ↔ uint32 keep the bits, bitcasts keep the bits. Float sums and
//! products accumulate in f64 in index order. Transcendentals come from
//! `tests/data/corpus_transcendentals.tsv` (mpmath, rounded once to float64; written by
//! `scripts/gen_corpus_transcendentals.py`).

use oxjax::core::DType;
use oxjax::kernel::{BinaryOp, CompareOp, ReduceOp, ThreefryMode, UnaryOp};

use super::corpus::{Case, Spec, N};

/// One element of a dtype.
#[derive(Debug, Clone, Copy)]
enum V {
    B(bool),
    U(u32),
    I(i32),
    F(f32),
    D(f64),
}

fn elements(dtype: DType, bytes: &[u8]) -> Vec<V> {
    bytes
        .chunks_exact(dtype.byte_size())
        .map(|b| {
            let w = || u32::from_le_bytes(b[..4].try_into().unwrap());
            match dtype {
                DType::Bool => V::B(w() != 0),
                DType::Uint32 => V::U(w()),
                DType::Int32 => V::I(w() as i32),
                DType::Float32 => V::F(f32::from_bits(w())),
                DType::Float64 => V::D(f64::from_le_bytes(b.try_into().unwrap())),
                DType::Float16 => unimplemented!("no float16 in the corpus"),
            }
        })
        .collect()
}

fn bytes(values: &[V]) -> Vec<u8> {
    let mut out = Vec::new();
    for v in values {
        match *v {
            V::B(x) => out.extend_from_slice(&u32::from(x).to_le_bytes()),
            V::U(x) => out.extend_from_slice(&x.to_le_bytes()),
            V::I(x) => out.extend_from_slice(&x.to_le_bytes()),
            V::F(x) => out.extend_from_slice(&x.to_le_bytes()),
            V::D(x) => out.extend_from_slice(&x.to_le_bytes()),
        }
    }
    out
}

/// The expected output bytes of `case` and the units in the last place its float results may
/// differ by (0 where they must match bit for bit).
pub fn expected(case: &Case) -> (Vec<u8>, u64) {
    let ins: Vec<Vec<V>> = case
        .kernel
        .inputs
        .iter()
        .zip(&case.inputs)
        .map(|(&d, b)| elements(d, b))
        .collect();
    let each = |f: &dyn Fn(usize) -> V| (0..case.kernel.size).map(f).collect::<Vec<V>>();
    let spec = case
        .spec
        .unwrap_or_else(|| panic!("{}: not a corpus case", case.name));
    let (values, ulps) = match spec {
        Spec::Unary(op, dtype) if transcendental(op) => return table(op, dtype, &ins[0]),
        Spec::Unary(op, _) => (each(&|i| unary(op, ins[0][i])), 0),
        Spec::Binary(op, _) => (each(&|i| binary(op, ins[0][i], ins[1][i])), 0),
        Spec::Compare(op, _) => (each(&|i| V::B(compare(op, ins[0][i], ins[1][i]))), 0),
        Spec::Where(_) => (
            each(&|i| match ins[0][i] {
                V::B(true) => ins[1][i],
                _ => ins[2][i],
            }),
            0,
        ),
        Spec::Cast(_, to) => (each(&|i| cast(ins[0][i], to)), 0),
        Spec::Bitcast(_, to) => (each(&|i| bitcast(ins[0][i], to)), 0),
        Spec::GuardedLoad => (
            each(&|i| if 3 * i < N { ins[0][3 * i] } else { V::F(-1.0) }),
            0,
        ),
        Spec::Reduce(op, dtype) => (each(&|i| reduce(op, dtype, &ins[0][8 * i..8 * i + 8])), 4),
        Spec::Threefry(mode) => (
            each(&|i| {
                let [k0, k1, c0, c1] = [0, 1, 2, 3].map(|j| word(ins[j][i]));
                V::U(pick(mode, threefry([k0, k1], [c0, c1])))
            }),
            0,
        ),
        Spec::ThreefryKeyed(mode) => (
            each(&|i| {
                let key = [word(ins[0][0]), word(ins[0][1])];
                V::U(pick(mode, threefry(key, [0, i as u32])))
            }),
            0,
        ),
    };
    (bytes(&values), ulps)
}

fn word(v: V) -> u32 {
    match v {
        V::U(w) => w,
        other => panic!("threefry of {other:?}"),
    }
}

fn pick(mode: ThreefryMode, [x0, x1]: [u32; 2]) -> u32 {
    match mode {
        ThreefryMode::Xor => x0 ^ x1,
        ThreefryMode::Word0 => x0,
        ThreefryMode::Word1 => x1,
    }
}

/// threefry2x32 with 20 rounds as Random123's `threefry.h` writes it: the rotation of round
/// `r` is `R[r % 8]`, and after every fourth round the key schedule's next injection `s`
/// adds key words `s % 3` and `(s + 1) % 3` and `s` itself.
fn threefry(k: [u32; 2], c: [u32; 2]) -> [u32; 2] {
    const R: [u32; 8] = [13, 15, 26, 6, 17, 29, 16, 24];
    let ks = [k[0], k[1], 0x1BD1_1BDA ^ k[0] ^ k[1]];
    let (mut x0, mut x1) = (c[0].wrapping_add(ks[0]), c[1].wrapping_add(ks[1]));
    for round in 0..20 {
        x0 = x0.wrapping_add(x1);
        x1 = x1.rotate_left(R[round % 8]) ^ x0;
        if round % 4 == 3 {
            let s = round / 4 + 1;
            x0 = x0.wrapping_add(ks[s % 3]);
            x1 = x1.wrapping_add(ks[(s + 1) % 3]).wrapping_add(s as u32);
        }
    }
    [x0, x1]
}

fn transcendental(op: UnaryOp) -> bool {
    use UnaryOp::*;
    matches!(op, Exp | Log | Sin | Cos | Asin | Atan | Tanh | Erf | Erfc)
}

fn unary(op: UnaryOp, a: V) -> V {
    use UnaryOp::*;
    match (op, a) {
        (Neg, V::F(x)) => V::F(-x),
        (Neg, V::D(x)) => V::D(-x),
        (Neg, V::I(x)) => V::I(x.wrapping_neg()),
        (Neg, V::U(x)) => V::U(x.wrapping_neg()),
        (Abs, V::F(x)) => V::F(x.abs()),
        (Abs, V::D(x)) => V::D(x.abs()),
        (Abs, V::I(x)) => V::I(x.wrapping_abs()),
        (Abs, V::U(x)) => V::U(x),
        (Not, V::B(x)) => V::B(!x),
        (Not, V::I(x)) => V::I(!x),
        (Not, V::U(x)) => V::U(!x),
        (Reciprocal, V::F(x)) => V::F(1.0 / x),
        (Reciprocal, V::D(x)) => V::D(1.0 / x),
        (Floor, V::F(x)) => V::F(x.floor()),
        (Floor, V::D(x)) => V::D(x.floor()),
        (Ceil, V::F(x)) => V::F(x.ceil()),
        (Ceil, V::D(x)) => V::D(x.ceil()),
        (RoundEven, V::F(x)) => V::F(x.round_ties_even()),
        (RoundEven, V::D(x)) => V::D(x.round_ties_even()),
        (Sqrt, V::F(x)) => V::F(x.sqrt()),
        (Sqrt, V::D(x)) => V::D(x.sqrt()),
        _ => panic!("no oracle for {op:?} of {a:?}"),
    }
}

/// Float min/max that propagate NaN.
fn float_min_max(op: BinaryOp, x: f64, y: f64) -> f64 {
    match () {
        _ if x.is_nan() || y.is_nan() => f64::NAN,
        _ if (op == BinaryOp::Min) == (x < y) => x,
        _ => y,
    }
}

fn binary(op: BinaryOp, a: V, b: V) -> V {
    use BinaryOp::*;
    match (a, b) {
        (V::F(x), V::F(y)) => V::F(match op {
            Add => x + y,
            Sub => x - y,
            Mul => x * y,
            Div => x / y,
            Rem => x % y,
            Min | Max => float_min_max(op, x as f64, y as f64) as f32,
            _ => panic!("no oracle for {op:?} of float32"),
        }),
        (V::D(x), V::D(y)) => V::D(match op {
            Add => x + y,
            Sub => x - y,
            Mul => x * y,
            Div => x / y,
            Rem => x % y,
            Min | Max => float_min_max(op, x, y),
            _ => panic!("no oracle for {op:?} of float64"),
        }),
        (V::I(x), V::I(y)) => V::I(match op {
            Add => x.wrapping_add(y),
            Sub => x.wrapping_sub(y),
            Mul => x.wrapping_mul(y),
            Div | Rem if y == 0 => 0,
            Div => x.wrapping_div(y),
            Rem => x.wrapping_rem(y),
            Min => x.min(y),
            Max => x.max(y),
            And => x & y,
            Or => x | y,
            Xor => x ^ y,
            Shl => x.wrapping_shl(y as u32),
            Shr => x.wrapping_shr(y as u32),
        }),
        (V::U(x), V::U(y)) => V::U(match op {
            Add => x.wrapping_add(y),
            Sub => x.wrapping_sub(y),
            Mul => x.wrapping_mul(y),
            Div | Rem if y == 0 => 0,
            Div => x / y,
            Rem => x % y,
            Min => x.min(y),
            Max => x.max(y),
            And => x & y,
            Or => x | y,
            Xor => x ^ y,
            Shl => x.wrapping_shl(y),
            Shr => x.wrapping_shr(y),
        }),
        (V::B(x), V::B(y)) => V::B(match op {
            And => x & y,
            Or => x | y,
            Xor => x ^ y,
            _ => panic!("no oracle for {op:?} of bool"),
        }),
        _ => panic!("no oracle for {op:?} of {a:?}, {b:?}"),
    }
}

fn compare(op: CompareOp, a: V, b: V) -> bool {
    let ord = match (a, b) {
        (V::B(x), V::B(y)) => x.partial_cmp(&y),
        (V::U(x), V::U(y)) => x.partial_cmp(&y),
        (V::I(x), V::I(y)) => x.partial_cmp(&y),
        (V::F(x), V::F(y)) => x.partial_cmp(&y),
        (V::D(x), V::D(y)) => x.partial_cmp(&y),
        _ => panic!("no oracle for {op:?} of {a:?}, {b:?}"),
    };
    use std::cmp::Ordering::{Equal, Less};
    match op {
        CompareOp::Lt => ord == Some(Less),
        CompareOp::Le => matches!(ord, Some(Less | Equal)),
        CompareOp::Eq => ord == Some(Equal),
        CompareOp::Ne => ord != Some(Equal),
    }
}

fn cast(a: V, to: DType) -> V {
    if to == DType::Bool {
        return V::B(match a {
            V::B(x) => x,
            V::U(x) => x != 0,
            V::I(x) => x != 0,
            V::F(x) => x != 0.0,
            V::D(x) => x != 0.0,
        });
    }
    // Rust's `as` is the IR's conversion: round to nearest into floats; truncate and saturate
    // into integers, NaN → 0; keep the bits between int32 and uint32.
    macro_rules! to {
        ($x:expr) => {
            match to {
                DType::Uint32 => V::U($x as u32),
                DType::Int32 => V::I($x as i32),
                DType::Float32 => V::F($x as f32),
                DType::Float64 => V::D($x as f64),
                _ => panic!("no oracle for a cast to {to:?}"),
            }
        };
    }
    match a {
        V::B(x) => to!(u8::from(x)),
        V::U(x) => to!(x),
        V::I(x) => to!(x),
        V::F(x) => to!(x),
        V::D(x) => to!(x),
    }
}

fn bitcast(a: V, to: DType) -> V {
    let bits = match a {
        V::U(x) => x,
        V::I(x) => x as u32,
        V::F(x) => x.to_bits(),
        _ => panic!("no oracle for a bitcast of {a:?}"),
    };
    match to {
        DType::Uint32 => V::U(bits),
        DType::Int32 => V::I(bits as i32),
        DType::Float32 => V::F(f32::from_bits(bits)),
        _ => panic!("no oracle for a bitcast to {to:?}"),
    }
}

fn reduce(op: ReduceOp, dtype: DType, xs: &[V]) -> V {
    let float = |x: &V| match *x {
        V::F(x) => x as f64,
        V::D(x) => x,
        _ => unreachable!(),
    };
    let combine = |f: fn(V, V) -> V| xs[1..].iter().fold(xs[0], |acc, &x| f(acc, x));
    let rounded = |v: f64| match dtype {
        DType::Float32 => V::F(v as f32),
        _ => V::D(v),
    };
    match (op, dtype.is_float()) {
        (ReduceOp::Sum, true) => rounded(xs.iter().map(float).fold(0.0, |a, x| a + x)),
        (ReduceOp::Prod, true) => rounded(xs.iter().map(float).fold(1.0, |a, x| a * x)),
        (ReduceOp::Sum, false) => combine(|a, b| binary(BinaryOp::Add, a, b)),
        (ReduceOp::Prod, false) => combine(|a, b| binary(BinaryOp::Mul, a, b)),
        (ReduceOp::Max, _) if dtype == DType::Bool => combine(|a, b| binary(BinaryOp::Or, a, b)),
        (ReduceOp::Min, _) if dtype == DType::Bool => combine(|a, b| binary(BinaryOp::And, a, b)),
        (ReduceOp::Max, _) => combine(|a, b| binary(BinaryOp::Max, a, b)),
        (ReduceOp::Min, _) => combine(|a, b| binary(BinaryOp::Min, a, b)),
    }
}

const TRANSCENDENTALS: &str = include_str!("../../data/corpus_transcendentals.tsv");

fn number(text: &str) -> f64 {
    match text {
        "nan" => f64::NAN,
        "inf" => f64::INFINITY,
        "-inf" => f64::NEG_INFINITY,
        _ => text.parse().unwrap_or_else(|e| panic!("{text}: {e}")),
    }
}

/// The results of a transcendental case from the checked-in table, after checking that the
/// table's inputs are the case's. Tolerances: float32 within 1 ulp of the correctly rounded
/// result; float64 within 2 ulp (erf and erfc, summed as series in f64: 16 ulp).
fn table(op: UnaryOp, dtype: DType, ins: &[V]) -> (Vec<u8>, u64) {
    let (dname, oname) = (format!("{dtype:?}"), format!("{op:?}"));
    let mut out = Vec::new();
    for line in TRANSCENDENTALS.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        if f[0] != dname || f[1] != oname {
            continue;
        }
        let (i, x, y) = (f[2].parse::<usize>().unwrap(), number(f[3]), number(f[4]));
        let input = match ins[i] {
            V::F(v) => v as f64,
            V::D(v) => v,
            other => panic!("{oname} of {other:?}"),
        };
        assert!(
            input.to_bits() == x.to_bits() || (input.is_nan() && x.is_nan()),
            "corpus_transcendentals.tsv is stale: {dname} {oname} input {i} is {x}, the corpus has {input}"
        );
        out.push(match dtype {
            DType::Float32 => V::F(y as f32),
            _ => V::D(y),
        });
    }
    assert_eq!(out.len(), ins.len(), "{dname} {oname}: rows in the table");
    let ulps = match (dtype, op) {
        (DType::Float32, _) => 1,
        (_, UnaryOp::Erf | UnaryOp::Erfc) => 16,
        _ => 2,
    };
    (bytes(&out), ulps)
}
