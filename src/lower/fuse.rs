//! The fusion pass. Every value is an expression of its element index ([`super::expr`]);
//! each equation's rule kernel (`rules::to_kernel`, written for logical inputs) gets its
//! operands' expressions substituted into its loads, and the result's index arithmetic
//! simplified (`kernel::simplify`: chains of views stay small and cheap to share). A value is
//! *materialised* — computed by a kernel into a slot, so consumers load it — when
//!
//! - its kernel reduces, or it is an output of the Jaxpr. A reduction's kernel is held back
//!   until its value is needed, so that elementwise operations on the result alone become
//!   the kernel's epilogue ([`super::epilogue`]: `mean` is one kernel), and, on devices whose limits
//!   ask for it, a reduction of a few terms with one use is written out in its consumer
//!   instead ([`super::inline_sum`]);
//! - it has several uses and is not cheap ([`super::expr::is_cheap`]): the Kernel IR is a tree
//!   without sharing, so fusing it would compute it once per use;
//! - a consumer reads its elements more than once (broadcast, matmul, conv, gather, sort,
//!   cumulative ops) and it is not cheap;
//! - its expression passes [`super::expr::MAX_NODES`] or [`super::expr::MAX_DEPTH`], or a kernel would bind more inputs
//!   than the device allows ([`super::split`]);
//! - lowering with [`Fusion::Barriers`], it is the computed operand of a float reduction
//!   ([`super::barrier`]).
//!
//! A finished kernel that `kernel::contract` stages (a large product of operands that both
//! read the contracted axis contiguously) becomes two steps: its column operand stored
//! transposed into a slot of its own, then the product. Equations without a kernel (several
//! outputs, or a rule that has none) become fallback steps on materialised operands.
//! Equations whose outputs are never used are dropped.

use std::collections::{HashMap, HashSet};

use super::barrier::{self, Fusion};
use super::epilogue::{self, Pending};
use super::expr::{self, is_cheap, slot_load, substitute, MAX_DEPTH, MAX_NODES};
use super::inline_sum::{repeats_few, unrolled};
use super::program::{Arg, Program, Slot, Step};
use super::split;
use crate::core::jaxpr::{Atom, Eqn, Jaxpr, Var};
use crate::core::{Aval, DType, Primitive};
use crate::kernel::split::Source;
use crate::kernel::{contract, simplify, AluExp, DeviceLimits, Kernel, Reduction};
use crate::rules::{self, Family};

pub(super) struct Fuser<'a> {
    jaxpr: &'a Jaxpr,
    pub(super) limits: DeviceLimits,
    program: Program,
    exprs: HashMap<Var, AluExp>,
    slots: HashMap<Var, Slot>,
    pub(super) uses: HashMap<Var, usize>,
    /// Reductions whose kernel is not emitted yet (see [`super::epilogue`]).
    pub(super) pending: HashMap<Var, Pending>,
    /// Reductions written out in their consumer (see [`super::inline_sum`]).
    inlined: HashSet<Var>,
    /// Values materialised as they are computed ([`super::barrier`]).
    barriers: HashSet<Var>,
}

/// Runs the fusion pass: the Program's steps and outputs (no frees yet).
pub fn fuse(jaxpr: &Jaxpr, limits: DeviceLimits, fusion: Fusion) -> Program {
    let barriers = match fusion {
        Fusion::Full => HashSet::new(),
        Fusion::Barriers => barrier::sources(jaxpr),
    };
    let mut f = Fuser {
        jaxpr,
        limits,
        program: Program::default(),
        exprs: HashMap::new(),
        slots: HashMap::new(),
        uses: HashMap::new(),
        pending: HashMap::new(),
        inlined: HashSet::new(),
        barriers,
    };
    for &v in jaxpr.const_binders.iter().chain(&jaxpr.in_binders) {
        let slot = f.program.new_slot(f.aval(v).clone());
        f.bind_slot(v, slot);
    }
    f.program.inputs = f.program.avals.len();
    let live = live_eqns(jaxpr);
    for (eqn, _) in jaxpr.eqns.iter().zip(&live).filter(|(_, &l)| l) {
        for a in &eqn.inputs {
            if let Atom::Var(v) = a {
                *f.uses.entry(*v).or_default() += 1;
            }
        }
    }
    for a in &jaxpr.outs {
        if let Atom::Var(v) = a {
            *f.uses.entry(*v).or_default() += 1;
        }
    }
    for (eqn, _) in jaxpr.eqns.iter().zip(&live).filter(|(_, &l)| l) {
        f.eqn(eqn);
    }
    let mut outputs = Vec::new();
    for a in &jaxpr.outs {
        outputs.push(match a {
            Atom::Var(v) => Arg::Slot(f.materialize(*v)),
            Atom::Literal(x, aval) => Arg::Literal(*x, aval.clone()),
        });
    }
    f.program.outputs = outputs;
    f.program
}

