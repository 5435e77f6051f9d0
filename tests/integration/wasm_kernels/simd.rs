//! The SIMD paths of the wasm emitter against the cpu interpreter on randomized shapes:
//! contiguous blocks with scalar tails, broadcasting (uniform and strided loads), transposed,
//! sliced and padded views, size-0 and size-1 dims, every dtype, reductions over contiguous
//! axes (lane-blocked order, `kernel::order`) and over outer axes (vectorized over outputs),
//! threefry2x32, and matmuls. Results must be bit-identical: exact operations, and float sums in the order
//! the kernel defines.

use oxjax::core::{DType, Device, Primitive};
use oxjax::kernel::{BinaryOp, CompareOp, ReduceOp, ThreefryMode, UnaryOp};
use oxjax::transform::{eval, ArrayValue};
use wasm_bindgen_test::wasm_bindgen_test;

use crate::common::encode;

/// xorshift64*: reproducible randomness without a dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())]
    }

    fn dim(&mut self) -> usize {
        self.pick(&[
            0, 1, 1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 31, 32, 33, 48, 64, 100,
        ])
    }

    fn values(&mut self, dtype: DType, n: usize) -> Vec<f64> {
        (0..n)
            .map(|_| {
                let r = self.below(1000) as f64;
                match dtype {
                    DType::Bool => (r as u64 % 2) as f64,
                    DType::Uint32 => r * 4_294_967.0 + (r % 3.0),
                    DType::Int32 => (r - 500.0) * 3_000_000.0 + (r % 7.0),
                    _ => match self.below(40) {
                        0 => f64::NAN,
                        1 => -0.0,
                        2 => f64::INFINITY,
                        _ => (r - 500.0) / 7.0,
                    },
                }
            })
            .collect()
    }
}

const DTYPES: [DType; 5] = [
    DType::Float32,
    DType::Float64,
    DType::Int32,
    DType::Uint32,
    DType::Bool,
];

/// A program over arrays: each step applies a primitive to earlier values.
type Program = Vec<(Primitive, Vec<usize>)>;

/// Runs `program` on `device` from inputs (shape, dtype, values); returns the last value's
/// dtype and bytes, or the error (which both devices must agree on).
fn run(
    device: Device,
    inputs: &[(Vec<usize>, DType, Vec<f64>)],
    program: &Program,
) -> Result<(DType, Vec<u8>), String> {
    let mut vals: Vec<ArrayValue> = inputs
        .iter()
        .map(|(shape, dtype, v)| {
            ArrayValue::from_bytes("t", &encode(*dtype, v), shape.clone(), *dtype, device).unwrap()
        })
        .collect();
    for (prim, args) in program {
        let refs: Vec<&ArrayValue> = args.iter().map(|&i| &vals[i]).collect();
        vals.push(eval::apply(prim, &refs).map_err(|e| e.to_string())?);
    }
    let last = vals.last().unwrap();
    Ok((last.aval.dtype, last.read_sync("t").unwrap()))
}

/// Element `k` as a comparable key: its bits, with every NaN alike (the sign of a NaN made by
/// an invalid operation is not specified by IEEE or wasm).
fn key(dtype: DType, bytes: &[u8], k: usize) -> u64 {
    match dtype {
        DType::Float64 => {
            let x = f64::from_le_bytes(bytes[k * 8..k * 8 + 8].try_into().unwrap());
            if x.is_nan() {
                u64::MAX
            } else {
                x.to_bits()
            }
        }
        _ => {
            let w = u32::from_le_bytes(bytes[k * 4..k * 4 + 4].try_into().unwrap());
            let nan = dtype == DType::Float32 && f32::from_bits(w).is_nan();
            if nan {
                u64::MAX
            } else {
                u64::from(w)
            }
        }
    }
}

fn same_on_both(what: &str, inputs: &[(Vec<usize>, DType, Vec<f64>)], program: &Program) {
    within_on_both(what, inputs, program, 0);
}

/// A float32 value's position in the ordered sequence of float32 values.
fn order32(x: f32) -> i64 {
    let b = x.to_bits() as i32 as i64;
    if b < 0 {
        i64::from(i32::MIN) - b
    } else {
        b
    }
}

