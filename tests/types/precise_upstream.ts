// The transformations' types in upstream @jax-js/jax's style (operations consume their
// arguments, `.ref` keeps one), against `oxjax/consuming`, compiled with `tsc --strict` by
// tests/api/types.test.mjs. The same program compiles against upstream's own declarations
// (the test maps `oxjax/consuming` to node_modules/@jax-js/jax there), so these are types
// upstream gives; each `@ts-expect-error` line is misuse both reject.
import {
  grad,
  jit,
  jvp,
  linearize,
  numpy as np,
  tree,
  valueAndGrad,
  vjp,
  vmap,
} from "oxjax/consuming";

type Equal<X, Y> =
  (<T>() => T extends X ? 1 : 2) extends <T>() => T extends Y ? 1 : 2 ? true : false;
const same = <X, Y>(ok: Equal<X, Y>): Equal<X, Y> => ok;

type Params = { w: np.Array; b: np.Array };
const loss = (p: Params, x: np.Array): np.Array => np.sum(p.w.mul(x).add(p.b));
const cube = (x: np.Array): np.Array => x.ref.mul(x.ref).mul(x);

export function transformations(x: np.Array, p: Params): void {
  const g = grad(loss)(tree.ref(p), x.ref);
  same<typeof g, Params>(true);
  const [value, grads] = valueAndGrad(loss, { argnums: 1 })(tree.ref(p), x.ref);
  same<[typeof value, typeof grads], [np.Array, np.Array]>(true);
  grad(cube)(3);
  // @ts-expect-error a string is not an Array or a number
  grad(cube)("3");

  const [y, vjpFn] = vjp(cube, [x.ref]);
  const [ct] = vjpFn(np.onesLike(y));
  same<typeof ct, np.Array>(true);
  vjpFn.dispose();
  // @ts-expect-error one cotangent per output, not a list
  vjpFn([y]);

  const [out, tan] = jvp(cube, [x.ref], [np.onesLike(x.ref)]);
  same<[typeof out, typeof tan], [np.Array, np.Array]>(true);
  const [yl, fLin] = linearize(cube, [x.ref]);
  same<typeof yl, np.Array>(true);
  same<ReturnType<typeof fLin>, np.Array>(true);
  fLin.dispose();

  const batched = vmap(loss, [null, 0]);
  same<ReturnType<typeof batched>, np.Array>(true);
  const scaled = jit((a: np.Array, s: np.Array) => a.mul(s));
  const r = scaled(x, 3);
  same<typeof r, np.Array>(true);
  scaled.dispose();
  // @ts-expect-error two arguments
  scaled(x);

  const doubled = tree.map((a: np.Array) => a.mul(2), p);
  same<typeof doubled, Params>(true);
  const size: number = tree.structure(doubled).size;
  void size;
}
