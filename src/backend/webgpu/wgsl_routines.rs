//! Routine IR → WGSL: one compute shader per routine shape, one invocation per matrix of the
//! batch (a workgroup per matrix for larger factorizations and solves, `wgsl_routines_group`),
//! running the same textbook algorithm as the `cpu` interpreter
//! (`backend/cpu/routines.rs`) in f32. Bindings are the inputs in order, then the outputs.
//! Sizes are constants of the shader, so loops have fixed bounds.

use std::fmt::Write;

use super::wgsl::WORKGROUP_SIZE;
use super::wgsl_alu::storage_type;
use crate::kernel::routine::{LeftSolve, Routine, RoutineKind};
use crate::util::Result;

/// Whether `routine` runs as several passes (`passes.rs`) rather than one shader.
pub fn multi_pass(routine: &Routine) -> bool {
    matches!(routine.kind, RoutineKind::Sort | RoutineKind::Fft { .. })
}

/// The names of a routine's operands, inputs then outputs, in binding order.
fn operand_names(routine: &Routine) -> (&'static [&'static str], &'static [&'static str]) {
    let ins: &[&str] = match routine.kind {
        RoutineKind::TriangularSolve { .. } => &["a", "b"],
        RoutineKind::Fft { .. } => &["re", "im"],
        _ => &["a"],
    };
    let outs: &[&str] = match routine.kind {
        RoutineKind::Lu => &["lu", "piv", "perm"],
        RoutineKind::Cholesky => &["l"],
        RoutineKind::TriangularSolve { .. } => &["x"],
        RoutineKind::Sort => &["sorted", "perm"],
        RoutineKind::Fft { .. } => &["out_re", "out_im"],
        RoutineKind::Diagonalize => &["d", "vecs"],
        RoutineKind::OrthogonalColumns { .. } => &["w", "vecs"],
    };
    (ins, outs)
}

/// The algorithm of `routine` for matrix `bi` of the batch, reading and writing its operands
/// through `ld_NAME(i)` / `st_NAME(i, v)` (element `i` of operand NAME).
fn body(routine: &Routine) -> String {
    match routine.kind {
        RoutineKind::Cholesky => cholesky(routine.n),
        RoutineKind::TriangularSolve { .. } => triangular_solve(
            &LeftSolve::of(routine).expect("a triangular solve"),
            routine,
        ),
        RoutineKind::Lu => lu(routine.m, routine.n),
        RoutineKind::Diagonalize => diagonalize(routine.n),
        RoutineKind::OrthogonalColumns { vectors } => {
            orthogonal_columns(routine.m, routine.n, vectors)
        }
        RoutineKind::Sort | RoutineKind::Fft { .. } => unreachable!("a multi-pass routine"),
    }
}

/// Each operand with its WGSL element type, inputs then outputs.
fn operands(routine: &Routine) -> Result<Vec<(&'static str, String, bool)>> {
    let (names_in, names_out) = operand_names(routine);
    let float = storage_type(routine.dtype)?;
    let mut all: Vec<(&str, String, bool)> = names_in
        .iter()
        .map(|n| (*n, float.to_string(), false))
        .collect();
    for (name, (dtype, _)) in names_out.iter().zip(routine.outputs()) {
        all.push((name, storage_type(dtype)?.to_string(), true));
    }
    Ok(all)
}

/// The storage bindings of `routine`'s operands (inputs in order, then outputs) with their
/// accessors `ld_NAME(i)` and, for outputs, `st_NAME(i, v)`.
pub(super) fn operand_declarations(routine: &Routine) -> Result<String> {
    let mut src = String::new();
    for (i, (name, ty, out)) in operands(routine)?.iter().enumerate() {
        let access = if *out { "read_write" } else { "read" };
        writeln!(
            src,
            "@group(0) @binding({i}) var<storage, {access}> {name}: array<{ty}>;\n\
             fn ld_{name}(i: u32) -> {ty} {{ return {name}[i]; }}"
        )
        .unwrap();
        if *out {
            writeln!(src, "fn st_{name}(i: u32, v: {ty}) {{ {name}[i] = v; }}").unwrap();
        }
    }
    Ok(src)
}

