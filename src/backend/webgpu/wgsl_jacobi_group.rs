//! The Jacobi rotations of `eigh` (two-sided) and `svd` (one-sided) in WGSL with a workgroup
//! per matrix: each sweep visits every pair `p < q` once, in the rounds of a round-robin
//! tournament (the circle method), so the pairs of a round are disjoint and rotate in
//! parallel (Brent and Luk's parallel ordering). A round computes every pair's rotation from
//! the current matrix (the rotations of disjoint pairs leave each other's 2×2 blocks alone),
//! then applies them with the workgroup's invocations split over the rows or columns they
//! touch, a barrier between steps. The rotation and its skip test are those of the
//! one-invocation shader (`wgsl_routines.rs`); only the order of the pairs differs, so results
//! agree to rounding (the library sorts the eigen- and singular values).

use super::wgsl_routines::jacobi_tolerance;
use super::wgsl_routines_group::group_shader;
use crate::kernel::routine::{Routine, RoutineKind};

/// The largest matrix side whose pairs' rotations fit the workgroup's arrays.
pub const MAX_SIDE: usize = 1024;

/// Players of the round-robin tournament (`n` rounded up to even: an odd side plays a
/// dummy column `n`) and its pairs per round.
fn tournament(n: usize) -> (usize, usize) {
    let players = n + n % 2;
    (players, players / 2)
}

/// The workgroup declarations, the sweep loop's prologue and the pair of round `round`,
/// index `t` (as `p`, `q`; `q == n` is the dummy column).
fn common(n: usize, w: u32) -> (String, String) {
    let (players, pairs) = tournament(n);
    let last = players - 1;
    let decls = format!(
        "var<workgroup> rot_c: array<f32, {pairs}>;
var<workgroup> rot_s: array<f32, {pairs}>;
var<workgroup> rot_on: array<u32, {pairs}>;
var<workgroup> red: array<f32, {w}>;
var<workgroup> rotated: u32;
fn pair_of(round: u32, t: u32) -> vec2<u32> {{
  var a = round;
  var b = {last}u;
  if (t > 0u) {{
    a = (round + t) % {last}u;
    b = (round + {last}u - t) % {last}u;
  }}
  return vec2<u32>(min(a, b), max(a, b));
}}
fn rotation(t: u32, app: f32, aqq: f32, apq: f32, tol: f32, tiny: f32) {{
  var c = 1.0f;
  var s = 0.0f;
  var on = 0u;
  if (!(apq == 0.0f || abs(apq) <= tol * sqrt(abs(app * aqq)) || abs(apq) <= tiny)) {{
    let dd = aqq - app;
    var r = 2.0f * apq / (abs(dd) + sqrt(dd * dd + 4.0f * apq * apq));
    if (dd < 0.0f) {{ r = -r; }}
    c = 1.0f / sqrt(1.0f + r * r);
    s = r * c;
    on = 1u;
    rotated = 1u;
  }}
  rot_c[t] = c;
  rot_s[t] = s;
  rot_on[t] = on;
}}
"
    );
    // The sum of `part` over the workgroup, in `red[0]` for every invocation.
    let reduce = format!(
        "  red[lid] = part;
  workgroupBarrier();
  for (var h = {half}u; h > 0u; h = h >> 1u) {{
    if (lid < h) {{ red[lid] = red[lid] + red[lid + h]; }}
    workgroupBarrier();
  }}
  let total = red[0];
  storageBarrier();
",
        half = w / 2
    );
    (decls, reduce)
}

/// Rotates columns (`rows` × `cols` matrix `name` at `base`) or rows of every rotating pair
/// of the round, the elements split among the invocations.
fn apply(name: &str, base: &str, rows: usize, cols: usize, by_rows: bool, w: u32) -> String {
    let (pairs, len) = (
        tournament(if by_rows { rows } else { cols }).1,
        if by_rows { cols } else { rows },
    );
    let (at_p, at_q) = if by_rows {
        (
            format!("{base} + pq.x * {cols}u + k"),
            format!("{base} + pq.y * {cols}u + k"),
        )
    } else {
        (
            format!("{base} + k * {cols}u + pq.x"),
            format!("{base} + k * {cols}u + pq.y"),
        )
    };
    format!(
        "      for (var e = lid; e < {items}u; e += {w}u) {{
        let t = e / {len}u;
        let k = e % {len}u;
        if (rot_on[t] != 0u) {{
          let pq = pair_of(round, t);
          let c = rot_c[t];
          let s = rot_s[t];
          let x = ld_{name}({at_p});
          let y = ld_{name}({at_q});
          st_{name}({at_p}, c * x - s * y);
          st_{name}({at_q}, s * x + c * y);
        }}
      }}
",
        items = pairs * len,
    )
}

