//! Sums and their quotients for the index simplifier (`simplify`): int32 sums as lists of
//! terms with wrapping coefficients, their canonical form, the recombination of quotient and
//! remainder pairs, and the rules for a sum divided by (or taken modulo) a positive constant.
//! Every rule here is exact under the ranges `simplify` computes (see its module comment).

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use super::alu::{AluExp, AluKind, BinaryOp, UnaryOp};
use super::simplify::{as_int, fits, int, Range, Simplifier};

/// `[lo, hi]` scaled by `c` (exact i64 arithmetic; the caller checks for int32).
fn scale(r: Range, c: i64) -> Range {
    if c >= 0 {
        (r.0 * c, r.1 * c)
    } else {
        (r.1 * c, r.0 * c)
    }
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 {
        a.abs()
    } else {
        gcd(b, a % b)
    }
}

/// A sum `Σ cᵢ·tᵢ + k` of distinct non-sum terms; coefficients and constant wrap like int32.
#[derive(Clone, Default)]
pub(super) struct Lin {
    terms: Vec<(AluExp, i32)>,
    k: i32,
}

impl Lin {
    fn add(&mut self, e: &AluExp, c: i32) {
        match &e.kind {
            AluKind::Const(_) => {
                self.k = self
                    .k
                    .wrapping_add((as_int(e).unwrap_or(0) as i32).wrapping_mul(c))
            }
            AluKind::Binary(BinaryOp::Add, a, b) => {
                self.add(a, c);
                self.add(b, c);
            }
            AluKind::Binary(BinaryOp::Sub, a, b) => {
                self.add(a, c);
                self.add(b, c.wrapping_neg());
            }
            AluKind::Binary(BinaryOp::Mul, a, b) if as_int(b).is_some() => {
                self.add(a, c.wrapping_mul(as_int(b).unwrap_or(0) as i32))
            }
            AluKind::Binary(BinaryOp::Mul, a, b) if as_int(a).is_some() => {
                self.add(b, c.wrapping_mul(as_int(a).unwrap_or(0) as i32))
            }
            AluKind::Unary(UnaryOp::Neg, a) => self.add(a, c.wrapping_neg()),
            _ => self.term(e.clone(), c),
        }
    }

    fn term(&mut self, e: AluExp, c: i32) {
        match self.terms.iter_mut().find(|(t, _)| *t == e) {
            Some((_, d)) => *d = d.wrapping_add(c),
            None => self.terms.push((e, c)),
        }
        self.terms.retain(|(_, c)| *c != 0);
    }

    /// `(y, r)` with `self = g·y + r`: y takes the terms whose coefficients g divides, r the
    /// others and the constant's remainder in `[0, g)`.
    fn split(&self, g: i64) -> (Lin, Lin) {
        let (mut y, mut r) = (Lin::default(), Lin::default());
        for (t, k) in &self.terms {
            if *k as i64 % g == 0 {
                y.terms.push((t.clone(), (*k as i64 / g) as i32));
            } else {
                r.terms.push((t.clone(), *k));
            }
        }
        y.k = (self.k as i64).div_euclid(g) as i32;
        r.k = (self.k as i64).rem_euclid(g) as i32;
        (y, r)
    }

    fn of(e: &AluExp) -> Lin {
        let mut lin = Lin::default();
        lin.add(e, 1);
        lin
    }

    /// The canonical expression: terms by decreasing |coefficient| (then a fixed structural
    /// order), the constant last.
    fn build(mut self) -> AluExp {
        let key = |t: &AluExp| {
            let mut h = DefaultHasher::new();
            t.hash(&mut h);
            h.finish()
        };
        self.terms
            .sort_by_cached_key(|(t, c)| (std::cmp::Reverse(c.unsigned_abs()), *c < 0, key(t)));
        let scaled = |t: AluExp, c: i32| {
            if c == 1 {
                t
            } else {
                AluExp::binary(BinaryOp::Mul, t, int(c as i64))
            }
        };
        let mut acc: Option<AluExp> = None;
        for (t, c) in self.terms {
            acc = Some(match acc {
                None => scaled(t, c),
                Some(a) if c < 0 && c != i32::MIN => {
                    AluExp::binary(BinaryOp::Sub, a, scaled(t, -c))
                }
                Some(a) => AluExp::binary(BinaryOp::Add, a, scaled(t, c)),
            });
        }
        match (acc, self.k) {
            (None, k) => int(k as i64),
            (Some(a), 0) => a,
            (Some(a), k) if k < 0 && k != i32::MIN => {
                AluExp::binary(BinaryOp::Sub, a, int(-(k as i64)))
            }
            (Some(a), k) => AluExp::binary(BinaryOp::Add, a, int(k as i64)),
        }
    }
}

