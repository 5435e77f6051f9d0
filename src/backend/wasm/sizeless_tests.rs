//! Tests of the kernel modules shared across sizes (`WasmBackend::sizeless`): the kernels
//! `emit::size_free` accepts emit the same module at every size, and the backend compiles a
//! kernel that differs from an earlier one only in its size without emitting anything.

use super::emit::{emit_kernel, size_free};
use super::WasmBackend;
use crate::backend::Backend;
use crate::core::DType;
use crate::kernel::{AluExp, BinaryOp, Kernel, ReduceOp, Reduction, UnaryOp};

fn load(input: usize) -> AluExp {
    AluExp::load(DType::Float32, input, AluExp::index())
}

fn resized(kernel: &Kernel, size: usize) -> Kernel {
    Kernel {
        size,
        ..kernel.clone()
    }
}

/// `out[i, j] = Σ_r a[i, r] · b[r, j]` over `size / n` rows (flat i over [rows, n]).
fn product(k: usize, n: usize, size: usize) -> Kernel {
    super::emit::simd_tests::matmul(size / n, k, n)
}

fn corpus() -> Vec<Kernel> {
    let add = Kernel::elementwise(
        vec![DType::Float32; 2],
        100,
        AluExp::binary(BinaryOp::Add, load(0), load(1)),
    );
    let sin = Kernel::elementwise(
        vec![DType::Float32],
        100,
        AluExp::unary(UnaryOp::Sin, load(0)),
    );
    let mut sum = Kernel::elementwise(
        vec![DType::Float32],
        10,
        AluExp::load(
            DType::Float32,
            0,
            AluExp::index_add(
                AluExp::index_mul(AluExp::index(), 64),
                AluExp::reduce_index(),
            ),
        ),
    );
    sum.reduction = Some(Reduction {
        op: ReduceOp::Sum,
        size: 64,
    });
    let mut mean = sum.clone();
    mean.epilogue = Some(AluExp::binary(
        BinaryOp::Mul,
        load(0),
        AluExp::constant(DType::Float32, 1.0 / 64.0),
    ));
    vec![add, sin, sum, mean, product(12, 5, 35)]
}

#[test]
fn size_free_kernels_emit_the_same_module_at_every_size() {
    for kernel in corpus() {
        assert!(size_free(&kernel), "{kernel:?}");
        let bytes = emit_kernel(&kernel).unwrap();
        for size in [1, 3, 17, 1000, 123_457] {
            let other = resized(&kernel, size);
            assert!(size_free(&other), "{other:?}");
            assert_eq!(emit_kernel(&other).unwrap(), bytes, "{other:?}");
        }
    }
}

#[test]
fn products_planned_by_rows_are_not_size_free() {
    // 16 columns: the tiled product, whose plan counts rows.
    assert!(!size_free(&product(16, 16, 16 * 16)));
}

#[test]
fn a_kernel_of_another_size_runs_the_module_compiled_before() {
    let mut backend = WasmBackend::new();
    let kernels = corpus();
    for kernel in &kernels {
        backend.compile(kernel).unwrap();
    }
    let emitted = backend.stats().code_bytes;
    assert!(emitted > 0);
    // (Kernels large enough to split across threads are emitted again: their workers need the
    // bytes.)
    let mut ids = vec![];
    for kernel in &kernels {
        for size in [7, 300] {
            ids.push(backend.compile(&resized(kernel, size)).unwrap());
        }
    }
    let stats = backend.stats();
    assert_eq!(stats.code_bytes, emitted, "nothing emitted again");
    assert_eq!(stats.size_reuses, 2 * kernels.len() as u64);
    assert_eq!(stats.kernel_cache.misses, 3 * kernels.len() as u64);
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), 2 * kernels.len(), "one kernel id per size");
    // A tiled product of another row count is emitted anew.
    backend.compile(&product(16, 16, 16 * 16)).unwrap();
    let tiled = backend.stats().code_bytes;
    assert!(tiled > emitted);
    backend.compile(&product(16, 16, 32 * 16)).unwrap();
    assert!(backend.stats().code_bytes > tiled);
    assert_eq!(backend.stats().size_reuses, 2 * kernels.len() as u64);
    // Cleared caches compile everything again.
    backend.clear_caches();
    backend.compile(&kernels[0]).unwrap();
    backend.compile(&resized(&kernels[0], 55)).unwrap();
    assert_eq!(backend.stats().size_reuses, 2 * kernels.len() as u64 + 1);
}
