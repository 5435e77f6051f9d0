// Trains a small MLP on the 8×8 digits with valueAndGrad (jitted where this build has jit) and
// Adam (oxjax/optax where present), drawing the loss curve and held-out accuracy as it goes.
import { fail, optax, ox, params, recordTiming, setup, yieldToBrowser } from "../common.js";
import { drawCurve, drawDigits } from "./draw.js";

const { numpy: np, nn, random, tree } = ox;
const $ = (id) => document.getElementById(id);
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

async function main() {
  const { device } = await setup("wasm");
  const data = await (await fetch("../data/digits.json")).json();
  const n = data.count;
  const pixels = Float32Array.from(data.pixels, (c) => data.alphabet.indexOf(c));
  const labels = Int32Array.from(data.labels, Number);
  using raw = np.array(pixels, { shape: [n, 64] });
  using x = raw.div(16);
  using y = np.array(labels);
  using y1h = nn.oneHot(y, 10);
  const train = data.train;
  using xTest = x.slice([train, n]);
  using yTest = y.slice([train, n]);

  const wrap = ox.jit;
  const valueAndGrad = wrap(ox.valueAndGrad(loss));
  const accuracy = wrap((p, xs, ys) => {
    using z = logits(p, xs);
    const pred = np.argmax(z, -1);
    using hit = pred.equal(ys);
    using hitF = hit.astype(np.float32);
    return [hitF.mean(), pred];
  });
  const epochs = Number(params.get("epochs") ?? 10);
  const batches = Math.ceil(train / BATCH);
  const maxSteps = Number(params.get("steps") ?? Infinity); // tests stop early

  async function run() {
    const gen = ++generation;
    window.demo.status = "running";
    document.body.dataset.status = "running";
    // Responsiveness is measured after the first epoch, which compiles every kernel.
    window.demo.runStart = Infinity;
    $("status").textContent = `training on ${device}…`;
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
        $("step").textContent = String(step);
        $("loss").textContent = v.toFixed(4);
        $("ms-step").textContent = `${(total / step).toFixed(1)} ms`;
        drawCurve($("curve"), losses, accs, epochs * batches, batches);
        await yieldToBrowser();
      }
      const [acc, pred] = accuracy(p, xTest, yTest);
      const [a, guesses] = await Promise.all([acc.data(), pred.data()]);
      acc.dispose();
      pred.dispose();
      accs.push(a[0]);
      $("epoch").textContent = String(epoch);
      $("accuracy").textContent = `${(100 * a[0]).toFixed(1)}%`;
      drawCurve($("curve"), losses, accs, epochs * batches, batches);
      drawDigits($("digits"), pixels.subarray(train * 64), labels.subarray(train), guesses);
      Object.assign(window.demo, {
        epoch,
        step,
        loss: losses.at(-1),
        accuracy: a[0],
        losses,
        accs,
      });
      window.demo.liveArrays = ox.memoryStats().liveArrays;
      if (epoch === 1) window.demo.liveArraysAfterFirstEpoch = window.demo.liveArrays;
      if (epoch === 1) window.demo.runStart = performance.now();
      await yieldToBrowser();
    }
    $("ms-devices").textContent = recordTiming("mlp", device, total / step);
    tree.dispose([p, state]);
    if (gen === generation) {
      $("status").textContent = `done: ${epochs} epochs on ${device}`;
      window.demo.status = "done";
      document.body.dataset.status = "done";
    }
  }

  $("restart").addEventListener("click", () => run().catch(fail));
  await run();
}

main().catch(fail);
