//! Tiled matrix products. A float32 sum-reduction whose expression is `a · b`, where `a`
//! depends on the output index only through `index / c` (c a multiple of the column count
//! `n`) and `b` only through `index % n`, is a matrix product `out[row, col] = Σ_k a(row, k) ·
//! b(k, col)` over `rows = size / n` rows, whatever the operands' layouts (views, broadcasts,
//! padding, casts: `a` and `b` are arbitrary expressions, re-emitted per tile element with
//! `i = row · n` or `i = col` and `r = k`). This covers 2-D products and batched left operands
//! against a shared right operand; other batched products keep the generic kernel.
//!
//! Each workgroup of 16×16 invocations computes a `16·tm × 16·tn` output tile; per step of
//! [`BK`] along k it stages an `a` tile and a `b` tile in shared memory (neighbouring
//! invocations load neighbouring elements), then each invocation accumulates its `tm × tn`
//! outputs (strided by 16, so shared reads and global stores are contiguous across
//! invocations) in scalar registers with native `fma`. Unlike the exact elementwise emitter, the summation order
//! and fused multiply-adds differ from the interpreter: tests compare with a tolerance.

use std::fmt::Write;

use super::wgsl_alu::Emitter;
use crate::core::DType;
use crate::kernel::{AluExp, AluKind, BinaryOp, Kernel, ReduceOp};
use crate::util::Result;

/// Steps along k staged in shared memory per barrier.
pub const BK: u32 = 16;

/// A matrix product recognised in a kernel.
#[derive(Debug, Clone)]
pub struct Matmul {
    pub a: AluExp,
    pub b: AluExp,
    pub rows: usize,
    pub n: usize,
    pub k: usize,
}

/// Every occurrence of `Index` in `e` is the left operand of a node accepted by `ok(op, c)`.
fn index_only_through(e: &AluExp, ok: &dyn Fn(BinaryOp, f64) -> bool) -> bool {
    match &e.kind {
        AluKind::Index => false,
        AluKind::Binary(op, a, b) if matches!(a.kind, AluKind::Index) => {
            b.const_value().is_some_and(|c| ok(*op, c))
        }
        _ => e.children().iter().all(|c| index_only_through(c, ok)),
    }
}

/// The `n` of the first `Rem(Index, n)` in `e`.
fn column_count(e: &AluExp) -> Option<usize> {
    if let AluKind::Binary(BinaryOp::Rem, a, b) = &e.kind {
        if matches!(a.kind, AluKind::Index) {
            return b.const_value().map(|c| c as usize);
        }
    }
    e.children().into_iter().find_map(column_count)
}

/// The matrix product `kernel` computes, if it is one worth tiling.
pub fn recognise(kernel: &Kernel) -> Option<Matmul> {
    let red = kernel.reduction?;
    if red.op != ReduceOp::Sum || kernel.exp.dtype != DType::Float32 {
        return None;
    }
    let AluKind::Binary(BinaryOp::Mul, a, b) = &kernel.exp.kind else {
        return None;
    };
    let n = column_count(b)?;
    if n < 2 || !kernel.size.is_multiple_of(n) {
        return None;
    }
    let a_ok = index_only_through(a, &|op, c| {
        op == BinaryOp::Div && c >= 1.0 && (c as usize).is_multiple_of(n)
    });
    let b_ok = index_only_through(b, &|op, c| op == BinaryOp::Rem && c as usize == n);
    let rows = kernel.size / n;
    let big = rows >= 32 && n >= 32 && red.size >= 16;
    (a_ok && b_ok && big).then(|| Matmul {
        a: (**a).clone(),
        b: (**b).clone(),
        rows,
        n,
        k: red.size,
    })
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
