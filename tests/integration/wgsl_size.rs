//! The size of the WGSL that jitted programs compile to: a Kalman-style associative scan over
//! `[n, 2, 2]` stacks (Kogge–Stone rounds of slices, batched 2×2 products, transposes and a
//! symmetrisation, then concatenates), reversed, its gradient, a jitted max-pool
//! (`reduceWindow`) and a jitted `eigh`.
//! Each program is lowered as `jit` lowers it for webgpu (8 storage buffers) and every kernel
//! is emitted with the generic WGSL emitter; the totals are printed (`--nocapture`) and bounded,
//! so index arithmetic that stops being simplified or shared fails here.

use crate::common::trace::{bin, f32v, lit, trace_fn};
use oxjax::backend::webgpu::wgsl;
use oxjax::core::{Aval, DType, Primitive};
use oxjax::kernel::{simplify, BinaryOp, DeviceLimits, ReduceOp};
use oxjax::lower::{self, Program, Step};
use oxjax::transform::autodiff::value_and_grad;
use oxjax::transform::trace::{self, bind, Operand, Value};

const LIMITS: DeviceLimits = DeviceLimits {
    max_kernel_inputs: 8,
    inline_terms: oxjax::backend::webgpu::INLINE_TERMS,
};

fn p(prim: Primitive, args: &[&Value]) -> Value {
    let ops: Vec<Operand> = args.iter().map(|v| Operand::Value(v)).collect();
    bind(prim, &ops).unwrap()
}

fn rows(x: &Value, lo: usize, hi: usize) -> Value {
    let mut r: Vec<(usize, usize)> = x.aval().shape.iter().map(|&d| (0, d)).collect();
    r[0] = (lo, hi);
    p(Primitive::Shrink(r), &[x])
}

fn t(x: &Value) -> Value {
    p(Primitive::Transpose(vec![0, 2, 1]), &[x])
}

fn mm(a: &Value, b: &Value) -> Value {
    p(Primitive::Matmul, &[a, b])
}

/// `(A₂A₁, A₂b₁ + b₂, sym(A₂C₁A₂ᵀ + C₂))` for stacked `A, C [m, 2, 2]`, `b [m, 2, 1]`.
fn combine(e1: &[Value], e2: &[Value]) -> Vec<Value> {
    let a = mm(&e2[0], &e1[0]);
    let b = bin(BinaryOp::Add, &mm(&e2[0], &e1[1]), &e2[1]);
    let c = bin(BinaryOp::Add, &mm(&mm(&e2[0], &e1[2]), &t(&e2[0])), &e2[2]);
    let c = lit(BinaryOp::Mul, &bin(BinaryOp::Add, &c, &t(&c)), 0.5);
    vec![a, b, c]
}

/// `lax.associativeScan(combine, elems)` as `js/lax/associative-scan.ts` composes it.
fn assoc_scan(elems: &[Value]) -> Vec<Value> {
    let n = elems[0].aval().shape[0];
    let mut cur = elems.to_vec();
    let mut k = 1;
    while k < n {
        let a: Vec<Value> = cur.iter().map(|x| rows(x, 0, n - k)).collect();
        let b: Vec<Value> = cur.iter().map(|x| rows(x, k, n)).collect();
        let c = combine(&a, &b);
        cur = cur
            .iter()
            .zip(&c)
            .map(|(x, y)| p(Primitive::Concatenate(0), &[&rows(x, 0, k), y]))
            .collect();
        k *= 2;
    }
    cur
}

fn sum_all(x: &Value) -> Value {
    let axes = (0..x.aval().shape.len()).collect();
    p(
        Primitive::Reduce {
            op: ReduceOp::Sum,
            axes,
        },
        &[x],
    )
}

fn scan_program(n: usize) -> Program {
    let avals = [f32v(&[n, 2, 2]), f32v(&[n, 2, 1]), f32v(&[n, 2, 2])];
    let closed = trace_fn(&avals, assoc_scan);
    lower::lower(&closed.jaxpr, LIMITS)
}

