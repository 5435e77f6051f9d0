//! Read groups on the `webgpu` device natively (wgpu on Vulkan, lavapipe): buffers of odd and
//! zero sizes read together come back byte for byte with ONE map; a group over the largest
//! staging buffer is split into as many maps as `readback::layout` says; a failed map fails
//! the group's reads with an error naming `data`, and reads work again after it; staging
//! buffers are pooled within their bounds and `clear_caches` destroys them.

use crate::common::{block_on, upload};
use oxjax::backend::webgpu::WebGpuBackend;
use oxjax::backend::{Backend, BufferId};

fn read(gpu: &mut WebGpuBackend, ids: &[BufferId]) -> oxjax::util::Result<Vec<Vec<u8>>> {
    let group = gpu.read_group(ids)?;
    let bytes = block_on(group)?;
    Ok(bytes.into_iter().map(|b| b.into_vec()).collect())
}

#[test]
fn a_read_group_maps_once_splits_at_the_limit_and_recovers_from_a_failed_map() {
    let mut gpu = block_on(WebGpuBackend::new(Some(8))).expect("a Vulkan adapter (lavapipe)");
    // Byte counts as float16 and 32-bit arrays give them, zero and odd ones included.
    let sizes = [0usize, 6, 4, 40, 4002, 2, 0, 64];
    let data: Vec<Vec<u8>> = sizes
        .iter()
        .enumerate()
        .map(|(k, &n)| (0..n).map(|i| (i * 7 + k * 31) as u8).collect())
        .collect();
    let ids: Vec<BufferId> = data.iter().map(|d| upload(&mut gpu, d)).collect();
    let maps = |g: &WebGpuBackend| g.stats().readback_maps;

    let before = maps(&gpu);
    assert_eq!(read(&mut gpu, &ids).unwrap(), data);
    assert_eq!(maps(&gpu) - before, 1, "one map for the whole group");
    assert_eq!(gpu.read_sync(ids[4]).unwrap(), data[4]);

    // 64-byte staging buffers: 6, 4 and 40 bytes share one (at offsets 0, 8, 16), 4002 has
    // its own (larger than the limit), then 2 and 64 one each.
    gpu.set_max_staging_bytes(64);
    let before = maps(&gpu);
    assert_eq!(read(&mut gpu, &ids).unwrap(), data);
    assert_eq!(maps(&gpu) - before, 4, "split over four staging buffers");
    gpu.set_max_staging_bytes(1 << 40);

    gpu.fail_next_read();
    let err = read(&mut gpu, &ids).unwrap_err();
    assert!(
        err.message().starts_with("data: webgpu readback failed"),
        "{err}"
    );
    assert_eq!(read(&mut gpu, &ids[3..5]).unwrap(), data[3..5].to_vec());

    let s = gpu.stats();
    assert!((1..=8).contains(&s.staging_buffers), "{s:?}");
    gpu.clear_caches();
    let s = gpu.stats();
    assert_eq!((s.staging_buffers, s.staging_bytes), (0, 0));
    for id in ids {
        gpu.free(id);
    }
}
