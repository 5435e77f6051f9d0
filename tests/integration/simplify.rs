//! The index simplifier (`kernel::simplify`) against the `cpu` interpreter: random chains of
//! movement operations (reshape, transpose, slice, pad, flip, broadcast, concatenate) composed
//! as fusion composes them and as `ShapeTracker` views, and random int32 expressions with
//! every operation, negative values, zero divisors and wrap-around, each evaluated before and
//! after simplification over the whole index (and reduction) range; plus the shapes the
//! simplifier must reduce to (an unravel/ravel pair is the index itself, a transpose of a
//! transpose is a plain load).

use oxjax::backend::cpu::run_kernel;
use oxjax::core::view::ShapeTracker;
use oxjax::core::{Aval, DType, Primitive};
use oxjax::kernel::index::{linear, unravel};
use oxjax::kernel::{simplify, verify, view_index, Reduction};
use oxjax::kernel::{AluExp, BinaryOp, CompareOp, Kernel, ReduceOp, UnaryOp};
use oxjax::lower::expr::{size, substitute};
use oxjax::rules;

/// A compact infix rendering (debugging aid).
fn show(e: &AluExp) -> String {
    use oxjax::kernel::AluKind::*;
    match &e.kind {
        Const(_) => format!("{}", e.const_value().unwrap()),
        Index => "i".into(),
        ReduceIndex => "r".into(),
        Load { input, index } => format!("in{input}[{}]", show(index)),
        Unary(op, a) => format!("{op:?}({})", show(a)),
        Binary(op, a, b) => {
            let s = match op {
                BinaryOp::Add => "+",
                BinaryOp::Sub => "-",
                BinaryOp::Mul => "*",
                BinaryOp::Div => "/",
                BinaryOp::Rem => "%",
                BinaryOp::And => "&&",
                _ => "?",
            };
            format!("({} {s} {})", show(a), show(b))
        }
        Compare(op, a, b) => format!("({} {op:?} {})", show(a), show(b)),
        Where(c, a, b) => format!("where({}, {}, {})", show(c), show(a), show(b)),
        Cast(a) => format!("cast({})", show(a)),
        Bitcast(a) => format!("bitcast({})", show(a)),
        Threefry(mode, ops) => {
            let ops: Vec<String> = ops.iter().map(show).collect();
            format!("threefry_{mode:?}({})", ops.join(", "))
        }
    }
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

fn int(v: i64) -> AluExp {
    AluExp::constant(DType::Int32, v as i32 as f64)
}

/// `1, 2, …, n` as int32 bytes (0 is what padding reads).
fn iota(n: usize) -> Vec<u8> {
    (1..=n as i32).flat_map(|v| v.to_le_bytes()).collect()
}

/// Runs `kernel` and its simplified form on `inputs`, asserts equal outputs; returns the node
/// counts before and after.
fn check(what: &str, kernel: &Kernel, inputs: &[&[u8]]) -> (usize, usize) {
    let t = std::time::Instant::now();
    let simple = simplify::kernel(kernel);
    let dt = t.elapsed().as_secs_f64();
    if dt > 0.05 {
        println!(
            "{what}: {} nodes → {}, {dt:.3}s",
            size(&kernel.exp),
            size(&simple.exp)
        );
    }
    verify::verify(&simple).unwrap_or_else(|e| panic!("{what}: {e}\n{simple:?}"));
    assert_eq!(
        simplify::kernel(&simple),
        simple,
        "{what}: not a fixed point"
    );
    let want = run_kernel(kernel, inputs).unwrap();
    let got = run_kernel(&simple, inputs).unwrap();
    assert!(
        want == got,
        "{what}: simplified kernel differs\nbefore: {:?}\nafter: {:?}",
        kernel.exp,
        simple.exp
    );
    (size(&kernel.exp), size(&simple.exp))
}

/// A random factorisation of `n` into at most four axes (with the odd size-1 axis).
fn random_shape(rng: &mut Rng, n: usize) -> Vec<usize> {
    let mut factors = Vec::new();
    let mut m = n;
    let mut p = 2;
    while m > 1 {
        while m.is_multiple_of(p) {
            factors.push(p);
            m /= p;
        }
        p += 1;
    }
    let axes = 1 + rng.below(4);
    let mut shape = vec![1; axes];
    for f in factors {
        let a = rng.below(axes);
        shape[a] *= f;
    }
    shape
}

/// A random movement primitive applicable to `shape`, with the resulting shape.
fn random_movement(rng: &mut Rng, shape: &[usize]) -> Primitive {
    let r = shape.len();
    match rng.below(6) {
        0 => Primitive::Reshape(random_shape(rng, shape.iter().product())),
        1 => {
            let mut perm: Vec<usize> = (0..r).collect();
            for i in (1..r).rev() {
                perm.swap(i, rng.below(i + 1));
            }
            Primitive::Transpose(perm)
        }
        2 => Primitive::Shrink(
            shape
                .iter()
                .map(|&d| {
                    let lo = rng.below(d.div_ceil(2));
                    (lo, lo + 1 + rng.below(d - lo))
                })
                .collect(),
        ),
        3 => Primitive::Pad(shape.iter().map(|_| (rng.below(3), rng.below(3))).collect()),
        4 => Primitive::Flip((0..r).filter(|_| rng.chance(50)).collect()),
        _ => {
            let at = rng.below(r + 1);
            let mut out = shape.to_vec();
            out.insert(at, 1 + rng.below(3));
            let axes = (0..r).map(|a| if a < at { a } else { a + 1 }).collect();
            Primitive::Broadcast { shape: out, axes }
        }
    }
}

/// The expression of `prim` applied to values given as expressions (fusion's substitution).
fn apply(prim: &Primitive, ins: &[(&AluExp, &Aval)]) -> Option<(AluExp, Aval)> {
    let avals: Vec<&Aval> = ins.iter().map(|(_, a)| *a).collect();
    let out = rules::abstract_eval(prim, &avals).ok()?;
    let kernel = rules::to_kernel(prim, &avals, &out).ok()?;
    let exps: Vec<AluExp> = ins.iter().map(|(e, _)| (*e).clone()).collect();
    Some((substitute(&kernel.exp, &exps), out))
}

#[test]
fn fused_movement_chains_keep_their_values() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut before, mut after) = (0, 0);
    for case in 0..1500 {
        let total = 1 + rng.below(48);
        let base = random_shape(&mut rng, total);
        let n: usize = base.iter().product();
        let mut aval = Aval::new(base.clone(), DType::Int32);
        let mut exp = AluExp::load(DType::Int32, 0, AluExp::index());
        let mut ops = Vec::new();
        for _ in 0..1 + rng.below(7) {
            let prim = if rng.chance(12) {
                let axis = rng.below(aval.shape.len());
                Primitive::Concatenate(axis)
            } else {
                random_movement(&mut rng, &aval.shape)
            };
            let next = match &prim {
                Primitive::Concatenate(axis) => {
                    // The value next to its own flip along the axis.
                    let flip = Primitive::Flip(vec![*axis]);
                    let (f, fa) = apply(&flip, &[(&exp, &aval)]).unwrap();
                    apply(&prim, &[(&exp, &aval), (&f, &fa)])
                }
                _ => apply(&prim, &[(&exp, &aval)]),
            };
            match next {
                // Fusion materialises larger expressions (`lower::expr::MAX_NODES`).
                Some((e, a)) if a.size() <= 3000 && a.size() > 0 && size(&e) <= 3000 => {
                    ops.push(prim);
                    (exp, aval) = (e, a);
                }
                _ => {}
            }
        }
        let kernel = Kernel::elementwise(vec![DType::Int32], aval.size(), exp);
        let data = iota(n);
        let (b, a) = check(&format!("case {case}: {base:?} {ops:?}"), &kernel, &[&data]);
        // `CASE=n cargo test --test integration simplify::fused -- --nocapture` prints case n simplified.
        if std::env::var("CASE").is_ok_and(|c| c == case.to_string()) {
            println!("{}", show(&simplify::kernel(&kernel).exp));
        }
        before += b;
        after += a;
    }
    println!("fused chains: {before} nodes before, {after} after");
    assert!(after * 2 < before, "{before} → {after}");
}

