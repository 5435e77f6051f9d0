//! The `fft` primitive: abstract evaluation, the [`Routine`] that computes it
//! (`kernel::RoutineKind::Fft`, along the last axis) and its reverse-mode rule. The transform
//! is linear and its matrix symmetric, so the cotangent of the input is the transform with the
//! opposite sign applied to the output cotangents. NumPy's transforms (`fft`, `rfft`, `irfft`,
//! other axes, lengths, scaling) are compositions in `library::fft`.

use super::emit::Emit;
use super::lax;
use crate::core::{Aval, DType};
use crate::kernel::{Routine, RoutineKind};
use crate::util::{Error, Result};

/// The avals of `fft`'s outputs: the real and imaginary parts, as the operands.
pub fn abstract_eval(inputs: &[&Aval]) -> Result<Vec<Aval>> {
    if inputs.len() != 2 {
        return Err(Error::new(
            "fft",
            format!("expected 2 operands (real, imag), got {}", inputs.len()),
        ));
    }
    let (re, im) = (inputs[0], inputs[1]);
    if re.shape.is_empty() {
        return Err(Error::new("fft", "needs an array of at least 1 dimension"));
    }
    if re.shape != im.shape || re.dtype != im.dtype {
        return Err(Error::new(
            "fft",
            format!(
                "real and imag parts must have one shape and dtype, got {} {:?} and {} {:?}",
                re.dtype.name(),
                re.shape,
                im.dtype.name(),
                im.shape
            ),
        ));
    }
    if !matches!(re.dtype, DType::Float32 | DType::Float64) {
        return Err(Error::new(
            "fft",
            format!(
                "operands must be float32 or float64, got {}",
                re.dtype.name()
            ),
        ));
    }
    Ok(vec![(*re).clone(), (*im).clone()])
}

/// The routine transforming the rows of dense operands of aval `x`.
pub fn routine(inverse: bool, x: &Aval) -> Routine {
    let r = x.shape.len();
    Routine {
        kind: RoutineKind::Fft { inverse },
        dtype: x.dtype,
        batch: x.shape[..r - 1].iter().product(),
        m: 1,
        n: x.shape[r - 1],
    }
}

/// The cotangents of `(re, im)` for output cotangents `gs` (`None`: zero).
pub fn vjp<E: Emit>(
    e: &mut E,
    inverse: bool,
    outs: &[E::V],
    gs: &[Option<E::V>],
) -> Result<Vec<Option<E::V>>> {
    let mut parts = Vec::with_capacity(2);
    for (g, out) in gs.iter().zip(outs) {
        parts.push(match g {
            Some(g) => g.clone(),
            None => lax::zeros_like(e, out)?,
        });
    }
    let back = lax::fft(e, &parts[0], &parts[1], !inverse)?;
    Ok(back.into_iter().map(Some).collect())
}
