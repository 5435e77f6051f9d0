//! The VJP of `scan`, written by binding primitives (so it runs eagerly, stages under `jit`, and
//! is itself differentiable — `jvp` transposes it). Steps are iterated in the scan's own order
//! (xs flipped for a reverse scan) and grouped into segments of `segment` steps:
//!
//! 1. forward: a scan over the segments keeps the carry at each segment's start (the
//!    checkpoints; with `segment = 1`, every carry);
//! 2. backward: a reverse scan over the segments recomputes each segment's carries from its
//!    checkpoint, then runs a reverse scan of the body's VJP (the body traced forward and
//!    backward, in Rust) over them, carrying the carry cotangent and the sum of the constants'
//!    cotangents and emitting the xs cotangents. A last, shorter segment (when `segment` does
//!    not divide the length) is handled first, outside the segment loop.
//!
//! Residuals are the checkpoints, owned by the trace or the evaluator (decision 3).

use super::autodiff::{backward, forward, zeros_like};
use super::scan::{bind_scan, trace_body, Loop};
use super::trace::{Binder, ClosedJaxpr, Value};
use crate::core::jaxpr::{Atom, Jaxpr};
use crate::core::scan::{sqrt_segment, ScanParams};
use crate::core::Aval;
use crate::rules::autodiff::is_differentiable;
use crate::rules::lax;
use crate::util::Result;

fn flip0(v: &Value) -> Result<Value> {
    lax::flip(&mut Binder, v, vec![0])
}

/// Rows `[start, end)` of `v`.
fn rows(v: &Value, start: usize, end: usize) -> Result<Value> {
    lax::slice_axis(&mut Binder, v, 0, start, end)
}

/// `v` with its leading axis (of `k * s` rows) split into `[k, s]`.
fn split0(v: &Value, k: usize, s: usize) -> Result<Value> {
    let mut shape = vec![k, s];
    shape.extend_from_slice(&v.aval().shape[1..]);
    lax::reshape(&mut Binder, v, shape)
}

/// `v` with its two leading axes merged.
fn merge0(v: &Value) -> Result<Value> {
    let sh = &v.aval().shape;
    let mut shape = vec![sh[0] * sh[1]];
    shape.extend_from_slice(&sh[2..]);
    lax::reshape(&mut Binder, v, shape)
}

fn add(a: &Value, b: &Value) -> Result<Value> {
    lax::add(&mut Binder, a, b)
}

fn pick<T: Clone>(v: &[T], mask: &[bool]) -> Vec<T> {
    v.iter()
        .zip(mask)
        .filter(|(_, &m)| m)
        .map(|(x, _)| x.clone())
        .collect()
}

fn strong(a: &Aval) -> Aval {
    Aval::new(a.shape.clone(), a.dtype)
}

/// `a` with a leading axis of `n`.
fn stacked(a: &Aval, n: &[usize]) -> Aval {
    let mut shape = n.to_vec();
    shape.extend_from_slice(&a.shape);
    Aval::new(shape, a.dtype)
}

/// What the VJP of one scan equation needs: the body, its avals, which positions carry
/// cotangents, and the helper bodies.
struct Ctx {
    nc: usize,
    nk: usize,
    const_avals: Vec<Aval>,
    carry_avals: Vec<Aval>,
    x_avals: Vec<Aval>,
    /// Float consts / carries / xs (the others get no cotangent).
    fc: Vec<bool>,
    fk: Vec<bool>,
    fx: Vec<bool>,
    /// ys that receive a cotangent (float, and not `None`).
    fy: Vec<bool>,
    /// The body with the input carry as its y: recomputes the carries.
    carries_body: Jaxpr,
    /// The body's VJP for one step (see [`vjp_body`]).
    vjp_body: ClosedJaxpr,
    lp: Loop,
}

impl Ctx {
    fn lp(&self, length: usize, reverse: bool) -> Loop {
        let segment = if self.lp.segment == 1 {
            1
        } else {
            sqrt_segment(length)
        };
        Loop {
            length,
            reverse,
            segment,
            accept: self.lp.accept,
        }
    }

    fn carries_closed(&self) -> ClosedJaxpr {
        ClosedJaxpr {
            jaxpr: self.carries_body.clone(),
            consts: vec![],
        }
    }

    /// The cotangent loop state: float carries, then the float consts' running sums.
    fn ct_avals(&self) -> Vec<Aval> {
        let mut v = pick(&self.carry_avals, &self.fk);
        v.extend(pick(&self.const_avals, &self.fc));
        v
    }