/// Whether element `k` agrees: bit for bit, or (float values that came from float32, with
/// `f32_ulps` > 0) within that many float32 ulps.
fn agrees(dtype: DType, got: &[u8], want: &[u8], k: usize, f32_ulps: u64) -> bool {
    let (g, w) = (key(dtype, got, k), key(dtype, want, k));
    if g == w {
        return true;
    }
    let as_f32 = |bytes: &[u8]| match dtype {
        DType::Float32 => Some(f32::from_le_bytes(
            bytes[k * 4..k * 4 + 4].try_into().unwrap(),
        )),
        DType::Float64 => {
            Some(f64::from_le_bytes(bytes[k * 8..k * 8 + 8].try_into().unwrap()) as f32)
        }
        _ => None,
    };
    match (as_f32(got), as_f32(want)) {
        (Some(g), Some(w)) if g.is_finite() && w.is_finite() => {
            order32(g).abs_diff(order32(w)) <= f32_ulps
        }
        _ => false,
    }
}

/// As `same_on_both`, allowing `f32_ulps` float32 ulps (for programs with float32
/// transcendentals, which the wasm vector routines compute within 1 ulp).
fn within_on_both(
    what: &str,
    inputs: &[(Vec<usize>, DType, Vec<f64>)],
    program: &Program,
    f32_ulps: u64,
) {
    let want = run(Device::Cpu, inputs, program);
    let got = run(Device::Wasm, inputs, program);
    let ((dtype, want), (_, got)) = match (want, got) {
        (Ok(w), Ok(g)) => (w, g),
        (Err(w), Err(g)) => return assert_eq!(w, g, "{what}: different errors"),
        (w, g) => panic!("{what}: cpu gave {w:?}, wasm {g:?}"),
    };
    assert_eq!(got.len(), want.len(), "{what}");
    let n = got.len() / dtype.byte_size();
    if let Some(k) = (0..n).find(|&k| !agrees(dtype, &got, &want, k, f32_ulps)) {
        let (g, w) = (key(dtype, &got, k), key(dtype, &want, k));
        panic!("{what}: element {k} differs: wasm {g:#x}, cpu {w:#x}\n{program:?}");
    }
}

fn binary_ops(dtype: DType) -> &'static [BinaryOp] {
    use BinaryOp::*;
    match dtype {
        DType::Float32 | DType::Float64 => &[Add, Sub, Mul, Div, Min, Max],
        DType::Bool => &[And, Or, Xor],
        _ => &[Add, Sub, Mul, Min, Max, And, Xor, Div, Rem],
    }
}

#[wasm_bindgen_test]
fn elementwise_with_broadcasting_and_views() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for trial in 0..60 {
        let dtype = rng.pick(&DTYPES);
        let (m, n) = (rng.dim(), rng.dim());
        let x = (vec![m, n], dtype, rng.values(dtype, m * n));
        let row = (vec![n], dtype, rng.values(dtype, n));
        let t = (vec![n, m], dtype, rng.values(dtype, m * n));
        let op = rng.pick(binary_ops(dtype));
        let bcast = Primitive::Broadcast {
            shape: vec![m, n],
            axes: vec![1],
        };
        // x op broadcast(row); then op with a transposed view; then a compare and a select.
        let program: Program = vec![
            (bcast, vec![1]),                                // 3
            (Primitive::Binary(op), vec![0, 3]),             // 4
            (Primitive::Transpose(vec![1, 0]), vec![2]),     // 5
            (Primitive::Binary(op), vec![4, 5]),             // 6
            (Primitive::Compare(CompareOp::Lt), vec![0, 6]), // 7
            (Primitive::Where, vec![7, 6, 0]),               // 8
        ];
        same_on_both(
            &format!("trial {trial} {dtype:?} {op:?} [{m},{n}]"),
            &[x, row, t],
            &program,
        );
    }
}

#[wasm_bindgen_test]
fn unary_casts_slices_and_pads() {
    use UnaryOp::*;
    let mut rng = Rng(0x1234_5678_9abc_def1);
    for trial in 0..60 {
        let dtype = rng.pick(&DTYPES);
        let to = rng.pick(&DTYPES);
        let (m, n) = (rng.dim() + 1, rng.dim() + 2);
        let x = (vec![m, n], dtype, rng.values(dtype, m * n));
        let unary = match dtype {
            DType::Float32 | DType::Float64 => {
                rng.pick(&[Neg, Abs, Sqrt, Floor, Ceil, RoundEven, Reciprocal, Exp])
            }
            DType::Bool => Not,
            _ => rng.pick(&[Neg, Abs, Not]),
        };
        let last = if to == DType::Bool {
            BinaryOp::Or
        } else {
            BinaryOp::Max
        };
        let program: Program = vec![
            (Primitive::Shrink(vec![(m / 3, m), (1, n)]), vec![0]), // 1
            (Primitive::Unary(unary), vec![1]),                     // 2
            (Primitive::Cast(to), vec![2]),                         // 3
            (Primitive::Pad(vec![(1, 2), (0, 3)]), vec![3]),        // 4
            (Primitive::Flip(vec![1]), vec![4]),                    // 5
            (Primitive::Binary(last), vec![5, 5]),                  // 6
        ];
        // float32 exp is within 1 ulp (`vmath`); a cast to an integer could turn that into
        // a different integer, so those trials use an exact operation instead.
        let ulps = u64::from(dtype == DType::Float32 && unary == Exp);
        if ulps > 0 && !matches!(to, DType::Float32 | DType::Float64) {
            continue;
        }
        within_on_both(
            &format!("trial {trial} {dtype:?} {unary:?} -> {to:?} [{m},{n}]"),
            &[x],
            &program,
            ulps,
        );
    }
}

