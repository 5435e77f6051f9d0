//! Kernel IR → a WebAssembly module (walrus). The module imports the main module's memory as
//! `env.memory` and exports one function, `kernel(n, out, in0, in1, …)`, that computes
//! `out[i] = exp(i)` for `i` in `0..n`. Buffer arguments are byte addresses in that memory.

use walrus::ir::{BinaryOp as W, LoadKind, MemArg, StoreKind};
use walrus::{FunctionBuilder, InstrSeqBuilder, LocalId, MemoryId, Module, ModuleConfig, ValType};

use crate::core::DType;
use crate::kernel::{verify, AluExp, AluKind, BinaryOp, Kernel};
use crate::util::{Error, Result};

/// The exported function's name.
pub const KERNEL_EXPORT: &str = "kernel";

struct Ctx {
    memory: MemoryId,
    index: LocalId,
    inputs: Vec<LocalId>,
}

pub fn emit_kernel(kernel: &Kernel) -> Result<Vec<u8>> {
    verify::verify(kernel)?;
    if kernel.reduction.is_some() {
        return Err(Error::new(
            "wasm codegen",
            "reductions are not supported yet",
        ));
    }
    let mut module = Module::with_config(ModuleConfig::new());
    let (memory, _) = module.add_import_memory("env", "memory", false, false, 0, None, None);

    let params = vec![ValType::I32; 2 + kernel.inputs.len()];
    let mut builder = FunctionBuilder::new(&mut module.types, &params, &[]);
    let n = module.locals.add(ValType::I32);
    let out = module.locals.add(ValType::I32);
    let inputs: Vec<LocalId> = kernel
        .inputs
        .iter()
        .map(|_| module.locals.add(ValType::I32))
        .collect();
    let index = module.locals.add(ValType::I32);
    let ctx = Ctx {
        memory,
        index,
        inputs: inputs.clone(),
    };
    let out_dtype = kernel.output_dtype();

    let mut failure = None;
    builder.func_body().block(None, |exit| {
        let exit_id = exit.id();
        exit.loop_(None, |body| {
            let loop_id = body.id();
            body.local_get(index)
                .local_get(n)
                .binop(W::I32GeS)
                .br_if(exit_id);
            // address of out[index]
            body.local_get(out)
                .local_get(index)
                .i32_const(out_dtype.byte_size() as i32)
                .binop(W::I32Mul)
                .binop(W::I32Add);
            if let Err(e) = emit_exp(&ctx, body, &kernel.exp) {
                failure = Some(e);
                return;
            }
            match store_kind(out_dtype) {
                Ok(kind) => {
                    body.store(memory, kind, mem_arg(out_dtype));
                }
                Err(e) => failure = Some(e),
            }
            body.local_get(index)
                .i32_const(1)
                .binop(W::I32Add)
                .local_set(index)
                .br(loop_id);
        });
    });
    if let Some(e) = failure {
        return Err(e);
    }
    let mut args = vec![n, out];
    args.extend(inputs);
    let func = builder.finish(args, &mut module.funcs);
    module.exports.add(KERNEL_EXPORT, func);
    Ok(module.emit_wasm())
}

fn emit_exp(ctx: &Ctx, b: &mut InstrSeqBuilder, exp: &AluExp) -> Result<()> {
    match &exp.kind {
        AluKind::Const(bits) => {
            let v = f64::from_bits(*bits);
            match exp.dtype {
                DType::Float32 => b.f32_const(v as f32),
                DType::Float64 => b.f64_const(v),
                DType::Int32 => b.i32_const(v as i32),
                DType::Uint32 => b.i32_const(v as u32 as i32),
                DType::Bool => b.i32_const((v != 0.0) as i32),
                DType::Float16 => return Err(unsupported(exp.dtype)),
            };
        }
        AluKind::Index => {
            b.local_get(ctx.index);
        }
        AluKind::Load { input, index } => {
            emit_exp(ctx, b, index)?;
            b.i32_const(exp.dtype.byte_size() as i32)
                .binop(W::I32Mul)
                .local_get(ctx.inputs[*input])
                .binop(W::I32Add)
                .load(ctx.memory, load_kind(exp.dtype)?, mem_arg(exp.dtype));
        }
        AluKind::Cast(x) => {
            emit_exp(ctx, b, x)?;
            emit_cast(b, x.dtype, exp.dtype)?;
        }
        AluKind::Binary(op, x, y) => {
            emit_exp(ctx, b, x)?;
            emit_exp(ctx, b, y)?;
            b.binop(binary_op(*op, exp.dtype)?);
        }
        other => {
            return Err(Error::new(
                "wasm codegen",
                format!("{other:?} is not supported by the wasm emitter yet"),
            ))
        }
    }
    Ok(())
}

