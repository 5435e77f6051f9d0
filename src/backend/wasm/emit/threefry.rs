//! threefry2x32 (`AluKind::Threefry`) in wasm: the 20 rounds of `backend/cpu/threefry.rs` in
//! wrapping 32-bit arithmetic, `i32.rotl` on scalars and `shl | shr_u` on i32x4 lanes. The
//! scalar lowering calls a function `(k0, k1, c0, c1: i32) → i32` emitted once per module and
//! mode (`math::Lib`); the SIMD lowering inlines the rounds of all its vectors interleaved
//! step by step, so their dependency chains (each round needs the one before) overlap.

use walrus::ir::BinaryOp as B;
use walrus::{FunctionId, Module, ValType};

use super::dsl::{function, i32c, Var, E, S};
use crate::core::ops::{ThreefryMode, THREEFRY_PARITY, THREEFRY_ROTATIONS};

/// 32-bit arithmetic on i32 values or on the four i32x4 lanes of v128 values.
#[derive(Clone, Copy)]
struct Ops {
    vector: bool,
}

impl Ops {
    fn ty(self) -> ValType {
        if self.vector {
            ValType::V128
        } else {
            ValType::I32
        }
    }

    fn constant(self, c: u32) -> E {
        if self.vector {
            E::V128((0..4).fold(0u128, |acc, l| acc | u128::from(c) << (32 * l)))
        } else {
            i32c(c as i32)
        }
    }

    fn add(self, a: E, b: E) -> E {
        let op = if self.vector { B::I32x4Add } else { B::I32Add };
        a.bin(op, self.ty(), b)
    }

    fn xor(self, a: E, b: E) -> E {
        let op = if self.vector { B::V128Xor } else { B::I32Xor };
        a.bin(op, self.ty(), b)
    }

    fn rotl(self, x: E, r: u32) -> E {
        if self.vector {
            let hi = x.clone().v2(B::I32x4Shl, i32c(r as i32));
            hi.v2(B::V128Or, x.v2(B::I32x4ShrU, i32c(32 - r as i32)))
        } else {
            x.bin(B::I32Rotl, ValType::I32, i32c(r as i32))
        }
    }
}

/// Statements computing threefry2x32 of each set of operands `[k0, k1, c0, c1]` (i32, or
/// i32x4 with `vector`), the sets interleaved round by round, and the value of `mode` of each.
/// Each operand is read once.
pub fn rounds(
    m: &mut Module,
    vector: bool,
    mode: ThreefryMode,
    sets: Vec<[E; 4]>,
) -> (Vec<S>, Vec<E>) {
    let ops = Ops { vector };
    let mut var = || Var::new(m, ops.ty());
    let mut body = Vec::new();
    // Per set: the key schedule ks0, ks1, ks2 and the two words.
    let mut state: Vec<([Var; 3], [Var; 2])> = Vec::with_capacity(sets.len());
    for [k0, k1, c0, c1] in sets {
        let (ks, x) = ([var(), var(), var()], [var(), var()]);
        body.push(ks[0].set(k0));
        body.push(ks[1].set(k1));
        let parity = ops.xor(ks[0].get(), ks[1].get());
        body.push(ks[2].set(ops.xor(parity, ops.constant(THREEFRY_PARITY))));
        body.push(x[0].set(ops.add(c0, ks[0].get())));
        body.push(x[1].set(ops.add(c1, ks[1].get())));
        state.push((ks, x));
    }
    for group in 0..5 {
        for r in THREEFRY_ROTATIONS[group % 2] {
            for (_, [x0, x1]) in &state {
                body.push(x0.set(ops.add(x0.get(), x1.get())));
                body.push(x1.set(ops.xor(ops.rotl(x1.get(), r), x0.get())));
            }
        }
        for (ks, [x0, x1]) in &state {
            body.push(x0.set(ops.add(x0.get(), ks[(group + 1) % 3].get())));
            let inject = ops.add(ks[(group + 2) % 3].get(), ops.constant(group as u32 + 1));
            body.push(x1.set(ops.add(x1.get(), inject)));
        }
    }
    let values = state
        .iter()
        .map(|(_, [x0, x1])| match mode {
            ThreefryMode::Xor => ops.xor(x0.get(), x1.get()),
            ThreefryMode::Word0 => x0.get(),
            ThreefryMode::Word1 => x1.get(),
        })
        .collect();
    (body, values)
}

/// The scalar function `(k0, k1, c0, c1: i32) → i32` computing `mode`'s result.
pub fn function_of(m: &mut Module, mode: ThreefryMode) -> FunctionId {
    let params = [0; 4].map(|_| Var::new(m, ValType::I32));
    let operands = params.map(Var::get);
    let (mut body, values) = rounds(m, false, mode, vec![operands]);
    body.extend(values.into_iter().map(S::Return));
    function(m, &params, ValType::I32, &body)
}