fn size(e: &AluExp) -> usize {
    1 + e.children().into_iter().map(size).sum::<usize>()
}

/// The divisor of `e = x op c` for a constant `c > 0`: `(x, c)`.
pub(super) fn by_const(e: &AluExp, op: BinaryOp) -> Option<(&AluExp, i64)> {
    match &e.kind {
        AluKind::Binary(o, x, c) if *o == op => as_int(c).filter(|&c| c > 0).map(|c| (&**x, c)),
        _ => None,
    }
}

impl Simplifier {
    /// The range of a sum's terms plus its constant, exactly (None when it leaves int32).
    fn lin_range(&self, lin: &Lin) -> Option<Range> {
        let (mut lo, mut hi) = (lin.k as i64, lin.k as i64);
        for (t, c) in &lin.terms {
            let r = scale(self.range(t), *c as i64);
            lo += r.0;
            hi += r.1;
        }
        (fits(lo) && fits(hi)).then_some((lo, hi))
    }

    /// `s` without its constant `k`, and `c − k`, when neither `s` nor `c − k` wraps.
    pub(super) fn moved(&self, s: &AluExp, c: i64) -> Option<(AluExp, i64)> {
        let mut lin = Lin::of(s);
        let k = lin.k as i64;
        if k == 0 || lin.terms.is_empty() || !fits(c - k) {
            return None;
        }
        lin.k = 0;
        let r = self.lin_range(&lin)?;
        (fits(r.0 + k) && fits(r.1 + k)).then(|| (lin.build(), c - k))
    }

    /// A sum in canonical form, its quotient/remainder pairs recombined.
    pub(super) fn sum(&mut self, e: &AluExp) -> AluExp {
        let mut lin = Lin::of(e);
        self.recombine(&mut lin);
        lin.build()
    }

