//! Reading a staging buffer (already holding a copy of a storage buffer, see
//! `WebGpuBackend::stage`) back to the host: map it, copy the bytes out. Natively the device is
//! polled until the map completes; on the web the map completes from the browser's event loop,
//! so only the async read exists there.

use crate::backend::ReadFuture;
use crate::util::{Error, Result};

fn take_bytes(staging: &wgpu::Buffer, bytes: usize) -> Result<Vec<u8>> {
    let data = {
        let view = staging
            .slice(..)
            .get_mapped_range()
            .map_err(|e| Error::new("data", format!("webgpu readback failed: {e}")))?;
        view[..bytes].to_vec()
    };
    staging.unmap();
    staging.destroy();
    Ok(data)
}

#[cfg(not(target_arch = "wasm32"))]
pub fn read_sync(device: &wgpu::Device, staging: wgpu::Buffer, bytes: usize) -> Result<Vec<u8>> {
    let (tx, rx) = std::sync::mpsc::channel();
    staging.slice(..).map_async(wgpu::MapMode::Read, move |r| {
        let _ = tx.send(r);
    });
    device
        .poll(wgpu::PollType::wait_indefinitely())
        .map_err(|e| Error::new("data", format!("webgpu device lost while reading: {e}")))?;
    match rx.recv() {
        Ok(Ok(())) => take_bytes(&staging, bytes),
        Ok(Err(e)) => Err(Error::new("data", format!("webgpu readback failed: {e}"))),
        Err(_) => Err(Error::new("data", "webgpu readback was cancelled")),
    }
}

#[cfg(not(target_arch = "wasm32"))]
pub fn read(device: &wgpu::Device, staging: wgpu::Buffer, bytes: usize) -> ReadFuture {
    crate::backend::ready(read_sync(device, staging, bytes))
}

/// Why `dataSync` fails on the web.
#[cfg(target_arch = "wasm32")]
pub fn no_sync_reads() -> Error {
    Error::msg(
        "dataSync: the webgpu device cannot be read synchronously here (WebGPU reads are \
         asynchronous in browsers and Deno); use `await array.data()` instead",
    )
}

#[cfg(target_arch = "wasm32")]
pub fn read(_device: &wgpu::Device, staging: wgpu::Buffer, bytes: usize) -> ReadFuture {
    use crate::util::oneshot;
    let (sender, receiver) = oneshot::channel();
    staging
        .slice(..)
        .map_async(wgpu::MapMode::Read, move |r| sender.send(r));
    Box::pin(async move {
        match receiver.await {
            Some(Ok(())) => take_bytes(&staging, bytes),
            Some(Err(e)) => Err(Error::new("data", format!("webgpu readback failed: {e}"))),
            None => Err(Error::new("data", "webgpu readback was cancelled")),
        }
    })
}
