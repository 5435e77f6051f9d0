//! Type checking of kernels. Backends call [`verify`] before compiling, so an ill-formed kernel
//! is reported as an error naming the problem instead of producing wrong code.

use super::alu::{AluExp, AluKind};
use super::Kernel;
use crate::core::DType;
use crate::util::{Error, Result};

pub fn verify(kernel: &Kernel) -> Result<()> {
    check(kernel, &kernel.exp)
}

fn check(kernel: &Kernel, exp: &AluExp) -> Result<()> {
    let bad = |what: String| Err(Error::new("kernel verify", what));
    match &exp.kind {
        AluKind::Const(_) => Ok(()),
        AluKind::Index if exp.dtype != DType::Int32 => bad(format!("index typed {:?}", exp.dtype)),
        AluKind::Index => Ok(()),
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
            check(kernel, index)
        }
        AluKind::Cast(a) => check(kernel, a),
        AluKind::Binary(op, a, b) => {
            if a.dtype != exp.dtype || b.dtype != exp.dtype {
                return bad(format!(
                    "{op:?} of {:?} and {:?} typed {:?}",
                    a.dtype, b.dtype, exp.dtype
                ));
            }
            check(kernel, a)?;
            check(kernel, b)
        }
    }
}