    /// `(y/a)·a·c + (y%a)·c → y·c`, and `((y/a)%b)·a·c + (y%a)·c → (y%(a·b))·c` for y ≥ 0.
    fn recombine(&mut self, lin: &mut Lin) {
        'again: loop {
            for j in 0..lin.terms.len() {
                let (v, c) = lin.terms[j].clone();
                let Some((y, a)) = by_const(&v, BinaryOp::Rem) else {
                    continue;
                };
                let ca = c.wrapping_mul(a as i32);
                for i in 0..lin.terms.len() {
                    let (u, cu) = &lin.terms[i];
                    if i == j || *cu != ca {
                        continue;
                    }
                    let merged = if by_const(u, BinaryOp::Div) == Some((y, a)) {
                        Some(y.clone())
                    } else {
                        match by_const(u, BinaryOp::Rem) {
                            Some((q, b))
                                if by_const(q, BinaryOp::Div) == Some((y, a))
                                    && fits(a * b)
                                    && self.range(y).0 >= 0 =>
                            {
                                let m = AluExp::binary(BinaryOp::Rem, y.clone(), int(a * b));
                                Some(self.node(m))
                            }
                            _ => None,
                        }
                    };
                    if let Some(m) = merged {
                        let (hi, lo) = (i.max(j), i.min(j));
                        lin.terms.remove(hi);
                        lin.terms.remove(lo);
                        lin.add(&m, c);
                        continue 'again;
                    }
                }
            }
            return;
        }
    }

    /// `x / c` or `x % c` for a constant `c`, when a rule applies.
    pub(super) fn divmod(&mut self, op: BinaryOp, x: &AluExp, c: i64) -> Option<AluExp> {
        let div = op == BinaryOp::Div;
        if c == 0 {
            return Some(int(0));
        }
        if c == 1 {
            return Some(if div { x.clone() } else { int(0) });
        }
        if c < 0 {
            return None;
        }
        let rx = self.range(x);
        if rx.0 < 0 {
            // `(y / a) / c` is exact for any sign.
            return match by_const(x, BinaryOp::Div) {
                Some((y, a)) if div && fits(a * c) => {
                    Some(self.node(AluExp::binary(op, y.clone(), int(a * c))))
                }
                _ => None,
            };
        }
        if rx.0 / c == rx.1 / c {
            let q = rx.0 / c;
            if div {
                return Some(int(q));
            }
            if q == 0 {
                return Some(x.clone());
            }
            let minus = AluExp::binary(BinaryOp::Sub, x.clone(), int(q * c));
            return Some(self.node(minus));
        }
        if let Some((y, a)) = by_const(x, BinaryOp::Div) {
            if div && fits(a * c) {
                return Some(self.node(AluExp::binary(op, y.clone(), int(a * c))));
            }
        }
        if let Some((y, m)) = by_const(x, BinaryOp::Rem) {
            if m % c == 0 && self.range(y).0 >= 0 {
                let y = y.clone();
                return Some(if div {
                    let q = self.node(AluExp::binary(BinaryOp::Div, y, int(c)));
                    self.node(AluExp::binary(BinaryOp::Rem, q, int(m / c)))
                } else {
                    self.node(AluExp::binary(BinaryOp::Rem, y, int(c)))
                });
            }
        }
        let lin = Lin::of(x);
        // The sum's integer value is x's (both lie in int32 and agree modulo 2³²).
        if lin.terms.is_empty() || self.lin_range(&lin).is_none() {
            return None;
        }
        // x = g·y + r with 0 ≤ r < g for a divisor g of c: x / c = y / (c/g) and x % c =
        // (y % (c/g))·g + r, for the largest such g.
        let mut divisors: Vec<i64> = lin.terms.iter().map(|(_, k)| gcd(c, *k as i64)).collect();
        divisors.push(c);
        divisors.retain(|&g| g > 1);
        divisors.sort_unstable_by(|a, b| b.cmp(a));
        divisors.dedup();
        for g in divisors {
            // The range of r first, without building it.
            let (mut lo, mut hi) = ((lin.k as i64).rem_euclid(g), (lin.k as i64).rem_euclid(g));
            for (t, k) in lin.terms.iter().filter(|(_, k)| *k as i64 % g != 0) {
                let r = scale(self.range(t), *k as i64);
                (lo, hi) = (lo + r.0, hi + r.1);
            }
            if lo < 0 || hi >= g {
                continue;
            }
            let (y, mut r) = lin.split(g);
            let y = self.node_sum(y);
            let m = int(c / g);
            if div {
                return Some(self.node(AluExp::binary(BinaryOp::Div, y, m)));
            }
            let low = self.node(AluExp::binary(BinaryOp::Rem, y, m));
            r.add(&low, g as i32);
            let rem = self.node_sum(r);
            // Only when smaller than `x % c` (a remainder of a sum stays one otherwise).
            if g == c || size(&rem) <= size(x) + 1 {
                return Some(rem);
            }
            break;
        }
        // Terms with coefficients divisible by c leave the quotient when the rest stays ≥ 0.
        let (mut q, r) = lin.split(c);
        if q.terms.is_empty() && q.k == 0 {
            return None;
        }
        self.lin_range(&r).filter(|rr| rr.0 >= 0)?;
        let rest = self.node_sum(r);
        let rest = self.node(AluExp::binary(op, rest, int(c)));
        Some(if div {
            q.add(&rest, 1);
            self.node_sum(q)
        } else {
            rest
        })
    }

    /// A sum given as terms, in canonical form.
    fn node_sum(&mut self, mut lin: Lin) -> AluExp {
        self.recombine(&mut lin);
        lin.build()
    }
}
