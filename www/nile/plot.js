// Draws the Nile series, the smoothed level and its 95% band on a canvas (no libraries).
import { fitCanvas } from "../canvas.js";

const PAD = { left: 52, right: 12, top: 12, bottom: 28 };

export function drawNile(canvas, years, flow, level, lo, hi) {
  const [ctx, w, h] = fitCanvas(canvas);
  const [x0, x1] = [years[0], years[years.length - 1]];
  const [y0, y1] = [400, 1450];
  const X = (t) => PAD.left + ((t - x0) / (x1 - x0)) * (w - PAD.left - PAD.right);
  const Y = (v) => h - PAD.bottom - ((v - y0) / (y1 - y0)) * (h - PAD.top - PAD.bottom);

  ctx.strokeStyle = "#ccc";
  ctx.fillStyle = "#555";
  ctx.lineWidth = 1;
  for (let v = 400; v <= 1400; v += 200) {
    ctx.beginPath();
    ctx.moveTo(PAD.left, Y(v));
    ctx.lineTo(w - PAD.right, Y(v));
    ctx.stroke();
    ctx.fillText(String(v), 8, Y(v) + 4);
  }
  for (let t = 1880; t <= 1970; t += 10) ctx.fillText(String(t), X(t) - 14, h - 8);

  if (level) {
    ctx.fillStyle = "rgba(40, 110, 200, 0.18)";
    ctx.beginPath();
    years.forEach((t, i) => (i ? ctx.lineTo(X(t), Y(hi[i])) : ctx.moveTo(X(t), Y(hi[i]))));
    for (let i = years.length - 1; i >= 0; i--) ctx.lineTo(X(years[i]), Y(lo[i]));
    ctx.closePath();
    ctx.fill();
    ctx.strokeStyle = "#1f5fb4";
    ctx.lineWidth = 2;
    ctx.beginPath();
    years.forEach((t, i) => (i ? ctx.lineTo(X(t), Y(level[i])) : ctx.moveTo(X(t), Y(level[i]))));
    ctx.stroke();
  }
  ctx.fillStyle = "#333";
  years.forEach((t, i) => {
    ctx.beginPath();
    ctx.arc(X(t), Y(flow[i]), 2.2, 0, 2 * Math.PI);
    ctx.fill();
  });
}
