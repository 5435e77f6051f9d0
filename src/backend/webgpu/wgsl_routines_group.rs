//! Routine IR → WGSL with a workgroup per matrix, for the routines of larger matrices (the
//! Jacobi rotations in `wgsl_jacobi_group`). Cholesky, LU and the triangular solve: the workgroup's invocations split each step of
//! the textbook algorithm — the rows of a Cholesky column, the pivot search (a tree reduction
//! in workgroup memory), row swap, column scaling and trailing update of an LU column, the
//! updates of a triangular solve's remaining rows (right-looking; a workgroup per block of
//! [`SOLVE_BLOCK_COLS`] right-hand-side columns, which are independent) — with a storage
//! barrier between steps. Every element goes through the same operations in the same order as in the
//! one-invocation shader (`wgsl_routines`), so both compute the same values. Small matrices
//! (and the routine bodies of packed-buffer stages) keep one invocation per matrix.

use super::wgsl_routines::{operand_declarations, solve_a_at, solve_b_at, solve_row_of};
use crate::kernel::routine::{LeftSolve, Routine, RoutineKind};
use crate::util::Result;

/// The smallest matrix side run with a workgroup per matrix: below it a workgroup's
/// invocations would mostly idle, and one invocation per matrix runs batches better.
pub const MIN_SIDE: usize = 16;

/// Columns of a triangular solve's right-hand side per workgroup: the columns are independent,
/// so a solve with many runs a workgroup per block of them, in parallel (each element still
/// goes through the same operations in the same order).
pub const SOLVE_BLOCK_COLS: usize = 16;

/// The workgroups that compute one matrix of `routine` when it runs with a workgroup per
/// matrix: a triangular solve's column blocks, else 1.
pub fn groups_per_matrix(routine: &Routine) -> usize {
    match LeftSolve::of(routine) {
        Some(s) if group_size(routine).is_some() => s.cols.div_ceil(SOLVE_BLOCK_COLS).max(1),
        _ => 1,
    }
}

/// The invocations of the workgroup that computes one matrix of `routine`, or None when the
/// routine runs with one invocation per matrix.
pub fn group_size(routine: &Routine) -> Option<u32> {
    let side = match routine.kind {
        RoutineKind::Cholesky | RoutineKind::Lu => routine.m.max(routine.n),
        RoutineKind::TriangularSolve { .. } => LeftSolve::of(routine)?.k,
        RoutineKind::Diagonalize | RoutineKind::OrthogonalColumns { .. } => {
            if routine.n > super::wgsl_jacobi_group::MAX_SIDE {
                return None;
            }
            routine.m.max(routine.n)
        }
        RoutineKind::Sort | RoutineKind::Fft { .. } => return None,
    };
    match side {
        s if s < MIN_SIDE => None,
        s if s < 64 => Some(64),
        _ => Some(256),
    }
}

/// The shader of `routine` with a workgroup of `size` invocations per matrix (dispatched as
/// one workgroup per matrix of the batch); bindings as in `wgsl_routines::emit_routine`.
pub fn emit(routine: &Routine, size: u32) -> Result<String> {
    let body = match routine.kind {
        RoutineKind::Cholesky => cholesky(routine.n, size),
        RoutineKind::Lu => lu(routine.m, routine.n, size),
        RoutineKind::TriangularSolve { .. } => match LeftSolve::of(routine) {
            Some(s) => {
                let body = triangular_solve(&s, routine.m * routine.n, size);
                return shader(routine, "", size, Some(groups_per_matrix(routine)), &body);
            }
            None => unreachable!("a triangular solve"),
        },
        RoutineKind::Diagonalize | RoutineKind::OrthogonalColumns { .. } => {
            return super::wgsl_jacobi_group::emit(routine, size)
        }
        RoutineKind::Sort | RoutineKind::Fft { .. } => {
            return Err(crate::util::Error::new(
                routine.name(),
                "internal error: no workgroup-per-matrix shader for this routine",
            ))
        }
    };
    let reduction = match routine.kind {
        RoutineKind::Lu => format!(
            "var<workgroup> red_v: array<f32, {size}>;\nvar<workgroup> red_i: array<u32, {size}>;\n"
        ),
        _ => String::new(),
    };
    group_shader(routine, &reduction, size, &body)
}

