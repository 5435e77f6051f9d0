//! Convolutions: `lax.convGeneralDilated` with string or explicit padding, and numpy's 1-D
//! `convolve`/`correlate` built on it.

use super::shape::{flip, reshape};
use crate::core::ConvParams;
use crate::rules::lax;
use crate::transform::trace::Binder;
use crate::transform::Value;
use crate::util::{Error, Result};

/// Padding as users give it.
#[derive(Debug, Clone, PartialEq)]
pub enum Padding {
    Valid,
    Same,
    SameLower,
    Explicit(Vec<(i64, i64)>),
}

impl Padding {
    pub fn parse(name: &str, text: &str) -> Result<Padding> {
        match text {
            "VALID" => Ok(Padding::Valid),
            "SAME" => Ok(Padding::Same),
            "SAME_LOWER" => Ok(Padding::SameLower),
            other => Err(Error::new(
                name,
                format!("unknown padding {other:?} (expected VALID, SAME, SAME_LOWER or pairs)"),
            )),
        }
    }
}

/// `conv_general_dilated` on `[N, C, …]` and `[O, C/groups, …]`.
pub fn conv_general_dilated(
    lhs: &Value,
    rhs: &Value,
    strides: &[usize],
    padding: &Padding,
    lhs_dilation: Option<&[usize]>,
    rhs_dilation: Option<&[usize]>,
    groups: usize,
) -> Result<Value> {
    let name = "convGeneralDilated";
    let spatial = lhs.aval().shape.len().saturating_sub(2);
    let ones = vec![1; spatial];
    let lhs_dilation = lhs_dilation.unwrap_or(&ones).to_vec();
    let rhs_dilation = rhs_dilation.unwrap_or(&ones).to_vec();
    let padding = match padding {
        Padding::Explicit(p) => p.clone(),
        Padding::Valid => vec![(0, 0); spatial],
        same => {
            if lhs_dilation.iter().any(|&d| d != 1) {
                return Err(Error::new(
                    name,
                    "string padding is not allowed with lhs dilation",
                ));
            }
            let (inp, win) = (&lhs.aval().shape, &rhs.aval().shape);
            if win.len() != inp.len() || strides.len() != spatial || rhs_dilation.len() != spatial {
                return Err(Error::new(name, "operand ranks and strides do not agree"));
            }
            (0..spatial)
                .map(|d| {
                    let (n, s) = (inp[2 + d] as i64, strides[d].max(1) as i64);
                    let k = ((win[2 + d].max(1) - 1) * rhs_dilation[d] + 1) as i64;
                    let out = (n + s - 1) / s;
                    let total = ((out - 1) * s + k - n).max(0);
                    let lo = if *same == Padding::Same {
                        total / 2
                    } else {
                        (total + 1) / 2
                    };
                    (lo, total - lo)
                })
                .collect()
        }
    };
    let params = ConvParams {
        strides: strides.to_vec(),
        padding,
        lhs_dilation,
        rhs_dilation,
        groups,
    };
    super::half::pair_in_f32(lhs, rhs, |a, b| lax::conv(&mut Binder, a, b, params))
}

/// JAX's padding of a transposed convolution for a window of `k` (dilated) and stride `s`.
fn transpose_padding(k: i64, s: i64, same: bool) -> (i64, i64) {
    let (total, lo) = if same {
        let total = k + s - 2;
        (total, if s > k - 1 { k - 1 } else { (total + 1) / 2 })
    } else {
        (k + s - 2 + (k - s).max(0), k - 1)
    };
    (lo, total - lo)
}

/// `lax.convTranspose(lhs [N, C, …], rhs [O, I, …], strides, padding, { rhsDilation,
/// transposeKernel })` as JAX's `conv_transpose` in the axis order of `convGeneralDilated`:
/// a convolution with `lhs` dilated by `strides`; `transposeKernel` flips the spatial axes of
/// `rhs` and swaps its two channel axes. Padding is "SAME", "VALID" or the pairs of the forward
/// convolution being transposed (each becomes `k − 1 − p`), as jax-js does.
pub fn conv_transpose(
    lhs: &Value,
    rhs: &Value,
    strides: &[usize],
    padding: &Padding,
    rhs_dilation: Option<&[usize]>,
    transpose_kernel: bool,
) -> Result<Value> {
    let name = "convTranspose";
    let (ls, rs) = (lhs.aval().shape.clone(), rhs.aval().shape.clone());
    if ls.len() < 2 || ls.len() != rs.len() {
        return Err(Error::new(
            name,
            format!("lhs and rhs must have one rank ≥ 2, got shapes {ls:?} and {rs:?}"),
        ));
    }
    let spatial = ls.len() - 2;
    let ones = vec![1; spatial];
    let dil = rhs_dilation.unwrap_or(&ones);
    if strides.len() != spatial || dil.len() != spatial || strides.contains(&0) {
        return Err(Error::new(
            name,
            format!("strides and rhsDilation need {spatial} positive entries"),
        ));
    }
    if *padding == Padding::SameLower {
        return Err(Error::new(name, "padding must be SAME, VALID or pairs"));
    }
    if let Padding::Explicit(p) = padding {
        if p.len() != spatial {
            return Err(Error::new(name, format!("padding needs {spatial} pairs")));
        }
    }
    let pads = (0..spatial)
        .map(|d| {
            let k = ((rs[2 + d].max(1) - 1) * dil[d] + 1) as i64;
            match padding {
                // The forward convolution's padding (JAX's use_consistent_padding, as jax-js).
                Padding::Explicit(p) => (k - 1 - p[d].0, k - 1 - p[d].1),
                mode => transpose_padding(k, strides[d] as i64, *mode == Padding::Same),
            }
        })
        .collect();
    let rhs = if transpose_kernel {
        let axes: Vec<i64> = (2..rs.len() as i64).collect();
        let flipped = flip(rhs, Some(&axes))?;
        let mut perm: Vec<usize> = (0..rs.len()).collect();
        perm.swap(0, 1);
        lax::transpose(&mut Binder, &flipped, perm)?
    } else {
        rhs.clone()
    };
    conv_general_dilated(
        lhs,
        &rhs,
        &ones,
        &Padding::Explicit(pads),
        Some(strides),
        Some(dil),
        1,
    )
    .map_err(|e| super::lax_linalg::rename(e, name))
}

