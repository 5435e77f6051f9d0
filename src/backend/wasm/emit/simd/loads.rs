//! Loads of the SIMD lowering: contiguous blocks as v128 loads, uniform indices as a scalar
//! load and a splat, anything else gathered lane by lane; and the guarded form of each for
//! select branches whose loads other lanes may evaluate out of bounds.

use walrus::ir::{BinaryOp as B, LoadKind, UnaryOp as U};
use walrus::{MemoryId, ValType};

use super::{Simd, LANES, V};
use crate::backend::wasm::emit::dsl::{i32c, i64c, when, E};
use crate::backend::wasm::emit::simd_ops::{lanes_const, splat_op};
use crate::core::DType;

/// The lane-replacing instruction for `dtype`'s vectors.
fn replace_lane(dtype: DType, idx: u8) -> B {
    if dtype == DType::Float32 {
        B::F32x4ReplaceLane { idx }
    } else {
        B::I32x4ReplaceLane { idx }
    }
}

/// A scalar load of `dtype` at byte address `addr` (a bool's word compared with 0).
fn scalar_load(memory: MemoryId, dtype: DType, addr: E) -> E {
    let (kind, ty) = if dtype == DType::Float32 {
        (LoadKind::F32, ValType::F32)
    } else {
        (LoadKind::I32 { atomic: false }, ValType::I32)
    };
    let x = E::Load(memory, kind, ty, Box::new(addr));
    if dtype == DType::Bool {
        x.ne(i32c(0))
    } else {
        x
    }
}

/// A v128 load at `addr` (bool words turned into 0/1 lanes).
fn vector_load(memory: MemoryId, dtype: DType, addr: E) -> E {
    let x = E::Load(memory, LoadKind::V128, ValType::V128, Box::new(addr));
    if dtype == DType::Bool {
        x.v2(B::I32x4Ne, lanes_const([0; 4])).v1(U::I32x4Neg)
    } else {
        x
    }
}

impl Simd<'_> {
    /// The load of `dtype` from `input` at the index `ix`.
    pub(super) fn load(&mut self, input: usize, dtype: DType, ix: V) -> V {
        let bytes = dtype.byte_size() as i32;
        let base = self.cx.inputs[input].get();
        let memory = self.cx.memory;
        match ix {
            V::Aff(a) if a.stride == 0 => {
                let x = scalar_load(memory, dtype, base + a.base * i32c(bytes));
                self.uni(dtype, x)
            }
            V::Aff(a) if a.stride == 1 => {
                let addr = self.bind(base + a.base * i32c(bytes));
                let v = (0..self.u)
                    .map(|u| {
                        let at = addr.clone() + i32c((u * LANES) as i32 * bytes);
                        vector_load(memory, dtype, at)
                    })
                    .collect();
                self.bound(v)
            }
            ix => {
                self.fallbacks += 1;
                let xs = self
                    .lane_indices(ix)
                    .into_iter()
                    .map(|i| scalar_load(memory, dtype, base.clone() + i * i32c(bytes)))
                    .collect();
                V::Vec(self.pack(xs, dtype))
            }
        }
    }

    /// Each lane's index of a gathered load.
    fn lane_indices(&self, ix: V) -> Vec<E> {
        match ix {
            V::Aff(a) => (0..self.width())
                .map(|l| a.base.clone() + i32c((a.stride * l as i64) as i32))
                .collect(),
            V::Vec(v) => (0..self.width())
                .map(|l| {
                    let idx = (l % LANES) as u8;
                    v[l / LANES]
                        .clone()
                        .unop(U::I32x4ExtractLane { idx }, ValType::I32)
                })
                .collect(),
            V::Uni(_) => unreachable!("indices are int32: affine"),
        }
    }

    /// A load inside a select's branch that lanes not taking it may evaluate out of bounds:
    /// as `load`, with each address checked against the memory's size (a vector block loads
    /// whole vectors when all of it is in memory, else lane by lane). Lanes outside memory read
    /// 0; the select discards them.
    pub(super) fn guarded_load(&mut self, input: usize, dtype: DType, ix: V) -> V {
        let bytes = dtype.byte_size() as i32;
        let base = self.cx.inputs[input].get();
        let memory = self.cx.memory;
        // Locals start at 0: the first block of a call reads the size, later ones reuse it.
        let pages = match self.pages {
            Some(p) => p,
            None => {
                let p = self.cx.tmp(ValType::I32);
                self.pages = Some(p);
                p
            }
        };
        self.stmts.push(when(
            pages.get().eqz(),
            vec![pages.set(E::MemoryPages(memory))],
        ));
        let pages = pages.get();
        // Whether `span` bytes from `addr` lie in memory (64-bit: the size may be 4 GiB).
        let fits = move |addr: E, span: i32| {
            (addr.extend_u() + i64c(i64::from(span))).leu(pages.clone().extend_u().shl(i64c(16)))
        };
        let zero = if dtype == DType::Float32 {
            E::F32(0.0)
        } else {
            i32c(0)
        };
        let checked = |addr: E| {
            E::If(
                Box::new(fits(addr.clone(), bytes)),
                Box::new(scalar_load(memory, dtype, addr)),
                Box::new(zero.clone()),
            )
        };
        match ix {
            V::Aff(a) if a.stride == 0 => {
                let addr = self.bind(base + a.base * i32c(bytes));
                let x = checked(addr);
                self.uni(dtype, x)
            }
            V::Aff(a) if a.stride == 1 => {
                let addr = self.bind(base + a.base * i32c(bytes));
                let block = self.bind(fits(addr.clone(), (self.width() * 4) as i32));
                let v = (0..self.u)
                    .map(|u| {
                        let at = addr.clone() + i32c((u * LANES) as i32 * bytes);
                        let lanes: Vec<E> = (0..LANES)
                            .map(|l| checked(at.clone() + i32c(l as i32 * bytes)))
                            .collect();
                        let mut each = lanes[0].clone().v1(splat_op(dtype));
                        for (l, x) in lanes.into_iter().enumerate().skip(1) {
                            each = each.v2(replace_lane(dtype, l as u8), x);
                        }
                        E::If(
                            Box::new(block.clone()),
                            Box::new(vector_load(memory, dtype, at)),
                            Box::new(each),
                        )
                    })
                    .collect();
                self.bound(v)
            }
            ix => {
                self.fallbacks += 1;
                let xs = self
                    .lane_indices(ix)
                    .into_iter()
                    .map(|i| {
                        let addr = self.bind(base.clone() + i * i32c(bytes));
                        checked(addr)
                    })
                    .collect();
                V::Vec(self.pack(xs, dtype))
            }
        }
    }
}
