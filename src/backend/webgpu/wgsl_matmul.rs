//! Tiled matrix products: the products `kernel::matmul` recognises from kernel structure, at
//! least 32×32 with k ≥ 16 (smaller ones keep the generic kernel). `a` and `b` are arbitrary
//! expressions, re-emitted per tile element with `i = row · n` or `i = col` and `r = k`.
//!
//! Each workgroup of 16×16 invocations computes a `16·tm × 16·tn` output tile. Per step of
//! [`BK`] along k it stages an `a` tile and a `b` tile in shared memory as `vec4`s of four
//! rows (a) or four columns (b); neighbouring invocations load neighbouring elements from
//! global memory. The next step's elements are loaded into registers while the current tiles
//! are multiplied (one barrier fewer and the loads' latency hidden). Each invocation owns
//! `tm/4 × tn/4` blocks of 4×4 outputs, 64 rows or columns apart, so one `vec4` shared read
//! feeds four `fma`s per operand and a warp's reads of `b` are contiguous. Accumulators are
//! `vec4` registers with native `fma`. Unlike the exact elementwise emitter, the summation
//! order and fused multiply-adds differ from the interpreter: tests compare with a tolerance.

use std::fmt::Write;

use super::wgsl_alu::Emitter;
use crate::kernel::matmul::structure;
pub use crate::kernel::matmul::Matmul;
use crate::kernel::{AluExp, Kernel};
use crate::util::Result;

/// Steps along k staged in shared memory per barrier. With 128×128 tiles the two tiles take
/// 8.25 KiB, inside WebGPU's default 16 KiB of workgroup storage.
pub const BK: u32 = 8;

/// The matrix product `kernel` computes, if it is one worth tiling.
pub fn recognise(kernel: &Kernel) -> Option<Matmul> {
    structure(kernel).filter(|m| m.rows >= 32 && m.n >= 32 && m.k >= 16)
}

/// Outputs per invocation along rows and columns for a product of this size (multiples of
/// 4): large tiles when there are enough of them to fill a large GPU, or when `large` forces
/// them (tests check both shapes on small products).
pub fn per_invocation(m: &Matmul, large: bool) -> (u32, u32) {
    let big_tiles = m.rows.div_ceil(128) * m.n.div_ceil(128);
    if big_tiles >= 256 || large {
        (8, 8)
    } else {
        (4, 4)
    }
}

/// Workgroups along x (columns) and y (rows).
pub fn workgroups(m: &Matmul, large: bool) -> (u32, u32) {
    let (tm, tn) = per_invocation(m, large);
    (
        m.n.div_ceil(16 * tn as usize) as u32,
        m.rows.div_ceil(16 * tm as usize) as u32,
    )
}

