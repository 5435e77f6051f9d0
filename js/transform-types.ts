/**
 * The public signatures of the transformations, generic in the function transformed as jax-js
 * types them: the transformed function takes the original's parameters with each `Array` leaf
 * also accepting a JS number or boolean, and returns the original's result (or the gradient's
 * structure). Types only; the implementations are in `transforms.ts`, `vmap.ts` and `jit.ts`.
 */
import type { Array, ArrayLike } from "./array.js";
import type { JsTree, MapJsTree } from "./tree.js";

/** A function the transformations trace: pytrees in, a pytree of Arrays out. */
export type TracedFunction = (...args: any[]) => JsTree<Array>;

/**
 * The arguments a transformed `F` accepts: its parameters, Array leaves also numbers.
 *
 * @typeParam F - The function transformed.
 */
export type ArgsOf<F extends (...args: any[]) => any> = MapJsTree<Parameters<F>, Array, ArrayLike>;

/**
 * A function that owns resources (compiled programs, captured constants, residuals): call it as
 * `F`, and release it with `dispose()` or a `using` declaration. Calling it after `dispose()`
 * throws.
 */
export type OwnedFunction<F> = F & {
  /** Releases what the function owns; calling it afterwards throws. */
  dispose(): void;
  /** What `using` calls: `dispose()` unless already disposed; never throws. */
  [Symbol.dispose](): void;
};

/** `grad`/`valueAndGrad` options, typed by the argnums and hasAux given. */
export interface GradOptions<
  I extends undefined | number | number[] = undefined | number | number[],
  HA extends boolean = boolean,
> {
  /** Which arguments to differentiate: an index (the gradient alone) or a list (a tuple). */
  argnums?: I;
  /** `f` returns `[output, aux]`; aux comes back beside the gradient. */
  hasAux?: HA;
}

/** The gradient's structure: the differentiated argument(s), leaves Arrays. */
export type GradOutput<I, F extends (...args: any[]) => any> = MapJsTree<
  I extends undefined
    ? Parameters<F>[0]
    : I extends number
      ? Parameters<F>[I]
      : I extends number[]
        ? { [K in keyof I]: I[K] extends number ? Parameters<F>[I[K]] : never }
        : never,
  ArrayLike,
  Array
>;

/** What `grad(f, opts)` returns. */
export type GradFunction<F extends TracedFunction, I, HA extends boolean> = (
  ...primals: ArgsOf<F>
) => HA extends true
  ? ReturnType<F> extends [any, infer Aux]
    ? [GradOutput<I, F>, Aux]
    : never
  : GradOutput<I, F>;

/** What `valueAndGrad(f, opts)` returns. */
export type ValueAndGradFunction<F extends TracedFunction, I> = (
  ...primals: ArgsOf<F>
) => [ReturnType<F>, GradOutput<I, F>];

/** The cotangents `vjpFn` returns: one per primal, leaves Arrays. */
export type Cotangents<F extends (...args: any[]) => any> = MapJsTree<
  Parameters<F>,
  ArrayLike,
  Array
>;

/** `vjp(f, primals, opts)`'s result: `[out, vjpFn]`, or `[out, vjpFn, aux]` with hasAux. */
export type VjpResult<F extends TracedFunction, HA extends boolean> = HA extends true
  ? ReturnType<F> extends [infer Out, infer Aux]
    ? [Out, OwnedFunction<(cotangents: MapJsTree<Out, Array, ArrayLike>) => Cotangents<F>>, Aux]
    : never
  : [
      ReturnType<F>,
      OwnedFunction<(cotangents: MapJsTree<ReturnType<F>, Array, ArrayLike>) => Cotangents<F>>,
    ];

/** `jvp(f, primals, tangents, opts)`'s result: `[out, tangentsOut]` (then aux). */
export type JvpResult<F extends TracedFunction, HA extends boolean> = HA extends true
  ? ReturnType<F> extends [infer Out, infer Aux]
    ? [Out, Out, Aux]
    : never
  : [ReturnType<F>, ReturnType<F>];

/** `linearize(f, primals, opts)`'s result: `[out, fLin]` (then aux). */
export type LinearizeResult<F extends TracedFunction, HA extends boolean> = HA extends true
  ? ReturnType<F> extends [infer Out, infer Aux]
    ? [Out, OwnedFunction<(...tangents: ArgsOf<F>) => Out>, Aux]
    : never
  : [ReturnType<F>, OwnedFunction<(...tangents: ArgsOf<F>) => ReturnType<F>>];

/** `vmap`'s `inAxes`: one axis for all, or per argument a number, null or pytree prefix. */
export type InAxes = number | (number | null | JsTree<number | null>)[];

/** A transformed function with `F`'s parameters (numbers allowed) and result. */
export type Transformed<F extends (...args: any[]) => any> = (...args: ArgsOf<F>) => ReturnType<F>;
