//! Host routines: the routines the wasm device runs as code of this module, on buffers of its
//! linear memory, rather than as emitted modules — the sort (`host_sort.rs`) and the FFT
//! (`backend/fft.rs`), whose work and scratch memory suit compiled Rust. A dispatch calls
//! [`run`] directly; a loop module calls them through an import (`env.oxjax_host_sort`, …, see
//! `emit::routines`), bound on wasm32 to this module's export of the same name. They touch
//! nothing but the buffers they are given.

use crate::core::DType;
use crate::kernel::{Routine, RoutineKind};

/// Every host routine's import name (each a `#[no_mangle]` export of this module on wasm32).
pub const IMPORTS: [&str; 3] = ["oxjax_host_sort", "oxjax_host_fft", "oxjax_host_ifft"];

/// The import a loop module calls for a host routine of `kind`, or None for emitted ones.
pub fn import_name(kind: RoutineKind) -> Option<&'static str> {
    match kind {
        RoutineKind::Sort => Some("oxjax_host_sort"),
        RoutineKind::Fft { inverse: false } => Some("oxjax_host_fft"),
        RoutineKind::Fft { inverse: true } => Some("oxjax_host_ifft"),
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
        _ => unreachable!("not a host routine"),
    }
}

/// The sort as a loop module calls it: dtype by its index in `DType::ALL`, then the sizes and
/// the byte addresses of the outputs and the input.
#[cfg(target_arch = "wasm32")]
#[no_mangle]
pub extern "C" fn oxjax_host_sort(dtype: u32, batch: u32, n: u32, sorted: u32, perm: u32, x: u32) {
    let routine = Routine {
        kind: RoutineKind::Sort,
        dtype: DType::ALL[dtype as usize],
        batch: batch as usize,
        m: 1,
        n: n as usize,
    };
    // SAFETY: the loop module passes the slots of a routine step, sized by the plan.
    unsafe {
        run(
            &routine,
            &[sorted as usize as *mut u8, perm as usize as *mut u8],
            &[x as usize as *const u8],
        )
    }
}

/// The forward FFT as a loop module calls it (arguments as for the sort).
#[cfg(target_arch = "wasm32")]
#[no_mangle]
pub extern "C" fn oxjax_host_fft(dtype: u32, batch: u32, n: u32, re: u32, im: u32, x: u32, y: u32) {
    host_fft(false, dtype, batch, n, [re, im, x, y]);
}

/// The inverse FFT as a loop module calls it.
#[cfg(target_arch = "wasm32")]
#[no_mangle]
pub extern "C" fn oxjax_host_ifft(
    dtype: u32,
    batch: u32,
    n: u32,
    re: u32,
    im: u32,
    x: u32,
    y: u32,
) {
    host_fft(true, dtype, batch, n, [re, im, x, y]);
}

#[cfg(target_arch = "wasm32")]
fn host_fft(inverse: bool, dtype: u32, batch: u32, n: u32, at: [u32; 4]) {
    let routine = Routine {
        kind: RoutineKind::Fft { inverse },
        dtype: DType::ALL[dtype as usize],
        batch: batch as usize,
        m: 1,
        n: n as usize,
    };
    let p = |a: u32| a as usize as *mut u8;
    // SAFETY: the loop module passes the slots of a routine step, sized by the plan.
    unsafe { run(&routine, &[p(at[0]), p(at[1])], &[p(at[2]), p(at[3])]) }
}

/// The index of `dtype` in `DType::ALL` (the dtype argument of the imports).
pub fn dtype_code(dtype: DType) -> i32 {
    DType::ALL
        .iter()
        .position(|&d| d == dtype)
        .expect("a dtype") as i32
}
