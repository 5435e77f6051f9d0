//! One entry for the library functions that take arrays plus numeric parameters and return one
//! or more arrays (`libCall` at the JS boundary): numpy's reductions, shape helpers, products,
//! polynomials, windows and FFTs, nn's axis functions. Parameters are numbers; NaN means
//! "not given". Each function checks its own arguments and names itself in errors.

use super::{
    fft, lax_extra, nn_extra, products, random_dist, random_shuffle, reduce_extra as re,
    shape_extra as sx,
};
use crate::transform::Value;
use crate::util::{Error, Result};

/// The parameters of one call, read in order.
pub struct Params<'a> {
    name: &'a str,
    p: &'a [f64],
}

impl<'a> Params<'a> {
    pub fn new(name: &'a str, p: &'a [f64]) -> Self {
        Params { name, p }
    }

    /// Parameter `i`, `None` when missing or NaN.
    pub fn opt(&self, i: usize) -> Option<f64> {
        self.p.get(i).copied().filter(|x| !x.is_nan())
    }

    pub fn num(&self, i: usize, default: f64) -> f64 {
        self.opt(i).unwrap_or(default)
    }

    /// Parameter `i` as an integer (`None` when missing or NaN).
    pub fn int_opt(&self, i: usize) -> Result<Option<i64>> {
        match self.opt(i) {
            None => Ok(None),
            Some(x) if x.fract() == 0.0 && x.abs() < 9.0e15 => Ok(Some(x as i64)),
            Some(x) => Err(Error::new(
                self.name,
                format!("expected an integer, got {x}"),
            )),
        }
    }

    pub fn int(&self, i: usize, default: i64) -> Result<i64> {
        Ok(self.int_opt(i)?.unwrap_or(default))
    }

    pub fn usize(&self, i: usize, default: usize) -> Result<usize> {
        let k = self.int(i, default as i64)?;
        usize::try_from(k).map_err(|_| {
            Error::new(
                self.name,
                format!("expected a non-negative integer, got {k}"),
            )
        })
    }

    pub fn flag(&self, i: usize) -> bool {
        self.opt(i).is_some_and(|x| x != 0.0)
    }

    /// Axes from parameter `i` on: a count (NaN: all axes), then that many axes.
    pub fn axes(&self, i: usize) -> Result<Option<Vec<i64>>> {
        let Some(n) = self.int_opt(i)? else {
            return Ok(None);
        };
        (0..n as usize)
            .map(|k| self.int(i + 1 + k, 0))
            .collect::<Result<Vec<_>>>()
            .map(Some)
    }

    /// Every parameter from `i` on, as integers.
    pub fn ints_from(&self, i: usize) -> Result<Vec<i64>> {
        (i..self.p.len()).map(|k| self.int(k, 0)).collect()
    }
}

fn need(name: &str, arrays: &[Value], n: usize) -> Result<()> {
    if arrays.len() < n {
        return Err(Error::new(
            name,
            format!("expected {n} array argument(s), got {}", arrays.len()),
        ));
    }
    Ok(())
}

