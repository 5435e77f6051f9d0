//! Jaxprs: programs in A-normal form. Variables are numbered; each equation applies one
//! primitive to atoms (variables or literals) and binds one or more new variables (a
//! multi-output equation prints as `a:f32[] b:i32[2] = prim c d`). The printer follows JAX's
//! format: `{ lambda consts ; inputs . let eqns in ( outs ) }`.

use std::fmt::{self, Write};

use super::{Aval, DType, Primitive};
use crate::util::{Error, Result};

/// A variable: an index into [`Jaxpr::avals`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Var(pub u32);

/// An equation operand.
#[derive(Debug, Clone, PartialEq)]
pub enum Atom {
    Var(Var),
    /// A scalar constant (a JS number), with its (weakly typed, 0-d) aval.
    Literal(f64, Aval),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Eqn {
    pub primitive: Primitive,
    pub inputs: Vec<Atom>,
    pub outputs: Vec<Var>,
}

/// The output avals of a primitive applied to operands of the given avals (one per output):
/// what `Jaxpr::typecheck` checks against (`rules::abstract_eval_multi`).
pub type AbstractEval<'a> = dyn Fn(&Primitive, &[&Aval]) -> Result<Vec<Aval>> + 'a;

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Jaxpr {
    /// The aval of every variable, indexed by `Var.0`.
    pub avals: Vec<Aval>,
    /// Variables bound to captured constants (the closed-over arrays), in order.
    pub const_binders: Vec<Var>,
    pub in_binders: Vec<Var>,
    pub eqns: Vec<Eqn>,
    pub outs: Vec<Atom>,
}

impl Jaxpr {
    pub fn aval<'a>(&'a self, atom: &'a Atom) -> &'a Aval {
        match atom {
            Atom::Var(v) => &self.avals[v.0 as usize],
            Atom::Literal(_, aval) => aval,
        }
    }