/// The routine's own shader: bindings are the inputs in order, then the outputs; one
/// invocation per matrix of the batch, or a workgroup per matrix for the factorizations and
/// solves of larger matrices (`wgsl_routines_group`).
pub fn emit_routine(routine: &Routine) -> Result<String> {
    if multi_pass(routine) {
        return Err(crate::util::Error::new(
            routine.name(),
            "internal error: a multi-pass routine (webgpu/sort.rs, webgpu/fft.rs)",
        ));
    }
    if let Some(size) = super::wgsl_routines_group::group_size(routine) {
        return super::wgsl_routines_group::emit(routine, size);
    }
    let mut src = operand_declarations(routine)?;
    write!(
        src,
        "
@compute @workgroup_size({WORKGROUP_SIZE})
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) groups: vec3<u32>) {{
  let bi = gid.x + gid.y * groups.x * {WORKGROUP_SIZE}u;
  if (bi >= {batch}u) {{ return; }}
{body}}}
",
        batch = routine.batch,
        body = body(routine),
    )
    .unwrap();
    Ok(src)
}

/// The routine over a packed buffer (`ox_buf`, an `array<u32>`), for the stages of a
/// packed-buffer program (`program::stages`): the algorithm for matrix `bi` (a variable the caller
/// declares) and the accessor functions it calls, named with `tag` so that several routines
/// share a shader; operand `k` (inputs then outputs) starts at word `bases[k]`. None for
/// operands that are not 32-bit.
pub fn packed_routine(
    routine: &Routine,
    tag: usize,
    bases: &[u32],
) -> Result<Option<(String, String)>> {
    // The sort and the FFT need passes of their own: not a stage.
    if multi_pass(routine) {
        return Ok(None);
    }
    let ops = operands(routine)?;
    if ops.len() != bases.len() || ops.iter().any(|(_, ty, _)| ty != "f32" && ty != "i32") {
        return Ok(None);
    }
    let code = body(routine)
        .replace("ld_", &format!("ld{tag}_"))
        .replace("st_", &format!("st{tag}_"));
    let mut accessors = String::new();
    for ((name, ty, out), base) in ops.iter().zip(bases) {
        writeln!(
            accessors,
            "fn ld{tag}_{name}(i: u32) -> {ty} {{ return bitcast<{ty}>(ox_buf[{base}u + i]); }}"
        )
        .unwrap();
        if *out {
            writeln!(
                accessors,
                "fn st{tag}_{name}(i: u32, v: {ty}) {{ ox_buf[{base}u + i] = bitcast<u32>(v); }}"
            )
            .unwrap();
        }
    }
    Ok(Some((code, accessors)))
}

/// The relative tolerance of a Jacobi rotation over `rows`-long columns, in f32.
pub(super) fn jacobi_tolerance(rows: usize) -> f32 {
    (rows as f32).sqrt().max(4.0) * f32::EPSILON
}

/// The rotation of pair `(p, q)` (Golub & Van Loan, Algorithm 8.5.2: `c = 1/√(1+t²)`,
/// `s = t·c` with `t` the smaller root that zeroes `apq`), skipped when `apq` is negligible
/// (`tol`, `tiny` in scope): sets `c`, `s` and `rotated`, or continues.
const JACOBI_ROTATION: &str = "
        if (apq == 0.0f || abs(apq) <= tol * sqrt(abs(app * aqq)) || abs(apq) <= tiny) {
          continue;
        }
        rotated = true;
        let dd = aqq - app;
        var t = 2.0f * apq / (abs(dd) + sqrt(dd * dd + 4.0f * apq * apq));
        if (dd < 0.0f) { t = -t; }
        let c = 1.0f / sqrt(1.0f + t * t);
        let s = t * c;";

/// Columns `p`, `q` of the `rows × cols` matrix operand `name` at `base` rotated by `c`, `s`.
fn rotate_columns(name: &str, base: &str, rows: usize, cols: usize) -> String {
    format!(
        "
        for (var k = 0u; k < {rows}u; k++) {{
          let x = ld_{name}({base} + k * {cols}u + p);
          let y = ld_{name}({base} + k * {cols}u + q);
          st_{name}({base} + k * {cols}u + p, c * x - s * y);
          st_{name}({base} + k * {cols}u + q, s * x + c * y);
        }}"
    )
}

/// Cyclic sweeps over the pairs `p < q` with `pair` run for each, until none rotates.
fn jacobi_sweeps(n: usize, pair: &str) -> String {
    format!(
        "  for (var sweep = 0u; sweep < {sweeps}u; sweep++) {{
    var rotated = false;
    for (var p = 0u; p < {n}u; p++) {{
      for (var q = p + 1u; q < {n}u; q++) {{{pair}
      }}
    }}
    if (!rotated) {{ break; }}
  }}