#[test]
fn view_chains_keep_their_values() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let (mut before, mut after) = (0, 0);
    for case in 0..1500 {
        let total = 1 + rng.below(48);
        let base = random_shape(&mut rng, total);
        let n: usize = base.iter().product();
        let mut st = ShapeTracker::contiguous(&base);
        for _ in 0..1 + rng.below(7) {
            let shape = st.shape().to_vec();
            let next = match random_movement(&mut rng, &shape) {
                Primitive::Reshape(s) => st.reshape(&s),
                Primitive::Transpose(p) => st.permute(&p),
                Primitive::Shrink(r) => st.shrink(&r),
                Primitive::Pad(p) => st.pad(&p),
                Primitive::Flip(a) => st.flip(&a),
                Primitive::Broadcast { shape: out, axes } => {
                    let mut ones = vec![1; out.len()];
                    for (i, &a) in axes.iter().enumerate() {
                        ones[a] = shape[i];
                    }
                    st.reshape(&ones).and_then(|s| s.expand(&out))
                }
                _ => continue,
            };
            if let Ok(next) = next {
                if next.size() <= 3000 && next.size() > 0 {
                    st = next;
                }
            }
        }
        let exp = view_index::load(DType::Int32, 0, &st, AluExp::index());
        let kernel = Kernel::elementwise(vec![DType::Int32], st.size(), exp);
        let data = iota(n);
        let (b, a) = check(&format!("case {case}: {base:?} {st:?}"), &kernel, &[&data]);
        before += b;
        after += a;
        // The reference: the view's own addressing.
        let got = run_kernel(&simplify::kernel(&kernel), &[&data]).unwrap();
        for i in 0..st.size() {
            let want = st.flat_index_of(i).map_or(0, |p| p as i32 + 1);
            let v = i32::from_le_bytes(got[4 * i..4 * i + 4].try_into().unwrap());
            assert_eq!(v, want, "case {case} element {i}: {st:?}");
        }
    }
    println!("view chains: {before} nodes before, {after} after");
    assert!(after < before, "{before} → {after}");
}

