//! Reading storage buffers back to the host. A read group (`Backend::read_group`) copies each
//! buffer into its own range of ONE mappable staging buffer — ranges start at multiples of 8,
//! as mapping requires — encoded into the current batch, which is then submitted; the staging
//! buffer is mapped once, each member's bytes are copied out of the mapped range, and the
//! buffer is unmapped and pooled. A group larger than the device's largest buffer uses as
//! many staging buffers as it needs, mapped together. Single reads and `blockUntilReady`
//! (which maps 4 bytes copied after the pending work) are groups of one.
//!
//! On the web a map completes from the event loop, so reads are futures and each member's
//! bytes are copied from the mapped range straight into a fresh JavaScript `ArrayBuffer`
//! (one copy, never through the wasm heap); `dataSync` is not possible there. Natively the
//! device is polled until the map completes.
//!
//! Staging buffers are pooled (bounded by count and bytes, emptied by `clear_caches`); a
//! failed map (a lost device) destroys its staging buffer and fails every member's read, naming
//! the loss where the device reported it.

use std::cell::RefCell;
use std::rc::Rc;

use super::lost::LostFlag;
use super::pool::size_class;
use super::{padded, WebGpuBackend};
use crate::backend::{BufferId, GroupFuture, HostBytes, ReadFuture};
use crate::util::{Error, Result};

/// Mapped ranges start at multiples of this (WebGPU's `mapAsync` offset alignment).
const MAP_ALIGN: u64 = 8;
/// The most free staging buffers kept, and their most bytes.
const MAX_STAGING_BUFFERS: usize = 8;
const MAX_STAGING_BYTES: u64 = 128 << 20;

/// The readback state of the webgpu device.
pub struct Reads {
    /// Free (unmapped) staging buffers, shared with the reads in flight, which return theirs.
    pool: Rc<RefCell<StagingPool>>,
    /// Staging buffers mapped so far.
    pub maps: u64,
    /// The largest staging buffer (the device's `maxBufferSize`; tests lower it).
    max_staging: u64,
    /// Test switch: the next group's maps are reported failed, as on a lost device.
    fail_next: bool,
}

impl Reads {
    pub fn new(max_buffer_size: u64) -> Reads {
        Reads {
            pool: Rc::default(),
            maps: 0,
            max_staging: max_buffer_size,
            fail_next: false,
        }
    }

    /// Destroys the pooled staging buffers.
    pub fn clear(&mut self) {
        self.pool.borrow_mut().clear();
    }

    /// Pooled staging buffers and their bytes.
    pub fn pooled(&self) -> (usize, usize) {
        let p = self.pool.borrow();
        (p.free.len(), p.bytes as usize)
    }
}

/// Free staging buffers by size, oldest first.
#[derive(Default)]
struct StagingPool {
    free: Vec<(u64, wgpu::Buffer)>,
    bytes: u64,
}

impl StagingPool {
    /// The smallest pooled buffer of at least `size` bytes and at most twice its class.
    fn take(&mut self, size: u64) -> Option<(u64, wgpu::Buffer)> {
        let limit = 2 * size_class(size);
        let pick = (0..self.free.len())
            .filter(|&i| (size..=limit).contains(&self.free[i].0))
            .min_by_key(|&i| self.free[i].0)?;
        let (class, buffer) = self.free.remove(pick);
        self.bytes -= class;
        Some((class, buffer))
    }

    /// Keeps an unmapped staging buffer, destroying the oldest ones over the bounds.
    fn put(&mut self, class: u64, buffer: wgpu::Buffer) {
        if class > MAX_STAGING_BYTES {
            buffer.destroy();
            return;
        }
        self.free.push((class, buffer));
        self.bytes += class;
        while self.bytes > MAX_STAGING_BYTES || self.free.len() > MAX_STAGING_BUFFERS {
            let (class, oldest) = self.free.remove(0);
            self.bytes -= class;
            oldest.destroy();
        }
    }