",
        sweeps = crate::backend::jacobi::MAX_SWEEPS
    )
}

/// Two-sided Jacobi in f32: `d` rotated in place from `a`.
fn diagonalize(n: usize) -> String {
    let pair = format!(
        "
        let app = ld_d(base + p * {n}u + p);
        let aqq = ld_d(base + q * {n}u + q);
        let apq = ld_d(base + p * {n}u + q);{JACOBI_ROTATION}{cols}
        for (var k = 0u; k < {n}u; k++) {{
          let x = ld_d(base + p * {n}u + k);
          let y = ld_d(base + q * {n}u + k);
          st_d(base + p * {n}u + k, c * x - s * y);
          st_d(base + q * {n}u + k, s * x + c * y);
        }}
        st_d(base + p * {n}u + q, 0.0f);
        st_d(base + q * {n}u + p, 0.0f);{vecs}",
        cols = rotate_columns("d", "base", n, n),
        vecs = rotate_columns("vecs", "base", n, n),
    );
    format!(
        "  let base = bi * {nn}u;
  var norm = 0.0f;
  for (var e = 0u; e < {nn}u; e++) {{
    let x = ld_a(base + e);
    st_d(base + e, x);
    norm = norm + x * x;
    st_vecs(base + e, select(0.0f, 1.0f, e / {n}u == e % {n}u));
  }}
  let tol = {tol:e}f;
  let tiny = {eps:e}f * sqrt(norm) / {n}.0f;
{sweeps}",
        nn = n * n,
        tol = jacobi_tolerance(n),
        eps = f32::EPSILON,
        sweeps = jacobi_sweeps(n, &pair),
    )
}

/// One-sided Jacobi of the columns (Hestenes' method) in f32: `w` rotated in place from `a`;
/// `vecs` accumulates the rotations only with `vectors` (else it stays the identity).
fn orthogonal_columns(m: usize, n: usize, vectors: bool) -> String {
    let pair = format!(
        "
        var app = 0.0f;
        var aqq = 0.0f;
        var apq = 0.0f;
        for (var k = 0u; k < {m}u; k++) {{
          let x = ld_w(wb + k * {n}u + p);
          let y = ld_w(wb + k * {n}u + q);
          app = app + x * x;
          aqq = aqq + y * y;
          apq = apq + x * y;
        }}{JACOBI_ROTATION}{cols}{vecs}",
        cols = rotate_columns("w", "wb", m, n),
        vecs = if vectors {
            rotate_columns("vecs", "vb", n, n)
        } else {
            String::new()
        },
    );
    format!(
        "  let wb = bi * {mn}u;
  let vb = bi * {nn}u;
  var norm2 = 0.0f;
  for (var e = 0u; e < {mn}u; e++) {{
    let x = ld_a(wb + e);
    st_w(wb + e, x);
    norm2 = norm2 + x * x;
  }}
  for (var e = 0u; e < {nn}u; e++) {{
    st_vecs(vb + e, select(0.0f, 1.0f, e / {n}u == e % {n}u));
  }}
  let tol = {tol:e}f;
  let tiny = {eps2:e}f * norm2;
{sweeps}",
        mn = m * n,
        nn = n * n,
        tol = jacobi_tolerance(m),
        eps2 = f32::EPSILON * f32::EPSILON,
        sweeps = jacobi_sweeps(n, &pair),
    )
}

fn cholesky(n: usize) -> String {
    format!(
        "  let base = bi * {nn}u;
  for (var j = 0u; j < {n}u; j++) {{
    var d = ld_a(base + j * {n}u + j);
    for (var k = 0u; k < j; k++) {{
      let t = ld_l(base + j * {n}u + k);
      d = d - t * t;
    }}
    // A negative or NaN pivot is NaN (from a runtime value: Tint rejects a constant NaN).
    d = select(sqrt(max(d, 0.0f)), bitcast<f32>(0x7fc00000u | (j & 0u)), !(d >= 0.0f));
    st_l(base + j * {n}u + j, d);
    for (var i = j + 1u; i < {n}u; i++) {{
      var s = ld_a(base + i * {n}u + j);
      for (var k = 0u; k < j; k++) {{
        s = s - ld_l(base + i * {n}u + k) * ld_l(base + j * {n}u + k);
      }}
      st_l(base + i * {n}u + j, s / d);
    }}
    for (var i = 0u; i < j; i++) {{
      st_l(base + i * {n}u + j, 0.0f);
    }}
  }}
",
        nn = n * n
    )
}

