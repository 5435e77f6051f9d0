//! Type checking of kernels. Backends call [`verify`] before compiling, so an ill-formed kernel
//! is reported as an error naming the problem instead of producing wrong code.

use super::alu::{AluExp, AluKind, BinaryOp, UnaryOp};
use super::Kernel;
use crate::core::DType;
use crate::util::{Error, Result};

pub fn verify(kernel: &Kernel) -> Result<()> {
    if kernel.reduction.is_some_and(|r| r.size == 0) {
        return Err(Error::new("kernel verify", "empty reduction"));
    }
    check(kernel, &kernel.exp)?;
    if let Some(pass) = kernel.epilogue_kernel() {
        let ep = &pass.exp;
        if ep.dtype != kernel.exp.dtype {
            return bad(format!(
                "epilogue typed {:?} after a {:?} value",
                ep.dtype, kernel.exp.dtype
            ));
        }
        if !loads_at_index(ep) {
            return bad("epilogue loads other than its value at Index".into());
        }
        check(&pass, ep)?;
    }
    Ok(())
}

/// True when every load of `exp` reads element `Index` (an epilogue reads only its own value).
fn loads_at_index(exp: &AluExp) -> bool {
    match &exp.kind {
        AluKind::Load { index, .. } => matches!(index.kind, AluKind::Index),
        AluKind::ReduceIndex => false,
        _ => exp.children().into_iter().all(loads_at_index),
    }
}

fn bad<T>(what: String) -> Result<T> {
    Err(Error::new("kernel verify", what))
}

fn check(kernel: &Kernel, exp: &AluExp) -> Result<()> {
    let int = |d: DType| matches!(d, DType::Int32 | DType::Uint32);
    match &exp.kind {
        AluKind::Const(_) => {}
        AluKind::Index | AluKind::ReduceIndex if exp.dtype != DType::Int32 => {
            return bad(format!("index typed {:?}", exp.dtype))
        }
        AluKind::ReduceIndex if kernel.reduction.is_none() => {
            return bad("reduce index outside a reduction".into())
        }
        AluKind::Index | AluKind::ReduceIndex => {}
        AluKind::Load { input, index } => {
            match kernel.inputs.get(*input) {
                None => return bad(format!("load from missing input {input}")),
                Some(&d) if d != exp.dtype => {
                    return bad(format!(
                        "load of input {input} ({d:?}) typed {:?}",
                        exp.dtype
                    ))
                }
                Some(_) => {}
            }
            if index.dtype != DType::Int32 {
                return bad(format!("load index typed {:?}", index.dtype));
            }
        }
        AluKind::Unary(op, a) => {
            let ok = match op {
                UnaryOp::Neg | UnaryOp::Abs => exp.dtype != DType::Bool,
                UnaryOp::Not => !exp.dtype.is_float(),
                _ => exp.dtype.is_float(),
            };
            if !ok || a.dtype != exp.dtype {
                return bad(format!("{op:?} of {:?} typed {:?}", a.dtype, exp.dtype));
            }
        }
        AluKind::Binary(op, a, b) => {
            let ok = match op {
                BinaryOp::And | BinaryOp::Or | BinaryOp::Xor => !exp.dtype.is_float(),
                BinaryOp::Shl | BinaryOp::Shr => int(exp.dtype),
                _ => exp.dtype != DType::Bool,
            };
            if !ok || a.dtype != exp.dtype || b.dtype != exp.dtype {
                return bad(format!(
                    "{op:?} of {:?} and {:?} typed {:?}",
                    a.dtype, b.dtype, exp.dtype
                ));
            }
        }
        AluKind::Compare(op, a, b) => {
            if exp.dtype != DType::Bool || a.dtype != b.dtype {
                return bad(format!("{op:?} of {:?} and {:?}", a.dtype, b.dtype));
            }
        }
        AluKind::Where(c, a, b) => {
            if c.dtype != DType::Bool || a.dtype != exp.dtype || b.dtype != exp.dtype {
                return bad(format!(
                    "where({:?}, {:?}, {:?})",
                    c.dtype, a.dtype, b.dtype
                ));
            }
        }
        AluKind::Cast(_) => {}
        AluKind::Bitcast(a) => {
            if a.dtype.byte_size() != exp.dtype.byte_size() || a.dtype == DType::Bool {
                return bad(format!("bitcast {:?} to {:?}", a.dtype, exp.dtype));
            }
        }
        AluKind::Threefry(mode, ops) => {
            if exp.dtype != DType::Uint32 || ops.iter().any(|o| o.dtype != DType::Uint32) {
                let types: Vec<DType> = ops.iter().map(|o| o.dtype).collect();
                return bad(format!(
                    "threefry {mode:?} of {types:?} typed {:?}",
                    exp.dtype
                ));
            }
        }
    }
    exp.children()
        .into_iter()
        .try_for_each(|c| check(kernel, c))
}
