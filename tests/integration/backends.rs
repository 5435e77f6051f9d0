//! The slice's kernels on every backend that runs natively: the cpu interpreter against an
//! independent f32/f64 oracle, the cpu interpreter on the whole kernel corpus against
//! `common::oracle` (results computed from each case's description, transcendentals from
//! mpmath values in `tests/data/`), wasm codegen validated by wasmparser, WGSL validated by naga, and
//! WebGPU kernels executed on wgpu over Vulkan (lavapipe on machines without a GPU) and compared
//! with the cpu interpreter bit for bit.

use crate::common::corpus::{check, corpus};
use crate::common::{block_on, encode, oracle, slice_kernels, values};
use oxjax::backend::cpu::{run_kernel, CpuBackend};
use oxjax::backend::webgpu::{wgsl, WebGpuBackend};
use oxjax::backend::{wasm, Backend};
use oxjax::core::shape::broadcast_shapes;
use oxjax::core::DType;

const SAME: &[(DType, DType)] = &[
    (DType::Float32, DType::Float32),
    (DType::Int32, DType::Int32),
    (DType::Uint32, DType::Uint32),
];
const MIXED: &[(DType, DType)] = &[(DType::Int32, DType::Float32), (DType::Bool, DType::Uint32)];

fn inputs_for(avals: &[oxjax::core::Aval]) -> Vec<Vec<u8>> {
    avals
        .iter()
        .enumerate()
        .map(|(i, a)| encode(a.dtype, &values(a.size(), i as f64 * 7.0)))
        .collect()
}

#[test]
fn cpu_interpreter_matches_an_independent_float32_oracle() {
    for (name, avals, kernel) in slice_kernels(&[(DType::Float32, DType::Float32)]) {
        let ins = inputs_for(&avals);
        let refs: Vec<&[u8]> = ins.iter().map(Vec::as_slice).collect();
        let out = run_kernel(&kernel, &refs).unwrap();
        let shape = broadcast_shapes("t", &avals[0].shape, &avals[1].shape).unwrap();
        // Oracle: NumPy broadcasting by explicit multi-indices, arithmetic rounded to f32.
        let av = values(avals[0].size(), 0.0);
        let bv = values(avals[1].size(), 7.0);
        let n: usize = shape.iter().product();
        for i in 0..n {
            let mut rem = i;
            let mut coords = vec![0; shape.len()];
            for ax in (0..shape.len()).rev() {
                coords[ax] = rem % shape[ax];
                rem /= shape[ax];
            }
            let flat = |s: &[usize]| {
                let pad = shape.len() - s.len();
                s.iter().enumerate().fold(0, |acc, (k, &d)| {
                    acc * d + if d == 1 { 0 } else { coords[k + pad] }
                })
            };
            let (x, y) = (
                av[flat(&avals[0].shape)] as f32,
                bv[flat(&avals[1].shape)] as f32,
            );
            let want = if name.starts_with("add") {
                x + y
            } else {
                x * y
            };
            let got = f32::from_le_bytes(out[i * 4..i * 4 + 4].try_into().unwrap());
            assert_eq!(got.to_bits(), want.to_bits(), "{name} element {i}");
        }
    }
}

#[test]
fn cpu_backend_tracks_buffers_and_caches_kernels() {
    let mut cpu = CpuBackend::new();
    let (_, avals, kernel) = slice_kernels(SAME).remove(0);
    let ins: Vec<_> = inputs_for(&avals)
        .iter()
        .map(|d| {
            let id = cpu.alloc(d.len()).unwrap();
            cpu.write(id, d).unwrap();
            id
        })
        .collect();
    let out = cpu.alloc(kernel.size * 4).unwrap();
    for _ in 0..3 {
        let exe = cpu.compile(&kernel).unwrap();
        cpu.dispatch(exe, &ins, out).unwrap();
    }
    let stats = cpu.stats();
    assert_eq!((stats.live_buffers, stats.dispatches), (3, 3));
    assert_eq!(
        (stats.kernel_cache.entries, stats.kernel_cache.hits),
        (1, 2)
    );
    for id in ins.into_iter().chain([out]) {
        cpu.free(id);
    }
    assert_eq!(cpu.stats().live_bytes, 0);
}

#[test]
fn wasm_codegen_emits_valid_modules() {
    for (name, _, kernel) in slice_kernels(SAME).into_iter().chain(slice_kernels(MIXED)) {
        let bytes = wasm::emit::emit_kernel(&kernel).unwrap();
        let mut validator = wasmparser::Validator::new();
        validator
            .validate_all(&bytes)
            .unwrap_or_else(|e| panic!("{name}: invalid wasm: {e}"));
    }
}