    fn clear(&mut self) {
        for (_, b) in self.free.drain(..) {
            b.destroy();
        }
        self.bytes = 0;
    }
}

/// A read's place in a staging buffer: (index in the group, offset, bytes).
pub type Member = (usize, u64, usize);

/// Where each read of a group lands: per staging buffer, its members and the bytes it uses.
/// Empty reads land nowhere.
pub fn layout(bytes: &[usize], max: u64) -> Vec<(Vec<Member>, u64)> {
    let mut out = Vec::new();
    let mut members = Vec::new();
    let mut end = 0u64;
    for (i, &n) in bytes.iter().enumerate() {
        if n == 0 {
            continue;
        }
        let mut offset = end.next_multiple_of(MAP_ALIGN);
        if !members.is_empty() && offset + padded(n) > max {
            out.push((std::mem::take(&mut members), end));
            offset = 0;
        }
        members.push((i, offset, n));
        end = offset + padded(n);
    }
    if !members.is_empty() {
        out.push((members, end));
    }
    out
}

/// One staging buffer of a group in flight.
struct Chunk {
    staging: wgpu::Buffer,
    class: u64,
    /// The bytes mapped (from 0).
    size: u64,
    members: Vec<Member>,
}

impl WebGpuBackend {
    /// Encodes copies of the first `n` bytes of each `(buffer, n)` into staging buffers, then
    /// submits the batch and starts the maps.
    fn stage(&mut self, reads: &[(BufferId, usize)]) -> Result<Vec<Chunk>> {
        let sources = reads
            .iter()
            .map(|&(id, n)| self.buffer(id).map(|b| (b.gpu.clone(), n)))
            .collect::<Result<Vec<_>>>()?;
        let sizes: Vec<usize> = sources.iter().map(|s| s.1).collect();
        let mut chunks = Vec::new();
        for (members, size) in layout(&sizes, self.reads.max_staging) {
            let pooled = self.reads.pool.borrow_mut().take(size);
            let (class, staging) = pooled.unwrap_or_else(|| {
                let class = size_class(size).min(self.reads.max_staging).max(size);
                let buffer = self.device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some("oxjax readback"),
                    size: class,
                    usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                    mapped_at_creation: false,
                });
                (class, buffer)
            });
            for &(i, offset, n) in &members {
                let src = &sources[i].0;
                self.encoder()
                    .copy_buffer_to_buffer(src, 0, &staging, offset, padded(n));
            }
            chunks.push(Chunk {
                staging,
                class,
                size,
                members,
            });
        }
        self.flush();
        self.reads.maps += chunks.len() as u64;
        Ok(chunks)
    }

    /// Reads `(buffer, n)`: the first `n` bytes of each buffer, together.
    pub(super) fn read_many(&mut self, reads: &[(BufferId, usize)]) -> Result<GroupFuture> {
        let chunks = self.stage(reads)?;
        let fail = std::mem::take(&mut self.reads.fail_next);
        let pool = self.reads.pool.clone();
        let lost = self.lost.clone();
        map_chunks(&self.device, chunks, reads.len(), pool, fail, lost)
    }

    /// `Backend::read_group`: every byte of each buffer.
    pub(super) fn read_buffers(&mut self, buffers: &[BufferId]) -> Result<GroupFuture> {
        let reads = buffers
            .iter()
            .map(|&id| Ok((id, self.buffer(id)?.bytes)))
            .collect::<Result<Vec<_>>>()?;
        self.read_many(&reads)
    }

    /// `Backend::read`: a group of one.
    pub(super) fn read_one(&mut self, buffer: BufferId) -> Result<ReadFuture> {
        let group = self.read_buffers(&[buffer])?;
        Ok(Box::pin(async move {
            Ok(group
                .await?
                .pop()
                .map_or_else(Vec::new, HostBytes::into_vec))
        }))
    }

    /// `Backend::read_sync` (natively): a group of one, mapped while polling the device.
    #[cfg(not(target_arch = "wasm32"))]
    pub(super) fn read_one_sync(&mut self, buffer: BufferId) -> Result<Vec<u8>> {
        let bytes = self.buffer(buffer)?.bytes;
        let chunks = self.stage(&[(buffer, bytes)])?;
        let fail = std::mem::take(&mut self.reads.fail_next);
        let lost = &self.lost;
        let mut out = map_chunks_sync(&self.device, chunks, 1, &self.reads.pool, fail, lost)?;
        Ok(out.pop().map_or_else(Vec::new, HostBytes::into_vec))
    }

    /// `Backend::sync`: resolves once 4 bytes copied after the pending work are mapped.
    pub(super) fn sync_one(&mut self, buffer: BufferId) -> Result<ReadFuture> {
        let group = self.read_many(&[(buffer, 4)])?;
        Ok(Box::pin(async move { group.await.map(|_| Vec::new()) }))
    }

    /// Makes the maps of the next read group fail, as on a lost device: whatever the map's
    /// outcome, it is reported failed and its staging buffer destroyed (tests check the errors
    /// and the cleanup).
    pub fn fail_next_read(&mut self) {
        self.reads.fail_next = true;
    }

    /// Lowers the largest staging buffer (tests of groups that need several).
    pub fn set_max_staging_bytes(&mut self, bytes: u64) {
        self.reads.max_staging = bytes.max(MAP_ALIGN);
    }
}

