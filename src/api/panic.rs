//! Panics are bugs, but they must never reach a user as a bare `RuntimeError: unreachable`.
//! The hook records the panic message; the TypeScript bridge catches the trap and throws an
//! `Error` that carries this message (`lastPanic()`).

use std::cell::RefCell;

use wasm_bindgen::prelude::*;

thread_local! {
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

pub fn install_hook() {
    std::panic::set_hook(Box::new(|info| {
        let message = info.to_string();
        LAST_PANIC.with(|p| {
            if let Ok(mut p) = p.try_borrow_mut() {
                *p = Some(message);
            }
        });
    }));
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
