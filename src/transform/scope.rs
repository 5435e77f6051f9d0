//! Where operations without array operands run (`iota`, constants a library function or a
//! transformation builds): on the device of the arrays the enclosing API call was given, so
//! that a function of arrays committed to one device never touches another (the default
//! device may be one that cannot be read synchronously, such as webgpu). Outside any such
//! call they go to the default device.

use std::cell::Cell;

use super::{ArrayValue, Value};
use crate::backend::registry;
use crate::core::Device;

thread_local! {
    static SCOPE: Cell<Option<Device>> = const { Cell::new(None) };
}

/// The device for an operation without array operands.
pub fn device() -> Device {
    SCOPE
        .with(Cell::get)
        .unwrap_or_else(registry::default_device)
}

/// Runs `f` with operand-less operations placed on the device of the first committed
/// concrete array among `values`; when none is committed, the enclosing placement holds.
pub fn follow<R>(values: &[Value], f: impl FnOnce() -> R) -> R {
    let device = values.iter().find_map(|v| match v {
        Value::Concrete(c) if c.committed => Some(c.device),
        _ => None,
    });
    follow_device(device, f)
}

/// [`follow`] for arrays.
pub fn follow_arrays<'a, R>(
    arrays: impl IntoIterator<Item = &'a ArrayValue>,
    f: impl FnOnce() -> R,
) -> R {
    let device = arrays.into_iter().find(|a| a.committed).map(|a| a.device);
    follow_device(device, f)
}

/// Runs `f` with operand-less operations (and operations on JS numbers alone) placed with the
/// arrays among `values`: on the device of the first committed one, else of the first concrete
/// one, so a library composition's intermediate scalars never need moving.
pub fn follow_any<R>(values: &[&Value], f: impl FnOnce() -> R) -> R {
    let concrete = || {
        values.iter().filter_map(|v| match v {
            Value::Concrete(c) => Some(c),
            Value::Tracer(_) => None,
        })
    };
    let device = concrete()
        .find(|c| c.committed)
        .or_else(|| concrete().next())
        .map(|c| c.device);
    follow_device(device, f)
}

/// Runs `f` with operand-less operations placed on `device` (when given).
pub fn follow_device<R>(device: Option<Device>, f: impl FnOnce() -> R) -> R {
    let Some(device) = device else {
        return f();
    };
    let outer = SCOPE.with(|s| s.replace(Some(device)));
    let result = f();
    SCOPE.with(|s| s.set(outer));
    result
}

/// Forgets every placement (after a panic, which skips the restores of [`follow`]).
pub fn reset() {
    SCOPE.with(|s| s.set(None));
}
