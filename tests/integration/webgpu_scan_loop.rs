//! The looping scan shader (`backend/webgpu/program/looping.rs`), natively on wgpu over Vulkan
//! (lavapipe), below the planner: a hand-placed RTS-style body (P' = A·P·Aᵀ + Q[row], y = P')
//! runs as ONE dispatch for the whole scan, forward and reverse, for state sizes that fit one
//! invocation per element and sizes that need the workgroup-strided loop, with the Q rows read
//! from storage or staged in chunks through a ring in workgroup memory. Oracle: the same
//! kernels stepped on the `cpu` interpreter. Each shader is validated with naga first.

use crate::common::wgsl::validate_source;
use crate::common::{block_on, decode_f32, encode, upload, values};
use oxjax::backend::cpu::run_kernel;
use oxjax::backend::webgpu::program::compiled::Packed;
use oxjax::backend::webgpu::program::looping::{LoopOp, LoopShader, Parity, Place, Prefetch, Space};
use oxjax::backend::webgpu::WebGpuBackend;
use oxjax::backend::Backend;
use oxjax::core::DType;
use oxjax::kernel::{AluExp, BinaryOp, Kernel, ReduceOp, Reduction};

const F: DType = DType::Float32;

/// `out = a · b` (`transpose_b`: `a · bᵀ`) for m×m matrices.
fn matmul(m: usize, transpose_b: bool) -> Kernel {
    let i = AluExp::index_div(AluExp::index(), m);
    let j = AluExp::index_rem(AluExp::index(), m);
    let r = AluExp::reduce_index();
    let a = AluExp::load(
        F,
        0,
        AluExp::index_add(AluExp::index_mul(i, m as isize), r.clone()),
    );
    let b_index = if transpose_b {
        AluExp::index_add(AluExp::index_mul(j, m as isize), r)
    } else {
        AluExp::index_add(AluExp::index_mul(r, m as isize), j)
    };
    let b = AluExp::load(F, 1, b_index);
    let mut k = Kernel::elementwise(vec![F, F], m * m, AluExp::binary(BinaryOp::Mul, a, b));
    k.reduction = Some(Reduction {
        op: ReduceOp::Sum,
        size: m,
    });
    k
}

fn add(size: usize) -> Kernel {
    let x = |j| AluExp::load(F, j, AluExp::index());
    Kernel::elementwise(vec![F, F], size, AluExp::binary(BinaryOp::Add, x(0), x(1)))
}

fn copy(size: usize) -> Kernel {
    Kernel::elementwise(vec![F], size, AluExp::load(F, 0, AluExp::index()))
}

/// Packed layout (words): A | Q (n rows) | P (2 halves) | T | U | ys (n rows). With `chunk` >
/// 0, the add reads Q's rows from a ring of `2 * chunk` rows in workgroup memory, staged
/// `chunk` steps at a time.
fn rts_loop(m: usize, n: usize, reverse: bool, chunk: u32) -> (LoopShader, [u32; 6]) {
    let s = (m * m) as u32;
    let n32 = n as u32;
    let (a, q) = (0, s);
    let p = q + n32 * s;
    let (t, u, ys) = (p + 2 * s, p + 3 * s, p + 4 * s);
    let row = |region, base| Place {
        row_stride: s,
        ..Place::fixed(region, base)
    };
    let carry = |parity| Place {
        parity,
        ..Place::fixed(2, p)
    };
    let q_row = if chunk > 0 {
        Place {
            space: Space::Workgroup,
            parity: Parity::Ring {
                rows: 2 * chunk,
                size: s,
            },
            ..Place::fixed(6, 0)
        }
    } else {
        row(1, q)
    };
    let prefetch = if chunk > 0 {
        vec![Prefetch {
            binding: 0,
            src: q,
            dst: 0,
            words: s,
            rows: 2 * chunk,
        }]
    } else {
        vec![]
    };
    let ops = vec![
        LoopOp {
            kernel: matmul(m, false),
            inputs: vec![Place::fixed(0, a), carry(Parity::Current(s))],
            output: Place::fixed(3, t),
        },
        LoopOp {
            kernel: matmul(m, true),
            inputs: vec![Place::fixed(3, t), Place::fixed(0, a)],
            output: Place::fixed(4, u),
        },
        LoopOp {
            kernel: add(m * m),
            inputs: vec![Place::fixed(4, u), q_row],
            output: carry(Parity::Next(s)),
        },
        LoopOp {
            kernel: copy(m * m),
            inputs: vec![carry(Parity::Next(s))],
            output: row(5, ys),
        },
    ];
    let shader = LoopShader {
        ops,
        length: n32,
        reverse,
        workgroup_words: 2 * chunk * s,
        prologue: vec![],
        epilogue: vec![],
        prefetch,
        nests: vec![],
        bound: vec![],
    };
    (shader, [a, q, p, t, u, ys])
}

