/**
 * `random`'s distributions beyond uniform, normal and bernoulli, with JAX's constructions (the same key gives JAX's numbers):
 * categorical, cauchy, exponential, gumbel, laplace, logistic, lognormal, rademacher, rayleigh,
 * maxwell, doubleSidedMaxwell, weibullMin, pareto, triangular, geometric, randint; and ball (jax-js's
 * construction). Keys are not consumed. The math is in Rust.
 */
import { Array } from "../array.js";
import { DType } from "../dtype.js";
import * as lib from "../lib-calls.js";
import * as checks from "../check.js";

type Shape = number | number[];

/** The key checked, and the shape as a list. */
function keyed(name: string, key: Array, shape: Shape): { key: Array; shape: number[] } {
  if (!(key instanceof Array)) throw new TypeError(`${name}: the key must be an Array`);
  return { key, shape: [...checks.shape(name, shape)] };
}

/**
 * Standard Cauchy samples (float32) of `shape`, from `key`.
 *
 * @example
 * ```ts
 * using key = random.key(0);
 * using s = random.cauchy(key, [3]);
 * s.dtype; // "float32"
 * s.shape; // [3]
 * ```
 */
export const cauchy = (key: Array, shape: Shape = []): Array =>
  lib.cauchy(keyed("cauchy", key, shape));
/**
 * Exponential samples with rate 1 (float32) of `shape`, from `key`.
 *
 * @example
 * ```ts
 * using key = random.key(0);
 * using s = random.exponential(key, [3]);
 * s.dtype; // "float32"
 * s.shape; // [3]
 * ```
 */
export const exponential = (key: Array, shape: Shape = []): Array =>
  lib.exponential(keyed("exponential", key, shape));
/**
 * Standard Gumbel samples (float32) of `shape`, from `key`.
 *
 * @example
 * ```ts
 * using key = random.key(0);
 * using s = random.gumbel(key, [3]);
 * s.dtype; // "float32"
 * s.shape; // [3]
 * ```
 */
export const gumbel = (key: Array, shape: Shape = []): Array =>
  lib.gumbel(keyed("gumbel", key, shape));
/**
 * Standard Laplace samples (float32) of `shape`, from `key`.
 *
 * @example
 * ```ts
 * using key = random.key(0);
 * using s = random.laplace(key, [3]);
 * s.dtype; // "float32"
 * s.shape; // [3]
 * ```
 */
export const laplace = (key: Array, shape: Shape = []): Array =>
  lib.laplace(keyed("laplace", key, shape));
/**
 * Standard logistic samples (float32) of `shape`, from `key`.
 *
 * @example
 * ```ts
 * using key = random.key(0);
 * using s = random.logistic(key, [3]);
 * s.dtype; // "float32"
 * s.shape; // [3]
 * ```
 */
export const logistic = (key: Array, shape: Shape = []): Array =>
  lib.logistic(keyed("logistic", key, shape));
/**
 * Standard Maxwell samples (float32) of `shape`, from `key` (the norm of a 3-D standard normal).
 *
 * @example
 * ```ts
 * using key = random.key(0);
 * using s = random.maxwell(key, [3]);
 * s.dtype; // "float32"
 * s.shape; // [3]
 * ```
 */
export const maxwell = (key: Array, shape: Shape = []): Array =>
  lib.maxwell(keyed("maxwell", key, shape));
/** jax-js's options object of `rademacher` and `geometric`: the shape and the result dtype. */
export interface ShapeDTypeOptions {
  /** Default `[]`. */
  shape?: Shape;
  /** Default `"int32"`; also a float dtype, or for `rademacher` not `uint32`/`bool`. */
  dtype?: DType;
}

/** The shape of a JAX-style shape argument or of jax-js's options object, and the dtype. */
function shapeAndDType(
  name: string,
  arg: Shape | ShapeDTypeOptions | undefined,
): { shape: Shape; dtype: DType } {
  if (arg === undefined || typeof arg === "number" || globalThis.Array.isArray(arg)) {
    return { shape: arg ?? [], dtype: DType.Int32 };
  }
  if (arg === null || typeof arg !== "object") {
    throw new TypeError(`${name}: expected a shape or an options object`);
  }
  return { shape: arg.shape ?? [], dtype: arg.dtype ?? DType.Int32 };
}

/** `x` converted to `dtype` (int32 results of the samplers), freeing `x`. */
function asDType(x: Array, dtype: DType): Array {
  if (dtype === DType.Int32) return x;
  try {
    return x.astype(dtype);
  } finally {
    x.dispose();
  }
}

/**
 * ±1 with equal probability (int32 unless `dtype`), as JAX's `rademacher(key, shape)` or
 * jax-js's `rademacher(key, { shape, dtype })`.
 *
 * @example
 * ```ts
 * using key = random.key(0);
 * using s = random.rademacher(key, [3]);
 * s.dtype; // "int32"
 * using f = random.rademacher(key, { shape: [3], dtype: "float32" });
 * ```
 */
