//! Reverse-mode rules: for each differentiable primitive, the cotangents of its inputs given
//! the cotangent `g` of its output, written with [`Emit`] so they are ordinary operations
//! (and therefore differentiable again: `grad(grad(f))` works). `None` is a zero cotangent.

use super::emit::{Arg, Emit};
use super::lax;
use crate::core::ops::{BinaryOp as B, CompareOp as C, ReduceOp, UnaryOp as U};
use crate::core::{Aval, Primitive};
use crate::util::Result;

use Arg::{Lit, V};

/// Sums `g` (of a broadcast result) back to `shape` (NumPy broadcasting reversed).
pub fn unbroadcast<E: Emit>(e: &mut E, g: &E::V, shape: &[usize]) -> Result<E::V> {
    let gs = e.aval(g).shape;
    if gs == shape {
        return Ok(g.clone());
    }
    let pad = gs.len() - shape.len();
    let axes: Vec<usize> = (0..gs.len())
        .filter(|&a| a < pad || (shape[a - pad] == 1 && gs[a] != 1))
        .collect();
    let summed = if axes.is_empty() {
        g.clone()
    } else {
        e.bind(
            Primitive::Reduce {
                op: ReduceOp::Sum,
                axes,
            },
            &[V(g)],
        )?
    };
    lax::reshape(e, &summed, shape.to_vec())
}

/// `g` broadcast from a reduction's output back over the reduced `axes` of `shape`.
fn expand<E: Emit>(e: &mut E, g: &E::V, shape: &[usize], axes: &[usize]) -> Result<E::V> {
    let kept: Vec<usize> = (0..shape.len())
        .map(|a| if axes.contains(&a) { 1 } else { shape[a] })
        .collect();
    let r = lax::reshape(e, g, kept)?;
    let all = (0..shape.len()).collect();
    e.bind(
        Primitive::Broadcast {
            shape: shape.to_vec(),
            axes: all,
        },
        &[V(&r)],
    )
}

