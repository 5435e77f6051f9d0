//! The FFT routine (`kernel::RoutineKind::Fft`) on webgpu, in float32 arithmetic with tables
//! computed in f64 on the host (`backend/fft.rs`): iterative radix-2 decimation in time over a
//! power-of-two length `P`.
//!
//! - `tile` loads `T` points of a row in bit-reversed order into workgroup memory and runs the
//!   stages whose butterflies span at most `T` points there; `stage` runs one wider stage
//!   over the whole batch (half-span in `params.a`). With `n` a power of two (`P = n`) that is
//!   the transform, in place in the outputs.
//! - Any other `n` is Bluestein's algorithm with `P = M ≥ 2n − 1` (see `backend/fft.rs`) in a
//!   scratch buffer holding two complex arrays `S1`, `S2` of `[batch, M]`: `tile` mode 0 loads
//!   the chirped input into `S1`, stages finish its transform; `tile` mode 1 loads
//!   `conj(S1·F)` (`F` the filter's transform over `M`) into `S2`, stages finish it (a forward
//!   transform of the conjugate: the inverse one); `finish` writes `w[k]·conj(S2[k])`.
//!
//! Bindings: `in_re`, `in_im`, `out_re`, `out_im`, (Bluestein: `scratch`), `kst` (the constant
//! table: twiddles over `P`, then the chirp and the filter), `params`.

use super::passes::{header, Extra, Pass, Passes};
use super::routines::Gpu;
use crate::core::DType;
use crate::kernel::{Routine, RoutineKind};
use crate::util::{Error, Result};

/// Points transformed in workgroup memory at once.
const TILE: usize = 1024;
/// Invocations per workgroup of every pass: WebGPU's default limit, which every device has
/// (SwiftShader has no more); `tile`'s invocations take `T / 2 / W` butterflies each.
const GLOBAL_WG: usize = 256;

const TILE_PASS: usize = 0;
const STAGE: usize = 1;
const FINISH: usize = 2;
const ENTRIES: [&str; 3] = ["tile", "stage", "finish"];

/// The entry points of the shader (`finish` only for Bluestein).
fn entries(blue: bool) -> &'static [&'static str] {
    if blue {
        &ENTRIES
    } else {
        &ENTRIES[..2]
    }
}

/// The shape of a transform: (n, P, T, Bluestein).
fn sizes(routine: &Routine) -> (usize, usize, usize, bool) {
    let n = routine.n;
    let blue = !n.is_power_of_two();
    let p = if blue {
        (2 * n - 1).next_power_of_two()
    } else {
        n.max(2)
    };
    (n, p, TILE.min(p), blue)
}

fn inverse(routine: &Routine) -> bool {
    matches!(routine.kind, RoutineKind::Fft { inverse: true })
}

/// The constant table: twiddles `e^(∓2πi·k/P)` (`k < P/2`, real parts then imaginary), then
/// for Bluestein the chirp (`n`) and the filter (`P`), each real then imaginary, as f32.
fn table(routine: &Routine) -> Vec<u8> {
    let (n, p, _, blue) = sizes(routine);
    let (re, mut im) = crate::backend::fft::roots(p, p / 2);
    // The power-of-two inverse transform turns its twiddles; Bluestein's inner ones are forward.
    if inverse(routine) && !blue {
        im.iter_mut().for_each(|v| *v = -*v);
    }
    let mut all = vec![re, im];
    if blue {
        let (_, [cr, ci, fr, fi]) = crate::backend::fft::bluestein_tables(n, inverse(routine));
        all.extend([cr, ci, fr, fi]);
    }
    all.iter()
        .flatten()
        .flat_map(|&v| (v as f32).to_le_bytes())
        .collect()
}

/// Loads and stores of complex point `i` (`row·P + k`) of buffer `buf` (0: the outputs, 1:
/// `S1`, 2: `S2`), and the input of `tile` in `mode` for bit-reversed position `s`.
fn accessors(blue: bool) -> &'static str {
    if !blue {
        // Rows of P = N points (n = 1: P = 2, the second point zero and not stored).
        return "fn ld(buf: u32, i: u32) -> vec2<f32> { return vec2<f32>(out_re[i], out_im[i]); }
fn st(buf: u32, i: u32, v: vec2<f32>) {
  if (i % P >= N) { return; }
  let at = (i / P) * N + i % P;
  out_re[at] = v.x;
  out_im[at] = v.y;
}
fn source(mode: u32, row: u32, s: u32) -> vec2<f32> {
  if (s >= N) { return vec2<f32>(0.0, 0.0); }
  return vec2<f32>(in_re[row * N + s], in_im[row * N + s]);
}
fn dest(mode: u32) -> u32 { return 0u; }
";
    }
    "fn ld(buf: u32, i: u32) -> vec2<f32> {
  let at = (buf - 1u) * 2u * B * P + i;
  return vec2<f32>(scratch[at], scratch[at + B * P]);
}
fn st(buf: u32, i: u32, v: vec2<f32>) {
  let at = (buf - 1u) * 2u * B * P + i;
  scratch[at] = v.x;
  scratch[at + B * P] = v.y;
}
fn chirp(k: u32) -> vec2<f32> { return vec2<f32>(kst[P + k], kst[P + N + k]); }
fn source(mode: u32, row: u32, s: u32) -> vec2<f32> {
  if (mode == 0u) {
    if (s >= N) { return vec2<f32>(0.0, 0.0); }
    return cmul(vec2<f32>(in_re[row * N + s], in_im[row * N + s]), chirp(s));
  }
  let f = vec2<f32>(kst[P + 2u * N + s], kst[2u * P + 2u * N + s]);
  let v = cmul(ld(1u, row * P + s), f);
  return vec2<f32>(v.x, -v.y);
}
fn dest(mode: u32) -> u32 { return mode + 1u; }
@compute @workgroup_size(GWG)
fn finish(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let t = gid.x + gid.y * nwg.x * GWG;
  if (t >= B * N) { return; }
  let v = ld(2u, (t / N) * P + t % N);
  let y = cmul(chirp(t % N), vec2<f32>(v.x, -v.y));
  out_re[t] = y.x;
  out_im[t] = y.y;
}
"
}

