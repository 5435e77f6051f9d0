//! The fast WebGPU kernels against the cpu interpreter, natively on wgpu over Vulkan
//! (lavapipe): workgroup-tree reductions (one workgroup per output, and the axis cut into
//! parts with a second pass), and tiled matrix products (plain, batched left operand,
//! transposed operands read through views, batches of products on both sides, broadcast
//! batches, ragged edges, an operand that is an expression, convolutions; each tile shape and
//! depth). Each shader is validated with naga first. Float sums and products are compared with
//! a tolerance (their order differs from the interpreter's); integer sums, max and min
//! exactly. The batching and pool counters are checked on the way.

use crate::common::wgsl::validate_source as validate;
use crate::common::{block_on, decode_f32, encode, run_on, values};
use oxjax::backend::cpu::run_kernel;
use oxjax::backend::webgpu::{wgsl_matmul, wgsl_reduce, WebGpuBackend, MAX_BATCH};
use oxjax::backend::Backend;
use oxjax::core::view::ShapeTracker;
use oxjax::core::{Aval, DType};
use oxjax::kernel::{view_index, AluExp, Kernel, ReduceOp, Reduction};
use oxjax::rules::linalg::matmul_kernel;

fn gpu() -> WebGpuBackend {
    let mut gpu = block_on(WebGpuBackend::new(None)).expect("a Vulkan adapter (lavapipe)");
    // Off by default on CPU adapters like lavapipe; on here to test them.
    gpu.set_fast_kernels(true);
    // The shared-memory form (`webgpu_matmul_subgroup` tests the subgroup one).
    gpu.set_matmul_subgroups(false);
    gpu
}

/// Element-wise |got − want| ≤ tol · scale[i].
pub(crate) fn assert_close(name: &str, got: &[f32], want: &[f32], scale: &[f64], tol: f64) {
    assert_eq!(got.len(), want.len(), "{name}: length");
    for i in 0..got.len() {
        let err = (got[i] as f64 - want[i] as f64).abs();
        assert!(
            err <= tol * scale[i].max(1e-30) || got[i] == want[i],
            "{name}[{i}]: got {} want {} (scale {})",
            got[i],
            want[i],
            scale[i]
        );
    }
}

fn reduction(dtype: DType, op: ReduceOp, outputs: usize, size: usize) -> Kernel {
    // out[i] = op over r of x[i * size + r]
    let index = AluExp::index_add(
        AluExp::index_mul(AluExp::index(), size as isize),
        AluExp::reduce_index(),
    );
    Kernel {
        inputs: vec![dtype],
        size: outputs,
        exp: AluExp::load(dtype, 0, index),
        reduction: Some(Reduction { op, size }),
        epilogue: None,
    }
}

#[test]
fn workgroup_tree_reductions_match_the_interpreter() {
    let mut gpu = gpu();
    let shapes = [(1, 70_000), (3, 1000), (700, 300), (1, 256), (5, 9000)];
    for (outputs, size) in shapes {
        for dtype in [DType::Float32, DType::Int32] {
            for op in [ReduceOp::Sum, ReduceOp::Max, ReduceOp::Min, ReduceOp::Prod] {
                if op == ReduceOp::Prod && size > 1000 {
                    continue; // overflows to ±∞ / wraps: covered by the short cases
                }
                let name = format!("{op:?} {dtype:?} {outputs}×{size}");
                let kernel = reduction(dtype, op, outputs, size);
                assert!(wgsl_reduce::suits(&kernel), "{name}");
                validate(&name, &wgsl_reduce::emit(&kernel, 1).unwrap());
                validate(&name, &wgsl_reduce::emit(&kernel, 7).unwrap());
                let raw = values(outputs * size, size as f64);
                let scaled: Vec<f64> = match op {
                    // Products near 1 stay finite.
                    ReduceOp::Prod => raw.iter().map(|v| 1.0 + v / 1000.0).collect(),
                    _ => raw.clone(),
                };
                let input = encode(dtype, &scaled);
                let want = run_kernel(&kernel, &[&input]).unwrap();
                let got = run_on(&mut gpu, &kernel, std::slice::from_ref(&input));
                if dtype == DType::Float32 && matches!(op, ReduceOp::Sum | ReduceOp::Prod) {
                    // Sums: relative to Σ|x|; products: relative to the value.
                    let scale: Vec<f64> = (0..outputs)
                        .map(|o| match op {
                            ReduceOp::Sum => scaled[o * size..(o + 1) * size]
                                .iter()
                                .map(|v| v.abs())
                                .sum(),
                            _ => decode_f32(&want)[o].abs() as f64,
                        })
                        .collect();
                    // Each of the `size` roundings of a product is a relative 2⁻²⁴ at most.
                    let tol = if op == ReduceOp::Sum {
                        1e-6
                    } else {
                        size as f64 * 6e-8
                    };
                    assert_close(&name, &decode_f32(&got), &decode_f32(&want), &scale, tol);
                } else {
                    assert_eq!(got, want, "{name}");
                }
            }
        }
    }
}

