/**
 * Pytrees (`tree` namespace, as in jax-js): nested JS arrays and plain objects whose leaves are
 * Arrays (or numbers). Structure only: no math.
 */
import { Array } from "./array.js";

/**
 * A pytree: a leaf of type `T`, a JS array of pytrees, a plain object of pytrees, or
 * `null`/`undefined` (an empty node). Functions of oxjax that take "a pytree of arrays" accept any
 * such nesting of `Array` leaves (and usually JS numbers).
 */
export type JsTree<T> = T | JsTree<T>[] | { [key: string]: JsTree<T> } | null | undefined;

type Kind = "leaf" | "list" | "dict" | "none";

/** jax-js's node kinds, as `JsTreeDef.nodeType` reports them. */
export enum NodeType {
  /** A JS array node (its children in order). */
  Array = "Array",
  /** A plain-object node (its children by key, keys sorted). */
  Object = "Object",
  /** A leaf. */
  Leaf = "Leaf",
  /** `null` or `undefined`: a node without leaves. */
  None = "None",
}

const NODE_TYPES: Record<Kind, NodeType> = {
  leaf: NodeType.Leaf,
  list: NodeType.Array,
  dict: NodeType.Object,
  none: NodeType.None,
};

/** Whether `X` and `Y` are the same type. */
type Same<X, Y> =
  (<V>() => V extends X ? 1 : 2) extends <V>() => V extends Y ? 1 : 2 ? true : false;

type MappedJsTree<T, A, B> = T extends A
  ? B
  : T extends Array
    ? T
    : T extends globalThis.Array<infer E>
      ? number extends T["length"]
        ? MapJsTree<E, A, B>[]
        : { [K in keyof T]: MapJsTree<T[K], A, B> }
      : { [K in keyof T]: MapJsTree<T[K], A, B> };

/**
 * `T` (a subtype of `JsTree<A>`) with its leaves of type `A` replaced by `B`, keeping the
 * structure (tuples stay tuples, object keys stay), as jax-js types it.
 */
export type MapJsTree<T, A, B> = Same<A, B> extends true ? T : MappedJsTree<T, A, B>;

/**
 * The structure of a pytree without its leaves, as `flatten` and `structure` return it. Two
 * pytrees with equal structures (`equals`) can be combined leaf by leaf.
 */
export class JsTreeDef {
  /** @internal */
  constructor(
    /** The node's kind in oxjax's terms: `"leaf"`, `"list"`, `"dict"` or `"none"`. */
    readonly kind: Kind,
    /** The structures of the node's children (in order; for a dict, in sorted-key order). */
    readonly children: JsTreeDef[] = [],
    /** A dict node's keys, sorted; empty for other nodes. */
    readonly keys: string[] = [],
  ) {}

  /** A single leaf (jax-js's `JsTreeDef.leaf`). */
  static readonly leaf: JsTreeDef = new JsTreeDef("leaf");

  /** The node's kind as jax-js names it (`NodeType`). */
  get nodeType(): NodeType {
    return NODE_TYPES[this.kind];
  }

  /** An object node's keys (in flattening order); `null` for other nodes (as jax-js). */
  get nodeMetadata(): string[] | null {
    return this.kind === "dict" ? this.keys : null;
  }

  /** The structures of the children (as jax-js). */
  get childTreedefs(): JsTreeDef[] {
    return this.children;
  }

  /** The number of leaves. */
  get numLeaves(): number {
    return this.kind === "leaf" ? 1 : this.children.reduce((n, c) => n + c.numLeaves, 0);
  }

  /** The number of leaves (jax-js's name). */
  get size(): number {
    return this.numLeaves;
  }

  /**
   * Whether `other` has the same structure (kinds, keys and children, recursively).
   *
   * @example
   * ```ts
   * const a = tree.structure({ x: 1, y: [2] });
   * const b = tree.structure({ y: [0], x: 0 });
   * a.equals(b); // true
   * ```
   */
  equals(other: JsTreeDef): boolean {
    return (
      this.kind === other.kind &&
      this.keys.join("\u0000") === other.keys.join("\u0000") &&
      this.children.length === other.children.length &&
      this.children.every((c, i) => c.equals(other.children[i]))
    );
  }