    /// Runs the backward pass over one segment of `len` steps starting from carry `c0`
    /// (or from the given per-step `carries`): returns the new cotangent state and the float
    /// xs' cotangents (`len` rows each).
    #[allow(clippy::too_many_arguments)]
    fn segment_backward(
        &self,
        consts: &[Value],
        c0: &[Value],
        carries: Option<Vec<Value>>,
        xseg: &[Value],
        ctyseg: &[Value],
        ct: &[Value],
        len: usize,
    ) -> Result<(Vec<Value>, Vec<Value>)> {
        let carries = match carries {
            Some(c) => c,
            None if len == 1 => c0
                .iter()
                .map(|c| lax::reshape(&mut Binder, c, stacked(c.aval(), &[1]).shape))
                .collect::<Result<_>>()?,
            None => {
                let outs = bind_scan(self.carries_closed(), consts, c0, xseg, self.lp(len, false))?;
                outs[self.nk..].to_vec()
            }
        };
        let mut xs = carries;
        xs.extend_from_slice(xseg);
        xs.extend_from_slice(ctyseg);
        let mut outs = bind_scan(self.vjp_body.clone(), consts, ct, &xs, self.lp(len, true))?;
        let ctx = outs.split_off(ct.len());
        Ok((outs, ctx))
    }
}

/// One step's VJP. Inputs: consts; cotangent state (float carries' cotangents, float consts'
/// running sums); carry, x, and the present ys' cotangents. Outputs: the new state, then the
/// float xs' cotangents.
fn vjp_body(body: &Jaxpr, c: &Ctx) -> Result<ClosedJaxpr> {
    let y_avals: Vec<Aval> = body.outs[c.nk..]
        .iter()
        .map(|a| strong(body.aval(a)))
        .collect();
    let mut avals = c.const_avals.clone();
    avals.extend(c.ct_avals());
    avals.extend(c.carry_avals.iter().cloned());
    avals.extend(c.x_avals.iter().cloned());
    avals.extend(pick(&y_avals, &c.fy));
    let closed = ClosedJaxpr {
        jaxpr: body.clone(),
        consts: vec![],
    };
    trace_body(&avals, |args| {
        let (consts, rest) = args.split_at(c.nc);
        let nkf = c.fk.iter().filter(|&&m| m).count();
        let ncf = c.fc.iter().filter(|&&m| m).count();
        let (ct_carry, rest) = rest.split_at(nkf);
        let (acc, rest) = rest.split_at(ncf);
        let (carry, rest) = rest.split_at(c.nk);
        let (x, cty) = rest.split_at(c.x_avals.len());
        let mut primals = consts.to_vec();
        primals.extend_from_slice(carry);
        primals.extend_from_slice(x);
        let f = forward(closed, &primals)?;
        let mut out_cts: Vec<Option<Value>> = vec![None; body.outs.len()];
        let mut it = ct_carry.iter();
        for (k, _) in c.fk.iter().enumerate().filter(|(_, &m)| m) {
            out_cts[k] = it.next().cloned();
        }
        let mut it = cty.iter();
        for (y, _) in c.fy.iter().enumerate().filter(|(_, &m)| m) {
            out_cts[c.nk + y] = it.next().cloned();
        }
        let g = backward(&f, &out_cts)?;
        let grad = |i: usize, like: &Value| match &g[i] {
            Some(v) => Ok(v.clone()),
            None => zeros_like(like, like.aval().dtype),
        };
        let mut outs = Vec::new();
        for (k, _) in c.fk.iter().enumerate().filter(|(_, &m)| m) {
            outs.push(grad(c.nc + k, &carry[k])?);
        }
        let mut it = acc.iter();
        for (i, _) in c.fc.iter().enumerate().filter(|(_, &m)| m) {
            let a = it.next().expect("one sum per float const");
            outs.push(match &g[i] {
                Some(v) => add(a, v)?,
                None => a.clone(),
            });
        }
        for (i, _) in c.fx.iter().enumerate().filter(|(_, &m)| m) {
            outs.push(grad(c.nc + c.nk + i, &x[i])?);
        }
        Ok(outs)
    })
}