#[wasm_bindgen_test]
fn integer_shifts_by_uniform_and_varying_amounts() {
    let mut rng = Rng(42);
    for trial in 0..20 {
        let dtype = rng.pick(&[DType::Int32, DType::Uint32]);
        let (m, n) = (rng.dim(), rng.dim());
        let x = (vec![m, n], dtype, rng.values(dtype, m * n));
        let s: Vec<f64> = (0..n).map(|_| rng.below(40) as f64).collect();
        let amounts = (vec![n], dtype, s);
        let k = (vec![], dtype, vec![rng.below(40) as f64]);
        let op = rng.pick(&[BinaryOp::Shl, BinaryOp::Shr]);
        let program: Program = vec![
            (
                Primitive::Broadcast {
                    shape: vec![m, n],
                    axes: vec![1],
                },
                vec![1],
            ), // 3
            (Primitive::Binary(op), vec![0, 3]), // 4
            (
                Primitive::Broadcast {
                    shape: vec![m, n],
                    axes: vec![],
                },
                vec![2],
            ), // 5
            (Primitive::Binary(op), vec![4, 5]), // 6
        ];
        same_on_both(
            &format!("trial {trial} {dtype:?} {op:?} [{m},{n}]"),
            &[x, amounts, k],
            &program,
        );
    }
}

#[wasm_bindgen_test]
fn threefry_with_uniform_strided_and_transposed_operands() {
    let mut rng = Rng(0x7f4a_7c15);
    let u = DType::Uint32;
    for trial in 0..30 {
        let (m, n) = (rng.dim(), rng.dim());
        let k0 = (vec![], u, rng.values(u, 1));
        let k1 = (vec![n], u, rng.values(u, n));
        let c = (vec![m, n], u, rng.values(u, m * n));
        let t = (vec![n, m], u, rng.values(u, m * n));
        let mode = rng.pick(&[ThreefryMode::Xor, ThreefryMode::Word0, ThreefryMode::Word1]);
        // A uniform key word, a row broadcast, a contiguous and a transposed counter word; then
        // a uniform key on the threefry of the first (a derived key, as random draws make).
        let program: Program = vec![
            (Primitive::Transpose(vec![1, 0]), vec![3]),   // 4
            (Primitive::Threefry(mode), vec![0, 1, 2, 4]), // 5
            (Primitive::Threefry(mode), vec![0, 0, 4, 5]), // 6
        ];
        same_on_both(
            &format!("trial {trial} {mode:?} [{m},{n}]"),
            &[k0, k1, c, t],
            &program,
        );
    }
}

#[wasm_bindgen_test]
fn reductions_over_inner_outer_and_all_axes() {
    let mut rng = Rng(0xdead_beef_cafe_f00d);
    for trial in 0..80 {
        let dtype = rng.pick(&DTYPES);
        let op = rng.pick(&[
            ReduceOp::Sum,
            ReduceOp::Sum,
            ReduceOp::Prod,
            ReduceOp::Max,
            ReduceOp::Min,
        ]);
        let (m, n) = (
            rng.dim(),
            rng.pick(&[0, 1, 3, 15, 16, 17, 31, 32, 33, 100, 1000]),
        );
        let op = if dtype == DType::Bool {
            rng.pick(&[ReduceOp::Max, ReduceOp::Min])
        } else {
            op
        };
        let mut vals = rng.values(dtype, m * n);
        if op == ReduceOp::Prod && dtype.is_float() {
            // Keep products finite and inexact: values near 1.
            vals.iter_mut()
                .for_each(|v| *v = 1.0 + (*v / 1000.0).clamp(-0.1, 0.1));
        }
        let x = (vec![m, n], dtype, vals);
        let axes = [vec![1], vec![0], vec![0, 1]][rng.below(3)].clone();
        let transpose = rng.below(3) == 0;
        let mut program: Program = vec![];
        let mut src = 0;
        if transpose {
            program.push((Primitive::Transpose(vec![1, 0]), vec![0]));
            src = 1;
        }
        program.push((
            Primitive::Reduce {
                op,
                axes: axes.clone(),
            },
            vec![src],
        ));
        let what =
            format!("trial {trial} {dtype:?} {op:?} over {axes:?} of [{m},{n}] T={transpose}");
        same_on_both(&what, &[x], &program);
    }
}