/// A random int32 expression of depth at most `depth`.
fn random_exp(rng: &mut Rng, depth: usize, reduce: bool) -> AluExp {
    let small = |rng: &mut Rng| int(rng.below(14) as i64 - 4);
    if depth == 0 || rng.chance(20) {
        return match rng.below(10) {
            0..=4 => AluExp::index(),
            5 | 6 if reduce => AluExp::reduce_index(),
            7 if rng.chance(30) => int((1 << 30) + rng.below(5) as i64 - 2),
            _ => small(rng),
        };
    }
    let sub = |rng: &mut Rng| random_exp(rng, depth - 1, reduce);
    let divisor = |rng: &mut Rng| {
        const D: [i64; 10] = [0, 1, 2, 3, 4, 6, 8, -1, -3, 12];
        if rng.chance(85) {
            int(D[rng.below(D.len())])
        } else {
            random_exp(rng, depth - 1, reduce)
        }
    };
    match rng.below(11) {
        0 | 1 => AluExp::binary(BinaryOp::Add, sub(rng), sub(rng)),
        2 => AluExp::binary(BinaryOp::Sub, sub(rng), sub(rng)),
        3 => {
            let k = if rng.chance(80) { small(rng) } else { sub(rng) };
            AluExp::binary(BinaryOp::Mul, sub(rng), k)
        }
        4 | 5 => AluExp::binary(BinaryOp::Div, sub(rng), divisor(rng)),
        6 | 7 => AluExp::binary(BinaryOp::Rem, sub(rng), divisor(rng)),
        8 => {
            let op = [BinaryOp::Min, BinaryOp::Max][rng.below(2)];
            AluExp::binary(op, sub(rng), sub(rng))
        }
        9 => AluExp::unary(UnaryOp::Neg, sub(rng)),
        _ => {
            let op = [CompareOp::Lt, CompareOp::Le, CompareOp::Eq, CompareOp::Ne][rng.below(4)];
            let (x, k) = (sub(rng), if rng.chance(70) { small(rng) } else { sub(rng) });
            let cond = if rng.chance(50) {
                AluExp::compare(op, x, k)
            } else {
                AluExp::compare(op, k, x)
            };
            let cond = match rng.below(4) {
                0 => AluExp::binary(BinaryOp::And, cond, AluExp::compare(op, sub(rng), sub(rng))),
                1 => AluExp::unary(UnaryOp::Not, cond),
                _ => cond,
            };
            AluExp::where_(cond, sub(rng), sub(rng))
        }
    }
}

