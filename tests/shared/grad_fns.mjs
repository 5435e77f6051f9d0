// The differentiable test functions of grad.test.mjs (twins of the Python functions in
// scripts/gen_jax_expected.py), shared with jit.test.mjs, which runs them eagerly and jitted.
import { scoped } from "./scoped.mjs";

export { scoped };

// Twins of the Python functions in scripts/gen_jax_expected.py. `k` disposes every
// intermediate at the end of the call (what `using` does), so eager calls leak nothing.
export function gradFns(ox) {
  const np = ox.numpy;
  return {
    sin_x: (x) => scoped((k) => np.sum(k(k(np.sin(x)).mul(x)))),
    exp_div: (x) => scoped((k) => np.sum(k(k(np.exp(x)).div(k(k(x.mul(x)).add(1)))))),
    tanh_log: (x) => scoped((k) => np.sum(k(k(np.tanh(x)).add(k(np.log(k(k(x.mul(x)).add(1)))))))),
    sqrt_abs: (x) => scoped((k) => np.sum(k(k(np.sqrt(k(k(np.abs(x)).add(1)))).mul(k(np.cos(x)))))),
    max_min: (x) =>
      scoped((k) => np.sum(k(k(np.maximum(x, 0.5)).sub(k(k(np.minimum(x, -0.5)).mul(2)))))),
    where: (x) => scoped((k) => np.sum(k(np.where(k(x.greater(0)), k(x.mul(x)), k(x.neg()))))),
    reductions: (x) =>
      scoped((k) =>
        k(k(np.max(x)).add(k(k(np.mean(x)).mul(3)))).add(k(np.prod(k(x.slice([0, 2]))))),
      ),
    atan_asin_erf: (x) =>
      scoped((k) =>
        np.sum(k(k(k(np.arctan(x)).add(k(np.arcsin(k(x.div(3)))))).add(k(ox.scipySpecial.erf(x))))),
      ),
    matmul: (m) => scoped((k) => np.sum(k(np.matmul(k(np.tanh(k(np.matmul(m, k(m.T))))), m)))),
    movement: (m) =>
      scoped((k) => {
        const steps = k(k(np.arange(0, 3, 1, { dtype: "float32" })).reshape([1, 3]));
        const a = k(k(k(np.flip(k(m.T), 0)).slice([1, 3])).mul(steps));
        const c = k(np.concatenate([m, k(m.mul(2))], 1));
        return k(np.sum(a)).add(k(np.sum(k(c.mul(c)))));
      }),
    softmax_logsumexp: (m) =>
      scoped((k) => k(np.sum(k(k(ox.nn.softmax(m)).mul(m)))).add(k(ox.nn.logsumexp(m)))),
    broadcast_reshape: (m) =>
      scoped((k) => {
        const b = k(k(m.reshape([4, 3])).add(k(np.array([1, 2, 3]))));
        return k(np.sum(k(k(b.mul(b)).mul(b)))).div(10);
      }),
  };
}
