//! `data()` on the webgpu device, where every read-back map costs a fixed round trip: reads
//! requested together share ONE staging buffer and ONE map (`Backend::read_group`).
//!
//! TypeScript drives the flow (Rust never calls back into JavaScript, decision 1):
//! - `readBegin` (synchronous, inside `data()`) materialises the array (a view is copied to a
//!   dense buffer, encoded into the batch) and adds it to the open group; it returns a ticket,
//!   or the typed array itself for devices read synchronously (cpu, wasm: read at once) and
//!   for a small array made on the host, read from its buffer's host copy (no map);
//! - `readSubmit` (synchronous, once per group, from a microtask after the reads of a tick)
//!   closes the open group: one `read_group` call encodes every copy, submits the batch and
//!   starts the map; it returns the group's id;
//! - `readWait` (async) awaits that map and files each ticket's bytes (or the group's error);
//! - `readFinish` (synchronous) hands one ticket's typed array over, or its error, and forgets
//!   the ticket.
//!
//! A ticket owns its dense value until the group is submitted, so disposing the array after
//! `data()` is safe. `pendingReads` counts tickets and groups not yet finished (leak checks).

use std::collections::HashMap;

use wasm_bindgen::prelude::*;

use super::{convert, handles, js_error};
use crate::backend::{registry, transfers, GroupFuture, HostBytes};
use crate::core::{DType, Device};
use crate::transform::ArrayValue;
use crate::util::panic_cell::PanicCell;
use crate::util::{Error, Result};

enum State {
    /// In the open group: the dense value to read.
    Open(ArrayValue),
    Submitted,
    Done(HostBytes),
    Failed(Error),
}

struct Ticket {
    dtype: DType,
    state: State,
}

#[derive(Default)]
struct Reads {
    next_ticket: u32,
    next_group: u32,
    tickets: HashMap<u32, Ticket>,
    /// The open group's tickets, in request order.
    open: Vec<u32>,
    /// Submitted groups: their tickets and the read in flight (taken by `readWait`).
    groups: HashMap<u32, (Vec<u32>, GroupFuture)>,
}

thread_local! {
    static READS: PanicCell<Reads> = PanicCell::new(Reads::default());
}

/// Starts reading an array for `function`: a ticket in the open read group, or the typed
/// array itself when the array's device reads synchronously (cpu, wasm) or when a webgpu array
/// is all of its buffer's host copy (`DeviceBuffer::host`: small arrays made on the host),
/// which needs no map.
#[wasm_bindgen(js_name = readBegin)]
pub fn read_begin(function: &str, handle: f64) -> std::result::Result<JsValue, JsError> {
    let run = || -> Result<JsValue> {
        let v = handles::get(function, handle)?;
        let v = v.concrete(function)?;
        if v.device != Device::WebGpu {
            let bytes = v.read_sync_host(function)?;
            return convert::host_typed_array(function, v.aval.dtype, bytes);
        }
        if let Some(bytes) = v.host_bytes(function)? {
            return convert::typed_array(function, v.aval.dtype, bytes);
        }
        let dense = v.materialize(function)?;
        // A view of a small host-held array is materialised on the host (`eval_host`).
        if let Some(bytes) = dense.host_bytes(function)? {
            return convert::typed_array(function, dense.aval.dtype, bytes);
        }
        transfers::note_readback(dense.device, dense.aval.byte_size());
        let ticket = Ticket {
            dtype: dense.aval.dtype,
            state: State::Open(dense),
        };
        Ok(READS.with(|r| {
            let mut r = r.borrow_mut();
            r.next_ticket += 1;
            let id = r.next_ticket;
            r.tickets.insert(id, ticket);
            r.open.push(id);
            JsValue::from(id as f64)
        }))
    };
    run().map_err(js_error)
}

