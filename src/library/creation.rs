//! Array creation: constants, ranges and identity matrices, computed in f64 and converted
//! once to the dtype (as NumPy does) — on the host and uploaded, or, past
//! [`HOST_FILL_BYTES`], by a kernel on the device with the same values.

use crate::core::{f16, DType, Device};
use crate::kernel::{AluExp, BinaryOp, CompareOp, Kernel};
use crate::transform::{eval, ArrayValue};
use crate::util::{Error, Result};

/// The most bytes of an array made on the host and uploaded; larger ones are computed on
/// their device.
const HOST_FILL_BYTES: usize = 1 << 16;

/// Encodes f64 values as little-endian elements of `dtype` (NumPy's conversion rules).
pub fn encode(dtype: DType, values: impl Iterator<Item = f64>) -> Vec<u8> {
    let mut out = Vec::new();
    encode_into(&mut out, dtype, values);
    out
}

fn encode_into(out: &mut Vec<u8>, dtype: DType, values: impl Iterator<Item = f64>) {
    // One loop per dtype, so the conversion is not chosen again for every element.
    fn each<const N: usize>(
        out: &mut Vec<u8>,
        values: impl Iterator<Item = f64>,
        f: impl Fn(f64) -> [u8; N],
    ) {
        out.reserve(values.size_hint().0 * N);
        for v in values {
            out.extend_from_slice(&f(v));
        }
    }
    match dtype {
        DType::Float32 => each(out, values, |v| (v as f32).to_le_bytes()),
        DType::Float64 => each(out, values, |v| v.to_le_bytes()),
        DType::Int32 => each(out, values, |v| (v as i32).to_le_bytes()),
        DType::Uint32 => each(out, values, |v| (v as u32).to_le_bytes()),
        DType::Bool => each(out, values, |v| ((v != 0.0) as u32).to_le_bytes()),
        DType::Float16 => each(out, values, |v| f16::to_bits(v).to_le_bytes()),
    }
}

/// `value` as an element of `dtype` holds it (what [`encode`] writes), as an f64.
fn stored(dtype: DType, value: f64) -> f64 {
    match dtype {
        DType::Float32 => f64::from(value as f32),
        DType::Float64 => value,
        DType::Int32 => f64::from(value as i32),
        DType::Uint32 => f64::from(value as u32),
        DType::Bool => f64::from(u8::from(value != 0.0)),
        DType::Float16 => f16::from_bits(f16::to_bits(value)),
    }
}

/// The array of `shape` whose elements `values` yields (lazily: the shape is checked against
/// the size limits, and the host bytes reserved, before the first value is computed).
fn make(
    function: &str,
    shape: Vec<usize>,
    dtype: DType,
    device: Device,
    values: impl Iterator<Item = f64>,
) -> Result<ArrayValue> {
    crate::core::shape::check(function, &shape, dtype.byte_size())?;
    let len = crate::core::shape::size(&shape) * dtype.byte_size();
    crate::backend::registry::check_buffer_bytes(function, device, len)?;
    let mut bytes = Vec::new();
    bytes.try_reserve_exact(len).map_err(|_| {
        Error::new(
            function,
            format!("out of memory: cannot allocate {len} bytes on the host for the array's data"),
        )
    })?;
    encode_into(&mut bytes, dtype, values.take(len / dtype.byte_size()));
    ArrayValue::from_bytes(function, &bytes, shape, dtype, device)
}

/// An array of `shape` filled with `value`.
pub fn full(
    function: &str,
    shape: Vec<usize>,
    value: f64,
    dtype: DType,
    device: Device,
) -> Result<ArrayValue> {
    let n = crate::core::shape::size(&shape);
    if n.saturating_mul(dtype.byte_size()) > HOST_FILL_BYTES {
        // Large: filled by a kernel on the device, so no host copy is made.
        let aval = crate::core::Aval::new(shape, dtype);
        aval.check(function)?;
        let exp = AluExp::constant(dtype, stored(dtype, value));
        let kernel = Kernel::elementwise(vec![], n, exp);
        return eval::run(function, device, &kernel, &[], aval);
    }
    make(
        function,
        shape,
        dtype,
        device,
        std::iter::repeat_n(value, n),
    )
}

/// `start, start + step, …` below `stop` (above it for a negative step).
pub fn arange(
    start: f64,
    stop: f64,
    step: f64,
    dtype: DType,
    device: Device,
) -> Result<ArrayValue> {
    if step == 0.0 || !step.is_finite() || !start.is_finite() || !stop.is_finite() {
        return Err(Error::new(
            "arange",
            format!("start, stop and step must be finite and step non-zero (got {start}, {stop}, {step})"),
        ));
    }
    let n = ((stop - start) / step).ceil().max(0.0) as usize;
    if let Some(done) = range_on_device("arange", n, start, step, None, dtype, device) {
        return done;
    }
    make(
        "arange",
        vec![n],
        dtype,
        device,
        (0..n).map(|i| start + i as f64 * step),
    )
}

