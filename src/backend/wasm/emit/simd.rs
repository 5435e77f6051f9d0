//! SIMD lowering of a kernel expression over a block of `4·u` consecutive output elements
//! (`u` vectors of four 32-bit lanes: f32x4 for float32, i32x4 for int32, uint32 and bool).
//!
//! Each node becomes one of:
//! - [`Aff`]: an int32 value affine in the lane number (`base + stride·lane`, `base` a known
//!   multiple of `align`): the output index, its sums and multiples, and divisions that do not
//!   cross a boundary inside the block (so `i / n` is uniform and `i % n` contiguous when the
//!   block cannot straddle a multiple of `n`);
//! - `Uni`: the same scalar in every lane (computed once with the scalar lowering);
//! - `Vec`: one v128 per vector.
//!
//! A load at a contiguous index is one `v128.load` per vector; at a uniform index a scalar
//! load and a splat; otherwise a gather of scalar loads (`loads`). A select computes both
//! branches on every lane; a load in a branch that not every lane makes anyway (a padded or
//! concatenated view's) checks its address against the memory's size. Operations with a
//! lane-wise SIMD instruction of the same IEEE / wrapping semantics use it; float32 exp, log,
//! sin, cos, tanh, asin and atan inline the vector bodies of `vmath` (within an ulp of the
//! interpreter, as the scalar routines), float32 remainders, uint32 division by a uniform
//! divisor and int32 index division of a non-negative dividend by a positive constant the
//! exact vector paths of `vrem`; anything else (erf, erfc, integer division by
//! varying divisors, f64) falls back to the scalar lowering once per lane, so every exact
//! result equals the cpu interpreter's bit for bit.

use std::collections::HashSet;

use walrus::ir::{BinaryOp as B, UnaryOp as U};
use walrus::ValType;

use super::affine::{uniform_facts, Aff};
use super::dsl::{cond, i32c, Var, E, S};
use super::simd_ops::{
    binary_ok, compare_op, lanes_const, splat_op, unary_ok, vector_binary, vector_cast,
};
use super::{ops, vmath, vrem, Cx};
use crate::core::DType;
use crate::kernel::{AluExp, AluKind, BinaryOp, UnaryOp};
use crate::util::Result;

mod loads;
mod threefry;

/// Lanes of one vector.
pub const LANES: usize = 4;

enum V {
    Aff(Aff),
    Uni(E),
    Vec(Vec<E>),
}

/// Whether `dtype` fits a 32-bit lane.
pub fn is32(dtype: DType) -> bool {
    matches!(
        dtype,
        DType::Float32 | DType::Int32 | DType::Uint32 | DType::Bool
    )
}

/// Whether `e` varies across lanes: depends on the output index (or, over r, on the
/// reduction index).
fn varies(e: &AluExp, over_r: bool) -> bool {
    let lane_var = if over_r {
        matches!(e.kind, AluKind::ReduceIndex)
    } else {
        matches!(e.kind, AluKind::Index)
    };
    lane_var || e.children().into_iter().any(|c| varies(c, over_r))
}

/// Adds to `out` the loads that every evaluation of `e` executes, whichever way its selects
/// go: a select's condition's loads, and those its two branches share.
fn must_loads(e: &AluExp, out: &mut HashSet<AluExp>) {
    match &e.kind {
        AluKind::Where(c, a, b) => {
            must_loads(c, out);
            let (mut la, mut lb) = (HashSet::new(), HashSet::new());
            must_loads(a, &mut la);
            must_loads(b, &mut lb);
            out.extend(la.into_iter().filter(|l| lb.contains(l)));
        }
        kind => {
            if matches!(kind, AluKind::Load { .. }) {
                out.insert(e.clone());
            }
            for c in e.children() {
                must_loads(c, out);
            }
        }
    }
}

