//! Shapes: row-major strides, NumPy broadcasting, and the size limits of every array.
//!
//! Every array's shape is checked by [`check`] where it is made (abstract evaluation of each
//! primitive, creation from JS): the product of its non-zero dimensions is at most
//! [`MAX_ELEMENTS`] and its bytes at most [`MAX_BYTES`]. So every size, stride, element index
//! and byte offset computed from a shape fits in 32 bits (kernels index with 32-bit integers,
//! wasm32 addresses are 32-bit), and no product of dimensions ever overflows.

use crate::util::{Error, Result};

/// The most elements one array may have: kernels index elements with signed 32-bit integers.
pub const MAX_ELEMENTS: u64 = i32::MAX as u64;

/// The most bytes one array may span: buffers are addressed with 32-bit byte offsets.
pub const MAX_BYTES: u64 = u32::MAX as u64;

/// Row-major (C order) strides, in elements.
pub fn contiguous_strides(shape: &[usize]) -> Vec<usize> {
    let mut strides = vec![1; shape.len()];
    for i in (0..shape.len().saturating_sub(1)).rev() {
        strides[i] = strides[i + 1] * shape[i + 1];
    }
    strides
}

/// True iff `strides` are the canonical row-major strides of `shape`: [`contiguous_strides`],
/// with 0 on axes of length 1 (a view's canonical form).
pub fn row_major(shape: &[usize], strides: &[isize]) -> bool {
    let mut stride = 1usize;
    strides.len() == shape.len()
        && shape.iter().zip(strides).rev().all(|(&n, &st)| {
            let want = if n == 1 { 0 } else { stride as isize };
            stride = stride.wrapping_mul(n);
            st == want
        })
}

/// The number of elements of `shape` (saturating at `usize::MAX` instead of wrapping, for shapes
/// not yet [`check`]ed).
pub fn size(shape: &[usize]) -> usize {
    if shape.contains(&0) {
        return 0;
    }
    shape
        .iter()
        .try_fold(1usize, |n, &d| n.checked_mul(d))
        .unwrap_or(usize::MAX)
}

/// The product of the non-zero dimensions of `shape` in 64 bits, or `None` past `u64::MAX`.
fn nonzero_product(shape: &[usize]) -> Option<u64> {
    shape
        .iter()
        .filter(|&&d| d != 0)
        .try_fold(1u64, |n, &d| n.checked_mul(d as u64))
}

/// Checks that an array of `shape` with `itemsize`-byte elements is within the limits of every
/// array ([`MAX_ELEMENTS`], [`MAX_BYTES`]; zero-size arrays count their non-zero dimensions, so
/// that no sub-product of a valid shape can overflow), or an error naming `function`.
pub fn check(function: &str, shape: &[usize], itemsize: usize) -> Result<()> {
    let elements = nonzero_product(shape);
    let bytes = elements.and_then(|n| n.checked_mul(itemsize as u64));
    match (elements, bytes) {
        (Some(n), Some(b)) if n <= MAX_ELEMENTS && b <= MAX_BYTES => Ok(()),
        (Some(n), _) if n <= MAX_ELEMENTS => Err(Error::new(
            function,
            format!(
                "an array of shape {shape:?} would need {} bytes, more than the limit of \
                 {MAX_BYTES} bytes (4 GiB) per array",
                bytes.map_or_else(|| "over 2^64".to_string(), |b| b.to_string())
            ),
        )),
        _ => Err(Error::new(
            function,
            format!(
                "an array of shape {shape:?} would have {} elements, more than the limit of \
                 {MAX_ELEMENTS} (2^31 - 1) elements per array",
                elements.map_or_else(|| "over 2^64".to_string(), |n| n.to_string())
            ),
        )),
    }
}

/// The NumPy broadcast of two shapes, or an error naming `function`.
pub fn broadcast_shapes(function: &str, a: &[usize], b: &[usize]) -> Result<Vec<usize>> {
    let rank = a.len().max(b.len());
    let dim = |s: &[usize], i: usize| -> usize {
        let pad = rank - s.len();
        if i < pad {
            1
        } else {
            s[i - pad]
        }
    };
    (0..rank)
        .map(|i| match (dim(a, i), dim(b, i)) {
            (x, y) if x == y => Ok(x),
            (1, y) => Ok(y),
            (x, 1) => Ok(x),
            _ => Err(Error::new(
                function,
                format!("shapes {a:?} and {b:?} cannot be broadcast together"),
            )),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strides_and_broadcasting() {
        assert_eq!(contiguous_strides(&[2, 3, 4]), vec![12, 4, 1]);
        assert_eq!(contiguous_strides(&[]), Vec::<usize>::new());
        assert!(row_major(&[2, 3, 4], &[12, 4, 1]) && row_major(&[2, 1, 4], &[4, 0, 1]));
        assert!(row_major(&[], &[]) && row_major(&[0, 3], &[3, 1]));
        assert!(
            !row_major(&[2, 1, 4], &[4, 4, 1]) && !row_major(&[3], &[2]) && !row_major(&[3], &[])
        );
        assert_eq!(broadcast_shapes("f", &[3, 1], &[4]).unwrap(), vec![3, 4]);
        assert_eq!(broadcast_shapes("f", &[], &[2]).unwrap(), vec![2]);
        let err = broadcast_shapes("add", &[3], &[4]).unwrap_err();
        assert_eq!(
            err.message(),
            "add: shapes [3] and [4] cannot be broadcast together"
        );
    }

    #[test]
    fn sizes_never_wrap_and_limits_are_checked() {
        assert_eq!(size(&[65536, 65536]), 1 << 32);
        assert_eq!(size(&[usize::MAX, 2]), usize::MAX);
        assert_eq!(size(&[usize::MAX, usize::MAX, 0]), 0);
        assert!(check("f", &[2, 3], 4).is_ok());
        assert!(check("f", &[1 << 29], 4).is_ok());
        assert!(check("f", &[1 << 30], 4).is_err());
        assert!(check("f", &[(1 << 31) - 1], 1).is_ok());
        let e = check("zeros", &[65536, 65536], 4).unwrap_err();
        assert!(
            e.message().starts_with(
                "zeros: an array of shape [65536, 65536] would have 4294967296 elements"
            ),
            "{e}"
        );
        let e = check("add", &[1 << 30], 8).unwrap_err();
        assert!(e.message().contains("would need 8589934592 bytes"), "{e}");
        // Zero-size arrays cannot hide huge dimensions.
        assert!(check("zeros", &[4294967295, 0], 4).is_err());
        assert!(check("zeros", &[usize::MAX, usize::MAX, 0], 4).is_err());
        assert!(check("zeros", &[1000, 0, 1000], 4).is_ok());
    }
}
