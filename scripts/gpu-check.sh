#!/usr/bin/env bash
# The trainer's GPU checks, carried to a GPU machine that has no Node, no node_modules and no
# Vulkan loader (the device machines of this workplace: an H100/H200 with the NVIDIA driver mounted
# at /usr/local/nvidia, 64 MiB of carried files per run).
#
#   scripts/gpu-check.sh pack          # here: build, then pack Node (xz), the linux-x64 runtime
#                                      # files of node_modules, dist/ and Debian's libvulkan1 into
#                                      # .gpu-carry/ (ignored by git; checked to stay under 64 MiB)
#   scripts/gpu-check.sh run [OUT]     # there (carry .gpu-carry): unpack, point the Vulkan loader at
#                                      # the NVIDIA ICD, run doctor, the checks of bench/gpu-check.ts
#                                      # on webgpu, and the demo with --device webgpu; write to OUT
#                                      # (default $OUT); without a WebGPU adapter, collect why.
#
# Device call (one command): scripts/gpu-check.sh run   with carry [".gpu-carry"].
# Environment: GPU_CHECK_PROVIDER (webgpu), GPU_CHECK_SHAPE (qwen3-0.6b: the decode check's model),
# GPU_CHECK_GRPO_SHAPE (the GRPO step's model; default GPU_CHECK_SHAPE), GPU_CHECK_TOKENS (32),
# GPU_CHECK_ONLY (comma-separated checks of bench/gpu-check.ts; default all),
# GPU_CHECK_BUDGET (seconds for all checks; 0 = unbounded: a check still running then is recorded
# as unfinished, so a device call's time limit still returns the finished ones),
# GPU_CHECK_DEMO (1: run the demo), GPU_CHECK_LOCAL (1: use this machine's node and node_modules —
# how the script's own logic is tested on a machine without a GPU).
# The unpack, the Vulkan ICD, the card's peak and the adapter check are scripts/gpu-carry-lib.sh's
# (shared with scripts/gpu-ab.sh, the same-card A/B of two builds).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/gpu-carry-lib.sh
. "$root/scripts/gpu-carry-lib.sh"
carry="$root/.gpu-carry"
limit=$((64 * 1024 * 1024))

pack() {
  set -e
  cd "$root"
  npx tsc -p tsconfig.build.json
  local stage
  stage=$(mktemp -d)
  mkdir -p "$stage/bin" "$stage/deb" "$stage/app"
  # Node: the official binary needs only glibc; its debug symbols are half its size.
  strip -o "$stage/bin/node" "$(readlink -f "$(command -v node)")" 2>/dev/null || cp "$(readlink -f "$(command -v node)")" "$stage/bin/node"
  # Runtime dependencies only (no dev tools: dist/ is prebuilt), native files for linux-x64 only.
  # (walked from package.json by hand: `npm ls` also lists extraneous packages of a shared node_modules)
  node -e '
    const fs = require("fs"), path = require("path");
    const seen = new Set(), queue = Object.keys(require(path.resolve("package.json")).dependencies || {});
    while (queue.length) {
      const name = queue.shift(), pj = path.join("node_modules", name, "package.json");
      if (seen.has(name) || !fs.existsSync(pj)) continue; // absent: an optional dependency of another platform
      seen.add(name);
      const p = JSON.parse(fs.readFileSync(pj, "utf8"));
      queue.push(...Object.keys(p.dependencies || {}), ...Object.keys(p.optionalDependencies || {}));
    }
    console.log([...seen].sort().map((n) => "node_modules/" + n).join("\n"));
  ' > "$stage/modules.txt"
  tar -C "$root" -cf - \
    --exclude='node_modules/onnxruntime-node/bin/napi-v6/darwin' --exclude='node_modules/onnxruntime-node/bin/napi-v6/win32' \
    --exclude='node_modules/onnxruntime-node/bin/napi-v6/linux/arm64' \
    --exclude='node_modules/better-sqlite3/deps' --exclude='node_modules/better-sqlite3/src' \
    --exclude='node_modules/better-sqlite3/build/Release/obj*' --exclude='node_modules/better-sqlite3/build/Release/.deps' \
    --exclude='node_modules/better-sqlite3/build/deps' --exclude='node_modules/better-sqlite3/build/Release/test_extension.node' \
    --exclude='*.md' --exclude='*.map' --exclude='*.d.ts' \
    -T "$stage/modules.txt" dist | tar -C "$stage/app" -xf -
  # The Vulkan loader, and glvnd: the NVIDIA Vulkan ICD (libGLX_nvidia.so.0) cannot hand out
  # vkCreateInstance without libGLdispatch (measured on an H100, 2026-11: "Could not get
  # 'vkCreateInstance' via 'vk_icdGetInstanceProcAddr'" with the loader alone, an adapter with these).
  (cd "$stage/deb" && apt-get download libvulkan1 libglvnd0 libglx0 libegl1 libgl1 libopengl0 libgles2 >/dev/null 2>&1)
  ls "$stage"/deb/libvulkan1_*.deb >/dev/null
  mkdir -p "$carry"
  rm -f "$carry/bundle.tar.xz"
  tar -C "$stage" -cf - bin deb app | xz -9e -T0 > "$carry/bundle.tar.xz"
  rm -rf "$stage"
  local size
  size=$(du -cb "$carry" | tail -1 | cut -f1)
  echo "packed $carry: $((size / 1024 / 1024)) MiB of the 64 MiB a run may carry (working tree counts too)"
  [ "$size" -lt $((limit - 8 * 1024 * 1024)) ] || { echo "too large: leave 8 MiB for the working tree" >&2; exit 1; }
}

