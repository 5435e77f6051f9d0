//! The trace stack (ARCHITECTURE.md decision 1). TypeScript brackets a traced function: [`begin`]
//! pushes a staging frame and returns tracers for its inputs, the user's function runs in JS
//! and every operation on a tracer is recorded by [`bind`] (or [`bind_multi`] for primitives
//! with several outputs), then [`end`] pops the frame and returns the closed Jaxpr. Rust never
//! calls into JS.
//!
//! Operations bind at the top frame (JAX's omnistaging): values from outside it — concrete
//! arrays, or tracers of a frame below — are lifted into constants owned by the Jaxpr
//! (decision 3), so disposing a JS handle can never invalidate anything the trace needs.

use crate::util::panic_cell::PanicCell;
use std::collections::HashMap;
use std::rc::Rc;

use super::eval;
use super::value::ArrayValue;
use crate::core::jaxpr::{Atom, Eqn, Jaxpr, Var};
use crate::core::view::ShapeTracker;
use crate::core::{Aval, DType, Device, Primitive};
use crate::rules;
use crate::rules::emit::{Arg, Emit};
use crate::util::{Error, Result};

/// A value being traced: a variable of a frame's Jaxpr.
#[derive(Debug, Clone)]
pub struct Tracer {
    pub frame: u64,
    pub var: Var,
    pub aval: Aval,
}

/// What a JS array handle refers to.
#[derive(Debug, Clone)]
pub enum Value {
    Concrete(ArrayValue),
    Tracer(Tracer),
}

impl Value {
    pub fn aval(&self) -> &Aval {
        match self {
            Value::Concrete(v) => &v.aval,
            Value::Tracer(t) => &t.aval,
        }
    }

    /// The concrete array, or an error saying that traced values have no data yet.
    pub fn concrete(&self, function: &str) -> Result<&ArrayValue> {
        match self {
            Value::Concrete(v) => Ok(v),
            Value::Tracer(_) => Err(Error::new(
                function,
                "cannot read a traced value (inside jit, grad, vmap or makeJaxpr the data does \
                 not exist yet); return it from the function instead",
            )),
        }
    }
}

/// An operation's operand: an array, or a JS number that adopts its partner's dtype.
#[derive(Clone)]
pub enum Operand<'a> {
    Value(&'a Value),
    Literal(f64),
}

impl<'a> Operand<'a> {
    pub fn value(&self) -> Option<&'a Value> {
        match self {
            Operand::Value(v) => Some(v),
            Operand::Literal(_) => None,
        }
    }
}

/// The dtype JS numbers take in `prim`: that of the first array operand (not where's
/// condition). Meeting a bool array (or no array), a number is a number, as in JAX: int32
/// when every number of the operation is an integer (`boolArray.add(1)`, `maximum(b, 0)`),
/// else float32 (`boolArray.add(1.5)`).
fn literal_dtype(prim: &Primitive, operands: &[Operand]) -> DType {
    let skip = usize::from(*prim == Primitive::Where);
    match operands.iter().skip(skip).find_map(Operand::value) {
        Some(v) if v.aval().dtype != DType::Bool => v.aval().dtype,
        Some(_) => {
            let integral = operands.iter().all(|o| match o {
                Operand::Literal(x) => x.fract() == 0.0 && x.abs() <= i32::MAX as f64,
                Operand::Value(_) => true,
            });
            if integral {
                DType::Int32
            } else {
                DType::Float32
            }
        }
        None => DType::Float32,
    }
}

/// A Jaxpr with the values of its constants.
#[derive(Debug, Clone)]
pub struct ClosedJaxpr {
    pub jaxpr: Jaxpr,
    pub consts: Vec<Value>,
}

/// Identity of a lifted constant, so one outer array used twice becomes one constant.
#[derive(Hash, PartialEq, Eq)]
enum ConstKey {
    /// The buffer, the aval and the view: two views of one buffer are different constants.
    Buffer(usize, Aval, ShapeTracker),
    Tracer(u64, Var),
}

struct Frame {
    id: u64,
    /// The device of the arrays the trace was opened on (what its tracers report).
    device: Option<Device>,
    jaxpr: Jaxpr,
    consts: Vec<Value>,
    const_vars: HashMap<ConstKey, Var>,
}

impl Frame {
    fn new_var(&mut self, aval: Aval) -> Var {
        self.jaxpr.avals.push(aval);
        Var(self.jaxpr.avals.len() as u32 - 1)
    }

