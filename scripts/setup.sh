#!/usr/bin/env bash
# Installs what oxjax's build and tests need, and only what is missing (seconds when all is
# present): the wasm32 Rust target, clippy and rustfmt, the wasm-bindgen CLI pinned to the
# crate's version, npm packages (npm ci, from the lockfile; Deno comes from npm), and Debian's
# Chromium and Mesa Vulkan (lavapipe) for the browser and native WebGPU tests.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { echo "setup: $*"; }
export PATH="$HOME/.cargo/bin:$PATH"

# Rust target and components.
installed_targets=$(rustup target list --installed)
if ! grep -qx wasm32-unknown-unknown <<<"$installed_targets"; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi
installed_components=$(rustup component list --installed)
for c in clippy rustfmt; do
  if ! grep -q "^$c" <<<"$installed_components"; then
    say "adding rustup component $c"
    rustup component add "$c"
  fi
done

# wasm-bindgen CLI: must equal the crate version pinned with '=' in Cargo.toml.
want=$(sed -n 's/^wasm-bindgen = "=\([0-9.]*\)"/\1/p' Cargo.toml)
have=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
if [ "$have" != "$want" ]; then
  say "installing wasm-bindgen-cli $want (found '${have:-none}')"
  cargo install wasm-bindgen-cli --version "$want" --force
fi

# Debian packages: Chromium (Playwright drives the system browser), Mesa's lavapipe Vulkan.
apt_missing=()
[ -x /usr/bin/chromium ] || apt_missing+=(chromium)
compgen -G "/usr/share/vulkan/icd.d/lvp_icd*.json" >/dev/null || apt_missing+=(mesa-vulkan-drivers)
command -v vulkaninfo >/dev/null || apt_missing+=(vulkan-tools)
if [ ${#apt_missing[@]} -gt 0 ]; then
  say "installing Debian packages: ${apt_missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${apt_missing[@]}" >/dev/null
fi

# npm packages (TypeScript, Prettier, Playwright, Deno, the jax-js baseline for benches).
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  say "installing npm packages (npm ci)"
  npm ci --no-audit --no-fund
fi
deno_bin=node_modules/@deno/linux-x64-glibc/deno
if [ ! -x "$deno_bin" ]; then
  echo "setup: Deno binary missing at $deno_bin after npm ci" >&2
  exit 1
fi
say "ready"
