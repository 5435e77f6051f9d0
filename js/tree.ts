/**
 * Pytrees (`tree` namespace, as in jax-js): nested JS arrays and plain objects whose leaves are
 * Arrays (or numbers). Structure only: no math.
 */
import { Array } from "./array.js";

export type JsTree<T> = T | JsTree<T>[] | { [key: string]: JsTree<T> } | null | undefined;

type Kind = "leaf" | "list" | "dict" | "none";

/** jax-js's node kinds (`JsTreeDef.nodeType`). */
export enum NodeType {
  Array = "Array",
  Object = "Object",
  Leaf = "Leaf",
  None = "None",
}

const NODE_TYPES: Record<Kind, NodeType> = {
  leaf: NodeType.Leaf,
  list: NodeType.Array,
  dict: NodeType.Object,
  none: NodeType.None,
};

/** A pytree of the same structure with leaves of type `U`. */
export type MapJsTree<T, U> = T extends Array
  ? U
  : T extends (infer E)[]
    ? MapJsTree<E, U>[]
    : T extends null | undefined
      ? T
      : T extends object
        ? { [K in keyof T]: MapJsTree<T[K], U> }
        : U;

/** The shape of a pytree without its leaves. */
export class JsTreeDef {
  /** @internal */
  constructor(
    readonly kind: Kind,
    readonly children: JsTreeDef[] = [],
    readonly keys: string[] = [],
  ) {}

  get nodeType(): NodeType {
    return NODE_TYPES[this.kind];
  }

  /** The number of leaves. */
  get numLeaves(): number {
    return this.kind === "leaf" ? 1 : this.children.reduce((n, c) => n + c.numLeaves, 0);
  }

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

  toString(): string {
    switch (this.kind) {
      case "leaf":
        return "*";
      case "none":
        return "null";
      case "list":
        return `[${this.children.join(", ")}]`;
      case "dict":
        return `{${this.keys.map((k, i) => `${k}: ${this.children[i]}`).join(", ")}}`;
    }
  }
}

function isPlainObject(x: unknown): x is Record<string, unknown> {
  if (x === null || typeof x !== "object") return false;
  const proto = Object.getPrototypeOf(x);
  return proto === Object.prototype || proto === null;
}

/** The leaves (depth first; object keys in sorted order, as JAX) and the structure. */
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

/** Rebuilds a pytree of `treedef`'s structure from `leaves`. */
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

export function leaves<T>(tree: JsTree<T>): T[] {
  return flatten(tree)[0];
}

export function structure<T>(tree: JsTree<T>): JsTreeDef {
  return flatten(tree)[1];
}

/** Applies `fn` leafwise across trees of the same structure. */
export function map<T, U>(fn: (...xs: T[]) => U, tree: JsTree<T>, ...rest: JsTree<T>[]): JsTree<U> {
  const [ls, def] = flatten(tree);
  const others = rest.map((r) => {
    const [l, d] = flatten(r);
    if (!d.equals(def)) throw new Error(`tree.map: structures differ: ${def} and ${d}`);
    return l;
  });
  return unflatten(
    def,
    ls.map((l, i) => fn(l, ...others.map((o) => o[i]))),
  );
}

/** Disposes every Array leaf (those still alive). */
export function dispose(tree: JsTree<unknown>): void {
  for (const l of new Set(leaves(tree))) if (l instanceof Array) l[Symbol.dispose]();
}

/** Wraps a pytree so `using` disposes its leaves. */
export function makeDisposable<T>(tree: T): T & Disposable {
  const target = (typeof tree === "object" && tree !== null ? tree : {}) as T & Disposable;
  Object.defineProperty(target, Symbol.dispose, {
    value: () => dispose(tree as JsTree<unknown>),
    enumerable: false,
  });
  return target;
}

/** `.ref` on every Array leaf (one more owner each); a new container tree, same leaves. */
export function ref<T>(tree: JsTree<T>): JsTree<T> {
  return map((l: T) => (l instanceof Array ? (l.ref as T) : l), tree);
}

/** Reads every Array leaf (in parallel); other leaves are kept as they are. */
export async function data(tree: JsTree<unknown>): Promise<JsTree<unknown>> {
  const [ls, def] = flatten(tree);
  const read = await Promise.all(ls.map((l) => (l instanceof Array ? l.data() : l)));
  return unflatten(def, read);
}

/** `data`, then disposes every Array leaf once. */
export async function consumeData(tree: JsTree<unknown>): Promise<JsTree<unknown>> {
  try {
    return await data(tree);
  } finally {
    dispose(tree);
  }
}
