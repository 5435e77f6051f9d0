//! Shapes: row-major strides and NumPy broadcasting.

use crate::util::{Error, Result};

/// Row-major (C order) strides, in elements.
pub fn contiguous_strides(shape: &[usize]) -> Vec<usize> {
    let mut strides = vec![1; shape.len()];
    for i in (0..shape.len().saturating_sub(1)).rev() {
        strides[i] = strides[i + 1] * shape[i + 1];
    }
    strides
}

pub fn size(shape: &[usize]) -> usize {
    shape.iter().product()
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
        assert_eq!(broadcast_shapes("f", &[3, 1], &[4]).unwrap(), vec![3, 4]);
        assert_eq!(broadcast_shapes("f", &[], &[2]).unwrap(), vec![2]);
        let err = broadcast_shapes("add", &[3], &[4]).unwrap_err();
        assert_eq!(
            err.message(),
            "add: shapes [3] and [4] cannot be broadcast together"
        );
    }
}
