# shellcheck shell=bash
# Shared by scripts/gpu-check.sh and scripts/gpu-ab.sh (sourced, not run): unpacking the bundle of
# `scripts/gpu-check.sh pack` on a bare GPU machine, the Vulkan ICD, the card's fp32 peak, and
# whether doctor found a provider's adapter. The callers set `-uo pipefail`; nothing here exits.

# gpu_carry_unpack BUNDLE ENV ROOT SYSTEM
# Empties ENV and unpacks BUNDLE (bundle.tar.xz: bin/node, deb/*.deb, app/ with node_modules and
# dist) into it; copies ENV/app/. into ROOT, where Node resolves node_modules and dist from. SYSTEM=1
# also extracts the Vulkan loader and glvnd debs into / and runs ldconfig (SYSTEM=0 leaves the
# system alone: how the unpack is tested on a machine without a GPU). Sets GPU_CARRY_NODE (the
# carried node). Returns 1 on the first failing step, named in GPU_CARRY_STEP.
gpu_carry_unpack() {
  local bundle=$1 env=$2 root=$3 system=$4 d
  GPU_CARRY_NODE="$env/bin/node"
  GPU_CARRY_STEP="mkdir $env"
  { rm -rf "$env" && mkdir -p "$env"; } || return 1
  GPU_CARRY_STEP="unpack $bundle"
  xz -dc "$bundle" | tar -C "$env" -xf - || return 1
  GPU_CARRY_STEP="cp $env/app/. $root/"
  cp -a "$env/app/." "$root/" || return 1
  if [ "$system" = 1 ]; then
    for d in "$env"/deb/*.deb; do
      GPU_CARRY_STEP="dpkg -x $d /"
      dpkg -x "$d" / || return 1
    done
    GPU_CARRY_STEP=ldconfig
    ldconfig || return 1
  fi
  GPU_CARRY_STEP=""
}

# gpu_carry_icd: point the Vulkan loader at the NVIDIA ICD of the mounted driver, where there is one.
gpu_carry_icd() {
  local icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
  if [ -f "$icd" ]; then export VK_DRIVER_FILES="$icd" VK_ICD_FILENAMES="$icd"; fi
}

# gpu_carry_peak: the card's dense fp32 (non-tensor-core) peak in TFLOP/s, 0 when unknown (or no card).
gpu_carry_peak() {
  case "$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null)" in
    *H100*SXM*|*"H100 80GB HBM3"*|*H200*) echo 67 ;;
    *H100*PCIe*) echo 51 ;;
    *) echo 0 ;;
  esac
}

# gpu_carry_available NODE DOCTOR_JSON PROVIDER: prints 1 when `doctor --json` (in DOCTOR_JSON)
# found the provider's adapter, else 0 (nothing when DOCTOR_JSON is unreadable).
gpu_carry_available() {
  "$1" -e "const r=JSON.parse(require('fs').readFileSync(process.argv[1],'utf8'));console.log(r.providers.find(p=>p.provider===process.argv[2])?.available?1:0)" "$2" "$3"
}