/// The context of one scan equation's VJP (its `vjp_body` still empty).
fn context(p: &ScanParams, outs: &[Value], gs: &[Option<Value>]) -> Ctx {
    let body = p.body.jaxpr();
    let (nc, nk, n) = (p.num_consts, p.num_carry, p.length);
    let in_aval = |i: usize| strong(&body.avals[body.in_binders[i].0 as usize]);
    let diff = |a: &Aval| is_differentiable(a);
    let const_avals: Vec<Aval> = (0..nc).map(in_aval).collect();
    let carry_avals: Vec<Aval> = (nc..nc + nk).map(in_aval).collect();
    let x_avals: Vec<Aval> = (nc + nk..body.in_binders.len()).map(in_aval).collect();
    let fy: Vec<bool> = (0..p.num_ys())
        .map(|y| diff(outs[nk + y].aval()) && gs[nk + y].is_some())
        .collect();
    let mut carries_body = body.clone();
    carries_body.outs.truncate(nk);
    carries_body
        .outs
        .extend(body.in_binders[nc..nc + nk].iter().map(|&v| Atom::Var(v)));
    Ctx {
        nc,
        nk,
        fc: const_avals.iter().map(diff).collect(),
        fk: carry_avals.iter().map(diff).collect(),
        fx: x_avals.iter().map(diff).collect(),
        fy,
        const_avals,
        carry_avals,
        x_avals,
        carries_body,
        vjp_body: ClosedJaxpr {
            jaxpr: Jaxpr::default(),
            consts: vec![],
        },
        lp: Loop {
            length: n,
            reverse: p.reverse,
            segment: p.segment.clamp(1, n.max(1)),
            accept: p.accept,
        },
    }
}

/// Rows `[start, end)` of each of `vs`.
fn rows_of(vs: &[Value], start: usize, end: usize) -> Result<Vec<Value>> {
    vs.iter().map(|x| rows(x, start, end)).collect()
}

/// Each of `vs` (of `k * s` rows) split into `[k, s]`.
fn split_all(vs: &[Value], k: usize, s: usize) -> Result<Vec<Value>> {
    vs.iter().map(|x| split0(x, k, s)).collect()
}

/// The starting cotangent state: the final carry's cotangent and zero sums for the consts.
fn initial_cotangents(
    c: &Ctx,
    consts: &[Value],
    init: &[Value],
    gs: &[Option<Value>],
) -> Result<Vec<Value>> {
    let mut ct = Vec::new();
    for (i, v) in init.iter().enumerate().filter(|(i, _)| c.fk[*i]) {
        ct.push(match &gs[i] {
            Some(g) => g.clone(),
            None => zeros_like(v, v.aval().dtype)?,
        });
    }
    for (_, v) in consts.iter().enumerate().filter(|(i, _)| c.fc[*i]) {
        ct.push(zeros_like(v, v.aval().dtype)?);
    }
    Ok(ct)
}

/// The forward pass over the `k` full segments of `s` steps: the carry after them and the
/// checkpoints (the carry at each full segment's start, stacked).
fn checkpoints(
    c: &Ctx,
    body: &Jaxpr,
    consts: &[Value],
    init: &[Value],
    head: &[Value],
    (k, s): (usize, usize),
) -> Result<(Vec<Value>, Vec<Value>)> {
    let (nc, nk) = (c.nc, c.nk);
    let o = if s == 1 {
        bind_scan(c.carries_closed(), consts, init, head, c.lp(k, false))?
    } else {
        let seg_xs = split_all(head, k, s)?;
        let mut avals = c.const_avals.clone();
        avals.extend(c.carry_avals.iter().cloned());
        avals.extend(c.x_avals.iter().map(|a| stacked(a, &[s])));
        let mut inner = body.clone();
        inner.outs.truncate(nk);
        let outer = trace_body(&avals, |a| {
            let (cs, rest) = a.split_at(nc);
            let (carry, xseg) = rest.split_at(nk);
            let inner = ClosedJaxpr {
                jaxpr: inner,
                consts: vec![],
            };
            let mut o = bind_scan(inner, cs, carry, xseg, c.lp(s, false))?;
            o.extend_from_slice(carry);
            Ok(o)
        })?;
        bind_scan(outer, consts, init, &seg_xs, c.lp(k, false))?
    };
    Ok((o[..nk].to_vec(), o[nk..].to_vec()))
}

/// The backward pass over the `k` full segments of `s` steps, in reverse, from cotangent
/// state `ct`: the new state and the float xs' cotangents (`k * s` rows each).
#[allow(clippy::too_many_arguments)]
fn full_segments_backward(
    c: &Ctx,
    consts: &[Value],
    cps: Vec<Value>,
    head: &[Value],
    chead: &[Value],
    ct: &[Value],
    (k, s): (usize, usize),
) -> Result<(Vec<Value>, Vec<Value>)> {
    if s == 1 {
        return c.segment_backward(consts, &[], Some(cps), head, chead, ct, k);
    }
    let nc = c.nc;
    let mut seg_xs = cps;
    seg_xs.extend(split_all(head, k, s)?);
    seg_xs.extend(split_all(chead, k, s)?);
    let mut avals = c.const_avals.clone();
    avals.extend(c.ct_avals());
    avals.extend(c.carry_avals.iter().cloned());
    avals.extend(c.x_avals.iter().map(|a| stacked(a, &[s])));
    avals.extend(chead.iter().map(|v| {
        let mut sh = vec![s];
        sh.extend_from_slice(&v.aval().shape[1..]);
        Aval::new(sh, v.aval().dtype)
    }));
    let (nct, nx) = (ct.len(), c.x_avals.len());
    let outer = trace_body(&avals, |a| {
        let (cs, rest) = a.split_at(nc);
        let (ctv, rest) = rest.split_at(nct);
        let (c0, rest) = rest.split_at(c.nk);
        let (xseg, cseg) = rest.split_at(nx);
        let (mut next, ctx) = c.segment_backward(cs, c0, None, xseg, cseg, ctv, s)?;
        next.extend(ctx);
        Ok(next)
    })?;
    let mut o = bind_scan(outer, consts, ct, &seg_xs, c.lp(k, true))?;
    let ctx = o.split_off(nct);
    Ok((o, ctx.iter().map(merge0).collect::<Result<Vec<_>>>()?))
}

