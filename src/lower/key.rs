//! Structural keys of Jaxprs (decision 7): variables renumbered in binding order, every
//! primitive with its parameters, every aval and literal. Two traces of the same code give the
//! same key whatever their variable numbering or the values of their captured constants, so a
//! fresh closure finds the Program lowered for an earlier one.

use std::collections::HashMap;
use std::fmt::Write;

use crate::core::jaxpr::{Atom, Jaxpr, Var};
use crate::core::Aval;

fn aval(s: &mut String, a: &Aval) {
    let _ = write!(
        s,
        "{:?}{:?}{}",
        a.dtype,
        a.shape,
        if a.weak { "w" } else { "" }
    );
}

pub fn structural_key(j: &Jaxpr) -> String {
    let mut s = String::new();
    let mut ids: HashMap<Var, usize> = HashMap::new();
    let _ = write!(s, "{} {};", j.const_binders.len(), j.in_binders.len());
    for &v in j.const_binders.iter().chain(&j.in_binders) {
        ids.insert(v, ids.len());
        aval(&mut s, &j.avals[v.0 as usize]);
        s.push(',');
    }
    let atom = |s: &mut String, ids: &HashMap<Var, usize>, a: &Atom| match a {
        Atom::Var(v) => {
            let _ = write!(s, "%{}", ids[v]);
        }
        Atom::Literal(x, a) => {
            let _ = write!(s, "#{:x}", x.to_bits());
            aval(s, a);
        }
    };
    for eqn in &j.eqns {
        let _ = write!(s, "\n{:?}(", eqn.primitive);
        for a in &eqn.inputs {
            atom(&mut s, &ids, a);
            s.push(' ');
        }
        s.push_str(")->");
        for &v in &eqn.outputs {
            ids.insert(v, ids.len());
            aval(&mut s, &j.avals[v.0 as usize]);
            s.push(' ');
        }
    }
    s.push_str("\nout ");
    for a in &j.outs {
        atom(&mut s, &ids, a);
        s.push(' ');
    }
    s
}