/// Which equations compute something the outputs need.
fn live_eqns(jaxpr: &Jaxpr) -> Vec<bool> {
    let mut needed: HashSet<Var> = HashSet::new();
    for a in &jaxpr.outs {
        if let Atom::Var(v) = a {
            needed.insert(*v);
        }
    }
    let mut live = vec![false; jaxpr.eqns.len()];
    for (i, eqn) in jaxpr.eqns.iter().enumerate().rev() {
        if eqn.outputs.iter().any(|v| needed.contains(v)) {
            live[i] = true;
            for a in &eqn.inputs {
                if let Atom::Var(v) = a {
                    needed.insert(*v);
                }
            }
        }
    }
    live
}

/// True when `prim`'s kernel reads each element of an operand of aval `input` at most once
/// per output it writes, so fusing an expensive producer does not repeat its work.
fn reads_once(prim: &Primitive, input: &Aval, out: &Aval) -> bool {
    match rules::family(prim) {
        Family::Elementwise => input.size() >= out.size(),
        Family::Reduce => true,
        Family::Movement => {
            !matches!(prim, Primitive::Broadcast { .. }) || input.size() >= out.size()
        }
        _ => false,
    }
}

/// A JS number as a constant of `dtype`, rounded as an eager weak scalar would be stored.
pub(super) fn literal(x: f64, dtype: DType) -> AluExp {
    let v = match dtype {
        DType::Float32 => x as f32 as f64,
        DType::Int32 => x as i32 as f64,
        DType::Uint32 => x as u32 as f64,
        DType::Bool => f64::from(u8::from(x != 0.0)),
        DType::Float16 => crate::core::f16::round(x),
        DType::Float64 => x,
    };
    AluExp::constant(dtype, v)
}

