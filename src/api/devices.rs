//! Device discovery: `cpu` and `wasm` are always there; `webgpu` after `initWebGpu` finds an
//! adapter, until the device is lost (`initWebGpu` then opens a new one).

use wasm_bindgen::prelude::*;

use crate::backend::registry;
use crate::backend::webgpu::WebGpuBackend;
use crate::core::Device;

/// Starts WebGPU (again, in place of a lost device). Resolves to the adapter's name, or rejects
/// with the reason it is unavailable. `storageBufferCap` lowers the planned storage-buffer
/// limit (tests force 8).
#[wasm_bindgen(js_name = initWebGpu)]
pub async fn init_webgpu(storage_buffer_cap: Option<u32>) -> Result<String, JsError> {
    if registry::is_available(Device::WebGpu) {
        return Ok(String::from("already initialized"));
    }
    let backend = WebGpuBackend::new(storage_buffer_cap)
        .await
        .map_err(super::js_error)?;
    let name = backend.adapter_name().to_string();
    registry::install_webgpu(backend);
    Ok(name)
}

/// Turns host evaluation of small webgpu operations on or off (`init({ smallOnHost })`,
/// `transform::eval_host`).
#[wasm_bindgen(js_name = setSmallOnHost)]
pub fn set_small_on_host(on: bool) {
    crate::transform::eval_host::set_enabled(on);
}

/// Why the webgpu device was lost, while it is (`webgpuUnavailableReason`).
#[wasm_bindgen(js_name = webgpuLostReason)]
pub fn webgpu_lost_reason() -> Option<String> {
    registry::webgpu_lost_reason()
}

/// The devices that can run arrays now (a lost webgpu device is not one).
#[wasm_bindgen(js_name = availableDevices)]
pub fn available_devices() -> Vec<String> {
    Device::ALL
        .into_iter()
        .filter(|&d| registry::is_available(d))
        .map(|d| d.name().to_string())
        .collect()
}

/// Empties every device's kernel, routine, loop and pipeline caches, buffer pools and bind
/// groups, and the scan plans (part of `clearCaches()`).
#[wasm_bindgen(js_name = clearDeviceCaches)]
pub fn clear_device_caches() {
    registry::clear_caches();
    crate::transform::scan_fused::clear();
}

/// Resolves once the array's pending device work is done (`blockUntilReady`); no readback.
#[wasm_bindgen(js_name = blockUntilReady)]
pub async fn block_until_ready(handle: f64) -> Result<(), JsError> {
    let function = "blockUntilReady";
    // Cloned out of the slab: nothing is borrowed across the await.
    let v = super::handles::get(function, handle).map_err(super::js_error)?;
    let v = v.concrete(function).map_err(super::js_error)?.clone();
    v.block_until_ready(function).await.map_err(super::js_error)
}

/// The `wasm` device's data memory (the `WebAssembly.Memory` holding every wasm buffer, shared
/// where the runtime allows), for the worker pool (`js/wasm-pool.ts`).
#[wasm_bindgen(js_name = wasmDataMemory)]
pub fn wasm_data_memory() -> JsValue {
    crate::backend::wasm::data::object().into()
}

/// Attaches the worker pool (an object with `threads`, `begin` and `finish`) that splits large
/// `wasm` kernels across threads.
#[wasm_bindgen(js_name = wasmPoolAttach)]
pub fn wasm_pool_attach(pool: JsValue) {
    crate::backend::wasm::threads::attach(&pool);
}

/// Test and benchmark hook: `on` given, kernels without a reduction on webgpu take the wide
/// form (four elements per invocation, `backend::webgpu::wgsl_wide`) or not. Returns the wide
/// dispatches so far (0 without a webgpu device).
#[wasm_bindgen(js_name = debugWideElementwise)]
pub fn debug_wide_elementwise(on: Option<bool>) -> f64 {
    registry::with_webgpu(|g| {
        if let Some(on) = on {
            g.set_wide_elementwise(on);
        }
        g.wide_dispatches() as f64
    })
    .unwrap_or(0.0)
}

/// Test hook: whether a library composition on webgpu operands kept on the device compiles on
/// its first eager call (the default) or on its second, as elsewhere
/// (`transform::eager_jit`), so tests can compare its eager and compiled bits.
#[wasm_bindgen(js_name = debugCompileFirstOnWebgpu)]
pub fn debug_compile_first_on_webgpu(on: bool) {
    crate::transform::eager_jit::set_compile_first_on_webgpu(on);
}
