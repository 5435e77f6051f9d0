//! Structural keys of Jaxprs (decision 7): the cache key of lowered programs and the identity of
//! scan bodies. A [`StructuralKey`] is the Jaxpr itself in canonical form — variables
//! renumbered in binding order, every primitive with its parameters (a scan's body by its own
//! key), every aval and literal (by its bits) — compared and hashed as data, never as printed
//! text, so two Jaxprs share a key exactly when they are the same program. Two traces of the
//! same code give the same key whatever their variable numbering or the values of their
//! captured constants, so a fresh closure finds the Program lowered for an earlier one.

use std::collections::HashMap;
use std::rc::Rc;

use super::jaxpr::{Atom, Jaxpr, Var};
use super::{Aval, Primitive};

/// A Jaxpr's structure; cheap to clone.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct StructuralKey(Rc<[Token]>);

/// One item of the canonical form. Counts come before what they count, so the sequence parses
/// back unambiguously (distinct programs never share a key).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Token {
    /// The numbers of constant and input binders; their avals follow.
    Binders(usize, usize),
    Aval(Aval),
    /// An equation: its primitive and its numbers of inputs and outputs; the input atoms and
    /// the output avals follow.
    Eqn(Primitive, usize, usize),
    /// A variable, by its position in binding order.
    Var(usize),
    /// A literal: its value's bits and its aval.
    Literal(u64, Aval),
    /// The number of outputs; their atoms follow.
    Outs(usize),
}

/// The structural key of `j`.
pub fn structural_key(j: &Jaxpr) -> StructuralKey {
    let mut t = Vec::with_capacity(2 + j.avals.len() * 2);
    let mut ids: HashMap<Var, usize> = HashMap::new();
    t.push(Token::Binders(j.const_binders.len(), j.in_binders.len()));
    for &v in j.const_binders.iter().chain(&j.in_binders) {
        ids.insert(v, ids.len());
        t.push(Token::Aval(j.avals[v.0 as usize].clone()));
    }
    let atom = |ids: &HashMap<Var, usize>, a: &Atom| match a {
        // A variable bound nowhere (an invalid Jaxpr) still gets a key of its own.
        Atom::Var(v) => Token::Var(ids.get(v).copied().unwrap_or(usize::MAX)),
        Atom::Literal(x, a) => Token::Literal(x.to_bits(), a.clone()),
    };
    for eqn in &j.eqns {
        let (ins, outs) = (eqn.inputs.len(), eqn.outputs.len());
        t.push(Token::Eqn(eqn.primitive.clone(), ins, outs));
        t.extend(eqn.inputs.iter().map(|a| atom(&ids, a)));
        for &v in &eqn.outputs {
            ids.insert(v, ids.len());
            t.push(Token::Aval(j.avals[v.0 as usize].clone()));
        }
    }
    t.push(Token::Outs(j.outs.len()));
    t.extend(j.outs.iter().map(|a| atom(&ids, a)));
    StructuralKey(t.into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::jaxpr::Eqn;
    use crate::core::ops::BinaryOp;
    use crate::core::scan::Body;
    use crate::core::DType;

    /// `out = in0 + literal`, with the literal's aval given.
    fn add_literal(literal: Aval, value: f64) -> Jaxpr {
        let f32 = Aval::new(vec![], DType::Float32);
        Jaxpr {
            avals: vec![f32.clone(), f32],
            const_binders: vec![],
            in_binders: vec![Var(0)],
            eqns: vec![Eqn {
                primitive: Primitive::Binary(BinaryOp::Add),
                inputs: vec![Atom::Var(Var(0)), Atom::Literal(value, literal)],
                outputs: vec![Var(1)],
            }],
            outs: vec![Atom::Var(Var(1))],
        }
    }

    #[test]
    fn programs_that_print_alike_have_different_keys() {
        let weak = Aval {
            weak: true,
            ..Aval::new(vec![], DType::Float32)
        };
        let strong = Aval::new(vec![], DType::Float32);
        let (a, b) = (add_literal(weak.clone(), 1.0), add_literal(strong, 1.0));
        assert_eq!(
            a.to_string(),
            b.to_string(),
            "the printer shows no literal aval"
        );
        assert_ne!(structural_key(&a), structural_key(&b));
        assert_ne!(Body::new(a.clone()), Body::new(b));
        // 0.0 and -0.0 compare equal as f64, but they are different programs: keys use bits.
        assert_ne!(
            structural_key(&add_literal(weak.clone(), 0.0)),
            structural_key(&add_literal(weak.clone(), -0.0))
        );
        // Renumbered variables: the same key.
        let mut c = a.clone();
        c.avals.push(c.avals[0].clone());
        c.in_binders = vec![Var(2)];
        c.eqns[0].inputs[0] = Atom::Var(Var(2));
        assert_eq!(structural_key(&a), structural_key(&c));
        assert_eq!(Body::new(a), Body::new(c));
    }
}
