//! Opening the webgpu device: the adapter, its features and limits, and the device-lost
//! watch (`lost`).

use std::collections::{HashMap, HashSet};

use super::lost::LostFlag;
use super::pool::{self, Pool};
use super::{loop_budget, program, readback, subgroups, WebGpuBackend};
use super::{BIND_GROUP_CACHE_CAPACITY, PIPELINE_CACHE_CAPACITY};
use crate::backend::routines::RoutineCache;
use crate::util::lru::Lru;
use crate::util::{Error, Result};

impl WebGpuBackend {
    pub(super) async fn open(
        storage_buffer_cap: Option<u32>,
        default_limits: bool,
    ) -> Result<WebGpuBackend> {
        let fail =
            |what: &str, e: &dyn std::fmt::Display| Error::new("init", format!("{what}: {e}"));
        let mut desc = wgpu::InstanceDescriptor::new_without_display_handle();
        desc.backends = if cfg!(target_arch = "wasm32") {
            wgpu::Backends::BROWSER_WEBGPU
        } else {
            wgpu::Backends::VULKAN
        };
        let instance = wgpu::Instance::new(desc);
        let adapter = instance
            .request_adapter(&wgpu::RequestAdapterOptions {
                power_preference: wgpu::PowerPreference::HighPerformance,
                ..Default::default()
            })
            .await
            .map_err(|e| fail("no WebGPU adapter", &e))?;
        let limits = if default_limits {
            wgpu::Limits::default()
        } else {
            adapter.limits()
        };
        // float16 arrays need WGSL's f16 (`wgsl_half`), the tiled matmul's subgroup form
        // needs subgroups: each requested wherever the adapter has it.
        let wanted = wgpu::Features::SHADER_F16 | wgpu::Features::SUBGROUP;
        let features = adapter.features() & wanted;
        let float16 = features.contains(wgpu::Features::SHADER_F16);
        let (device, queue) = adapter
            .request_device(&wgpu::DeviceDescriptor {
                label: Some("oxjax"),
                required_features: features,
                required_limits: limits.clone(),
                ..Default::default()
            })
            .await
            .map_err(|e| fail("could not open the WebGPU device", &e))?;
        let lost = LostFlag::default();
        lost.watch(&device);
        let adapter_limit = limits.max_storage_buffers_per_shader_stage;
        let info = adapter.get_info();
        let subgroups = subgroups::detect(&device, &info).await;
        Ok(WebGpuBackend {
            device,
            queue,
            loop_limit: loop_budget::detect(&info.name),
            max_storage_buffers: storage_buffer_cap.map_or(adapter_limit, |c| c.min(adapter_limit)),
            max_buffer_bytes: pool::max_buffer_bytes(&limits),
            buffers: HashMap::default(),
            next_buffer: 1,
            kernel_ids: Lru::new(PIPELINE_CACHE_CAPACITY),
            pipelines: Lru::new(PIPELINE_CACHE_CAPACITY),
            bind_groups: Lru::new(BIND_GROUP_CACHE_CAPACITY),
            next_exe: 1,
            dispatches: 0,
            buffer_copies: 0,
            fast: info.device_type != wgpu::DeviceType::Cpu,
            adapter_name: info.name,
            large_tiles: false,
            shared_bytes: limits.max_compute_workgroup_storage_size,
            tiled_dispatches: 0,
            subgroup_dispatches: 0,
            wide: true,
            wide_dispatches: 0,
            shader_compiles: Default::default(),
            routines: RoutineCache::default(),
            submits: 0,
            pool: Pool::default(),
            pass: None,
            pass_pipeline: None,
            encoder: None,
            pending: 0,
            retired: HashSet::default(),
            doomed: Vec::new(),
            loops: program::compiled::LoopCache::default(),
            float16,
            subgroups,
            use_subgroups: false,
            reads: readback::Reads::new(limits.max_buffer_size),
            lost,
            first_buffer: 1,
        })
    }
}