/// Runs library function `name` on `arrays` with parameters `params`.
pub fn call(name: &str, arrays: &[Value], params: &[f64]) -> Result<Vec<Value>> {
    let p = Params::new(name, params);
    if let Some(f) = name.strip_prefix("lax.") {
        return lax_call(f, arrays, &Params::new(f, params));
    }
    if let Some(dist) = name.strip_prefix("random.") {
        let n = match dist {
            "categorical" => 2,
            "multivariateNormal" => 3,
            _ => 1,
        };
        need(dist, arrays, n)?;
        let dp = Params::new(dist, params);
        let out = if dist == "permutation" {
            random_shuffle::permutation(&arrays[0], arrays.get(1), &dp)?
        } else if dist == "choice" {
            let has_a = dp.opt(0).is_none();
            let a = if has_a { arrays.get(1) } else { None };
            let probs = arrays.get(if has_a { 2 } else { 1 });
            random_shuffle::choice(&arrays[0], a, probs, &dp)?
        } else if dist == "categorical" {
            random_dist::categorical(&arrays[0], &arrays[1], &p)?
        } else if dist == "multivariateNormal" {
            lax_extra::multivariate_normal(&arrays[0], &arrays[1], &arrays[2], &p)?
        } else {
            random_dist::sample(dist, &arrays[0], &Params::new(dist, params))?
        };
        return Ok(vec![out]);
    }
    let min_arrays = match name {
        "indices" | "fftfreq" | "rfftfreq" => 0,
        "select" => 1,
        "append" | "isin" | "takeAlongAxis" | "take" | "cross" | "tensordot" | "inner"
        | "outer" | "vecdot" | "vdot" | "matvec" | "vecmat" | "polyadd" | "polysub" | "polymul"
        | "polyval" | "allclose" | "arrayEqual" | "arrayEquiv" | "fft" | "ifft" | "irfft"
        | "hfft" => 2,
        _ => 1,
    };
    need(name, arrays, min_arrays)?;
    let one = |v: Result<Value>| v.map(|v| vec![v]);
    let x = arrays.first();
    match (name, x) {
        (_, None) => match name {
            "indices" => sx::indices(&p),
            "fftfreq" | "rfftfreq" => one(fft::fftfreq(name, &p)),
            _ => Err(Error::new(name, "unknown library function")),
        },
        (_, Some(x)) => match name {
            "glu" => one(nn_extra::glu(x, p.int(0, -1)?)),
            "logmeanexp" => one(nn_extra::logmeanexp(x, p.axes(1)?.as_deref(), p.flag(0))),
            "standardize" => {
                let axes = p.axes(3)?.unwrap_or_else(|| vec![-1]);
                let mean = p.flag(1).then(|| &arrays[1]);
                let var = p.flag(2).then(|| &arrays[if p.flag(1) { 2 } else { 1 }]);
                one(nn_extra::standardize(x, &axes, mean, var, p.num(0, 1e-5)))
            }
            "ptp" | "countNonzero" | "nansum" | "nanprod" | "nanmax" | "nanmin" | "nanmean"
            | "nanvar" | "nanstd" => one(re::reduction(name, x, &p)),
            "nanargmax" | "nanargmin" | "nancumsum" | "nancumprod" => {
                one(re::nan_scan(name, x, p.int_opt(0)?))
            }
            "average" => one(re::average(x, arrays.get(1), &p)),
            "allclose" | "arrayEqual" | "arrayEquiv" => one(re::compare(name, x, &arrays[1], &p)),
            "cov" | "corrcoef" => one(re::cov(name, x, arrays.get(1), &p)),
            "frexp" => re::frexp(x),
            "modf" => re::modf(x),
            "repeat" => one(sx::repeat(x, p.usize(0, 1)?, p.int_opt(1)?)),
            "roll" => one(sx::roll(x, &p)),
            "rot90" => one(sx::rot90(x, p.int(0, 1)?, p.int(1, 0)?, p.int(2, 1)?)),
            "append" => one(sx::append(x, &arrays[1], p.int_opt(0)?)),
            "diff" => one(sx::diff(x, p.usize(0, 1)?, p.int(1, -1)?)),
            "ediff1d" => one(sx::diff(
                &super::shape::reshape(x, vec![x.aval().size()])?,
                1,
                0,
            )),
            "take" => one(sx::take(x, &arrays[1], p.int_opt(0)?)),
            "takeAlongAxis" => one(sx::take_along_axis(x, &arrays[1], p.int(0, -1)?)),
            "meshgrid" => sx::meshgrid(arrays, p.flag(0)),
            "broadcastArrays" => sx::broadcast_arrays(arrays),
            "unstack" => sx::unstack(x, p.int(0, 0)?),
            "arraySplit" => sx::array_split(x, p.usize(0, 1)?, p.int(1, 0)?),
            "vander" => one(sx::vander(x, p.opt(0).map(|n| n as usize), p.flag(1))),
            "select" => one(sx::select(arrays, p.usize(0, 0)?)),
            "isin" => one(sx::isin(x, &arrays[1], p.flag(0))),
            "trapezoid" => one(sx::trapezoid(
                x,
                arrays.get(1),
                p.num(0, 1.0),
                p.int(1, -1)?,
            )),
            "window" => one(products::window(x, p.int(0, 0)?, p.usize(1, 0)?)),
            "logspace" => one(products::logspace(x, p.num(0, 10.0))),
            "tensordot" | "inner" | "outer" | "vecdot" | "vdot" | "matvec" | "vecmat" | "cross" => {
                one(products::product(name, x, &arrays[1], &p))
            }
            "polyval" | "polyadd" | "polysub" | "polymul" => {
                one(products::poly(name, x, &arrays[1]))
            }
            "polyder" => one(products::polyder(x, p.usize(0, 1)?)),
            "scatterAdd" => {
                need(name, arrays, 3)?;
                one(random_shuffle::scatter_add(
                    x,
                    &arrays[1],
                    &arrays[2],
                    p.int(0, 0)?,
                ))
            }
            "unwrap" => one(products::unwrap(x, &p)),
            "fft" | "ifft" | "rfft" | "irfft" | "hfft" | "ihfft" => fft::fft(name, arrays, &p),
            "fftshift" | "ifftshift" => one(fft::shift(name, x, &p)),
            _ => Err(Error::new(name, "unknown library function")),
        },
    }
}