/// The input cotangents in input order: the carry and constant cotangents from the final
/// state `ct`, the xs cotangents joined from the segments' parts (in row order) and put back
/// in the scan's order.
fn assemble(
    c: &Ctx,
    reverse: bool,
    ct: Vec<Value>,
    ctx_parts: &[Vec<Value>],
    result: &mut [Option<Value>],
) -> Result<()> {
    let (nc, nk) = (c.nc, c.nk);
    let nxf = c.fx.iter().filter(|&&m| m).count();
    let mut ctxs = Vec::with_capacity(nxf);
    for j in 0..nxf {
        let parts: Vec<Value> = ctx_parts.iter().map(|p| p[j].clone()).collect();
        let joined = if parts.len() == 1 {
            parts[0].clone()
        } else {
            lax::concatenate(&mut Binder, &parts, 0)?
        };
        ctxs.push(if reverse { flip0(&joined)? } else { joined });
    }
    let mut it = ct.into_iter();
    for i in (0..nk).filter(|&i| c.fk[i]) {
        result[nc + i] = it.next();
    }
    for i in (0..nc).filter(|&i| c.fc[i]) {
        result[i] = it.next();
    }
    let mut it = ctxs.into_iter();
    for i in (0..c.x_avals.len()).filter(|&i| c.fx[i]) {
        result[nc + nk + i] = it.next();
    }
    Ok(())
}

/// The input cotangents (consts, init carry, xs) of a scan equation.
pub fn vjp(
    p: &ScanParams,
    ins: &[Value],
    outs: &[Value],
    gs: &[Option<Value>],
) -> Result<Vec<Option<Value>>> {
    let body = p.body.jaxpr();
    let (nc, nk, n) = (p.num_consts, p.num_carry, p.length);
    let mut c = context(p, outs, gs);
    let consts = &ins[..nc];
    let init = &ins[nc..nc + nk];
    let mut result: Vec<Option<Value>> = vec![None; ins.len()];
    if n == 0 {
        for k in 0..nk {
            result[nc + k] = gs[k].clone().filter(|_| c.fk[k]);
        }
        return Ok(result);
    }
    c.vjp_body = vjp_body(body, &c)?;
    let s = c.lp.segment;
    let (k, r) = (n / s, n % s);
    let orient = |v: &Value| if p.reverse { flip0(v) } else { Ok(v.clone()) };
    let xs: Vec<Value> = ins[nc + nk..].iter().map(orient).collect::<Result<_>>()?;
    let cty: Vec<Value> = (0..p.num_ys())
        .filter(|&y| c.fy[y])
        .map(|y| orient(gs[nk + y].as_ref().expect("fy: present")))
        .collect::<Result<_>>()?;
    let mut ct = initial_cotangents(&c, consts, init, gs)?;
    // Forward: the checkpoints and the carry after the full segments.
    let (mut c_rem, mut cps) = (init.to_vec(), Vec::new());
    if k > 0 {
        let head = rows_of(&xs, 0, k * s)?;
        (c_rem, cps) = checkpoints(&c, body, consts, init, &head, (k, s))?;
    }
    // Backward: the short last segment first, then the full segments in reverse.
    let mut ctx_parts: Vec<Vec<Value>> = Vec::new();
    if r > 0 {
        let (xseg, cseg) = (rows_of(&xs, k * s, n)?, rows_of(&cty, k * s, n)?);
        let (next, ctx) = c.segment_backward(consts, &c_rem, None, &xseg, &cseg, &ct, r)?;
        ct = next;
        ctx_parts.push(ctx);
    }
    if k > 0 {
        let (head, chead) = (rows_of(&xs, 0, k * s)?, rows_of(&cty, 0, k * s)?);
        let (next, ctx) = full_segments_backward(&c, consts, cps, &head, &chead, &ct, (k, s))?;
        ct = next;
        ctx_parts.insert(0, ctx);
    }
    assemble(&c, p.reverse, ct, &ctx_parts, &mut result)?;
    Ok(result)
}
