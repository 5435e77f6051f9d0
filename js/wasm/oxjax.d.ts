/* tslint:disable */
/* eslint-disable */

/**
 * Applies a named operation (a primitive or a library composition). Operand `i` is the
 * array with handle `handles[i]`, or, where `is_literal[i]` is set, the JS number
 * `literals[i]` (weakly typed: it adopts its partner's dtype).
 */
export function apply(op: string, handles: Float64Array | number[], literals: Float64Array | number[], is_literal: Uint8Array | number[]): number;

export function arange(start: number, stop: number, step: number, dtype: string, device: string): number;

/**
 * `argmax`/`argmin` along `axis` (`None`: the flattened array).
 */
export function argExtreme(name: string, handle: number, axis: number | null | undefined, keepdims: boolean, max: boolean): number;

/**
 * A new array from little-endian element bytes.
 */
export function arrayFromBytes(_function: string, bytes: Uint8Array | number[], shape: Float64Array | number[], dtype: string, device: string): number;

/**
 * The devices that can run arrays now.
 */
export function availableDevices(): string[];

export function broadcastTo(h: number, to: Float64Array | number[]): number;

export function concatenate(hs: Float64Array | number[], axis: number): number;

/**
 * Converts to a dtype (`astype`) or reinterprets the bits (`bitcast`).
 */
export function convert(handle: number, dtype: string, bitcast: boolean): number;

/**
 * `cumsum`/`cumprod`/`cummax`/`cummin` along `axis` (`None`: the flattened array).
 */
export function cumulative(name: string, op: string, handle: number, axis?: number | null): number;

/**
 * Panics on purpose, so tests can check that a panic becomes a clear JS `Error`.
 */
export function debugPanic(message: string): void;

/**
 * The device of a concrete array; `None` for a tracer (TypeScript reports the default).
 */
export function device(handle: number): string | undefined;

export function dispose(handle: number): void;

export function dtype(handle: number): string;

/**
 * `einsum(subscripts, ...operands)`.
 */
export function einsum(spec: string, hs: Float64Array | number[]): number;

export function expandDims(h: number, axes: Int32Array | number[]): number;

export function eye(n: number, m: number, k: number, dtype: string, device: string): number;

export function flip(h: number, axes?: Int32Array | number[] | null): number;

export function full(_function: string, shape: Float64Array | number[], value: number, dtype: string, device: string): number;

export function incRef(handle: number): void;

/**
 * Starts WebGPU. Resolves to the adapter's name, or rejects with the reason it is unavailable.
 * `storageBufferCap` lowers the planned storage-buffer limit (tests force 8).
 */
export function initWebGpu(storage_buffer_cap?: number | null): Promise<string>;

/**
 * Frees a Jaxpr and the constants it owns.
 */
export function jaxprDispose(id: number): void;

/**
 * The printed Jaxpr.
 */
export function jaxprText(id: number): string;

/**
 * The message of the most recent panic, taken (so each is reported once).
 */
export function lastPanic(): string | undefined;

export function linspace(start: number, stop: number, num: number, endpoint: boolean, dtype: string, device: string): number;

export function memoryStats(): any;

export function moveaxis(h: number, source: number, destination: number): number;

/**
 * Pads with zeros: `before[a]` and `after[a]` elements on each axis.
 */
export function pad(h: number, before: Float64Array | number[], after: Float64Array | number[]): number;

/**
 * The elements as a typed array, read asynchronously (works on every device).
 */
export function read(_function: string, handle: number): Promise<any>;

/**
 * The elements as a typed array, read synchronously where the device allows it.
 */
export function readSync(_function: string, handle: number): any;

/**
 * A numpy reduction (`sum`, `prod`, `max`, `min`, `mean`, `all`, `any`) over `axes`
 * (`None`: all axes; negative axes count from the end).
 */
export function reduce(kind: string, handle: number, axes: Int32Array | number[] | null | undefined, keepdims: boolean): number;

export function refCount(handle: number): number;

/**
 * Reshapes (one `-1` is inferred). Contiguous arrays share their buffer.
 */
export function reshape(handle: number, shape: Float64Array | number[]): number;