/// Whether every load in `e` is one of `safe` (the same input at the same index).
fn loads_within(e: &AluExp, safe: &HashSet<AluExp>) -> bool {
    (!matches!(e.kind, AluKind::Load { .. }) || safe.contains(e))
        && e.children().into_iter().all(|c| loads_within(c, safe))
}

/// The lowering state of one block.
pub struct Simd<'a> {
    pub cx: &'a mut Cx,
    /// Vectors per block.
    pub u: usize,
    /// Lanes are consecutive reduction indices (else consecutive output indices).
    pub over_r: bool,
    /// Statements computing the values (in order, each once per evaluation).
    pub stmts: Vec<S>,
    /// Statements setting the per-lane output indices (at the start of each block).
    pub lane_sets: Vec<S>,
    lanes: Vec<Var>,
    /// How many nodes fell back to per-lane scalar code or gathers.
    pub fallbacks: usize,
    /// Whether the whole expression fell back (then SIMD gains nothing).
    pub root_fallback: bool,
    depth: usize,
    /// The loads the lowered expression executes for every lane whatever its selects choose:
    /// a select whose branches load only these may evaluate both branches on all lanes.
    safe_loads: HashSet<AluExp>,
    /// Inside a select's branch whose loads may be out of bounds on lanes that do not take it:
    /// loads other than `safe_loads` check their addresses against the memory's size.
    guarded: usize,
    /// The memory's size in pages, read on the first guarded load (`memory.size` on a shared
    /// memory is not free; a size read earlier is a safe bound while it grows).
    pages: Option<Var>,
}

impl<'a> Simd<'a> {
    pub fn new(cx: &'a mut Cx, u: usize, over_r: bool) -> Self {
        Simd {
            cx,
            u,
            over_r,
            stmts: vec![],
            lane_sets: vec![],
            lanes: vec![],
            fallbacks: 0,
            root_fallback: false,
            depth: 0,
            safe_loads: HashSet::new(),
            guarded: 0,
            pages: None,
        }
    }

    pub(super) fn width(&self) -> usize {
        self.u * LANES
    }

    /// Lowers `e` (a 32-bit expression) to one v128 per vector.
    pub fn lower_vecs(&mut self, e: &AluExp) -> Result<Vec<E>> {
        must_loads(e, &mut self.safe_loads);
        let v = self.lower(e)?;
        Ok(self.vecs(v, e.dtype))
    }

    /// The parts of `where(c, x, 0)`: `c` as lane masks (all ones where it holds) and `x`,
    /// whose loads that `c` does not make check their addresses, as in a select's branch.
    pub fn lower_masked(&mut self, c: &AluExp, x: &AluExp) -> Result<(Vec<E>, Vec<E>)> {
        must_loads(c, &mut self.safe_loads);
        let guard = usize::from(!loads_within(x, &self.safe_loads));
        let xc = self.lower(c)?;
        self.guarded += guard;
        let xx = self.lower(x);
        self.guarded -= guard;
        let xx = xx?;
        let masks = self.vecs(xc, DType::Bool);
        let masks = masks.into_iter().map(|m| m.v1(U::I32x4Neg)).collect();
        let V::Vec(masks) = self.bound(masks) else {
            unreachable!("bound returns vectors")
        };
        Ok((masks, self.vecs(xx, x.dtype)))
    }

    /// The output index of lane `l` (a local set at the start of each block).
    fn lane(&mut self, l: usize) -> Var {
        while self.lanes.len() <= l {
            let k = self.lanes.len();
            let v = self.cx.tmp(ValType::I32);
            self.lane_sets
                .push(v.set(self.lane_var().get() + i32c(k as i32)));
            self.lanes.push(v);
        }
        self.lanes[l]
    }

    /// The loop variable that differs between lanes.
    fn lane_var(&self) -> Var {
        if self.over_r {
            self.cx.reduce_index
        } else {
            self.cx.index
        }
    }

    fn set_lane_var(&mut self, v: Var) {
        if self.over_r {
            self.cx.reduce_index = v;
        } else {
            self.cx.index = v;
        }
    }

