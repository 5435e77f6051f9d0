//! Subgroups on the webgpu device: whether it has them, the sizes they come in, and how WGSL
//! that uses them must begin. Natively and in runtimes built on wgpu (Deno, Firefox) subgroup
//! built-ins need only the device feature (naga rejects `enable subgroups;`); Dawn (Chromium)
//! requires the directive, so on the web a one-line probe shader decides. wgpu's browser
//! backend does not pass the `subgroups` feature on to the device request: `js/device.ts` adds
//! it where the adapter offers it, and the device's own feature set says whether it was
//! granted.

/// The device's subgroups.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Subgroups {
    /// The smallest and largest subgroup the adapter may run.
    pub min_size: u32,
    pub max_size: u32,
    /// Shaders must start with `enable subgroups;`.
    pub directive: bool,
}

impl Subgroups {
    /// What a shader using subgroup built-ins starts with.
    pub fn prelude(&self) -> &'static str {
        match self.directive {
            true => "enable subgroups;\n",
            false => "",
        }
    }
}

/// The device's subgroups, if it was opened with them.
pub(super) async fn detect(device: &wgpu::Device, info: &wgpu::AdapterInfo) -> Option<Subgroups> {
    if !granted(device) {
        return None;
    }
    Some(Subgroups {
        min_size: info.subgroup_min_size,
        max_size: info.subgroup_max_size,
        directive: needs_directive(device).await,
    })
}

#[cfg(not(target_arch = "wasm32"))]
fn granted(device: &wgpu::Device) -> bool {
    device.features().contains(wgpu::Features::SUBGROUP)
}

#[cfg(target_arch = "wasm32")]
fn granted(device: &wgpu::Device) -> bool {
    device
        .as_webgpu()
        .is_some_and(|d| d.features().has("subgroups"))
}

/// naga (native wgpu) has no `enable subgroups;`.
#[cfg(not(target_arch = "wasm32"))]
async fn needs_directive(_device: &wgpu::Device) -> bool {
    false
}

/// Whether the platform's compiler accepts `enable subgroups;` (Dawn requires it, naga-based
/// runtimes reject it).
#[cfg(target_arch = "wasm32")]
async fn needs_directive(device: &wgpu::Device) -> bool {
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let _probe = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("oxjax subgroups probe"),
        source: wgpu::ShaderSource::Wgsl(
            "enable subgroups;\n@compute @workgroup_size(1) fn main() {}\n".into(),
        ),
    });
    scope.pop().await.is_none()
}