/// `lax.associativeScan(combine, elems, { reverse: true })`: flipped, scanned, flipped back.
fn reverse_scan_program(n: usize) -> Program {
    let avals = [f32v(&[n, 2, 2]), f32v(&[n, 2, 1]), f32v(&[n, 2, 2])];
    let closed = trace_fn(&avals, |v| {
        let flip = |x: &Value| p(Primitive::Flip(vec![0]), &[x]);
        let flipped: Vec<Value> = v.iter().map(flip).collect();
        assoc_scan(&flipped).iter().map(flip).collect()
    });
    lower::lower(&closed.jaxpr, LIMITS)
}

/// `jit(valueAndGrad(x ↦ Σ scan(x, b, C)))`.
fn scan_grad_program(n: usize) -> Program {
    let avals = [f32v(&[n, 2, 2]), f32v(&[n, 2, 1]), f32v(&[n, 2, 2])];
    let loss = trace_fn(&avals, |v| {
        let out = assoc_scan(v);
        let s = bin(BinaryOp::Add, &sum_all(&out[0]), &sum_all(&out[2]));
        vec![bin(BinaryOp::Add, &s, &sum_all(&out[1]))]
    });
    let (frame, ts) = trace::begin(&avals);
    let args: Vec<Value> = ts.into_iter().map(Value::Tracer).collect();
    let outs = value_and_grad(&loss, &args, &[0, 2]).unwrap();
    let closed = trace::end("t", frame, &outs).unwrap();
    let t = std::time::Instant::now();
    let p = lower::lower(&closed.jaxpr, LIMITS);
    println!(
        "lowered the gradient in {:?} ({} equations)",
        t.elapsed(),
        closed.jaxpr.eqns.len()
    );
    p
}

/// `jit(x ↦ reduceWindow(x, max, [2, 2], [2, 2]))`.
fn pool_program(shape: &[usize]) -> Program {
    let closed = trace_fn(&[f32v(shape)], |v| {
        let w = oxjax::library::conv::pool(&v[0], &[2, 2], &[2, 2]).unwrap();
        let r = w.aval().shape.len();
        vec![p(
            Primitive::Reduce {
                op: ReduceOp::Max,
                axes: vec![r - 2, r - 1],
            },
            &[&w],
        )]
    });
    lower::lower(&closed.jaxpr, LIMITS)
}

/// `jit(np.linalg.eigh)` of one `[n, n]` matrix.
fn eigh_program(n: usize) -> Program {
    let closed = trace_fn(&[f32v(&[n, n])], |v| {
        use oxjax::library::call::{call, CallId};
        call(CallId::LaxEigh, &v[..1], &[1.0, 1.0]).unwrap()
    });
    let t = std::time::Instant::now();
    let p = lower::lower(&closed.jaxpr, LIMITS);
    println!(
        "lowered eigh in {:?} ({} equations)",
        t.elapsed(),
        closed.jaxpr.eqns.len()
    );
    p
}

/// (kernels, total WGSL bytes, largest kernel's bytes).
fn wgsl_bytes(name: &str, program: &Program) -> (usize, usize, usize) {
    let (mut count, mut total, mut largest) = (0, 0, 0);
    for step in &program.steps {
        if let Step::Kernel { kernel, .. } = step {
            let source = wgsl::emit_kernel(kernel).unwrap();
            crate::common::wgsl::validate_source(name, &source);
            count += 1;
            total += source.len();
            largest = largest.max(source.len());
        }
    }
    if let Ok(dir) = std::env::var("OXJAX_WGSL_DUMP") {
        for (j, step) in program.steps.iter().enumerate() {
            if let Step::Kernel { kernel, .. } = step {
                let source = wgsl::emit_kernel(kernel).unwrap();
                let file = format!(
                    "{dir}/{}-{j}.wgsl",
                    name.replace([' ', '(', ')', '[', ']', ','], "_")
                );
                std::fs::write(file, source).unwrap();
            }
        }
    }
    let distinct: std::collections::HashSet<_> = program
        .steps
        .iter()
        .filter_map(|s| match s {
            Step::Kernel { kernel, .. } => Some(kernel),
            _ => None,
        })
        .collect();
    println!(
        "{name}: {count} kernels ({} distinct), {total} bytes of WGSL, largest {largest}",
        distinct.len()
    );
    (count, total, largest)
}