/**
 * Sets the device that operations without array operands use.
 */
export function setDefaultDevice(device: string): void;

export function shape(handle: number): Float64Array;

/**
 * Keeps `[starts[a], ends[a])` of each axis.
 */
export function shrink(h: number, starts: Float64Array | number[], ends: Float64Array | number[]): number;

/**
 * `Array.slice(...)`: `spec` holds triples `(kind, a, b)` — kind 0: index `a`; 1: range
 * `[a, b)` (`b` NaN: to the end); 2: new axis.
 */
export function slice(h: number, spec: Float64Array | number[]): number;

/**
 * Splits into `sections` equal parts, or at the indices `cuts` when `sections` is absent.
 */
export function split(h: number, sections: number | null | undefined, cuts: Float64Array | number[], axis: number): Float64Array;

export function squeeze(h: number, axes?: Int32Array | number[] | null): number;

export function stack(hs: Float64Array | number[], axis: number): number;

export function start(): void;

export function swapaxes(h: number, a: number, b: number): number;

export function tile(h: number, reps: Float64Array | number[]): number;

/**
 * Abandons trace `frame` (the traced function threw).
 */
export function traceAbort(frame: number): void;

/**
 * Starts a trace whose inputs have the avals of `inputs` (arrays or tracers). Returns the
 * frame id followed by one tracer handle per input.
 */
export function traceBegin(_function: string, inputs: Float64Array | number[]): Float64Array;

/**
 * Ends trace `frame` with the given output handles; returns a Jaxpr handle.
 */
export function traceEnd(_function: string, frame: number, outputs: Float64Array | number[]): number;

export function transpose(h: number, perm?: Int32Array | number[] | null): number;

/**
 * A weakly typed 0-d array from a JS number.
 */
export function weakScalar(value: number, dtype: string, device: string): number;

export function weakType(handle: number): boolean;

export type InitInput = RequestInfo | URL | Response | BufferSource | WebAssembly.Module;

