//! The backends of this thread, one per device. `cpu` and `wasm` exist from the start;
//! `webgpu` is installed by `init()` once an adapter has been found. A lost webgpu device
//! stays installed (its arrays still free, its statistics still report) but answers every
//! operation with an error, until `init()` installs a new one in its place.
//!
//! The registry is a thread-local `PanicCell`; it is never borrowed across a call into
//! JavaScript or across an `.await`.

use crate::util::panic_cell::PanicCell;
use std::rc::Rc;

use super::cpu::CpuBackend;
use super::wasm::WasmBackend;
use super::webgpu::WebGpuBackend;
use super::{Backend, BackendStats, BufferId, DeviceBuffer};
use crate::core::Device;
use crate::util::{Error, Result};

struct Registry {
    cpu: CpuBackend,
    wasm: WasmBackend,
    webgpu: Option<WebGpuBackend>,
}

thread_local! {
    static REGISTRY: PanicCell<Registry> = PanicCell::new(Registry {
        cpu: CpuBackend::new(),
        wasm: WasmBackend::new(),
        webgpu: None,
    });
    /// Frees requested while the registry was borrowed; applied at the next borrow.
    static PENDING_FREES: PanicCell<Vec<(Device, BufferId)>> = const { PanicCell::new(Vec::new()) };
}

impl Registry {
    fn backend(&mut self, function: &str, device: Device) -> Result<&mut dyn Backend> {
        match device {
            Device::Cpu => Ok(&mut self.cpu),
            Device::Wasm => Ok(&mut self.wasm),
            Device::WebGpu => match self.webgpu.as_mut() {
                Some(b) => match b.lost_error(function) {
                    Some(lost) => Err(lost),
                    None => Ok(b),
                },
                None => Err(Error::new(
                    function,
                    "the webgpu device is not initialized: call `await init()` first (WebGPU \
                     needs an adapter, and is not available in every environment)",
                )),
            },
        }
    }

    /// The backend of `device` even when it was lost (frees, statistics and limits still
    /// work there); None when it is not initialized.
    fn backend_even_lost(&mut self, device: Device) -> Option<&mut dyn Backend> {
        match device {
            Device::Cpu => Some(&mut self.cpu),
            Device::Wasm => Some(&mut self.wasm),
            Device::WebGpu => self.webgpu.as_mut().map(|b| b as &mut dyn Backend),
        }
    }

    fn apply_pending_frees(&mut self) {
        let pending = PENDING_FREES.with(|p| std::mem::take(&mut *p.borrow_mut()));
        for (device, id) in pending {
            if let Some(b) = self.backend_even_lost(device) {
                b.free(id);
            }
        }
    }
}

/// Runs `f` with the backend of `device`.
pub fn with_backend<R>(
    function: &str,
    device: Device,
    f: impl FnOnce(&mut dyn Backend) -> Result<R>,
) -> Result<R> {
    REGISTRY.with(|r| {
        let mut r = r
            .try_borrow_mut()
            .map_err(|_| Error::new(function, "internal error: device registry re-entered"))?;
        r.apply_pending_frees();
        f(r.backend(function, device)?)
    })
}

/// Allocates a buffer on `device` holding `data`.
pub fn upload(function: &str, device: Device, data: &[u8]) -> Result<Rc<DeviceBuffer>> {
    let id = with_backend(function, device, |b| {
        let id = alloc_id(function, b, data.len())?;
        if let Err(e) = b.write(id, data) {
            b.free(id);
            return Err(e);
        }
        Ok(id)
    })?;
    super::transfers::note_upload(device, data.len());
    Ok(Rc::new(DeviceBuffer {
        device,
        id,
        bytes: data.len(),
        host: (data.len() <= super::buffer::host_copy_limit(device)).then(|| data.into()),
    }))
}