/// `num` evenly spaced values from `start` to `stop` (inclusive when `endpoint`).
pub fn linspace(
    start: f64,
    stop: f64,
    num: usize,
    endpoint: bool,
    dtype: DType,
    device: Device,
) -> Result<ArrayValue> {
    let div = if endpoint { num.saturating_sub(1) } else { num };
    let step = if div > 0 {
        (stop - start) / div as f64
    } else {
        0.0
    };
    let last = (endpoint && num > 1).then_some(stop);
    if let Some(done) = range_on_device("linspace", num, start, step, last, dtype, device) {
        return done;
    }
    let values = (0..num).map(move |i| {
        if endpoint && num > 1 && i == num - 1 {
            stop
        } else {
            start + i as f64 * step
        }
    });
    make("linspace", vec![num], dtype, device, values)
}

/// A large range `start + i·step` (element `n − 1` replaced by `last` when given) computed by
/// a kernel on its device with the host's values: in int32 arithmetic where that is exact
/// (every device), else in f64 converted once (devices with f64 arithmetic: not webgpu); for
/// the dtypes whose conversion kernels share the host's rules; `None` where the host computes
/// it.
fn range_on_device(
    function: &str,
    n: usize,
    start: f64,
    step: f64,
    last: Option<f64>,
    dtype: DType,
    device: Device,
) -> Option<Result<ArrayValue>> {
    let kernel_dtype = matches!(
        dtype,
        DType::Float32 | DType::Float64 | DType::Int32 | DType::Uint32
    );
    let exact = exact_in_int32(n, start, step, last, dtype);
    if n.saturating_mul(dtype.byte_size()) <= HOST_FILL_BYTES
        || (device == Device::WebGpu && !exact)
        || !kernel_dtype
    {
        return None;
    }
    let aval = crate::core::Aval::new(vec![n], dtype);
    if let Err(e) = aval.check(function) {
        return Some(Err(e));
    }
    let value = if exact {
        // Every value an integer that int32 arithmetic (wrapping, so `i·step` may overflow
        // when the sum does not) and the conversion hold exactly: the same values as in f64,
        // in vector arithmetic.
        AluExp::binary(
            BinaryOp::Add,
            AluExp::constant(DType::Int32, start),
            AluExp::binary(
                BinaryOp::Mul,
                AluExp::index(),
                AluExp::constant(DType::Int32, step),
            ),
        )
    } else {
        let f64c = |v: f64| AluExp::constant(DType::Float64, v);
        let i = AluExp::cast(AluExp::index(), DType::Float64);
        let mut value = AluExp::binary(
            BinaryOp::Add,
            f64c(start),
            AluExp::binary(BinaryOp::Mul, i, f64c(step)),
        );
        if let Some(last) = last {
            let at_end = AluExp::compare(
                CompareOp::Eq,
                AluExp::index(),
                AluExp::constant(DType::Int32, (n - 1) as f64),
            );
            value = AluExp::where_(at_end, f64c(last), value);
        }
        value
    };
    let exp = AluExp::cast(value, dtype);
    let kernel = Kernel::elementwise(vec![], n, exp);
    Some(eval::run(function, device, &kernel, &[], aval))
}

/// Whether every value `start + i·step` (i < n) is an integer that int32 holds and `dtype`
/// converts exactly (below 2²⁴ in magnitude for float32, non-negative for uint32), and `last`
/// (if given) is the value it replaces.
fn exact_in_int32(n: usize, start: f64, step: f64, last: Option<f64>, dtype: DType) -> bool {
    let end = start + (n as f64 - 1.0) * step;
    let integral = start.fract() == 0.0 && step.fract() == 0.0;
    let bound = match dtype {
        DType::Float32 => (1u64 << 24) as f64,
        _ => (1u64 << 31) as f64,
    };
    let fits = start.abs() < bound && end.abs() < bound;
    let signed_ok = dtype != DType::Uint32 || (start >= 0.0 && end >= 0.0);
    let last_ok = last.is_none_or(|l| l == end);
    integral && fits && signed_ok && last_ok
}

/// An `n × m` matrix with ones on diagonal `k` (a large one computed by a kernel on its
/// device: element `i` is one where `i % m == i / m + k`).
pub fn eye(n: usize, m: usize, k: i64, dtype: DType, device: Device) -> Result<ArrayValue> {
    let size = n.saturating_mul(m);
    let on_matrix = k > -(n as i64) && k < m as i64;
    if size.saturating_mul(dtype.byte_size()) > HOST_FILL_BYTES && on_matrix {
        let aval = crate::core::Aval::new(vec![n, m], dtype);
        aval.check("eye")?;
        let row = AluExp::index_div(AluExp::index(), m);
        let col = AluExp::index_rem(AluExp::index(), m);
        let diagonal = AluExp::index_add(row, AluExp::constant(DType::Int32, k as f64));
        let exp = AluExp::where_(
            AluExp::compare(CompareOp::Eq, col, diagonal),
            AluExp::constant(dtype, stored(dtype, 1.0)),
            AluExp::constant(dtype, stored(dtype, 0.0)),
        );
        return eval::run(
            "eye",
            device,
            &Kernel::elementwise(vec![], size, exp),
            &[],
            aval,
        );
    }
    if !on_matrix {
        return full("eye", vec![n, m], 0.0, dtype, device);
    }
    let values = (0..size).map(move |i| ((i % m) as i64 - (i / m) as i64 == k) as u32 as f64);
    make("eye", vec![n, m], dtype, device, values)
}
