//! Shape functions by handle: transpose, broadcastTo, expandDims, squeeze, flip, moveaxis,
//! swapaxes, concatenate, stack, split, tile, and the slicing/padding primitives.

use wasm_bindgen::prelude::*;

use super::{handles, js_error, to_shape};
use crate::library::{conv, shape};
use crate::rules::lax;
use crate::transform::trace::Binder;
use crate::transform::Value;
use crate::util::{Error, Result};

type JsResult<T> = std::result::Result<T, JsError>;

fn wide(axes: Option<Vec<i32>>) -> Option<Vec<i64>> {
    axes.map(|a| a.into_iter().map(i64::from).collect())
}

fn unary(name: &str, h: f64, f: impl FnOnce(&Value) -> Result<Value>) -> JsResult<f64> {
    let run = || -> Result<f64> {
        let x = [handles::get(name, h)?];
        Ok(handles::insert(crate::transform::scope::follow(
            &x,
            || f(&x[0]),
        )?))
    };
    run().map_err(js_error)
}

#[wasm_bindgen]
pub fn transpose(h: f64, perm: Option<Vec<i32>>) -> JsResult<f64> {
    unary("transpose", h, |x| {
        shape::transpose(x, wide(perm).as_deref())
    })
}

/// NumPy's broadcast of shapes: `ranks[i]` dimensions of shape `i`, concatenated in `dims`.
#[wasm_bindgen(js_name = broadcastShapes)]
pub fn broadcast_shapes(dims: &[f64], ranks: &[f64]) -> JsResult<Vec<f64>> {
    let run = || -> Result<Vec<f64>> {
        let mut shapes = Vec::with_capacity(ranks.len());
        let mut at = 0usize;
        for &rank in to_shape("broadcastShapes", ranks)?.iter() {
            let s = dims
                .get(at..at + rank)
                .ok_or_else(|| Error::new("broadcastShapes", "more dimensions named than given"))?;
            shapes.push(to_shape("broadcastShapes", s)?);
            at += rank;
        }
        let out = shape::broadcast_shape("broadcastShapes", &shapes)?;
        Ok(out.into_iter().map(|d| d as f64).collect())
    };
    run().map_err(js_error)
}

#[wasm_bindgen(js_name = broadcastTo)]
pub fn broadcast_to(h: f64, to: Vec<f64>) -> JsResult<f64> {
    unary("broadcastTo", h, |x| {
        shape::broadcast_to(x, to_shape("broadcastTo", &to)?)
    })
}

#[wasm_bindgen(js_name = expandDims)]
pub fn expand_dims(h: f64, axes: Vec<i32>) -> JsResult<f64> {
    unary("expandDims", h, |x| {
        shape::expand_dims(x, &wide(Some(axes)).unwrap_or_default())
    })
}

#[wasm_bindgen]
pub fn squeeze(h: f64, axes: Option<Vec<i32>>) -> JsResult<f64> {
    unary("squeeze", h, |x| shape::squeeze(x, wide(axes).as_deref()))
}

#[wasm_bindgen]
pub fn flip(h: f64, axes: Option<Vec<i32>>) -> JsResult<f64> {
    unary("flip", h, |x| shape::flip(x, wide(axes).as_deref()))
}

#[wasm_bindgen]
pub fn moveaxis(h: f64, source: i32, destination: i32) -> JsResult<f64> {
    unary("moveaxis", h, |x| {
        shape::moveaxis(x, source.into(), destination.into())
    })
}

#[wasm_bindgen]
pub fn swapaxes(h: f64, a: i32, b: i32) -> JsResult<f64> {
    unary("swapaxes", h, |x| shape::swapaxes(x, a.into(), b.into()))
}

#[wasm_bindgen]
pub fn tile(h: f64, reps: Vec<f64>) -> JsResult<f64> {
    unary("tile", h, |x| shape::tile(x, &to_shape("tile", &reps)?))
}