/// Allocates a buffer on `device` holding the bytes of a JS array (copied once: the wasm
/// device writes them straight into its data memory).
#[cfg(target_arch = "wasm32")]
pub fn upload_js(
    function: &str,
    device: Device,
    data: &js_sys::Uint8Array,
) -> Result<Rc<DeviceBuffer>> {
    let len = data.length() as usize;
    if len <= super::buffer::host_copy_limit(device) {
        return upload(function, device, &data.to_vec());
    }
    let id = with_backend(function, device, |b| {
        let id = alloc_id(function, b, len)?;
        if let Err(e) = b.write_js(id, data) {
            b.free(id);
            return Err(e);
        }
        Ok(id)
    })?;
    super::transfers::note_upload(device, len);
    Ok(Rc::new(DeviceBuffer {
        device,
        id,
        bytes: len,
        host: None,
    }))
}

/// Allocates an uninitialised buffer on `device`.
pub fn alloc(function: &str, device: Device, bytes: usize) -> Result<Rc<DeviceBuffer>> {
    let id = with_backend(function, device, |b| alloc_id(function, b, bytes))?;
    Ok(Rc::new(DeviceBuffer {
        device,
        id,
        bytes,
        host: None,
    }))
}

/// `b.alloc(bytes)` after checking the device's limit per buffer; a failed allocation (out of
/// memory) is an error naming `function`, and leaves nothing allocated.
fn alloc_id(function: &str, b: &mut dyn Backend, bytes: usize) -> Result<BufferId> {
    let name = b.device().name();
    within_limit(function, name, bytes, b.max_buffer_bytes())?;
    b.alloc(bytes).map_err(|e| {
        let in_use = b.stats().live_bytes;
        Error::new(
            function,
            format!(
                "out of memory on the {name} device: cannot allocate {bytes} bytes ({in_use} \
                 bytes in use by live arrays; {})",
                e.message()
            ),
        )
    })
}

fn within_limit(function: &str, device: &str, bytes: usize, limit: u64) -> Result<()> {
    if bytes as u64 > limit {
        return Err(Error::new(
            function,
            format!(
                "an array of {bytes} bytes is larger than the {device} device allows ({limit} \
                 bytes per array)"
            ),
        ));
    }
    Ok(())
}

/// An error naming `function` when a buffer of `bytes` bytes is over `device`'s limit.
pub fn check_buffer_bytes(function: &str, device: Device, bytes: usize) -> Result<()> {
    with_backend(function, device, |b| {
        within_limit(function, device.name(), bytes, b.max_buffer_bytes())
    })
}

/// The most bytes one buffer of `device` may have (0 where the device is not initialised).
pub fn max_buffer_bytes(device: Device) -> u64 {
    with_backend("maxBufferBytes", device, |b| Ok(b.max_buffer_bytes())).unwrap_or(0)
}

/// Frees a buffer (called by `DeviceBuffer::drop`).
pub fn release(device: Device, id: BufferId) {
    REGISTRY.with(|r| match r.try_borrow_mut() {
        Ok(mut r) => {
            if let Some(b) = r.backend_even_lost(device) {
                b.free(id);
            }
        }
        // Dropped while the registry is in use (e.g. inside a backend call): defer.
        Err(_) => PENDING_FREES.with(|p| p.borrow_mut().push((device, id))),
    });
}

/// Installs `backend` as the webgpu device; one that replaces a lost device continues its
/// ids (see `webgpu::lost`), and the lost one is dropped.
pub fn install_webgpu(mut backend: WebGpuBackend) {
    REGISTRY.with(|r| {
        let mut r = r.borrow_mut();
        if let Some(old) = r.webgpu.as_ref() {
            backend.continue_ids_from(old);
        }
        r.webgpu = Some(backend);
    });
}

/// Why the webgpu device was lost, while it is (None when it works or was never started).
pub fn webgpu_lost_reason() -> Option<String> {
    REGISTRY.with(|r| r.borrow().webgpu.as_ref().and_then(|b| b.lost_reason()))
}

