//! The sort routine (`kernel::RoutineKind::Sort`) on webgpu: a bitonic sorting network of
//! (key, position) pairs, so equal keys order by position and the result is the stable sort.
//! Each row is padded (virtually) to a power of two `P` with pairs that sort last; only
//! positions live in the `perm` output during the sort, keys are read from the input through
//! them (`kload`: the bits mapped to an unsigned key that orders as the routine's comparison).
//!
//! Passes (`passes.rs`): `tile_sort` sorts tiles of `T` positions in workgroup memory; then
//! for each block size `k = 2T … P`, a global `flip` pass (position `i` against its mirror in
//! the block), global `clean` passes (half-cleaners) for strides `j ≥ T`, and a `merge` pass
//! finishing the strides below `T` in workgroup memory; `gather` writes the sorted values.

use super::passes::{header, Extra, Pass, Passes};
use super::routines::Gpu;
use crate::core::DType;
use crate::kernel::Routine;
use crate::util::{Error, Result};

/// Positions sorted in workgroup memory at once (two per invocation).
const TILE: usize = 512;
/// Invocations per workgroup of the global passes.
const GLOBAL_WG: usize = 256;

const TILE_SORT: usize = 0;
const MERGE: usize = 1;
const FLIP: usize = 2;
const CLEAN: usize = 3;
const GATHER: usize = 4;
const ENTRIES: [&str; 5] = ["tile_sort", "merge", "flip", "clean", "gather"];

/// The key of element `i` of `x`, by dtype.
fn kload(dtype: DType) -> Result<&'static str> {
    Ok(match dtype {
        DType::Float32 => {
            "fn kload(i: u32) -> u32 {
  let b = x[i];
  let m = b & 0x7fffffffu;
  if (m > 0x7f800000u) { return 0xffffffffu; }
  if (m == 0u) { return 0x80000000u; }
  if (b != m) { return ~b; }
  return b | 0x80000000u;
}
"
        }
        DType::Float16 => {
            "fn kload(i: u32) -> u32 {
  let h = (x[i >> 1u] >> ((i & 1u) * 16u)) & 0xffffu;
  let m = h & 0x7fffu;
  if (m > 0x7c00u) { return 0xffffffffu; }
  if (m == 0u) { return 0x8000u; }
  if (h != m) { return (~h) & 0xffffu; }
  return h | 0x8000u;
}
"
        }
        DType::Int32 => "fn kload(i: u32) -> u32 { return x[i] ^ 0x80000000u; }\n",
        DType::Uint32 | DType::Bool => "fn kload(i: u32) -> u32 { return x[i]; }\n",
        DType::Float64 => {
            return Err(Error::new(
                "sort",
                "float64 is not supported on the webgpu device; use the \"cpu\" or \"wasm\" device",
            ))
        }
    })
}

/// The shape constants of a sort of `routine`: (N, P, T).
fn sizes(routine: &Routine) -> (usize, usize, usize) {
    let n = routine.n;
    let p = n.next_power_of_two().max(2);
    (n, p, TILE.min(p))
}

const NETWORK: &str = "
fn after(ka: u32, ia: u32, kb: u32, ib: u32) -> bool {
  return ka > kb || (ka == kb && ia > ib);
}
fn cx(a: u32, b: u32) {
  if (after(sk[a], si[a], sk[b], si[b])) {
    let k = sk[a]; sk[a] = sk[b]; sk[b] = k;
    let i = si[a]; si[a] = si[b]; si[b] = i;
  }
}
fn half_cleaners(lid: u32, top: u32) {
  for (var j = top; j > 0u; j = j >> 1u) {
    cx((lid / j) * 2u * j + lid % j, (lid / j) * 2u * j + lid % j + j);
    workgroupBarrier();
  }
}
fn store(row: u32, start: u32, lid: u32) {
  for (var e = lid; e < T; e = e + W) {
    if (start + e < N) { perm[row * N + start + e] = si[e]; }
  }
}
fn gcx(base: u32, a: u32, b: u32) {
  if (b >= N) { return; }
  let ia = perm[base + a];
  let ib = perm[base + b];
  if (after(kload(base + ia), ia, kload(base + ib), ib)) {
    perm[base + a] = ib;
    perm[base + b] = ia;
  }
}
@compute @workgroup_size(W)
fn tile_sort(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
             @builtin(local_invocation_index) lid: u32) {
  let g = wid.x + wid.y * nwg.x;
  if (g >= B * TILES) { return; }
  let row = g / TILES;
  let start = (g % TILES) * T;
  for (var e = lid; e < T; e = e + W) {
    if (start + e < N) {
      sk[e] = kload(row * N + start + e);
      si[e] = start + e;
    } else {
      sk[e] = 0xffffffffu;
      si[e] = 0xffffffffu;
    }
  }
  workgroupBarrier();
  for (var k = 2u; k <= T; k = k << 1u) {
    let h = k >> 1u;
    cx((lid / h) * k + lid % h, (lid / h) * k + k - 1u - lid % h);
    workgroupBarrier();
    half_cleaners(lid, k >> 2u);
  }
  store(row, start, lid);
}
@compute @workgroup_size(W)
fn merge(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
         @builtin(local_invocation_index) lid: u32) {
  let g = wid.x + wid.y * nwg.x;
  if (g >= B * TILES) { return; }
  let row = g / TILES;
  let start = (g % TILES) * T;
  for (var e = lid; e < T; e = e + W) {
    if (start + e < N) {
      let i = perm[row * N + start + e];
      sk[e] = kload(row * N + i);
      si[e] = i;
    } else {
      sk[e] = 0xffffffffu;
      si[e] = 0xffffffffu;
    }
  }
  workgroupBarrier();
  half_cleaners(lid, T >> 1u);
  store(row, start, lid);
}
fn pair_of(gid: vec3<u32>, nwg: vec3<u32>) -> u32 {
  return gid.x + gid.y * nwg.x * GWG;
}
@compute @workgroup_size(GWG)
fn flip(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let t = pair_of(gid, nwg);
  if (t >= B * (P / 2u)) { return; }
  let q = t % (P / 2u);
  let k = params.a;
  let h = k >> 1u;
  gcx((t / (P / 2u)) * N, (q / h) * k + q % h, (q / h) * k + k - 1u - q % h);
}
@compute @workgroup_size(GWG)
fn clean(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let t = pair_of(gid, nwg);
  if (t >= B * (P / 2u)) { return; }
  let q = t % (P / 2u);
  let j = params.a;
  let a = (q / j) * 2u * j + q % j;
  gcx((t / (P / 2u)) * N, a, a + j);
}
";

