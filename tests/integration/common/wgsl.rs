//! naga validation of emitted WGSL for the native WebGPU tests: a parse error or an invalid
//! module fails the test with the source printed.

use oxjax::backend::webgpu::wgsl;
use oxjax::kernel::Kernel;

/// Parses and validates `source` with naga (all capabilities, subgroup operations in compute
/// shaders), panicking with `name`.
pub fn validate_source(name: &str, source: &str) {
    let module = naga::front::wgsl::parse_str(source)
        .unwrap_or_else(|e| panic!("{name}: WGSL parse error: {e}\n{source}"));
    naga::valid::Validator::new(Default::default(), naga::valid::Capabilities::all())
        .subgroup_stages(naga::valid::ShaderStages::COMPUTE)
        .subgroup_operations(naga::valid::SubgroupOperationSet::all())
        .validate(&module)
        .unwrap_or_else(|e| panic!("{name}: invalid WGSL: {e:?}\n{source}"));
}

/// Emits `kernel` as WGSL and validates it.
pub fn validate_kernel(name: &str, kernel: &Kernel) {
    let source = wgsl::emit_kernel(kernel).unwrap_or_else(|e| panic!("{name}: {e}"));
    validate_source(name, &source);
}
