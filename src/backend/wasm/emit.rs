//! Kernel IR → a WebAssembly module (walrus). The module imports the data memory as
//! `env.memory` and exports one function, `kernel(start, end, out, in0, in1, …)`, that computes
//! `out[i] = exp(i)` (or, for a reducing kernel, `out[i] = op over r of exp(i, r)`, in order
//! r = 0, 1, …) for `i` in `start..end`, then maps each `out[i]` through the kernel's epilogue
//! if it has one. Buffer arguments are byte addresses in that memory. Every output element's
//! value is the same whatever range computes it, as long as `start` is a multiple of
//! [`split_align`] (worker threads compute disjoint ranges of one kernel).
//!
//! This file owns the module shape and the loops; `ops` lowers the ALU operations, `math` and
//! its siblings emit the transcendental routines (each needed one once per module, as a
//! function the kernel calls), `dsl` is the small expression language all of them write in.

mod affine;
mod dsl;
mod half;
pub mod loops;
mod math;
mod math_consts;
mod math_erf;
mod math_exp;
mod math_inv;
mod math_trig;
mod matmul;
mod ops;
mod rblock;
pub mod routines;
mod rowblock;
mod simd;
mod simd_ops;
#[cfg(all(test, not(target_arch = "wasm32")))]
pub(super) mod simd_tests;
mod threefry;
mod unroll;
mod vloop;
mod vmath;
mod vmath32;
mod vmath_erf;
mod vmath_inv;
mod vrem;

use walrus::ir::StoreKind;
use walrus::{FunctionId, MemoryId, Module, ModuleConfig, ValType};

use crate::core::DType;
use crate::kernel::{order, reduce_identity, verify, AluExp, Kernel, ReduceOp};
use crate::util::{Error, Result};
use dsl::{f64c, i32c, procedure, Var, E, S};

/// The exported function's name.
pub const KERNEL_EXPORT: &str = "kernel";

/// What lowering an expression needs: the module (for locals and routines), the memory, the
/// loop variables and the input base addresses.
pub(super) struct Cx {
    pub module: Module,
    pub memory: MemoryId,
    pub index: Var,
    pub reduce_index: Var,
    pub inputs: Vec<Var>,
    pub lib: math::Lib,
    /// Small loops are unrolled (`unroll`): set for the kernels of loop modules.
    pub unroll: bool,
}

impl Cx {
    /// A fresh local.
    pub fn tmp(&mut self, ty: ValType) -> Var {
        Var::new(&mut self.module, ty)
    }
}

/// A module importing the data memory (`super::data`) as `env.memory`, declared shared when
/// that memory is (worker threads instantiate the same module against it).
pub(super) fn new_module() -> (Module, MemoryId) {
    let mut module = Module::with_config(ModuleConfig::new());
    let shared = super::data::shared();
    let max = Some(u64::from(super::data::MAX_PAGES));
    let (memory, _) = module.add_import_memory("env", "memory", shared, false, 0, max, None);
    (module, memory)
}

pub fn emit_kernel(kernel: &Kernel) -> Result<Vec<u8>> {
    let (module, memory) = new_module();
    let lib = &mut math::Lib::default();
    let (mut module, func) = kernel_function(module, memory, lib, kernel, false, true)?;
    module.exports.add(KERNEL_EXPORT, func);
    // Routines requested by SIMD lowerings that were tried and dropped are unused: remove them
    // (a module without routines holds only the kernel).
    if !lib.is_empty() {
        walrus::passes::gc::run(&mut module);
    }
    Ok(module.emit_wasm())
}

/// Whether `kernel`'s module is the same whatever its size: its code reads the size only as
/// the end of the range it computes, except in the tiled and row-blocked products, whose
/// plans depend on the numbers of rows.
pub fn size_free(kernel: &Kernel) -> bool {
    matmul::tile_rows_elements(kernel).is_none() && rowblock::block_elements(kernel).is_none()
}