#[test]
fn wgsl_codegen_emits_valid_shaders() {
    for (name, _, kernel) in slice_kernels(SAME).into_iter().chain(slice_kernels(MIXED)) {
        let source = wgsl::emit_kernel(&kernel).unwrap();
        let module = naga::front::wgsl::parse_str(&source)
            .unwrap_or_else(|e| panic!("{name}: WGSL parse error: {e}\n{source}"));
        naga::valid::Validator::new(Default::default(), naga::valid::Capabilities::all())
            .validate(&module)
            .unwrap_or_else(|e| panic!("{name}: invalid WGSL: {e:?}\n{source}"));
    }
}

#[test]
fn float64_on_webgpu_is_a_clear_error() {
    let (_, _, kernel) = slice_kernels(&[(DType::Float64, DType::Float64)]).remove(0);
    let err = wgsl::emit_kernel(&kernel).unwrap_err();
    assert!(
        err.message()
            .contains("float64 is not supported on the webgpu device"),
        "{err}"
    );
}

#[test]
fn float16_on_webgpu_is_a_clear_error_naming_the_devices_that_have_it() {
    use oxjax::backend::registry::check_dtype;
    use oxjax::core::Device;
    let err = check_dtype("array", Device::WebGpu, DType::Float16).unwrap_err();
    let message = err.message();
    assert!(message.starts_with("array: float16 arrays are not supported on the webgpu"));
    assert!(
        message.contains("\"cpu\" and \"wasm\" devices support float16"),
        "{message}"
    );
    for device in [Device::Cpu, Device::Wasm] {
        assert!(check_dtype("array", device, DType::Float16).is_ok());
    }
}

#[test]
fn webgpu_on_vulkan_matches_the_cpu_interpreter() {
    let mut gpu = block_on(WebGpuBackend::new(Some(8))).unwrap_or_else(|e| {
        panic!("no Vulkan adapter ({e}); scripts/setup.sh installs Mesa's lavapipe")
    });
    assert_eq!(gpu.max_storage_buffers(), 8);
    for (name, avals, kernel) in slice_kernels(SAME).into_iter().chain(slice_kernels(MIXED)) {
        let ins = inputs_for(&avals);
        let refs: Vec<&[u8]> = ins.iter().map(Vec::as_slice).collect();
        let want = run_kernel(&kernel, &refs).unwrap();
        let ids: Vec<_> = ins
            .iter()
            .map(|d| {
                let id = gpu.alloc(d.len()).unwrap();
                gpu.write(id, d).unwrap();
                id
            })
            .collect();
        let out = gpu.alloc(want.len()).unwrap();
        let exe = gpu.compile(&kernel).unwrap();
        gpu.dispatch(exe, &ids, out).unwrap();
        assert_eq!(gpu.read_sync(out).unwrap(), want, "{name}");
        assert_eq!(
            block_on(gpu.read(out).unwrap()).unwrap(),
            want,
            "{name} (async read)"
        );
        for id in ids.into_iter().chain([out]) {
            gpu.free(id);
        }
    }
    let stats = gpu.stats();
    assert_eq!((stats.live_buffers, stats.live_bytes), (0, 0));
}

/// Every dtype of the corpus.
const CORPUS_DTYPES: [DType; 5] = [
    DType::Float32,
    DType::Float64,
    DType::Int32,
    DType::Uint32,
    DType::Bool,
];

#[test]
fn the_cpu_interpreter_matches_an_independent_oracle_on_the_corpus() {
    let cases = corpus(&CORPUS_DTYPES);
    assert!(cases.len() > 140, "corpus has {} cases", cases.len());
    for case in cases {
        let refs: Vec<&[u8]> = case.inputs.iter().map(Vec::as_slice).collect();
        let got = run_kernel(&case.kernel, &refs).unwrap_or_else(|e| panic!("{}: {e}", case.name));
        let (want, ulps) = oracle::expected(&case);
        check(&case, &got, &want, ulps).unwrap();
    }
}

/// The oracle is computed from each case's `Spec`, not its kernel: given another operation's
/// spec, the interpreter's results disagree with it.
#[test]
fn the_corpus_oracle_tells_operations_apart() {
    let cases = corpus(&CORPUS_DTYPES);
    let pairs = [
        ("Add Int32", "Sub Int32"),
        ("Exp Float32", "Sin Float32"),
        ("Lt Float64", "Le Float64"),
        ("Threefry Word0", "Threefry Word1"),
    ];
    for (run, spec_of) in pairs {
        let find = |name: &str| cases.iter().find(|c| c.name == name).unwrap();
        let (case, other) = (find(run), find(spec_of));
        let refs: Vec<&[u8]> = case.inputs.iter().map(Vec::as_slice).collect();
        let got = run_kernel(&case.kernel, &refs).unwrap();
        let (want, ulps) = oracle::expected(other);
        assert!(check(case, &got, &want, ulps).is_err(), "{run} passed as {spec_of}");
    }
}
