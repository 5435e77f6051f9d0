//! `numpy.linalg`: compositions of the routine primitives and ordinary operations (JAX's
//! formulas), so each is differentiable and works under every transformation.

use super::lax_linalg::{cholesky_lower, float_matrix, mt};
use super::np_norms::{self, Ord};
use super::np_solve;
use crate::rules::lax;
use crate::transform::trace::Binder;
use crate::transform::Value;
use crate::util::{Error, Result};

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

/// The axes encoded in `opts[from..]` as `[has_axis, count, axes…]`.
fn axes_at(opts: &[f64], from: usize) -> Option<Vec<i64>> {
    if opts.get(from).copied().unwrap_or(0.0) == 0.0 {
        return None;
    }
    let count = opts.get(from + 1).copied().unwrap_or(0.0) as usize;
    Some(
        opts.iter()
            .skip(from + 2)
            .take(count)
            .map(|&a| a as i64)
            .collect(),
    )
}

/// Runs a `numpy.linalg` function by name (`numpy.<name>`) with numeric options and an
/// optional text option (a norm order such as `"fro"`).
pub fn call(name: &str, args: &[Value], opts: &[f64], text: &str) -> Result<Vec<Value>> {
    let num = |i: usize| opts.get(i).copied().unwrap_or(f64::NAN);
    let flag = |i: usize| opts.get(i).copied().unwrap_or(0.0) != 0.0;
    let short = name.rsplit('.').next().unwrap_or(name);
    let arg = |i: usize| {
        args.get(i)
            .ok_or_else(|| Error::new(short, format!("expected {} array argument(s)", i + 1)))
    };
    let one = |x: Result<Value>| x.map(|x| vec![x]);
    match name {
        // cholesky(a, { upper, symmetrizeInput })
        "numpy.cholesky" => one(cholesky(arg(0)?, flag(0), flag(1))),
        // vectorNorm(x, { ord, axis, keepdims }): opts [ord, keepdims, axes…]
        "numpy.vectorNorm" => {
            let ord = if num(0).is_nan() { 2.0 } else { num(0) };
            let axes = axes_at(opts, 2);
            one(np_norms::vector_norm(
                short,
                arg(0)?,
                ord,
                axes.as_deref(),
                flag(1),
            ))
        }
        // matrixNorm(x, { ord, keepdims }): opts [ord, keepdims]
        "numpy.matrixNorm" => {
            let ord = Ord::parse(short, text, num(0))?.unwrap_or(Ord::Fro);
            one(np_norms::matrix_norm(short, arg(0)?, ord, -2, -1, flag(1)))
        }
        // norm(x, ord, axis, keepdims): opts [ord, keepdims, axes…]
        "numpy.norm" => {
            let ord = Ord::parse(short, text, num(0))?;
            let axes = axes_at(opts, 2);
            one(np_norms::norm(arg(0)?, ord, axes.as_deref(), flag(1)))
        }
        "numpy.cross" => one(np_norms::cross(arg(0)?, arg(1)?, num(0) as i64)),
        "numpy.multiDot" => one(np_norms::multi_dot(args)),
        "numpy.matrixPower" => one(np_norms::matrix_power(arg(0)?, num(0))),
        "numpy.lstsq" => one(np_norms::lstsq(arg(0)?, arg(1)?)),
        // qr(a, { mode }): opts [complete]
        "numpy.qr" => {
            let (q, r) = super::np_qr::qr(short, arg(0)?, flag(0))?;
            Ok(vec![q, r])
        }
        // eigh(a, { UPLO, symmetrizeInput }): opts [lower, symmetrize] → [w, v]
        "numpy.eigh" => {
            let (w, v) = super::np_eigh::eigh(short, arg(0)?, flag(0), flag(1))?;
            Ok(vec![w, v])
        }
        "numpy.eigvalsh" => Ok(vec![
            super::np_eigh::eigh(short, arg(0)?, flag(0), flag(1))?.0,
        ]),
        // svd(a, { fullMatrices, computeUv }) → [u, s, vh] or [s]
        "numpy.svd" => super::np_svd::svd(short, arg(0)?, flag(0), flag(1)),
        "numpy.svdvals" => super::np_svd::svd(short, arg(0)?, false, false),
        "numpy.solve" => one(np_solve::solve(short, arg(0)?, arg(1)?)),
        "numpy.inv" => one(np_solve::inv(arg(0)?)),
        "numpy.det" => one(np_solve::det(arg(0)?)),
        "numpy.slogdet" => np_solve::slogdet(arg(0)?),
        _ => Err(Error::new(short, "unknown linear algebra function")),
    }
}