evidence() {
  local f="$1"
  {
    echo "== ldconfig -p | grep -i vulkan"; ldconfig -p 2>&1 | grep -i vulkan || echo "(none)"
    echo "== Vulkan ICD manifests"
    for d in /usr/share/vulkan/icd.d /etc/vulkan/icd.d /usr/local/share/vulkan/icd.d /usr/local/nvidia/share/vulkan/icd.d; do
      for j in "$d"/*.json; do [ -e "$j" ] && { echo "-- $j"; cat "$j"; echo; }; done
    done
    echo "== VK_DRIVER_FILES=${VK_DRIVER_FILES:-} VK_ICD_FILENAMES=${VK_ICD_FILENAMES:-} LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}"
    echo "== /dev/nvidia* /dev/dri"; ls -l /dev/nvidia* /dev/dri 2>&1
    echo "== nvidia-smi"; nvidia-smi 2>&1 | head -30
    echo "== driver libraries (libGLX_nvidia, libnvidia-vulkan, libnvidia-glcore, libnvidia-gpucomp, libEGL_nvidia)"
    find / -xdev \( -name 'libGLX_nvidia*' -o -name 'libnvidia-vulkan*' -o -name 'libnvidia-glcore*' -o -name 'libnvidia-gpucomp*' -o -name 'libEGL_nvidia*' -o -name 'libnvidia-glvkspirv*' \) 2>/dev/null | head -40
    ls -l /usr/local/nvidia/lib64 2>/dev/null | head -60
    echo "== uname"; uname -a
  } > "$f" 2>&1
}

run_checks() {
  local out="${1:-${OUT:-$root/gpu-check-out}}"
  mkdir -p "$out"
  cd "$root"
  local node=node
  if [ "${GPU_CHECK_LOCAL:-0}" != 1 ]; then
    # node_modules and dist/ where Node resolves them from the repository root; the debs into /.
    gpu_carry_unpack "$carry/bundle.tar.xz" /tmp/gpu-env "$root" 1 || { echo "unpack failed at: $GPU_CARRY_STEP" >&2; return 1; }
    node=$GPU_CARRY_NODE
  fi
  gpu_carry_icd
  local provider="${GPU_CHECK_PROVIDER:-webgpu}"
  "$node" --version > "$out/node-version.txt" 2>&1
  "$node" dist/src/cli/main.js doctor --json > "$out/doctor.json" 2> "$out/doctor.stderr.txt"
  local available
  available=$(gpu_carry_available "$node" "$out/doctor.json" "$provider")
  if [ "$available" != 1 ]; then
    echo "provider $provider has no adapter here: collecting the evidence"
    evidence "$out/evidence.txt"
    cat "$out/evidence.txt"
    return 2
  fi
  local peak
  peak=$(gpu_carry_peak)  # dense fp32 (non-tensor-core) peak, TFLOP/s
  # Peak device memory: sample nvidia-smi while the checks run.
  local sampler=""
  if command -v nvidia-smi >/dev/null; then
    nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits -lms 250 > "$out/memory-samples.txt" 2>/dev/null &
    sampler=$!
  fi
  local shape="${GPU_CHECK_SHAPE:-qwen3-0.6b}"
  local args=(--provider "$provider" --shape "$shape" --grpo-shape "${GPU_CHECK_GRPO_SHAPE:-$shape}"
    --new-tokens "${GPU_CHECK_TOKENS:-32}" --peak-tflops "$peak" --budget-seconds "${GPU_CHECK_BUDGET:-0}" --out "$out")
  if [ -n "${GPU_CHECK_ONLY:-}" ]; then args+=(--only "$GPU_CHECK_ONLY"); fi
  "$node" dist/bench/gpu-check.js "${args[@]}" 2>&1 | tee "$out/gpu-check.log"
  local rc=${PIPESTATUS[0]}
  if [ "${GPU_CHECK_DEMO:-1}" = 1 ]; then
    ( time "$node" dist/examples/grpo-sql/demo.js --quick --device "$provider" --run-dir /tmp/gpu-check-demo ) > "$out/demo.log" 2>&1 || rc=1
    tail -5 "$out/demo.log"
  fi
  if [ -n "$sampler" ]; then
    kill "$sampler" 2>/dev/null
    echo "peak device memory: $(sort -n "$out/memory-samples.txt" | tail -1) MiB" | tee -a "$out/gpu-check.md"
    rm -f "$out/memory-samples.txt"
  fi
  return "$rc"
}

case "${1:-}" in
  pack) pack ;;
  run) shift; run_checks "$@" ;;
  *) echo "usage: scripts/gpu-check.sh pack | run [OUT]" >&2; exit 2 ;;
esac
