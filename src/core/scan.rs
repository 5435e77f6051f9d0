//! Parameters of the `scan` primitive (`lax.scan`): the loop body as a Jaxpr and the loop's
//! shape. A scan equation's operands are `consts ++ init carry ++ xs` and its outputs
//! `final carry ++ ys` (ys stacked along a new leading axis of size `length`). The body takes
//! `consts ++ carry ++ x` (one row of each xs) and returns `new carry ++ y`; it has no
//! constants of its own (captured values are operands of the equation).

use std::fmt;
use std::hash::{Hash, Hasher};
use std::rc::Rc;

use super::jaxpr::Jaxpr;
use super::key::{structural_key, StructuralKey};

/// A scan body. Equality and hashing are structural (its [`StructuralKey`]: every aval,
/// parameter and literal), never by pointer nor by printed text, so equal bodies traced from
/// different closures compare equal and different ones never do (decision 7).
#[derive(Clone)]
pub struct Body {
    jaxpr: Rc<Jaxpr>,
    key: StructuralKey,
    text: Rc<str>,
}

impl Body {
    pub fn new(jaxpr: Jaxpr) -> Body {
        let text = jaxpr.to_string().into();
        Body {
            key: structural_key(&jaxpr),
            jaxpr: Rc::new(jaxpr),
            text,
        }
    }

    pub fn jaxpr(&self) -> &Jaxpr {
        &self.jaxpr
    }

    /// The printed program.
    pub fn text(&self) -> &str {
        &self.text
    }
}

impl PartialEq for Body {
    fn eq(&self, other: &Body) -> bool {
        self.key == other.key
    }
}

impl Eq for Body {}

impl Hash for Body {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.key.hash(state);
    }
}

impl fmt::Debug for Body {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// Which execution paths a scan accepts (`acceptPath`); running it on another is an error.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct AcceptPaths {
    /// A compiled loop on the device (one module call / dispatch / submit for all steps).
    pub fused: bool,
    /// A host loop running the body step by step.
    pub fallback: bool,
}

impl AcceptPaths {
    pub const ANY: AcceptPaths = AcceptPaths {
        fused: true,
        fallback: true,
    };
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ScanParams {
    pub body: Body,
    pub num_consts: usize,
    pub num_carry: usize,
    /// The number of steps (also the leading size of every xs and ys).
    pub length: usize,
    /// Steps run from the last row of xs to the first; ys keep the rows' order.
    pub reverse: bool,
    /// Reverse mode keeps the carry every `segment` steps and recomputes the ones between
    /// (1: keep every carry).
    pub segment: usize,
    pub accept: AcceptPaths,
}

impl ScanParams {
    pub fn num_xs(&self) -> usize {
        self.body.jaxpr().in_binders.len() - self.num_consts - self.num_carry
    }

    pub fn num_ys(&self) -> usize {
        self.body.jaxpr().outs.len() - self.num_carry
    }
}

/// The default checkpoint segment of a scan of `length` steps: ⌈√length⌉ (at least 1).
pub fn sqrt_segment(length: usize) -> usize {
    let mut s = (length as f64).sqrt().ceil() as usize;
    while s * s < length {
        s += 1;
    }
    s.max(1)
}