/// Runs `f` with the webgpu backend itself (its own switches, for tests); None when it is not
/// initialized.
pub fn with_webgpu<R>(f: impl FnOnce(&mut WebGpuBackend) -> R) -> Option<R> {
    REGISTRY.with(|r| r.borrow_mut().webgpu.as_mut().map(f))
}

/// Removes the webgpu backend (native tests drop it before their thread's locals are torn
/// down, which wgpu does not survive).
pub fn uninstall_webgpu() -> Option<WebGpuBackend> {
    REGISTRY.with(|r| r.borrow_mut().webgpu.take())
}

thread_local! {
    static DEFAULT_DEVICE: std::cell::Cell<Device> = const { std::cell::Cell::new(Device::Wasm) };
}

/// The device that operations without array operands (e.g. `iota`) run on.
pub fn default_device() -> Device {
    DEFAULT_DEVICE.with(|d| d.get())
}

pub fn set_default_device(function: &str, device: Device) -> Result<()> {
    // Not initialized, or lost: the registry's error for the device.
    with_backend(function, device, |_| Ok(()))?;
    DEFAULT_DEVICE.with(|d| d.set(device));
    Ok(())
}

/// Whether `device` can run arrays now (webgpu: initialized and not lost).
pub fn is_available(device: Device) -> bool {
    match device {
        Device::Cpu | Device::Wasm => true,
        Device::WebGpu => REGISTRY.with(|r| {
            r.borrow()
                .webgpu
                .as_ref()
                .is_some_and(|b| b.lost_reason().is_none())
        }),
    }
}

/// Empties the caches of every device (`clearCaches()`); frees deferred while the registry
/// was in use are applied first.
pub fn clear_caches() {
    REGISTRY.with(|r| {
        if let Ok(mut r) = r.try_borrow_mut() {
            r.apply_pending_frees();
            r.cpu.clear_caches();
            r.wasm.clear_caches();
            if let Some(g) = r.webgpu.as_mut() {
                g.clear_caches();
            }
        }
    })
}

pub fn stats(device: Device) -> Option<BackendStats> {
    REGISTRY.with(|r| {
        let mut r = r.borrow_mut();
        r.backend_even_lost(device).map(|b| b.stats())
    })
}

pub fn loop_stats(device: Device) -> Option<super::LoopStats> {
    REGISTRY.with(|r| {
        let mut r = r.borrow_mut();
        r.backend_even_lost(device).map(|b| b.loop_stats())
    })
}

/// The per-kernel limits of `device` (unbounded when it is not initialized).
pub fn limits(device: Device) -> crate::kernel::DeviceLimits {
    REGISTRY.with(|r| {
        let mut r = r.borrow_mut();
        r.backend("limits", device)
            .map_or(crate::kernel::DeviceLimits::UNBOUNDED, |b| b.limits())
    })
}

/// An error naming `function` when `device` cannot hold arrays of `dtype` (WebGPU has no
/// float64, and float16 only where the adapter has `shader-f16`; cpu and wasm hold both).
pub fn check_dtype(function: &str, device: Device, dtype: crate::core::DType) -> Result<()> {
    use crate::core::DType;
    let float16 = || {
        REGISTRY.with(|r| {
            let mut r = r.borrow_mut();
            // A lost device still says (its error comes with the operation itself).
            r.backend_even_lost(device).is_some_and(|b| b.has_float16())
        })
    };
    match (device, dtype) {
        (Device::WebGpu, DType::Float16) if float16() => Ok(()),
        (Device::WebGpu, DType::Float64) => Err(Error::new(
            function,
            "float64 arrays are not supported on the webgpu device (WebGPU shaders have no \
             64-bit floats); the \"cpu\" and \"wasm\" devices support float64, or use float32",
        )),
        (Device::WebGpu, DType::Float16) => Err(Error::new(
            function,
            "float16 arrays are not supported on the webgpu device here: they need WebGPU's \
             \"shader-f16\" feature, which this adapter lacks (or webgpu is not initialized); \
             the \"cpu\" and \"wasm\" devices support float16, or use float32",
        )),
        _ => Ok(()),
    }
}
