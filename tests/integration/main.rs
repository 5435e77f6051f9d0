//! The integration tests of the crate, as ONE test binary (`cargo test --test integration`): each
//! module below is the suite of one part of the library, and `common` holds the helpers they
//! share. Natively every module but `wasm_kernels` runs; for `wasm32-unknown-unknown` (run by
//! wasm-bindgen-test in Node) only `wasm_kernels` does.
//!
//! The library keeps its state per thread (device registry, caches, counters, trace stack) and
//! the test harness runs each test on a thread of its own, so tests of different modules do not
//! see each other's devices or counters.

mod common;

/// Declares the modules that run natively only (the wasm32 run is for the emitted kernels).
macro_rules! native {
    ($($name:ident)*) => { $(#[cfg(not(target_arch = "wasm32"))] mod $name;)* };
}

native! {
    abstract_eval
    backends
    eval
    fft_routine
    jit_exes
    kernel_fold
    layering
    lower
    lower_barrier
    lower_epilogue
    lower_inline_sum
    matmul_lowering
    routines
    scan
    scan_limits
    scan_plan
    simplify
    vjp_structured
    vmap
    webgpu_fast
    webgpu_kernels
    webgpu_limits
    webgpu_loop_limit
    webgpu_matmul_subgroup
    webgpu_mixed
    webgpu_program_sizes
    webgpu_reads
    webgpu_scan
    webgpu_scan_lengths
    webgpu_scan_loop
    webgpu_scan_serial
    webgpu_sort_kernels
    webgpu_stages
    webgpu_transfers
    webgpu_whole
    webgpu_wide
    wgsl_size
}

#[cfg(target_arch = "wasm32")]
mod wasm_kernels;