    pub(super) fn bind(&mut self, e: E) -> E {
        if matches!(e, E::Get(_) | E::I32(_) | E::F32(_) | E::V128(_)) {
            return e;
        }
        let v = self.cx.tmp(e.ty());
        self.stmts.push(v.set(e));
        v.get()
    }

    /// A uniform scalar of `dtype` (int32 as an affine value of stride 0).
    fn uni(&mut self, dtype: DType, e: E) -> V {
        let e = self.bind(e);
        if dtype == DType::Int32 {
            V::Aff(Aff {
                base: e,
                stride: 0,
                align: 1,
                nonneg: false,
            })
        } else {
            V::Uni(e)
        }
    }

    /// The scalar of a uniform value.
    fn scalar(v: &V) -> Option<E> {
        match v {
            V::Uni(e) => Some(e.clone()),
            V::Aff(a) if a.stride == 0 => Some(a.base.clone()),
            _ => None,
        }
    }

    /// One v128 per vector holding `v`.
    fn vecs(&mut self, v: V, dtype: DType) -> Vec<E> {
        match v {
            V::Vec(v) => v,
            V::Uni(e) => {
                let s = self.bind(e.v1(splat_op(dtype)));
                vec![s; self.u]
            }
            V::Aff(a) => {
                let splat = self.bind(a.base.v1(U::I32x4Splat));
                if a.stride == 0 {
                    return vec![splat; self.u];
                }
                (0..self.u)
                    .map(|u| {
                        let k = |l: usize| (a.stride * (u * LANES + l) as i64) as i32 as u32;
                        let step = lanes_const([k(0), k(1), k(2), k(3)]);
                        self.bind(splat.clone().v2(B::I32x4Add, step))
                    })
                    .collect()
            }
        }
    }

    /// Packs one scalar per lane into vectors.
    fn pack(&mut self, xs: Vec<E>, dtype: DType) -> Vec<E> {
        let replace = |idx| {
            if dtype == DType::Float32 {
                B::F32x4ReplaceLane { idx }
            } else {
                B::I32x4ReplaceLane { idx }
            }
        };
        (0..self.u)
            .map(|u| {
                let mut v = xs[u * LANES].clone().v1(splat_op(dtype));
                for l in 1..LANES {
                    v = v.v2(replace(l as u8), xs[u * LANES + l].clone());
                }
                self.bind(v)
            })
            .collect()
    }

    /// `e` computed by the scalar lowering once per lane.
    fn per_lane(&mut self, e: &AluExp) -> Result<V> {
        self.fallbacks += 1;
        self.root_fallback |= self.depth == 1;
        let saved = self.lane_var();
        let mut xs = Vec::with_capacity(self.width());
        for l in 0..self.width() {
            let lane = self.lane(l);
            self.set_lane_var(lane);
            let x = ops::lower(self.cx, e);
            self.set_lane_var(saved);
            xs.push(self.bind(x?));
        }
        Ok(V::Vec(self.pack(xs, e.dtype)))
    }

    /// `x op y` by the scalar lowering on each lane of the already computed operands (integer
    /// division of index arithmetic). Re-lowering the whole subtree per lane instead would
    /// emit it again at every level of a chain of divisions: quadratic code, and locals
    /// by the thousand.
    fn lanewise(&mut self, op: BinaryOp, dtype: DType, x: V, y: V) -> Result<V> {
        self.fallbacks += 1;
        // A uniform divisor stays a scalar (a constant one needs no guard).
        let uniform = Self::scalar(&y);
        let vx = self.vecs(x, dtype);
        let vy = match uniform {
            Some(_) => vec![],
            None => self.vecs(y, dtype),
        };
        let lane = |v: &[E], l: usize| {
            let idx = (l % LANES) as u8;
            v[l / LANES]
                .clone()
                .unop(U::I32x4ExtractLane { idx }, ValType::I32)
        };
        let mut xs = Vec::with_capacity(self.width());
        for l in 0..self.width() {
            let q = uniform.clone().unwrap_or_else(|| lane(&vy, l));
            xs.push(ops::binary(self.cx, op, dtype, lane(&vx, l), q)?);
        }
        Ok(V::Vec(self.pack(xs, dtype)))
    }

