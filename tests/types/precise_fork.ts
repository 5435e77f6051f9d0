// The transformations' types in the non-consuming fork's style (`using`, nothing consumed),
// compiled with `tsc --strict` by tests/api/types.test.mjs: each `Equal` line pins a type that
// jax-js's generic signatures give, and each `@ts-expect-error` line is misuse that must not
// compile (tsc reports an unused directive if it does).
import {
  grad,
  jit,
  jvp,
  lax,
  linearize,
  numpy as np,
  tree,
  valueAndGrad,
  vjp,
  vmap,
  type JsTree,
  type NestedValues,
} from "oxjax";

type Equal<X, Y> =
  (<T>() => T extends X ? 1 : 2) extends <T>() => T extends Y ? 1 : 2 ? true : false;
const same = <X, Y>(ok: Equal<X, Y>): Equal<X, Y> => ok;

type Params = { w: np.Array; b: np.Array };
const loss = (p: Params, x: np.Array): np.Array => np.sum(p.w.mul(x).add(p.b));
const square = (x: np.Array): np.Array => x.mul(x);

export function transformations(x: np.Array, p: Params): void {
  // grad: the first argument's structure; argnums picks others; hasAux adds the aux.
  const g = grad(loss)(p, x);
  same<typeof g, Params>(true);
  const gx = grad(loss, { argnums: 1 })(p, x);
  same<typeof gx, np.Array>(true);
  const both = grad(loss, { argnums: [0, 1] })(p, x);
  same<typeof both, [Params, np.Array]>(true);
  const withAux = (v: np.Array): [np.Array, { n: np.Array }] => [np.sum(v), { n: v }];
  const [ga, aux] = grad(withAux, { hasAux: true })(x);
  same<typeof ga, np.Array>(true);
  same<typeof aux, { n: np.Array }>(true);
  const [value, grads] = valueAndGrad(loss)(p, x);
  same<typeof value, np.Array>(true);
  same<typeof grads, Params>(true);
  // A JS number where an Array is taken, as jax-js's types allow.
  grad(square)(3);
  // @ts-expect-error a string is not an Array or a number
  grad(square)("3");
  // @ts-expect-error loss takes two arguments
  grad(loss)(p);

  // vjp: [out, vjpFn]; vjpFn takes the output's structure and returns one cotangent per primal.
  const [y, vjpFn] = vjp(loss, [p, x]);
  same<typeof y, np.Array>(true);
  const cts = vjpFn(y);
  same<typeof cts, [Params, np.Array]>(true);
  vjpFn.dispose();
  // @ts-expect-error the cotangent of an Array output is an Array, not a pytree of them
  vjpFn({ y });
  const [y3, vjp3, aux3] = vjp(withAux, [x], { hasAux: true });
  same<typeof y3, np.Array>(true);
  same<typeof aux3, { n: np.Array }>(true);
  vjp3.dispose();

  // jvp and linearize: outputs and tangents of the output's type.
  const [out, tan] = jvp(square, [x], [np.onesLike(x)]);
  same<[typeof out, typeof tan], [np.Array, np.Array]>(true);
  // @ts-expect-error tangents have the primals' structure
  jvp(square, [x], [[x]]);
  const [yl, fLin] = linearize(loss, [p, x]);
  same<typeof yl, np.Array>(true);
  const tl = fLin(p, x);
  same<typeof tl, np.Array>(true);
  fLin.dispose();

  // vmap and jit keep the function's parameters (numbers allowed) and result.
  const batched = vmap(loss, [null, 0]);
  same<ReturnType<typeof batched>, np.Array>(true);
  batched(p, x);
  const pair = (a: np.Array, n: np.Array): [np.Array, np.Array] => [a.add(n), a.mul(n)];
  using jitted = jit(pair);
  const [s, m] = jitted(x, 3);
  same<[typeof s, typeof m], [np.Array, np.Array]>(true);
  // @ts-expect-error two arguments
  jitted(x);
  // @ts-expect-error jit traces functions that return pytrees of Arrays
  jit((a: np.Array) => a.shape);
}

export function scans(xs: np.Array): void {
  // lax.scan: the carry's structure (numbers become Arrays), the stacked ys.
  const [carry, ys] = lax.scan(
    (c, x) => {
      const next = { sum: c.sum.add(x), n: c.n.add(1) };
      return [next, c.sum];
    },
    { sum: np.zeros([2]), n: 0 },
    xs,
  );
  same<typeof carry, { sum: np.Array; n: np.Array }>(true);
  same<typeof ys, np.Array>(true);
  lax.scan(
    // @ts-expect-error the body must return the carry's structure
    (c: np.Array, x: np.Array) => [{ c }, x],
    np.zeros([2]),
    xs,
  );
  const total = lax.foriLoop(0, 3, (i, c) => c.add(i), np.zeros([]));
  same<typeof total, np.Array>(true);
}

export function trees(p: Params): void {
  // tree.map maps the leaf type and keeps the structure.
  const shapes = tree.map((a: np.Array) => a.shape, p);
  same<typeof shapes, { w: number[]; b: number[] }>(true);
  const doubled = tree.map((a: np.Array) => a.mul(2), p);
  same<typeof doubled, Params>(true);
  const summed = tree.map((a: np.Array, b: np.Array) => a.add(b), p, p);
  same<typeof summed, Params>(true);
  const refs = tree.ref(p);
  same<typeof refs, Params>(true);
  const def = tree.structure(p);
  const n: number = def.size;
  void n;
  const nested: NestedValues = p.w.js();
  void nested;
  const t: JsTree<np.Array> = [p.w, { b: p.b }];
  void t;
}
