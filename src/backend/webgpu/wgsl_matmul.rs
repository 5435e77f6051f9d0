//! Tiled matrix products: the products `kernel::matmul` recognises from kernel structure
//! (plain, transposed or broadcast operands through views, and batches of products), at least
//! 32×32 per product with k ≥ 16 (smaller ones keep the generic kernel). `a` and `b` are
//! arbitrary expressions, re-emitted per tile element with `i = row · n` or `i = col` (offset
//! by the product's batch) and `r = k`.
//!
//! Each workgroup of 16×16 invocations computes a `16·tm × 16·tn` output tile of one product
//! of the batch. Per step of `bk` along k (16 where the device's workgroup storage holds the
//! tiles, else 8) it stages an `a` tile and a `b` tile in shared memory as `vec4`s of four
//! rows (a) or four columns (b); neighbouring invocations load neighbouring elements from
//! global memory. The next step's elements are loaded into registers while the current tiles
//! are multiplied, hiding the loads' latency. Operands that are plain float32 loads at an
//! index affine in (row, k) or (col, k) (`kernel::matmul::plain_load`: any strides, so
//! transposed views too) are read at offsets computed once per invocation and advanced by the
//! k stride per step; other operands re-emit their expression per element. Each invocation
//! owns `tm/4 × tn/4` blocks of 4×4 outputs, 64 rows or columns apart, so one `vec4` shared
//! read feeds four `fma`s per operand; a warp covers a few columns by a few rows of blocks
//! (`thread_grid`), and the k step is unrolled. Accumulators are `vec4` registers with native
//! `fma`. On devices with subgroups the `a` operand can skip shared memory instead
//! (`wgsl_matmul_subgroup`). Unlike the exact elementwise emitter, the summation order and
//! fused multiply-adds differ from the interpreter: tests compare with a tolerance.

use std::fmt::Write;

use super::wgsl_alu::Emitter;
use super::wgsl_matmul_subgroup as subgroup;
pub use crate::kernel::matmul::Matmul;
use crate::kernel::matmul::{plain_load, structure, Lin};
use crate::kernel::{AluExp, Kernel};
use crate::util::Result;

/// WebGPU's default (and minimum) workgroup storage: every device runs the tile in it.
pub const DEFAULT_SHARED_BYTES: u32 = 16384;

/// The shape of one tiled product shader.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tile {
    /// Outputs per invocation along rows and columns (multiples of 4).
    pub tm: u32,
    pub tn: u32,
    /// Steps along k staged in shared memory per barrier.
    pub bk: u32,
    /// Columns of 4×4 output blocks one warp covers (16, 8 or 4; see `thread_grid`).
    pub warp_cols: u32,
    /// The subgroup form: `a` is shared within subgroups, not through shared memory
    /// (`wgsl_matmul_subgroup`).
    pub subgroup: bool,
}

impl Tile {
    /// Rows and columns of the output tile of one workgroup.
    pub fn block(&self) -> (u32, u32) {
        (16 * self.tm, 16 * self.tn)
    }

    /// `vec4`s per row of the shared `a` tile: padded by one so that the tile stores
    /// (consecutive k) spread over the banks.
    fn a_width(&self) -> u32 {
        self.block().0 / 4 + 1
    }

    /// Bytes of workgroup storage the shader declares.
    pub fn shared_bytes(&self) -> u32 {
        let a = if self.subgroup { 0 } else { self.a_width() };
        self.bk * (a + self.block().1 / 4) * 16
    }
}

/// The matrix product `kernel` computes, if it is one worth tiling.
pub fn recognise(kernel: &Kernel) -> Option<Matmul> {
    structure(kernel).filter(|m| {
        // Row tiles of every product go along y (at most 65535 workgroups).
        let row_tiles = m.batches * m.rows.div_ceil(64);
        m.rows >= 32 && m.n >= 32 && m.k >= 16 && row_tiles <= 65535
    })
}

