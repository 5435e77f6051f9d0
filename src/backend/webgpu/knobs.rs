//! What the webgpu device reports (its adapter's name, the storage-buffer limit, float16,
//! subgroups) and its test and maintenance switches: the shared-memory kernels (and the serial
//! scan shader's warp), the large matmul tile, its workgroup storage and its subgroup form, the
//! wide form of elementwise kernels, the bind-group cache's counters and the buffer pool's (and
//! its floor).

use super::WebGpuBackend;

impl WebGpuBackend {
    /// Whether the device was opened with `shader-f16`, so float16 arrays can live on it.
    pub fn has_float16(&self) -> bool {
        self.float16
    }

    /// The device's subgroups, if it was opened with them (the adapter offered `subgroups`).
    pub fn subgroups(&self) -> Option<super::subgroups::Subgroups> {
        self.subgroups
    }

    /// Dispatches of tiled matmuls in their subgroup form.
    pub fn subgroup_dispatches(&self) -> u64 {
        self.subgroup_dispatches
    }

    /// Lets tiled matmuls take their subgroup form where the device has subgroups, or not
    /// (the default: the shared-memory form).
    pub fn set_matmul_subgroups(&mut self, on: bool) {
        if self.use_subgroups != on {
            self.use_subgroups = on;
            self.kernel_ids.clear();
            self.pipelines.clear();
            self.bind_groups.clear();
        }
    }

    /// Lets kernels without a reduction take the wide form (`wgsl_wide`: four elements per
    /// invocation, vector loads and stores; the default), or not (one element per invocation).
    pub fn set_wide_elementwise(&mut self, on: bool) {
        if self.wide != on {
            self.wide = on;
            self.kernel_ids.clear();
            self.pipelines.clear();
            self.bind_groups.clear();
        }
    }

    /// Whether kernels without a reduction take the wide form (`set_wide_elementwise`).
    pub fn wide_elementwise(&self) -> bool {
        self.wide
    }

    /// Dispatches of kernels in the wide form.
    pub fn wide_dispatches(&self) -> u64 {
        self.wide_dispatches
    }

    pub fn adapter_name(&self) -> &str {
        &self.adapter_name
    }

    /// The storage-buffer limit per shader stage that kernels are planned against.
    pub fn max_storage_buffers(&self) -> u32 {
        self.max_storage_buffers
    }

    /// Turns the shared-memory kernels (tiled matmul, workgroup-tree reductions) on or off.
    /// They are off on CPU adapters (SwiftShader, lavapipe), which emulate workgroup barriers
    /// slowly and gain nothing from tiles; native tests turn them on to check them there.
    pub fn set_fast_kernels(&mut self, on: bool) {
        if self.fast != on {
            self.fast = on;
            self.kernel_ids.clear();
            self.pipelines.clear();
            self.bind_groups.clear();
            // The serial scan shader's workgroup size follows it too.
            self.loops.clear();
        }
    }

    /// Makes every tiled matmul use the large (8×8 per invocation) tile, so that tests check
    /// that shape on products small enough for a CPU adapter.
    pub fn set_large_tiles(&mut self, on: bool) {
        if self.large_tiles != on {
            self.large_tiles = on;
            self.kernel_ids.clear();
            self.pipelines.clear();
            self.bind_groups.clear();
        }
    }

    /// Lowers the workgroup storage tiled matmuls may declare (tests: a tile that does not
    /// fit is single-buffered; never above the device's limit).
    pub fn set_matmul_shared_bytes(&mut self, bytes: u32) {
        let bytes = bytes.min(self.device.limits().max_compute_workgroup_storage_size);
        if self.shared_bytes != bytes {
            self.shared_bytes = bytes;
            self.kernel_ids.clear();
            self.pipelines.clear();
            self.bind_groups.clear();
        }
    }

    /// Hits and misses of the bind group cache.
    pub fn bind_group_stats(&self) -> crate::util::lru::CacheStats {
        self.bind_groups.stats()
    }

    /// Hits and misses of the buffer pool (allocations that reused a free buffer, and those
    /// that created one).
    pub fn pool_counts(&self) -> (u64, u64) {
        (self.pool.hits, self.pool.misses)
    }

    /// Sets the floor of the pool's byte bound (tests: small, so that the bound follows the
    /// program's peak of live bytes on small buffers).
    pub fn set_pool_floor(&mut self, bytes: u64) {
        self.pool.set_floor(bytes);
    }

    /// Destroys the pooled free buffers.
    pub fn clear_pool(&mut self) {
        self.flush();
        self.pool.clear();
    }
}