#[test]
fn bool_all_and_any_run_as_workgroup_trees() {
    let mut gpu = gpu();
    for (outputs, size) in [(1, 70_000), (6, 1000), (700, 300), (5, 9000)] {
        for op in [ReduceOp::Min, ReduceOp::Max] {
            let name = format!("{op:?} bool {outputs}×{size}");
            let kernel = reduction(DType::Bool, op, outputs, size);
            assert!(wgsl_reduce::suits(&kernel), "{name}");
            validate(&name, &wgsl_reduce::emit(&kernel, 1).unwrap());
            validate(&name, &wgsl_reduce::emit(&kernel, 7).unwrap());
            // `all` (min): rows all true but every other one, which has one false element;
            // `any` (max): the reverse. Each odd place differs per row.
            let base = if op == ReduceOp::Min { 1.0 } else { 0.0 };
            let mut bits = vec![base; outputs * size];
            for o in (0..outputs).step_by(2) {
                bits[o * size + (o * 37 + 11) % size] = 1.0 - base;
            }
            let input = encode(DType::Bool, &bits);
            let want = run_kernel(&kernel, &[&input]).unwrap();
            let got = run_on(&mut gpu, &kernel, std::slice::from_ref(&input));
            assert_eq!(got, want, "{name}");
        }
    }
}

/// A matrix product of `a` (stored as `sa`) and `b` (stored as `sb`), both float32, with
/// the batch axes broadcast.
pub(crate) fn matmul(shape_a: &[usize], shape_b: &[usize], sa: &ShapeTracker, sb: &ShapeTracker) -> Kernel {
    let a = Aval::new(shape_a.to_vec(), DType::Float32);
    let b = Aval::new(shape_b.to_vec(), DType::Float32);
    let (ra, rb) = (shape_a.len(), shape_b.len());
    let rank = ra.max(rb);
    let mut out_shape: Vec<usize> = (0..rank - 2)
        .map(|i| {
            let axis = |shape: &[usize], r: usize| {
                if i + r >= rank {
                    shape[i + r - rank]
                } else {
                    1
                }
            };
            axis(shape_a, ra).max(axis(shape_b, rb))
        })
        .collect();
    out_shape.extend([shape_a[ra - 2], shape_b[rb - 1]]);
    let out = Aval::new(out_shape, DType::Float32);
    view_index::through_views(&matmul_kernel(&a, &b, &out), &[sa, sb])
}

pub(crate) type Case = (
    &'static str,
    Vec<usize>,
    Vec<usize>,
    ShapeTracker,
    ShapeTracker,
);

