//! Eager evaluation through the device registry on the `cpu` device: results, buffer release
//! when values drop, and errors that name the operation.

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