export interface InitOutput {
    readonly memory: WebAssembly.Memory;
    readonly apply: (a: number, b: number, c: number, d: number, e: number, f: number, g: number, h: number) => [number, number, number];
    readonly arange: (a: number, b: number, c: number, d: number, e: number, f: number, g: number) => [number, number, number];
    readonly argExtreme: (a: number, b: number, c: number, d: number, e: number, f: number) => [number, number, number];
    readonly arrayFromBytes: (a: number, b: number, c: number, d: number, e: number, f: number, g: number, h: number, i: number, j: number) => [number, number, number];
    readonly availableDevices: () => [number, number];
    readonly broadcastTo: (a: number, b: number, c: number) => [number, number, number];
    readonly concatenate: (a: number, b: number, c: number) => [number, number, number];
    readonly convert: (a: number, b: number, c: number, d: number) => [number, number, number];
    readonly cumulative: (a: number, b: number, c: number, d: number, e: number, f: number) => [number, number, number];
    readonly debugPanic: (a: number, b: number) => void;
    readonly device: (a: number) => [number, number, number, number];
    readonly dispose: (a: number) => [number, number];
    readonly dtype: (a: number) => [number, number, number, number];
    readonly einsum: (a: number, b: number, c: number, d: number) => [number, number, number];
    readonly expandDims: (a: number, b: number, c: number) => [number, number, number];
    readonly eye: (a: number, b: number, c: number, d: number, e: number, f: number, g: number) => [number, number, number];
    readonly flip: (a: number, b: number, c: number) => [number, number, number];
    readonly full: (a: number, b: number, c: number, d: number, e: number, f: number, g: number, h: number, i: number) => [number, number, number];
    readonly incRef: (a: number) => [number, number];
    readonly initWebGpu: (a: number) => any;
    readonly jaxprDispose: (a: number) => [number, number];
    readonly jaxprText: (a: number) => [number, number, number, number];
    readonly lastPanic: () => [number, number];
    readonly linspace: (a: number, b: number, c: number, d: number, e: number, f: number, g: number, h: number) => [number, number, number];
    readonly memoryStats: () => any;
    readonly moveaxis: (a: number, b: number, c: number) => [number, number, number];
    readonly pad: (a: number, b: number, c: number, d: number, e: number) => [number, number, number];
    readonly read: (a: number, b: number, c: number) => any;
    readonly readSync: (a: number, b: number, c: number) => [number, number, number];
    readonly reduce: (a: number, b: number, c: number, d: number, e: number, f: number) => [number, number, number];
    readonly refCount: (a: number) => number;
    readonly reshape: (a: number, b: number, c: number) => [number, number, number];
    readonly setDefaultDevice: (a: number, b: number) => [number, number];
    readonly shape: (a: number) => [number, number, number, number];
    readonly shrink: (a: number, b: number, c: number, d: number, e: number) => [number, number, number];
    readonly slice: (a: number, b: number, c: number) => [number, number, number];
    readonly split: (a: number, b: number, c: number, d: number, e: number) => [number, number, number, number];
    readonly squeeze: (a: number, b: number, c: number) => [number, number, number];
    readonly stack: (a: number, b: number, c: number) => [number, number, number];
    readonly start: () => void;
    readonly swapaxes: (a: number, b: number, c: number) => [number, number, number];
    readonly tile: (a: number, b: number, c: number) => [number, number, number];
    readonly traceAbort: (a: number) => void;
    readonly traceBegin: (a: number, b: number, c: number, d: number) => [number, number, number, number];
    readonly traceEnd: (a: number, b: number, c: number, d: number, e: number) => [number, number, number];
    readonly transpose: (a: number, b: number, c: number) => [number, number, number];
    readonly weakScalar: (a: number, b: number, c: number, d: number, e: number) => [number, number, number];
    readonly weakType: (a: number) => [number, number, number];
    readonly wasm_bindgen__convert__closures_____invoke__h18ffd822d562ef4b: (a: number, b: number, c: any) => [number, number];
    readonly wasm_bindgen__convert__closures_____invoke__h52df2c6ab505afa8: (a: number, b: number, c: any) => [number, number];
    readonly wasm_bindgen__convert__closures_____invoke__h8b260be5468607aa: (a: number, b: number, c: any, d: any) => void;
    readonly wasm_bindgen__convert__closures_____invoke__hbefbe36ae243b05a: (a: number, b: number, c: any) => [number, number];
    readonly wasm_bindgen__convert__closures_____invoke__hf3f503f8737ae2c7: (a: number, b: number, c: any) => [number, number];
    readonly wasm_bindgen__convert__closures_____invoke__h744155dc06f0a7e8: (a: number, b: number) => number;
    readonly __wbindgen_malloc: (a: number, b: number) => number;
    readonly __wbindgen_realloc: (a: number, b: number, c: number, d: number) => number;
    readonly __wbindgen_free: (a: number, b: number, c: number) => void;
    readonly __wbindgen_exn_store: (a: number) => void;
    readonly __externref_table_alloc: () => number;
    readonly __wbindgen_externrefs: WebAssembly.Table;
    readonly __wbindgen_destroy_closure: (a: number, b: number) => void;
    readonly __externref_table_dealloc: (a: number) => void;
    readonly __externref_drop_slice: (a: number, b: number) => void;
    readonly __wbindgen_start: () => void;
}

export type SyncInitInput = BufferSource | WebAssembly.Module;

/**
 * Instantiates the given `module`, which can either be bytes or
 * a precompiled `WebAssembly.Module`.
 *
 * @param {{ module: SyncInitInput }} module - Passing `SyncInitInput` directly is deprecated.
 *
 * @returns {InitOutput}
 */
export function initSync(module: { module: SyncInitInput } | SyncInitInput): InitOutput;

/**
 * If `module_or_path` is {RequestInfo} or {URL}, makes a request and
 * for everything else, calls `WebAssembly.instantiate` directly.
 *
 * @param {{ module_or_path: InitInput | Promise<InitInput> }} module_or_path - Passing `InitInput` directly is deprecated.
 *
 * @returns {Promise<InitOutput>}
 */
export default function __wbg_init (module_or_path?: { module_or_path: InitInput | Promise<InitInput> } | InitInput | Promise<InitInput>): Promise<InitOutput>;
