//! Reverse-mode rules: for each differentiable primitive, the cotangents of its inputs given
//! the cotangent `g` of its output, written with [`Emit`] so they are ordinary operations
//! (and therefore differentiable again: `grad(grad(f))` works). `None` is a zero cotangent.

use super::emit::{Arg, Emit};
use crate::core::ops::{BinaryOp as B, CompareOp as C, ReduceOp, UnaryOp as U};
use crate::core::{Aval, Primitive};
use crate::util::Result;

fn bin<E: Emit>(e: &mut E, op: B, a: Arg<E::V>, b: Arg<E::V>) -> Result<E::V> {
    e.bind(Primitive::Binary(op), &[a, b])
}

fn un<E: Emit>(e: &mut E, op: U, a: &E::V) -> Result<E::V> {
    e.bind(Primitive::Unary(op), &[Arg::V(a)])
}

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
    e.bind(Primitive::Reshape(shape.to_vec()), &[V(&summed)])
}

/// `g` broadcast from a reduction's output back over the reduced `axes` of `shape`.
fn expand<E: Emit>(e: &mut E, g: &E::V, shape: &[usize], axes: &[usize]) -> Result<E::V> {
    let kept: Vec<usize> = (0..shape.len())
        .map(|a| if axes.contains(&a) { 1 } else { shape[a] })
        .collect();
    let r = e.bind(Primitive::Reshape(kept), &[V(g)])?;
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
                U::Neg => un(e, U::Neg, g)?,
                U::Abs => {
                    let pos = e.bind(Primitive::Compare(C::Lt), &[Lit(0.0), V(x)])?;
                    let neg = e.bind(Primitive::Compare(C::Lt), &[V(x), Lit(0.0)])?;
                    let ng = un(e, U::Neg, g)?;
                    let z = bin(e, B::Mul, V(g), Lit(0.0))?;
                    let inner = e.bind(Primitive::Where, &[V(&neg), V(&ng), V(&z)])?;
                    e.bind(Primitive::Where, &[V(&pos), V(g), V(&inner)])?
                }
                U::Reciprocal => {
                    let y2 = bin(e, B::Mul, V(out), V(out))?;
                    let t = bin(e, B::Mul, V(g), V(&y2))?;
                    un(e, U::Neg, &t)?
                }
                U::Sqrt => {
                    let two_y = bin(e, B::Mul, V(out), Lit(2.0))?;
                    bin(e, B::Div, V(g), V(&two_y))?
                }
                U::Exp => bin(e, B::Mul, V(g), V(out))?,
                U::Log => bin(e, B::Div, V(g), V(x))?,
                U::Sin => {
                    let c = un(e, U::Cos, x)?;
                    bin(e, B::Mul, V(g), V(&c))?
                }
                U::Cos => {
                    let s = un(e, U::Sin, x)?;
                    let t = bin(e, B::Mul, V(g), V(&s))?;
                    un(e, U::Neg, &t)?
                }
                U::Tanh => {
                    let y2 = bin(e, B::Mul, V(out), V(out))?;
                    let d = bin(e, B::Sub, Lit(1.0), V(&y2))?;
                    bin(e, B::Mul, V(g), V(&d))?
                }
                U::Asin | U::Atan => {
                    let x2 = bin(e, B::Mul, V(x), V(x))?;
                    let d = if *op == U::Asin {
                        let one_minus = bin(e, B::Sub, Lit(1.0), V(&x2))?;
                        un(e, U::Sqrt, &one_minus)?
                    } else {
                        bin(e, B::Add, Lit(1.0), V(&x2))?
                    };
                    bin(e, B::Div, V(g), V(&d))?
                }
                U::Erf | U::Erfc => {
                    let x2 = bin(e, B::Mul, V(x), V(x))?;
                    let nx2 = un(e, U::Neg, &x2)?;
                    let ex = un(e, U::Exp, &nx2)?;
                    let k =
                        2.0 / std::f64::consts::PI.sqrt() * if *op == U::Erf { 1.0 } else { -1.0 };
                    let d = bin(e, B::Mul, V(&ex), Lit(k))?;
                    bin(e, B::Mul, V(g), V(&d))?
                }
                U::Floor | U::Ceil | U::Not => return Ok(vec![None]),
            };
            vec![Some(d)]
        }
        Primitive::Binary(op) => {
            let (a, b) = (&ins[0], &ins[1]);
            let (ga, gb) = match op {
                B::Add => (Some(g.clone()), Some(g.clone())),
                B::Sub => (Some(g.clone()), Some(un(e, U::Neg, g)?)),
                B::Mul => (
                    Some(bin(e, B::Mul, V(g), V(b))?),
                    Some(bin(e, B::Mul, V(g), V(a))?),
                ),
                B::Div => {
                    let ga = bin(e, B::Div, V(g), V(b))?;
                    let q = bin(e, B::Mul, V(&ga), V(out))?;
                    (Some(ga), Some(un(e, U::Neg, &q)?))
                }
                B::Max | B::Min => {
                    // The chosen operand gets the cotangent (ties: the first).
                    let (lo, hi) = if *op == B::Max { (b, a) } else { (a, b) };
                    let first = e.bind(Primitive::Compare(C::Le), &[V(lo), V(hi)])?;
                    let z = bin(e, B::Mul, V(g), Lit(0.0))?;
                    let ga = e.bind(Primitive::Where, &[V(&first), V(g), V(&z)])?;
                    let gb = e.bind(Primitive::Where, &[V(&first), V(&z), V(g)])?;
                    (Some(ga), Some(gb))
                }
                B::Rem => {
                    // d/da = 1, d/db = -trunc(a / b).
                    let q = bin(e, B::Div, V(a), V(b))?;
                    let neg = e.bind(Primitive::Compare(C::Lt), &[V(&q), Lit(0.0)])?;
                    let (c, f) = (un(e, U::Ceil, &q)?, un(e, U::Floor, &q)?);
                    let t = e.bind(Primitive::Where, &[V(&neg), V(&c), V(&f)])?;
                    let gt = bin(e, B::Mul, V(g), V(&t))?;
                    (Some(g.clone()), Some(un(e, U::Neg, &gt)?))
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
            let z = bin(e, B::Mul, V(g), Lit(0.0))?;
            let ga = e.bind(Primitive::Where, &[V(c), V(g), V(&z)])?;
            let gb = e.bind(Primitive::Where, &[V(c), V(&z), V(g)])?;
            vec![
                None,
                Some(unbroadcast(e, &ga, &shape(e, 1))?),
                Some(unbroadcast(e, &gb, &shape(e, 2))?),
            ]
        }
        Primitive::Cast(_) => {
            let from = e.aval(&ins[0]).dtype;
            if from.is_float() {
                vec![Some(e.bind(Primitive::Cast(from), &[V(g)])?)]
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
                    let r = bin(e, B::Div, V(&yb), V(&ins[0]))?;
                    bin(e, B::Mul, V(&gb), V(&r))?
                }
                ReduceOp::Max | ReduceOp::Min => {
                    // Split equally among the extreme elements.
                    let yb = expand(e, out, &xs, axes)?;
                    let hit = e.bind(Primitive::Compare(C::Eq), &[V(&ins[0]), V(&yb)])?;
                    let dtype = e.aval(g).dtype;
                    let hitf = e.bind(Primitive::Cast(dtype), &[V(&hit)])?;
                    let count = e.bind(
                        Primitive::Reduce {
                            op: ReduceOp::Sum,
                            axes: axes.clone(),
                        },
                        &[V(&hitf)],
                    )?;
                    let cb = expand(e, &count, &xs, axes)?;
                    let share = bin(e, B::Div, V(&hitf), V(&cb))?;
                    bin(e, B::Mul, V(&gb), V(&share))?
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
        Primitive::Reshape(_) => vec![Some(e.bind(Primitive::Reshape(shape(e, 0)), &[V(g)])?)],
        Primitive::Transpose(perm) => {
            let mut inv = vec![0; perm.len()];
            for (i, &p) in perm.iter().enumerate() {
                inv[p] = i;
            }
            vec![Some(e.bind(Primitive::Transpose(inv), &[V(g)])?)]
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
            vec![Some(e.bind(Primitive::Reshape(from), &[V(&s)])?)]
        }
        Primitive::Shrink(ranges) => {
            let xs = shape(e, 0);
            let widths = ranges
                .iter()
                .zip(&xs)
                .map(|(&(s, t), &n)| (s, n - t))
                .collect();
            vec![Some(e.bind(Primitive::Pad(widths), &[V(g)])?)]
        }
        Primitive::Pad(widths) => {
            let gs = e.aval(g).shape;
            let ranges = widths
                .iter()
                .zip(&gs)
                .map(|(&(lo, hi), &n)| (lo, n - hi))
                .collect();
            vec![Some(e.bind(Primitive::Shrink(ranges), &[V(g)])?)]
        }
        Primitive::Flip(axes) => vec![Some(e.bind(Primitive::Flip(axes.clone()), &[V(g)])?)],
        Primitive::Concatenate(axis) => {
            let gs = e.aval(g).shape;
            let mut start = 0;
            let mut outs = Vec::new();
            for i in 0..ins.len() {
                let n = shape(e, i)[*axis];
                let mut r: Vec<(usize, usize)> = gs.iter().map(|&d| (0, d)).collect();
                r[*axis] = (start, start + n);
                outs.push(Some(e.bind(Primitive::Shrink(r), &[V(g)])?));
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
                e.bind(Primitive::Transpose(perm), &[V(x)])
            };
            let bt = swap(e, b)?;
            let at = swap(e, a)?;
            let ga = e.bind(Primitive::Matmul, &[V(g), V(&bt)])?;
            let gb = e.bind(Primitive::Matmul, &[V(&at), V(g)])?;
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
