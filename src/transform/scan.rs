//! Building `scan` equations: [`bind_scan`] turns a traced body (a [`ClosedJaxpr`]) into a
//! scan primitive whose body captures nothing (the body's lifted constants become the first
//! operands), and [`trace_body`] traces a body written in Rust (as the scan VJP does) with the
//! same begin/end brackets TypeScript uses.

use super::trace::{self, bind_multi, ClosedJaxpr, Operand, Value};
use crate::core::scan::{AcceptPaths, Body, ScanParams};
use crate::core::{Aval, Primitive};
use crate::util::Result;

/// The loop settings of a scan besides its body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Loop {
    pub length: usize,
    pub reverse: bool,
    pub segment: usize,
    pub accept: AcceptPaths,
}

/// Binds a scan of `closed` (inputs `consts ++ carry ++ x`, outputs `carry ++ y`) over
/// `consts`, `carry` and `xs`; returns `final carry ++ ys`.
pub fn bind_scan(
    closed: ClosedJaxpr,
    consts: &[Value],
    carry: &[Value],
    xs: &[Value],
    lp: Loop,
) -> Result<Vec<Value>> {
    let ClosedJaxpr {
        mut jaxpr,
        consts: lifted,
    } = closed;
    let mut binders = std::mem::take(&mut jaxpr.const_binders);
    binders.append(&mut jaxpr.in_binders);
    jaxpr.in_binders = binders;
    let params = ScanParams {
        body: Body::new(jaxpr),
        num_consts: lifted.len() + consts.len(),
        num_carry: carry.len(),
        length: lp.length,
        reverse: lp.reverse,
        segment: lp.segment.max(1),
        accept: lp.accept,
    };
    let ops: Vec<Operand> = lifted
        .iter()
        .chain(consts)
        .chain(carry)
        .chain(xs)
        .map(Operand::Value)
        .collect();
    bind_multi(Primitive::Scan(params), &ops)
}

/// Traces `f` on tracers of `avals` into a closed Jaxpr (nested in whatever traces are open).
pub fn trace_body(
    avals: &[Aval],
    f: impl FnOnce(&[Value]) -> Result<Vec<Value>>,
) -> Result<ClosedJaxpr> {
    let (frame, tracers) = trace::begin(avals);
    let args: Vec<Value> = tracers.into_iter().map(Value::Tracer).collect();
    match f(&args) {
        Ok(outs) => trace::end("scan", frame, &outs),
        Err(e) => {
            trace::abort(frame);
            Err(e)
        }
    }
}
