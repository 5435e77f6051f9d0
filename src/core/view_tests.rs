//! Tests of views and shape trackers: movement ops against an explicit index oracle.
use super::*;
use std::collections::HashSet;

/// A movement op: its name and its arguments (pairs flattened: `[b0, e0, b1, e1, …]`).
type Op = (String, Vec<usize>);

fn apply(st: &ShapeTracker, (name, args): &Op) -> Result<ShapeTracker> {
    let pairs = |args: &[usize]| args.chunks(2).map(|p| (p[0], p[1])).collect::<Vec<_>>();
    match name.as_str() {
        "reshape" => st.reshape(args),
        "permute" => st.permute(args),
        "expand" => st.expand(args),
        "shrink" => st.shrink(&pairs(args)),
        "pad" => st.pad(&pairs(args)),
        _ => st.flip(args),
    }
}

/// Ops written as text, e.g. "pad 1:0,0:2; reshape 5,3; flip 0,1".
fn parse(text: &str) -> Vec<Op> {
    let mut ops = vec![];
    for op in text.split(';').map(str::trim).filter(|op| !op.is_empty()) {
        let (name, args) = op.split_once(' ').unwrap_or((op, ""));
        let args = args.split([',', ':']).filter(|a| !a.trim().is_empty());
        let args = args.map(|a| a.trim().parse().unwrap()).collect();
        ops.push((name.to_string(), args));
    }
    ops
}

/// A tracker from text "start shape | ops", e.g. "2,3 | permute 1,0; reshape 6".
fn track(text: &str) -> Result<ShapeTracker> {
    let (shape, ops) = text.split_once('|').unwrap_or((text, ""));
    let shape = &parse(&format!("contiguous {shape}"))[0].1;
    let start = ShapeTracker::contiguous(shape);
    parse(ops).iter().try_fold(start, |st, op| apply(&st, op))
}

/// Every multi-index of `shape`, in row-major order (independent of `unravel`).
fn indices(shape: &[usize]) -> Vec<Vec<usize>> {
    let mut all = vec![vec![]];
    for &s in shape {
        let grow = |p: Vec<usize>| (0..s).map(move |i| [&p[..], &[i]].concat());
        all = all.into_iter().flat_map(grow).collect();
    }
    all
}

/// The oracle: an array as its buffer positions materialised row-major (None: padding),
/// each op applied naively, numpy style.
fn oracle_apply(shape: &[usize], data: &[Option<usize>], (name, p): &Op) -> Vec<Option<usize>> {
    let read = |idx: &Vec<usize>| -> Option<usize> {
        let mut src = idx.clone();
        for a in 0..shape.len() {
            match name.as_str() {
                "permute" => src[p[a]] = idx[a],
                "expand" if shape[a] == 1 => src[a] = 0,
                "shrink" => src[a] += p[2 * a],
                "pad" if idx[a] < p[2 * a] || idx[a] >= p[2 * a] + shape[a] => return None,
                "pad" => src[a] -= p[2 * a],
                "flip" if p.contains(&a) => src[a] = shape[a] - 1 - idx[a],
                _ => {}
            }
        }
        data[(0..shape.len()).fold(0, |acc, a| acc * shape[a] + src[a])]
    };
    let out: Vec<usize> = (0..shape.len())
        .map(|a| match name.as_str() {
            "permute" => shape[p[a]],
            "expand" => p[a],
            "shrink" => p[2 * a + 1] - p[2 * a],
            "pad" => p[2 * a] + shape[a] + p[2 * a + 1],
            _ => shape[a],
        })
        .collect();
    match name.as_str() {
        "reshape" => data.to_vec(),
        _ => indices(&out).iter().map(read).collect(),
    }
}

/// A deterministic generator of numbers below `n` (a 64-bit LCG).
fn lcg(mut state: u64) -> impl FnMut(usize) -> usize {
    move |n| {
        state = state.wrapping_mul(6364136223846793005);
        state = state.wrapping_add(1442695040888963407);
        ((state >> 33) % n as u64) as usize
    }
}

