//! `memoryStats()`: live arrays, and per device the live buffers, bytes, kernel cache and
//! dispatch counters. Tests use it to check for leaks and fast paths without timing anything.

use js_sys::{Object, Reflect};
use wasm_bindgen::prelude::*;

use super::handles;
use crate::backend::registry;
use crate::core::Device;

fn set(target: &Object, key: &str, value: impl Into<JsValue>) {
    // Setting a data property on a fresh plain object cannot fail.
    let _ = Reflect::set(target, &key.into(), &value.into());
}

#[wasm_bindgen(js_name = memoryStats)]
pub fn memory_stats() -> JsValue {
    let out = Object::new();
    set(&out, "liveArrays", handles::live() as f64);
    set(&out, "pendingReads", super::reads::pending() as f64);
    set(
        &out,
        "liveJaxprs",
        (super::trace::live()
            + super::trace::live_vjps()
            + super::vmap::live()
            + super::jit::live()) as f64,
    );
    set(
        &out,
        "wasmMemoryBytes",
        (core::arch::wasm32::memory_size(0) * 65536) as f64,
    );
    set(
        &out,
        "wasmMemoryLimit",
        crate::backend::wasm::MEMORY_LIMIT_BYTES as f64,
    );
    let devices = Object::new();
    for device in Device::ALL {
        if let Some(s) = registry::stats(device) {
            let d = Object::new();
            set(&d, "liveBuffers", s.live_buffers as f64);
            set(&d, "liveBytes", s.live_bytes as f64);
            set(
                &d,
                "maxBufferBytes",
                registry::max_buffer_bytes(device) as f64,
            );
            set(&d, "dispatches", s.dispatches as f64);
            set(&d, "submits", s.submits as f64);
            set(&d, "tiledDispatches", s.tiled_dispatches as f64);
            set(&d, "shaderCompiles", s.shader_compiles as f64);
            set(&d, "poolBuffers", s.pool_buffers as f64);
            set(&d, "poolBytes", s.pool_bytes as f64);
            set(&d, "readbackMaps", s.readback_maps as f64);
            set(&d, "stagingBuffers", s.staging_buffers as f64);
            set(&d, "stagingBytes", s.staging_bytes as f64);
            set(&d, "kernelCacheEntries", s.kernel_cache.entries as f64);
            set(&d, "kernelCacheHits", s.kernel_cache.hits as f64);
            set(&d, "kernelCacheMisses", s.kernel_cache.misses as f64);
            set(&d, "kernelCodeBytes", s.code_bytes as f64);
            set(&d, "kernelMaxLocals", s.max_code_locals as f64);
            let l = registry::loop_stats(device).unwrap_or_default();
            set(&d, "loopRuns", l.runs as f64);
            set(&d, "loopCacheEntries", l.cache.entries as f64);
            let t = crate::backend::transfers::get(device);
            set(&d, "uploads", t.uploads as f64);
            set(&d, "uploadBytes", t.upload_bytes as f64);
            set(&d, "readbacks", t.readbacks as f64);
            set(&d, "readbackBytes", t.readback_bytes as f64);
            set(&d, "moves", t.moves as f64);
            set(&d, "moveBytes", t.move_bytes as f64);
            set(&devices, device.name(), d);
        }
    }
    set(&out, "devices", devices);
    let programs = crate::transform::jit_cache::stats();
    let p = Object::new();
    set(&p, "entries", programs.entries as f64);
    set(&p, "capacity", programs.capacity as f64);
    set(&p, "hits", programs.hits as f64);
    set(&p, "misses", programs.misses as f64);
    set(&p, "evictions", programs.evictions as f64);
    set(&out, "programCache", p);
    set(&out, "jitFunctions", super::jit::live() as f64);
    let scan = crate::transform::scan_eval::stats();
    let sc = Object::new();
    set(&sc, "fusedRuns", scan.fused_runs as f64);
    set(&sc, "fusedSteps", scan.fused_steps as f64);
    set(&sc, "fallbackRuns", scan.fallback_runs as f64);
    set(&sc, "fallbackSteps", scan.fallback_steps as f64);
    let plans = crate::transform::scan_fused::stats();
    set(&sc, "planCacheEntries", plans.entries as f64);
    set(&sc, "planCacheCapacity", plans.capacity as f64);
    set(&out, "scan", sc);
    out.into()
}