/// Keeps `[starts[a], ends[a])` of each axis.
#[wasm_bindgen]
pub fn shrink(h: f64, starts: Vec<f64>, ends: Vec<f64>) -> JsResult<f64> {
    unary("slice", h, |x| {
        let ranges = to_shape("slice", &starts)?
            .into_iter()
            .zip(to_shape("slice", &ends)?)
            .collect();
        lax::shrink(&mut Binder, x, ranges)
    })
}

/// Pads with zeros: `before[a]` and `after[a]` elements on each axis.
#[wasm_bindgen]
pub fn pad(h: f64, before: Vec<f64>, after: Vec<f64>) -> JsResult<f64> {
    unary("pad", h, |x| {
        let widths = to_shape("pad", &before)?
            .into_iter()
            .zip(to_shape("pad", &after)?)
            .collect();
        lax::pad(&mut Binder, x, widths)
    })
}

#[wasm_bindgen]
pub fn concatenate(hs: Vec<f64>, axis: i32) -> JsResult<f64> {
    let run = || -> Result<f64> {
        Ok(handles::insert(shape::concatenate(
            &handles::values("concatenate", &hs)?,
            axis.into(),
        )?))
    };
    run().map_err(js_error)
}

#[wasm_bindgen]
pub fn stack(hs: Vec<f64>, axis: i32) -> JsResult<f64> {
    let run = || -> Result<f64> {
        Ok(handles::insert(shape::stack(
            &handles::values("stack", &hs)?,
            axis.into(),
        )?))
    };
    run().map_err(js_error)
}

/// Splits into `sections` equal parts, or at the indices `cuts` when `sections` is absent.
#[wasm_bindgen]
pub fn split(h: f64, sections: Option<u32>, cuts: Vec<f64>, axis: i32) -> JsResult<Vec<f64>> {
    let run = || -> Result<Vec<f64>> {
        let x = handles::get("split", h)?;
        let cuts = to_shape("split", &cuts)?;
        let parts = shape::split(&x, sections.map(|s| s as usize), &cuts, axis.into())?;
        Ok(handles::insert_all(parts))
    };
    run().map_err(js_error)
}

/// `einsum(subscripts, ...operands)`.
#[wasm_bindgen]
pub fn einsum(spec: &str, hs: Vec<f64>) -> JsResult<f64> {
    let run = || -> Result<f64> {
        let operands = handles::values("einsum", &hs)?;
        Ok(handles::insert(crate::library::einsum::einsum(
            spec, &operands,
        )?))
    };
    run().map_err(js_error)
}

/// `Array.slice(...)`: `spec` holds triples `(kind, a, b)` — kind 0: index `a`; 1: range
/// `[a, b)` (`b` NaN: to the end); 2: new axis; 3: integer array `arrays[a]`.
#[wasm_bindgen]
pub fn slice(h: f64, spec: Vec<f64>, arrays: Vec<f64>) -> JsResult<f64> {
    unary("slice", h, |x| {
        let int = |v: f64| -> Result<i64> {
            if v.is_finite() && v.fract() == 0.0 {
                Ok(v as i64)
            } else {
                Err(Error::new(
                    "slice",
                    format!("indices must be integers, got {v}"),
                ))
            }
        };
        let items = spec
            .chunks(3)
            .map(|t| match t {
                [k, a, _] if *k == 0.0 => Ok(shape::SliceItem::Index(int(*a)?)),
                [k, a, b] if *k == 1.0 => {
                    let end = if b.is_nan() { None } else { Some(int(*b)?) };
                    Ok(shape::SliceItem::Range(int(*a)?, end))
                }
                [k, _, _] if *k == 2.0 => Ok(shape::SliceItem::NewAxis),
                [k, a, _] if *k == 3.0 => Ok(shape::SliceItem::Gather(int(*a)? as usize)),
                _ => Err(Error::new("slice", "internal error: malformed slice spec")),
            })
            .collect::<Result<Vec<_>>>()?;
        shape::slice(x, &items, &handles::values("slice", &arrays)?)
    })
}