/// Closes the open read group: encodes its copies into one staging buffer, submits the batch
/// and starts the map. Returns the group's id for `readWait` (0: nothing to wait for).
#[wasm_bindgen(js_name = readSubmit)]
pub fn read_submit() -> f64 {
    let (tickets, values) = READS.with(|r| {
        let mut r = r.borrow_mut();
        let tickets = std::mem::take(&mut r.open);
        let mut values = Vec::with_capacity(tickets.len());
        for id in &tickets {
            if let Some(t) = r.tickets.get_mut(id) {
                if let State::Open(v) = std::mem::replace(&mut t.state, State::Submitted) {
                    values.push(v);
                }
            }
        }
        (tickets, values)
    });
    if tickets.is_empty() {
        return 0.0;
    }
    // Only webgpu arrays join groups (`readBegin`).
    let buffers: Vec<_> = values.iter().map(|v| v.buffer.id).collect();
    let started = registry::with_backend("data", Device::WebGpu, |b| b.read_group(&buffers));
    // The copies are submitted: the buffers may go back to the pool.
    drop(values);
    READS.with(|r| {
        let mut r = r.borrow_mut();
        match started {
            Ok(future) => {
                r.next_group += 1;
                let id = r.next_group;
                r.groups.insert(id, (tickets, future));
                id as f64
            }
            Err(e) => {
                for id in &tickets {
                    if let Some(t) = r.tickets.get_mut(id) {
                        t.state = State::Failed(e.clone());
                    }
                }
                0.0
            }
        }
    })
}

/// Waits for group `group`'s map and files each ticket's bytes (or the error). Resolves, never
/// rejects: `readFinish` reports each ticket's outcome.
#[wasm_bindgen(js_name = readWait)]
pub async fn read_wait(group: f64) {
    let Some((tickets, future)) = READS.with(|r| r.borrow_mut().groups.remove(&(group as u32)))
    else {
        return;
    };
    let result = future.await;
    READS.with(|r| {
        let mut r = r.borrow_mut();
        let mut file = |id: &u32, state: State| {
            if let Some(t) = r.tickets.get_mut(id) {
                t.state = state;
            }
        };
        match result {
            Ok(bytes) => {
                for (id, b) in tickets.iter().zip(bytes) {
                    file(id, State::Done(b));
                }
            }
            Err(e) => {
                for id in &tickets {
                    file(id, State::Failed(e.clone()));
                }
            }
        }
    });
}

/// The typed array of a finished read (or its error); the ticket is forgotten either way.
#[wasm_bindgen(js_name = readFinish)]
pub fn read_finish(function: &str, ticket: f64) -> std::result::Result<JsValue, JsError> {
    let taken = READS.with(|r| r.borrow_mut().tickets.remove(&(ticket as u32)));
    let result = match taken {
        Some(Ticket {
            dtype,
            state: State::Done(bytes),
        }) => convert::host_typed_array(function, dtype, bytes),
        Some(Ticket {
            state: State::Failed(e),
            ..
        }) => Err(e),
        Some(_) => Err(Error::new(
            function,
            "internal error: the read was not completed",
        )),
        None => Err(Error::new(function, "internal error: unknown read")),
    };
    result.map_err(js_error)
}

/// Tickets and groups not yet finished.
pub fn pending() -> usize {
    READS.with(|r| {
        let r = r.borrow();
        r.tickets.len() + r.groups.len()
    })
}

/// Test hook: the next read group's map on webgpu fails, as on a lost device.
#[wasm_bindgen(js_name = debugFailNextRead)]
pub fn debug_fail_next_read() {
    registry::with_webgpu(|g| g.fail_next_read());
}

/// Test hook: the largest staging buffer on webgpu, in bytes (a group larger than it is split
/// over several staging buffers).
#[wasm_bindgen(js_name = debugMaxStagingBytes)]
pub fn debug_max_staging_bytes(bytes: f64) {
    registry::with_webgpu(|g| g.set_max_staging_bytes(bytes as u64));
}
