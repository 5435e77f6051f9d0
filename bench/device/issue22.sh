# The issue-22 measurements in two device calls of at most ~7 minutes each: run from the repo
# root on the GPU machine as `bash .devkit/issue22.sh table` (bench/webgpu.ts, scan lengths and
# costs, host cost) and `bash .devkit/issue22.sh forms` (the matmul shaders, the elementwise
# probe, the kept chain with the wide elementwise form off and on), carrying .devkit, pkg and
# node_modules/@jax-js. Each step is bounded; full outputs land in $OUT (at most 8 files come
# back), the SM clock in $OUT/clock.csv.
. .devkit/env.sh
nvidia-smi -L > "$OUT/steps.txt"
nvidia-smi --query-gpu=driver_version --format=csv >> "$OUT/steps.txt"
t() {
  local lim=$1 name=$2 s
  shift 2
  s=$(date +%s)
  timeout "$lim" "$@" > "$OUT/$name.txt" 2>&1
  echo "$name rc=$? $(($(date +%s) - s))s" | tee -a "$OUT/steps.txt"
}
if [ "${1:-table}" = table ]; then
t 230 webgpu "$DENO" run -A --unstable-webgpu bench/webgpu.ts
t 60 scan_lengths "$DENO" run -A --unstable-webgpu bench/scan_lengths.ts
t 70 scan_costs "$DENO" run -A --unstable-webgpu bench/scan_costs.ts
t 30 host_eager "$DENO" run -A --unstable-webgpu bench/host_cost.ts eager
grep "^|" "$OUT/webgpu.txt" | head -40
else
t 130 mm_tiles "$DENO" run -A --unstable-webgpu bench/matmul_tiles.ts .devkit/mm
t 40 probe_ew "$DENO" run -A --unstable-webgpu bench/webgpu_probe.ts ew
# The kept chain with elementwise kernels one element per invocation (OXJAX_WIDE=0, the
# default) and four (1), alternating; appended to probe_ew.txt (at most 8 files come back).
for w in 0 1 1 0; do
  echo "== OXJAX_WIDE=$w" >> "$OUT/probe_ew.txt"
  OXJAX_WIDE=$w timeout 45 "$DENO" run -A --unstable-webgpu bench/webgpu.ts chain \
    >> "$OUT/probe_ew.txt" 2>&1
done
grep "^ew\|^| chain" "$OUT/probe_ew.txt"
fi