    /// The atom for `value` in this frame, lifting outside values into constants.
    fn atom(&mut self, function: &str, value: &Value, live: &[u64]) -> Result<Atom> {
        let key = match value {
            Value::Tracer(t) if t.frame == self.id => return Ok(Atom::Var(t.var)),
            Value::Tracer(t) if !live.contains(&t.frame) => return Err(leaked(function)),
            Value::Tracer(t) => ConstKey::Tracer(t.frame, t.var),
            Value::Concrete(c) => ConstKey::Buffer(
                Rc::as_ptr(&c.buffer) as usize,
                c.aval.clone(),
                c.view.clone(),
            ),
        };
        if let Some(&v) = self.const_vars.get(&key) {
            return Ok(Atom::Var(v));
        }
        let var = self.new_var(value.aval().clone());
        self.jaxpr.const_binders.push(var);
        self.consts.push(value.clone());
        self.const_vars.insert(key, var);
        Ok(Atom::Var(var))
    }
}

fn leaked(function: &str) -> Error {
    Error::new(
        function,
        "a tracer escaped the function that created it (its trace has ended); return values \
         from traced functions instead of storing them outside",
    )
}

thread_local! {
    static STACK: PanicCell<Vec<Frame>> = const { PanicCell::new(Vec::new()) };
    static NEXT_FRAME: PanicCell<u64> = const { PanicCell::new(1) };
}

/// Runs `f` with the trace stack borrowed (a test hook: a panic inside must not leave the
/// stack unusable).
#[doc(hidden)]
pub fn while_borrowed(f: impl FnOnce()) {
    STACK.with(|s| {
        let _held = s.borrow_mut();
        f()
    })
}

/// The id of the innermost running trace, if any.
pub fn top_frame() -> Option<u64> {
    STACK.with(|s| s.borrow().last().map(|f| f.id))
}

/// Pushes a staging frame with one input variable per aval; returns its id and the tracers.
pub fn begin(inputs: &[Aval]) -> (u64, Vec<Tracer>) {
    let id = NEXT_FRAME.with(|n| {
        let mut n = n.borrow_mut();
        *n += 1;
        *n - 1
    });
    let mut frame = Frame {
        id,
        device: None,
        jaxpr: Jaxpr::default(),
        consts: Vec::new(),
        const_vars: HashMap::new(),
    };
    let tracers = inputs
        .iter()
        .map(|aval| {
            let var = frame.new_var(aval.clone());
            frame.jaxpr.in_binders.push(var);
            Tracer {
                frame: id,
                var,
                aval: aval.clone(),
            }
        })
        .collect();
    STACK.with(|s| s.borrow_mut().push(frame));
    (id, tracers)
}

/// Records the device of the arrays trace `id` was opened on (`None`: unknown).
pub fn set_device(id: u64, device: Option<Device>) {
    STACK.with(|s| {
        if let Some(f) = s.borrow_mut().iter_mut().find(|f| f.id == id) {
            f.device = device;
        }
    });
}

/// The device of the arrays trace `id` was opened on, while it is open and that is known:
/// where its tracers' values will live when the traced function runs on those arrays.
pub fn device(id: u64) -> Option<Device> {
    STACK.with(|s| {
        s.borrow()
            .iter()
            .find(|f| f.id == id)
            .and_then(|f| f.device)
    })
}

/// Pops frame `id` (which must be on top) and closes its Jaxpr over `outs`.
pub fn end(function: &str, id: u64, outs: &[Value]) -> Result<ClosedJaxpr> {
    STACK.with(|s| {
        let mut stack = s.borrow_mut();
        match stack.last() {
            Some(top) if top.id == id => {}
            _ => {
                return Err(Error::new(
                    function,
                    "internal error: trace ended out of order",
                ))
            }
        }
        let live: Vec<u64> = stack.iter().map(|f| f.id).collect();
        let mut frame = stack.pop().expect("checked above");
        let atoms = outs
            .iter()
            .map(|v| frame.atom(function, v, &live))
            .collect::<Result<_>>();
        frame.jaxpr.outs = atoms?;
        Ok(ClosedJaxpr {
            jaxpr: frame.jaxpr,
            consts: frame.consts,
        })
    })
}

/// Drops frame `id` and every frame above it (after the traced function threw).
pub fn abort(id: u64) {
    STACK.with(|s| {
        let mut stack = s.borrow_mut();
        if let Some(pos) = stack.iter().position(|f| f.id == id) {
            stack.truncate(pos);
        }
    });
}

/// Applies single-output `prim`: eagerly when nothing is being traced, else recorded in the
/// top frame. Multi-output primitives go through [`bind_multi`].
pub fn bind(prim: Primitive, operands: &[Operand]) -> Result<Value> {
    let name = prim.name();
    let mut outs = bind_multi(prim, operands)?;
    match outs.len() {
        1 => Ok(outs.pop().expect("one output")),
        n => Err(Error::new(
            name,
            format!("internal error: {n} outputs bound as one (use bind_multi)"),
        )),
    }
}

