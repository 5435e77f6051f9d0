//! Concrete arrays: an abstract value, a device buffer, and the view (`ShapeTracker`) through
//! which the array's elements are read from the buffer. Movement operations make new views of
//! the same buffer; buffers are shared through `Rc`, so a buffer lives as long as any value
//! that uses it, and disposing a view never invalidates its source.

use std::rc::Rc;

use crate::backend::{registry, transfers, DeviceBuffer};
use crate::core::view::ShapeTracker;
use crate::core::{f16, Aval, DType, Device};
use crate::util::{Error, Result};

#[derive(Debug, Clone)]
pub struct ArrayValue {
    pub aval: Aval,
    pub device: Device,
    pub buffer: Rc<DeviceBuffer>,
    pub view: ShapeTracker,
    /// Placed on its device on purpose (an explicit `device`), as in JAX: an operation never
    /// moves a committed array, while uncommitted ones (default placement, JS scalars, `iota`)
    /// follow the committed operands.
    pub committed: bool,
}

impl ArrayValue {
    /// Uploads little-endian element bytes as an array of `shape` and `dtype`.
    pub fn from_bytes(
        function: &str,
        bytes: &[u8],
        shape: Vec<usize>,
        dtype: DType,
        device: Device,
    ) -> Result<ArrayValue> {
        let aval = Self::aval_of(function, bytes.len(), shape, dtype, device)?;
        let buffer = registry::upload(function, device, bytes)?;
        Ok(Self::dense(aval, device, buffer))
    }

    /// Uploads the little-endian element bytes of a JS array as an array of `shape` and
    /// `dtype` (one copy into the device's memory).
    #[cfg(target_arch = "wasm32")]
    pub fn from_js_bytes(
        function: &str,
        bytes: &js_sys::Uint8Array,
        shape: Vec<usize>,
        dtype: DType,
        device: Device,
    ) -> Result<ArrayValue> {
        let aval = Self::aval_of(function, bytes.length() as usize, shape, dtype, device)?;
        let buffer = registry::upload_js(function, device, bytes)?;
        Ok(Self::dense(aval, device, buffer))
    }

    /// The aval of `shape` and `dtype` on `device`, checked to be filled by `len` bytes.
    fn aval_of(
        function: &str,
        len: usize,
        shape: Vec<usize>,
        dtype: DType,
        device: Device,
    ) -> Result<Aval> {
        registry::check_dtype(function, device, dtype)?;
        let aval = Aval::new(shape, dtype);
        aval.check(function)?;
        if aval.byte_size() != len {
            return Err(Error::new(
                function,
                format!(
                    "{} bytes of data do not fill shape {:?} of {}",
                    len,
                    aval.shape,
                    dtype.name()
                ),
            ));
        }
        Ok(aval)
    }

    /// A committed array that is all of `buffer`, row-major.
    fn dense(aval: Aval, device: Device, buffer: Rc<DeviceBuffer>) -> ArrayValue {
        let view = ShapeTracker::contiguous(&aval.shape);
        ArrayValue {
            aval,
            device,
            buffer,
            view,
            committed: true,
        }
    }

    /// A weakly typed 0-d array holding a JS number.
    pub fn weak_scalar(function: &str, value: f64, dtype: DType, device: Device) -> Result<Self> {
        let mut bytes = Vec::new();
        match dtype {
            DType::Float32 => bytes.extend_from_slice(&(value as f32).to_le_bytes()),
            DType::Float64 => bytes.extend_from_slice(&value.to_le_bytes()),
            DType::Int32 => bytes.extend_from_slice(&(value as i32).to_le_bytes()),
            DType::Uint32 => bytes.extend_from_slice(&(value as u32).to_le_bytes()),
            DType::Bool => bytes.extend_from_slice(&((value != 0.0) as u32).to_le_bytes()),
            DType::Float16 => bytes.extend_from_slice(&f16::to_bits(value).to_le_bytes()),
        }
        let mut v = ArrayValue::from_bytes(function, &bytes, vec![], dtype, device)?;
        v.aval.weak = true;
        v.committed = false;
        Ok(v)
    }

    /// The same array marked as placed by default (free to follow committed operands).
    pub fn uncommitted(self) -> ArrayValue {
        ArrayValue {
            committed: false,
            ..self
        }
    }

    /// True when the buffer holds exactly the elements, row-major, from its start.
    pub fn is_dense(&self) -> bool {
        self.view.is_contiguous() && self.buffer.bytes == self.aval.byte_size()
    }

    /// This array with a dense buffer of its own (itself when already dense).
    pub fn materialize(&self, function: &str) -> Result<ArrayValue> {
        if self.is_dense() {
            return Ok(self.clone());
        }
        super::eval::copy(function, self)
    }

    /// The array's elements from its buffer's host copy (`DeviceBuffer::host`), when it has
    /// one and the array is all of it, row-major; the device is still asked whether the buffer
    /// is usable (a lost webgpu device answers with its error).
    pub fn host_bytes(&self, function: &str) -> Result<Option<&[u8]>> {
        let Some(host) = self.buffer.host.as_deref() else {
            return Ok(None);
        };
        if !self.is_dense() || host.len() != self.aval.byte_size() {
            return Ok(None);
        }
        registry::with_backend(function, self.device, |b| b.check_buffer(self.buffer.id))?;
        Ok(Some(host))
    }

    /// The array's elements read synchronously, as bytes for JS (on the wasm device, one copy
    /// out of its data memory).
    #[cfg(target_arch = "wasm32")]
    pub fn read_sync_host(&self, function: &str) -> Result<crate::backend::HostBytes> {
        let dense = self.materialize(function)?;
        let bytes = registry::with_backend(function, dense.device, |b| {
            b.read_sync_host(dense.buffer.id)
        })?;
        transfers::note_readback(dense.device, dense.aval.byte_size());
        Ok(bytes)
    }

    pub fn read_sync(&self, function: &str) -> Result<Vec<u8>> {
        let dense = self.materialize(function)?;
        let bytes =
            registry::with_backend(function, dense.device, |b| b.read_sync(dense.buffer.id))?;
        transfers::note_readback(dense.device, bytes.len());
        Ok(bytes)
    }

    /// Resolves once the device has finished the work that writes this array's buffer.
    pub async fn block_until_ready(&self, function: &str) -> Result<()> {
        let future = registry::with_backend(function, self.device, |b| b.sync(self.buffer.id))?;
        future.await.map(|_| ())
    }
}
