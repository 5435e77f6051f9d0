//! Creation functions computed from a formula, on the device a call names: the window
//! functions (`hamming`, `hann`, `bartlett`, `blackman`) over the sample indices, `logspace`
//! and `geomspace` (powers of `linspace`), and `tri` (ones at and below a diagonal). The
//! starting grid is made on the host like `arange`/`linspace` (`creation`), committed to the
//! named device, and the formula is bound on it, so each works eagerly and under every
//! transformation. A small result wanted on webgpu outside a trace is computed on the cpu
//! device and uploaded with its host copy, so reading it needs no buffer map.

use std::f64::consts::PI;

use super::call_args::{DTypeName, DeviceName, WindowKind};
use super::creation;
use super::emit::v;
use crate::backend::buffer::WEBGPU_HOST_COPY_BYTES;
use crate::core::{DType, Device};
use crate::rules::lax;
use crate::transform::trace::Binder;
use crate::transform::{ArrayValue, Value};
use crate::util::{Error, Result};

impl DTypeName {
    pub fn dtype(self) -> DType {
        match self {
            DTypeName::Bool => DType::Bool,
            DTypeName::Uint32 => DType::Uint32,
            DTypeName::Int32 => DType::Int32,
            DTypeName::Float16 => DType::Float16,
            DTypeName::Float32 => DType::Float32,
            DTypeName::Float64 => DType::Float64,
        }
    }
}

/// Where function `name` puts a new array: the named device (committed), else the default
/// device (uncommitted, free to follow committed operands).
fn placement(name: &str, device: Option<DeviceName>) -> Result<(Device, bool)> {
    let named = match device {
        None => return Ok((crate::backend::registry::default_device(), false)),
        Some(DeviceName::Cpu) => "cpu",
        Some(DeviceName::Wasm) => "wasm",
        Some(DeviceName::WebGpu) => "webgpu",
        Some(DeviceName::WebGl) => "webgl",
    };
    Ok((Device::parse(name, named)?, true))
}

/// A host-made array placed as `device` says.
fn placed(
    name: &str,
    device: Option<DeviceName>,
    make: impl FnOnce(Device) -> Result<ArrayValue>,
) -> Result<Value> {
    let (device, committed) = placement(name, device)?;
    let mut a = make(device)?;
    a.committed = committed;
    Ok(Value::Concrete(a))
}

/// `build(device)`, or — for a small result wanted on webgpu outside any trace, in a dtype
/// webgpu holds — `build` on the cpu device (synchronous, with no kernel to compile), its
/// result uploaded to webgpu with its host copy (`DeviceBuffer::host`), so that reading it
/// needs no buffer map. `elements` is the result's size, `dtype` its dtype.
fn small_on_host(
    name: &str,
    device: Option<DeviceName>,
    elements: usize,
    dtype: DType,
    build: impl FnOnce(Option<DeviceName>) -> Result<Value>,
) -> Result<Value> {
    let (target, committed) = placement(name, device)?;
    let small = elements.saturating_mul(dtype.byte_size()) <= WEBGPU_HOST_COPY_BYTES;
    let exact_dtype = !matches!(dtype, DType::Float64 | DType::Float16);
    let traced = crate::transform::trace::top_frame().is_some();
    if target != Device::WebGpu || !small || !exact_dtype || traced {
        return build(device);
    }
    let on_cpu = || build(Some(DeviceName::Cpu));
    let Value::Concrete(on_host) =
        crate::transform::scope::follow_device(Some(Device::Cpu), on_cpu)?
    else {
        return Err(Error::new(name, "internal error: traced outside a trace"));
    };
    let bytes = on_host.read_sync(name)?;
    let shape = on_host.aval.shape.clone();
    let mut a = ArrayValue::from_bytes(name, &bytes, shape, on_host.aval.dtype, target)?;
    a.aval.weak = on_host.aval.weak;
    a.committed = committed;
    Ok(Value::Concrete(a))
}

/// Window `kind` of `m` points (float32).
pub fn window(kind: WindowKind, m: usize, device: Option<DeviceName>) -> Result<Value> {
    let name = match kind {
        WindowKind::Hamming => "hamming",
        WindowKind::Hann => "hann",
        WindowKind::Bartlett => "bartlett",
        WindowKind::Blackman => "blackman",
    };
    small_on_host(name, device, m, DType::Float32, |device| {
        window_on(kind, name, m, device)
    })
}

