/**
 * `numpy.fft` over `{ real, imag }` pairs (oxjax has no complex dtype), with jax-js's names and
 * signatures. The transforms are computed in Rust (an O(n log n) routine for any length, which
 * differentiates and batches); here only argument handling.
 */
import { Array } from "../array.js";
import * as lib from "../lib-calls.js";

/** Real and imaginary parts of a complex array, of equal shape and dtype. */
export interface ComplexPair {
  /** The real parts. */
  real: Array;
  /** The imaginary parts (same shape and dtype as `real`). */
  imag: Array;
}

function checkPair(name: string, a: ComplexPair): void {
  if (!a || !(a.real instanceof Array) || !(a.imag instanceof Array)) {
    throw new TypeError(`${name}: expected { real, imag } Arrays`);
  }
  if (a.real.dtype !== a.imag.dtype) {
    throw new Error(`${name}: real and imag parts have different dtypes`);
  }
}

function pair(out: [Array, Array]): ComplexPair {
  return { real: out[0], imag: out[1] };
}

/**
 * 1-D discrete Fourier transform along `axis`.
 *
 * @example
 * ```ts
 * using re = np.array([1, 0, 0, 0]);
 * using im = np.zeros([4]);
 * const y = np.fft.fft({ real: re, imag: im }); // [[1, 1, 1, 1], [0, 0, 0, 0]]
 * y.real.dispose();
 * y.imag.dispose();
 * ```
 */
export function fft(a: ComplexPair, axis = -1): ComplexPair {
  checkPair("fft", a);
  return pair(lib.fft({ real: a.real, imag: a.imag, axis }));
}

/**
 * 1-D inverse transform (with the 1/n scaling).
 *
 * @example
 * ```ts
 * using re = np.array([4, 0, 0, 0]);
 * using im = np.zeros([4]);
 * const x = np.fft.ifft({ real: re, imag: im }); // [[1, 1, 1, 1], [0, 0, 0, 0]]
 * x.real.dispose();
 * x.imag.dispose();
 * ```
 */
export function ifft(a: ComplexPair, axis = -1): ComplexPair {
  checkPair("ifft", a);
  return pair(lib.ifft({ real: a.real, imag: a.imag, axis }));
}

/**
 * The non-negative frequency terms of the transform of real input.
 *
 * @example
 * ```ts
 * using x = np.array([1, 2, 3, 4]);
 * const y = np.fft.rfft(x); // [[10, -2, -2], [0, 2, 0]]
 * y.real.dispose();
 * y.imag.dispose();
 * ```
 */
export function rfft(a: Array, axis = -1): ComplexPair {
  return pair(lib.rfft({ x: a, axis }));
}

/**
 * Inverse of `rfft`; the output length is 2(m − 1).
 *
 * @example
 * ```ts
 * using re = np.array([10, -2, -2]);
 * using im = np.array([0, 2, 0]);
 * using x = np.fft.irfft({ real: re, imag: im }); // [1, 2, 3, 4]
 * ```
 */
export function irfft(a: ComplexPair, axis = -1): Array {
  checkPair("irfft", a);
  return lib.irfft({ real: a.real, imag: a.imag, axis });
}

/**
 * Transform of a Hermitian-symmetric signal given by its first half; length 2(m − 1).
 *
 * @example
 * ```ts
 * using re = np.array([1, 0, 0]);
 * using im = np.zeros([3]);
 * using y = np.fft.hfft({ real: re, imag: im }); // [1, 1, 1, 1]
 * ```
 */
export function hfft(a: ComplexPair, axis = -1): Array {
  checkPair("hfft", a);
  return lib.hfft({ real: a.real, imag: a.imag, axis });
}

/**
 * Inverse of `hfft`.
 *
 * @example
 * ```ts
 * using x = np.array([1, 1, 1, 1]);
 * const y = np.fft.ihfft(x); // [[1, 0, 0], [0, 0, 0]]
 * y.real.dispose();
 * y.imag.dispose();
 * ```
 */
export function ihfft(a: Array, axis = -1): ComplexPair {
  return pair(lib.ihfft({ x: a, axis }));
}

/**
 * N-D transform over `axes` (all by default).
 *
 * @example
 * ```ts
 * using re = np.ones([2, 2]);
 * using im = np.zeros([2, 2]);
 * const y = np.fft.fftn({ real: re, imag: im }); // [[[4, 0], [0, 0]], [[0, 0], [0, 0]]]
 * y.real.dispose();
 * y.imag.dispose();
 * ```
 */
export function fftn(a: ComplexPair, axes: number[] | null = null): ComplexPair {
  checkPair("fftn", a);
  return pair(lib.fftn({ real: a.real, imag: a.imag, axes }));
}

/**
 * The N-D inverse transform over `axes` (all by default), with the 1/n scaling per axis.
 *
 * @example
 * ```ts
 * using re = np.array([[4, 0], [0, 0]]);
 * using im = np.zeros([2, 2]);
 * const y = np.fft.ifftn({ real: re, imag: im }); // [[[1, 1], [1, 1]], [[0, 0], [0, 0]]]
 * y.real.dispose();
 * y.imag.dispose();
 * ```
 */
