// Canvas drawings of the MLP page: the loss curve with held-out accuracy, and digit thumbnails.
import { fitCanvas as fit } from "../canvas.js";

/** Loss per step (left axis, log scale) and held-out accuracy per epoch (right axis). */
export function drawCurve(canvas, losses, accs, totalSteps, stepsPerEpoch) {
  const [ctx, w, h] = fit(canvas);
  const pad = { l: 44, r: 44, t: 10, b: 22 };
  const X = (s) => pad.l + (s / totalSteps) * (w - pad.l - pad.r);
  const [lo, hi] = [Math.log(0.02), Math.log(3)];
  const YL = (v) =>
    h - pad.b - ((Math.log(Math.max(v, 0.02)) - lo) / (hi - lo)) * (h - pad.t - pad.b);
  const YA = (a) => h - pad.b - a * (h - pad.t - pad.b);
  ctx.strokeStyle = "#ddd";
  ctx.fillStyle = "#555";
  for (const v of [0.05, 0.1, 0.5, 1, 2]) {
    ctx.beginPath();
    ctx.moveTo(pad.l, YL(v));
    ctx.lineTo(w - pad.r, YL(v));
    ctx.stroke();
    ctx.fillText(String(v), 6, YL(v) + 4);
  }
  for (const a of [0.5, 0.9, 1]) ctx.fillText(`${a * 100}%`, w - pad.r + 6, YA(a) + 4);
  ctx.fillText("loss", pad.l + 4, pad.t + 10);
  ctx.fillText("step", w - pad.r - 24, h - 6);
  ctx.strokeStyle = "#1f5fb4";
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  losses.forEach((v, i) => (i ? ctx.lineTo(X(i + 1), YL(v)) : ctx.moveTo(X(i + 1), YL(v))));
  ctx.stroke();
  ctx.strokeStyle = ctx.fillStyle = "#c2410c";
  ctx.beginPath();
  accs.forEach((a, i) => {
    const s = (i + 1) * stepsPerEpoch;
    if (i) ctx.lineTo(X(s), YA(a));
    else ctx.moveTo(X(s), YA(a));
  });
  ctx.stroke();
  accs.forEach((a, i) => {
    ctx.beginPath();
    ctx.arc(X((i + 1) * stepsPerEpoch), YA(a), 3, 0, 2 * Math.PI);
    ctx.fill();
  });
}

/** The first held-out digits (pixels 0..16) with the predicted label, red when wrong. */
export function drawDigits(canvas, pixels, labels, guesses) {
  const [ctx, w, h] = fit(canvas);
  const cell = 8 * 6;
  const count = Math.min(Math.floor(w / (cell + 12)), labels.length);
  for (let k = 0; k < count; k++) {
    const x0 = k * (cell + 12);
    for (let i = 0; i < 64; i++) {
      const g = 255 - Math.round((pixels[k * 64 + i] / 16) * 255);
      ctx.fillStyle = `rgb(${g},${g},${g})`;
      ctx.fillRect(x0 + (i % 8) * 6, Math.floor(i / 8) * 6, 6, 6);
    }
    ctx.fillStyle = guesses[k] === labels[k] ? "#176b2c" : "#b00020";
    ctx.font = "14px system-ui, sans-serif";
    ctx.fillText(String(guesses[k]), x0 + cell / 2 - 4, h - 4);
  }
}
