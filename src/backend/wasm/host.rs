//! Host routines: the routines the wasm device runs as code of this module, on buffers of its
//! linear memory, rather than as emitted modules — the sort (`host_sort.rs`), the FFT
//! (`backend/fft.rs`) and the Jacobi rotations (`backend/jacobi.rs`), whose work and scratch
//! memory suit compiled Rust. A dispatch calls
//! [`run`] directly; a loop module calls them through an import (`env.oxjax_host_sort`, …, see
//! `emit::routines`), bound on wasm32 to this module's export of the same name. They touch
//! nothing but the buffers they are given.

use crate::core::DType;
use crate::kernel::{Routine, RoutineKind};

/// Every host routine's import name (each a `#[no_mangle]` export of this module on wasm32).
pub const IMPORTS: [&str; 5] = [
    "oxjax_host_sort",
    "oxjax_host_fft",
    "oxjax_host_ifft",
    "oxjax_host_jacobi_eigh",
    "oxjax_host_jacobi_columns",
];

/// The import a loop module calls for a host routine of `kind`, or None for emitted ones.
pub fn import_name(kind: RoutineKind) -> Option<&'static str> {
    match kind {
        RoutineKind::Sort => Some("oxjax_host_sort"),
        RoutineKind::Fft { inverse: false } => Some("oxjax_host_fft"),
        RoutineKind::Fft { inverse: true } => Some("oxjax_host_ifft"),
        RoutineKind::JacobiEigh => Some("oxjax_host_jacobi_eigh"),
        RoutineKind::JacobiColumns => Some("oxjax_host_jacobi_columns"),
        _ => None,
    }
}

/// Runs host routine `routine` on the buffers at `outputs` and `inputs`.
///
/// # Safety
/// Each pointer addresses a live buffer of at least the routine's size for it (16-byte
/// aligned), and the outputs overlap no other operand.
pub unsafe fn run(routine: &Routine, outputs: &[*mut u8], inputs: &[*const u8]) {
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
        RoutineKind::JacobiEigh | RoutineKind::JacobiColumns => {
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
    let outs: Vec<*mut u8> = outs.iter().map(|&a| a as usize as *mut u8).collect();
    let ins: Vec<*const u8> = ins.iter().map(|&a| a as usize as *const u8).collect();
    // SAFETY: the loop module passes the slots of a routine step, sized by the plan.
    unsafe { run(&routine, &outs, &ins) }
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

/// Two-sided Jacobi as a loop module calls it.
#[cfg(target_arch = "wasm32")]
#[no_mangle]
pub extern "C" fn oxjax_host_jacobi_eigh(t: u32, b: u32, m: u32, n: u32, d: u32, v: u32, a: u32) {
    call(RoutineKind::JacobiEigh, [t, b, m, n], &[d, v], &[a]);
}

/// One-sided Jacobi as a loop module calls it.
#[cfg(target_arch = "wasm32")]
#[no_mangle]
pub extern "C" fn oxjax_host_jacobi_columns(
    t: u32,
    b: u32,
    m: u32,
    n: u32,
    w: u32,
    v: u32,
    a: u32,
) {
    call(RoutineKind::JacobiColumns, [t, b, m, n], &[w, v], &[a]);
}

/// The index of `dtype` in `DType::ALL` (the dtype argument of the imports).
pub fn dtype_code(dtype: DType) -> i32 {
    DType::ALL
        .iter()
        .position(|&d| d == dtype)
        .expect("a dtype") as i32
}