/// The word of `t`'s element (`row`, `col`) in a triangular solve's shader (`abase`: the
/// matrix's first word).
pub(super) fn solve_a_at(s: &LeftSolve, row: &str, col: &str) -> String {
    let k = s.k;
    if s.a_transposed {
        format!("abase + ({col}) * {k}u + ({row})")
    } else {
        format!("abase + ({row}) * {k}u + ({col})")
    }
}

/// The word of the right-hand side's element (`row`, column `j`) in a triangular solve's
/// shader (`bbase`: its first word).
pub(super) fn solve_b_at(s: &LeftSolve, row: &str, j: &str) -> String {
    if s.b_transposed {
        format!("bbase + ({j}) * {}u + ({row})", s.k)
    } else {
        format!("bbase + ({row}) * {}u + ({j})", s.cols)
    }
}

/// The row a triangular solve finishes at its step `p` (forward when `t` is lower).
pub(super) fn solve_row_of(s: &LeftSolve, p: &str) -> String {
    if s.lower {
        p.to_string()
    } else {
        format!("{}u - {p}", s.k.saturating_sub(1))
    }
}

fn triangular_solve(s: &LeftSolve, r: &Routine) -> String {
    let k = s.k;
    let a_at = |row: &str, col: &str| solve_a_at(s, row, col);
    let b_at = |row: &str, j: &str| solve_b_at(s, row, j);
    let row_of = |p: &str| solve_row_of(s, p);
    let divide = if s.unit_diagonal {
        String::new()
    } else {
        format!("      v = v / ld_a({});\n", a_at("r", "r"))
    };
    format!(
        "  let abase = bi * {kk}u;
  let bbase = bi * {count}u;
  for (var e = 0u; e < {count}u; e++) {{
    st_x(bbase + e, ld_b(bbase + e));
  }}
  for (var j = 0u; j < {cols}u; j++) {{
    for (var p = 0u; p < {k}u; p++) {{
      let r = {row_p};
      var v = ld_x({x_rj});
      for (var q = 0u; q < p; q++) {{
        let c = {row_q};
        v = v - ld_a({a_rc}) * ld_x({x_cj});
      }}
{divide}      st_x({x_rj}, v);
    }}
  }}
",
        kk = k * k,
        count = r.m * r.n,
        cols = s.cols,
        row_p = row_of("p"),
        row_q = row_of("q"),
        x_rj = b_at("r", "j"),
        x_cj = b_at("c", "j"),
        a_rc = a_at("r", "c"),
    )
}

fn lu(m: usize, n: usize) -> String {
    let p = m.min(n);
    format!(
        "  let base = bi * {mn}u;
  for (var e = 0u; e < {mn}u; e++) {{
    st_lu(base + e, ld_a(base + e));
  }}
  for (var i = 0u; i < {m}u; i++) {{
    st_perm(bi * {m}u + i, i32(i));
  }}
  for (var j = 0u; j < {p}u; j++) {{
    var pr = j;
    var best = abs(ld_lu(base + j * {n}u + j));
    for (var i = j + 1u; i < {m}u; i++) {{
      let t = abs(ld_lu(base + i * {n}u + j));
      if (t > best) {{ best = t; pr = i; }}
    }}
    st_piv(bi * {p}u + j, i32(pr));
    if (pr != j) {{
      for (var c = 0u; c < {n}u; c++) {{
        let t = ld_lu(base + j * {n}u + c);
        st_lu(base + j * {n}u + c, ld_lu(base + pr * {n}u + c));
        st_lu(base + pr * {n}u + c, t);
      }}
      let t = ld_perm(bi * {m}u + j);
      st_perm(bi * {m}u + j, ld_perm(bi * {m}u + pr));
      st_perm(bi * {m}u + pr, t);
    }}
    let d = ld_lu(base + j * {n}u + j);
    if (d != 0.0f) {{
      for (var i = j + 1u; i < {m}u; i++) {{
        st_lu(base + i * {n}u + j, ld_lu(base + i * {n}u + j) / d);
      }}
    }}
    for (var i = j + 1u; i < {m}u; i++) {{
      let f = ld_lu(base + i * {n}u + j);
      for (var c = j + 1u; c < {n}u; c++) {{
        st_lu(base + i * {n}u + c, ld_lu(base + i * {n}u + c) - f * ld_lu(base + j * {n}u + c));
      }}
    }}
  }}
",
        mn = m * n
    )
}
