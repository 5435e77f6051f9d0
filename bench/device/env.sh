# Sourced on the device machine from the repo root: unpacks Deno, points the Vulkan
# loader at the NVIDIA driver with the carried GL libraries, and logs the SM clock.
KIT=$(pwd)/.devkit
[ -x /tmp/deno ] || xz -dc "$KIT/deno.xz" > /tmp/deno && chmod +x /tmp/deno
export DENO=/tmp/deno
export LD_LIBRARY_PATH="$KIT/gl/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}"
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export XDG_RUNTIME_DIR=/tmp
export __GL_SHADER_DISK_CACHE=0
mkdir -p "${OUT:-/tmp/out}"
(nvidia-smi --query-gpu=timestamp,clocks.sm --format=csv -l 1 > "${OUT:-/tmp/out}/clock.csv" 2>&1 &)