/// The input cotangents of `prim` applied to `ins` giving `out`, for output cotangent `g`.
pub fn vjp<E: Emit>(
    e: &mut E,
    prim: &Primitive,
    ins: &[E::V],
    out: &E::V,
    g: &E::V,
) -> Result<Vec<Option<E::V>>> {
    let shape = |e: &E, i: usize| e.aval(&ins[i]).shape;
    Ok(match prim {
        Primitive::Unary(op) => {
            let x = &ins[0];
            let d = match op {
                U::Neg => lax::unary(e, U::Neg, g)?,
                U::Abs => {
                    let pos = lax::compare(e, C::Lt, Lit(0.0), V(x))?;
                    let neg = lax::compare(e, C::Lt, V(x), Lit(0.0))?;
                    let ng = lax::unary(e, U::Neg, g)?;
                    let z = lax::binary(e, B::Mul, V(g), Lit(0.0))?;
                    let inner = lax::select(e, V(&neg), V(&ng), V(&z))?;
                    lax::select(e, V(&pos), V(g), V(&inner))?
                }
                U::Reciprocal => {
                    let y2 = lax::binary(e, B::Mul, V(out), V(out))?;
                    let t = lax::binary(e, B::Mul, V(g), V(&y2))?;
                    lax::unary(e, U::Neg, &t)?
                }
                U::Sqrt => {
                    let two_y = lax::binary(e, B::Mul, V(out), Lit(2.0))?;
                    lax::binary(e, B::Div, V(g), V(&two_y))?
                }
                U::Exp => lax::binary(e, B::Mul, V(g), V(out))?,
                U::Log => lax::binary(e, B::Div, V(g), V(x))?,
                U::Sin => {
                    let c = lax::unary(e, U::Cos, x)?;
                    lax::binary(e, B::Mul, V(g), V(&c))?
                }
                U::Cos => {
                    let s = lax::unary(e, U::Sin, x)?;
                    let t = lax::binary(e, B::Mul, V(g), V(&s))?;
                    lax::unary(e, U::Neg, &t)?
                }
                U::Tanh => {
                    let y2 = lax::binary(e, B::Mul, V(out), V(out))?;
                    let d = lax::binary(e, B::Sub, Lit(1.0), V(&y2))?;
                    lax::binary(e, B::Mul, V(g), V(&d))?
                }
                U::Asin | U::Atan => {
                    let x2 = lax::binary(e, B::Mul, V(x), V(x))?;
                    let d = if *op == U::Asin {
                        let one_minus = lax::binary(e, B::Sub, Lit(1.0), V(&x2))?;
                        lax::unary(e, U::Sqrt, &one_minus)?
                    } else {
                        lax::binary(e, B::Add, Lit(1.0), V(&x2))?
                    };
                    lax::binary(e, B::Div, V(g), V(&d))?
                }
                U::Erf | U::Erfc => {
                    let x2 = lax::binary(e, B::Mul, V(x), V(x))?;
                    let nx2 = lax::unary(e, U::Neg, &x2)?;
                    let ex = lax::unary(e, U::Exp, &nx2)?;
                    let k =
                        2.0 / std::f64::consts::PI.sqrt() * if *op == U::Erf { 1.0 } else { -1.0 };
                    let d = lax::binary(e, B::Mul, V(&ex), Lit(k))?;
                    lax::binary(e, B::Mul, V(g), V(&d))?
                }
                U::Floor | U::Ceil | U::Not => return Ok(vec![None]),
            };
            vec![Some(d)]
        }
        Primitive::Binary(op) => {
            let (a, b) = (&ins[0], &ins[1]);
            let (ga, gb) = match op {
                B::Add => (Some(g.clone()), Some(g.clone())),
                B::Sub => (Some(g.clone()), Some(lax::unary(e, U::Neg, g)?)),
                B::Mul => (
                    Some(lax::binary(e, B::Mul, V(g), V(b))?),
                    Some(lax::binary(e, B::Mul, V(g), V(a))?),
                ),
                B::Div => {
                    let ga = lax::binary(e, B::Div, V(g), V(b))?;
                    let q = lax::binary(e, B::Mul, V(&ga), V(out))?;
                    (Some(ga), Some(lax::unary(e, U::Neg, &q)?))
                }
                B::Max | B::Min => {
                    // The chosen operand gets the cotangent (ties: the first).
                    let (lo, hi) = if *op == B::Max { (b, a) } else { (a, b) };
                    let first = lax::compare(e, C::Le, V(lo), V(hi))?;
                    let z = lax::binary(e, B::Mul, V(g), Lit(0.0))?;
                    let ga = lax::select(e, V(&first), V(g), V(&z))?;
                    let gb = lax::select(e, V(&first), V(&z), V(g))?;
                    (Some(ga), Some(gb))
                }
                B::Rem => {
                    // d/da = 1, d/db = -trunc(a / b).
                    let q = lax::binary(e, B::Div, V(a), V(b))?;
                    let neg = lax::compare(e, C::Lt, V(&q), Lit(0.0))?;
                    let (c, f) = (lax::unary(e, U::Ceil, &q)?, lax::unary(e, U::Floor, &q)?);
                    let t = lax::select(e, V(&neg), V(&c), V(&f))?;
                    let gt = lax::binary(e, B::Mul, V(g), V(&t))?;
                    (Some(g.clone()), Some(lax::unary(e, U::Neg, &gt)?))
                }
                B::And | B::Or | B::Xor | B::Shl | B::Shr => (None, None),
            };
            let ga = match ga {
                Some(x) => Some(unbroadcast(e, &x, &shape(e, 0))?),
                None => None,
            };
            let gb = match gb {
                Some(x) => Some(unbroadcast(e, &x, &shape(e, 1))?),
                None => None,
            };
            vec![ga, gb]
        }
        Primitive::Compare(_)
        | Primitive::Bitcast(_)
        | Primitive::StopGradient
        | Primitive::Iota { .. } => {
            vec![None; ins.len()]
        }
        Primitive::Where => {
            let c = &ins[0];
            let z = lax::binary(e, B::Mul, V(g), Lit(0.0))?;
            let ga = lax::select(e, V(c), V(g), V(&z))?;
            let gb = lax::select(e, V(c), V(&z), V(g))?;
            vec![
                None,
                Some(unbroadcast(e, &ga, &shape(e, 1))?),
                Some(unbroadcast(e, &gb, &shape(e, 2))?),
            ]
        }
        Primitive::Cast(_) => {
            let from = e.aval(&ins[0]).dtype;
            if from.is_float() {
                vec![Some(lax::cast(e, g, from)?)]
            } else {
                vec![None]
            }
        }
        Primitive::Reduce { op, axes } => {
            let xs = shape(e, 0);
            let gb = expand(e, g, &xs, axes)?;
            let d = match op {
                ReduceOp::Sum => gb,
                ReduceOp::Prod => {
                    let yb = expand(e, out, &xs, axes)?;
                    let r = lax::binary(e, B::Div, V(&yb), V(&ins[0]))?;
                    lax::binary(e, B::Mul, V(&gb), V(&r))?
                }
                ReduceOp::Max | ReduceOp::Min => {
                    // Split equally among the extreme elements.
                    let yb = expand(e, out, &xs, axes)?;
                    let hit = lax::compare(e, C::Eq, V(&ins[0]), V(&yb))?;
                    let dtype = e.aval(g).dtype;
                    let hitf = lax::cast(e, &hit, dtype)?;
                    let count = e.bind(
                        Primitive::Reduce {
                            op: ReduceOp::Sum,
                            axes: axes.clone(),
                        },
                        &[V(&hitf)],
                    )?;
                    let cb = expand(e, &count, &xs, axes)?;
                    let share = lax::binary(e, B::Div, V(&hitf), V(&cb))?;
                    lax::binary(e, B::Mul, V(&gb), V(&share))?
                }
            };
            vec![Some(d)]
        }
        Primitive::Cumulative {
            op: ReduceOp::Sum,
            axis,
            reverse,
        } => {
            let r = e.bind(
                Primitive::Cumulative {
                    op: ReduceOp::Sum,
                    axis: *axis,
                    reverse: !reverse,
                },
                &[V(g)],
            )?;
            vec![Some(r)]
        }
        Primitive::Reshape(_) => vec![Some(lax::reshape(e, g, shape(e, 0))?)],
        Primitive::Transpose(perm) => {
            let mut inv = vec![0; perm.len()];
            for (i, &p) in perm.iter().enumerate() {
                inv[p] = i;
            }
            vec![Some(lax::transpose(e, g, inv)?)]
        }
        Primitive::Broadcast { shape: to, axes } => {
            let others: Vec<usize> = (0..to.len()).filter(|a| !axes.contains(a)).collect();
            let from = shape(e, 0);
            let expanded: Vec<usize> = (0..to.len())
                .filter(|a| {
                    axes.iter()
                        .position(|b| b == a)
                        .is_some_and(|i| from[i] == 1 && to[*a] != 1)
                })
                .collect();
            let mut sum_axes: Vec<usize> = others.into_iter().chain(expanded).collect();
            sum_axes.sort_unstable();
            let s = if sum_axes.is_empty() {
                g.clone()
            } else {
                e.bind(
                    Primitive::Reduce {
                        op: ReduceOp::Sum,
                        axes: sum_axes,
                    },
                    &[V(g)],
                )?
            };
            vec![Some(lax::reshape(e, &s, from)?)]
        }
        Primitive::Shrink(ranges) => {
            let xs = shape(e, 0);
            let widths = ranges
                .iter()
                .zip(&xs)
                .map(|(&(s, t), &n)| (s, n - t))
                .collect();
            vec![Some(lax::pad(e, g, widths)?)]
        }
        Primitive::Pad(widths) => {
            let gs = e.aval(g).shape;
            let ranges = widths
                .iter()
                .zip(&gs)
                .map(|(&(lo, hi), &n)| (lo, n - hi))
                .collect();
            vec![Some(lax::shrink(e, g, ranges)?)]
        }
        Primitive::Flip(axes) => vec![Some(lax::flip(e, g, axes.clone())?)],
        Primitive::Concatenate(axis) => {
            let gs = e.aval(g).shape;
            let mut start = 0;
            let mut outs = Vec::new();
            for i in 0..ins.len() {
                let n = shape(e, i)[*axis];
                let mut r: Vec<(usize, usize)> = gs.iter().map(|&d| (0, d)).collect();
                r[*axis] = (start, start + n);
                outs.push(Some(lax::shrink(e, g, r)?));
                start += n;
            }
            outs
        }
        Primitive::Matmul => {
            let (a, b) = (&ins[0], &ins[1]);
            let swap = |e: &mut E, x: &E::V| -> Result<E::V> {
                let r = e.aval(x).shape.len();
                let mut perm: Vec<usize> = (0..r).collect();
                perm.swap(r - 2, r - 1);
                lax::transpose(e, x, perm)
            };
            let bt = swap(e, b)?;
            let at = swap(e, a)?;
            let ga = lax::matmul(e, g, &bt)?;
            let gb = lax::matmul(e, &at, g)?;
            vec![
                Some(unbroadcast(e, &ga, &shape(e, 0))?),
                Some(unbroadcast(e, &gb, &shape(e, 1))?),
            ]
        }
        Primitive::Cholesky | Primitive::TriangularSolve { .. } | Primitive::Lu => {
            super::autodiff_linalg::vjp(e, prim, ins, out, g)?
        }
        Primitive::Cumulative { .. } | Primitive::Gather { .. } | Primitive::Conv(_) => {
            return super::autodiff_index::vjp(e, prim, ins, out, g)
        }
        // Multi-output: differentiated by `vjp_multi` (scan: in `transform::scan_ad`).
        Primitive::Scan(_) | Primitive::Sort | Primitive::Fft { .. } => {
            return Err(not_differentiable(prim))
        }
    })
}

