//! `memoryStats()`: live arrays, and per device the live buffers, bytes, kernel cache and
//! dispatch counters. Tests use it to check for leaks and fast paths without timing anything.
//!
//! The numbers cross as one flat `Float64Array` in the order of [`LAYOUT`] (`js/stats.ts`
//! builds the object): building JS objects from inside a wasm call (`Reflect.set`) runs JS
//! that can deoptimise the calling function in the middle of the call, which Node 20's V8
//! cannot survive when that function inlined the call.

use wasm_bindgen::prelude::*;

use super::handles;
use crate::backend::registry;
use crate::core::Device;

/// The field names, in order: the top-level numbers, then per device (cpu, wasm, webgpu) a
/// presence flag and its fields, then the program cache, the scans and the compiled eager
/// compositions. `js/stats.ts` reads
/// this once and must agree with `memory_stats`.
#[wasm_bindgen(js_name = memoryStatsLayout)]
pub fn layout() -> String {
    LAYOUT.to_string()
}

const LAYOUT: &str = "liveArrays pendingReads liveJaxprs wasmMemoryBytes wasmMemoryLimit \
     jitFunctions | liveBuffers liveBytes maxBufferBytes dispatches submits tiledDispatches \
     shaderCompiles poolBuffers poolBytes poolHits poolMisses readbackMaps stagingBuffers stagingBytes \
     kernelCacheEntries kernelCacheHits kernelCacheMisses kernelCodeBytes \
     kernelMaxLocals kernelSizeReuses loopRuns loopCacheEntries uploads uploadBytes readbacks readbackBytes \
     moves moveBytes lost bufferCopies | entries capacity hits misses evictions | fusedRuns fusedSteps \
     fallbackRuns fallbackSteps planCacheEntries planCacheCapacity | entries capacity \
     compiles runs";

/// The numbers per device (the second group of [`LAYOUT`]).
const DEVICE_FIELDS: usize = 30;

#[wasm_bindgen(js_name = memoryStats)]
pub fn memory_stats() -> Vec<f64> {
    let mut out = vec![
        handles::live() as f64,
        super::reads::pending() as f64,
        (super::trace::live()
            + super::trace::live_vjps()
            + super::vmap::live()
            + super::jit::live()) as f64,
        (core::arch::wasm32::memory_size(0) * 65536) as f64
            + crate::backend::wasm::data::size() as f64,
        crate::backend::wasm::MEMORY_LIMIT_BYTES as f64,
        super::jit::live() as f64,
    ];
    for device in Device::ALL {
        let Some(s) = registry::stats(device) else {
            out.push(0.0);
            out.extend([0.0; DEVICE_FIELDS]);
            continue;
        };
        let l = registry::loop_stats(device).unwrap_or_default();
        let t = crate::backend::transfers::get(device);
        out.push(1.0);
        out.extend([
            s.live_buffers as f64,
            s.live_bytes as f64,
            registry::max_buffer_bytes(device) as f64,
            s.dispatches as f64,
            s.submits as f64,
            s.tiled_dispatches as f64,
            s.shader_compiles as f64,
            s.pool_buffers as f64,
            s.pool_bytes as f64,
            s.pool_hits as f64,
            s.pool_misses as f64,
            s.readback_maps as f64,
            s.staging_buffers as f64,
            s.staging_bytes as f64,
            s.kernel_cache.entries as f64,
            s.kernel_cache.hits as f64,
            s.kernel_cache.misses as f64,
            s.code_bytes as f64,
            s.max_code_locals as f64,
            s.size_reuses as f64,
            l.runs as f64,
            l.cache.entries as f64,
            t.uploads as f64,
            t.upload_bytes as f64,
            t.readbacks as f64,
            t.readback_bytes as f64,
            t.moves as f64,
            t.move_bytes as f64,
            s.lost as u8 as f64,
            s.buffer_copies as f64,
        ]);
    }
    let p = crate::transform::jit_cache::stats();
    out.extend([
        p.entries as f64,
        p.capacity as f64,
        p.hits as f64,
        p.misses as f64,
        p.evictions as f64,
    ]);
    let scan = crate::transform::scan_eval::stats();
    let plans = crate::transform::scan_fused::stats();
    out.extend([
        scan.fused_runs as f64,
        scan.fused_steps as f64,
        scan.fallback_runs as f64,
        scan.fallback_steps as f64,
        plans.entries as f64,
        plans.capacity as f64,
    ]);
    let (calls, compiles, runs) = crate::transform::eager_jit::stats();
    out.extend([
        calls.entries as f64,
        calls.capacity as f64,
        compiles as f64,
        runs as f64,
    ]);
    out
}
