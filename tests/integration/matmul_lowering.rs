//! The products that `einsum`, `matmul` of transposed operands and convolutions lower to are
//! the kernels the tiled code generators recognise (`kernel::matmul`): batches of products
//! where both operands are batched, operands read at affine indices through their transposes
//! (so the WebGPU tile's offset loads apply), and a convolution as its images' products.
//! Products whose operands both read the contracted axis contiguously (`a·bᵀ`) lower to a
//! copy of `b` transposed and an ordinary product that the wasm code tiles. Numerics of these
//! kernels are checked against the interpreter in `webgpu_fast`.

use crate::common::trace::{f32v, trace_fn};
use oxjax::backend::wasm::emit;
use oxjax::backend::webgpu::wgsl_matmul;
use oxjax::kernel::matmul::{plain_load, Lin, Matmul};
use oxjax::core::DType;
use oxjax::kernel::{order, AluExp, DeviceLimits};
use oxjax::lower::program::Program;
use oxjax::library::{einsum::einsum, shape::transpose};
use oxjax::lower;
use oxjax::transform::trace::{bind, Operand};
use oxjax::transform::Value;

/// The program `f` of operands of these shapes lowers to, for a device of WebGPU's smallest
/// input limit.
fn program(shapes: &[&[usize]], f: impl FnOnce(&[Value]) -> Value) -> Program {
    let avals: Vec<_> = shapes.iter().map(|s| f32v(s)).collect();
    let closed = trace_fn(&avals, |v| vec![f(v)]);
    lower::lower(
        &closed.jaxpr,
        DeviceLimits {
            max_kernel_inputs: 7,
            inline_terms: 3,
        },
    )
}

/// The products in the program `f` of operands of these shapes lowers to.
fn products(shapes: &[&[usize]], f: impl FnOnce(&[Value]) -> Value) -> Vec<Matmul> {
    let program = program(shapes, f);
    program.kernels().filter_map(wgsl_matmul::recognise).collect()
}

/// `a @ bᵀ` as `inner` writes it: the product of `a` and a transpose view of `b`.
fn a_bt(v: &[Value]) -> Value {
    let bt = transpose(&v[1], None).unwrap();
    bind(
        oxjax::core::Primitive::Matmul,
        &[Operand::Value(&v[0]), Operand::Value(&bt)],
    )
    .unwrap()
}

/// Both operands of `m` are plain loads at affine indices (single products only).
fn affine(m: &Matmul) -> bool {
    let (rows, n, k) = (m.rows as i64, m.n as i64, m.k as i64);
    plain_load(&m.a, Lin { c: 0, v: [n, 0] }, [rows, k]).is_some()
        && plain_load(&m.b, Lin { c: 0, v: [1, 0] }, [n, k]).is_some()
}

#[test]
fn einsum_of_stacked_matrices_is_a_batch_of_products() {
    for spec in ["bij,bjk->bik", "bji,bjk->bik", "bij,bkj->bik"] {
        let a_shape: &[usize] = if spec.starts_with("bji") { &[3, 48, 64] } else { &[3, 64, 48] };
        let b_shape: &[usize] = if spec.contains(",bkj") { &[3, 80, 48] } else { &[3, 48, 80] };
        let found = products(&[a_shape, b_shape], |v| einsum(spec, &v[..2]).unwrap());
        assert_eq!(found.len(), 1, "{spec}: {found:?}");
        let m = &found[0];
        assert_eq!((m.batches, m.rows, m.n, m.k), (3, 64, 80, 48), "{spec}");
    }
}

#[test]
fn transposed_operands_are_read_at_affine_indices() {
    // a @ bᵀ through einsum, aᵀ @ b through a transpose view.
    let inner = products(&[&[64, 48], &[80, 48]], |v| einsum("ij,kj->ik", &v[..2]).unwrap());
    let at_b = products(&[&[48, 64], &[48, 80]], |v| {
        let at = transpose(&v[0], None).unwrap();
        bind(
            oxjax::core::Primitive::Matmul,
            &[Operand::Value(&at), Operand::Value(&v[1])],
        )
        .unwrap()
    });
    for (name, found) in [("a @ bᵀ", inner), ("aᵀ @ b", at_b)] {
        assert_eq!(found.len(), 1, "{name}: {found:?}");
        let m = &found[0];
        assert_eq!((m.batches, m.rows, m.n, m.k), (1, 64, 80, 48), "{name}");
        assert!(affine(m), "{name}: {m:?}");
    }
}

#[test]
fn a_convolution_is_a_batch_of_products() {
    use oxjax::library::conv::{conv_general_dilated, Padding};
    // Images × (output channels by output positions), k = input channels × taps.
    let found = products(&[&[2, 16, 12, 12], &[48, 16, 3, 3]], |v| {
        conv_general_dilated(&v[0], &v[1], &[1, 1], &Padding::Same, None, None, 1).unwrap()
    });
    assert_eq!(found.len(), 1, "{found:?}");
    let m = &found[0];
    assert_eq!((m.batches, m.rows, m.n, m.k), (2, 48, 144, 144));
}

#[test]
fn products_contiguous_in_k_store_the_column_operand_transposed() {
    let einsum_abt = |v: &[Value]| einsum("ij,kj->ik", &v[..2]).unwrap();
    for (name, f) in [("inner", &a_bt as &dyn Fn(&[Value]) -> Value), ("einsum", &einsum_abt)] {
        let p = program(&[&[256, 256], &[256, 256]], f);
        let kernels: Vec<_> = p.kernels().collect();
        let reducing: Vec<usize> = (0..kernels.len())
            .filter(|&i| kernels[i].reduction.is_some())
            .collect();
        assert!(matches!(reducing[..], [i] if i >= 1), "{name}: {kernels:?}");
        // The kernel before the product stores `b` transposed.
        let (copy, product) = (kernels[reducing[0] - 1], kernels[reducing[0]]);
        let dense = AluExp::load(DType::Float32, 0, AluExp::index());
        assert!(copy.reduction.is_none() && copy.size == 256 * 256, "{name}: {copy:?}");
        assert!(copy.exp != dense, "{name}: a transposing copy, not a plain one");
        assert!(order::narrow(product) && !order::blocked(product), "{name}");
        let m = wgsl_matmul::recognise(product).expect("a product");
        assert_eq!((m.batches, m.rows, m.n, m.k), (1, 256, 256, 256), "{name}");
        assert!(affine(&m), "{name}: {m:?}");
        // The wasm code tiles it: its ranges are whole blocks of 4-row tiles.
        assert_eq!(emit::split_align(product), 4 * 256, "{name}");
    }
    // A small product keeps one lane-blocked kernel: a copy would cost more than it saves.
    let p = program(&[&[16, 16], &[16, 16]], a_bt);
    let kernels: Vec<_> = p.kernels().collect();
    assert_eq!(kernels.len(), 1, "{kernels:?}");
    assert!(order::blocked(kernels[0]));
}