export function rademacher(key: Array, shape?: Shape | ShapeDTypeOptions): Array {
  const o = shapeAndDType("rademacher", shape);
  if (o.dtype === DType.Uint32 || o.dtype === DType.Bool) {
    throw new TypeError(`rademacher: unsupported dtype ${o.dtype}`);
  }
  return asDType(lib.rademacher(keyed("rademacher", key, o.shape)), o.dtype);
}

/**
 * Log-normal samples `exp(sigma · z)` (default sigma 1; float32) of `shape`, from `key`.
 *
 * @example
 * ```ts
 * using key = random.key(0);
 * using s = random.lognormal(key, 0.5, [3]);
 * s.dtype; // "float32"
 * s.shape; // [3]
 * ```
 */
export const lognormal = (key: Array, sigma = 1, shape: Shape = []): Array =>
  lib.lognormal({ ...keyed("lognormal", key, shape), sigma });
/**
 * Rayleigh samples with `scale` (default 1; float32) of `shape`, from `key`.
 *
 * @example
 * ```ts
 * using key = random.key(0);
 * using s = random.rayleigh(key, 2, [3]);
 * s.dtype; // "float32"
 * s.shape; // [3]
 * ```
 */
export const rayleigh = (key: Array, scale = 1, shape: Shape = []): Array =>
  lib.rayleigh({ ...keyed("rayleigh", key, shape), scale });
/**
 * Pareto samples with shape parameter `b` (float32) of `shape`, from `key`.
 *
 * @example
 * ```ts
 * using key = random.key(0);
 * using s = random.pareto(key, 3, [3]);
 * s.dtype; // "float32"
 * s.shape; // [3]
 * ```
 */
export const pareto = (key: Array, b: number, shape: Shape = []): Array =>
  lib.pareto({ ...keyed("pareto", key, shape), b });
/**
 * Geometric samples (trials to the first success with probability `p`, from 1; int32) of
 * `shape`, from `key`.
 *
 * @example
 * ```ts
 * using key = random.key(0);
 * using s = random.geometric(key, 0.5, [3]);
 * s.dtype; // "int32"
 * using t = random.geometric(key, 0.5, { shape: [3] }); // jax-js's options form
 * ```
 */
export function geometric(key: Array, p: number, shape?: Shape | ShapeDTypeOptions): Array {
  const o = shapeAndDType("geometric", shape);
  return asDType(lib.geometric({ ...keyed("geometric", key, o.shape), p }), o.dtype);
}

/**
 * Double-sided Maxwell samples with location `loc` and `scale` (float32) of `shape`, from `key`.
 *
 * @example
 * ```ts
 * using key = random.key(0);
 * using s = random.doubleSidedMaxwell(key, 0, 1, [3]);
 * s.dtype; // "float32"
 * s.shape; // [3]
 * ```
 */
export function doubleSidedMaxwell(key: Array, loc: number, scale: number, shape: Shape = []) {
  return lib.doubleSidedMaxwell({ ...keyed("doubleSidedMaxwell", key, shape), loc, scale });
}

/**
 * Weibull samples with `scale` and `concentration` (float32) of `shape`, from `key`.
 *
 * @example
 * ```ts
 * using key = random.key(0);
 * using s = random.weibullMin(key, 1, 1.5, [3]);
 * s.dtype; // "float32"
 * s.shape; // [3]
 * ```
 */
export function weibullMin(key: Array, scale: number, concentration: number, shape: Shape = []) {
  return lib.weibullMin({ ...keyed("weibullMin", key, shape), scale, concentration });
}

/**
 * Samples of the triangular distribution on `[left, right]` with mode `mode` (float32) of
 * `shape`, from `key`.
 *
 * @example
 * ```ts
 * using key = random.key(0);
 * using s = random.triangular(key, 0, 1, 3, [3]);
 * s.dtype; // "float32"
 * s.shape; // [3]
 * ```
 */
export function triangular(
  key: Array,
  left: number,
  mode: number,
  right: number,
  shape: Shape = [],
) {
  if (!(left <= mode && mode <= right && left < right)) {
    throw new Error("triangular: needs left <= mode <= right and left < right");
  }
  return lib.triangular({ ...keyed("triangular", key, shape), left, mode, right });
}

/** The options form of `randint` (jax-js's): the range, the shape and the integer dtype. */
export interface RandintOptions {
  /** The smallest value (an integer). */
  minval: number;
  /** One past the largest value (an integer, above `minval`). */
  maxval: number;
  /** Default `[]`. */
  shape?: Shape;
  /** `"int32"` (default) or `"uint32"` (then `minval >= 0`). */
  dtype?: "int32" | "uint32";
}

/**
 * Integers in [minval, maxval) (int32), as JAX's `randint(key, shape, minval, maxval)`; or
 * jax-js's form `randint(key, { minval, maxval, shape, dtype })`, which also takes dtype
 * `"uint32"` and requires `minval < maxval`.
 *
 * @example
 * ```ts
 * using key = random.key(0);
 * using s = random.randint(key, [4], 0, 10); // int32 values in [0, 10)
 * s.dtype; // "int32"
 * using u = random.randint(key, { minval: 0, maxval: 10, shape: [4], dtype: "uint32" });
 * u.dtype; // "uint32"
 * ```
 */
