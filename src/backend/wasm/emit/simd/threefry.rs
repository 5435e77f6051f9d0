//! threefry2x32 in the SIMD lowering: its four uint32 operands as vectors, then the rounds of
//! every vector of the block inlined, interleaved step by step (`emit::threefry::rounds`). A
//! threefry whose operands are all uniform never gets here (the scalar lowering computes it
//! once).

use super::{Simd, V};
use crate::backend::wasm::emit::threefry::rounds;
use crate::kernel::{AluExp, ThreefryMode};
use crate::util::Result;

impl Simd<'_> {
    pub(super) fn threefry(&mut self, mode: ThreefryMode, operands: &[AluExp; 4]) -> Result<V> {
        let mut vectors = Vec::with_capacity(operands.len());
        for o in operands {
            let x = self.lower(o)?;
            vectors.push(self.vecs(x, o.dtype));
        }
        let sets = (0..self.u)
            .map(|u| [0, 1, 2, 3].map(|j| vectors[j][u].clone()))
            .collect();
        let (stmts, values) = rounds(&mut self.cx.module, true, mode, sets);
        self.stmts.extend(stmts);
        Ok(self.bound(values))
    }
}