/// Copies each member's bytes out of a mapped chunk into `out`, then unmaps and pools the
/// staging buffer; a failed map destroys it instead.
fn complete(
    chunk: Chunk,
    mapped: std::result::Result<(), String>,
    pool: &RefCell<StagingPool>,
    out: &mut [HostBytes],
    lost: &LostFlag,
) -> Result<()> {
    let failed = |e: &dyn std::fmt::Display| match lost.reason() {
        Some(why) => Error::new(
            "data",
            format!(
                "webgpu readback failed: the webgpu device was lost ({why}; {e}). Call `await \
                 init()` to open a new webgpu device"
            ),
        ),
        None => Error::new(
            "data",
            format!(
                "webgpu readback failed: {e} (a map fails when the device is lost; \
                 `webgpuUnavailableReason()` then says why)"
            ),
        ),
    };
    if let Err(e) = mapped {
        chunk.staging.destroy();
        return Err(failed(&e));
    }
    let copied = (|| -> Result<()> {
        let view = chunk
            .staging
            .slice(..chunk.size)
            .get_mapped_range()
            .map_err(|e| failed(&e))?;
        #[cfg(target_arch = "wasm32")]
        let js = view.as_uint8array();
        for &(i, offset, n) in &chunk.members {
            #[cfg(target_arch = "wasm32")]
            {
                let (start, end) = (offset as u32, (offset as usize + n) as u32);
                out[i] = HostBytes::Js(js.slice(start, end).buffer());
            }
            #[cfg(not(target_arch = "wasm32"))]
            {
                let start = offset as usize;
                out[i] = HostBytes::Heap(view[start..start + n].to_vec());
            }
        }
        Ok(())
    })();
    match copied {
        Ok(()) => {
            chunk.staging.unmap();
            pool.borrow_mut().put(chunk.class, chunk.staging);
        }
        // Destroying unmaps; `unmap` itself may throw on a buffer the device lost.
        Err(_) => chunk.staging.destroy(),
    }
    copied
}

/// The outcome of a map that succeeded, unless a test asked for a failure.
fn simulated(fail: bool) -> std::result::Result<(), String> {
    match fail {
        true => Err("the map failed (simulated device loss)".to_string()),
        false => Ok(()),
    }
}

fn empty(count: usize) -> Vec<HostBytes> {
    (0..count).map(|_| HostBytes::Heap(Vec::new())).collect()
}

