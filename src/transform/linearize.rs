//! `linearize`: the forward pass runs once at the given primals; the map from input tangents
//! to output tangents (`t ↦ J t`, obtained by transposing the backward pass as `jvp` does) is
//! traced once into a closed Jaxpr whose constants are the residuals. Applied to concrete
//! tangents outside any trace, that Jaxpr runs as a compiled program (kept with the map, lowered
//! with fusion barriers before float reductions, so it computes the bits its equation-by-
//! equation evaluation does); inside a trace it is evaluated equation by equation. [`jvp`] on
//! concrete values is a linearization applied once.

use std::cell::OnceCell;

use super::autodiff::{self, forward, jvp_of_forward};
use super::jit::Compiled;
use super::trace::{self, ClosedJaxpr, Value};
use crate::core::Aval;
use crate::lower::Fusion;
use crate::util::{Error, Result};

pub struct Linearized {
    lin: ClosedJaxpr,
    avals: Vec<Aval>,
    compiled: OnceCell<Compiled>,
}

/// Whether `values` are all concrete arrays.
fn concrete(values: &[Value]) -> bool {
    values.iter().all(|v| matches!(v, Value::Concrete(_)))
}

/// Forward mode (`autodiff::jvp`); on concrete values outside any trace, with tangents of
/// their primals' avals, the tangent map is traced once and run as one compiled program.
pub fn jvp(
    closed: ClosedJaxpr,
    primals: &[Value],
    tangents: &[Value],
    n_diff: usize,
) -> Result<(Vec<Value>, Vec<Value>)> {
    let same = primals.len() == tangents.len()
        && primals.iter().zip(tangents).all(|(p, t)| {
            let (p, t) = (p.aval(), t.aval());
            p.shape == t.shape && p.dtype == t.dtype
        });
    if !(same && trace::top_frame().is_none() && concrete(primals) && concrete(tangents)) {
        return autodiff::jvp(closed, primals, tangents, n_diff);
    }
    let n_diff = n_diff.min(closed.jaxpr.outs.len());
    let (lin, outs) = Linearized::new(closed, primals, n_diff)?;
    Ok((outs, lin.apply(tangents)?))
}

impl Linearized {
    /// Runs `closed` at `primals`: its outputs and the linear map. Only the first `n_diff`
    /// outputs are differentiated (the rest are auxiliary).
    pub fn new(
        closed: ClosedJaxpr,
        primals: &[Value],
        n_diff: usize,
    ) -> Result<(Linearized, Vec<Value>)> {
        let fwd = forward(closed, primals)?;
        let outs = fwd.outputs()?;
        let avals: Vec<Aval> = primals.iter().map(|p| p.aval().clone()).collect();
        let (frame, ts) = trace::begin(&avals);
        let ts: Vec<Value> = ts.into_iter().map(Value::Tracer).collect();
        let tangents = match jvp_of_forward(&fwd, &outs[..n_diff], primals, &ts) {
            Ok(t) => t,
            Err(e) => {
                trace::abort(frame);
                return Err(e);
            }
        };
        let lin = trace::end("linearize", frame, &tangents)?;
        let compiled = OnceCell::new();
        Ok((
            Linearized {
                lin,
                avals,
                compiled,
            },
            outs,
        ))
    }

    /// The output tangents for input tangents `ts`.
    pub fn apply(&self, ts: &[Value]) -> Result<Vec<Value>> {
        if ts.len() != self.avals.len() {
            return Err(Error::new(
                "linearize",
                format!("{} tangents for {} primals", ts.len(), self.avals.len()),
            ));
        }
        for (i, (t, a)) in ts.iter().zip(&self.avals).enumerate() {
            if t.aval().shape != a.shape {
                return Err(Error::new(
                    "linearize",
                    format!(
                        "tangent {i} has shape {:?}, its primal {:?}",
                        t.aval().shape,
                        a.shape
                    ),
                ));
            }
        }
        let compilable = trace::top_frame().is_none()
            && concrete(ts)
            && concrete(&self.lin.consts)
            && ts
                .iter()
                .zip(&self.avals)
                .all(|(t, a)| t.aval().dtype == a.dtype)
            && self.lin.jaxpr.eqns.len() >= 2;
        if compilable {
            let compiled = self
                .compiled
                .get_or_init(|| Compiled::with_fusion(self.lin.clone(), Fusion::Barriers));
            if let Ok(outs) = compiled.call(ts) {
                return Ok(outs);
            }
            // Its error, if any, is the evaluation's below.
        }
        forward(self.lin.clone(), ts)?.outputs()
    }
}
