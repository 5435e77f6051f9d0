//! Concrete arrays: an abstract value plus a device buffer holding its elements (row-major,
//! contiguous). Buffers are shared through `Rc`, so copies of an `ArrayValue` are cheap and a
//! buffer lives as long as any value that uses it.

use std::rc::Rc;

use crate::backend::{registry, DeviceBuffer};
use crate::core::{Aval, DType, Device};
use crate::util::{Error, Result};

#[derive(Debug, Clone)]
pub struct ArrayValue {
    pub aval: Aval,
    pub device: Device,
    pub buffer: Rc<DeviceBuffer>,
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
        let aval = Aval::new(shape, dtype);
        if aval.byte_size() != bytes.len() {
            return Err(Error::new(
                function,
                format!(
                    "{} bytes of data do not fill shape {:?} of {}",
                    bytes.len(),
                    aval.shape,
                    dtype.name()
                ),
            ));
        }
        let buffer = registry::upload(function, device, bytes)?;
        Ok(ArrayValue {
            aval,
            device,
            buffer,
        })
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
            DType::Float16 => {
                return Err(Error::new(
                    function,
                    "float16 scalars are not supported yet",
                ))
            }
        }
        let mut v = ArrayValue::from_bytes(function, &bytes, vec![], dtype, device)?;
        v.aval.weak = true;
        Ok(v)
    }

    pub fn read_sync(&self, function: &str) -> Result<Vec<u8>> {
        registry::with_backend(function, self.device, |b| b.read_sync(self.buffer.id))
    }

    /// Reads the elements asynchronously; the returned future borrows nothing.
    pub async fn read(&self, function: &str) -> Result<Vec<u8>> {
        let future = registry::with_backend(function, self.device, |b| b.read(self.buffer.id))?;
        future.await
    }
}