/// The shader of a routine run by a workgroup of `size` per matrix of its batch: the operands'
/// bindings, `shared` (workgroup declarations), and `main` running `body` for matrix `bi`.
pub(super) fn group_shader(
    routine: &Routine,
    shared: &str,
    size: u32,
    body: &str,
) -> Result<String> {
    shader(routine, shared, size, None, body)
}

/// [`group_shader`], or with `blocks` workgroups per matrix (`main` then runs `body` for
/// matrix `bi` and block `cb` of it).
fn shader(
    routine: &Routine,
    shared: &str,
    size: u32,
    blocks: Option<usize>,
    body: &str,
) -> Result<String> {
    let batch = routine.batch;
    let which = match blocks {
        None => {
            format!("  let bi = wid.x + wid.y * groups.x;\n  if (bi >= {batch}u) {{ return; }}\n")
        }
        Some(blocks) => format!(
            "  let gi = wid.x + wid.y * groups.x;
  if (gi >= {all}u) {{ return; }}
  let bi = gi / {blocks}u;
  let cb = gi % {blocks}u;
",
            all = batch * blocks
        ),
    };
    Ok(format!(
        "{decls}{shared}
@compute @workgroup_size({size})
fn main(@builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) groups: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {{
{which}{body}}}
",
        decls = operand_declarations(routine)?,
    ))
}

/// Left-looking Cholesky by columns, the rows of each column split among the invocations:
/// first each row's dot product with the pivot row is subtracted (the pivot's own row gives
/// the squared pivot), then, past a barrier, the pivot's square root divides the rows below.
fn cholesky(n: usize, w: u32) -> String {
    format!(
        "  let base = bi * {nn}u;
  for (var j = 0u; j < {n}u; j++) {{
    for (var i = j + lid; i < {n}u; i += {w}u) {{
      var s = ld_a(base + i * {n}u + j);
      for (var k = 0u; k < j; k++) {{
        s = s - ld_l(base + i * {n}u + k) * ld_l(base + j * {n}u + k);
      }}
      st_l(base + i * {n}u + j, s);
    }}
    for (var i = lid; i < j; i += {w}u) {{
      st_l(base + i * {n}u + j, 0.0f);
    }}
    storageBarrier();
    var d = ld_l(base + j * {n}u + j);
    // A negative or NaN pivot is NaN (from a runtime value: Tint rejects a constant NaN).
    d = select(sqrt(max(d, 0.0f)), bitcast<f32>(0x7fc00000u | (j & 0u)), !(d >= 0.0f));
    for (var i = j + 1u + lid; i < {n}u; i += {w}u) {{
      st_l(base + i * {n}u + j, ld_l(base + i * {n}u + j) / d);
    }}
    storageBarrier();
    if (lid == 0u) {{ st_l(base + j * {n}u + j, d); }}
  }}
",
        nn = n * n
    )
}

/// Right-looking triangular solve: row `r` of the solution is final (divided by its
/// diagonal) once the rows before it were subtracted from it, in the order the one-invocation
/// shader subtracts them; then its multiples are subtracted from the rows after it, the
/// elements of those rows split among the invocations.
fn triangular_solve(s: &LeftSolve, count: usize, w: u32) -> String {
    let k = s.k;
    let a_at = |row: &str, col: &str| solve_a_at(s, row, col);
    let b_at = |row: &str, j: &str| solve_b_at(s, row, j);
    let row_of = |p: &str| solve_row_of(s, p);
    // This workgroup's columns: `bw` from `j0` (`cb`: the block), the last block guarded when
    // the columns do not fill it.
    let bw = s.cols.clamp(1, SOLVE_BLOCK_COLS);
    let guard = |body: String| match s.cols % bw {
        0 => body,
        _ => format!("      if (j < {}u) {{ {body} }}", s.cols),
    };
    let divide = if s.unit_diagonal {
        String::new()
    } else {
        format!(
            "    for (var jj = lid; jj < {bw}u; jj += {w}u) {{
      let j = j0 + jj;
{st}
    }}
    storageBarrier();
",
            st = guard(format!(
                "      st_x({x_rj}, ld_x({x_rj}) / ld_a({a_rr}));",
                x_rj = b_at("r", "j"),
                a_rr = a_at("r", "r"),
            )),
        )
    };
    format!(
        "  let abase = bi * {kk}u;
  let bbase = bi * {count}u;
  let j0 = cb * {bw}u;
  for (var e = lid; e < {all}u; e += {w}u) {{
    let t = e / {bw}u;
    let j = j0 + e % {bw}u;
{copy}
  }}
  storageBarrier();
  for (var p = 0u; p < {k}u; p++) {{
    let r = {row_p};
{divide}    let rest = ({k}u - 1u - p) * {bw}u;
    for (var e = lid; e < rest; e += {w}u) {{
      let q = p + 1u + e / {bw}u;
      let j = j0 + e % {bw}u;
      let t = {row_q};
{update}
    }}
    storageBarrier();
  }}
",
        kk = k * k,
        all = k * bw,
        copy = guard(format!(
            "      st_x({x_tj}, ld_b({x_tj}));",
            x_tj = b_at("t", "j")
        )),
        row_p = row_of("p"),
        row_q = row_of("q"),
        update = guard(format!(
            "      st_x({x_tj}, ld_x({x_tj}) - ld_a({a_tr}) * ld_x({x_rj}));",
            x_tj = b_at("t", "j"),
            x_rj = b_at("r", "j"),
            a_tr = a_at("t", "r"),
        )),
    )
}