/// The tile for a product of this size on a device with `shared_bytes` of workgroup storage:
/// 8×8 outputs per invocation when there are enough large tiles to fill a large GPU (or
/// when `large` forces them: tests check both shapes on small products), else 4×4; 16 steps
/// of k where the storage holds them, else 8; warps of 4 × 8 blocks (as fast as 16 × 2 for
/// the 8×8 tile, faster for the 4×4 one); the subgroup form where the device's subgroups
/// have at least `subgroup_min` invocations (0: no subgroups).
pub fn tile(m: &Matmul, large: bool, shared_bytes: u32, subgroup_min: u32) -> Tile {
    let big_tiles = m.batches * m.rows.div_ceil(128) * m.n.div_ceil(128);
    let t = if big_tiles >= 256 || large { 8 } else { 4 };
    let deep = Tile {
        tm: t,
        tn: t,
        bk: 16,
        warp_cols: 4,
        subgroup: subgroup_min > 0,
    };
    let t = match deep.shared_bytes() <= shared_bytes {
        true => deep,
        false => Tile { bk: 8, ..deep },
    };
    Tile {
        subgroup: t.subgroup && subgroup::fits(&t, subgroup_min),
        ..t
    }
}

/// Row tiles per product of the batch.
fn row_tiles(m: &Matmul, tile: &Tile) -> u32 {
    m.rows.div_ceil(tile.block().0 as usize) as u32
}

/// Workgroups along x (columns) and y (row tiles of every product of the batch).
pub fn workgroups(m: &Matmul, tile: &Tile) -> (u32, u32) {
    (
        m.n.div_ceil(tile.block().1 as usize) as u32,
        row_tiles(m, tile) * m.batches as u32,
    )
}

