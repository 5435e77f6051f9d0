//! Counters over the kernel modules the wasm device has emitted (`memoryStats()`'s
//! `kernelCodeBytes` and `kernelMaxLocals`). The locals are read from the emitted bytes, as the
//! host engine sees them: a baseline compiler keeps a state of every local at each block of a
//! function, so a kernel with many thousands of locals costs seconds and gigabytes to compile
//! even when its module is small.

/// The number of locals (parameters excluded) of the function with the most, in a module's
/// code section; 0 for a module without functions or with bytes it cannot read.
pub fn max_locals(module: &[u8]) -> usize {
    let mut r = Reader {
        bytes: module,
        at: 8,
    };
    let mut most = 0;
    while r.at < module.len() {
        let (Some(id), Some(len)) = (r.byte(), r.leb()) else {
            return most;
        };
        let end = r.at + len;
        if id == 10 {
            let functions = r.leb().unwrap_or(0);
            for _ in 0..functions {
                let Some(size) = r.leb() else { return most };
                let next = r.at + size;
                let groups = r.leb().unwrap_or(0);
                let mut locals = 0;
                for _ in 0..groups {
                    locals += r.leb().unwrap_or(0);
                    r.at += 1; // the value type
                }
                most = most.max(locals);
                r.at = next;
            }
        }
        r.at = end;
    }
    most
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn byte(&mut self) -> Option<u8> {
        let b = *self.bytes.get(self.at)?;
        self.at += 1;
        Some(b)
    }

    /// An unsigned LEB128 number.
    fn leb(&mut self) -> Option<usize> {
        let (mut value, mut shift) = (0usize, 0);
        loop {
            let b = self.byte()?;
            value |= usize::from(b & 0x7f).checked_shl(shift)?;
            if b & 0x80 == 0 {
                return Some(value);
            }
            shift += 7;
        }
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::backend::wasm::emit::emit_kernel;
    use crate::core::DType;
    use crate::kernel::{AluExp, BinaryOp, Kernel};

    /// Element `(i / 3 % 5) / 7 % 11 …` (`steps` divisions) of input 0, the divisors constant
    /// or (when `load_divisor`) read from input 1.
    fn indexed(steps: usize, load_divisor: bool) -> Kernel {
        let mut at = AluExp::index();
        for k in 0..steps {
            let c = AluExp::constant(DType::Int32, (3 + 2 * k) as f64);
            let d = if load_divisor {
                AluExp::load(DType::Int32, 1, AluExp::constant(DType::Int32, k as f64))
            } else {
                c.clone()
            };
            let op = if k % 2 == 0 {
                BinaryOp::Div
            } else {
                BinaryOp::Rem
            };
            at = AluExp::binary(op, at, d);
        }
        let exp = AluExp::load(DType::Float32, 0, at);
        Kernel::elementwise(vec![DType::Float32, DType::Int32], 64, exp)
    }

    /// Index arithmetic by constants takes no guard locals: at most the SIMD path's one packed
    /// vector per block vector (two) per division, not one per lane and level; a divisor that
    /// is not a constant takes locals for its guards (and the counter sees them).
    #[test]
    fn constant_index_arithmetic_takes_few_locals() {
        let short = max_locals(&emit_kernel(&indexed(1, false)).unwrap());
        let long = max_locals(&emit_kernel(&indexed(60, false)).unwrap());
        assert!(
            long <= short + 2 * 59,
            "{long} locals for 60 divisions, {short} for 1"
        );
        let guarded = max_locals(&emit_kernel(&indexed(60, true)).unwrap());
        assert!(guarded >= long + 60, "{guarded} locals vs {long}");
    }

    #[test]
    fn unreadable_bytes_count_nothing() {
        assert_eq!(max_locals(&[]), 0);
        assert_eq!(max_locals(&[0, 97, 115, 109, 1, 0, 0, 0, 10, 200]), 0);
    }
}