#[test]
fn random_int32_expressions_keep_their_values() {
    let mut rng = Rng(0xdead_beef_cafe_f00d);
    for case in 0..6000 {
        let reduce = rng.chance(30);
        let depth = 2 + rng.below(5);
        let exp = random_exp(&mut rng, depth, reduce);
        let mut kernel = Kernel::elementwise(vec![], 1 + rng.below(150), exp);
        if reduce {
            kernel.reduction = Some(Reduction {
                op: ReduceOp::Sum,
                size: 1 + rng.below(7),
            });
        }
        check(&format!("case {case}"), &kernel, &[]);
    }
}

#[test]
fn unravel_then_ravel_is_the_index() {
    let shape = [3, 4, 5];
    let coords = unravel(&AluExp::index(), &shape);
    let flat = linear(0, &coords, &[20, 5, 1]);
    assert_eq!(simplify::simplify(&flat, (0, 59), None), AluExp::index());
    // Not for a larger index: the leading coordinate is not reduced modulo 3 ...
    assert_eq!(simplify::simplify(&flat, (0, 600), None), AluExp::index());
    // ... but the remainder of a lower axis is.
    let flat = linear(0, &coords[1..], &[5, 1]);
    let want = AluExp::binary(BinaryOp::Rem, AluExp::index(), int(20));
    assert_eq!(simplify::simplify(&flat, (0, 59), None), want);
}

#[test]
fn transposes_and_reshapes_that_cancel_are_plain_loads() {
    let x = Aval::new(vec![7, 2, 2], DType::Float32);
    let load = AluExp::load(DType::Float32, 0, AluExp::index());
    let t = Primitive::Transpose(vec![0, 2, 1]);
    let (once, ta) = apply(&t, &[(&load, &x)]).unwrap();
    let (twice, _) = apply(&t, &[(&once, &ta)]).unwrap();
    assert_eq!(simplify::simplify(&twice, (0, 27), None), load);
    let r = Primitive::Reshape(vec![7, 4]);
    let (flat, fa) = apply(&r, &[(&once, &ta)]).unwrap();
    let (back, ba) = apply(&Primitive::Reshape(vec![7, 2, 2]), &[(&flat, &fa)]).unwrap();
    let (undone, _) = apply(&t, &[(&back, &ba)]).unwrap();
    assert_eq!(simplify::simplify(&undone, (0, 27), None), load);
    // One transpose: row i/4, then the swapped pair.
    let simple = simplify::simplify(&once, (0, 27), None);
    assert!(size(&simple) <= 18, "{simple:?}");
    // A slice of rows 2.. then a pad of 2 rows in front: the rows in range load the source
    // at the same index, the others are zero.
    let s = Primitive::Shrink(vec![(2, 7), (0, 2), (0, 2)]);
    let (sl, sa) = apply(&s, &[(&load, &x)]).unwrap();
    let (padded, _) = apply(&Primitive::Pad(vec![(2, 0), (0, 0), (0, 0)]), &[(&sl, &sa)]).unwrap();
    let zero = AluExp::constant(DType::Float32, 0.0);
    let want = AluExp::where_(
        AluExp::compare(CompareOp::Le, int(8), AluExp::index()),
        load.clone(),
        zero,
    );
    assert_eq!(simplify::simplify(&padded, (0, 27), None), want);
}