/// `var` (with `std`: its square root) over `axes` with `correction` (ddof).
#[wasm_bindgen]
pub fn variance(
    h: f64,
    axes: Option<Vec<i32>>,
    correction: f64,
    keepdims: bool,
    sqrt: bool,
) -> JsResult<f64> {
    let name = if sqrt { "std" } else { "var" };
    unary(name, h, |x| {
        let axes = wide(axes);
        let f = if sqrt {
            crate::library::reduce::std
        } else {
            crate::library::reduce::var
        };
        f(x, axes.as_deref(), correction, keepdims)
    })
}

#[wasm_bindgen]
pub fn diagonal(h: f64, offset: i32, axis1: i32, axis2: i32) -> JsResult<f64> {
    unary("diagonal", h, |x| {
        crate::library::matrices::diagonal(x, offset.into(), axis1.into(), axis2.into())
    })
}

/// `tril` (lower) or `triu` with diagonal offset `k`.
#[wasm_bindgen]
pub fn triangle(h: f64, k: i32, lower: bool) -> JsResult<f64> {
    unary(if lower { "tril" } else { "triu" }, h, |x| {
        crate::library::matrices::triangle(x, k.into(), lower)
    })
}

#[wasm_bindgen]
pub fn diag(h: f64, k: i32) -> JsResult<f64> {
    unary("diag", h, |x| crate::library::matrices::diag(x, k.into()))
}

/// `lax.convGeneralDilated`: `padding` is "VALID", "SAME", "SAME_LOWER", or "" with explicit
/// `pads` (lo, hi pairs flattened); empty dilations mean 1.
#[wasm_bindgen(js_name = convGeneralDilated)]
#[allow(clippy::too_many_arguments)]
pub fn conv_general_dilated(
    lhs: f64,
    rhs: f64,
    strides: Vec<f64>,
    padding: &str,
    pads: Vec<f64>,
    lhs_dilation: Vec<f64>,
    rhs_dilation: Vec<f64>,
    groups: f64,
) -> JsResult<f64> {
    let name = "convGeneralDilated";
    let run = || -> Result<f64> {
        let (l, r) = (handles::get(name, lhs)?, handles::get(name, rhs)?);
        let padding = if padding.is_empty() {
            let ints = pads.iter().map(|&p| {
                if p.is_finite() && p.fract() == 0.0 {
                    Ok(p as i64)
                } else {
                    Err(Error::new(
                        name,
                        format!("padding must be integers, got {p}"),
                    ))
                }
            });
            let ints: Vec<i64> = ints.collect::<Result<_>>()?;
            conv::Padding::Explicit(
                ints.chunks(2)
                    .map(|c| (c[0], c.get(1).copied().unwrap_or(0)))
                    .collect(),
            )
        } else {
            conv::Padding::parse(name, padding)?
        };
        let opt = |v: &[f64]| -> Result<Option<Vec<usize>>> {
            if v.is_empty() {
                Ok(None)
            } else {
                to_shape(name, v).map(Some)
            }
        };
        let out = conv::conv_general_dilated(
            &l,
            &r,
            &to_shape(name, &strides)?,
            &padding,
            opt(&lhs_dilation)?.as_deref(),
            opt(&rhs_dilation)?.as_deref(),
            to_shape(name, &[groups])?[0],
        )?;
        Ok(handles::insert(out))
    };
    run().map_err(js_error)
}

/// numpy's 1-D `convolve` (`flip`) or `correlate`.
#[wasm_bindgen]
pub fn correlate(x: f64, y: f64, mode: &str, flip: bool) -> JsResult<f64> {
    let name = if flip { "convolve" } else { "correlate" };
    let run = || -> Result<f64> {
        let (a, b) = (handles::get(name, x)?, handles::get(name, y)?);
        Ok(handles::insert(conv::correlate_1d(
            name, &a, &b, mode, flip,
        )?))
    };
    run().map_err(js_error)
}