/// The multiple of output elements at which a range of `kernel` may start (and end, but for
/// the last range): the widest SIMD block (16 elements) so each element takes the same code
/// path (vector or scalar) in any range, whole blocks of 4-row tiles for a tiled matrix
/// product, and whole blocks of a product blocked over rows (`rowblock`, whose ranges count
/// elements in block order).
pub fn split_align(kernel: &Kernel) -> usize {
    matmul::tile_rows_elements(kernel)
        .or_else(|| rowblock::block_elements(kernel))
        .unwrap_or(16)
}

/// Adds `kernel` to `module` as a function `(n, out, in0, in1, …)` (not exported), or with
/// `ranged` `(start, n, out, in0, …)` computing elements `start..n`; `lib` holds
/// the math routines already in the module, shared by all its kernels. With `unroll` (loop
/// modules, where `n` is always `kernel.size`) a small kernel is straight-line code: one store
/// per output element at a constant index, short reductions unrolled too (`unroll`), so the
/// engine folds the index arithmetic; the values and their order are those of the scalar loop.
pub(super) fn kernel_function(
    mut module: Module,
    memory: MemoryId,
    lib: &mut math::Lib,
    kernel: &Kernel,
    unroll: bool,
    ranged: bool,
) -> Result<(Module, FunctionId)> {
    verify::verify(kernel)?;
    // Without `ranged`, `start` is a local that stays 0.
    let start = Var::new(&mut module, ValType::I32);
    let n = Var::new(&mut module, ValType::I32);
    let out = Var::new(&mut module, ValType::I32);
    let inputs: Vec<Var> = kernel
        .inputs
        .iter()
        .map(|_| Var::new(&mut module, ValType::I32))
        .collect();
    let index = Var::new(&mut module, ValType::I32);
    let reduce_index = Var::new(&mut module, ValType::I32);
    let mut cx = Cx {
        module,
        memory,
        index,
        reduce_index,
        inputs: inputs.clone(),
        lib: std::mem::take(lib),
        unroll: unroll && unroll::small(kernel),
    };
    let out_dtype = kernel.output_dtype();
    // float16 kernels run the scalar loops only (no SIMD lowering of the conversions).
    let f16 = has_float16(kernel);
    let value = ops::lower(&mut cx, &kernel.exp)?;
    let result = match kernel.reduction {
        None => value,
        Some(red) if vloop::lane_blocked(kernel) && !f16 => {
            rblock::reduce(&mut cx, kernel, red, value)?
        }
        Some(red) => reduce(
            &mut cx,
            red.op,
            red.size,
            out_dtype,
            order::wide(kernel),
            value,
        ),
    };
    let result = stored(&mut cx, out_dtype, result);
    let addr = out.get() + index.get() * i32c(out_dtype.byte_size() as i32);
    if cx.unroll {
        let epilogue = match &kernel.epilogue {
            Some(ep) => Some(epilogue_value(&mut cx, ep, out, out_dtype)?),
            None => None,
        };
        let body = unroll::stores(&cx, kernel.size, out_dtype, (addr, result), epilogue);
        return Ok(finish(
            cx,
            lib,
            (ranged.then_some(start), n),
            out,
            inputs,
            &body,
        ));
    }
    // A tiled matrix product covers whole rows, a product blocked over rows whole blocks (in
    // place of every loop below, the epilogue's too); otherwise the vector loop covers blocks.
    let tiled = matmul::tiled(&mut cx, kernel, (start, n), out, &result)?;
    let rows = match (&tiled, f16) {
        (None, false) => rowblock::blocked(&mut cx, kernel, (start, n), out, &result)?,
        _ => None,
    };
    let vector = if tiled.is_some() || f16 {
        None
    } else {
        vloop::vector_loop(&mut cx, kernel, n, out)?
    };
    let mut body = vec![index.set(start.get())];
    body.extend(tiled);
    body.extend(vector);
    body.extend([S::While(
        index.get().ltu(n.get()),
        vec![
            S::Store(memory, store_kind(out_dtype), addr, result),
            index.set(index.get() + i32c(1)),
        ],
    )]);
    if let Some(ep) = &kernel.epilogue {
        // A second loop maps each result in place: the epilogue's input 0 is `out`.
        // (Blocked products map theirs block by block.)
        let (addr, mapped) = epilogue_value(&mut cx, ep, out, out_dtype)?;
        body.extend([
            index.set(start.get()),
            S::While(
                index.get().ltu(n.get()),
                vec![
                    S::Store(memory, store_kind(out_dtype), addr, mapped),
                    index.set(index.get() + i32c(1)),
                ],
            ),
        ]);
    }
    if let Some((whole, blocked)) = rows {
        body = vec![S::If(whole, blocked, body)];
    }
    Ok(finish(
        cx,
        lib,
        (ranged.then_some(start), n),
        out,
        inputs,
        &body,
    ))
}