/// Emits the block loading element `l` of this invocation's share of a tile into register
/// `reg` (zero outside the matrix), for the k step starting at `kb`.
fn tile_load(
    e: &mut Emitter,
    exp: &AluExp,
    a_side: bool,
    l: u32,
    per: u32,
    m: &Matmul,
) -> Result<()> {
    let (rows, n, k) = (m.rows, m.n, m.k);
    let (reg, head) = if a_side {
        (
            format!("ra{l}"),
            format!(
                "    {{
      let el = lane + {o}u;
      let g = row0 + el / {BK}u;
      let gk = kb + el % {BK}u;
      var v: f32 = 0.0f;
      if (g < {rows}u && gk < {k}u) {{
        let i = i32(g * {n}u);
        let r = i32(gk);",
                o = l * 256
            ),
        )
    } else {
        (
            format!("rb{l}"),
            format!(
                "    {{
      let el = lane + {o}u;
      let g = col0 + el % {per}u;
      let gk = kb + el / {per}u;
      var v: f32 = 0.0f;
      if (g < {n}u && gk < {k}u) {{
        let i = i32(g);
        let r = i32(gk);",
                o = l * 256
            ),
        )
    };
    writeln!(e.body, "{head}").unwrap();
    let v = e.emit(exp)?;
    writeln!(
        e.body,
        "        v = {v};\n      }}\n      {reg} = v;\n    }}"
    )
    .unwrap();
    Ok(())
}

pub fn emit(kernel: &Kernel, m: &Matmul, large: bool) -> Result<String> {
    let (tm, tn) = per_invocation(m, large);
    let (bm, bn) = (16 * tm, 16 * tn);
    let (la, lb) = (bm * BK / 256, bn * BK / 256);
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
    // The loads of one k step into registers `ra*`, `rb*` (emitted once, pasted twice).
    let mut e = Emitter::new(kernel.inputs.len(), "        ");
    for l in 0..la {
        tile_load(&mut e, &m.a, true, l, bm, m)?;
    }
    for l in 0..lb {
        tile_load(&mut e, &m.b, false, l, bn, m)?;
    }
    for (i, loaded) in e.loaded.iter().enumerate() {
        if !loaded {
            writeln!(e.body, "    _ = arrayLength(&in{i});").unwrap();
        }
    }
    let loads = e.body.clone();
    let mut regs = String::new();
    let mut stores = String::new();
    for l in 0..la {
        writeln!(regs, "  var ra{l}: f32;").unwrap();
        writeln!(
            stores,
            "    {{ let el = lane + {o}u; let mm = el / {BK}u; ta[el % {BK}u][mm >> 2u][mm & 3u] = ra{l}; }}",
            o = l * 256
        )
        .unwrap();
    }
    for l in 0..lb {
        writeln!(regs, "  var rb{l}: f32;").unwrap();
        writeln!(
            stores,
            "    {{ let el = lane + {o}u; let nn = el % {bn}u; tb[el / {bn}u][nn >> 2u][nn & 3u] = rb{l}; }}",
            o = l * 256
        )
        .unwrap();
    }
    // The product step: vec4 shared reads into `a{g}`, `b{h}`; accumulators `c{g}{x}_{h}`
    // hold row 64·g + 4·lid.y + x, columns 64·h + 4·lid.x + 0..3 of the tile.
    let (gm, gn) = (tm / 4, tn / 4);
    let mut decl = String::new();
    let mut step = String::new();
    let mut store = String::new();
    for g in 0..gm {
        writeln!(step, "      let a{g} = ta[kk][{}u + lid.y];", g * 16).unwrap();
    }
    for h in 0..gn {
        writeln!(step, "      let b{h} = tb[kk][{}u + lid.x];", h * 16).unwrap();
    }
    for g in 0..gm {
        for x in 0..4 {
            writeln!(
                store,
                "  let gr{g}{x} = row0 + {}u + lid.y * 4u;",
                g * 64 + x
            )
            .unwrap();
            for h in 0..gn {
                writeln!(decl, "  var c{g}{x}_{h}: vec4<f32> = vec4<f32>(0.0f);").unwrap();
                writeln!(
                    step,
                    "      c{g}{x}_{h} = fma(vec4<f32>(a{g}[{x}]), b{h}, c{g}{x}_{h});"
                )
                .unwrap();
                for y in 0..4 {
                    writeln!(
                        store,
                        "  if (gr{g}{x} < {rows}u && gc{h} + {y}u < {n}u) {{ \
                         out[gr{g}{x} * {n}u + gc{h} + {y}u] = c{g}{x}_{h}[{y}]; }}"
                    )
                    .unwrap();
                }
            }
        }
    }
    let mut cols = String::new();
    for h in 0..gn {
        writeln!(cols, "  let gc{h} = col0 + {}u + lid.x * 4u;", h * 64).unwrap();
    }
    // `ta` rows are padded by one vec4 so that the tile stores (consecutive k) spread over
    // the banks.
    write!(
        out,
        "var<private> ox_zp: u32;
var<workgroup> ta: array<array<vec4<f32>, {ta_w}>, {BK}>;
var<workgroup> tb: array<array<vec4<f32>, {tb_w}>, {BK}>;

@compute @workgroup_size(16, 16)
fn main(@builtin(workgroup_id) wid: vec3<u32>,
        @builtin(local_invocation_id) lid: vec3<u32>,
        @builtin(local_invocation_index) lane: u32) {{
  ox_zp = wid.z;
  let row0 = wid.y * {bm}u;
  let col0 = wid.x * {bn}u;
{regs}{decl}  {{
    let kb = 0u;
{loads}  }}
  for (var k0: u32 = 0u; k0 < {k}u; k0 = k0 + {BK}u) {{
{stores}    workgroupBarrier();
    if (k0 + {BK}u < {k}u) {{
      let kb = k0 + {BK}u;
{loads}    }}
    for (var kk: u32 = 0u; kk < {BK}u; kk = kk + 1u) {{
{step}    }}
    workgroupBarrier();
  }}
{cols}{store}}}
",
        ta_w = bm / 4 + 1,
        tb_w = bn / 4,
    )
    .unwrap();
    out.push_str(&e.helpers.source());
    Ok(out)
}
