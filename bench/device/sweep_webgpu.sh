# Parts of the webgpu sweep in one device call: `bash .devkit/sweep_webgpu.sh 1 2 3` runs
# SWEEP_PART=k/6 of bench/sweep_webgpu.ts for each k given (each bounded to PART_S seconds,
# default 150; about 110 s each on an H200 with the default 60 ms of steady samples; all six
# in one call: `PART_S=85 SWEEP_STEADY_MS=25 bash .devkit/sweep_webgpu.sh 1 2 3 4 5 6`),
# outputs in $OUT/sweep_k.txt, the SM clock in $OUT/clock.csv. Merge the six parts with
# `node bench/sweep_merge.mjs`.
. .devkit/env.sh
# As bench/sweep.mjs does in Node: freed memory stays in the heap, so a 10⁶-element result's
# fresh 4 MB array is not mapped and faulted in afresh on some calls (either library's).
export MALLOC_MMAP_THRESHOLD_=100000000 MALLOC_TRIM_THRESHOLD_=1000000000
nvidia-smi -L > "$OUT/steps.txt"
for k in "$@"; do
  s=$(date +%s)
  SWEEP_PART=$k/6 timeout "${PART_S:-150}" "$DENO" run -A --unstable-webgpu bench/sweep_webgpu.ts \
    > "$OUT/sweep_$k.txt" 2>&1
  echo "part $k rc=$? $(($(date +%s) - s))s" | tee -a "$OUT/steps.txt"
done
tail -n 3 "$OUT"/sweep_*.txt