fn random_op(rng: &mut impl FnMut(usize) -> usize, shape: &[usize]) -> Op {
    let (rank, n) = (shape.len(), size(shape));
    let (mut grown, mut ranges, mut axes) = (shape.to_vec(), vec![], vec![]);
    for (a, &s) in shape.iter().enumerate() {
        let b = rng(s / 2 + 1);
        let len = match rng(8) {
            0 => rng(s - b + 1),
            _ => s - b - rng(s - b + 1) / 2,
        };
        ranges.extend([b, b + len]);
        grown[a] = if s == 1 { 1 + rng(4) } else { s };
        axes.insert(rng(a + 1), a);
    }
    let (name, args) = match (rng(8), rng(rank.max(1))) {
        (0, a) if a + 1 < rank => {
            let merged = [shape[a] * shape[a + 1]];
            ("reshape", [&shape[..a], &merged, &shape[a + 2..]].concat())
        }
        (1, _) if n > 0 => {
            // Any ordered factorisation of the size.
            let (mut m, mut dims) = (n, vec![]);
            while m > 1 {
                let divisors: Vec<usize> = (2..=m).filter(|d| m % d == 0).collect();
                dims.push(divisors[rng(divisors.len())]);
                m /= dims[dims.len() - 1];
            }
            ("reshape", dims)
        }
        (2, a) => ("reshape", [&shape[..a], &[1], &shape[a..]].concat()),
        (3, _) => ("permute", axes),
        (4, _) if n <= 300 => ("expand", grown),
        (5, _) if n <= 300 => ("pad", ranges.iter().map(|&x| x % 3).collect()),
        (6, _) => ("flip", axes.into_iter().filter(|_| rng(2) == 0).collect()),
        _ => ("shrink", ranges),
    };
    (name.to_string(), args)
}

/// Apply `n` ops chosen by `next(current shape)`, checking every element against the oracle
/// after each; returns the trackers after each op.
fn chain(shape: &[usize], n: usize, mut next: impl FnMut(&[usize]) -> Op) -> Vec<ShapeTracker> {
    let mut all = vec![ShapeTracker::contiguous(shape)];
    let mut data: Vec<Option<usize>> = (0..size(shape)).map(Some).collect();
    let mut ops = vec![];
    for k in 0..n {
        ops.push(next(all[k].shape()));
        data = oracle_apply(all[k].shape(), &data, &ops[k]);
        let st = apply(&all[k], &ops[k]).unwrap_or_else(|e| panic!("{e} after {ops:?}"));
        assert_eq!(data.len(), st.size(), "{ops:?}");
        for (i, idx) in indices(st.shape()).iter().enumerate() {
            assert_eq!(unravel(i, st.shape()), *idx);
            assert_eq!(st.index_of(idx), data[i], "{idx:?} of {st:?} after {ops:?}");
            assert_eq!(st.flat_index_of(i), data[i]);
        }
        let canonical = st.views.iter().all(|v| v.clone().canonical() == *v);
        assert!(canonical, "{ops:?}");
        let dense = |v: &View| v.is_contiguous() == (*v == View::contiguous(&v.shape));
        assert!(st.views.iter().all(dense), "{ops:?}");
        all.push(st);
    }
    all
}

