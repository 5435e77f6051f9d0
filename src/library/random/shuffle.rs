//! `random.permutation` and `random.choice` with JAX's constructions (sorting by random 32-bit
//! keys, `randint`, inverse-CDF search and Gumbel top-k), and `scatterAdd` (a one-hot product,
//! so it differentiates and batches like matmul).

use crate::core::ops::ReduceOp;
use crate::core::DType;
use crate::library::emit::v;
use crate::library::random::{bits, split, uniform};
use crate::library::reduce::{reduce, ReduceKind as K};
use crate::library::shape::{moveaxis, normalize_axis, reshape};
use crate::rules::lax;
use crate::transform::trace::Binder;
use crate::transform::Value;
use crate::util::{Error, Result};

fn arange(n: usize) -> Result<Value> {
    lax::iota_i32(&mut Binder, vec![n], 0)
}

fn halves(key: &Value) -> Result<(Value, Value)> {
    let ks = split(key, 2)?;
    let row = |i: usize| -> Result<Value> {
        let r = lax::shrink(&mut Binder, &ks, vec![(i, i + 1), (0, 2)])?;
        reshape(&r, vec![2])
    };
    Ok((row(0)?, row(1)?))
}

/// JAX's `_shuffle`: rounds of sorting `x` along `axis` by random uint32 keys.
fn shuffle(key: &Value, x: &Value, axis: usize) -> Result<Value> {
    let size = x.aval().size().max(1) as f64;
    let rounds = (3.0 * size.ln() / f64::from(u32::MAX).ln()).ceil() as usize;
    let (mut key, mut x) = (key.clone(), x.clone());
    for _ in 0..rounds {
        let (k, sub) = halves(&key)?;
        key = k;
        let sort_keys = bits(&sub, &x.aval().shape.clone())?;
        let order = crate::library::indexing::sort("permutation", &sort_keys, axis as i64, true)?;
        x = crate::library::selection::take_along_axis(&x, &order, axis as i64)?;
    }
    Ok(x)
}

/// A shuffled `arange(n)`.
pub fn permutation_count(key: &Value, n: usize) -> Result<Value> {
    shuffle(key, &arange(n)?, 0)
}

/// `x` shuffled along `axis` (rows kept whole unless `independent`).
pub fn permutation(key: &Value, x: &Value, axis: i64, independent: bool) -> Result<Value> {
    let rank = x.aval().shape.clone().len();
    if rank == 0 {
        return Err(Error::new(
            "permutation",
            "x must be an integer or an array of rank ≥ 1",
        ));
    }
    let axis = normalize_axis("permutation", axis, rank)?;
    if independent || rank == 1 {
        return shuffle(key, x, axis);
    }
    let order = shuffle(key, &arange(x.aval().shape.clone()[axis])?, 0)?;
    crate::library::selection::take(x, &order, Some(axis as i64))
}