    /// Float32 `fmod(x, y)` per vector: `vrem`'s exact f64 quotient path, the scalar routine
    /// only for the lanes outside its range.
    fn fmod32(&mut self, x: V, y: V) -> V {
        let (vx, vy) = (self.vecs(x, DType::Float32), self.vecs(y, DType::Float32));
        let mut out = vec![];
        for (x, y) in vx.into_iter().zip(vy) {
            let (xv, yv) = (self.cx.tmp(ValType::V128), self.cx.tmp(ValType::V128));
            self.stmts.push(xv.set(x));
            self.stmts.push(yv.set(y));
            let (stmts, value) = vrem::fmod32(&mut self.cx.lib, &mut self.cx.module, xv, yv);
            self.stmts.extend(stmts);
            out.push(value);
        }
        V::Vec(out)
    }

    /// uint32 `x / d` or `x % d` by the uniform `d`: `vrem`'s multiply by a rounded-up
    /// reciprocal, exact.
    fn udiv_uniform(&mut self, rem: bool, x: V, d: E) -> V {
        let vx = self.vecs(x, DType::Uint32);
        let mut xs = vec![];
        for x in vx {
            let xv = self.cx.tmp(ValType::V128);
            self.stmts.push(xv.set(x));
            xs.push(xv);
        }
        let (stmts, out) = vrem::udiv_uniform(&mut self.cx.module, rem, &xs, d);
        self.stmts.extend(stmts);
        self.bound(out)
    }

    fn lower(&mut self, e: &AluExp) -> Result<V> {
        self.depth += 1;
        let v = self.lower_node(e);
        self.depth -= 1;
        v
    }