export function randint(key: Array, options: RandintOptions): Array;
export function randint(key: Array, shape: Shape, minval: number, maxval: number): Array;
export function randint(
  key: Array,
  shapeOrOptions: Shape | RandintOptions,
  minval?: number,
  maxval?: number,
): Array {
  if (typeof shapeOrOptions === "object" && !globalThis.Array.isArray(shapeOrOptions)) {
    return randintOptions(key, shapeOrOptions);
  }
  if (!Number.isInteger(minval) || !Number.isInteger(maxval)) {
    throw new TypeError("randint: minval and maxval must be integers");
  }
  return lib.randint({
    ...keyed("randint", key, shapeOrOptions),
    minval: minval!,
    maxval: maxval!,
  });
}

/** `randint`'s options form: checks as jax-js does, draws as int32, casts for uint32. */
function randintOptions(key: Array, o: RandintOptions): Array {
  if (o === null) throw new TypeError("randint: the options must be an object");
  const { minval, maxval, shape = [], dtype = "int32" } = o;
  if (!Number.isInteger(minval) || !Number.isInteger(maxval)) {
    throw new TypeError("randint: minval and maxval must be integers");
  }
  if (minval >= maxval) throw new RangeError(`randint: empty range [${minval}, ${maxval})`);
  if (dtype !== "int32" && dtype !== "uint32") {
    throw new TypeError(`randint: dtype must be "int32" or "uint32", got ${String(dtype)}`);
  }
  if (dtype === "uint32" && (minval < 0 || maxval > 2 ** 31)) {
    throw new RangeError("randint: uint32 needs 0 <= minval and maxval <= 2**31");
  }
  const out = lib.randint({ ...keyed("randint", key, shape), minval, maxval });
  if (dtype === "int32") return out;
  try {
    return out.astype(DType.Uint32);
  } finally {
    out.dispose();
  }
}

/** Options of `categorical`. */
export interface CategoricalOptions {
  /** The axis of `logits` holding the categories (default −1). */
  axis?: number;
  /** The shape of the result (default: `logits`' shape without `axis`). */
  shape?: number[];
  /** Sample with replacement (default `true`); `false` draws distinct categories (Gumbel-top-k). */
  replace?: boolean;
}

/**
 * Category indices drawn from `softmax(logits)` along `axis` (int32): by Gumbel-max, or
 * without replacement (`replace: false`) by Gumbel-top-k, as JAX.
 *
 * @example
 * ```ts
 * using key = random.key(0);
 * using probs = np.array([0.1, 0.9]);
 * using logits = np.log(probs);
 * using c = random.categorical(key, logits, { shape: [5] }); // indices 0 or 1, mostly 1
 * c.shape; // [5]
 * ```
 */
export function categorical(key: Array, logits: Array, opts: CategoricalOptions = {}): Array {
  const { axis, shape } = opts;
  return lib.categorical({ key, logits, axis, shape, replace: opts.replace !== false });
}

/**
 * Samples `mean + L·z` with `L = cholesky(cov)` (shape `[...shape, n]`).
 *
 * @example
 * ```ts
 * using key = random.key(0);
 * using mean = np.zeros([2]);
 * using cov = np.eye(2);
 * using s = random.multivariateNormal(key, mean, cov, [4]);
 * s.shape; // [4, 2]
 * ```
 */
export function multivariateNormal(
  key: Array,
  mean: Array,
  cov: Array,
  shape: number[] | null = null,
): Array {
  const s = shape === null ? null : [...checks.shape("multivariateNormal", shape)];
  return lib.multivariateNormal({ key, mean, cov, shape: s });
}
/** Options of `ball`. */
export interface BallOptions {
  /** The norm whose unit ball is sampled: only 2 (the Euclidean ball, default). */
  p?: number;
  /** The batch shape (default `[]`); the result has shape `[...shape, d]`. */
  shape?: Shape;
}

/**
 * Points uniform in the Euclidean unit ball of `d` dimensions (float32, shape
 * `[...shape, d]`), as jax-js: a normal direction `z / |z|` scaled by the radius `u^(1/d)`, `u`
 * uniform, from the two keys of `split(key, 2)`. Only `p = 2` is supported.
 *
 * @example
 * ```ts
 * using key = random.key(0);
 * using s = random.ball(key, 3, { shape: [4] }); // four points in the unit 3-ball
 * s.shape; // [4, 3]
 * ```
 */
export function ball(key: Array, d: number, opts: BallOptions = {}): Array {
  const { p = 2, shape = [] } = opts ?? {};
  if (!Number.isInteger(d) || d <= 0) {
    throw new Error(`ball: dimension must be a positive integer, got ${d}`);
  }
  if (p !== 2) throw new Error("ball: only the Euclidean p=2 case is supported");
  return lib.ball({ ...keyed("ball", key, shape), d, p });
}