  /**
   * @internal The structure as a cache key: unlike `toString` (for people), distinct
   * structures never share it (object keys are JSON strings, so no key can mimic syntax).
   */
  key(): string {
    return JSON.stringify(this.#keyValue());
  }

  #keyValue(): unknown {
    switch (this.kind) {
      case "leaf":
        return 1;
      case "none":
        return 0;
      case "list":
        return this.children.map((c) => c.#keyValue());
      case "dict":
        return [this.keys, this.children.map((c) => c.#keyValue())];
    }
  }

  /**
   * A printout of the structure as jax-js prints it, e.g. `JsTreeDef({a: *, b: [*, *]})` with
   * `*` for leaves (without the `JsTreeDef(…)` wrapper when `root` is false).
   *
   * @example
   * ```ts
   * tree.structure({ b: [1, 2], a: 0 }).toString(); // "JsTreeDef({a: *, b: [*, *]})"
   * ```
   */
  toString(root = true): string {
    if (root) return `JsTreeDef(${this.toString(false)})`;
    switch (this.kind) {
      case "leaf":
        return "*";
      case "none":
        return "null";
      case "list":
        return `[${this.children.map((c) => c.toString(false)).join(", ")}]`;
      case "dict":
        return `{${this.keys.map((k, i) => `${quoteKey(k)}: ${this.children[i].toString(false)}`).join(", ")}}`;
    }
  }
}

/** An object key as jax-js prints it: bare when an identifier, else JSON-quoted. */
function quoteKey(key: string): string {
  return /^[a-zA-Z_$][a-zA-Z0-9_$]*$/.test(key) ? key : JSON.stringify(key);
}

function isPlainObject(x: unknown): x is Record<string, unknown> {
  if (x === null || typeof x !== "object") return false;
  const proto = Object.getPrototypeOf(x);
  return proto === Object.prototype || proto === null;
}

/**
 * The leaves (depth first; object keys in sorted order, as JAX) and the structure.
 *
 * @example
 * ```ts
 * using x = np.array(1);
 * using y = np.array(2);
 * const [leaves, def] = tree.flatten({ b: y, a: [x] });
 * leaves.map((l) => l.item()); // [1, 2]
 * def.numLeaves; // 2
 * ```
 */
export function flatten<T>(tree: JsTree<T>): [T[], JsTreeDef] {
  const leaves: T[] = [];
  const walk = (t: unknown): JsTreeDef => {
    if (t === null || t === undefined) return new JsTreeDef("none");
    if (globalThis.Array.isArray(t)) return new JsTreeDef("list", t.map(walk));
    if (isPlainObject(t)) {
      const keys = Object.keys(t).sort();
      return new JsTreeDef(
        "dict",
        keys.map((k) => walk(t[k])),
        keys,
      );
    }
    leaves.push(t as T);
    return new JsTreeDef("leaf");
  };
  const def = walk(tree);
  return [leaves, def];
}

/**
 * Rebuilds a pytree of `treedef`'s structure from `leaves`.
 *
 * @example
 * ```ts
 * using x = np.array(1);
 * using y = np.array(2);
 * const def = tree.structure({ a: 0, b: [0] });
 * const t = tree.unflatten(def, [x, y]); // { a: x, b: [y] }
 * t.b[0].item(); // 2
 * ```
 */
export function unflatten<T>(treedef: JsTreeDef, leaves: T[]): JsTree<T> {
  if (leaves.length !== treedef.numLeaves) {
    throw new Error(`unflatten: ${leaves.length} leaves for a structure with ${treedef.numLeaves}`);
  }
  let next = 0;
  const build = (d: JsTreeDef): JsTree<T> => {
    switch (d.kind) {
      case "leaf":
        return leaves[next++];
      case "none":
        return null;
      case "list":
        return d.children.map(build);
      case "dict":
        return Object.fromEntries(d.keys.map((k, i) => [k, build(d.children[i])]));
    }
  };
  return build(treedef);
}

/**
 * The leaves of `tree`, depth first (object keys in sorted order, as JAX): `flatten(tree)[0]`.
 * Nothing is copied or referenced.
 *
 * @example
 * ```ts
 * using x = np.array(1);
 * using y = np.array(2);
 * using z = np.array(3);
 * tree.leaves({ b: [x, y], a: z }).map((l) => l.item()); // [3, 1, 2]
 * ```
 */
export function leaves<T>(tree: JsTree<T>): T[] {
  return flatten(tree)[0];
}

/**
 * The structure of `tree` without its leaves: `flatten(tree)[1]`.
 *
 * @example
 * ```ts
 * tree.structure({ a: 1, b: [2, 3] }).numLeaves; // 3
 * ```
 */
export function structure<T>(tree: JsTree<T>): JsTreeDef {
  return flatten(tree)[1];
}

/**
 * A new pytree of `tree`'s structure whose leaves are `fn(leaf, ...matching leaves of rest)`; the
 * trees in `rest` must have the same structure. Nothing is disposed: the new leaves are whatever
 * `fn` returns (new arrays, owned by the caller, when `fn` computes).
 *
 * @example
 * ```ts
 * using w = np.array([1, 2]);
 * using b = np.array(3);
 * const doubled = tree.map((a) => a.mul(2), { w, b }); // new arrays: { w: [2, 4], b: 6 }
 * tree.dispose(doubled);
 * ```
 */
export function map<T, U, Tree extends JsTree<T>>(
  fn: (...xs: T[]) => U,
  tree: Tree,
  ...rest: Tree[]
): MapJsTree<Tree, T, U>;
export function map<T, U>(fn: (...xs: T[]) => U, tree: JsTree<T>, ...rest: JsTree<T>[]): JsTree<U> {
  const [ls, def] = flatten<T>(tree);
  const others = rest.map((r) => {
    const [l, d] = flatten<T>(r);
    if (!d.equals(def)) throw new Error(`tree.map: structures differ: ${def} and ${d}`);
    return l;
  });
  return unflatten(
    def,
    ls.map((l, i) => fn(l, ...others.map((o) => o[i]))),
  );
}

/**
 * Disposes every `Array` leaf of `tree` that is still alive (each distinct array once); other
 * leaves are ignored. Never throws for an already-freed leaf.
 *
 * @example
 * ```ts
 * const params = { w: np.ones([3]), b: np.zeros([1]) };
 * tree.dispose(params);
 * ```
 */
export function dispose<Tree extends JsTree<unknown>>(tree: Tree): void {
  for (const l of new Set(leaves(tree))) if (l instanceof Array) l[Symbol.dispose]();
}

/**
 * Makes `tree` (an object or array) disposable: `using t = tree.makeDisposable({ a, b })`
 * disposes its array leaves when the block ends. Returns the same object, with a
 * `[Symbol.dispose]` method added.
 *
 * @example
 * ```ts
 * {
 *   using params = tree.makeDisposable({ w: np.ones([2]), b: np.zeros([1]) });
 *   params.w.shape; // [2]
 * } // w and b are disposed here
 * ```
 */
export function makeDisposable<T>(tree: T): T & Disposable {
  const target = (typeof tree === "object" && tree !== null ? tree : {}) as T & Disposable;
  Object.defineProperty(target, Symbol.dispose, {
    value: () => dispose(tree as JsTree<unknown>),
    enumerable: false,
  });
  return target;
}

/**
 * `.ref` on every `Array` leaf (one more owner each): a new container tree with the same leaves.
 *
 * @example
 * ```ts
 * using x = np.array(1);
 * const t = tree.ref({ x }); // x now has two owners
 * x.refCount; // 2
 * tree.dispose(t);
 * ```
 */
export function ref<Tree extends JsTree<unknown>>(tree: Tree): Tree {
  return map((l: unknown) => (l instanceof Array ? l.ref : l), tree) as Tree;
}

/**
 * Reads every `Array` leaf with `data()`, all in parallel (on webgpu: one buffer map for the
 * whole tree), and resolves to a pytree of typed arrays; other leaves are kept as they are. The
 * arrays stay alive.
 *
 * @example
 * ```ts
 * using l = np.array(0.5);
 * using g = np.array([1, 2]);
 * const { loss, grads } = await tree.data({ loss: l, grads: g }); // typed arrays
 * ```
 */
export async function data(tree: JsTree<unknown>): Promise<JsTree<unknown>> {
  const [ls, def] = flatten(tree);
  const read = await Promise.all(ls.map((l) => (l instanceof Array ? l.data() : l)));
  return unflatten(def, read);
}

/**
 * `data(tree)`, then `dispose(tree)`: reads every leaf and releases them.
 *
 * @example
 * ```ts
 * const t = { w: np.array([1, 2]) };
 * const data = await tree.consumeData(t); // reads, then disposes t's arrays
 * Array.from(data.w); // [1, 2]
 * ```
 */
export async function consumeData(tree: JsTree<unknown>): Promise<JsTree<unknown>> {
  try {
    return await data(tree);
  } finally {
    dispose(tree);
  }
}