#[wasm_bindgen_test]
fn matmuls_of_random_shapes() {
    let mut rng = Rng(7);
    for trial in 0..30 {
        let dtype = rng.pick(&[DType::Float32, DType::Float32, DType::Float64, DType::Int32]);
        let (m, k) = (rng.dim(), rng.dim());
        let n = rng.pick(&[1, 3, 4, 8, 12, 16, 17, 32, 48, 64]);
        let a = (vec![m, k], dtype, rng.values(dtype, m * k));
        let b = (vec![k, n], dtype, rng.values(dtype, k * n));
        let program: Program = vec![(Primitive::Matmul, vec![0, 1])];
        same_on_both(
            &format!("trial {trial} {dtype:?} [{m},{k}]x[{k},{n}]"),
            &[a, b],
            &program,
        );
    }
}

/// Convolutions of random shapes (`emit/rowblock`: output channels blocked over rows, the
/// padding mask applied to each product): strides, padding, dilations, groups and batches,
/// float32 values with an infinite or NaN weight now and then (a padded tap's product is 0,
/// never inf · 0). A quarter of them are products blocked over rows (counted from their
/// kernels).
#[wasm_bindgen_test]
fn convolutions_of_random_shapes() {
    use oxjax::core::{Aval, ConvParams};
    use oxjax::kernel::{matmul, simplify};
    use oxjax::rules;
    let mut rng = Rng(11);
    let (mut trial, mut blocked) = (0, 0);
    while trial < 40 {
        let groups = rng.pick(&[1, 1, 2]);
        let (n, c, o) = (
            rng.pick(&[1, 1, 2]),
            groups * rng.pick(&[1, 2, 3]),
            groups * rng.pick(&[1, 2, 3, 4, 8]),
        );
        let (h, w) = (
            rng.pick(&[3, 4, 5, 8, 12, 16]),
            rng.pick(&[4, 5, 8, 12, 16]),
        );
        let (kh, kw) = (rng.pick(&[1, 2, 3]), rng.pick(&[1, 2, 3]));
        let p = ConvParams {
            strides: vec![rng.pick(&[1, 1, 2]), rng.pick(&[1, 1, 2])],
            padding: vec![
                (rng.pick(&[0, 1, 2, -1]), rng.pick(&[0, 1, 2])),
                (rng.pick(&[0, 1]), rng.pick(&[0, 1, 2])),
            ],
            lhs_dilation: vec![rng.pick(&[1, 1, 2]), 1],
            rhs_dilation: vec![1, rng.pick(&[1, 1, 2])],
            groups,
        };
        let mut weights: Vec<f64> = (0..o * c / groups * kh * kw)
            .map(|_| (rng.below(1000) as f64 - 500.0) / 7.0)
            .collect();
        if rng.below(3) == 0 {
            let at = rng.below(weights.len());
            weights[at] = rng.pick(&[f64::INFINITY, f64::NAN, -0.0]);
        }
        let x: Vec<f64> = (0..n * c * h * w)
            .map(|_| (rng.below(1000) as f64 - 500.0) / 9.0)
            .collect();
        let inputs = [
            (vec![n, c, h, w], DType::Float32, x),
            (vec![o, c / groups, kh, kw], DType::Float32, weights),
        ];
        let what = format!(
            "trial {trial} [{n},{c},{h},{w}] * [{o},{},{kh},{kw}] {p:?}",
            c / groups
        );
        let prim = Primitive::Conv(p);
        let avals: Vec<Aval> = inputs
            .iter()
            .map(|(s, d, _)| Aval::new(s.clone(), *d))
            .collect();
        let refs: Vec<&Aval> = avals.iter().collect();
        let Ok(out) = rules::abstract_eval(&prim, &refs) else {
            continue; // the window does not fit
        };
        let kernel = simplify::kernel(&rules::to_kernel(&prim, &refs, &out).unwrap());
        blocked += usize::from(matmul::row_side(&kernel).is_some_and(|r| r.n >= 8 && r.rows > 1));
        same_on_both(&what, &inputs, &vec![(prim, vec![0, 1])]);
        trial += 1;
    }
    assert!(blocked >= 8, "{blocked} of 40 blocked over rows");
}