    fn lower_node(&mut self, e: &AluExp) -> Result<V> {
        if !varies(e, self.over_r) {
            let x = ops::lower(self.cx, e)?;
            if e.dtype == DType::Int32 {
                let (align, nonneg) = uniform_facts(e);
                return Ok(V::Aff(Aff {
                    base: self.bind(x),
                    stride: 0,
                    align,
                    nonneg,
                }));
            }
            return Ok(self.uni(e.dtype, x));
        }
        if e.children().into_iter().any(|c| !is32(c.dtype)) {
            return self.per_lane(e);
        }
        match &e.kind {
            AluKind::Index | AluKind::ReduceIndex => Ok(V::Aff(Aff {
                base: self.lane_var().get(),
                stride: 1,
                align: self.width() as u64,
                nonneg: true,
            })),
            AluKind::Load { input, index } => {
                let ix = self.lower(index)?;
                if self.guarded > 0 && !self.safe_loads.contains(e) {
                    return Ok(self.guarded_load(*input, e.dtype, ix));
                }
                Ok(self.load(*input, e.dtype, ix))
            }
            AluKind::Unary(op, a) => {
                let vector_math = e.dtype == DType::Float32 && vmath::has_vector(*op);
                if !unary_ok(*op, e.dtype) && !vector_math {
                    return self.per_lane(e);
                }
                let x = self.lower(a)?;
                self.unary(*op, e.dtype, x)
            }
            AluKind::Binary(op, a, b) => self.binary(e, *op, a, b),
            AluKind::Compare(op, a, b) => {
                let (x, y) = (self.lower(a)?, self.lower(b)?);
                if let (Some(x), Some(y)) = (Self::scalar(&x), Self::scalar(&y)) {
                    return Ok(self.uni(DType::Bool, ops::compare(*op, a.dtype, x, y)));
                }
                let (x, y) = (self.vecs(x, a.dtype), self.vecs(y, b.dtype));
                let code = compare_op(*op, a.dtype);
                let v = x
                    .into_iter()
                    .zip(y)
                    .map(|(x, y)| x.v2(code, y).v1(U::I32x4Neg))
                    .collect();
                Ok(self.bound(v))
            }
            AluKind::Where(c, a, b) => {
                // A lane's branch not taken may load out of bounds (a padded or
                // concatenated view), unless the load runs on every lane anyway: other loads
                // in the branches check their addresses.
                let guard = usize::from(
                    !loads_within(a, &self.safe_loads) || !loads_within(b, &self.safe_loads),
                );
                let (stmts, fallbacks) = (self.stmts.len(), self.fallbacks);
                let xc = self.lower(c)?;
                self.guarded += guard;
                let branches = self.lower(a).and_then(|xa| Ok((xa, self.lower(b)?)));
                self.guarded -= guard;
                let (xa, xb) = branches?;
                // Guarded gathers (a view that is not contiguous within the block) or other
                // per-lane code in both branches cost more than the chosen branch lane by lane.
                if guard == 1 && self.fallbacks > fallbacks {
                    self.stmts.truncate(stmts);
                    self.fallbacks = fallbacks;
                    return self.per_lane(e);
                }
                if let (Some(c), Some(a), Some(b)) =
                    (Self::scalar(&xc), Self::scalar(&xa), Self::scalar(&xb))
                {
                    return Ok(self.uni(e.dtype, cond(c, a, b)));
                }
                let c = self.vecs(xc, DType::Bool);
                let a = self.vecs(xa, e.dtype);
                let b = self.vecs(xb, e.dtype);
                let v = (0..self.u)
                    .map(|u| {
                        let mask = c[u].clone().v1(U::I32x4Neg);
                        E::Bitselect(
                            Box::new(a[u].clone()),
                            Box::new(b[u].clone()),
                            Box::new(mask),
                        )
                    })
                    .collect();
                Ok(self.bound(v))
            }
            AluKind::Cast(a) => {
                let x = self.lower(a)?;
                if let Some(s) = Self::scalar(&x) {
                    let c = ops::cast(s, a.dtype, e.dtype)?;
                    return Ok(self.uni(e.dtype, c));
                }
                let v = self.vecs(x, a.dtype);
                let v = v
                    .into_iter()
                    .map(|x| vector_cast(x, a.dtype, e.dtype))
                    .collect();
                Ok(self.bound(v))
            }
            AluKind::Bitcast(a) => {
                let x = self.lower(a)?;
                if let Some(s) = Self::scalar(&x) {
                    let c = ops::bitcast(s, a.dtype, e.dtype)?;
                    return Ok(self.uni(e.dtype, c));
                }
                Ok(V::Vec(self.vecs(x, a.dtype)))
            }
            AluKind::Threefry(mode, operands) => self.threefry(*mode, operands),
            AluKind::Const(_) => unreachable!("uniform, handled above"),
        }
    }

    fn bound(&mut self, v: Vec<E>) -> V {
        V::Vec(v.into_iter().map(|x| self.bind(x)).collect())
    }

