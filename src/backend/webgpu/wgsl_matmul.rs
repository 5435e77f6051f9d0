//! Tiled matrix products: the products `kernel::matmul` recognises from kernel structure, at
//! least 32×32 with k ≥ 16 (smaller ones keep the generic kernel). `a` and `b` are arbitrary
//! expressions, re-emitted per tile element with `i = row · n` or `i = col` and `r = k`.
//!
//! Each workgroup of 16×16 invocations computes a `16·tm × 16·tn` output tile; per step of
//! [`BK`] along k it stages an `a` tile and a `b` tile in shared memory (neighbouring
//! invocations load neighbouring elements), then each invocation accumulates its `tm × tn`
//! outputs (strided by 16, so shared reads and global stores are contiguous across
//! invocations) in scalar registers with native `fma`. Unlike the exact elementwise emitter, the summation order
//! and fused multiply-adds differ from the interpreter: tests compare with a tolerance.

use std::fmt::Write;

use super::wgsl_alu::Emitter;
use crate::kernel::matmul::structure;
pub use crate::kernel::matmul::Matmul;
use crate::kernel::{AluExp, Kernel};
use crate::util::Result;

/// Steps along k staged in shared memory per barrier.
pub const BK: u32 = 16;

/// The matrix product `kernel` computes, if it is one worth tiling.
pub fn recognise(kernel: &Kernel) -> Option<Matmul> {
    structure(kernel).filter(|m| m.rows >= 32 && m.n >= 32 && m.k >= 16)
}

/// Outputs per invocation along rows and columns for a product of this size: large tiles
/// when there are enough of them to fill a large GPU.
pub fn per_invocation(m: &Matmul) -> (u32, u32) {
    let big_tiles = m.rows.div_ceil(128) * m.n.div_ceil(128);
    if big_tiles >= 256 {
        (8, 8)
    } else {
        (4, 4)
    }
}

/// Workgroups along x (columns) and y (rows).
pub fn workgroups(m: &Matmul) -> (u32, u32) {
    let (tm, tn) = per_invocation(m);
    (
        m.n.div_ceil(16 * tn as usize) as u32,
        m.rows.div_ceil(16 * tm as usize) as u32,
    )
}

/// Emits `e` (with `i` and `r` bound by the caller) inside a block; returns the block text.
fn element(e: &mut Emitter, exp: &AluExp, target: &str) -> Result<()> {
    let v = e.emit(exp)?;
    writeln!(e.body, "        {target} = {v};").unwrap();
    Ok(())
}

pub fn emit(kernel: &Kernel, m: &Matmul) -> Result<String> {
    let (tm, tn) = per_invocation(m);
    let (bm, bn) = (16 * tm, 16 * tn);
    let (rows, n, k) = (m.rows, m.n, m.k);
    let mut out = String::new();
    for (i, &input) in kernel.inputs.iter().enumerate() {
        let t = super::wgsl_alu::storage_type(input)?;
        writeln!(
            out,
            "@group(0) @binding({i}) var<storage, read> in{i}: array<{t}>;"
        )
        .unwrap();
    }
    writeln!(
        out,
        "@group(0) @binding({}) var<storage, read_write> out: array<f32>;",
        kernel.inputs.len()
    )
    .unwrap();
    let mut e = Emitter::new(kernel.inputs.len(), "        ");
    // The a tile: bm rows × BK steps, consecutive invocations take consecutive k.
    writeln!(
        e.body,
        "    for (var l: u32 = 0u; l < {la}u; l = l + 1u) {{
      let el = lane + l * 256u;
      let mm = el / {BK}u;
      let kk = el % {BK}u;
      let grow = row0 + mm;
      let gk = k0 + kk;
      var v: f32 = 0.0f;
      if (grow < {rows}u && gk < {k}u) {{
        let i = i32(grow * {n}u);
        let r = i32(gk);",
        la = bm * BK / 256
    )
    .unwrap();
    element(&mut e, &m.a, "v")?;
    writeln!(
        e.body,
        "      }}
      ta[kk][mm] = v;
    }}
    for (var l: u32 = 0u; l < {lb}u; l = l + 1u) {{
      let el = lane + l * 256u;
      let kk = el / {bn}u;
      let nn = el % {bn}u;
      let gcol = col0 + nn;
      let gk = k0 + kk;
      var v: f32 = 0.0f;
      if (gcol < {n}u && gk < {k}u) {{
        let i = i32(gcol);
        let r = i32(gk);",
        lb = bn * BK / 256
    )
    .unwrap();
    element(&mut e, &m.b, "v")?;
    writeln!(e.body, "      }}\n      tb[kk][nn] = v;\n    }}").unwrap();
    for (i, loaded) in e.loaded.iter().enumerate() {
        if !loaded {
            writeln!(e.body, "    _ = arrayLength(&in{i});").unwrap();
        }
    }
    // The product loop, unrolled into scalar registers (`a{x}`, `b{y}`, `c{x}_{y}`): private
    // arrays indexed in loops may be placed in local memory by the driver.
    let mut decl = String::new();
    let mut step = String::new();
    let mut store = String::new();
    for x in 0..tm {
        writeln!(step, "      let a{x} = ta[kk][lid.y + {}u];", x * 16).unwrap();
    }
    for y in 0..tn {
        writeln!(step, "      let b{y} = tb[kk][lid.x + {}u];", y * 16).unwrap();
    }
    for x in 0..tm {
        writeln!(store, "  let gr{x} = row0 + lid.y + {}u;", x * 16).unwrap();
        for y in 0..tn {
            writeln!(decl, "  var c{x}_{y}: f32 = 0.0f;").unwrap();
            writeln!(step, "      c{x}_{y} = fma(a{x}, b{y}, c{x}_{y});").unwrap();
            writeln!(
                store,
                "  if (gr{x} < {rows}u && col0 + lid.x + {col}u < {n}u) {{ \
                 out[gr{x} * {n}u + col0 + lid.x + {col}u] = c{x}_{y}; }}",
                col = y * 16
            )
            .unwrap();
        }
    }
    // `ta` rows are padded by one so that the tile loads (consecutive k) hit distinct banks.
    write!(
        out,
        "var<private> ox_zp: u32;
var<workgroup> ta: array<array<f32, {bm_pad}>, {BK}>;
var<workgroup> tb: array<array<f32, {bn}>, {BK}>;

@compute @workgroup_size(16, 16)
fn main(@builtin(workgroup_id) wid: vec3<u32>,
        @builtin(local_invocation_id) lid: vec3<u32>,
        @builtin(local_invocation_index) lane: u32) {{
  ox_zp = wid.z;
  let row0 = wid.y * {bm}u;
  let col0 = wid.x * {bn}u;
{decl}  for (var k0: u32 = 0u; k0 < {k}u; k0 = k0 + {BK}u) {{
{body}    workgroupBarrier();
    for (var kk: u32 = 0u; kk < {BK}u; kk = kk + 1u) {{
{step}    }}
    workgroupBarrier();
  }}
{store}}}
",
        bm_pad = bm + 1,
        body = e.body
    )
    .unwrap();
    out.push_str(&e.helpers.source());
    Ok(out)
}
