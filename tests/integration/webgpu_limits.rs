//! Device limits (ARCHITECTURE.md decision 5): kernels that would read more buffers than a device
//! binds are split by `kernel::split`, and the eager path on `webgpu` with the storage-buffer
//! limit forced to 8 (7 inputs + the output) runs them correctly. Oracle: the `cpu` interpreter
//! on the unsplit kernel / the `cpu` device.

use crate::common::{block_on, encode, values};
use oxjax::backend::cpu::run_kernel;
use oxjax::backend::registry;
use oxjax::backend::webgpu::WebGpuBackend;
use oxjax::core::{DType, Device, Primitive};
use oxjax::kernel::split::{split_inputs, used_inputs, Source};
use oxjax::kernel::{AluExp, BinaryOp, Kernel, ReduceOp, Reduction};
use oxjax::transform::{eval, ArrayValue};

const LIMIT: usize = 7;

/// Runs a split plan on the cpu interpreter, checking that no step reads more than `LIMIT`.
fn run_split(kernel: &Kernel, inputs: &[Vec<u8>]) -> Vec<u8> {
    let sizes: Vec<usize> = inputs.iter().map(|b| b.len() / 4).collect();
    let steps = split_inputs(kernel, &sizes, LIMIT).unwrap();
    assert!(steps.len() > 1, "a kernel over the limit must be split");
    let mut outs: Vec<Vec<u8>> = Vec::new();
    for step in &steps {
        assert!(step.kernel.inputs.len() <= LIMIT);
        assert_eq!(
            used_inputs(&step.kernel.exp).len(),
            step.kernel.inputs.len()
        );
        let refs: Vec<&[u8]> = step
            .sources
            .iter()
            .map(|s| match *s {
                Source::Input(i) => inputs[i].as_slice(),
                Source::Step(j) => outs[j].as_slice(),
            })
            .collect();
        outs.push(run_kernel(&step.kernel, &refs).unwrap());
    }
    outs.pop().unwrap()
}

/// Σ_j w_j · x_j over 20 inputs of mixed dtypes (int32 inputs cast to float), reading each at a
/// shifted index, optionally reduced over a window.
fn many_inputs_kernel(n: usize, reduce: bool) -> (Kernel, Vec<Vec<u8>>) {
    let count = 20;
    let dtypes: Vec<DType> = (0..count)
        .map(|j| {
            if j % 3 == 0 {
                DType::Int32
            } else {
                DType::Float32
            }
        })
        .collect();
    let i = if reduce {
        AluExp::index_add(AluExp::index(), AluExp::reduce_index())
    } else {
        AluExp::index()
    };
    let mut exp: Option<AluExp> = None;
    for (j, &d) in dtypes.iter().enumerate() {
        let idx = AluExp::index_rem(
            AluExp::index_add(i.clone(), AluExp::constant(DType::Int32, j as f64)),
            n,
        );
        let x = AluExp::cast(AluExp::load(d, j, idx), DType::Float32);
        let term = AluExp::binary(
            BinaryOp::Mul,
            x,
            AluExp::constant(DType::Float32, (j + 1) as f64),
        );
        exp = Some(match exp {
            None => term,
            Some(e) => AluExp::binary(BinaryOp::Add, e, term),
        });
    }
    let inputs = dtypes
        .iter()
        .enumerate()
        .map(|(j, &d)| encode(d, &values(n, j as f64 + 1.0)))
        .collect();
    let kernel = Kernel {
        inputs: dtypes,
        size: n,
        exp: exp.unwrap(),
        reduction: reduce.then_some(Reduction {
            op: ReduceOp::Sum,
            size: 5,
        }),
        epilogue: None,
    };
    (kernel, inputs)
}

#[test]
fn split_plans_match_the_unsplit_kernel() {
    for reduce in [false, true] {
        let (kernel, inputs) = many_inputs_kernel(37, reduce);
        let refs: Vec<&[u8]> = inputs.iter().map(Vec::as_slice).collect();
        let want = run_kernel(&kernel, &refs).unwrap();
        assert_eq!(run_split(&kernel, &inputs), want, "reduce={reduce}");
    }
}

#[test]
fn kernels_within_the_limit_are_one_step() {
    let (kernel, inputs) = many_inputs_kernel(5, false);
    let sizes: Vec<usize> = inputs.iter().map(|b| b.len() / 4).collect();
    let steps = split_inputs(&kernel, &sizes, 64).unwrap();
    assert_eq!(steps.len(), 1);
    assert_eq!(steps[0].kernel, kernel);
}

fn array(shape: Vec<usize>, seed: f64, device: Device) -> ArrayValue {
    let n = shape.iter().product();
    let data = encode(DType::Float32, &values(n, seed));
    ArrayValue::from_bytes("t", &data, shape, DType::Float32, device).unwrap()
}

/// Concatenating 20 arrays (some read through transposed views) on webgpu with 8 storage
/// buffers matches the cpu device, and the pack steps are counted as extra dispatches.
#[test]
fn eager_concatenate_of_20_arrays_with_limit_8() {
    let gpu = block_on(WebGpuBackend::new(Some(8))).expect("a Vulkan adapter (lavapipe)");
    assert_eq!(gpu.max_storage_buffers(), 8);
    // Small operations on host-held arrays would run on the host (`eval_host`): these
    // check the device's kernels.
    oxjax::transform::eval_host::set_enabled(false);
    registry::install_webgpu(gpu);
    assert_eq!(registry::limits(Device::WebGpu).max_kernel_inputs, 7);
    let concat = |device: Device| {
        let parts: Vec<ArrayValue> = (0..20)
            .map(|j| {
                let a = array(vec![3, 2 + j % 3], j as f64, device);
                if j % 4 == 1 {
                    // A transposed view of a [2+j%3, 3] array.
                    let t = array(vec![2 + j % 3, 3], j as f64 + 0.5, device);
                    eval::apply(&Primitive::Transpose(vec![1, 0]), &[&t]).unwrap()
                } else {
                    a
                }
            })
            .collect();
        let refs: Vec<&ArrayValue> = parts.iter().collect();
        let out = eval::apply(&Primitive::Concatenate(1), &refs).unwrap();
        (out.aval.shape.clone(), out.read_sync("t").unwrap())
    };
    let before = registry::stats(Device::WebGpu).unwrap();
    let (shape, got) = concat(Device::WebGpu);
    let after = registry::stats(Device::WebGpu).unwrap();
    let (want_shape, want) = concat(Device::Cpu);
    assert_eq!(shape, want_shape);
    assert_eq!(got, want);
    // 20 inputs → at least 3 kernels (two packs and the concatenation) and nothing leaked.
    assert!(after.dispatches - before.dispatches >= 3);
    assert_eq!(after.live_buffers, before.live_buffers);
    drop(registry::uninstall_webgpu());
}