pub(crate) fn matmul_cases() -> Vec<Case> {
    let contiguous = |s: &[usize]| ShapeTracker::contiguous(s);
    let transposed = |s: &[usize]| {
        // A [.., s0, s1] logical array stored as the transpose of a [.., s1, s0] buffer.
        let r = s.len();
        let mut stored = s.to_vec();
        stored.swap(r - 2, r - 1);
        let mut perm: Vec<usize> = (0..r).collect();
        perm.swap(r - 2, r - 1);
        contiguous(&stored).permute(&perm).unwrap()
    };
    let plain = |name, a: Vec<usize>, b: Vec<usize>| -> Case {
        let (sa, sb) = (contiguous(&a), contiguous(&b));
        (name, a, b, sa, sb)
    };
    vec![
        plain("64x48 @ 48x80", vec![64, 48], vec![48, 80]),
        plain("130x17 @ 17x33", vec![130, 17], vec![17, 33]),
        plain("3x40x20 @ 20x50", vec![3, 40, 20], vec![20, 50]),
        (
            "aᵀ @ bᵀ 70x33 @ 33x90",
            vec![70, 33],
            vec![33, 90],
            transposed(&[70, 33]),
            transposed(&[33, 90]),
        ),
        plain("150x100 @ 100x140", vec![150, 100], vec![100, 140]),
        plain("batched 2x40x20 @ 2x20x50", vec![2, 40, 20], vec![2, 20, 50]),
        (
            "batched aᵀ @ bᵀ 3x33x17 @ 3x17x64",
            vec![3, 33, 17],
            vec![3, 17, 64],
            transposed(&[3, 33, 17]),
            transposed(&[3, 17, 64]),
        ),
        plain(
            "broadcast 2x1x40x20 @ 3x20x36",
            vec![2, 1, 40, 20],
            vec![3, 20, 36],
        ),
    ]
}

#[test]
fn tiled_matmuls_match_the_interpreter() {
    let mut gpu = gpu();
    // Tile shapes: 4×4 outputs per invocation (these sizes' own) and 8×8 (forced), each with
    // 16 steps of k per barrier where the workgroup storage holds them and 8 where not.
    let shapes = [(false, 16384), (true, 16384), (false, 8192), (true, 32768)];
    for ((name, shape_a, shape_b, sa, sb), (large, shared)) in matmul_cases()
        .iter()
        .flat_map(|c| shapes.map(|s| (c.clone(), s)))
    {
        gpu.set_large_tiles(large);
        gpu.set_matmul_shared_bytes(shared);
        let kernel = matmul(&shape_a, &shape_b, &sa, &sb);
        let m = wgsl_matmul::recognise(&kernel).unwrap_or_else(|| panic!("{name}: not tiled"));
        let batched = name.starts_with("batched") || name.starts_with("broadcast");
        assert_eq!(m.batches > 1, batched, "{name}: {} products", m.batches);
        let tile = wgsl_matmul::tile(&m, large, shared, 0);
        // 16 steps take 8.25 KiB (4×4) or 16.25 KiB (8×8).
        let deep = shared >= if large { 32768 } else { 16384 };
        assert_eq!(tile.bk, if deep { 16 } else { 8 }, "{name}: {tile:?}");
        assert!(tile.shared_bytes() <= shared, "{name}: {tile:?}");
        let source = wgsl_matmul::emit(&kernel, &m, &tile).unwrap();
        validate(name, &source);
        for warp_cols in [16, 8] {
            let other = wgsl_matmul::Tile { warp_cols, ..tile };
            validate(name, &wgsl_matmul::emit(&kernel, &m, &other).unwrap());
        }
        let tiled_before = gpu.stats().tiled_dispatches;
        let (na, nb) = (shape_a.iter().product(), shape_b.iter().product());
        let (xa, xb) = (values(na, 1.0), values(nb, 2.0));
        let inputs = vec![encode(DType::Float32, &xa), encode(DType::Float32, &xb)];
        let refs: Vec<&[u8]> = inputs.iter().map(Vec::as_slice).collect();
        let want = run_kernel(&kernel, &refs).unwrap();
        let got = run_on(&mut gpu, &kernel, &inputs);
        // Σ|a||b| ≤ k · 10 · 10 bounds every output's scale.
        let scale = vec![m.k as f64 * 100.0; kernel.size];
        let label = format!("{name} {tile:?}");
        assert_close(&label, &decode_f32(&got), &decode_f32(&want), &scale, 1e-6);
        assert_eq!(
            gpu.stats().tiled_dispatches,
            tiled_before + 1,
            "{label}: tiled"
        );
    }
}

