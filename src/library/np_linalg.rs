//! `numpy.linalg.cholesky`: the routine primitive with numpy's options (JAX's formula), so it
//! is differentiable and works under every transformation. The other `numpy.linalg` functions
//! are in `np_solve`, `np_qr`, `np_norms`, `np_eigh` and `np_svd`.

use super::lax_linalg::{cholesky_lower, float_matrix, mt};
use super::np_solve;
use crate::rules::lax;
use crate::transform::trace::Binder;
use crate::transform::Value;
use crate::util::Result;

/// `numpy.linalg.cholesky(a, { upper, symmetrizeInput })`.
pub fn cholesky(a: &Value, upper: bool, symmetrize: bool) -> Result<Value> {
    let name = "cholesky";
    let a = float_matrix(name, a, 2)?;
    np_solve::check_square(name, &a)?; // before symmetrizing adds aᵀ
    let a = if symmetrize {
        let s = lax::add(&mut Binder, &a, &mt(&a)?)?;
        lax::mul(&mut Binder, &s, 0.5)?
    } else {
        a
    };
    let l = cholesky_lower(name, &a)?;
    if upper {
        mt(&l)
    } else {
        Ok(l)
    }
}