/// The same body stepped on the cpu interpreter: (final P, ys).
fn oracle(m: usize, n: usize, reverse: bool, a: &[u8], q: &[u8], p0: &[u8]) -> (Vec<u8>, Vec<u8>) {
    let row_bytes = m * m * 4;
    let mut p = p0.to_vec();
    let mut ys = vec![0u8; n * row_bytes];
    for step in 0..n {
        let r = if reverse { n - 1 - step } else { step };
        let qr = &q[r * row_bytes..(r + 1) * row_bytes];
        let t = run_kernel(&matmul(m, false), &[a, &p]).unwrap();
        let u = run_kernel(&matmul(m, true), &[&t, a]).unwrap();
        p = run_kernel(&add(m * m), &[&u, qr]).unwrap();
        ys[r * row_bytes..(r + 1) * row_bytes].copy_from_slice(&p);
    }
    (p, ys)
}

fn check(gpu: &mut WebGpuBackend, m: usize, n: usize, reverse: bool, chunk: u32) {
    let name = format!("m={m} n={n} reverse={reverse} chunk={chunk}");
    let s = m * m;
    let a: Vec<f64> = values(s, 1.0)
        .iter()
        .map(|v| v / (10.0 * m as f64))
        .collect();
    let (a, q, p0) = (
        encode(F, &a),
        encode(F, &values(n * s, 2.0)),
        encode(F, &values(s, 3.0)),
    );
    let (shader, [wa, wq, wp, _, _, wys]) = rts_loop(m, n, reverse, chunk);
    validate_source("looping shader", &shader.emit().unwrap());
    let words = wys + (n * s) as u32;
    let ids = [upload(gpu, &a), upload(gpu, &q), upload(gpu, &p0)];
    let p_out = gpu.alloc(s * 4).unwrap();
    let ys_out = gpu.alloc(n * s * 4).unwrap();
    let before = gpu.stats();
    // The final carry is in the half written by the last step.
    let last = wp + ((n as u32) & 1) * s as u32;
    let packed = |buffer, word| Packed { buffer, word };
    gpu.run_loop(
        &shader,
        words,
        &[packed(ids[0], wa), packed(ids[1], wq), packed(ids[2], wp)],
        &[packed(p_out, last), packed(ys_out, wys)],
    )
    .unwrap();
    let after = gpu.stats();
    assert_eq!(
        after.dispatches - before.dispatches,
        1,
        "{name}: one dispatch"
    );
    let (want_p, want_ys) = oracle(m, n, reverse, &a, &q, &p0);
    for (what, got, want) in [
        ("P", gpu.read_sync(p_out).unwrap(), want_p),
        ("ys", gpu.read_sync(ys_out).unwrap(), want_ys),
    ] {
        let (got, want) = (decode_f32(&got), decode_f32(&want));
        assert_eq!(got.len(), want.len());
        for (k, (g, w)) in got.iter().zip(&want).enumerate() {
            assert!(
                (g - w).abs() <= 1e-5 * (1.0 + w.abs()),
                "{name} {what}[{k}]: {g} vs {w}"
            );
        }
    }
    for id in ids.into_iter().chain([p_out, ys_out]) {
        gpu.free(id);
    }
}

#[test]
fn rts_body_is_one_dispatch_per_scan() {
    let mut gpu = block_on(WebGpuBackend::new(Some(8))).expect("a Vulkan adapter (lavapipe)");
    for (m, n) in [(2, 40), (5, 7), (8, 33), (20, 5)] {
        for reverse in [false, true] {
            check(&mut gpu, m, n, reverse, 0);
        }
    }
    // Q staged through a workgroup ring: chunks of 1 (double buffering), 4 and 16 steps, with
    // scans shorter than a chunk, of whole chunks, and ending mid-chunk; rows of more words
    // than the workgroup has invocations (m = 8 with chunk 16: 1024 words per chunk).
    for (m, n, chunk) in [(2, 40, 1), (2, 37, 4), (3, 3, 4), (2, 64, 16), (8, 33, 16)] {
        for reverse in [false, true] {
            check(&mut gpu, m, n, reverse, chunk);
        }
    }
    // A second run of the same structure reuses the compiled shader.
    check(&mut gpu, 2, 40, false, 0);
}
