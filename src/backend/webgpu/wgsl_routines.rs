//! Routine IR → WGSL: one compute shader per routine shape, one invocation per matrix of the
//! batch, running the same textbook algorithm as the `cpu` interpreter
//! (`backend/cpu/routines.rs`) in f32. Bindings are the inputs in order, then the outputs.
//! Sizes are constants of the shader, so loops have fixed bounds.

use std::fmt::Write;

use super::wgsl::WORKGROUP_SIZE;
use super::wgsl_alu::storage_type;
use crate::kernel::routine::{LeftSolve, Routine, RoutineKind};
use crate::util::Result;

pub fn emit_routine(routine: &Routine) -> Result<String> {
    let float = storage_type(routine.dtype)?;
    let mut src = String::new();
    let ins = routine.inputs();
    let names_in: &[&str] = match routine.kind {
        RoutineKind::TriangularSolve { .. } => &["a", "b"],
        _ => &["a"],
    };
    let names_out: &[&str] = match routine.kind {
        RoutineKind::Lu => &["lu", "piv", "perm"],
        RoutineKind::Cholesky => &["l"],
        RoutineKind::TriangularSolve { .. } => &["x"],
    };
    for (i, name) in names_in.iter().enumerate() {
        writeln!(
            src,
            "@group(0) @binding({i}) var<storage, read> {name}: array<{float}>;"
        )
        .unwrap();
    }
    for (j, (name, (dtype, _))) in names_out.iter().zip(routine.outputs()).enumerate() {
        let ty = storage_type(dtype)?;
        writeln!(
            src,
            "@group(0) @binding({}) var<storage, read_write> {name}: array<{ty}>;",
            ins.len() + j
        )
        .unwrap();
    }
    let body = match routine.kind {
        RoutineKind::Cholesky => cholesky(routine.n),
        RoutineKind::TriangularSolve { .. } => triangular_solve(
            &LeftSolve::of(routine).expect("a triangular solve"),
            routine,
        ),
        RoutineKind::Lu => lu(routine.m, routine.n),
    };
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
        batch = routine.batch
    )
    .unwrap();
    Ok(src)
}

fn cholesky(n: usize) -> String {
    format!(
        "  let base = bi * {nn}u;
  var fail = false;
  for (var j = 0u; j < {n}u; j++) {{
    var d = a[base + j * {n}u + j];
    for (var k = 0u; k < j; k++) {{
      let t = l[base + j * {n}u + k];
      d = d - t * t;
    }}
    if (!(d > 0.0f)) {{ fail = true; }}
    d = sqrt(max(d, 0.0f));
    l[base + j * {n}u + j] = d;
    for (var i = j + 1u; i < {n}u; i++) {{
      var s = a[base + i * {n}u + j];
      for (var k = 0u; k < j; k++) {{
        s = s - l[base + i * {n}u + k] * l[base + j * {n}u + k];
      }}
      l[base + i * {n}u + j] = s / d;
    }}
    for (var i = 0u; i < j; i++) {{
      l[base + i * {n}u + j] = 0.0f;
    }}
  }}
  if (fail) {{
    // NaN from a runtime value: Tint (Chromium) rejects a constant-expression NaN.
    for (var e = 0u; e < {nn}u; e++) {{
      l[base + e] = bitcast<f32>(0x7fc00000u | (e & 0u));
    }}
  }}
",
        nn = n * n
    )
}

fn triangular_solve(s: &LeftSolve, r: &Routine) -> String {
    let k = s.k;
    let a_at = |row: &str, col: &str| {
        if s.a_transposed {
            format!("abase + ({col}) * {k}u + ({row})")
        } else {
            format!("abase + ({row}) * {k}u + ({col})")
        }
    };
    let b_at = |row: &str, j: &str| {
        if s.b_transposed {
            format!("bbase + ({j}) * {k}u + ({row})")
        } else {
            format!("bbase + ({row}) * {}u + ({j})", s.cols)
        }
    };
    let row_of = |p: &str| {
        if s.lower {
            p.to_string()
        } else {
            format!("{}u - {p}", k.saturating_sub(1))
        }
    };
    let divide = if s.unit_diagonal {
        String::new()
    } else {
        format!("      v = v / a[{}];\n", a_at("r", "r"))
    };
    format!(
        "  let abase = bi * {kk}u;
  let bbase = bi * {count}u;
  for (var e = 0u; e < {count}u; e++) {{
    x[bbase + e] = b[bbase + e];
  }}
  for (var j = 0u; j < {cols}u; j++) {{
    for (var p = 0u; p < {k}u; p++) {{
      let r = {row_p};
      var v = x[{x_rj}];
      for (var q = 0u; q < p; q++) {{
        let c = {row_q};
        v = v - a[{a_rc}] * x[{x_cj}];
      }}
{divide}      x[{x_rj}] = v;
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
    lu[base + e] = a[base + e];
  }}
  for (var i = 0u; i < {m}u; i++) {{
    perm[bi * {m}u + i] = i32(i);
  }}
  for (var j = 0u; j < {p}u; j++) {{
    var pr = j;
    var best = abs(lu[base + j * {n}u + j]);
    for (var i = j + 1u; i < {m}u; i++) {{
      let t = abs(lu[base + i * {n}u + j]);
      if (t > best) {{ best = t; pr = i; }}
    }}
    piv[bi * {p}u + j] = i32(pr);
    if (pr != j) {{
      for (var c = 0u; c < {n}u; c++) {{
        let t = lu[base + j * {n}u + c];
        lu[base + j * {n}u + c] = lu[base + pr * {n}u + c];
        lu[base + pr * {n}u + c] = t;
      }}
      let t = perm[bi * {m}u + j];
      perm[bi * {m}u + j] = perm[bi * {m}u + pr];
      perm[bi * {m}u + pr] = t;
    }}
    let d = lu[base + j * {n}u + j];
    if (d != 0.0f) {{
      for (var i = j + 1u; i < {m}u; i++) {{
        lu[base + i * {n}u + j] = lu[base + i * {n}u + j] / d;
      }}
    }}
    for (var i = j + 1u; i < {m}u; i++) {{
      let f = lu[base + i * {n}u + j];
      for (var c = j + 1u; c < {n}u; c++) {{
        lu[base + i * {n}u + c] = lu[base + i * {n}u + c] - f * lu[base + j * {n}u + c];
      }}
    }}
  }}
",
        mn = m * n
    )
}