#[test]
fn merges_and_canonical_forms() {
    let cases = [
        // Contiguous, transposed-then-split, offset and broadcast reshapes: one view.
        "2,3,4 | reshape 6,1,4; reshape 24; reshape 4,3,2 => [6, 2, 1]@0 []",
        "4,6 | permute 1,0; reshape 2,3,4 => [3, 1, 6]@0 []",
        "2,3,4 | shrink 1:2,0:3,0:4; reshape 3,2,2 => [4, 2, 1]@12 []",
        "1,3 | expand 4,3; reshape 2,2,3 => [0, 0, 1]@0 []",
        // Transposed then flattened: two views; unflattened again: one.
        "4,6 | permute 1,0; reshape 24 => [1, 6]@0 [] | [1]@0 []",
        "4,6 | permute 1,0; reshape 24; reshape 6,1,4 => [1, 0, 6]@0 []",
        "2,3,4 | shrink 0:2,1:3,0:4; reshape 16; shrink 0:8 => [12, 4, 1]@4 [] | [1]@0 []",
        // Masked: size-1 axes and unpadded axes reshape in one view, padded ones do not.
        "2,3 | pad 0:0,1:1; reshape 1,2,1,5; reshape 2,5 => [3, 1]@-1 [(0, 2), (1, 4)]",
        "2,3,4 | pad 0:0,0:0,1:1; reshape 6,6 => [4, 1]@-1 [(0, 6), (1, 5)]",
        "2,3 | pad 0:0,1:1; reshape 10 => [3, 1]@-1 [(0, 2), (1, 4)] | [1]@0 []",
        "2,3 | pad 0:0,1:1; permute 1,0 => [1, 3]@-1 [(1, 4), (0, 2)]",
        // A mask keeping one element zeroes that stride; one keeping none, everything.
        "4,3 | pad 2:0,0:0; shrink 1:3,0:3 => [0, 1]@0 [(1, 2), (0, 3)]",
        "4 | pad 2:0; shrink 0:2 => [0]@0 [(0, 0)]",
        "0 | pad 1:0; reshape => [0]@0 [(0, 0)] | []@0 []",
        "5,2 | shrink 2:2,0:2 => [2, 1]@0 []",
    ];
    let describe = |v: &View| {
        let mask = v.mask.as_deref().unwrap_or(&[]);
        format!("{:?}@{} {mask:?}", v.strides, v.offset)
    };
    for (text, want) in cases.map(|c| c.split_once(" => ").unwrap()) {
        let views: Vec<String> = track(text).unwrap().views.iter().map(describe).collect();
        assert_eq!(views.join(" | "), want, "{text}");
    }
    // "x => y": equal (and equally hashed) trackers, however they were made.
    let same = [
        "4,3 | pad 1:2,0:1; shrink 1:5,0:3; flip 0,1; flip 1,0 => 4,3",
        "4,3 | permute 1,0; permute 1,0; expand 4,3; pad 0:0,0:0 => 4,3",
        "4,6 | permute 1,0; reshape 24; reshape 6,4 => 4,6 | permute 1,0",
        "2,1 | pad 0:0,0:0; flip 1; reshape 2 => 1,2 | reshape 2",
        "4 | pad 2:0; shrink 0:2 => 3 | pad 0:2; shrink 3:5",
    ];
    for (x, y) in same.map(|c| c.split_once(" => ").unwrap()) {
        let set = HashSet::from([track(x).unwrap(), track(y).unwrap()]);
        assert_eq!(set.len(), 1, "{set:?}");
    }
    let a = View::new(vec![2, 1], vec![5, 7], 0, Some(vec![(0, 2), (0, 1)]));
    assert_eq!(a, View::new(vec![2, 1], vec![5, 0], 0, None));
    let contiguous = |text| track(text).unwrap().is_contiguous();
    assert!(contiguous("2,3 | reshape 6; reshape 3,2") && !contiguous("2,3 | shrink 0:2,0:2"));
}

#[test]
fn error_messages() {
    let cases = [
        "reshape 4 => reshape: cannot reshape [2, 3] into [4]",
        "permute 0,0 => permute: [0, 0] is not a permutation of 2 axes",
        "permute 0 => permute: [0] is not a permutation of 2 axes",
        "expand 2,4 => expand: cannot expand [2, 3] to [2, 4]",
        "expand 1,2,3 => expand: cannot expand [2, 3] to [1, 2, 3]",
        "shrink 0:1 => shrink: expected 2 (start, end) pairs for shape [2, 3], got 1",
        "shrink 0:1,2:4 => shrink: invalid range (2, 4) for axis 1 of size 3",
        "shrink 2:1,0:3 => shrink: invalid range (2, 1) for axis 0 of size 2",
        "pad => pad: expected 2 (before, after) pairs for shape [2, 3], got 0",
        "flip 2 => flip: [2] are not distinct axes of a rank-2 array",
        "flip 1,1 => flip: [1, 1] are not distinct axes of a rank-2 array",
    ];
    for (ops, want) in cases.map(|c| c.split_once(" => ").unwrap()) {
        let got = track(&format!("2,3 | {ops}")).unwrap_err();
        assert_eq!(got.message(), want);
    }
}

#[test]
fn oracle_agrees_on_op_sequences() {
    let text = "pad 1:0,0:2; reshape 5,3; permute 1,0; shrink 1:3,0:4; flip 0,1; \
                reshape 2,1,4; expand 2,3,4; reshape 6,4; permute 1,0; reshape 24";
    let mut ops = parse(text).into_iter();
    let all = chain(&[2, 3], 10, |_| ops.next().unwrap());
    assert!(all.iter().any(|st| st.views.len() >= 3), "{all:?}");
    let (mut rng, mut multi, mut masked) = (lcg(0x5eed), 0, 0);
    for _ in 0..2000 {
        let shape: Vec<usize> = (0..rng(5)).map(|_| 1 + rng(4)).collect();
        let all = chain(&shape, 12, |s| random_op(&mut rng, s));
        multi += usize::from(all.iter().any(|st| st.views.len() > 1));
        masked += usize::from(all.iter().any(|st| st.views[0].mask.is_some()));
    }
    assert!(multi > 300 && masked > 300, "{multi}, {masked}");
}
