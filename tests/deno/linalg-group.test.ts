// Linear algebra of matrices large enough that webgpu runs its routines with a workgroup per
// matrix (a side of 16 or more: Cholesky, LU, triangular solves, the Jacobi rotations of eigh
// and svd), in Deno on webgpu (8 storage buffers) against the cpu device (the interpreter) on
// the same float32 inputs, within float32 tolerances relative to the matrices' scale; LU
// (whose pivots may differ where candidates are within rounding) and the eigenvectors by what
// they reconstruct. Sizes stay within lavapipe's shader loop limit. Nothing leaks.
import * as ox from "../../pkg/index.js";
import type { Array as OxArray } from "../../pkg/index.js";

const { init, memoryStats, numpy: np, lax } = ox;
await init({ maxStorageBuffers: 8, smallOnHost: false });

type Device = "cpu" | "webgpu";

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(what);
}

/** A well-conditioned symmetric positive definite `n × n` matrix and a general one. */
function matrices(n: number, device: Device): { spd: OxArray; general: OxArray } {
  // Pseudo-random in [-1, 1) (a sine of an arithmetic progression would be of rank 2).
  const random = (i: number) => {
    const x = Math.sin(i * 12.9898 + 78.233) * 43758.5453;
    return 2 * (x - Math.floor(x)) - 1;
  };
  const values = Array.from({ length: n * n }, (_, i) => random(i));
  const flat = np.array(values, { device });
  const general = flat.reshape([n, n]);
  const transposed = general.T;
  const gram = np.matmul(general, transposed);
  const eye = np.eye(n, n, { device });
  const diagonal = eye.mul(n);
  const spd = gram.add(diagonal);
  for (const a of [flat, transposed, gram, eye, diagonal]) a.dispose();
  return { spd, general };
}

/** `got` equals `want` within `rtol` of the largest magnitude of `want`. */
async function near(got: OxArray, want: OxArray, rtol: number, what: string): Promise<void> {
  check(JSON.stringify(got.shape) === JSON.stringify(want.shape), `${what}: shape ${got.shape}`);
  const [g, w] = [await got.data(), await want.data()];
  const scale = Math.max(1, ...Array.from(w, Math.abs));
  for (let i = 0; i < w.length; i++) {
    const ok = Math.abs(g[i] - w[i]) <= rtol * scale;
    check(ok, `${what}[${i}]: ${g[i]} vs ${w[i]} (scale ${scale})`);
  }
}

/** The results of `f` on both devices, compared, then disposed. */
async function same(
  n: number,
  what: string,
  rtol: number,
  f: (m: ReturnType<typeof matrices>) => OxArray[],
) {
  const before = memoryStats().liveArrays;
  const [gm, cm] = [matrices(n, "webgpu"), matrices(n, "cpu")];
  const [got, want] = [f(gm), f(cm)];
  for (const [k, g] of got.entries()) await near(g, want[k], rtol, `${what} ${n}×${n} output ${k}`);
  for (const a of [...got, ...want, gm.spd, gm.general, cm.spd, cm.general]) a.dispose();
  check(memoryStats().liveArrays === before, `${what}: leaked arrays`);
}

/** The largest magnitude of `x`'s elements (`x` disposed). */
async function maxAbs(x: OxArray): Promise<number> {
  const d = await x.data();
  x.dispose();
  return Math.max(...Array.from(d, Math.abs));
}

for (const n of [20, 32]) {
  Deno.test(`cholesky, solves, inv and slogdet at ${n}×${n}: webgpu equals cpu`, async () => {
    await same(n, "cholesky", 1e-5, ({ spd }) => [np.linalg.cholesky(spd)]);
    await same(n, "triangularSolve", 1e-4, ({ spd, general }) => [
      lax.linalg.triangularSolve(spd, general, { leftSide: true, lower: true }),
      lax.linalg.triangularSolve(spd, general, { leftSide: false, lower: false }),
    ]);
    await same(n, "solve", 1e-4, ({ spd, general }) => [np.linalg.solve(spd, general)]);
    await same(n, "inv", 1e-4, ({ spd }) => [np.linalg.inv(spd)]);
    await same(n, "slogdet", 1e-5, ({ general }) => np.linalg.slogdet(general));
  });

  Deno.test(`lu at ${n}×${n} on webgpu: L U = P A`, async () => {
    // Its pivots may differ from the cpu device's where two candidates are within rounding,
    // so the factors are checked by what they reconstruct.
    const before = memoryStats().liveArrays;
    const { spd, general } = matrices(n, "webgpu");
    const [lu, piv, perm] = lax.linalg.lu(general);
    const eye = np.eye(n, n, { device: "webgpu" });
    const strict = np.tril(lu, -1);
    const l = strict.add(eye);
    const u = np.triu(lu);
    const product = np.matmul(l, u);
    const permuted = np.take(general, perm, 0);
    const error = await maxAbs(product.sub(permuted));
    check(error <= 1e-5 * n, `L U − P A: ${error}`);
    const [p, q] = [await perm.data(), await piv.data()];
    check(new Set(p).size === n, `perm is a permutation: ${p}`);
    check(
      Array.from(q as Int32Array).every((v, j) => v >= j && v < n),
      `pivots: ${q}`,
    );
    const arrays = [spd, general, lu, piv, perm, eye, strict, l, u, product, permuted];
    for (const a of arrays) a.dispose();
    check(memoryStats().liveArrays === before, "lu: leaked arrays");
  });

  Deno.test(`eigh at ${n}×${n}: webgpu's eigenvalues equal cpu's, A V = V diag(w)`, async () => {
    await same(n, "eigh", 1e-5, ({ spd }) => {
      const [w, v] = np.linalg.eigh(spd);
      v.dispose();
      return [w];
    });
    const before = memoryStats().liveArrays;
    const { spd, general } = matrices(n, "webgpu");
    const [w, v] = np.linalg.eigh(spd);
    const scale = await maxAbs(np.abs(w));
    const av = np.matmul(spd, v);
    const vw = v.mul(w);
    const residual = await maxAbs(av.sub(vw));
    check(residual <= 1e-5 * n * scale, `A V − V diag(w): ${residual} (scale ${scale})`);
    const vt = v.T;
    const vtv = np.matmul(vt, v);
    const eye = np.eye(n, n, { device: "webgpu" });
    const orthogonal = await maxAbs(vtv.sub(eye));
    check(orthogonal <= 1e-5 * n, `VᵀV − I: ${orthogonal}`);
    for (const a of [spd, general, w, v, av, vw, vt, vtv, eye]) a.dispose();
    check(memoryStats().liveArrays === before, "eigh: leaked arrays");
  });
}

Deno.test("svd at 20×20: webgpu's singular values equal cpu's, U diag(s) Vᵀ = A", async () => {
  await same(20, "svd", 1e-4, ({ general }) => {
    const [u, s, vt] = np.linalg.svd(general);
    const us = u.mul(s);
    const back = np.matmul(us, vt);
    for (const x of [u, us, vt]) x.dispose();
    return [s, back];
  });
});