/// The `lax` functions of `lax_extra`.
fn lax_call(name: &str, arrays: &[Value], p: &Params) -> Result<Vec<Value>> {
    let n = match name {
        "dot" | "dynamicIndexInDim" | "convTranspose" => 2,
        "dynamicUpdateSlice" => 3,
        _ => 1,
    };
    need(name, arrays, n)?;
    let x = &arrays[0];
    match name {
        "dot" => Ok(vec![lax_extra::dot_general(x, &arrays[1], p)?]),
        "dynamicSlice" => {
            let sizes: Vec<usize> = (0..x.aval().shape.len())
                .map(|k| p.usize(k, 0))
                .collect::<Result<_>>()?;
            Ok(vec![lax_extra::dynamic_slice(x, &arrays[1..], &sizes)?])
        }
        "dynamicIndexInDim" => {
            let rank = x.aval().shape.len();
            let axis = super::shape::normalize_axis(name, p.int(0, 0)?, rank)?;
            let zero = super::emit::bin(
                crate::core::ops::BinaryOp::Mul,
                super::emit::v(&arrays[1]),
                super::emit::lit(0.0),
            )?;
            let starts: Vec<Value> = (0..rank)
                .map(|k| {
                    if k == axis {
                        arrays[1].clone()
                    } else {
                        zero.clone()
                    }
                })
                .collect();
            let mut sizes = x.aval().shape.clone();
            sizes[axis] = 1;
            let out = lax_extra::dynamic_slice(x, &starts, &sizes)?;
            if p.flag(1) {
                return Ok(vec![out]);
            }
            sizes.remove(axis);
            Ok(vec![super::shape::reshape(&out, sizes)?])
        }
        "dynamicUpdateSlice" => Ok(vec![lax_extra::dynamic_update_slice(
            x,
            &arrays[1],
            &arrays[2],
            p.int(0, 0)?,
        )?]),
        "topK" => lax_extra::top_k(x, p.usize(0, 1)?, p.int(1, -1)?),
        // [k, windows…, strides…]
        "pool" => {
            let k = p.usize(0, 0)?;
            let w = (0..k)
                .map(|i| p.usize(1 + i, 1))
                .collect::<Result<Vec<_>>>()?;
            let s = (0..k)
                .map(|i| p.usize(1 + k + i, 1))
                .collect::<Result<Vec<_>>>()?;
            Ok(vec![super::conv::pool(x, &w, &s)?])
        }
        // [transposeKernel, mode (0 pairs, 1 VALID, 2 SAME), d, strides…, hasRhsDilation,
        // rhsDilation…, pads (2d, with mode 0)…]
        "convTranspose" => {
            use super::conv::{conv_transpose, Padding};
            let d = p.usize(2, 0)?;
            let strides = (0..d)
                .map(|i| p.usize(3 + i, 1))
                .collect::<Result<Vec<_>>>()?;
            let dil = (0..d)
                .map(|i| p.usize(4 + d + i, 1))
                .collect::<Result<Vec<_>>>()?;
            let at = 4 + 2 * d;
            let padding = match p.int(1, 1)? {
                1 => Padding::Valid,
                2 => Padding::Same,
                _ => Padding::Explicit(
                    (0..d)
                        .map(|i| Ok((p.int(at + 2 * i, 0)?, p.int(at + 2 * i + 1, 0)?)))
                        .collect::<Result<Vec<_>>>()?,
                ),
            };
            let dil = p.flag(3 + d).then_some(dil.as_slice());
            Ok(vec![conv_transpose(
                x,
                &arrays[1],
                &strides,
                &padding,
                dil,
                p.flag(0),
            )?])
        }
        _ => Err(Error::new(name, "unknown lax function")),
    }
}
