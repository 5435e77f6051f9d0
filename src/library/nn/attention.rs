//! `nn.dotProductAttention`: scaled dot-product attention as a composition of einsum, the
//! numpy elementwise operations and softmax, with grouped-query heads (key/value heads
//! repeated), an additive bias, a boolean mask and a causal mask.

use crate::library::call_args::Attention;
use crate::library::emit::{lit, v};
use crate::library::shape::{expand_dims, squeeze};
use crate::transform::Value;
use crate::util::{Error, Result};

const NAME: &str = "dotProductAttention";

/// q `[B?, L, N, H]`, k and v `[B?, S, K, H]` (K divides N); `mask` (bool, true = keep) and
/// `bias` broadcast to `[B?, N, L, S]`; `scale` defaults to `1/√H`.
pub fn dot_product_attention(a: Attention) -> Result<Value> {
    for (name, x) in [("q", &a.q), ("k", &a.k), ("v", &a.v)] {
        let rank = x.aval().shape.len();
        if rank != 3 && rank != 4 {
            return Err(Error::new(
                NAME,
                format!("{name} must have rank 3 or 4, got {rank}"),
            ));
        }
    }
    let batched = a.q.aval().shape.len() == 4;
    let lead = |x: &Value| {
        if batched {
            Ok(x.clone())
        } else {
            expand_dims(x, &[0])
        }
    };
    let (q, k, v4) = (lead(&a.q)?, lead(&a.k)?, lead(&a.v)?);
    let (qs, ks) = (q.aval().shape.clone(), k.aval().shape.clone());
    if qs.len() != 4 || ks.len() != 4 {
        return Err(Error::new(NAME, "q, k and v must have the same rank"));
    }
    let (l, n, h) = (qs[1], qs[2], qs[3]);
    let (s, heads) = (ks[1], ks[2]);
    if heads == 0 || n % heads != 0 {
        return Err(Error::new(
            NAME,
            format!("{n} query heads, {heads} key heads"),
        ));
    }
    let g = n / heads;
    // Repeat key/value heads for grouped-query attention.
    let repeat = |x: &Value| {
        if g == 1 {
            Ok(x.clone())
        } else {
            crate::library::manipulation::repeat(x, g, Some(2))
        }
    };
    let (kr, vr) = (repeat(&k)?, repeat(&v4)?);
    let scale = a.scale.unwrap_or(1.0 / (h as f64).sqrt());
    let logits = crate::library::einsum::einsum("blnh,bsnh->bnls", &[q, kr])?;
    let mut logits = crate::library::apply("mul", &[v(&logits), lit(scale)])?;
    if let Some(bias) = &a.bias {
        logits = crate::library::apply("add", &[v(&logits), v(bias)])?;
    }
    let mut mask = a.mask.clone();
    if a.is_causal {
        let causal = crate::library::spaced::tri_bool(l, s)?;
        mask = Some(match mask {
            Some(m) => crate::library::apply("logical_and", &[v(&m), v(&causal)])?,
            None => causal,
        });
    }
    if let Some(mask) = &mask {
        logits = crate::library::apply("where", &[v(mask), v(&logits), lit(-1e30)])?;
    }
    let probs = crate::library::nn::softmax(&logits, &[-1], false)?;
    let out = crate::library::einsum::einsum("bnls,bsnh->blnh", &[probs, vr])?;
    if batched {
        Ok(out)
    } else {
        squeeze(&out, Some(&[0]))
    }
}
