//! `einsum` over subscripts (`"nij,njk->nik"`, or implicit output; `...` for broadcast axes;
//! a subscript repeated in one operand takes its diagonal, so `"ii->"` is the trace): pairs of
//! operands contract as batched matrix products (JAX's dot_general strategy), with transposes
//! and reshapes as views; indices used by one operand only are summed first.

use super::shape::{reshape, transpose};
use crate::core::ops::ReduceOp;
use crate::rules::lax;
use crate::transform::trace::Binder;
use crate::transform::Value;
use crate::util::{Error, Result};

fn err(problem: impl std::fmt::Display) -> Error {
    Error::new("einsum", problem)
}

/// The subscript of the `i`th axis an ellipsis stands for (a private-use character, so it never
/// collides with a letter the caller wrote). Ellipsis axes align from the right, as NumPy's do.
fn ellipsis_sub(i: usize) -> char {
    char::from_u32(0xE000 + i as u32).expect("a private-use character")
}

/// One operand's (or the output's) subscripts with `...` expanded to the last `k` of the
/// `width` ellipsis subscripts.
fn expand(term: &str, k: usize, width: usize) -> Vec<char> {
    let ell = (width - k..width).map(ellipsis_sub);
    match term.split_once("...") {
        Some((pre, post)) => pre.chars().chain(ell).chain(post.chars()).collect(),
        None => term.chars().collect(),
    }
}

/// Parses `spec` for operands of `ranks` into the subscripts of each operand and of the
/// output, with `...` expanded (broadcast axes, aligned from the right).
fn parse(spec: &str, ranks: &[usize]) -> Result<(Vec<Vec<char>>, Vec<char>)> {
    let spec: String = spec.chars().filter(|c| !c.is_whitespace()).collect();
    let (ins, out) = match spec.split_once("->") {
        Some((i, o)) => (i.to_string(), Some(o.to_string())),
        None => (spec.clone(), None),
    };
    let terms: Vec<&str> = ins.split(',').collect();
    if terms.len() != ranks.len() {
        return Err(err(format!(
            "{} operand subscripts for {} arrays",
            terms.len(),
            ranks.len()
        )));
    }
    for t in terms.iter().copied().chain(out.as_deref()) {
        if t.matches("...").count() > 1 {
            return Err(err(format!("more than one ellipsis in {t:?}")));
        }
        let letters = t.replacen("...", "", 1);
        if let Some(c) = letters.chars().find(|c| !c.is_ascii_alphabetic()) {
            return Err(err(format!("invalid subscript character {c:?}")));
        }
    }
    // How many axes each operand's ellipsis stands for.
    let mut widths = Vec::with_capacity(terms.len());
    for (t, &rank) in terms.iter().zip(ranks) {
        let named = t.replacen("...", "", 1).chars().count();
        let k = match (t.contains("..."), rank.checked_sub(named)) {
            (true, Some(k)) => k,
            (false, Some(0)) => 0,
            _ => return Err(err(format!("subscripts {t:?} for an array of rank {rank}"))),
        };
        widths.push(k);
    }
    let width = widths.iter().copied().max().unwrap_or(0);
    let inputs: Vec<Vec<char>> = terms
        .iter()
        .zip(&widths)
        .map(|(t, &k)| expand(t, k, width))
        .collect();
    let output: Vec<char> = match out {
        Some(o) => expand(&o, width, width),
        None => {
            // Implicit output: the ellipsis axes, then the indices that appear exactly once,
            // in alphabetical order.
            let mut once: Vec<char> = inputs
                .iter()
                .flatten()
                .copied()
                .filter(char::is_ascii_alphabetic)
                .collect();
            once.sort_unstable();
            let all = once.clone();
            once.dedup();
            once.retain(|c| all.iter().filter(|d| *d == c).count() == 1);
            (0..width).map(ellipsis_sub).chain(once).collect()
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
    let mut sorted = output.clone();
    sorted.sort_unstable();
    if sorted.windows(2).any(|w| w[0] == w[1]) {
        return Err(err("an output subscript is repeated"));
    }
    Ok((inputs, output))
}

/// `x` (with one subscript per axis) with each repeated subscript reduced to its diagonal,
/// which becomes the last axis.
fn diagonals(mut value: Value, mut subs: Vec<char>) -> Result<Term> {
    while let Some((i, j)) = (0..subs.len())
        .flat_map(|i| (i + 1..subs.len()).map(move |j| (i, j)))
        .find(|&(i, j)| subs[i] == subs[j])
    {
        let shape = &value.aval().shape;
        if shape[i] != shape[j] {
            return Err(err(format!(
                "subscript {:?} has sizes {} and {} in one operand",
                subs[i], shape[i], shape[j]
            )));
        }
        value = super::matrices::diagonal(&value, 0, i as i64, j as i64)?;
        let c = subs[i];
        subs.remove(j);
        subs.remove(i);
        subs.push(c);
    }
    Ok(Term { value, subs })
}

/// Broadcasts the ellipsis axes of unit size of `terms` to the size other operands give them.
fn broadcast_ellipsis(terms: &mut [Term]) -> Result<()> {
    let mut sizes: Vec<(char, usize)> = Vec::new();
    for t in terms.iter() {
        for (a, &c) in t.subs.iter().enumerate() {
            let d = t.value.aval().shape[a];
            match sizes.iter_mut().find(|(s, _)| *s == c) {
                Some((_, n)) if *n == 1 => *n = d,
                Some((_, n)) if *n != d && d != 1 && !c.is_ascii_alphabetic() => {
                    return Err(err(format!(
                        "ellipsis axes of sizes {n} and {d} do not broadcast"
                    )))
                }
                Some(_) => {}
                None => sizes.push((c, d)),
            }
        }
    }
    for t in terms.iter_mut() {
        let shape: Vec<usize> = t
            .subs
            .iter()
            .zip(&t.value.aval().shape)
            .map(|(c, &d)| match sizes.iter().find(|(s, _)| s == c) {
                Some(&(_, n)) if d == 1 && !c.is_ascii_alphabetic() => n,
                _ => d,
            })
            .collect();
        if shape != t.value.aval().shape {
            t.value = super::shape::broadcast_to(&t.value, shape)?;
        }
    }
    Ok(())
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
    let product = super::half::pair_in_f32(&lhs, &rhs, |a, b| lax::matmul(&mut Binder, a, b))?;
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

/// Axis letters of the specs that `tensordot` and `lax.dot` build.
pub const LETTERS: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

/// `einsum("{la},{lb}->{out}", a, b)`: the contraction of two operands with these axis letters.
pub fn contract_pair(a: &Value, b: &Value, la: &[char], lb: &[char], out: &str) -> Result<Value> {
    let (la, lb): (String, String) = (la.iter().collect(), lb.iter().collect());
    einsum(&format!("{la},{lb}->{out}"), &[a.clone(), b.clone()])
}

pub fn einsum(spec: &str, operands: &[Value]) -> Result<Value> {
    let ranks: Vec<usize> = operands.iter().map(|v| v.aval().shape.len()).collect();
    let (inputs, output) = parse(spec, &ranks)?;
    let mut terms = operands
        .iter()
        .zip(inputs)
        .map(|(v, subs)| diagonals(v.clone(), subs))
        .collect::<Result<Vec<Term>>>()?;
    broadcast_ellipsis(&mut terms)?;
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