export function ifftn(a: ComplexPair, axes: number[] | null = null): ComplexPair {
  checkPair("ifftn", a);
  return pair(lib.ifftn({ real: a.real, imag: a.imag, axes }));
}

/**
 * The 2-D transform over `axes` (default the last two): `fftn(a, axes)`.
 *
 * @example
 * ```ts
 * using re = np.ones([2, 2]);
 * using im = np.zeros([2, 2]);
 * const y = np.fft.fft2({ real: re, imag: im }); // [[[4, 0], [0, 0]], [[0, 0], [0, 0]]]
 * y.real.dispose();
 * y.imag.dispose();
 * ```
 */
export const fft2 = (a: ComplexPair, axes: number[] = [-2, -1]): ComplexPair => fftn(a, axes);
/**
 * The 2-D inverse transform over `axes` (default the last two): `ifftn(a, axes)`.
 *
 * @example
 * ```ts
 * using re = np.array([[4, 0], [0, 0]]);
 * using im = np.zeros([2, 2]);
 * const y = np.fft.ifft2({ real: re, imag: im }); // [[[1, 1], [1, 1]], [[0, 0], [0, 0]]]
 * y.real.dispose();
 * y.imag.dispose();
 * ```
 */
export const ifft2 = (a: ComplexPair, axes: number[] = [-2, -1]): ComplexPair => ifftn(a, axes);

/**
 * N-D transform of real input: `rfft` over the last axis, then `fft` over the others.
 *
 * @example
 * ```ts
 * using x = np.ones([2, 2]);
 * const y = np.fft.rfftn(x); // [[[4, 0], [0, 0]], [[0, 0], [0, 0]]]
 * y.real.dispose();
 * y.imag.dispose();
 * ```
 */
export function rfftn(a: Array, axes: number[] | null = null): ComplexPair {
  return pair(lib.rfftn({ x: a, axes }));
}

/**
 * Inverse of `rfftn`: `ifft` over the leading axes, then `irfft` over the last.
 *
 * @example
 * ```ts
 * using re = np.array([[4, 0], [0, 0]]);
 * using im = np.zeros([2, 2]);
 * using x = np.fft.irfftn({ real: re, imag: im }); // [[1, 1], [1, 1]]
 * ```
 */
export function irfftn(a: ComplexPair, axes: number[] | null = null): Array {
  checkPair("irfftn", a);
  return lib.irfftn({ real: a.real, imag: a.imag, axes });
}

/**
 * The 2-D transform of real input over `axes` (default the last two): `rfftn(a, axes)`.
 *
 * @example
 * ```ts
 * using x = np.ones([2, 2]);
 * const y = np.fft.rfft2(x); // [[[4, 0], [0, 0]], [[0, 0], [0, 0]]]
 * y.real.dispose();
 * y.imag.dispose();
 * ```
 */
export const rfft2 = (a: Array, axes: number[] = [-2, -1]): ComplexPair => rfftn(a, axes);
/**
 * The inverse of `rfft2` over `axes` (default the last two): `irfftn(a, axes)`.
 *
 * @example
 * ```ts
 * using re = np.array([[4, 0], [0, 0]]);
 * using im = np.zeros([2, 2]);
 * using x = np.fft.irfft2({ real: re, imag: im }); // [[1, 1], [1, 1]]
 * ```
 */
export const irfft2 = (a: ComplexPair, axes: number[] = [-2, -1]): Array => irfftn(a, axes);

/**
 * Sample frequencies `[0, 1, …, −1]/(d·n)` (float32).
 *
 * @example
 * ```ts
 * using f = np.fft.fftfreq(4); // [0, 0.25, -0.5, -0.25]
 * ```
 */
export function fftfreq(n: number, d = 1.0): Array {
  return lib.fftfreq({ n, d });
}

/**
 * Sample frequencies `[0, …, n/2]/(d·n)` of `rfft` (float32).
 *
 * @example
 * ```ts
 * using f = np.fft.rfftfreq(4); // [0, 0.25, 0.5]
 * ```
 */
export function rfftfreq(n: number, d = 1.0): Array {
  return lib.rfftfreq({ n, d });
}

/**
 * Moves the zero frequency to the centre.
 *
 * @example
 * ```ts
 * using f = np.fft.fftfreq(4);
 * using s = np.fft.fftshift(f); // [-0.5, -0.25, 0, 0.25]
 * ```
 */
export function fftshift(a: Array, axes: number | number[] | null = null): Array {
  return lib.fftshift({ x: a, axes });
}

/**
 * Undoes `fftshift`.
 *
 * @example
 * ```ts
 * using s = np.array([-0.5, -0.25, 0, 0.25]);
 * using f = np.fft.ifftshift(s); // [0, 0.25, -0.5, -0.25]
 * ```
 */
export function ifftshift(a: Array, axes: number | number[] | null = null): Array {
  return lib.ifftshift({ x: a, axes });
}