/// Every `s`-th of `count` elements from `o` along `axis` (padding the end when needed).
fn strided(x: &Value, axis: usize, o: usize, s: usize, count: usize) -> Result<Value> {
    let shape = x.aval().shape.clone();
    let need = o + count * s;
    let x = if need > shape[axis] {
        let mut pads = vec![(0, 0); shape.len()];
        pads[axis] = (0, need - shape[axis]);
        lax::pad(&mut Binder, x, pads)?
    } else {
        x.clone()
    };
    let mut ranges: Vec<(usize, usize)> = x.aval().shape.iter().map(|&d| (0, d)).collect();
    ranges[axis] = (o, need);
    let x = lax::shrink(&mut Binder, &x, ranges)?;
    let mut split = shape.clone();
    split[axis] = count;
    split.insert(axis + 1, s);
    let x = reshape(&x, split.clone())?;
    let mut ranges: Vec<(usize, usize)> = split.iter().map(|&d| (0, d)).collect();
    ranges[axis + 1] = (0, 1);
    let x = lax::shrink(&mut Binder, &x, ranges)?;
    split.remove(axis + 1);
    reshape(&x, split)
}

/// The windows of `reduceWindow`: `x [..., n₁ … n_k]` with `windows` over its last `k` axes
/// (no padding) as `[..., o₁ … o_k, w₁ … w_k]`, `o = ⌊(n − w) / s⌋ + 1`.
pub fn pool(x: &Value, windows: &[usize], strides: &[usize]) -> Result<Value> {
    let name = "reduceWindow";
    let shape = x.aval().shape.clone();
    let (r, k) = (shape.len(), windows.len());
    if k > r || strides.len() != k || windows.contains(&0) || strides.contains(&0) {
        return Err(Error::new(
            name,
            format!(
                "needs at most {r} positive window dimensions and as many strides, got \
                 {windows:?} and {strides:?}"
            ),
        ));
    }
    let first = r - k;
    let mut outs = Vec::with_capacity(k);
    for d in 0..k {
        let n = shape[first + d];
        if windows[d] > n {
            return Err(Error::new(
                name,
                format!("window {windows:?} is larger than the operand shape {shape:?}"),
            ));
        }
        outs.push((n - windows[d]) / strides[d] + 1);
    }
    let total: usize = windows.iter().product();
    let mut pieces = Vec::with_capacity(total);
    for flat in 0..total {
        let mut rest = flat;
        let mut y = x.clone();
        for d in (0..k).rev() {
            let o = rest % windows[d];
            rest /= windows[d];
            y = strided(&y, first + d, o, strides[d], outs[d])?;
        }
        let mut with_axis = y.aval().shape.clone();
        with_axis.push(1);
        pieces.push(reshape(&y, with_axis)?);
    }
    let stacked = lax::concatenate(&mut Binder, &pieces, r)?;
    let mut out = shape[..first].to_vec();
    out.extend(&outs);
    out.extend(windows);
    reshape(&stacked, out)
}

/// numpy's 1-D `correlate` (`flip_kernel = false`) or `convolve`, mode "full", "same" or
/// "valid".
pub fn correlate_1d(
    name: &str,
    x: &Value,
    y: &Value,
    mode: &str,
    flip_kernel: bool,
) -> Result<Value> {
    let (n, m) = match (x.aval().shape.as_slice(), y.aval().shape.as_slice()) {
        ([n], [m]) if *n > 0 && *m > 0 => (*n, *m),
        _ => return Err(Error::new(name, "needs two non-empty 1-D arrays")),
    };
    // convolve commutes: NumPy swaps so the longer array slides.
    let (x, y, n, m) = if flip_kernel && m > n {
        (y, x, m, n)
    } else {
        (x, y, n, m)
    };
    let kernel = if flip_kernel {
        flip(y, None)?
    } else {
        y.clone()
    };
    let (lo, hi, len) = match mode {
        "full" => (m - 1, m - 1, n + m - 1),
        "valid" => (0, 0, n.max(m) - n.min(m) + 1),
        "same" => ((m - 1) / 2, m - 1 - (m - 1) / 2, n.max(m)),
        other => return Err(Error::new(name, format!("unknown mode {other:?}"))),
    };
    if mode == "valid" && m > n {
        return Err(Error::new(
            name,
            "in valid mode the second array must not be longer",
        ));
    }
    let lhs = reshape(x, vec![1, 1, n])?;
    let rhs = reshape(&kernel, vec![1, 1, m])?;
    let padding = Padding::Explicit(vec![(lo as i64, hi as i64)]);
    let out = conv_general_dilated(&lhs, &rhs, &[1], &padding, None, None, 1)?;
    reshape(&out, vec![len])
}