#[test]
fn tiled_matmul_of_an_expression_operand() {
    // An int32 left operand is a cast, not a plain float32 load: its expression is re-emitted
    // per element, while the right operand is read at affine offsets.
    let mut gpu = gpu();
    let a = Aval::new(vec![100, 40], DType::Int32);
    let b = Aval::new(vec![40, 70], DType::Float32);
    let out = Aval::new(vec![100, 70], DType::Float32);
    let kernel = matmul_kernel(&a, &b, &out);
    let m = wgsl_matmul::recognise(&kernel).expect("tiled");
    let tile = wgsl_matmul::tile(&m, false, 16384, 0);
    validate("int32 @ f32", &wgsl_matmul::emit(&kernel, &m, &tile).unwrap());
    let xa: Vec<f64> = values(4000, 1.0).iter().map(|v| v.round()).collect();
    let inputs = vec![
        encode(DType::Int32, &xa),
        encode(DType::Float32, &values(2800, 2.0)),
    ];
    let refs: Vec<&[u8]> = inputs.iter().map(Vec::as_slice).collect();
    let want = run_kernel(&kernel, &refs).unwrap();
    let tiled_before = gpu.stats().tiled_dispatches;
    let got = run_on(&mut gpu, &kernel, &inputs);
    let scale = vec![40.0 * 100.0; kernel.size];
    assert_close("int32 @ f32", &decode_f32(&got), &decode_f32(&want), &scale, 1e-6);
    assert_eq!(gpu.stats().tiled_dispatches, tiled_before + 1);
}

/// The kernel of a stride-1 float32 convolution of `x` by `w` padded by `pad` on each side,
/// simplified as lowering leaves every kernel, with the operands' and result's avals.
pub(crate) fn conv(x: [usize; 4], w: [usize; 4], pad: i64) -> (Kernel, Aval, Aval, Aval) {
    let p = oxjax::core::ConvParams {
        strides: vec![1, 1],
        padding: vec![(pad, pad); 2],
        lhs_dilation: vec![1, 1],
        rhs_dilation: vec![1, 1],
        groups: 1,
    };
    let (x, w) = (
        Aval::new(x.to_vec(), DType::Float32),
        Aval::new(w.to_vec(), DType::Float32),
    );
    let out = oxjax::rules::conv::abstract_eval(&p, &[&x, &w]).unwrap();
    let kernel = oxjax::kernel::simplify::kernel(&oxjax::rules::conv::kernel(&p, &x, &w, &out));
    (kernel, x, w, out)
}

