// Upstream @jax-js/jax 0.1.25 (a devDependency) loaded as an oracle in Node 20. Upstream uses
// ES2025 iterator helpers (`str.matchAll(re).map(...)`, `map.keys().toArray()`), which Node 20's
// V8 lacks: this module installs them on the shared iterator prototype first, only where
// missing (Node 22+ and Deno have them), then imports upstream on its `wasm` device.

const iteratorProto = Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]()));

function* mapped(it, f) {
  let i = 0;
  for (const x of it) yield f(x, i++);
}
function* filtered(it, f) {
  let i = 0;
  for (const x of it) if (f(x, i++)) yield x;
}
function* flatMapped(it, f) {
  let i = 0;
  for (const x of it) yield* f(x, i++);
}
function* taken(it, n) {
  if (n <= 0) return;
  for (const x of it) {
    yield x;
    if (--n <= 0) return;
  }
}
function* dropped(it, n) {
  for (const x of it) if (n-- <= 0) yield x;
}

const helpers = {
  map(f) {
    return mapped(iterable(this), f);
  },
  filter(f) {
    return filtered(iterable(this), f);
  },
  flatMap(f) {
    return flatMapped(iterable(this), f);
  },
  take(n) {
    return taken(iterable(this), n);
  },
  drop(n) {
    return dropped(iterable(this), n);
  },
  toArray() {
    return [...iterable(this)];
  },
  forEach(f) {
    let i = 0;
    for (const x of iterable(this)) f(x, i++);
  },
  some(f) {
    let i = 0;
    for (const x of iterable(this)) if (f(x, i++)) return true;
    return false;
  },
  every(f) {
    let i = 0;
    for (const x of iterable(this)) if (!f(x, i++)) return false;
    return true;
  },
  find(f) {
    let i = 0;
    for (const x of iterable(this)) if (f(x, i++)) return x;
    return undefined;
  },
  reduce(f, ...init) {
    const it = iterable(this);
    let acc;
    let i = 0;
    let started = init.length > 0;
    if (started) acc = init[0];
    for (const x of it) {
      if (!started) {
        acc = x;
        started = true;
      } else acc = f(acc, x, i);
      i++;
    }
    if (!started) throw new TypeError("Reduce of empty iterator with no initial value");
    return acc;
  },
};

/** The iterator itself as an iterable (iterators are, through the shared prototype). */
function iterable(it) {
  return { [Symbol.iterator]: () => it };
}

for (const [name, fn] of Object.entries(helpers)) {
  if (!(name in iteratorProto)) {
    Object.defineProperty(iteratorProto, name, { value: fn, writable: true, configurable: true });
  }
}

/** The upstream module, with its default device set to `wasm`. */
export const up = await import("@jax-js/jax");
up.defaultDevice("wasm");