#[cfg(not(target_arch = "wasm32"))]
fn map_chunks(
    device: &wgpu::Device,
    chunks: Vec<Chunk>,
    count: usize,
    pool: Rc<RefCell<StagingPool>>,
    fail: bool,
    lost: LostFlag,
) -> Result<GroupFuture> {
    Ok(crate::backend::ready_group(map_chunks_sync(
        device, chunks, count, &pool, fail, &lost,
    )))
}

#[cfg(not(target_arch = "wasm32"))]
fn map_chunks_sync(
    device: &wgpu::Device,
    chunks: Vec<Chunk>,
    count: usize,
    pool: &RefCell<StagingPool>,
    fail: bool,
    lost: &LostFlag,
) -> Result<Vec<HostBytes>> {
    let mut waits = Vec::with_capacity(chunks.len());
    for chunk in chunks {
        let (tx, rx) = std::sync::mpsc::channel();
        chunk
            .staging
            .slice(..chunk.size)
            .map_async(wgpu::MapMode::Read, move |r| {
                let _ = tx.send(r);
            });
        waits.push((chunk, rx));
    }
    let polled = device.poll(wgpu::PollType::wait_indefinitely());
    let mut out = empty(count);
    let mut result = Ok(());
    for (chunk, rx) in waits {
        let mapped = match (&polled, rx.try_recv()) {
            (Err(e), _) => Err(format!("the device was lost ({e})")),
            (_, Ok(r)) => r.map_err(|e| e.to_string()),
            (_, Err(_)) => Err("the map was cancelled".to_string()),
        }
        .and_then(|()| simulated(fail));
        if let Err(e) = complete(chunk, mapped, pool, &mut out, lost) {
            result = result.and(Err(e));
        }
    }
    result.map(|()| out)
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
fn map_chunks(
    _device: &wgpu::Device,
    chunks: Vec<Chunk>,
    count: usize,
    pool: Rc<RefCell<StagingPool>>,
    fail: bool,
    lost: LostFlag,
) -> Result<GroupFuture> {
    use crate::util::oneshot;
    let mut waits = Vec::with_capacity(chunks.len());
    for chunk in chunks {
        let (sender, receiver) = oneshot::channel();
        chunk
            .staging
            .slice(..chunk.size)
            .map_async(wgpu::MapMode::Read, move |r| sender.send(r));
        waits.push((chunk, receiver));
    }
    Ok(Box::pin(async move {
        let mut out = empty(count);
        let mut result = Ok(());
        for (chunk, receiver) in waits {
            let mapped = match receiver.await {
                Some(r) => r.map_err(|e| e.to_string()),
                None => Err("the map was cancelled".to_string()),
            }
            .and_then(|()| simulated(fail));
            if let Err(e) = complete(chunk, mapped, &pool, &mut out, &lost) {
                result = result.and(Err(e));
            }
        }
        result.map(|()| out)
    }))
}

#[cfg(test)]
mod tests {
    use super::layout;

    #[test]
    fn ranges_are_aligned_packed_and_split_at_the_limit() {
        // 6 bytes (float16 ×3) pad to 8; 4 bytes start at 8; empty reads land nowhere.
        let l = layout(&[6, 0, 4, 10], 1 << 20);
        assert_eq!(l, vec![(vec![(0, 0, 6), (2, 8, 4), (3, 16, 10)], 28)]);
        // A limit of 16 bytes: a new staging buffer whenever the next range would not fit.
        let l = layout(&[12, 8, 16, 4, 4], 16);
        assert_eq!(
            l,
            vec![
                (vec![(0, 0, 12)], 12),
                (vec![(1, 0, 8)], 8),
                (vec![(2, 0, 16)], 16),
                (vec![(3, 0, 4), (4, 8, 4)], 12),
            ]
        );
        assert!(layout(&[0, 0], 16).is_empty());
    }
}
