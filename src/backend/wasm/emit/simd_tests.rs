//! Native checks that the emitter picks the intended loop for each kernel shape: the emitted
//! modules validate (wasmparser) and contain — or lack — the SIMD instructions of each path.
//! Their results are checked against the cpu interpreter in `tests/wasm_kernels`.

use super::emit_kernel;
use crate::core::DType;
use crate::kernel::{AluExp, BinaryOp, CompareOp, Kernel, ReduceOp, Reduction, UnaryOp};

/// Validates the module and returns the names of its operators.
fn operators(kernel: &Kernel) -> Vec<String> {
    let bytes = emit_kernel(kernel).unwrap();
    wasmparser::Validator::new()
        .validate_all(&bytes)
        .unwrap_or_else(|e| panic!("{kernel:?}: invalid wasm: {e}"));
    let mut names = vec![];
    for payload in wasmparser::Parser::new(0).parse_all(&bytes) {
        if let wasmparser::Payload::CodeSectionEntry(body) = payload.unwrap() {
            let mut reader = body.get_operators_reader().unwrap();
            while !reader.eof() {
                let op = format!("{:?}", reader.read().unwrap());
                names.push(op.split([' ', '{']).next().unwrap().to_string());
            }
        }
    }
    names
}

fn has(ops: &[String], name: &str) -> bool {
    ops.iter().any(|o| o == name)
}

fn binary(dtype: DType, op: BinaryOp, n: usize) -> Kernel {
    let x = AluExp::load(dtype, 0, AluExp::index());
    let y = AluExp::load(dtype, 1, AluExp::index());
    Kernel::elementwise(vec![dtype, dtype], n, AluExp::binary(op, x, y))
}

fn reduce(mut kernel: Kernel, op: ReduceOp, size: usize) -> Kernel {
    kernel.reduction = Some(Reduction { op, size });
    kernel
}

#[test]
fn contiguous_elementwise_kernels_use_vectors() {
    let ops = operators(&binary(DType::Float32, BinaryOp::Add, 100));
    for name in ["V128Load", "F32x4Add", "V128Store", "F32Add"] {
        assert!(has(&ops, name), "{name} missing: {ops:?}");
    }
    let ops = operators(&binary(DType::Int32, BinaryOp::Max, 100));
    assert!(has(&ops, "I32x4MaxS"), "{ops:?}");
    // Integer division has no lane-wise instruction: per-lane scalar code, packed, then added.
    let mut k = binary(DType::Int32, BinaryOp::Div, 100);
    let x = AluExp::load(DType::Int32, 0, AluExp::index());
    k.exp = AluExp::binary(BinaryOp::Add, k.exp, x);
    let ops = operators(&k);
    assert!(
        has(&ops, "I32DivS") && has(&ops, "I32x4ReplaceLane"),
        "{ops:?}"
    );
}

#[test]
fn kernels_that_gain_nothing_stay_scalar() {
    // A shift by a per-element amount has no vector form: per-lane scalar code at the root
    // gains nothing.
    let ops = operators(&binary(DType::Int32, BinaryOp::Shl, 100));
    assert!(!has(&ops, "V128Store"), "{ops:?}");
    let ops = operators(&binary(DType::Float64, BinaryOp::Add, 100));
    assert!(!has(&ops, "V128Load"), "{ops:?}");
}

/// `out[i, j] = Σ_r a[i, r] · b[r, j]` as the rules write it (flat i over [m, n]).
pub(in crate::backend::wasm) fn matmul(m: usize, k: usize, n: usize) -> Kernel {
    let i = AluExp::index();
    let row = AluExp::index_div(i.clone(), n);
    let col = AluExp::index_rem(i, n);
    let r = AluExp::reduce_index();
    let a = AluExp::load(
        DType::Float32,
        0,
        AluExp::index_add(AluExp::index_mul(row, k as isize), r.clone()),
    );
    let b = AluExp::load(
        DType::Float32,
        1,
        AluExp::index_add(AluExp::index_mul(r, n as isize), col),
    );
    let exp = AluExp::binary(BinaryOp::Mul, a, b);
    let kernel = Kernel::elementwise(vec![DType::Float32; 2], m * n, exp);
    reduce(kernel, ReduceOp::Sum, k)
}

#[test]
fn matmul_vectorises_over_columns_with_a_uniform_row_operand() {
    // Fewer than 8 columns: the vector loop over outputs, accumulating in f32x4
    // (`order::narrow`) with the row operand splat once per reduction step.
    let ops = operators(&matmul(8, 5, 4));
    for name in ["F32x4Splat", "F32x4Mul", "F32x4Add", "V128Load"] {
        assert!(has(&ops, name), "{name} missing: {ops:?}");
    }
    assert!(!has(&ops, "F64x2Add"), "{ops:?}");
    // 8 columns or more: the register-blocked tiles (4 rows × 2 vectors: 8 accumulators).
    let ops = operators(&matmul(8, 5, 64));
    let count = |name: &str| ops.iter().filter(|o| *o == name).count();
    assert!(
        count("F32x4Mul") >= 10 && count("F32x4Add") >= 10,
        "{ops:?}"
    );
    assert!(!has(&ops, "F64x2Add"), "{ops:?}");
}