const BODY: &str = "
fn cmul(a: vec2<f32>, b: vec2<f32>) -> vec2<f32> {
  return vec2<f32>(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
fn tw(j: u32) -> vec2<f32> { return vec2<f32>(kst[j], kst[P / 2u + j]); }
@compute @workgroup_size(W)
fn tile(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let g = wid.x + wid.y * nwg.x;
  if (g >= B * (P / T)) { return; }
  let row = g / (P / T);
  let p0 = (g % (P / T)) * T;
  for (var e = lid; e < T; e = e + W) {
    let v = source(params.b, row, reverseBits(p0 + e) >> (32u - LOGP));
    sre[e] = v.x;
    sim[e] = v.y;
  }
  workgroupBarrier();
  for (var h = 1u; h < T; h = h << 1u) {
    for (var q = lid; q < T / 2u; q = q + W) {
      let j = q % h;
      let i0 = (q / h) * 2u * h + j;
      let w = tw(j * (P / (2u * h)));
      let b = cmul(vec2<f32>(sre[i0 + h], sim[i0 + h]), w);
      let a = vec2<f32>(sre[i0], sim[i0]);
      sre[i0] = a.x + b.x;
      sim[i0] = a.y + b.y;
      sre[i0 + h] = a.x - b.x;
      sim[i0 + h] = a.y - b.y;
    }
    workgroupBarrier();
  }
  let buf = dest(params.b);
  for (var e = lid; e < T; e = e + W) {
    st(buf, row * P + p0 + e, vec2<f32>(sre[e], sim[e]));
  }
}
@compute @workgroup_size(GWG)
fn stage(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let t = gid.x + gid.y * nwg.x * GWG;
  if (t >= B * (P / 2u)) { return; }
  let h = params.a;
  let q = t % (P / 2u);
  let j = q % h;
  let i0 = (t / (P / 2u)) * P + (q / h) * 2u * h + j;
  let b = cmul(ld(params.b, i0 + h), tw(j * (P / (2u * h))));
  let a = ld(params.b, i0);
  st(params.b, i0, a + b);
  st(params.b, i0 + h, a - b);
}
";

/// The shader of a transform of `routine`.
pub fn source(routine: &Routine) -> Result<String> {
    if routine.dtype != DType::Float32 {
        return Err(Error::new(
            "fft",
            format!(
                "{} is not supported on the webgpu device; use the \"cpu\" or \"wasm\" device",
                routine.dtype.name()
            ),
        ));
    }
    let (n, p, t, blue) = sizes(routine);
    let mut storage = vec![
        ("in_re", false, "f32"),
        ("in_im", false, "f32"),
        ("out_re", true, "f32"),
        ("out_im", true, "f32"),
    ];
    if blue {
        storage.push(("scratch", true, "f32"));
    }
    storage.push(("kst", false, "f32"));
    let consts = [
        ("N", n),
        ("P", p),
        ("LOGP", p.trailing_zeros() as usize),
        ("T", t),
        ("W", (t / 2).min(GLOBAL_WG)),
        ("B", routine.batch),
        ("GWG", GLOBAL_WG),
    ];
    let mut src = header(&storage, &consts);
    src.push_str(&format!(
        "var<workgroup> sre: array<f32, {t}>;\nvar<workgroup> sim: array<f32, {t}>;\n"
    ));
    src.push_str(BODY);
    src.push_str(accessors(blue));
    Ok(src)
}

/// The passes of a transform of `routine`, in order.
pub fn passes(routine: &Routine) -> Vec<Pass> {
    let (n, p, t, blue) = sizes(routine);
    let b = routine.batch;
    if b * n == 0 {
        return Vec::new();
    }
    let pass = |entry, groups: usize, a: usize, buf: u32| Pass {
        entry,
        groups: groups as u32,
        params: [a as u32, buf, 0, 0],
    };
    let tiles = b * (p / t);
    let global = (b * p / 2).div_ceil(GLOBAL_WG);
    let transform = |list: &mut Vec<Pass>, mode: u32| {
        list.push(pass(TILE_PASS, tiles, 0, mode));
        let buf = if blue { mode + 1 } else { 0 };
        let mut h = t;
        while h < p {
            list.push(pass(STAGE, global, h, buf));
            h *= 2;
        }
    };
    let mut list = Vec::new();
    transform(&mut list, 0);
    if blue {
        transform(&mut list, 1);
        list.push(pass(FINISH, (b * n).div_ceil(GLOBAL_WG), 0, 0));
    }
    list
}

/// Compiles the transform of `routine`.
pub(super) fn compile(gpu: &Gpu, routine: &Routine) -> Result<Passes> {
    let src = source(routine)?;
    let (_, p, _, blue) = sizes(routine);
    let extra = Extra {
        scratch: if blue {
            vec![4 * 4 * routine.batch * p]
        } else {
            Vec::new()
        },
        constants: vec![table(routine)],
    };
    Ok(Passes::new(
        gpu,
        "fft",
        &src,
        entries(blue),
        (2, 2),
        extra,
        passes(routine),
    ))
}
