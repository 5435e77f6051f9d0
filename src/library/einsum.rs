//! `einsum` over explicit subscripts (`"nij,njk->nik"`, or implicit output): pairs of operands
//! contract as batched matrix products (JAX's dot_general strategy), with transposes and
//! reshapes as views; indices used by one operand only are summed first.

use super::shape::{reshape, transpose};
use crate::core::ops::ReduceOp;
use crate::core::Primitive;
use crate::rules::lax;
use crate::transform::trace::Binder;
use crate::transform::Value;
use crate::util::{Error, Result};

fn err(problem: impl std::fmt::Display) -> Error {
    Error::new("einsum", problem)
}

/// Parses `spec` into the subscripts of each operand and of the output.
fn parse(spec: &str, n: usize) -> Result<(Vec<Vec<char>>, Vec<char>)> {
    if spec.contains("...") {
        return Err(err("ellipsis ('...') subscripts are not supported yet"));
    }
    let spec: String = spec.chars().filter(|c| !c.is_whitespace()).collect();
    let (ins, out) = match spec.split_once("->") {
        Some((i, o)) => (i.to_string(), Some(o.to_string())),
        None => (spec.clone(), None),
    };
    let inputs: Vec<Vec<char>> = ins.split(',').map(|s| s.chars().collect()).collect();
    if inputs.len() != n {
        return Err(err(format!(
            "{} operand subscripts for {n} arrays",
            inputs.len()
        )));
    }
    if let Some(c) = inputs.iter().flatten().find(|c| !c.is_ascii_alphabetic()) {
        return Err(err(format!("invalid subscript character {c:?}")));
    }
    let output: Vec<char> = match out {
        Some(o) => o.chars().collect(),
        None => {
            // Implicit output: the indices that appear exactly once, in alphabetical order.
            let mut once: Vec<char> = inputs.iter().flatten().copied().collect();
            once.sort_unstable();
            let all = once.clone();
            once.dedup();
            once.retain(|c| all.iter().filter(|d| *d == c).count() == 1);
            once
        }
    };
    if let Some(c) = output
        .iter()
        .find(|c| !inputs.iter().flatten().any(|d| d == *c))
    {
        return Err(err(format!(
            "output subscript {c:?} does not appear in the inputs"
        )));
    }
    Ok((inputs, output))
}

/// An operand with one subscript per axis.
struct Term {
    value: Value,
    subs: Vec<char>,
}

impl Term {
    fn size(&self, c: char) -> usize {
        let a = self.subs.iter().position(|&d| d == c).expect("subscript");
        self.value.aval().shape[a]
    }

    /// Sums away the subscripts in `drop`.
    fn sum(self, drop: &[char]) -> Result<Term> {
        let axes: Vec<usize> = (0..self.subs.len())
            .filter(|&a| drop.contains(&self.subs[a]))
            .collect();
        if axes.is_empty() {
            return Ok(self);
        }
        let value = lax::reduce(&mut Binder, ReduceOp::Sum, &self.value, axes.clone())?;
        let subs = (0..self.subs.len())
            .filter(|a| !axes.contains(a))
            .map(|a| self.subs[a])
            .collect();
        Ok(Term { value, subs })
    }

    /// The operand transposed so its subscripts follow `order`.
    fn arrange(&self, order: &[char]) -> Result<Value> {
        let perm: Vec<i64> = order
            .iter()
            .map(|c| self.subs.iter().position(|d| d == c).expect("subscript") as i64)
            .collect();
        transpose(&self.value, Some(&perm))
    }
}

