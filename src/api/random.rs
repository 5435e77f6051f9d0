//! `random`: keys, bits, split, uniform, normal, bernoulli (see `library::random`); draws run
//! as cached compiled programs from the second of each shape (`transform::eager_jit`).

use wasm_bindgen::prelude::*;

use super::{handles, js_error, placement, to_shape};
use crate::library::random;
use crate::transform::{eager_jit, ArrayValue, Value};
use crate::util::{Error, Result};

type JsResult<T> = std::result::Result<T, JsError>;

/// A key from an integer seed: `[0, seed mod 2³²]` (JAX without x64).
#[wasm_bindgen(js_name = randomKey)]
pub fn random_key(seed: f64, device: &str) -> JsResult<f64> {
    let run = || -> Result<f64> {
        if !seed.is_finite() || seed.fract() != 0.0 {
            return Err(Error::new(
                "key",
                format!("the seed must be an integer, got {seed}"),
            ));
        }
        let low = (seed.rem_euclid(4294967296.0)) as u32;
        let bytes: Vec<u8> = [0u32, low].iter().flat_map(|w| w.to_le_bytes()).collect();
        let (device, committed) = placement("key", device)?;
        let mut k =
            ArrayValue::from_bytes("key", &bytes, vec![2], crate::core::DType::Uint32, device)?;
        k.committed = committed;
        Ok(handles::insert(Value::Concrete(k)))
    };
    run().map_err(js_error)
}

/// `kind`: "bits", "uniform", "normal", "bernoulli" (`a` = p), or "split" (`a` = num).
#[wasm_bindgen]
pub fn random(kind: &str, key: f64, dims: Vec<f64>, a: f64, b: f64) -> JsResult<f64> {
    let run = || -> Result<f64> {
        let k = handles::get(kind, key)?;
        let s = to_shape(kind, &dims)?;
        let draw = |k: &Value| -> Result<Value> {
            match kind {
                "bits" => random::bits(k, &s),
                "uniform" => random::uniform(k, &s, a, b),
                "normal" => random::normal(k, &s),
                "bernoulli" => random::bernoulli(k, a, &s),
                "split" => random::split(k, to_shape(kind, &[a])?[0]),
                other => Err(Error::new(other, "unknown random function")),
            }
        };
        // Run as a cached compiled program from the second draw of this shape.
        let mut params = vec![a, b];
        params.extend_from_slice(&dims);
        let mut outs = crate::transform::scope::follow(std::slice::from_ref(&k), || {
            eager_jit::run(kind, &params, std::slice::from_ref(&k), |ks| {
                Ok(vec![draw(&ks[0])?])
            })
        })?;
        let out = outs
            .pop()
            .ok_or_else(|| Error::new(kind, "internal error: no result"))?;
        Ok(handles::insert(out))
    };
    run().map_err(js_error)
}