#[test]
fn tiled_convolutions_match_the_interpreter() {
    // A convolution is a batch (images) of products: kernel (rows: output channels) by input
    // windows (columns: output positions), its padding mask moved into the windows' side.
    let mut gpu = gpu();
    let cases: [(&str, [usize; 4], [usize; 4], i64); 2] = [
        ("3×3 SAME", [2, 4, 8, 8], [32, 4, 3, 3], 1),
        ("1×1", [3, 16, 6, 7], [40, 16, 1, 1], 0),
    ];
    for (name, x, w, pad) in cases {
        let (kernel, x, w, out) = conv(x, w, pad);
        let m = wgsl_matmul::recognise(&kernel).unwrap_or_else(|| panic!("{name}: not tiled"));
        let positions = out.shape[2] * out.shape[3];
        assert_eq!(
            (m.batches, m.rows, m.n, m.k),
            (x.shape[0], w.shape[0], positions, x.shape[1] * w.shape[2] * w.shape[3]),
            "{name}"
        );
        let tile = wgsl_matmul::tile(&m, false, 16384, 0);
        validate(name, &wgsl_matmul::emit(&kernel, &m, &tile).unwrap());
        let inputs = vec![
            encode(DType::Float32, &values(x.size(), 1.0)),
            encode(DType::Float32, &values(w.size(), 2.0)),
        ];
        let refs: Vec<&[u8]> = inputs.iter().map(Vec::as_slice).collect();
        let want = run_kernel(&kernel, &refs).unwrap();
        let tiled_before = gpu.stats().tiled_dispatches;
        let got = run_on(&mut gpu, &kernel, &inputs);
        let scale = vec![m.k as f64 * 100.0; kernel.size];
        assert_close(name, &decode_f32(&got), &decode_f32(&want), &scale, 1e-6);
        assert_eq!(gpu.stats().tiled_dispatches, tiled_before + 1, "{name}");
    }
}

#[test]
fn non_products_are_not_tiled() {
    let a = Aval::new(vec![8, 8], DType::Float32);
    let small = matmul_kernel(&a, &a, &a);
    assert!(
        wgsl_matmul::recognise(&small).is_none(),
        "8×8 stays generic"
    );
    let sum = reduction(DType::Float32, ReduceOp::Sum, 64, 64);
    assert!(wgsl_matmul::recognise(&sum).is_none());
}

#[test]
fn dispatches_are_batched_and_buffers_pooled() {
    let mut gpu = gpu();
    let n = 1000;
    let kernel = Kernel::elementwise(
        vec![DType::Float32],
        n,
        AluExp::binary(
            oxjax::kernel::BinaryOp::Add,
            AluExp::load(DType::Float32, 0, AluExp::index()),
            AluExp::constant(DType::Float32, 1.0),
        ),
    );
    let exe = gpu.compile(&kernel).unwrap();
    let x = gpu.alloc(n * 4).unwrap();
    gpu.write(x, &encode(DType::Float32, &vec![0.0; n]))
        .unwrap();
    let before = gpu.stats();
    let chain = 3 * MAX_BATCH + 5;
    let mut cur = x;
    for _ in 0..chain {
        let next = gpu.alloc(n * 4).unwrap();
        gpu.dispatch(exe, &[cur], next).unwrap();
        gpu.free(cur);
        cur = next;
    }
    let got = decode_f32(&gpu.read_sync(cur).unwrap());
    assert!(got.iter().all(|&v| v == chain as f32), "{:?}", &got[..4]);
    let after = gpu.stats();
    assert_eq!(after.dispatches - before.dispatches, chain as u64);
    // One submit per MAX_BATCH dispatches, plus the read's.
    assert_eq!(
        after.submits - before.submits,
        (chain / MAX_BATCH) as u64 + 1
    );
    // Freed buffers were reused within the batch (a kernel writing a buffer that an earlier
    // dispatch of the batch read is ordered after it): two buffers alternate.
    assert!(after.pool_buffers <= 2, "{after:?}");
    assert_eq!(after.live_buffers, 1);
    assert_eq!(after.live_bytes, n * 4);
    // Pooled buffers recur, and so do their bind groups.
    let binds = gpu.bind_group_stats();
    assert!(binds.hits > 0, "{binds:?}");
    gpu.free(cur);
    assert_eq!(gpu.stats().live_buffers, 0);
    assert!(gpu.stats().pool_bytes > 0);
    gpu.clear_pool();
    assert_eq!(gpu.stats().pool_buffers, 0);
    // clearCaches(): pooled buffers, bind groups and pipelines all go; kept ids are stale.
    let x = gpu.alloc(n * 4).unwrap();
    let y = gpu.alloc(n * 4).unwrap();
    gpu.dispatch(exe, &[x], y).unwrap();
    gpu.free(x);
    gpu.flush(); // buffers freed behind pending work are pooled once it is submitted
    assert!(gpu.stats().pool_bytes > 0);
    let generation = gpu.exe_generation();
    gpu.clear_caches();
    let cleared = gpu.stats();
    assert_eq!(
        (
            cleared.pool_buffers,
            cleared.pool_bytes,
            cleared.kernel_cache.entries
        ),
        (0, 0, 0)
    );
    assert_eq!(gpu.bind_group_stats().entries, 0);
    assert_ne!(gpu.exe_generation(), generation);
    let exe = gpu.compile(&kernel).unwrap();
    let z = gpu.alloc(n * 4).unwrap();
    gpu.dispatch(exe, &[y], z).unwrap();
    let got = decode_f32(&gpu.read_sync(z).unwrap());
    assert!(got.iter().all(|&v| v == 2.0), "{:?}", &got[..4]);
    gpu.free(y);
    gpu.free(z);
}