/// Emits the block loading element `l` of this invocation's share of a tile into register
/// `ra{l}` / `rb{l}` (zero outside the matrix), for the k step starting at `kb`.
fn tile_load(
    e: &mut Emitter,
    exp: &AluExp,
    a_side: bool,
    l: u32,
    m: &Matmul,
    t: &Tile,
) -> Result<()> {
    let (rows, n, k, bk) = (m.rows, m.n, m.k, t.bk);
    let o = l * 256;
    let (reg, head) = if a_side {
        let head = format!(
            "    {{
      let el = lane + {o}u;
      let g = row0 + el / {bk}u;
      let gk = kb + el % {bk}u;
      var v: f32 = 0.0f;
      if (g < {rows}u && gk < {k}u) {{
        let i = i32((bz * {rows}u + g) * {n}u);
        let r = i32(gk);"
        );
        (format!("ra{l}"), head)
    } else {
        let bn = t.block().1;
        let head = format!(
            "    {{
      let el = lane + {o}u;
      let g = col0 + el % {bn}u;
      let gk = kb + el / {bn}u;
      var v: f32 = 0.0f;
      if (g < {n}u && gk < {k}u) {{
        let i = i32(bz * {rn}u + g);
        let r = i32(gk);",
            rn = rows * n
        );
        (format!("rb{l}"), head)
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

/// The storage bindings: the kernel's inputs, then the output.
fn bindings(kernel: &Kernel) -> Result<String> {
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
    Ok(out)
}

/// The loads of one side's share of a tile from an operand that is a plain float32 load of
/// input `input` at `lin` (in (row, k) for `a`, (col, k) for `b`): the per-invocation setup
/// and one k step's loads. Slot `l` of `a` is `256 / bk` rows below slot 0 at the same k, and
/// slot `l` of `b` is `256 / bn` steps of k further at the same column, so every slot's
/// offset is the invocation's base plus a constant. Out-of-range elements read an arbitrary
/// in-range value (WGSL's rule for indices out of bounds) that `select` replaces by zero.
fn affine_loads(a_side: bool, input: usize, lin: Lin, m: &Matmul, t: &Tile) -> (String, String) {
    let (bm, bn) = t.block();
    let (bk, k) = (t.bk, m.k);
    let [v0, v1] = lin.v;
    let c = lin.c;
    let (mut setup, mut step) = (String::new(), String::new());
    let ragged_k = !k.is_multiple_of(bk as usize);
    if a_side {
        // Row lane / bk, k lane % bk; slot l: 256 / bk rows further.
        let ragged = !m.rows.is_multiple_of(bm as usize);
        writeln!(
            setup,
            "  let ga = row0 + lane / {bk}u;\n  let kpa = lane % {bk}u;\n  \
             let ia = ({c}i) + ({v0}i) * i32(ga);"
        )
        .unwrap();
        for l in 0..bm * bk / 256 {
            let rows_down = l * 256 / bk;
            let mut ok = Vec::new();
            if ragged {
                ok.push(format!("ga + {rows_down}u < {}u", m.rows));
            }
            if ragged_k {
                ok.push(format!("kb + kpa < {k}u"));
            }
            let at = format!(
                "in{input}[ia + ({off}i) + ({v1}i) * i32(kb + kpa)]",
                off = v0 * rows_down as i64
            );
            writeln!(step, "    ra{l} = {};", guarded(&at, &ok)).unwrap();
        }
    } else {
        // Column lane % bn, k lane / bn; slot l: 256 / bn steps of k further.
        let ragged = !m.n.is_multiple_of(bn as usize);
        writeln!(
            setup,
            "  let gb = col0 + lane % {bn}u;\n  let kpb = lane / {bn}u;\n  \
             let ib = ({c}i) + ({v0}i) * i32(gb);"
        )
        .unwrap();
        for l in 0..bn * bk / 256 {
            let k_down = l * 256 / bn;
            let mut ok = Vec::new();
            if ragged {
                ok.push(format!("gb < {}u", m.n));
            }
            if ragged_k {
                ok.push(format!("kb + kpb + {k_down}u < {k}u"));
            }
            let at = format!(
                "in{input}[ib + ({off}i) + ({v1}i) * i32(kb + kpb)]",
                off = v1 * k_down as i64
            );
            writeln!(step, "    rb{l} = {};", guarded(&at, &ok)).unwrap();
        }
    }
    (setup, step)
}

/// `value`, or zero where one of the conditions `ok` fails.
pub(super) fn guarded(value: &str, ok: &[String]) -> String {
    match ok.is_empty() {
        true => value.to_string(),
        false => format!("select(0.0f, {value}, {})", ok.join(" && ")),
    }
}

/// One k step's loads into the registers (emitted once, pasted where needed).
struct StepLoads {
    /// The loads of `a`'s and `b`'s shares of the step.
    a: String,
    b: String,
    /// The registers' declarations with the affine operands' setup.
    regs: String,
    /// The emitter (its helper functions go after `main`).
    e: Emitter,
}

impl StepLoads {
    /// Both sides' loads, `a`'s first.
    fn both(&self) -> String {
        format!("{}{}", self.a, self.b)
    }
}

/// The loads of one k step: into the registers staged into shared memory, and in the
/// subgroup form `a`'s into the registers its products read.
fn step_loads(kernel: &Kernel, m: &Matmul, t: &Tile) -> Result<StepLoads> {
    let (bm, bn) = t.block();
    let (la, lb) = (bm * t.bk / 256, bn * t.bk / 256);
    let mut e = Emitter::new(kernel.inputs.len(), "        ");
    let mut regs = String::new();
    let mut used = vec![false; kernel.inputs.len()];
    let (rows, n, k) = (m.rows as i64, m.n as i64, m.k as i64);
    // Batches of products re-emit their operands (`b`'s index depends on the batch too).
    let single = m.batches == 1;
    let plain_a = single
        .then(|| plain_load(&m.a, Lin { c: 0, v: [n, 0] }, [rows, k]))
        .flatten();
    let plain_b = single
        .then(|| plain_load(&m.b, Lin { c: 0, v: [1, 0] }, [n, k]))
        .flatten();
    if t.subgroup {
        regs.push_str(&subgroup::registers(t));
    } else {
        for l in 0..la {
            writeln!(regs, "  var ra{l}: f32;").unwrap();
        }
    }
    for l in 0..lb {
        writeln!(regs, "  var rb{l}: f32;").unwrap();
    }
    // Per side: the loads of expression operands, then those at affine offsets.
    let mut sides = [
        (String::new(), String::new()),
        (String::new(), String::new()),
    ];
    for (side, (a_side, plain, slots, exp)) in
        [(true, plain_a, la, &m.a), (false, plain_b, lb, &m.b)]
            .into_iter()
            .enumerate()
    {
        match plain {
            Some((input, lin)) => {
                let (setup, step) = match a_side && t.subgroup {
                    true => subgroup::affine_loads(input, lin, m, t),
                    false => affine_loads(a_side, input, lin, m, t),
                };
                regs.push_str(&setup);
                sides[side].1 = step;
                used[input] = true;
            }
            None if a_side && t.subgroup => subgroup::expression_loads(&mut e, exp, m, t)?,
            None => {
                for l in 0..slots {
                    tile_load(&mut e, exp, a_side, l, m, t)?;
                }
            }
        }
        sides[side].0 = std::mem::take(&mut e.body);
    }
    for (i, loaded) in e.loaded.iter().enumerate() {
        if !loaded && !used[i] {
            writeln!(sides[1].1, "    _ = arrayLength(&in{i});").unwrap();
        }
    }
    let [(a_exp, a_aff), (b_exp, b_aff)] = sides;
    Ok(match t.subgroup {
        true => StepLoads {
            a: a_exp + &a_aff,
            b: b_exp + &b_aff,
            regs,
            e,
        },
        // The plain form keeps every expression load ahead of the affine ones.
        false => StepLoads {
            a: a_exp + &b_exp,
            b: a_aff + &b_aff,
            regs,
            e,
        },
    })
}

/// The stores of the registers into the shared tiles.
fn shared_stores(t: &Tile) -> String {
    let (bm, bn) = t.block();
    let (la, lb, bk) = (bm * t.bk / 256, bn * t.bk / 256, t.bk);
    let mut stores = String::new();
    for l in (0..la).filter(|_| !t.subgroup) {
        writeln!(
            stores,
            "    {{ let el = lane + {o}u; let mm = el / {bk}u; ta[el % {bk}u][mm >> 2u][mm & 3u] = ra{l}; }}",
            o = l * 256
        )
        .unwrap();
    }
    for l in 0..lb {
        writeln!(
            stores,
            "    {{ let el = lane + {o}u; let nn = el % {bn}u; tb[el / {bn}u][nn >> 2u][nn & 3u] = rb{l}; }}",
            o = l * 256
        )
        .unwrap();
    }
    stores
}

/// The accumulators' declarations, the product of one k step (unrolled over the `bk` steps
/// of the staged tiles), and the bounds-checked stores of the outputs.
/// Accumulator `c{g}{x}_{h}` holds row 64·g + 4·ty + x, columns 64·h + 4·tx + 0..3 of
/// the tile.
fn product(m: &Matmul, t: &Tile) -> (String, String, String) {
    let (gm, gn) = (t.tm / 4, t.tn / 4);
    let (rows, n) = (m.rows, m.n);
    let (mut decl, mut step, mut store) = (String::new(), String::new(), String::new());
    for kk in 0..t.bk {
        if t.subgroup {
            step.push_str(&subgroup::shuffles(t, kk));
        }
        for g in (0..gm).filter(|_| !t.subgroup) {
            writeln!(step, "    let a{g}_{kk} = ta[{kk}][{}u + ty];", g * 16).unwrap();
        }
        for h in 0..gn {
            writeln!(step, "    let b{h}_{kk} = tb[{kk}][{}u + tx];", h * 16).unwrap();
        }
        for g in 0..gm {
            for x in 0..4 {
                let a = match t.subgroup {
                    true => format!("a{g}{x}_{kk}"),
                    false => format!("a{g}_{kk}[{x}]"),
                };
                for h in 0..gn {
                    writeln!(
                        step,
                        "    c{g}{x}_{h} = fma(vec4<f32>({a}), b{h}_{kk}, c{g}{x}_{h});"
                    )
                    .unwrap();
                }
            }
        }
    }
    for h in 0..gn {
        writeln!(store, "  let gc{h} = col0 + {}u + tx * 4u;", h * 64).unwrap();
    }
    for g in 0..gm {
        for x in 0..4 {
            writeln!(store, "  let gr{g}{x} = row0 + {}u + ty * 4u;", g * 64 + x).unwrap();
            for h in 0..gn {
                writeln!(decl, "  var c{g}{x}_{h}: vec4<f32> = vec4<f32>(0.0f);").unwrap();
                for y in 0..4 {
                    writeln!(
                        store,
                        "  if (gr{g}{x} < {rows}u && gc{h} + {y}u < {n}u) {{ \
                         out[(bz * {rows}u + gr{g}{x}) * {n}u + gc{h} + {y}u] = c{g}{x}_{h}[{y}]; }}"
                    )
                    .unwrap();
                }
            }
        }
    }
    (decl, step, store)
}

/// The loop over k: store the registers into the shared tiles, barrier, load the next step
/// into the registers, multiply, barrier; in the subgroup form `a`'s registers are the
/// product's, so its next step is loaded after the product.
fn k_loop(m: &Matmul, t: &Tile, loads: &StepLoads) -> String {
    let (k, bk) = (m.k, t.bk);
    let (stores, (_, step, _)) = (shared_stores(t), product(m, t));
    let (staged, after) = match t.subgroup {
        true => (loads.b.clone(), loads.a.clone()),
        false => (loads.both(), String::new()),
    };
    let next = |loads: &str| match loads.is_empty() {
        true => String::new(),
        false => {
            format!("    if (k0 + {bk}u < {k}u) {{\n      let kb = k0 + {bk}u;\n{loads}    }}\n")
        }
    };
    format!(
        "  for (var k0: u32 = 0u; k0 < {k}u; k0 = k0 + {bk}u) {{
{stores}    workgroupBarrier();
{staged}{step}    workgroupBarrier();
{after}  }}
",
        staged = next(&staged),
        after = next(&after),
    )
}

/// The invocation's place `(tx, ty)` in the 16×16 grid of the tile's 4×4 output blocks:
/// each warp (32 invocations) covers `warp_cols` columns by `32 / warp_cols` rows of blocks,
/// the fewer distinct shared `vec4`s its reads of `a` and `b` touch per step, the fewer
/// shared-memory cycles they take.
fn thread_grid(t: &Tile) -> String {
    let wc = t.warp_cols;
    let (across, rows) = (16 / wc, 32 / wc);
    format!(
        "  let tx = lane % {wc}u + {wc}u * ((lane / 32u) % {across}u);\n  \
         let ty = (lane % 32u) / {wc}u + {rows}u * ((lane / 32u) / {across}u);\n"
    )
}

/// The WGSL of `kernel`'s product `m` tiled as `t`.
pub fn emit(kernel: &Kernel, m: &Matmul, t: &Tile) -> Result<String> {
    let (bm, bn) = t.block();
    let mut out = bindings(kernel)?;
    let loads = step_loads(kernel, m, t)?;
    let (decl, _, store) = product(m, t);
    let shared = |name: &str, width: u32| {
        format!(
            "var<workgroup> {name}: array<array<vec4<f32>, {width}>, {bk}>;",
            bk = t.bk
        )
    };
    let batch = match m.batches {
        1 => "  let bz = 0u;\n  let row0 = wid.y * {bm}u;\n".replace("{bm}", &bm.to_string()),
        _ => format!(
            "  let bz = wid.y / {tr}u;\n  let row0 = (wid.y % {tr}u) * {bm}u;\n",
            tr = row_tiles(m, t)
        ),
    };
    // Subgroup built-ins need a one-dimensional workgroup (the grid comes from `lane`).
    let (ta, size, sid) = match t.subgroup {
        true => (
            String::new(),
            "256",
            ",\n        @builtin(subgroup_invocation_id) sid: u32",
        ),
        false => (shared("ta", t.a_width()), "16, 16", ""),
    };
    write!(
        out,
        "var<private> ox_zp: u32;
{ta}
{tb}

@compute @workgroup_size({size})
fn main(@builtin(workgroup_id) wid: vec3<u32>,
        @builtin(local_invocation_index) lane: u32{sid}) {{
  ox_zp = wid.z;
{threads}{batch}  let col0 = wid.x * {bn}u;
{regs}{decl}  {{
    let kb = 0u;
{first}  }}
{k_loop}{store}}}
",
        regs = loads.regs,
        threads = thread_grid(t),
        tb = shared("tb", bn / 4),
        first = loads.both(),
        k_loop = k_loop(m, t, &loads),
    )
    .unwrap();
    out.push_str(&loads.e.helpers.source());
    Ok(out)
}