/// The `gather` entry point: the sorted values from the positions (two float16 per word).
fn gather(dtype: DType) -> &'static str {
    if dtype == DType::Float16 {
        "fn value_at(e: u32) -> u32 {
  let s = (e / N) * N + perm[e];
  return (x[s >> 1u] >> ((s & 1u) * 16u)) & 0xffffu;
}
@compute @workgroup_size(GWG)
fn gather(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let w = pair_of(gid, nwg);
  if (2u * w >= B * N) { return; }
  var hi = 0u;
  if (2u * w + 1u < B * N) { hi = value_at(2u * w + 1u); }
  vals[w] = value_at(2u * w) | (hi << 16u);
}
"
    } else {
        "@compute @workgroup_size(GWG)
fn gather(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let t = pair_of(gid, nwg);
  if (t >= B * N) { return; }
  vals[t] = x[(t / N) * N + perm[t]];
}
"
    }
}

/// The shader of a sort of `routine`: bindings `x`, `vals`, `perm`, `params`.
pub fn source(routine: &Routine) -> Result<String> {
    let (n, p, t) = sizes(routine);
    let storage = [
        ("x", false, "u32"),
        ("vals", true, "u32"),
        ("perm", true, "u32"),
    ];
    let consts = [
        ("N", n),
        ("P", p),
        ("T", t),
        ("W", t / 2),
        ("B", routine.batch),
        ("TILES", p / t),
        ("GWG", GLOBAL_WG),
    ];
    let mut src = header(&storage, &consts);
    src.push_str(&format!(
        "var<workgroup> sk: array<u32, {t}>;\nvar<workgroup> si: array<u32, {t}>;\n"
    ));
    src.push_str(kload(routine.dtype)?);
    src.push_str(NETWORK);
    src.push_str(gather(routine.dtype));
    Ok(src)
}

/// The passes of a sort of `routine`, in order.
pub fn passes(routine: &Routine) -> Vec<Pass> {
    let (n, p, t) = sizes(routine);
    let b = routine.batch;
    if b * n == 0 {
        return Vec::new();
    }
    let tiles = (b * (p / t)) as u32;
    let global = (b * p / 2).div_ceil(GLOBAL_WG) as u32;
    let pass = |entry, groups, a: usize| Pass {
        entry,
        groups,
        params: [a as u32, 0, 0, 0],
    };
    let mut list = vec![pass(TILE_SORT, tiles, 0)];
    let mut k = 2 * t;
    while k <= p {
        list.push(pass(FLIP, global, k));
        let mut j = k / 4;
        while j >= t {
            list.push(pass(CLEAN, global, j));
            j /= 2;
        }
        list.push(pass(MERGE, tiles, 0));
        k *= 2;
    }
    let outputs = if routine.dtype == DType::Float16 {
        (b * n).div_ceil(2)
    } else {
        b * n
    };
    list.push(pass(GATHER, outputs.div_ceil(GLOBAL_WG) as u32, 0));
    list
}

/// Compiles the sort of `routine`.
pub(super) fn compile(gpu: &Gpu, routine: &Routine) -> Result<Passes> {
    let src = source(routine)?;
    Ok(Passes::new(
        gpu,
        "sort",
        &src,
        &ENTRIES,
        (1, 2),
        Extra::default(),
        passes(routine),
    ))
}
