//! Host routines: the routines the wasm device runs as code of this module rather than as
//! emitted modules — the sort (`host_sort.rs`), the FFT (`backend/fft.rs`), eigh and svd
//! (`backend/jacobi.rs`), whose work and scratch memory suit compiled Rust. Their
//! operands live in the data memory (`data.rs`), so [`run_on_data`] copies the inputs into this
//! module's memory, runs the routine there and copies the outputs back. A dispatch calls it
//! directly; a loop module calls it through an import (`env.oxjax_host_sort`, …, see
//! `emit::routines`), bound on wasm32 to this module's export of the same name. They touch
//! nothing but the buffers they are given.

use crate::core::DType;
use crate::kernel::{Routine, RoutineKind};

/// Every host routine's import name (each a `#[no_mangle]` export of this module on wasm32).
pub const IMPORTS: [&str; 6] = [
    "oxjax_host_sort",
    "oxjax_host_fft",
    "oxjax_host_ifft",
    "oxjax_host_diagonalize",
    "oxjax_host_orthogonal_columns",
    "oxjax_host_singular_values",
];

/// The import a loop module calls for a host routine of `kind`, or None for emitted ones.
pub fn import_name(kind: RoutineKind) -> Option<&'static str> {
    match kind {
        RoutineKind::Sort => Some("oxjax_host_sort"),
        RoutineKind::Fft { inverse: false } => Some("oxjax_host_fft"),
        RoutineKind::Fft { inverse: true } => Some("oxjax_host_ifft"),
        RoutineKind::Diagonalize => Some("oxjax_host_diagonalize"),
        RoutineKind::OrthogonalColumns { vectors: true } => Some("oxjax_host_orthogonal_columns"),
        RoutineKind::OrthogonalColumns { vectors: false } => Some("oxjax_host_singular_values"),
        _ => None,
    }
}

/// Runs host routine `routine` on the buffers at `outputs` and `inputs`.
///
/// # Safety
/// Each pointer addresses a live buffer of at least the routine's size for it (16-byte
/// aligned), and the outputs overlap no other operand.
unsafe fn run(routine: &Routine, outputs: &[*mut u8], inputs: &[*const u8]) {
    match routine.kind {
        RoutineKind::Sort => {
            let count = routine.batch * routine.n;
            let bytes = count * routine.dtype.byte_size();
            let x = std::slice::from_raw_parts(inputs[0], bytes);
            let sorted = std::slice::from_raw_parts_mut(outputs[0], bytes);
            let perm = std::slice::from_raw_parts_mut(outputs[1].cast::<i32>(), count);
            super::host_sort::sort(routine.dtype, routine.n, x, sorted, perm);
        }
        RoutineKind::Fft { inverse } => {
            let bytes = routine.batch * routine.n * routine.dtype.byte_size();
            let part = |p: *const u8| std::slice::from_raw_parts(p, bytes);
            let part_mut = |p: *mut u8| std::slice::from_raw_parts_mut(p, bytes);
            crate::backend::fft::transform(
                routine.dtype,
                routine.n,
                inverse,
                (part(inputs[0]), part(inputs[1])),
                (part_mut(outputs[0]), part_mut(outputs[1])),
            );
        }
        RoutineKind::Diagonalize | RoutineKind::OrthogonalColumns { .. } => {
            let size = routine.dtype.byte_size();
            let (b, m, n) = (routine.batch, routine.m, routine.n);
            let a = std::slice::from_raw_parts(inputs[0], b * m * n * size);
            let first = std::slice::from_raw_parts_mut(outputs[0], b * m * n * size);
            let second = std::slice::from_raw_parts_mut(outputs[1], b * n * n * size);
            crate::backend::jacobi::run(routine, a, first, second);
        }
        _ => unreachable!("not a host routine"),
    }
}

/// Runs host routine `routine` on the data-memory buffers at `outputs` and `inputs` (byte
/// addresses, each holding at least the routine's operand).
pub fn run_on_data(routine: &Routine, outputs: &[u32], inputs: &[u32]) {
    // Operands as 16-byte aligned words (the routines view them as any element type).
    let words =
        |(dtype, count): (DType, usize)| vec![0u128; (dtype.byte_size() * count).div_ceil(16)];
    let mut ins: Vec<Vec<u128>> = routine.inputs().into_iter().map(words).collect();
    for ((&at, (dtype, count)), aligned) in inputs.iter().zip(routine.inputs()).zip(&mut ins) {
        super::data::read_into(at, &mut as_bytes_mut(aligned)[..dtype.byte_size() * count]);
    }
    let mut outs: Vec<Vec<u128>> = routine.outputs().into_iter().map(words).collect();
    let out_ptrs: Vec<*mut u8> = outs.iter_mut().map(|o| o.as_mut_ptr().cast()).collect();
    let in_ptrs: Vec<*const u8> = ins.iter().map(|i| i.as_ptr().cast()).collect();
    // SAFETY: each pointer addresses a vector of this function holding the operand's bytes,
    // 16-byte aligned; the outputs are distinct vectors.
    unsafe { run(routine, &out_ptrs, &in_ptrs) };
    for ((&at, (dtype, count)), out) in outputs.iter().zip(routine.outputs()).zip(&outs) {
        super::data::write(at, &as_bytes(out)[..dtype.byte_size() * count]);
    }
}

