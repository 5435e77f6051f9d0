// The MLP demo's worker: trains a small MLP on the 8×8 digits with jit(valueAndGrad) and Adam
// from oxjax/optax, drawing the loss curve, the held-out accuracy and some held-out digits with
// the network's answers on the page's canvases, and posting the numbers to the page.
import { breathe, loadData, optax, ox, post, publish, serve, status } from "../compute.js";
import { drawCurve, drawDigits } from "./draw.js";

const { numpy: np, nn, random, tree } = ox;
const HIDDEN = 64;
const BATCH = 100;
const LR = 0.01;

let generation = 0;

/** He-initialised weights and zero biases from one PRNG key. */
function initParams(seed) {
  using key = random.key(seed);
  using keys = random.split(key, 2);
  using k1 = keys.slice(0);
  using k2 = keys.slice(1);
  using n1 = random.normal(k1, [64, HIDDEN]);
  using n2 = random.normal(k2, [HIDDEN, 10]);
  return {
    w1: n1.mul(Math.sqrt(2 / 64)),
    b1: np.zeros([HIDDEN]),
    w2: n2.mul(Math.sqrt(2 / HIDDEN)),
    b2: np.zeros([10]),
  };
}

function logits(p, x) {
  using h0 = np.matmul(x, p.w1);
  using h1 = h0.add(p.b1);
  using h = nn.relu(h1);
  using z = np.matmul(h, p.w2);
  return z.add(p.b2);
}

/** Mean softmax cross-entropy of a batch. */
function loss(p, x, y1h) {
  using z = logits(p, x);
  using lp = nn.logSoftmax(z);
  using picked = lp.mul(y1h);
  using total = picked.sum();
  return total.mul(-1 / x.shape[0]);
}

serve(async ({ device, params, canvases, on }) => {
  const data = await loadData("digits.json");
  const n = data.count;
  const train = data.train;
  const pixels = Float32Array.from(data.pixels, (c) => data.alphabet.indexOf(c));
  const labels = Int32Array.from(data.labels, Number);
  const epochs = Number(params.get("epochs") ?? 10);
  const batches = Math.ceil(train / BATCH);
  const maxSteps = Number(params.get("steps") ?? Infinity); // tests stop early
  const raw = np.array(pixels, { shape: [n, 64] });
  const x = raw.div(16);
  const y = np.array(labels);
  const y1h = nn.oneHot(y, 10);
  const xTest = x.slice([train, n]);
  const yTest = y.slice([train, n]);
  raw.dispose();

  const valueAndGrad = ox.jit(ox.valueAndGrad(loss));
  const accuracy = ox.jit((p, xs, ys) => {
    using z = logits(p, xs);
    const pred = np.argmax(z, -1);
    using hit = pred.equal(ys);
    using hitF = hit.astype(np.float32);
    return [hitF.mean(), pred];
  });

  async function run() {
    const gen = ++generation;
    status(`training on ${device}…`, "running");
    const optimizer = optax.adam(LR);
    let p = initParams(0);
    let state = optimizer.init(p);
    const losses = [];
    const accs = [];
    let total = 0;
    let step = 0;
    for (let epoch = 1; epoch <= epochs && step < maxSteps && gen === generation; epoch++) {
      for (let b = 0; b < batches && step < maxSteps && gen === generation; b++) {
        const t0 = performance.now();
        using xb = x.slice([b * BATCH, Math.min((b + 1) * BATCH, train)]);
        using yb = y1h.slice([b * BATCH, Math.min((b + 1) * BATCH, train)]);
        const [value, grads] = valueAndGrad(p, xb, yb);
        const [updates, s2] = optimizer.update(grads, state, p);
        const next = optax.applyUpdates(p, updates);
        tree.dispose([updates, state]);
        state = s2;
        tree.dispose([grads, p]);
        p = next;
        const v = (await value.data())[0];
        value.dispose();
        step++;
        total += performance.now() - t0;
        losses.push(v);
        post("step", { step, loss: v, msPerStep: total / step });
        drawCurve(canvases.curve, losses, accs, epochs * batches, batches);
        await breathe();
      }
      const [acc, pred] = accuracy(p, xTest, yTest);
      const [a, guesses] = await Promise.all([acc.data(), pred.data()]);
      acc.dispose();
      pred.dispose();
      accs.push(a[0]);
      const live = ox.memoryStats().liveArrays;
      publish({
        epoch,
        step,
        loss: losses.at(-1),
        accuracy: a[0],
        losses,
        accs,
        liveArrays: live,
        ...(epoch === 1 ? { liveArraysAfterFirstEpoch: live } : {}),
      });
      post("epoch", { epoch, accuracy: a[0] });
      drawCurve(canvases.curve, losses, accs, epochs * batches, batches);
      drawDigits(canvases.digits, pixels.subarray(train * 64), labels.subarray(train), guesses);
      await breathe();
    }
    tree.dispose([p, state]);
    if (gen === generation) {
      post("done", { msPerStep: total / step });
      status(`done: ${epochs} epochs on ${device}`, "done");
    }
  }

  on("restart", run);
  await run();
});