fn not_differentiable(prim: &Primitive) -> crate::util::Error {
    crate::util::Error::new(
        prim.name(),
        "differentiation of this operation is not supported yet in oxjax",
    )
}

/// The input cotangents of a multi-output `prim` applied to `ins` giving `outs`, for output
/// cotangents `gs` (one per output, `None`: zero, at least one `Some`). Multi-output
/// primitives add their arm here (scan's rule lives in `transform`, as it traces its body).
pub fn vjp_multi<E: Emit>(
    e: &mut E,
    prim: &Primitive,
    ins: &[E::V],
    outs: &[E::V],
    gs: &[Option<E::V>],
) -> Result<Vec<Option<E::V>>> {
    match prim {
        Primitive::Lu => super::autodiff_linalg::lu_vjp(e, ins, outs, gs),
        // The permutation has no cotangent.
        Primitive::Sort => Ok(vec![match &gs[0] {
            Some(g) => Some(super::sort::vjp(e, &outs[1], g)?),
            None => None,
        }]),
        Primitive::Fft { inverse } => super::fft::vjp(e, *inverse, outs, gs),
        _ => Err(not_differentiable(prim)),
    }
}

/// Whether values of `aval` can be differentiated (the float dtypes, float16 included: as in
/// JAX, its cotangents are float16 and each rule's arithmetic rounds as float16 does).
pub fn is_differentiable(aval: &Aval) -> bool {
    aval.dtype.is_float()
}
