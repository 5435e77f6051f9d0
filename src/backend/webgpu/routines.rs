//! Routines on the webgpu device: a compute pipeline per routine shape (`wgsl_routines`),
//! dispatched with one invocation per matrix of the batch. Everything stays on the GPU.

use super::wgsl::WORKGROUP_SIZE;
use super::{wgsl_routines, WebGpuBackend};
use crate::backend::routines::check_arity;
use crate::backend::{BufferId, ExeId};
use crate::kernel::Routine;
use crate::util::{Error, Result};

pub(super) fn compile(backend: &mut WebGpuBackend, routine: &Routine) -> Result<ExeId> {
    let bindings = (routine.inputs().len() + routine.outputs().len()) as u32;
    if bindings > backend.max_storage_buffers {
        return Err(Error::new(
            routine.name(),
            format!(
                "needs {bindings} storage buffers, the device allows {}",
                backend.max_storage_buffers
            ),
        ));
    }
    let device = backend.device.clone();
    backend.routines.get_or_compile(routine, |r| {
        let source = wgsl_routines::emit_routine(r)?;
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some(r.name()),
            source: wgpu::ShaderSource::Wgsl(source.into()),
        });
        Ok(
            device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(r.name()),
                layout: None,
                module: &module,
                entry_point: Some("main"),
                compilation_options: Default::default(),
                cache: None,
            }),
        )
    })
}

pub(super) fn dispatch(
    backend: &mut WebGpuBackend,
    exe: ExeId,
    inputs: &[BufferId],
    outputs: &[BufferId],
) -> Result<()> {
    let mut bound = Vec::with_capacity(inputs.len() + outputs.len());
    for &id in inputs.iter().chain(outputs) {
        bound.push(backend.buffer(id)?.gpu.clone());
    }
    let (routine, pipeline) = backend.routines.get(exe)?;
    check_arity(routine, inputs.len(), outputs.len())?;
    let entries: Vec<wgpu::BindGroupEntry> = bound
        .iter()
        .enumerate()
        .map(|(i, b)| wgpu::BindGroupEntry {
            binding: i as u32,
            resource: b.as_entire_binding(),
        })
        .collect();
    let bind_group = backend
        .device
        .create_bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout: &pipeline.get_bind_group_layout(0),
            entries: &entries,
        });
    let groups = (routine.batch as u32).div_ceil(WORKGROUP_SIZE).max(1);
    let (x, y) = if groups <= 65535 {
        (groups, 1)
    } else {
        (65535, groups.div_ceil(65535))
    };
    let mut encoder = backend.device.create_command_encoder(&Default::default());
    {
        let mut pass = encoder.begin_compute_pass(&Default::default());
        pass.set_pipeline(pipeline);
        pass.set_bind_group(0, &bind_group, &[]);
        pass.dispatch_workgroups(x, y, 1);
    }
    backend.queue.submit([encoder.finish()]);
    backend.dispatches += 1;
    Ok(())
}