/// Conversions between the wasm value types of two dtypes. Float → integer saturates
/// (`trunc_sat`), matching the cpu interpreter; bool is an i32 0/1.
fn emit_cast(b: &mut InstrSeqBuilder, from: DType, to: DType) -> Result<()> {
    use walrus::ir::UnaryOp as U;
    use DType::*;
    let ops: &[U] = match (from, to) {
        (Int32 | Bool, Float32) => &[U::F32ConvertSI32],
        (Uint32, Float32) => &[U::F32ConvertUI32],
        (Int32 | Bool, Float64) => &[U::F64ConvertSI32],
        (Uint32, Float64) => &[U::F64ConvertUI32],
        (Float32, Int32) => &[U::I32TruncSSatF32],
        (Float32, Uint32) => &[U::I32TruncUSatF32],
        (Float64, Int32) => &[U::I32TruncSSatF64],
        (Float64, Uint32) => &[U::I32TruncUSatF64],
        (Float32, Float64) => &[U::F64PromoteF32],
        (Float64, Float32) => &[U::F32DemoteF64],
        (Int32 | Uint32 | Bool, Int32 | Uint32) => &[],
        (Int32 | Uint32 | Bool, Bool) => {
            b.i32_const(0).binop(W::I32Ne);
            return Ok(());
        }
        (Float32, Bool) => {
            b.f32_const(0.0).binop(W::F32Ne);
            return Ok(());
        }
        (Float64, Bool) => {
            b.f64_const(0.0).binop(W::F64Ne);
            return Ok(());
        }
        (Float16, _) | (_, Float16) => return Err(unsupported(Float16)),
        (Float32, Float32) | (Float64, Float64) => &[],
    };
    for &op in ops {
        b.unop(op);
    }
    Ok(())
}

fn binary_op(op: BinaryOp, dtype: DType) -> Result<W> {
    use BinaryOp::*;
    Ok(match (dtype, op) {
        (DType::Float32, Add) => W::F32Add,
        (DType::Float32, Sub) => W::F32Sub,
        (DType::Float32, Mul) => W::F32Mul,
        (DType::Float32, Div) => W::F32Div,
        (DType::Float64, Add) => W::F64Add,
        (DType::Float64, Sub) => W::F64Sub,
        (DType::Float64, Mul) => W::F64Mul,
        (DType::Float64, Div) => W::F64Div,
        (DType::Int32 | DType::Uint32, Add) => W::I32Add,
        (DType::Int32 | DType::Uint32, Sub) => W::I32Sub,
        (DType::Int32 | DType::Uint32, Mul) => W::I32Mul,
        (DType::Int32, Div) => W::I32DivS,
        (DType::Int32, Rem) => W::I32RemS,
        (DType::Uint32, Div) => W::I32DivU,
        (DType::Uint32, Rem) => W::I32RemU,
        (DType::Bool, Add) => W::I32Or,
        (DType::Bool, Mul) => W::I32And,
        _ => {
            return Err(Error::new(
                "wasm codegen",
                format!(
                    "{op:?} on {} is not supported by the wasm emitter yet",
                    dtype.name()
                ),
            ))
        }
    })
}

fn load_kind(dtype: DType) -> Result<LoadKind> {
    Ok(match dtype {
        DType::Float32 => LoadKind::F32,
        DType::Float64 => LoadKind::F64,
        DType::Int32 | DType::Uint32 | DType::Bool => LoadKind::I32 { atomic: false },
        DType::Float16 => return Err(unsupported(dtype)),
    })
}

fn store_kind(dtype: DType) -> Result<StoreKind> {
    Ok(match dtype {
        DType::Float32 => StoreKind::F32,
        DType::Float64 => StoreKind::F64,
        DType::Int32 | DType::Uint32 | DType::Bool => StoreKind::I32 { atomic: false },
        DType::Float16 => return Err(unsupported(dtype)),
    })
}

fn mem_arg(dtype: DType) -> MemArg {
    MemArg {
        align: dtype.byte_size() as u32,
        offset: 0,
    }
}

fn unsupported(dtype: DType) -> Error {
    Error::new(
        "wasm codegen",
        format!(
            "{} is not supported on the wasm device (as in jax-js)",
            dtype.name()
        ),
    )
}