#[test]
fn jitted_programs_compile_to_small_wgsl() {
    // Bounds with some room over what the simplifier and the emitter's sharing give (the
    // sizes without them are in bench/RESULTS.md).
    let (_, total, largest) = wgsl_bytes("associativeScan n=100", &scan_program(100));
    assert!(total < 80_000 && largest < 2_000, "{total} {largest}");
    let (_, total, largest) =
        wgsl_bytes("reverse associativeScan n=100", &reverse_scan_program(100));
    assert!(total < 80_000 && largest < 2_000, "{total} {largest}");
    let (_, total, largest) = wgsl_bytes(
        "valueAndGrad(associativeScan) n=100",
        &scan_grad_program(100),
    );
    assert!(total < 260_000 && largest < 3_000, "{total} {largest}");
    let (_, total, largest) =
        wgsl_bytes("reduceWindow [8,16,32,32]", &pool_program(&[8, 16, 32, 32]));
    assert!(total < 15_000 && largest < 3_000, "{total} {largest}");
    let (_, total, largest) = wgsl_bytes("eigh [8, 8]", &eigh_program(8));
    assert!(total < 4_500_000 && largest < 6_000, "{total} {largest}");
}

#[test]
fn a_transposed_copy_is_a_few_lines() {
    // `x.transpose(0, 2, 1)` of x [100, 2, 2], as eager evaluation builds it.
    let x = Aval::new(vec![100, 2, 2], DType::Float32);
    let prim = Primitive::Transpose(vec![0, 2, 1]);
    let out = oxjax::rules::abstract_eval(&prim, &[&x]).unwrap();
    let kernel = oxjax::rules::to_kernel(&prim, &[&x], &out).unwrap();
    let source = wgsl::emit_kernel(&simplify::kernel(&kernel)).unwrap();
    crate::common::wgsl::validate_source("transpose", &source);
    let main = &source[source.find("fn main").unwrap()..];
    assert!(main.len() < 700, "{source}");
}

/// Pipeline creation time of every kernel of the programs above on this machine's Vulkan
/// adapter (a GPU driver's shader compiler; lavapipe otherwise). Run by hand:
/// `cargo test --release --test integration wgsl_size -- --ignored --nocapture`.
#[test]
#[ignore]
fn pipeline_creation_time() {
    use oxjax::backend::webgpu::WebGpuBackend;
    use oxjax::backend::Backend;
    let programs = [
        ("associativeScan n=100", scan_program(100)),
        (
            "valueAndGrad(associativeScan) n=100",
            scan_grad_program(100),
        ),
        ("reduceWindow [8,16,32,32]", pool_program(&[8, 16, 32, 32])),
        ("eigh [8, 8]", eigh_program(8)),
    ];
    for (name, program) in &programs {
        let mut gpu = crate::common::block_on(WebGpuBackend::new(Some(8))).expect("a Vulkan adapter");
        gpu.reserve_exes(program.kernel_count(), 0);
        let before = gpu.stats().shader_compiles;
        let t = std::time::Instant::now();
        let mut count = 0;
        for step in &program.steps {
            if let Step::Kernel { kernel, .. } = step {
                gpu.compile(kernel).unwrap();
                count += 1;
            }
        }
        let compiles = gpu.stats().shader_compiles - before;
        let adapter = gpu.adapter_name().to_string();
        let dt = t.elapsed();
        println!("{name} on {adapter}: {count} kernels, {compiles} shaders in {dt:.2?}");
    }
}
