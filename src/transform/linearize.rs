//! `linearize`: the forward pass runs once at the given primals; the map from input tangents
//! to output tangents (`t ↦ J t`, obtained by transposing the backward pass as `jvp` does) is
//! traced once into a closed Jaxpr whose constants are the residuals. Applying it is a plain
//! evaluation of that Jaxpr, any number of times, until it is dropped.

use super::autodiff::{forward, jvp_of_forward};
use super::trace::{self, ClosedJaxpr, Value};
use crate::core::Aval;
use crate::util::{Error, Result};

pub struct Linearized {
    lin: ClosedJaxpr,
    avals: Vec<Aval>,
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
        Ok((Linearized { lin, avals }, outs))
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
        forward(self.lin.clone(), ts)?.outputs()
    }
}
