#!/usr/bin/env bash
# Builds `.devkit/` (git-ignored through .git/info/exclude) for runs on a GPU machine that has
# NVIDIA's Vulkan driver but no Deno and no Vulkan loader: Deno from node_modules (xz), the
# loader and GL libraries as unpacked Debian packages, `env.sh` (sourced there), the scripts
# of this folder, and the WGSL of the matmul forms for `bench/matmul_tiles.ts`. Run from the
# repo root after `npm ci` and a release build; carry `.devkit`, `pkg` and
# `node_modules/@jax-js` (about 40 MB).
set -euo pipefail
KIT=.devkit
mkdir -p "$KIT"
grep -qx '.devkit' .git/info/exclude 2>/dev/null || echo .devkit >> .git/info/exclude
[ -f "$KIT/deno.xz" ] || xz -T0 -c node_modules/@deno/linux-x64-glibc/deno > "$KIT/deno.xz"
if [ ! -d "$KIT/gl" ]; then
  tmp=$(mktemp -d)
  (cd "$tmp" && apt-get download libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2)
  mkdir -p "$KIT/gl"
  for f in "$tmp"/*.deb; do dpkg -x "$f" "$KIT/gl"; done
  rm -rf "$tmp"
fi
cp bench/device/env.sh bench/device/issue22.sh bench/device/sweep_webgpu.sh "$KIT/"
if [ ! -d "$KIT/mm" ]; then
  mkdir -p "$KIT/mm"
  python3 bench/matmul_variants.py "$KIT/mm" 1024 2048 4096
  cargo run --release --example matmul_wgsl -- "$KIT/mm" 1024 2048 4096
fi
du -sh "$KIT"