/// The sweeps: `rotations` computes the round's rotations, `steps` applies them.
fn sweeps(n: usize, rotations: &str, steps: &str) -> String {
    let (players, _) = tournament(n);
    format!(
        "  for (var sweep = 0u; sweep < {max}u; sweep++) {{
    workgroupBarrier();
    if (lid == 0u) {{ rotated = 0u; }}
    workgroupBarrier();
    for (var round = 0u; round < {rounds}u; round++) {{
{rotations}      workgroupBarrier();
{steps}    }}
    if (workgroupUniformLoad(&rotated) == 0u) {{ break; }}
  }}
",
        max = crate::backend::jacobi::MAX_SWEEPS,
        rounds = players - 1,
    )
}

/// The shader of a Jacobi routine of side at most [`MAX_SIDE`], a workgroup of `w` per matrix.
pub fn emit(routine: &Routine, w: u32) -> crate::util::Result<String> {
    let (m, n) = (routine.m, routine.n);
    let (decls, reduce) = common(n, w);
    let pairs = tournament(n).1;
    let body = match routine.kind {
        RoutineKind::Diagonalize => {
            let rotations = format!(
                "      for (var t = lid; t < {pairs}u; t += {w}u) {{
        let pq = pair_of(round, t);
        if (pq.y < {n}u) {{
          rotation(t, ld_d(base + pq.x * {n}u + pq.x), ld_d(base + pq.y * {n}u + pq.y),
                   ld_d(base + pq.x * {n}u + pq.y), tol, tiny);
        }} else {{
          rot_on[t] = 0u;
        }}
      }}
"
            );
            let steps = format!(
                "{rows}      storageBarrier();
{cols}{vecs}      storageBarrier();
      for (var t = lid; t < {pairs}u; t += {w}u) {{
        if (rot_on[t] != 0u) {{
          let pq = pair_of(round, t);
          st_d(base + pq.x * {n}u + pq.y, 0.0f);
          st_d(base + pq.y * {n}u + pq.x, 0.0f);
        }}
      }}
      storageBarrier();
",
                rows = apply("d", "base", n, n, true, w),
                cols = apply("d", "base", n, n, false, w),
                vecs = apply("vecs", "base", n, n, false, w),
            );
            format!(
                "  let base = bi * {nn}u;
  var part = 0.0f;
  for (var e = lid; e < {nn}u; e += {w}u) {{
    let x = ld_a(base + e);
    st_d(base + e, x);
    part = part + x * x;
    st_vecs(base + e, select(0.0f, 1.0f, e / {n}u == e % {n}u));
  }}
{reduce}  let tol = {tol:e}f;
  let tiny = {eps:e}f * sqrt(total) / {n}.0f;
{sweeps}",
                nn = n * n,
                tol = jacobi_tolerance(n),
                eps = f32::EPSILON,
                sweeps = sweeps(n, &rotations, &steps),
            )
        }
        RoutineKind::OrthogonalColumns { vectors } => {
            let rotations = format!(
                "      for (var t = lid; t < {pairs}u; t += {w}u) {{
        let pq = pair_of(round, t);
        if (pq.y < {n}u) {{
          var app = 0.0f;
          var aqq = 0.0f;
          var apq = 0.0f;
          for (var k = 0u; k < {m}u; k++) {{
            let x = ld_w(wb + k * {n}u + pq.x);
            let y = ld_w(wb + k * {n}u + pq.y);
            app = app + x * x;
            aqq = aqq + y * y;
            apq = apq + x * y;
          }}
          rotation(t, app, aqq, apq, tol, tiny);
        }} else {{
          rot_on[t] = 0u;
        }}
      }}
"
            );
            let steps = format!(
                "{cols}{vecs}      storageBarrier();
",
                cols = apply("w", "wb", m, n, false, w),
                vecs = if vectors {
                    apply("vecs", "vb", n, n, false, w)
                } else {
                    String::new()
                },
            );
            format!(
                "  let wb = bi * {mn}u;
  let vb = bi * {nn}u;
  var part = 0.0f;
  for (var e = lid; e < {mn}u; e += {w}u) {{
    let x = ld_a(wb + e);
    st_w(wb + e, x);
    part = part + x * x;
  }}
  for (var e = lid; e < {nn}u; e += {w}u) {{
    st_vecs(vb + e, select(0.0f, 1.0f, e / {n}u == e % {n}u));
  }}
{reduce}  let tol = {tol:e}f;
  let tiny = {eps2:e}f * total;
{sweeps}",
                mn = m * n,
                nn = n * n,
                tol = jacobi_tolerance(m),
                eps2 = f32::EPSILON * f32::EPSILON,
                sweeps = sweeps(n, &rotations, &steps),
            )
        }
        _ => {
            return Err(crate::util::Error::new(
                routine.name(),
                "internal error: not a Jacobi routine",
            ))
        }
    };
    group_shader(routine, &decls, w, &body)
}
