//! A lost device (a driver reset, `GPUDevice.destroy()`, the browser reclaiming the GPU).
//! wgpu's device-lost callback (the `GPUDevice.lost` promise on the web) sets the backend's
//! [`LostFlag`]; from then on the registry answers every operation on webgpu with
//! [`WebGpuBackend::lost_error`], a batch is dropped instead of submitted, and reads already in
//! flight fail when their map does (`readback`). Frees and statistics still work, so arrays
//! of the lost device dispose without error.
//!
//! `init()` then opens a new device that continues the old one's buffer and compiled-program
//! ids ([`WebGpuBackend::continue_ids_from`]): ids kept by arrays and jitted programs of the
//! lost device never name anything of the new one, and an old array's buffer id is reported
//! as an array of a lost device ([`stale_array_error`]).

use std::sync::{Arc, Mutex};

use super::WebGpuBackend;
use crate::util::Error;

/// Why the device was lost, once it was; shared with wgpu's callback.
#[derive(Clone, Default)]
pub struct LostFlag(Arc<Mutex<Option<String>>>);

impl LostFlag {
    /// Sets this flag when `device` is lost.
    pub fn watch(&self, device: &wgpu::Device) {
        let flag = self.clone();
        device.set_device_lost_callback(move |reason, message| {
            let reason = match reason {
                wgpu::DeviceLostReason::Destroyed => "the device was destroyed",
                wgpu::DeviceLostReason::Unknown => "the device was lost",
            };
            let why = match message.trim() {
                "" => reason.to_string(),
                m => format!("{reason} ({m})"),
            };
            flag.set(why);
        });
    }

    /// Marks the device lost (the first reason given is kept).
    pub fn set(&self, why: String) {
        if let Ok(mut lost) = self.0.lock() {
            lost.get_or_insert(why);
        }
    }

    pub fn is_set(&self) -> bool {
        self.reason().is_some()
    }

    pub fn reason(&self) -> Option<String> {
        self.0.lock().ok().and_then(|lost| lost.clone())
    }
}

impl WebGpuBackend {
    /// Why the device was lost, or None while it works.
    pub fn lost_reason(&self) -> Option<String> {
        self.lost.reason()
    }

    /// The error of any operation named `function` once the device is lost.
    pub fn lost_error(&self, function: &str) -> Option<Error> {
        let why = self.lost.reason()?;
        Some(Error::new(
            function,
            format!(
                "the webgpu device (\"{}\") was lost: {why}. Its arrays can no longer be used; \
                 arrays on cpu and wasm are unaffected. Call `await init()` to open a new webgpu \
                 device, then create the webgpu arrays again",
                self.adapter_name
            ),
        ))
    }

    /// Continues the ids of `old` (a lost device this one replaces), so that no id kept by
    /// its arrays or compiled programs names anything here.
    pub fn continue_ids_from(&mut self, old: &WebGpuBackend) {
        self.next_buffer = self.next_buffer.max(old.next_buffer);
        self.first_buffer = old.next_buffer;
        self.next_exe = self.next_exe.max(old.next_exe);
        self.routines.continue_ids_from(&old.routines);
        self.loops.continue_ids_from(&old.loops);
    }
}

/// The error for an array of a device that was lost and has since been replaced.
pub fn stale_array_error() -> Error {
    Error::new(
        "webgpu",
        "this array was on a webgpu device that was lost: it can no longer be used (dispose \
         it; create it again on the current device)",
    )
}