fn window_on(kind: WindowKind, name: &str, m: usize, device: Option<DeviceName>) -> Result<Value> {
    let n = placed(name, device, |d| {
        creation::arange(0.0, m as f64, 1.0, DType::Float32, d)
    })?;
    if m <= 1 {
        return lax::add(&mut Binder, &lax::mul(&mut Binder, &n, 0.0)?, 1.0);
    }
    let den = (m - 1) as f64;
    let cos = |k: f64| -> Result<Value> {
        lax::cos(&mut Binder, &lax::mul(&mut Binder, &n, k * PI / den)?)
    };
    let affine = |c: &Value, a: f64, b: f64| -> Result<Value> {
        lax::add(&mut Binder, a, &lax::mul(&mut Binder, c, b)?)
    };
    match kind {
        WindowKind::Hamming => affine(&cos(2.0)?, 0.54, -0.46),
        WindowKind::Hann => affine(&cos(2.0)?, 0.5, -0.5),
        WindowKind::Bartlett => {
            let t = lax::mul(&mut Binder, &n, 2.0 / den)?;
            let rising = lax::le(&mut Binder, &n, den / 2.0)?;
            lax::select(&mut Binder, &rising, &t, &lax::sub(&mut Binder, 2.0, &t)?)
        }
        WindowKind::Blackman => {
            let c2 = affine(&cos(2.0)?, 0.42, -0.5)?;
            lax::add(&mut Binder, &c2, &lax::mul(&mut Binder, &cos(4.0)?, 0.08)?)
        }
    }
}

/// The evenly spaced exponents of `logspace`/`geomspace`: `linspace` in `dtype` (float32 by
/// default).
struct Exponents {
    start: f64,
    stop: f64,
    num: usize,
    endpoint: bool,
    dtype: Option<DTypeName>,
    device: Option<DeviceName>,
}

/// `sign · base ** linspace(start, stop, num)`, float (`sign` is 1 or -1).
fn powers(name: &str, e: Exponents, base: f64, sign: f64) -> Result<Value> {
    let dtype = e.dtype.map_or(DType::Float32, DTypeName::dtype);
    // Integer exponents give float32 powers (`math::float`).
    let out = if dtype.is_float() {
        dtype
    } else {
        DType::Float32
    };
    small_on_host(name, e.device, e.num, out, |device| {
        let x = placed(name, device, |d| {
            creation::linspace(e.start, e.stop, e.num, e.endpoint, dtype, d)
        })?;
        let x = super::math::float(&v(&x))?;
        let r = lax::exp(&mut Binder, &lax::mul(&mut Binder, &x, base.ln())?)?;
        match sign < 0.0 {
            true => lax::mul(&mut Binder, &r, -1.0),
            false => Ok(r),
        }
    })
}

/// NumPy's `logspace`: `base ** linspace(start, stop, num)`.
pub fn logspace(a: super::call_args::Logspace) -> Result<Value> {
    let e = Exponents {
        start: a.start,
        stop: a.stop,
        num: a.num,
        endpoint: a.endpoint,
        dtype: a.dtype,
        device: a.device,
    };
    powers("logspace", e, a.base, 1.0)
}

/// NumPy's `geomspace`: numbers spaced evenly on a log scale from `start` to `stop` (both
/// non-zero and of the same sign).
pub fn geomspace(a: super::call_args::Geomspace) -> Result<Value> {
    let (start, stop) = (a.start, a.stop);
    if start == 0.0 || stop == 0.0 || start.signum() != stop.signum() {
        return Err(Error::new(
            "geomspace",
            "start and stop must be non-zero and of the same sign",
        ));
    }
    let e = Exponents {
        start: start.abs().log10(),
        stop: stop.abs().log10(),
        num: a.num,
        endpoint: a.endpoint,
        dtype: a.dtype,
        device: a.device,
    };
    powers("geomspace", e, 10.0, start.signum())
}

/// NumPy's `tri`: ones at and below diagonal `k` of an `n × m` matrix, in `dtype` (float32 by
/// default).
pub fn tri(a: super::call_args::Tri) -> Result<Value> {
    let dtype = a.dtype.map_or(DType::Float32, DTypeName::dtype);
    tri_of(a.n, a.m.unwrap_or(a.n), a.k, dtype, a.device)
}

/// The causal mask of `n` queries and `m` keys: `tri(n, m)` as bool, on the default device.
pub fn tri_bool(n: usize, m: usize) -> Result<Value> {
    tri_of(n, m, 0, DType::Bool, None)
}

/// `tri`, built in float32 (a bool `tril` would promote), then converted.
fn tri_of(n: usize, m: usize, k: i64, dtype: DType, device: Option<DeviceName>) -> Result<Value> {
    small_on_host("tri", device, n.saturating_mul(m), dtype, |device| {
        tri_on(n, m, k, dtype, device)
    })
}

fn tri_on(n: usize, m: usize, k: i64, dtype: DType, device: Option<DeviceName>) -> Result<Value> {
    let ones = placed("tri", device, |d| {
        creation::full("tri", vec![n, m], 1.0, DType::Float32, d)
    })?;
    let t = super::matrices::triangle(&ones, k, true)?;
    lax::convert(&mut Binder, &t, dtype)
}
