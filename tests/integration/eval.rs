//! Eager evaluation through the device registry on the `cpu` device: results, buffer release
//! when values drop, errors that name the operation, and repeated applications dispatching
//! their kept compiled kernel.

use crate::common::{encode, values};
use oxjax::backend::registry;
use oxjax::core::{DType, Device, Primitive};
use oxjax::transform::{eval, ArrayValue};

fn array(shape: Vec<usize>, device: Device) -> ArrayValue {
    let n = shape.iter().product();
    ArrayValue::from_bytes(
        "t",
        &encode(DType::Float32, &values(n, 3.0)),
        shape,
        DType::Float32,
        device,
    )
    .unwrap()
}

#[test]
fn results_and_buffer_release() {
    let before = registry::stats(Device::Cpu).unwrap().live_buffers;
    {
        let a = array(vec![2, 3], Device::Cpu);
        let s = ArrayValue::weak_scalar("t", 2.0, DType::Float32, Device::Cpu).unwrap();
        let out = eval::apply(&Primitive::MUL, &[&a, &s]).unwrap();
        assert_eq!(out.aval.shape, vec![2, 3]);
        assert_eq!((out.aval.dtype, out.aval.weak), (DType::Float32, false));
        let want: Vec<u8> = values(6, 3.0)
            .iter()
            .flat_map(|&v| ((v as f32) * 2.0).to_le_bytes())
            .collect();
        assert_eq!(out.read_sync("t").unwrap(), want);
        let shared = out.clone(); // views share the buffer
        drop(out);
        assert_eq!(
            registry::stats(Device::Cpu).unwrap().live_buffers,
            before + 3
        );
        drop(shared);
    }
    assert_eq!(registry::stats(Device::Cpu).unwrap().live_buffers, before);
}

#[test]
fn repeated_applications_dispatch_their_kept_kernel() {
    // Kernel-cache lookups (hits and misses): each one is a kernel built and compiled or found.
    let lookups = || {
        let s = registry::stats(Device::Cpu).unwrap().kernel_cache;
        s.hits + s.misses
    };
    let a = array(vec![3, 5], Device::Cpu);
    let sum = |x: &ArrayValue, y: &ArrayValue| eval::apply(&Primitive::ADD, &[x, y]).unwrap();
    let twice = sum(&a, &a);
    let before = lookups();
    let thrice = sum(&twice, &a);
    assert_eq!(lookups(), before, "the same avals again: no kernel built");
    // x + x + … + x (`terms` of them), summed left to right in float32.
    let want = |terms: usize| -> Vec<u8> {
        let v = values(15, 3.0);
        let sum = |x: f32| (1..terms).fold(x, |s, _| s + x);
        v.iter().flat_map(|&x| sum(x as f32).to_le_bytes()).collect()
    };
    assert_eq!(twice.read_sync("t").unwrap(), want(2));
    assert_eq!(thrice.read_sync("t").unwrap(), want(3));
    // A transposed operand is not dense: its kernel reads through the view, built anew.
    let at = eval::apply(&Primitive::Transpose(vec![1, 0]), &[&a]).unwrap();
    let before = lookups();
    let _ = sum(&at, &at);
    assert_eq!(lookups(), before + 1);
    // Cleared caches: the kept id is stale, so the kernel is compiled again.
    registry::clear_caches();
    let before = lookups();
    assert_eq!(sum(&thrice, &a).read_sync("t").unwrap(), want(4));
    assert_eq!(lookups(), before + 1);
}

#[test]
fn errors_name_the_operation() {
    let a = array(vec![2], Device::Cpu);
    let b = array(vec![3], Device::Cpu);
    let err = eval::apply(&Primitive::ADD, &[&a, &b]).unwrap_err();
    assert_eq!(
        err.message(),
        "add: shapes [2] and [3] cannot be broadcast together"
    );
    let err = ArrayValue::from_bytes("array", &[0; 4], vec![], DType::Float32, Device::WebGpu)
        .unwrap_err();
    assert!(
        err.message()
            .starts_with("array: the webgpu device is not initialized"),
        "{err}"
    );
    let err =
        ArrayValue::from_bytes("array", &[0; 3], vec![1], DType::Float32, Device::Cpu).unwrap_err();
    assert_eq!(
        err.message(),
        "array: 3 bytes of data do not fill shape [1] of float32"
    );
}