    /// Checks that every variable is bound once before use and that each equation's output
    /// avals (one per output; several for multi-output primitives) are what `abstract_eval`
    /// says they should be (`rules::abstract_eval_multi`).
    pub fn typecheck(&self, abstract_eval: &AbstractEval<'_>) -> Result<()> {
        let fail = |what: String| Err(Error::new("jaxpr typecheck", what));
        let mut bound = vec![false; self.avals.len()];
        let bind = |v: Var, bound: &mut Vec<bool>| -> Result<()> {
            match bound.get_mut(v.0 as usize) {
                Some(b) if !*b => {
                    *b = true;
                    Ok(())
                }
                Some(_) => fail(format!("variable {} bound twice", name(v))),
                None => fail(format!("variable {} has no aval", name(v))),
            }
        };
        for &v in self.const_binders.iter().chain(&self.in_binders) {
            bind(v, &mut bound)?;
        }
        let check_use = |a: &Atom, bound: &Vec<bool>| -> Result<()> {
            match a {
                Atom::Var(v) if !bound.get(v.0 as usize).copied().unwrap_or(false) => {
                    fail(format!("variable {} used before it is bound", name(*v)))
                }
                _ => Ok(()),
            }
        };
        for eqn in &self.eqns {
            for a in &eqn.inputs {
                check_use(a, &bound)?;
            }
            let ins: Vec<&Aval> = eqn.inputs.iter().map(|a| self.aval(a)).collect();
            let want = abstract_eval(&eqn.primitive, &ins)?;
            if eqn.outputs.len() != want.len() {
                return fail(format!(
                    "{} binds {} output(s), expected {}",
                    eqn.primitive.name(),
                    eqn.outputs.len(),
                    want.len()
                ));
            }
            for (out, want) in eqn.outputs.iter().zip(&want) {
                if &self.avals[out.0 as usize] != want {
                    return fail(format!(
                        "{} = {} has aval {:?}, expected {:?}",
                        name(*out),
                        eqn.primitive.name(),
                        self.avals[out.0 as usize],
                        want
                    ));
                }
                bind(*out, &mut bound)?;
            }
        }
        for a in &self.outs {
            check_use(a, &bound)?;
        }
        Ok(())
    }
}

/// JAX's variable names: a, b, …, z, ba, bb, …
pub fn name(v: Var) -> String {
    let mut n = v.0 as usize;
    let mut s = Vec::new();
    loop {
        s.push(b'a' + (n % 26) as u8);
        n /= 26;
        if n == 0 {
            break;
        }
    }
    s.reverse();
    String::from_utf8(s).expect("ascii")
}

/// The short type of an aval, e.g. `f32[2,3]`.
pub fn short_type(aval: &Aval) -> String {
    let t = match aval.dtype {
        DType::Bool => "bool",
        DType::Uint32 => "u32",
        DType::Int32 => "i32",
        DType::Float16 => "f16",
        DType::Float32 => "f32",
        DType::Float64 => "f64",
    };
    let dims: Vec<String> = aval.shape.iter().map(|d| d.to_string()).collect();
    format!("{t}[{}]", dims.join(","))
}

fn literal(value: f64, aval: &Aval) -> String {
    if aval.dtype.is_float() {
        format!("{value:?}")
    } else if aval.dtype == DType::Bool {
        (value != 0.0).to_string()
    } else {
        format!("{}", value as i64)
    }
}

impl fmt::Display for Jaxpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Variables are renamed in binding order (constants, inputs, equations), as JAX prints.
        let order = self.const_binders.iter().chain(&self.in_binders);
        let order = order.chain(self.eqns.iter().flat_map(|e| &e.outputs));
        let names: std::collections::HashMap<Var, String> = order
            .enumerate()
            .map(|(i, v)| (*v, name(Var(i as u32))))
            .collect();
        let var_name = |v: &Var| names.get(v).cloned().unwrap_or_else(|| format!("?{}", v.0));
        let binder = |v: &Var| format!("{}:{}", var_name(v), short_type(&self.avals[v.0 as usize]));
        let atom = |a: &Atom| match a {
            Atom::Var(v) => var_name(v),
            Atom::Literal(value, aval) => literal(*value, aval),
        };
        let consts: Vec<String> = self.const_binders.iter().map(binder).collect();
        let ins: Vec<String> = self.in_binders.iter().map(binder).collect();
        let mut s = String::from("{ lambda ");
        if !consts.is_empty() {
            write!(s, "{} ; ", consts.join(" "))?;
        }
        writeln!(s, "{}. let", ins.join(" "))?;
        for eqn in &self.eqns {
            let outs: Vec<String> = eqn.outputs.iter().map(binder).collect();
            let args: Vec<String> = eqn.inputs.iter().map(atom).collect();
            writeln!(
                s,
                "    {} = {} {}",
                outs.join(" "),
                eqn.primitive,
                args.join(" ")
            )?;
        }
        let outs: Vec<String> = self.outs.iter().map(atom).collect();
        write!(s, "  in ( {} ) }}", outs.join(", "))?;
        f.write_str(&s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_jax() {
        let names: Vec<String> = [0, 1, 25, 26, 27, 701, 702].map(|i| name(Var(i))).to_vec();
        assert_eq!(names, ["a", "b", "z", "ba", "bb", "baz", "bba"]);
    }

    /// A two-output equation (rules stand-in: `matmul` "returns" an f32 scalar and an i32[2]).
    #[test]
    fn multi_output_equations_print_and_typecheck() {
        let f = Aval::new(vec![], DType::Float32);
        let i = Aval::new(vec![2], DType::Int32);
        let j = Jaxpr {
            avals: vec![f.clone(), f.clone(), i.clone()],
            const_binders: vec![],
            in_binders: vec![Var(0)],
            eqns: vec![Eqn {
                primitive: Primitive::Matmul,
                inputs: vec![Atom::Var(Var(0))],
                outputs: vec![Var(1), Var(2)],
            }],
            outs: vec![Atom::Var(Var(2)), Atom::Var(Var(1))],
        };
        assert_eq!(
            j.to_string(),
            "{ lambda a:f32[]. let\n    b:f32[] c:i32[2] = matmul a\n  in ( c, b ) }"
        );
        let rule = |_: &Primitive, _: &[&Aval]| Ok(vec![f.clone(), i.clone()]);
        j.typecheck(&rule).unwrap();
        let one = |_: &Primitive, _: &[&Aval]| Ok(vec![f.clone()]);
        let e = j.typecheck(&one).unwrap_err();
        assert_eq!(
            e.message(),
            "jaxpr typecheck: matmul binds 2 output(s), expected 1"
        );
        let swapped = |_: &Primitive, _: &[&Aval]| Ok(vec![i.clone(), f.clone()]);
        let e = j.typecheck(&swapped).unwrap_err();
        assert!(e.message().contains("b = matmul has aval"), "{e}");
    }
}