    fn unary(&mut self, op: UnaryOp, dtype: DType, x: V) -> Result<V> {
        if let Some(s) = Self::scalar(&x) {
            let y = ops::unary(self.cx, op, dtype, s)?;
            return Ok(self.uni(dtype, y));
        }
        if let (V::Aff(a), UnaryOp::Neg) = (&x, op) {
            let base = self.bind(-a.base.clone());
            return Ok(V::Aff(Aff {
                base,
                stride: -a.stride,
                align: a.align,
                nonneg: false,
            }));
        }
        let v = self.vecs(x, dtype);
        if dtype == DType::Float32 && vmath::has_vector(op) {
            let mut out = vec![];
            for x in v {
                let arg = self.cx.tmp(ValType::V128);
                self.stmts.push(arg.set(x));
                let (stmts, value) = vmath::inline(&mut self.cx.lib, &mut self.cx.module, op, arg);
                self.stmts.extend(stmts);
                out.push(value);
            }
            return Ok(V::Vec(out));
        }
        let f = |x: E| -> E {
            use UnaryOp::*;
            match (op, dtype) {
                (Neg, DType::Float32) => x.v1(U::F32x4Neg),
                (Abs, DType::Float32) => x.v1(U::F32x4Abs),
                (Sqrt, _) => x.v1(U::F32x4Sqrt),
                (Floor, _) => x.v1(U::F32x4Floor),
                (Ceil, _) => x.v1(U::F32x4Ceil),
                (RoundEven, _) => x.v1(U::F32x4Nearest),
                (Reciprocal, _) => lanes_const([1f32.to_bits(); 4]).v2(B::F32x4Div, x),
                (Neg, _) => x.v1(U::I32x4Neg),
                (Abs, DType::Int32) => x.v1(U::I32x4Abs),
                (Abs, _) => x,
                (Not, DType::Bool) => x.v2(B::V128Xor, lanes_const([1; 4])),
                (Not, _) => x.v1(U::V128Not),
                _ => unreachable!("checked by unary_ok"),
            }
        };
        let v = v.into_iter().map(f).collect();
        Ok(self.bound(v))
    }

    fn binary(&mut self, e: &AluExp, op: BinaryOp, a: &AluExp, b: &AluExp) -> Result<V> {
        let dtype = e.dtype;
        let int_div = matches!(dtype, DType::Int32 | DType::Uint32)
            && matches!(op, BinaryOp::Div | BinaryOp::Rem);
        let float_rem = dtype == DType::Float32 && op == BinaryOp::Rem;
        if !binary_ok(op, dtype) && !int_div && !float_rem {
            return self.per_lane(e);
        }
        let (x, y) = (self.lower(a)?, self.lower(b)?);
        if let (V::Aff(p), V::Aff(q)) = (&x, &y) {
            if let Some(r) = self.affine(op, p, q) {
                return Ok(V::Aff(r));
            }
        }
        if let (Some(p), Some(q)) = (Self::scalar(&x), Self::scalar(&y)) {
            let z = ops::binary(self.cx, op, dtype, p, q)?;
            return Ok(self.uni(dtype, z));
        }
        if int_div {
            if let (DType::Uint32, Some(d)) = (dtype, Self::scalar(&y)) {
                return Ok(self.udiv_uniform(op == BinaryOp::Rem, x, d));
            }
            // Index arithmetic: a non-negative dividend over a positive constant divides the
            // same signed or unsigned.
            if let (V::Aff(p), V::Aff(q)) = (&x, &y) {
                let positive = matches!((q.stride, &q.base), (0, E::I32(k)) if *k > 0);
                if positive && p.nonneg && p.stride >= 0 {
                    let d = q.base.clone();
                    return Ok(self.udiv_uniform(op == BinaryOp::Rem, x, d));
                }
            }
            return self.lanewise(op, dtype, x, y);
        }
        if float_rem {
            return Ok(self.fmod32(x, y));
        }
        let shift = matches!(op, BinaryOp::Shl | BinaryOp::Shr);
        if shift {
            let Some(amount) = Self::scalar(&y) else {
                return self.per_lane(e);
            };
            let code = match op {
                BinaryOp::Shl => B::I32x4Shl,
                _ if dtype == DType::Int32 => B::I32x4ShrS,
                _ => B::I32x4ShrU,
            };
            let v = self.vecs(x, dtype);
            let v = v.into_iter().map(|x| x.v2(code, amount.clone())).collect();
            return Ok(self.bound(v));
        }
        let (vx, vy) = (self.vecs(x, dtype), self.vecs(y, dtype));
        let v = vx
            .into_iter()
            .zip(vy)
            .map(|(x, y)| vector_binary(op, dtype, x, y))
            .collect();
        Ok(self.bound(v))
    }
}