/// The epilogue's address and mapped value at `cx.index` (its input 0 is `out`).
pub(super) fn epilogue_value(cx: &mut Cx, ep: &AluExp, out: Var, dtype: DType) -> Result<(E, E)> {
    let inputs = std::mem::replace(&mut cx.inputs, vec![out]);
    let mapped = ops::lower(cx, ep)?;
    let mapped = stored(cx, dtype, mapped);
    cx.inputs = inputs;
    let addr = out.get() + cx.index.get() * i32c(dtype.byte_size() as i32);
    Ok((addr, mapped))
}

/// The kernel's function `([start,] n, out, inputs…)` with `body`; gives the math library back.
fn finish(
    cx: Cx,
    lib: &mut math::Lib,
    (start, n): (Option<Var>, Var),
    out: Var,
    inputs: Vec<Var>,
    body: &[S],
) -> (Module, FunctionId) {
    let mut params: Vec<Var> = start.into_iter().collect();
    params.extend([n, out]);
    params.extend(inputs);
    let Cx {
        mut module,
        lib: used,
        ..
    } = cx;
    *lib = used;
    let func = procedure(&mut module, &params, body);
    (module, func)
}

/// The reduction loop around `value` (an expression of `reduce_index`): accumulates in the
/// output dtype, or with `wide` (`order::wide`) in f64, rounding once, as the cpu interpreter
/// does.
fn reduce(cx: &mut Cx, op: ReduceOp, size: usize, dtype: DType, wide: bool, value: E) -> E {
    let acc_ty = if wide { ValType::F64 } else { value.ty() };
    let acc = cx.tmp(acc_ty);
    let identity = reduce_identity(op, dtype);
    let init = match (acc_ty, dtype) {
        (ValType::F64, _) => f64c(identity),
        (ValType::F32, _) => E::F32(identity as f32),
        (_, DType::Uint32) => i32c(identity as u32 as i32),
        _ => i32c(identity as i32),
    };
    let x = if wide { value.widen() } else { value };
    // float16 accumulates in f64 (sums, products) or f32 (max, min), rounding once at the end.
    let step_dtype = match dtype {
        DType::Float16 if wide => DType::Float64,
        DType::Float16 => DType::Float32,
        d => d,
    };
    let combined = ops::reduce_step(cx, op, step_dtype, acc.get(), x);
    let r = cx.reduce_index;
    if cx.unroll && size <= crate::backend::caps::WASM_UNROLL_MAX_REDUCTION {
        let mut stmts = vec![acc.set(init)];
        for k in 0..size {
            stmts.extend([r.set(i32c(k as i32)), acc.set(combined.clone())]);
        }
        let result = if wide && matches!(dtype, DType::Float32 | DType::Float16) {
            acc.get().demote()
        } else {
            acc.get()
        };
        return dsl::seq(stmts, result);
    }
    let result = if wide && dtype == DType::Float16 {
        // Rounded to odd in f32, then once to float16 by `stored` (no double rounding).
        half::demote_odd(cx, acc.get())
    } else if wide && dtype == DType::Float32 {
        acc.get().demote()
    } else {
        acc.get()
    };
    dsl::seq(
        vec![
            acc.set(init),
            r.set(i32c(0)),
            S::While(
                r.get().ltu(i32c(size as u32 as i32)),
                vec![acc.set(combined), r.set(r.get() + i32c(1))],
            ),
        ],
        result,
    )
}

/// Whether float16 appears anywhere in the kernel.
fn has_float16(kernel: &Kernel) -> bool {
    fn walk(exp: &AluExp) -> bool {
        exp.dtype == DType::Float16 || exp.children().into_iter().any(walk)
    }
    kernel.inputs.contains(&DType::Float16)
        || walk(&kernel.exp)
        || kernel.epilogue.as_ref().is_some_and(walk)
}

