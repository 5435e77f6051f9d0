/** The `nn` namespace: activations, logsumexp, softmax, oneHot (math in Rust). */
import { call, wasm } from "./bridge.js";
import { Array } from "./array.js";
import { activation, check } from "./nn-activation.js";
import * as checks from "./check.js";

type Axis = number | number[] | null;

export const relu = activation("relu");
export const relu6 = activation("relu6");
export const sigmoid = activation("sigmoid");
export const softplus = activation("softplus");
export const logSigmoid = activation("logSigmoid");
export const silu = activation("silu");
export const swish = silu;
export const softSign = activation("softSign");

export function leakyRelu(x: Array, negativeSlope = 0.01): Array {
  check("leakyRelu", x);
  return new Array(call(() => wasm.activation("leakyRelu", x._handle, negativeSlope)));
}

export function elu(x: Array, alpha = 1): Array {
  check("elu", x);
  return new Array(call(() => wasm.activation("elu", x._handle, alpha)));
}

/** GELU; `approximate` (default true, as in JAX) uses the tanh form. */
export function gelu(x: Array, approximate = true): Array {
  check("gelu", x);
  return new Array(call(() => wasm.activation("gelu", x._handle, approximate ? 1 : 0)));
}

const axes = (axis: Axis | undefined, fn = "nn"): Int32Array | undefined => checks.axes(fn, axis);

/** `log(sum(exp(x)))` over `axis` (all axes by default), computed stably. */
export function logsumexp(x: Array, axis: Axis = null, opts: { keepdims?: boolean } = {}): Array {
  check("logsumexp", x);
  return new Array(call(() => wasm.nnReduce("logsumexp", x._handle, axes(axis), !!opts.keepdims)));
}

export const logSumExp = logsumexp;

export function softmax(x: Array, axis: Axis = -1): Array {
  check("softmax", x);
  return new Array(call(() => wasm.nnReduce("softmax", x._handle, axes(axis), false)));
}

export function logSoftmax(x: Array, axis: Axis = -1): Array {
  check("logSoftmax", x);
  return new Array(call(() => wasm.nnReduce("logSoftmax", x._handle, axes(axis), false)));
}

/** float32 one-hot encoding of integer classes along a new last axis. */
export function oneHot(x: Array, numClasses: number): Array {
  check("oneHot", x);
  return new Array(call(() => wasm.oneHot(x._handle, numClasses)));
}

export * from "./nn-more.js";