fn as_bytes(words: &[u128]) -> &[u8] {
    // SAFETY: u128 has no padding; any byte of it is initialised.
    unsafe { std::slice::from_raw_parts(words.as_ptr().cast(), words.len() * 16) }
}

fn as_bytes_mut(words: &mut [u128]) -> &mut [u8] {
    // SAFETY: as above; every byte pattern is a valid u128.
    unsafe { std::slice::from_raw_parts_mut(words.as_mut_ptr().cast(), words.len() * 16) }
}

/// Runs host routine `kind` as a loop module calls it: `sizes` are the dtype (its index in
/// `DType::ALL`), batch, m and n; then the byte addresses of the outputs and the inputs.
#[cfg(target_arch = "wasm32")]
fn call(kind: RoutineKind, [dtype, batch, m, n]: [u32; 4], outs: &[u32], ins: &[u32]) {
    let routine = Routine {
        kind,
        dtype: DType::ALL[dtype as usize],
        batch: batch as usize,
        m: m as usize,
        n: n as usize,
    };
    // The loop module passes the slots of a routine step, sized by the plan.
    run_on_data(&routine, outs, ins);
}

/// The sort as a loop module calls it (arguments as for [`call`]).
#[cfg(target_arch = "wasm32")]
#[no_mangle]
pub extern "C" fn oxjax_host_sort(t: u32, b: u32, m: u32, n: u32, sorted: u32, perm: u32, x: u32) {
    call(RoutineKind::Sort, [t, b, m, n], &[sorted, perm], &[x]);
}

/// The forward FFT as a loop module calls it.
#[cfg(target_arch = "wasm32")]
#[no_mangle]
#[allow(clippy::too_many_arguments)] // the import's signature
pub extern "C" fn oxjax_host_fft(t: u32, b: u32, m: u32, n: u32, re: u32, im: u32, x: u32, y: u32) {
    call(
        RoutineKind::Fft { inverse: false },
        [t, b, m, n],
        &[re, im],
        &[x, y],
    );
}

/// The inverse FFT as a loop module calls it.
#[cfg(target_arch = "wasm32")]
#[no_mangle]
#[allow(clippy::too_many_arguments)] // the import's signature
pub extern "C" fn oxjax_host_ifft(
    t: u32,
    b: u32,
    m: u32,
    n: u32,
    re: u32,
    im: u32,
    x: u32,
    y: u32,
) {
    call(
        RoutineKind::Fft { inverse: true },
        [t, b, m, n],
        &[re, im],
        &[x, y],
    );
}

/// The symmetric eigendecomposition (`Diagonalize`) as a loop module calls it.
#[cfg(target_arch = "wasm32")]
#[no_mangle]
pub extern "C" fn oxjax_host_diagonalize(t: u32, b: u32, m: u32, n: u32, d: u32, v: u32, a: u32) {
    call(RoutineKind::Diagonalize, [t, b, m, n], &[d, v], &[a]);
}

/// The singular value decomposition (`OrthogonalColumns` with vectors) as a loop module
/// calls it.
#[cfg(target_arch = "wasm32")]
#[no_mangle]
pub extern "C" fn oxjax_host_orthogonal_columns(
    t: u32,
    b: u32,
    m: u32,
    n: u32,
    w: u32,
    v: u32,
    a: u32,
) {
    let kind = RoutineKind::OrthogonalColumns { vectors: true };
    call(kind, [t, b, m, n], &[w, v], &[a]);
}

/// The singular values only (`OrthogonalColumns` without vectors) as a loop module calls it.
#[cfg(target_arch = "wasm32")]
#[no_mangle]
pub extern "C" fn oxjax_host_singular_values(
    t: u32,
    b: u32,
    m: u32,
    n: u32,
    w: u32,
    v: u32,
    a: u32,
) {
    let kind = RoutineKind::OrthogonalColumns { vectors: false };
    call(kind, [t, b, m, n], &[w, v], &[a]);
}

/// The index of `dtype` in `DType::ALL` (the dtype argument of the imports).
pub fn dtype_code(dtype: DType) -> i32 {
    DType::ALL
        .iter()
        .position(|&d| d == dtype)
        .expect("a dtype") as i32
}