impl Fuser<'_> {
    pub(super) fn aval(&self, v: Var) -> &Aval {
        &self.jaxpr.avals[v.0 as usize]
    }

    /// The aval of an equation operand.
    pub(super) fn jaxpr_aval(&self, a: &Atom) -> Aval {
        self.jaxpr.aval(a).clone()
    }

    /// The expression of a variable that has been computed.
    pub(super) fn expr(&self, v: Var) -> &AluExp {
        &self.exprs[&v]
    }

    fn bind_slot(&mut self, v: Var, slot: Slot) {
        self.slots.insert(v, slot);
        let load = slot_load(self.aval(v).dtype, slot);
        self.exprs.insert(v, load);
    }

    /// The slot holding `v`, emitting its kernel first if it is still a fused expression.
    pub(super) fn materialize(&mut self, v: Var) -> Slot {
        if let Some(&s) = self.slots.get(&v) {
            return s;
        }
        let aval = self.aval(v).clone();
        let slot = match self.pending.remove(&v) {
            Some(p) => self.emit(p.exp, p.size, Some(p.reduction), p.epilogue, aval),
            None => {
                let exp = self.exprs[&v].clone();
                self.emit(exp, aval.size(), None, None, aval)
            }
        };
        self.bind_slot(v, slot);
        slot
    }

    /// Appends a kernel computing `exp` (loads of slots) into a new slot of `aval`.
    fn emit(
        &mut self,
        exp: AluExp,
        size: usize,
        reduction: Option<Reduction>,
        epilogue: Option<AluExp>,
        aval: Aval,
    ) -> Slot {
        let order = expr::slots(&exp);
        // Index arithmetic simplified once here, for every backend (`kernel::simplify`).
        let kernel = simplify::kernel(&Kernel {
            inputs: order.iter().map(|&s| self.program.avals[s].dtype).collect(),
            size,
            exp: expr::renumber(&exp, &order),
            reduction,
            epilogue,
        });
        // A product of operands that both read the contracted axis contiguously stores its
        // column operand transposed first (`kernel::contract`).
        let Some(steps) = contract::staged(&kernel, self.limits.max_kernel_inputs) else {
            return self.push_kernel(kernel, order, aval);
        };
        let stored = self.program.new_slot(Aval::new(
            vec![steps[0].kernel.size],
            steps[0].kernel.output_dtype(),
        ));
        let slots = |sources: &[Source]| -> Vec<Slot> {
            let to = |s: &Source| match *s {
                Source::Input(i) => order[i],
                Source::Step(_) => stored,
            };
            sources.iter().map(to).collect()
        };
        let [copy, product] = steps;
        self.program.steps.push(Step::Kernel {
            inputs: slots(&copy.sources),
            kernel: copy.kernel,
            output: stored,
        });
        self.push_kernel(product.kernel, slots(&product.sources), aval)
    }

    /// Appends a kernel step reading `inputs` into a new slot of `aval`.
    fn push_kernel(&mut self, kernel: Kernel, inputs: Vec<Slot>, aval: Aval) -> Slot {
        let output = self.program.new_slot(aval);
        self.program.steps.push(Step::Kernel {
            kernel,
            inputs,
            output,
        });
        output
    }

    pub(super) fn operand(&self, a: &Atom) -> AluExp {
        match a {
            Atom::Var(v) => self.exprs[v].clone(),
            Atom::Literal(x, aval) => literal(*x, aval.dtype),
        }
    }

    fn eqn(&mut self, eqn: &Eqn) {
        if epilogue::fold(self, eqn) {
            return;
        }
        // Everything else reads held-back reductions from their slots, or, a small one with
        // this use only, written out in its expression (`inline_sum`).
        for a in &eqn.inputs {
            if let Atom::Var(v) = a {
                if self.pending.contains_key(v) && !self.inline(*v) {
                    self.materialize(*v);
                }
            }
        }
        let [out] = eqn.outputs.as_slice() else {
            return self.fallback(eqn);
        };
        let out_aval = self.aval(*out).clone();
        let ins: Vec<Aval> = eqn
            .inputs
            .iter()
            .map(|a| self.jaxpr.aval(a).clone())
            .collect();
        let refs: Vec<&Aval> = ins.iter().collect();
        let Ok(kernel) = rules::to_kernel(&eqn.primitive, &refs, &out_aval) else {
            return self.fallback(eqn);
        };
        let terms = kernel.reduction.map(|r| r.size);
        for (a, aval) in eqn.inputs.iter().zip(&ins) {
            if let Atom::Var(v) = a {
                let repeat = self.inlined.contains(v) && repeats_few(aval, &out_aval, terms);
                if !reads_once(&eqn.primitive, aval, &out_aval)
                    && !is_cheap(&self.exprs[v])
                    && !repeat
                {
                    self.materialize(*v);
                }
            }
        }
        if !split::fit(self, eqn) {
            return self.fallback(eqn);
        }
        let operands: Vec<AluExp> = eqn.inputs.iter().map(|a| self.operand(a)).collect();
        let exp = simplify::simplify(
            &substitute(&kernel.exp, &operands),
            simplify::upto(kernel.size),
            kernel.reduction.map(|r| simplify::upto(r.size)),
        );
        if let Some(reduction) = kernel.reduction {
            let pending = Pending {
                exp,
                size: kernel.size,
                reduction,
                epilogue: None,
            };
            self.pending.insert(*out, pending);
            return;
        }
        let shared = self.uses.get(out).copied().unwrap_or(0) > 1 && !is_cheap(&exp);
        let big = expr::size(&exp) > MAX_NODES || expr::depth(&exp) > MAX_DEPTH;
        self.exprs.insert(*out, exp);
        if shared || big || self.barriers.contains(out) {
            self.materialize(*out);
        }
    }

    /// Writes the pending reduction `v` out as an expression when it is small and this is
    /// its one use (`inline_sum`); true when it did.
    fn inline(&mut self, v: Var) -> bool {
        if self.uses.get(&v) != Some(&1) || self.barriers.contains(&v) {
            return false;
        }
        let Some(exp) = unrolled(&self.pending[&v], self.limits.inline_terms) else {
            return false;
        };
        self.pending.remove(&v);
        self.exprs.insert(v, exp);
        self.inlined.insert(v);
        true
    }

    fn fallback(&mut self, eqn: &Eqn) {
        let mut inputs = Vec::with_capacity(eqn.inputs.len());
        for a in &eqn.inputs {
            inputs.push(match a {
                Atom::Var(v) => Arg::Slot(self.materialize(*v)),
                Atom::Literal(x, aval) => Arg::Literal(*x, aval.clone()),
            });
        }
        let mut outputs = Vec::with_capacity(eqn.outputs.len());
        for &v in &eqn.outputs {
            let slot = self.program.new_slot(self.aval(v).clone());
            self.bind_slot(v, slot);
            outputs.push(slot);
        }
        self.program.steps.push(Step::Fallback {
            primitive: eqn.primitive.clone(),
            inputs,
            outputs,
        });
    }
}