/// The value written for a result of `dtype`: float16 (held in f32) as its 16-bit pattern.
fn stored(cx: &mut Cx, dtype: DType, value: E) -> E {
    if dtype == DType::Float16 {
        half::narrow(cx, value)
    } else {
        value
    }
}

pub(super) fn store_kind(dtype: DType) -> StoreKind {
    match dtype {
        DType::Float32 => StoreKind::F32,
        DType::Float64 => StoreKind::F64,
        DType::Float16 => StoreKind::I32_16 { atomic: false },
        _ => StoreKind::I32 { atomic: false },
    }
}

pub(super) fn unsupported(dtype: DType) -> Error {
    Error::new(
        "wasm codegen",
        format!(
            "{} is not supported on the wasm device (as in jax-js)",
            dtype.name()
        ),
    )
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::kernel::{BinaryOp, CompareOp, Reduction, UnaryOp};

    fn valid(kernel: &Kernel) {
        let bytes = emit_kernel(kernel).unwrap();
        wasmparser::Validator::new()
            .validate_all(&bytes)
            .unwrap_or_else(|e| panic!("{kernel:?}: invalid wasm: {e}"));
    }

    fn load(dtype: DType, input: usize) -> AluExp {
        AluExp::load(dtype, input, AluExp::index())
    }

    /// Every operation on every dtype it takes emits a valid module (executed for real by
    /// `tests/integration/wasm_kernels.rs` in Node).
    #[test]
    fn every_operation_emits_a_valid_module() {
        use UnaryOp::*;
        for d in [DType::Float32, DType::Float64] {
            let mut exp = load(d, 0);
            for op in [
                Neg, Abs, Reciprocal, Floor, Ceil, RoundEven, Sqrt, Exp, Log, Sin, Cos, Asin, Atan,
                Tanh, Erf, Erfc,
            ] {
                exp = AluExp::unary(op, exp);
            }
            valid(&Kernel::elementwise(vec![d], 7, exp));
        }
        for d in [DType::Float32, DType::Float64, DType::Int32, DType::Uint32] {
            for op in [
                BinaryOp::Add,
                BinaryOp::Sub,
                BinaryOp::Mul,
                BinaryOp::Div,
                BinaryOp::Rem,
                BinaryOp::Min,
                BinaryOp::Max,
            ] {
                let exp = AluExp::binary(op, load(d, 0), load(d, 1));
                valid(&Kernel::elementwise(vec![d, d], 5, exp));
            }
            for to in [
                DType::Float32,
                DType::Float64,
                DType::Int32,
                DType::Uint32,
                DType::Bool,
            ] {
                valid(&Kernel::elementwise(
                    vec![d],
                    5,
                    AluExp::cast(load(d, 0), to),
                ));
            }
            let cmp = AluExp::compare(CompareOp::Le, load(d, 0), load(d, 1));
            let exp = AluExp::where_(cmp, load(d, 0), load(d, 1));
            let mut k = Kernel::elementwise(vec![d, d], 3, exp);
            k.reduction = Some(Reduction {
                op: ReduceOp::Max,
                size: 4,
            });
            valid(&k);
        }
    }

    #[test]
    fn float16_kernels_emit_valid_modules() {
        let x = || load(DType::Float16, 0);
        let f16 = vec![DType::Float16];
        valid(&Kernel::elementwise(f16.clone(), 2, x()));
        valid(&Kernel::elementwise(
            f16.clone(),
            2,
            AluExp::unary(UnaryOp::Exp, x()),
        ));
        valid(&Kernel::elementwise(
            f16.clone(),
            2,
            AluExp::binary(BinaryOp::Max, x(), x()),
        ));
        valid(&Kernel::elementwise(
            f16,
            2,
            AluExp::cast(x(), DType::Int32),
        ));
        let wide = AluExp::cast(load(DType::Float64, 0), DType::Float16);
        valid(&Kernel::elementwise(vec![DType::Float64], 2, wide));
    }
}