#[test]
fn the_pool_keeps_up_to_the_peak_of_live_bytes() {
    let mut gpu = gpu();
    // A floor of 64 KiB, results of 256 KiB: the floor alone keeps none of them.
    gpu.set_pool_floor(64 << 10);
    gpu.clear_caches();
    let bytes = 256 << 10;
    let kernel = Kernel::elementwise(
        vec![DType::Float32],
        bytes / 4,
        AluExp::binary(
            oxjax::kernel::BinaryOp::Add,
            AluExp::load(DType::Float32, 0, AluExp::index()),
            AluExp::constant(DType::Float32, 1.0),
        ),
    );
    let exe = gpu.compile(&kernel).unwrap();
    let x = gpu.alloc(bytes).unwrap();
    gpu.write(x, &encode(DType::Float32, &vec![0.0; bytes / 4]))
        .unwrap();
    // Round one keeps 20 results (each a fresh buffer), then frees them all: the bound is the
    // peak (21 buffers live) less what is live (x), so the pool keeps the 20.
    let round = |gpu: &mut WebGpuBackend| {
        let kept: Vec<_> = (0..20)
            .map(|_| {
                let y = gpu.alloc(bytes).unwrap();
                gpu.dispatch(exe, &[x], y).unwrap();
                y
            })
            .collect();
        let last = decode_f32(&gpu.read_sync(kept[19]).unwrap());
        assert!(last.iter().all(|&v| v == 1.0), "{:?}", &last[..4]);
        for y in kept {
            gpu.free(y);
        }
        gpu.flush();
    };
    let (hits0, misses0) = gpu.pool_counts();
    round(&mut gpu);
    let (hits1, misses1) = gpu.pool_counts();
    assert_eq!((hits1 - hits0, misses1 - misses0), (0, 20));
    assert_eq!(gpu.stats().pool_buffers, 20);
    assert_eq!(gpu.stats().pool_bytes, 20 * bytes);
    // Round two finds every buffer again and creates none.
    round(&mut gpu);
    let (hits2, misses2) = gpu.pool_counts();
    assert_eq!((hits2 - hits1, misses2 - misses1), (20, 0));
    assert_eq!(gpu.stats().pool_buffers, 20);
    // With 10 results live, the pool keeps only the peak less those: 10 buffers.
    let live: Vec<_> = (0..10).map(|_| gpu.alloc(bytes).unwrap()).collect();
    assert_eq!(gpu.stats().pool_buffers, 10);
    // A freed 1 MiB buffer: the bound is the peak (21 units of 256 KiB) less the 11 live, so
    // the oldest free buffers make room for it.
    let more = gpu.alloc(4 * bytes).unwrap();
    gpu.free(more);
    assert_eq!(gpu.stats().pool_bytes, 10 * bytes);
    assert_eq!(gpu.stats().pool_buffers, 7);
    for y in live {
        gpu.free(y);
    }
    // clearCaches(): the pool empties and the peak starts again from what is live (x).
    gpu.clear_caches();
    assert_eq!((gpu.stats().pool_buffers, gpu.stats().pool_bytes), (0, 0));
    let y = gpu.alloc(bytes).unwrap();
    gpu.free(y);
    gpu.flush();
    assert_eq!(gpu.stats().pool_bytes, bytes, "peak: x and y live, y pooled");
    let big = gpu.alloc(2 * bytes).unwrap();
    gpu.free(big);
    gpu.flush();
    // Peak 3 units (x and big): 2 may be pooled; y, the oldest, is evicted.
    assert_eq!(gpu.stats().pool_bytes, 2 * bytes);
    assert_eq!(gpu.stats().pool_buffers, 1);
    gpu.free(x);
    gpu.clear_caches();
    assert_eq!(gpu.stats().live_buffers, 0);
}

