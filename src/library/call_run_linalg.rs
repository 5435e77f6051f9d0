//! The implementations of the linear algebra calls (`library::call`) that take more than one
//! expression: `lax.linalg`'s and `scipyLinalg`'s conventions over the shared routines, and
//! the norm orders.

use super::call::one;
use super::call_args::*;
use super::lax_linalg::{cholesky_lower, float_matrix, mt, triangular_solve};
use super::np_norms::{self, Ord};
use super::{np_eigh, np_qr, np_svd};
use crate::transform::Value;
use crate::util::Result;

type Results = Result<Vec<Value>>;

/// `lax.linalg.cholesky(a, { upper })`.
pub fn lax_cholesky(a: LaxCholesky) -> Results {
    let l = cholesky_lower("cholesky", &a.a)?;
    one(if a.upper { mt(&l) } else { Ok(l) })
}

pub fn lax_triangular_solve(a: LaxTriangularSolve) -> Results {
    one(triangular_solve(
        "triangularSolve",
        &a.a,
        &a.b,
        a.left_side,
        a.lower,
        a.transpose_a,
        a.unit_diagonal,
    ))
}

/// `[q, r]`, complete with `full_matrices`.
pub fn qr(name: &str, a: Qr) -> Results {
    let (q, r) = np_qr::qr(name, &a.a, a.full_matrices)?;
    Ok(vec![q, r])
}

pub fn svd(name: &str, a: Svd) -> Results {
    np_svd::svd(name, &a.a, a.full_matrices, a.compute_uv)
}

/// `lax.linalg.eigh` → `[v, w]`.
pub fn lax_eigh(a: Eigh) -> Results {
    let (w, v) = np_eigh::eigh("eigh", &a.a, a.lower, a.symmetrize_input)?;
    Ok(vec![v, w])
}

/// `numpy.linalg.eigh` → `[w, v]`.
pub fn numpy_eigh(a: Eigh) -> Results {
    let (w, v) = np_eigh::eigh("eigh", &a.a, a.lower, a.symmetrize_input)?;
    Ok(vec![w, v])
}

pub fn eigvalsh(a: Eigh) -> Results {
    let (w, _) = np_eigh::eigh("eigvalsh", &a.a, a.lower, a.symmetrize_input)?;
    Ok(vec![w])
}

/// `scipy.linalg.cholesky(a, { lower })`: reads the upper triangle unless `lower`.
pub fn scipy_cholesky(a: ScipyCholesky) -> Results {
    let m = float_matrix("cholesky", &a.a, 2)?;
    if a.lower {
        one(cholesky_lower("cholesky", &m))
    } else {
        one(mt(&cholesky_lower("cholesky", &mt(&m)?)?))
    }
}

/// The order from its number and its name (neither: `None`, the function's default).
fn ord(num: Option<f64>, name: Option<NormName>) -> Option<Ord> {
    match (name, num) {
        (Some(NormName::Fro), _) => Some(Ord::Fro),
        (Some(NormName::Nuc), _) => Some(Ord::Nuc),
        (None, Some(p)) => Some(Ord::Num(p)),
        (None, None) => None,
    }
}

pub fn vector_norm(a: VectorNorm) -> Results {
    let axes = a.axis.as_deref();
    one(np_norms::vector_norm(
        "vectorNorm",
        &a.x,
        a.ord,
        axes,
        a.keepdims,
    ))
}

pub fn matrix_norm(a: MatrixNorm) -> Results {
    let ord = ord(a.ord, a.ord_name).unwrap_or(Ord::Fro);
    one(np_norms::matrix_norm(
        "matrixNorm",
        &a.x,
        ord,
        -2,
        -1,
        a.keepdims,
    ))
}

pub fn norm(a: Norm) -> Results {
    let ord = ord(a.ord, a.ord_name);
    one(np_norms::norm(&a.x, ord, a.axis.as_deref(), a.keepdims))
}