/// LU with partial pivoting by columns: the pivot search is a tree reduction (the largest
/// magnitude, the first row among equals, the diagonal kept when it is NaN: what the
/// sequential search picks), then the row swap, the scaling of the column and the trailing
/// update are split among the invocations.
fn lu(m: usize, n: usize, w: u32) -> String {
    let p = m.min(n);
    format!(
        "  let base = bi * {mn}u;
  for (var e = lid; e < {mn}u; e += {w}u) {{
    st_lu(base + e, ld_a(base + e));
  }}
  for (var i = lid; i < {m}u; i += {w}u) {{
    st_perm(bi * {m}u + i, i32(i));
  }}
  storageBarrier();
  for (var j = 0u; j < {p}u; j++) {{
    var bv = -1.0f;
    var bix = 0xffffffffu;
    for (var i = j + lid; i < {m}u; i += {w}u) {{
      let t = abs(ld_lu(base + i * {n}u + j));
      if (t > bv) {{ bv = t; bix = i; }}
    }}
    red_v[lid] = bv;
    red_i[lid] = bix;
    workgroupBarrier();
    for (var h = {half}u; h > 0u; h = h >> 1u) {{
      if (lid < h) {{
        let ov = red_v[lid + h];
        let oi = red_i[lid + h];
        if (ov > red_v[lid] || (ov == red_v[lid] && oi < red_i[lid])) {{
          red_v[lid] = ov;
          red_i[lid] = oi;
        }}
      }}
      workgroupBarrier();
    }}
    let diag = abs(ld_lu(base + j * {n}u + j));
    let pr = select(red_i[0], j, diag != diag || red_i[0] >= {m}u);
    if (lid == 0u) {{
      st_piv(bi * {p}u + j, i32(pr));
      if (pr != j) {{
        let t = ld_perm(bi * {m}u + j);
        st_perm(bi * {m}u + j, ld_perm(bi * {m}u + pr));
        st_perm(bi * {m}u + pr, t);
      }}
    }}
    if (pr != j) {{
      for (var c = lid; c < {n}u; c += {w}u) {{
        let t = ld_lu(base + j * {n}u + c);
        st_lu(base + j * {n}u + c, ld_lu(base + pr * {n}u + c));
        st_lu(base + pr * {n}u + c, t);
      }}
    }}
    storageBarrier();
    let d = ld_lu(base + j * {n}u + j);
    if (d != 0.0f) {{
      for (var i = j + 1u + lid; i < {m}u; i += {w}u) {{
        st_lu(base + i * {n}u + j, ld_lu(base + i * {n}u + j) / d);
      }}
    }}
    storageBarrier();
    let cols = {n}u - j - 1u;
    let rest = ({m}u - j - 1u) * cols;
    for (var e = lid; e < rest; e += {w}u) {{
      let i = j + 1u + e / cols;
      let c = j + 1u + e % cols;
      st_lu(base + i * {n}u + c, ld_lu(base + i * {n}u + c) - ld_lu(base + i * {n}u + j) * ld_lu(base + j * {n}u + c));
    }}
    storageBarrier();
  }}
",
        mn = m * n,
        half = w / 2,
    )
}