/// Contracts two terms over `contract`, keeping the subscripts in `keep`.
fn contract(a: Term, b: Term, keep: &[char]) -> Result<Term> {
    let batch: Vec<char> = a
        .subs
        .iter()
        .copied()
        .filter(|c| b.subs.contains(c) && keep.contains(c))
        .collect();
    let summed: Vec<char> = a
        .subs
        .iter()
        .copied()
        .filter(|c| b.subs.contains(c) && !keep.contains(c))
        .collect();
    let free_a: Vec<char> = a
        .subs
        .iter()
        .copied()
        .filter(|c| !b.subs.contains(c))
        .collect();
    let free_b: Vec<char> = b
        .subs
        .iter()
        .copied()
        .filter(|c| !a.subs.contains(c))
        .collect();
    for c in batch.iter().chain(&summed) {
        if a.size(*c) != b.size(*c) {
            return Err(err(format!(
                "subscript {c:?} has sizes {} and {}",
                a.size(*c),
                b.size(*c)
            )));
        }
    }
    let prod = |subs: &[char], t: &Term| subs.iter().map(|&c| t.size(c)).product::<usize>();
    let (nb, m, k, n) = (
        prod(&batch, &a),
        prod(&free_a, &a),
        prod(&summed, &a),
        prod(&free_b, &b),
    );
    let order_a: Vec<char> = batch
        .iter()
        .chain(&free_a)
        .chain(&summed)
        .copied()
        .collect();
    let order_b: Vec<char> = batch
        .iter()
        .chain(&summed)
        .chain(&free_b)
        .copied()
        .collect();
    let lhs = reshape(&a.arrange(&order_a)?, vec![nb, m, k])?;
    let rhs = reshape(&b.arrange(&order_b)?, vec![nb, k, n])?;
    let product = super::half::bind_pair(Primitive::Matmul, &lhs, &rhs)?;
    let subs: Vec<char> = batch
        .iter()
        .chain(&free_a)
        .chain(&free_b)
        .copied()
        .collect();
    let shape: Vec<usize> = batch
        .iter()
        .map(|&c| a.size(c))
        .chain(free_a.iter().map(|&c| a.size(c)))
        .chain(free_b.iter().map(|&c| b.size(c)))
        .collect();
    Ok(Term {
        value: reshape(&product, shape)?,
        subs,
    })
}

pub fn einsum(spec: &str, operands: &[Value]) -> Result<Value> {
    let (inputs, output) = parse(spec, operands.len())?;
    let mut terms = Vec::new();
    for (v, subs) in operands.iter().zip(inputs) {
        if subs.len() != v.aval().shape.len() {
            return Err(err(format!(
                "subscripts {:?} for an array of rank {}",
                subs.iter().collect::<String>(),
                v.aval().shape.len()
            )));
        }
        let mut seen = subs.clone();
        seen.sort_unstable();
        if seen.windows(2).any(|w| w[0] == w[1]) {
            return Err(err(
                "repeated subscripts within one operand (diagonals) are not supported yet",
            ));
        }
        terms.push(Term {
            value: v.clone(),
            subs,
        });
    }
    // Sum indices that no other operand and not the output needs, then contract left to right.
    let mut acc: Option<Term> = None;
    let mut rest: Vec<Term> = terms;
    while !rest.is_empty() {
        let t = rest.remove(0);
        let all: Vec<&Term> = acc.iter().chain(rest.iter()).collect();
        let drop: Vec<char> = t
            .subs
            .iter()
            .copied()
            .filter(|&c| !output.contains(&c) && !all.iter().any(|o| o.subs.contains(&c)))
            .collect();
        let t = t.sum(&drop)?;
        acc = Some(match acc {
            None => t,
            Some(a) => {
                let keep: Vec<char> = a
                    .subs
                    .iter()
                    .chain(&t.subs)
                    .copied()
                    .filter(|&c| output.contains(&c) || rest.iter().any(|o| o.subs.contains(&c)))
                    .collect();
                contract(a, t, &keep)?
            }
        });
    }
    let result = acc.ok_or_else(|| err("needs at least one operand"))?;
    let result = {
        let drop: Vec<char> = result
            .subs
            .iter()
            .copied()
            .filter(|c| !output.contains(c))
            .collect();
        result.sum(&drop)?
    };
    result.arrange(&output)
}
