//! Abstract evaluation of `scan`: the operands must match the body's inputs (consts, carry,
//! and one row of each xs), the body must return carries of the carry's avals, and the outputs
//! are the final carries and the ys stacked along a new leading axis of `length`.

use crate::core::scan::ScanParams;
use crate::core::Aval;
use crate::util::{Error, Result};

fn same(a: &Aval, b: &Aval) -> bool {
    a.shape == b.shape && a.dtype == b.dtype
}

fn describe(a: &Aval) -> String {
    a.describe()
}

/// The avals of `final carry ++ ys`.
pub fn abstract_eval(p: &ScanParams, inputs: &[&Aval]) -> Result<Vec<Aval>> {
    let fail = |what: String| Err(Error::new("scan", what));
    let body = p.body.jaxpr();
    let n_in = body.in_binders.len();
    if p.num_consts + p.num_carry > n_in || p.num_carry > body.outs.len() {
        return fail("internal error: the body has too few inputs or outputs".into());
    }
    if inputs.len() != n_in {
        return fail(format!(
            "expected {n_in} operands (consts, carry, xs), got {}",
            inputs.len()
        ));
    }
    for (i, (op, &v)) in inputs.iter().zip(&body.in_binders).enumerate() {
        let want = &body.avals[v.0 as usize];
        if i < p.num_consts + p.num_carry {
            if !same(op, want) {
                return fail(format!(
                    "operand {i} is {} but the body takes {}",
                    describe(op),
                    describe(want)
                ));
            }
        } else {
            let rows_ok = op.shape.first() == Some(&p.length) && op.shape[1..] == want.shape[..];
            if !rows_ok || op.dtype != want.dtype {
                return fail(format!(
                    "xs operand {} is {}: expected {} rows of {}",
                    i - p.num_consts - p.num_carry,
                    describe(op),
                    p.length,
                    describe(want)
                ));
            }
        }
    }
    let mut outs = Vec::with_capacity(body.outs.len());
    for (i, atom) in body.outs.iter().enumerate() {
        let a = body.aval(atom);
        if i < p.num_carry {
            let init = inputs[p.num_consts + i];
            if !same(a, init) {
                return fail(format!(
                    "the body must return a carry of fixed shape and dtype: carry leaf {i} \
                     is {} initially but {} after a step",
                    describe(init),
                    describe(a)
                ));
            }
            outs.push(Aval::new(init.shape.clone(), init.dtype));
        } else {
            let mut shape = vec![p.length];
            shape.extend_from_slice(&a.shape);
            outs.push(Aval::new(shape, a.dtype));
        }
    }
    Ok(outs)
}
