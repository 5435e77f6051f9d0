//! Panics are bugs, but they must never reach a user as a bare `RuntimeError: unreachable`,
//! nor break the instance. The hook records the panic message; the TypeScript bridge catches
//! the trap and throws an `Error` that carries this message (`lastPanic()`). A panic on wasm
//! aborts without unwinding, and a JS exception thrown through Rust frames (a stack overflow
//! inside a call) abandons them the same way: so the hook starts a new [`PanicCell`] epoch
//! (state borrowed by the abandoned frames is usable again by the next call), and the bridge
//! rewinds the exported shadow-stack pointer and calls [`recover_after_trap`] before the next
//! call, for traps and JS exceptions alike.

use crate::util::panic_cell::PanicCell;

use wasm_bindgen::prelude::*;

thread_local! {
    static LAST_PANIC: PanicCell<Option<String>> = const { PanicCell::new(None) };
}

pub fn install_hook() {
    std::panic::set_hook(Box::new(|info| {
        crate::util::panic_cell::note_panic();
        crate::transform::scope::reset();
        let message = info.to_string();
        LAST_PANIC.with(|p| {
            if let Ok(mut p) = p.try_borrow_mut() {
                *p = Some(message);
            }
        });
    }));
}

/// Makes the instance usable after a call was abandoned by a trap or a JS exception (the bridge
/// has rewound the shadow stack first): borrows of the abandoned frames are void, and their
/// device placement is forgotten. Only called when no Rust frame is live.
#[wasm_bindgen(js_name = recoverAfterTrap)]
pub fn recover_after_trap() {
    crate::util::panic_cell::note_panic();
    crate::transform::scope::reset();
}

/// The message of the most recent panic, taken (so each is reported once).
#[wasm_bindgen(js_name = lastPanic)]
pub fn last_panic() -> Option<String> {
    LAST_PANIC.with(|p| p.try_borrow_mut().ok().and_then(|mut p| p.take()))
}

/// Panics on purpose, so tests can check that a panic becomes a clear JS `Error`.
#[wasm_bindgen(js_name = debugPanic)]
pub fn debug_panic(message: &str) {
    panic!("{message}");
}

/// Panics while the device registry, the handle table and the trace stack are borrowed, as a
/// bug inside a kernel dispatch would (a test hook, not exported by the package's API: tests
/// check that the next call works).
#[wasm_bindgen(js_name = debugPanicHoldingState)]
pub fn debug_panic_holding_state(message: &str) {
    let _ = crate::backend::registry::with_backend(
        "debugPanicHoldingState",
        crate::core::Device::Wasm,
        |_| {
            super::handles::while_borrowed(|| {
                crate::transform::trace::while_borrowed(|| panic!("{message}"))
            });
            Ok(())
        },
    );
}