#[test]
fn sums_over_a_contiguous_axis_are_blocked_over_r() {
    let index = AluExp::index_add(
        AluExp::index_mul(AluExp::index(), 1000),
        AluExp::reduce_index(),
    );
    let sum = |dtype| {
        let k = Kernel::elementwise(vec![dtype], 3, AluExp::load(dtype, 0, index.clone()));
        reduce(k, ReduceOp::Sum, 1000)
    };
    let ops = operators(&sum(DType::Float32));
    assert!(
        has(&ops, "F64x2PromoteLowF32x4") && has(&ops, "F64x2ExtractLane"),
        "{ops:?}"
    );
    let ops = operators(&sum(DType::Int32));
    assert!(
        has(&ops, "I32x4Add") && has(&ops, "I32x4ExtractLane"),
        "{ops:?}"
    );
    // A sum over an outer axis vectorises over the outputs instead (no lane combination).
    let outer = AluExp::index_add(
        AluExp::index_mul(AluExp::reduce_index(), 64),
        AluExp::index(),
    );
    let k = Kernel::elementwise(
        vec![DType::Float32],
        64,
        AluExp::load(DType::Float32, 0, outer),
    );
    let ops = operators(&reduce(k, ReduceOp::Max, 9));
    assert!(
        has(&ops, "F32x4Lt") && !has(&ops, "F64x2ExtractLane"),
        "{ops:?}"
    );
}

#[test]
fn float32_transcendentals_use_the_vector_routines() {
    for op in [
        UnaryOp::Exp,
        UnaryOp::Log,
        UnaryOp::Sin,
        UnaryOp::Cos,
        UnaryOp::Tanh,
        UnaryOp::Asin,
        UnaryOp::Atan,
    ] {
        let x = AluExp::load(DType::Float32, 0, AluExp::index());
        let k = Kernel::elementwise(vec![DType::Float32], 100, AluExp::unary(op, x));
        let ops = operators(&k);
        // The vector bodies of `vmath` (f64x2 halves for asin and atan, f32x4 for the others:
        // log converts its exponents, the others round theirs), and no per-lane packing of
        // scalar results (sin and cos have a scalar path for huge lanes).
        let body = match op {
            UnaryOp::Asin | UnaryOp::Atan => "F64x2PromoteLowF32x4",
            UnaryOp::Log => "F32x4ConvertI32x4S",
            _ => "I32x4TruncSatF32x4S",
        };
        assert!(has(&ops, body), "{op:?}: {ops:?}");
        assert!(!has(&ops, "F32x4ReplaceLane") || matches!(op, UnaryOp::Sin | UnaryOp::Cos));
    }
}

#[test]
fn remainders_use_the_exact_vector_paths() {
    // float32 fmod: f64x2 quotients, the scalar routine only as a guarded fallback.
    let ops = operators(&binary(DType::Float32, BinaryOp::Rem, 100));
    for name in ["F64x2Div", "F64x2Trunc", "V128AnyTrue", "V128Store"] {
        assert!(has(&ops, name), "{name} missing: {ops:?}");
    }
    // uint32 by a uniform divisor: a multiply by the rounded-up reciprocal, no lane packing.
    let x = AluExp::load(DType::Uint32, 0, AluExp::index());
    let y = AluExp::constant(DType::Uint32, 7.0);
    let k = Kernel::elementwise(
        vec![DType::Uint32],
        100,
        AluExp::binary(BinaryOp::Rem, x, y),
    );
    let ops = operators(&k);
    assert!(
        has(&ops, "F64x2ConvertLowI32x4U") && !has(&ops, "I32x4ReplaceLane"),
        "{ops:?}"
    );
}

#[test]
fn selects_vectorise_checking_only_loads_not_every_lane_makes() {
    let load = |i| AluExp::load(DType::Float32, i, AluExp::index());
    let select =
        |c, a, b| Kernel::elementwise(vec![DType::Float32; 2], 100, AluExp::where_(c, a, b));
    // remainder's fix-up: the condition loads x and y, the branches load them again.
    let c = AluExp::compare(CompareOp::Lt, load(0), load(1));
    let ops = operators(&select(
        c,
        AluExp::binary(BinaryOp::Add, load(0), load(1)),
        load(0),
    ));
    assert!(
        has(&ops, "V128Bitselect") && !has(&ops, "F32x4ReplaceLane"),
        "{ops:?}"
    );
    // Loads both branches share run on every lane too (fmax: NaN tests around a max).
    let c = AluExp::compare(CompareOp::Ne, load(0), load(0));
    let ops = operators(&select(
        c,
        load(1),
        AluExp::binary(BinaryOp::Max, load(0), load(1)),
    ));
    assert!(
        has(&ops, "V128Bitselect") && !has(&ops, "MemorySize"),
        "{ops:?}"
    );
    // A branch loading what other lanes may not (a concatenation's first part): its loads
    // check their addresses against the memory's size, and the select stays a vector one.
    let c = AluExp::compare(
        CompareOp::Lt,
        AluExp::index(),
        AluExp::constant(DType::Int32, 50.0),
    );
    let ops = operators(&select(c, load(0), AluExp::constant(DType::Float32, 0.0)));
    for name in ["MemorySize", "V128Load", "V128Bitselect", "V128Store"] {
        assert!(has(&ops, name), "{name} missing: {ops:?}");
    }
}
