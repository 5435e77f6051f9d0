// The REPL's preset examples: each is plain JavaScript run with the REPL's names in scope.
export const presets = [
  {
    name: "Arrays and broadcasting",
    code: `const x = np.array([[1, 2, 3], [4, 5, 6]]);
const y = np.array([10, 20, 30]);
print("x + y =", x.add(y));
print("column sums =", x.sum(0));
print("x @ x.T =", np.matmul(x, x.T));
print("mean, std =", x.mean(), np.std(x));`,
  },
  {
    name: "grad and valueAndGrad",
    code: `// d/dx sum(x sin x) = sin x + x cos x
const f = (x) => x.mul(np.sin(x)).sum();
print("f'(0, 1, 2) =", grad(f)(np.array([0, 1, 2])));
// second derivative of x³ at 3 is 6·3
const cube = (x) => x.mul(x).mul(x).sum();
print("(x³)'' at 3 =", grad((x) => grad(cube)(x).sum())(np.array([3])));
const [value, g] = valueAndGrad((p) => p.mul(p).sum())(np.array([3, 4]));
print("|p|² and its gradient =", value, g);`,
  },
  {
    name: "Jaxprs",
    code: `const f = (x, y) => np.tanh(x.mul(y)).add(x);
using j1 = makeJaxpr(f)(np.ones([3]), np.ones([3])).jaxpr;
print(j1);
// the gradient is itself a program:
using j2 = makeJaxpr(grad((x) => np.tanh(x).sum()))(np.ones([3])).jaxpr;
print(j2);`,
  },
  {
    name: "jit and vmap",
    code: `const f = (x) => np.exp(x.neg()).mul(np.cos(x));
const xs = np.linspace(0, 3, 4);
print("f(xs) =", f(xs));
using fast = jit(f); // compiled once per input shape, fused where possible
print("jit(f)(xs) =", fast(xs));
print("vmap(row sums) =", vmap((row) => row.sum())(np.arange(6).reshape([2, 3])));`,
  },
  {
    name: "Fit a line by gradient descent",
    code: `const xs = np.linspace(0, 1, 20);
const ys = xs.mul(3).add(1); // y = 3x + 1
const loss = (p) => {
  const r = xs.mul(p.slice(0)).add(p.slice(1)).sub(ys);
  return r.mul(r).mean();
};
let p = np.array([0, 0]);
for (let i = 0; i < 300; i++) {
  using g = grad(loss)(p);
  using step = g.mul(0.5);
  const next = p.sub(step);
  p.dispose();
  p = next;
  if (i % 25 === 0) await tick(); // long loops let other work in (the page stays live)
}
print("slope, intercept =", p, "loss =", loss(p));`,
  },
];