#[test]
fn host_writes_wait_for_the_batch_that_used_a_reused_buffer() {
    let mut gpu = gpu();
    let n = 256;
    let double = Kernel::elementwise(
        vec![DType::Float32],
        n,
        AluExp::binary(
            oxjax::kernel::BinaryOp::Mul,
            AluExp::load(DType::Float32, 0, AluExp::index()),
            AluExp::constant(DType::Float32, 2.0),
        ),
    );
    let exe = gpu.compile(&double).unwrap();
    let x = gpu.alloc(n * 4).unwrap();
    gpu.write(x, &encode(DType::Float32, &vec![3.0; n]))
        .unwrap();
    let y = gpu.alloc(n * 4).unwrap();
    gpu.dispatch(exe, &[x], y).unwrap();
    gpu.free(x);
    let before = gpu.stats();
    // The same pooled buffer comes back (the only one of its class) while the dispatch that
    // reads it is pending; the write must not overtake that dispatch (`write_buffer` runs at
    // the next submit's start), nor submit the batch.
    let z = gpu.alloc(n * 4).unwrap();
    assert_eq!(gpu.stats().pool_buffers, before.pool_buffers - 1);
    gpu.write(z, &encode(DType::Float32, &vec![5.0; n]))
        .unwrap();
    assert_eq!(
        gpu.stats().submits,
        before.submits,
        "the write stays in the batch"
    );
    let got_y = decode_f32(&gpu.read_sync(y).unwrap());
    assert!(got_y.iter().all(|&v| v == 6.0), "{:?}", &got_y[..4]);
    let got_z = decode_f32(&gpu.read_sync(z).unwrap());
    assert!(got_z.iter().all(|&v| v == 5.0), "{:?}", &got_z[..4]);
    gpu.free(y);
    gpu.free(z);
}

#[test]
fn epilogues_follow_every_reduction_plan() {
    let mut gpu = gpu();
    // Generic loop, workgroup tree, and an axis cut into parts (three stages with the epilogue).
    for (outputs, size) in [(3, 10), (4, 5000), (1, 300_000)] {
        let mut kernel = reduction(DType::Float32, ReduceOp::Max, outputs, size);
        let value = AluExp::load(DType::Float32, 0, AluExp::index());
        let half = AluExp::binary(
            oxjax::kernel::BinaryOp::Mul,
            value,
            AluExp::constant(DType::Float32, 0.5),
        );
        kernel.epilogue = Some(AluExp::binary(
            oxjax::kernel::BinaryOp::Add,
            half,
            AluExp::constant(DType::Float32, 1.0),
        ));
        let input = encode(DType::Float32, &values(outputs * size, 3.0));
        let want = run_kernel(&kernel, &[&input]).unwrap();
        let plain = run_kernel(&kernel.without_epilogue(), &[&input]).unwrap();
        let mapped: Vec<f32> = decode_f32(&plain).iter().map(|m| m * 0.5 + 1.0).collect();
        assert_eq!(
            decode_f32(&want),
            mapped,
            "the interpreter applies the epilogue"
        );
        let got = run_on(&mut gpu, &kernel, std::slice::from_ref(&input));
        assert_eq!(got, want, "{outputs}×{size}");
    }
}
