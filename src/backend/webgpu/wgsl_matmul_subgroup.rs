//! The subgroup form of the tiled matrix product (`wgsl_matmul`): the `a` operand skips
//! shared memory. The invocations of a subgroup that own the same output rows (the
//! `warp_cols` consecutive invocations of one row of blocks, see `wgsl_matmul::thread_grid`)
//! split those rows' k step among them: invocation `j` of the group holds elements
//! `bk / warp_cols · j ..` of the step of each of its eight (or four) rows in registers, loaded
//! straight from global memory, and each product step takes the value it needs from the
//! group member holding it with `subgroupShuffle`. `b` is staged in shared memory as in the
//! plain form. A row group must lie within one subgroup: subgroups of at least `warp_cols`
//! invocations, made of consecutive `local_invocation_index`es from a multiple of their size
//! (what drivers do for a linear workgroup).

use std::fmt::Write;

use super::wgsl_alu::Emitter;
use super::wgsl_matmul::{guarded, Tile};
use crate::kernel::matmul::{Lin, Matmul};
use crate::kernel::AluExp;
use crate::util::Result;

/// k elements of a step each member of a row group holds per row.
fn per_lane(t: &Tile) -> u32 {
    t.bk / t.warp_cols
}

/// Whether the tile can take the subgroup form on a device whose subgroups have at least
/// `min_size` invocations: the step splits evenly over a row group, which fits in one.
pub fn fits(t: &Tile, min_size: u32) -> bool {
    t.bk.is_multiple_of(t.warp_cols) && t.warp_cols <= min_size
}

/// Output row `64·g + x` of the invocation's blocks, relative to `row0 + 4·ty`.
fn row_offset(g: u32, x: u32) -> u32 {
    64 * g + x
}

/// The registers holding the invocation's share of the `a` step.
pub fn registers(t: &Tile) -> String {
    let mut regs = String::new();
    for g in 0..t.tm / 4 {
        for x in 0..4 {
            for q in 0..per_lane(t) {
                writeln!(regs, "  var sa{g}{x}_{q}: f32;").unwrap();
            }
        }
    }
    writeln!(
        regs,
        "  let ska = (sid % {wc}u) * {av}u;\n  let sbase = sid - sid % {wc}u;",
        wc = t.warp_cols,
        av = per_lane(t)
    )
    .unwrap();
    regs
}

/// One step's loads of the invocation's share of `a` (an expression re-emitted per element)
/// into its registers, for the step starting at `kb`.
pub fn expression_loads(e: &mut Emitter, exp: &AluExp, m: &Matmul, t: &Tile) -> Result<()> {
    let (rows, n, k) = (m.rows, m.n, m.k);
    for g in 0..t.tm / 4 {
        for x in 0..4 {
            for q in 0..per_lane(t) {
                writeln!(
                    e.body,
                    "    {{
      let g = row0 + 4u * ty + {off}u;
      let gk = kb + ska + {q}u;
      var v: f32 = 0.0f;
      if (g < {rows}u && gk < {k}u) {{
        let i = i32((bz * {rows}u + g) * {n}u);
        let r = i32(gk);",
                    off = row_offset(g, x)
                )
                .unwrap();
                let v = e.emit(exp)?;
                writeln!(
                    e.body,
                    "        v = {v};\n      }}\n      sa{g}{x}_{q} = v;\n    }}"
                )
                .unwrap();
            }
        }
    }
    Ok(())
}

/// The per-invocation setup and one step's loads of the invocation's share of `a`, a plain
/// float32 load of input `input` at `lin` in (row, k): every element is at the invocation's
/// base plus a constant plus the k stride times the step's k.
pub fn affine_loads(input: usize, lin: Lin, m: &Matmul, t: &Tile) -> (String, String) {
    let [v0, v1] = lin.v;
    let (rows, k) = (m.rows, m.k);
    let setup = format!(
        "  let isa = ({c}i) + ({v0}i) * i32(row0 + 4u * ty);\n",
        c = lin.c
    );
    let mut step = String::new();
    for g in 0..t.tm / 4 {
        for x in 0..4 {
            let off = row_offset(g, x);
            for q in 0..per_lane(t) {
                let mut ok = Vec::new();
                if !rows.is_multiple_of(t.block().0 as usize) {
                    ok.push(format!("row0 + 4u * ty + {off}u < {rows}u"));
                }
                if !k.is_multiple_of(t.bk as usize) {
                    ok.push(format!("kb + ska + {q}u < {k}u"));
                }
                let at = format!(
                    "in{input}[isa + ({o}i) + ({v1}i) * i32(kb + ska + {q}u)]",
                    o = v0 * off as i64
                );
                writeln!(step, "    sa{g}{x}_{q} = {};", guarded(&at, &ok)).unwrap();
            }
        }
    }
    (setup, step)
}

/// The `a` value of row `x` of block row `g` at step `kk`, taken from the row group member
/// holding it, bound to `a{g}{x}`.
pub fn shuffles(t: &Tile, kk: u32) -> String {
    let av = per_lane(t);
    let mut out = String::new();
    for g in 0..t.tm / 4 {
        for x in 0..4 {
            writeln!(
                out,
                "    let a{g}{x}_{kk} = subgroupShuffle(sa{g}{x}_{q}, sbase + {j}u);",
                q = kk % av,
                j = kk / av
            )
            .unwrap();
        }
    }
    out
}