/// Applies `prim` and returns all of its outputs, in order (one value for single-output
/// primitives; e.g. final carries then stacked ys for `scan`). Eagerly, through
/// [`eval::apply_multi`], when nothing is being traced; else one equation with several
/// outputs (`rules::abstract_eval_multi` gives their avals) is recorded in the top frame.
///
/// Operands may all be JS numbers (a library composition applying a step to a number, as
/// `atan2(x, 2)` does): the result is then a weak scalar, placed where [`super::scope`] says.
pub fn bind_multi(prim: Primitive, operands: &[Operand]) -> Result<Vec<Value>> {
    let partner = operands.iter().find_map(Operand::value);
    let dtype = literal_dtype(&prim, operands);
    let literal_aval = || Aval {
        shape: vec![],
        dtype,
        weak: true,
    };
    let tracing = STACK.with(|s| !s.borrow().is_empty());
    if !tracing {
        return bind_eager(prim, operands, partner, dtype);
    }
    STACK.with(|s| {
        let mut stack = s.borrow_mut();
        let live: Vec<u64> = stack.iter().map(|f| f.id).collect();
        let frame = stack.last_mut().expect("tracing");
        let mut atoms = Vec::with_capacity(operands.len());
        for o in operands {
            atoms.push(match o {
                Operand::Value(v) => frame.atom(prim.name(), v, &live)?,
                Operand::Literal(x) => Atom::Literal(*x, literal_aval()),
            });
        }
        let avals: Vec<&Aval> = atoms.iter().map(|a| frame.jaxpr.aval(a)).collect();
        let out_avals = rules::abstract_eval_multi(&prim, &avals)?;
        let vars: Vec<Var> = out_avals.iter().map(|a| frame.new_var(a.clone())).collect();
        frame.jaxpr.eqns.push(Eqn {
            primitive: prim,
            inputs: atoms,
            outputs: vars.clone(),
        });
        Ok(vars
            .into_iter()
            .zip(out_avals)
            .map(|(var, aval)| {
                Value::Tracer(Tracer {
                    frame: frame.id,
                    var,
                    aval,
                })
            })
            .collect())
    })
}

fn bind_eager(
    prim: Primitive,
    operands: &[Operand],
    partner: Option<&Value>,
    dtype: DType,
) -> Result<Vec<Value>> {
    let device = match partner {
        Some(p) => p.concrete(prim.name())?.device,
        None => super::scope::device(),
    };
    let mut held = Vec::with_capacity(operands.len());
    for o in operands {
        held.push(match o {
            Operand::Value(v) => match v {
                Value::Concrete(c) => c.clone(),
                Value::Tracer(_) => return Err(leaked(prim.name())),
            },
            Operand::Literal(x) => ArrayValue::weak_scalar(prim.name(), *x, dtype, device)?,
        });
    }
    let refs: Vec<&ArrayValue> = held.iter().collect();
    let outs = eval::apply_multi(&prim, &refs)?;
    Ok(outs.into_iter().map(Value::Concrete).collect())
}

/// JS number `x` as a weakly typed 0-d array of `dtype`, placed where [`super::scope`] says
/// (inside a trace it becomes one of the Jaxpr's constants).
pub fn weak_scalar(function: &str, x: f64, dtype: DType) -> Result<Value> {
    let device = super::scope::device();
    Ok(Value::Concrete(ArrayValue::weak_scalar(
        function, x, dtype, device,
    )?))
}

/// An operand of a bind as an operand of the `rules::lax` builders.
impl<'a> From<Operand<'a>> for Arg<'a, Value> {
    fn from(o: Operand<'a>) -> Self {
        match o {
            Operand::Value(v) => Arg::V(v),
            Operand::Literal(x) => Arg::Lit(x),
        }
    }
}

/// Emits operations by binding them on the trace stack: the emitter of the rules and of the
/// `rules::lax` builders wherever values are [`Value`]s (transformations and the library).
pub struct Binder;

fn operands<'a>(ins: &'a [Arg<'_, Value>]) -> Vec<Operand<'a>> {
    ins.iter()
        .map(|a| match a {
            Arg::V(v) => Operand::Value(v),
            Arg::Lit(x) => Operand::Literal(*x),
        })
        .collect()
}

impl Emit for Binder {
    type V = Value;

    fn bind(&mut self, prim: Primitive, ins: &[Arg<'_, Value>]) -> Result<Value> {
        bind(prim, &operands(ins))
    }

    fn bind_multi(&mut self, prim: Primitive, ins: &[Arg<'_, Value>]) -> Result<Vec<Value>> {
        bind_multi(prim, &operands(ins))
    }

    fn aval(&self, v: &Value) -> Aval {
        v.aval().clone()
    }
}
