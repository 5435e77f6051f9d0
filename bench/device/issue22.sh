# The issue-22 table in one device call (about 9 minutes): run from the repo root on the GPU
# machine as `bash .devkit/issue22.sh`, carrying .devkit, pkg and node_modules/@jax-js. Each
# step is bounded; full outputs land in $OUT (at most 8 files come back), the SM clock in
# $OUT/clock.csv.
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
t 230 webgpu "$DENO" run -A --unstable-webgpu bench/webgpu.ts
t 60 scan_lengths "$DENO" run -A --unstable-webgpu bench/scan_lengths.ts
t 70 scan_costs "$DENO" run -A --unstable-webgpu bench/scan_costs.ts
t 30 host_eager "$DENO" run -A --unstable-webgpu bench/host_cost.ts eager
t 130 mm_tiles "$DENO" run -A --unstable-webgpu bench/matmul_tiles.ts .devkit/mm
t 40 probe_ew "$DENO" run -A --unstable-webgpu bench/webgpu_probe.ts ew
grep "^|" "$OUT/webgpu.txt" | head -40
