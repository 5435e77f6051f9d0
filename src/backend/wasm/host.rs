//! Host routines: the routines the wasm device runs as code of this module, on buffers of its
//! linear memory, rather than as emitted modules — the sort (`host_sort.rs`), whose work and
//! scratch memory suit compiled Rust. A dispatch calls [`run`] directly; a loop module calls
//! them through an import (`env.oxjax_host_sort`, see `emit::routines`), bound on wasm32 to
//! this module's export of the same name. They touch nothing but the buffers they are given.

use crate::core::DType;
use crate::kernel::{Routine, RoutineKind};

/// Every host routine's import name (each a `#[no_mangle]` export of this module on wasm32).
pub const IMPORTS: [&str; 1] = ["oxjax_host_sort"];

/// The import a loop module calls for a host routine of `kind`, or None for emitted ones.
pub fn import_name(kind: RoutineKind) -> Option<&'static str> {
    match kind {
        RoutineKind::Sort => Some("oxjax_host_sort"),
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

/// The index of `dtype` in `DType::ALL` (the dtype argument of the imports).
pub fn dtype_code(dtype: DType) -> i32 {
    DType::ALL
        .iter()
        .position(|&d| d == dtype)
        .expect("a dtype") as i32
}