/// Samples from `a` (an array, or `arange(n)` when absent) with or without replacement,
/// optionally with probabilities, `shape_out` samples taken along `axis` of `a`.
pub fn choice(
    key: &Value,
    a: Option<&Value>,
    probs: Option<&Value>,
    n: usize,
    replace: bool,
    axis: i64,
    shape_out: &[usize],
) -> Result<Value> {
    let shape_out = shape_out.to_vec();
    crate::core::shape::check("choice", &shape_out, 4)?;
    let draws = crate::core::shape::size(&shape_out);
    let (n, axis) = match a {
        None => (n, 0),
        Some(a) if a.aval().shape.clone().is_empty() => {
            return Err(Error::new(
                "choice",
                "a must be a count or an array of at least one axis, not a 0-d array",
            ))
        }
        Some(a) => {
            let ax = normalize_axis("choice", axis, a.aval().shape.clone().len())?;
            (a.aval().shape.clone()[ax], ax)
        }
    };
    if n == 0 {
        return Err(Error::new("choice", "a must be greater than 0"));
    }
    if !replace && draws > n {
        return Err(Error::new(
            "choice",
            format!("cannot take {draws} samples from {n} without replacement"),
        ));
    }
    let ind = match (probs, replace) {
        (None, true) => crate::library::random::dist::randint(key, &shape_out, 0.0, n as f64)?,
        (None, false) => {
            let perm = shuffle(key, &arange(n)?, 0)?;
            let first = lax::shrink(&mut Binder, &perm, vec![(0, draws)])?;
            reshape(&first, shape_out.clone())?
        }
        (Some(pr), true) => {
            let pr = crate::library::math::float(&v(pr))?;
            let cdf = crate::library::indexing::cumulative("choice", ReduceOp::Sum, &pr, Some(0))?;
            let total = reshape(&lax::shrink(&mut Binder, &cdf, vec![(n - 1, n)])?, vec![])?;
            let u = uniform(key, &shape_out, 0.0, 1.0)?;
            let r = lax::mul(&mut Binder, &total, &lax::sub(&mut Binder, 1.0, &u)?)?;
            let mut col = shape_out.clone();
            col.push(1);
            let below = lax::lt(&mut Binder, &cdf, &reshape(&r, col)?)?;
            let below = lax::cast(&mut Binder, &below, DType::Int32)?;
            reduce("choice", K::Sum, &below, Some(&[-1]), false)?
        }
        (Some(pr), false) => {
            let pr = crate::library::math::float(&v(pr))?;
            let g = crate::library::random::dist::gumbel(key, &[n])?;
            let z = lax::add(&mut Binder, &g, &lax::log(&mut Binder, &pr)?)?;
            let top = crate::library::indexing::top_k(&z, draws, 0)?;
            reshape(&top[1], shape_out.clone())?
        }
    };
    let Some(a) = a else { return Ok(ind) };
    let flat = reshape(&ind, vec![draws])?;
    let taken = crate::library::selection::take(a, &flat, Some(axis as i64))?;
    let s = a.aval().shape.clone();
    let mut out: Vec<usize> = s[..axis].to_vec();
    out.extend(&shape_out);
    out.extend(&s[axis + 1..]);
    reshape(&taken, out)
}

/// `target` plus `updates` added at `indices` along `axis` (duplicates accumulate; indices
/// out of range are dropped).
pub fn scatter_add(target: &Value, indices: &Value, updates: &Value, axis: i64) -> Result<Value> {
    let ts = target.aval().shape.clone();
    let ax = normalize_axis("scatterAdd", axis, ts.len())?;
    let m = match indices.aval().shape.clone().as_slice() {
        [m] => *m,
        s => {
            return Err(Error::new(
                "scatterAdd",
                format!("indices must be 1-D, got {s:?}"),
            ))
        }
    };
    let mut want = ts.clone();
    want[ax] = m;
    if updates.aval().shape.clone() != want {
        return Err(Error::new(
            "scatterAdd",
            format!(
                "updates must have shape {want:?}, got {:?}",
                updates.aval().shape.clone()
            ),
        ));
    }
    let n = ts[ax];
    let idx = lax::cast(&mut Binder, indices, DType::Int32)?;
    let col = reshape(&idx, vec![m, 1])?;
    let grid = lax::iota_i32(&mut Binder, vec![m, n], 1)?;
    let hot = lax::eq(&mut Binder, &col, &grid)?;
    let hot = lax::cast(&mut Binder, &hot, updates.aval().dtype)?;
    let hot_t = crate::library::shape::transpose(&hot, None)?;
    let u = moveaxis(updates, ax as i64, 0)?;
    let rest: usize = ts
        .iter()
        .enumerate()
        .filter(|&(k, _)| k != ax)
        .map(|(_, d)| d)
        .product();
    let u2 = reshape(&u, vec![m, rest])?;
    let added = lax::matmul(&mut Binder, &hot_t, &u2)?;
    let mut moved = u.aval().shape.clone();
    moved[0] = n;
    let back = moveaxis(&reshape(&added, moved)?, 0, ax as i64)?;
    lax::add(&mut Binder, target, &back)
}
