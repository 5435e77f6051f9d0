//! Host transfers per device, counted so that tests can assert that work stays on a device
//! ("no silent round trip through the host"), without timing anything:
//!
//! - `uploads`: host bytes written into new buffers (array creation, JS scalars, constants);
//! - `readbacks`: buffers read back to the host (`data()`, `dataSync()`, and the reads below);
//! - `moves`: reads the library made on its own to move an operand to another device (an
//!   uncommitted array following a committed operand, a routine input from another device).
//!   Each move is also one readback of the source device and one upload of the target.
//!
//! Counters are per thread (the registry is too) and only grow.

use std::cell::Cell;

use crate::core::Device;

/// What one device has transferred to and from the host since the thread started.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Transfers {
    pub uploads: u64,
    pub upload_bytes: u64,
    pub readbacks: u64,
    pub readback_bytes: u64,
    pub moves: u64,
    pub move_bytes: u64,
}

thread_local! {
    static COUNTS: [Cell<Transfers>; 3] = const {
        [
            Cell::new(ZERO),
            Cell::new(ZERO),
            Cell::new(ZERO),
        ]
    };
}

const ZERO: Transfers = Transfers {
    uploads: 0,
    upload_bytes: 0,
    readbacks: 0,
    readback_bytes: 0,
    moves: 0,
    move_bytes: 0,
};

fn slot(device: Device) -> usize {
    match device {
        Device::Cpu => 0,
        Device::Wasm => 1,
        Device::WebGpu => 2,
    }
}

fn update(device: Device, f: impl FnOnce(&mut Transfers)) {
    COUNTS.with(|c| {
        let cell = &c[slot(device)];
        let mut t = cell.get();
        f(&mut t);
        cell.set(t);
    });
}

/// Counts `bytes` written from the host into a buffer of `device`.
pub fn note_upload(device: Device, bytes: usize) {
    update(device, |t| {
        t.uploads += 1;
        t.upload_bytes += bytes as u64;
    });
}

/// Counts a buffer of `device` read back to the host.
pub fn note_readback(device: Device, bytes: usize) {
    update(device, |t| {
        t.readbacks += 1;
        t.readback_bytes += bytes as u64;
    });
}

/// Counts an operand the library moved off `from` through the host on its own.
pub fn note_move(from: Device, bytes: usize) {
    update(from, |t| {
        t.moves += 1;
        t.move_bytes += bytes as u64;
    });
}

/// The counters of `device`.
pub fn get(device: Device) -> Transfers {
    COUNTS.with(|c| c[slot(device)].get())
}
