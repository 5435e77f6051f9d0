// Shared by the demo workers' drawings: a 2-d context on a canvas the page handed over as an
// OffscreenCanvas (`{ canvas, width, height, dpr }`, width and height its CSS size).

/** The context, the canvas sized to its CSS box at the page's pixel ratio and cleared. */
export function fitCanvas(target) {
  const { canvas, width: w, height: h, dpr } = target;
  if (canvas.width !== Math.round(w * dpr) || canvas.height !== Math.round(h * dpr)) {
    canvas.width = Math.round(w * dpr);
    canvas.height = Math.round(h * dpr);
  }
  const ctx = canvas.getContext("2d");
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, w, h);
  ctx.font = "11px system-ui, sans-serif";
  return [ctx, w, h];
}
