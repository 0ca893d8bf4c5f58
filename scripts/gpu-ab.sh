#!/usr/bin/env bash
# Same-card A/B of bench/gpu-check.ts's checks (by default the GRPO LoRA step): build A, an earlier
# revision, against build B, this checkout, in one device call, so both run on the same card, driver
# and machine (device machines differ from call to call: compare timings only within one call).
#
#   scripts/gpu-ab.sh pack REV         # here: `scripts/gpu-check.sh pack` for this checkout (build B:
#                                      # .gpu-carry/bundle.tar.xz), then build REV (build A) from
#                                      # `git archive REV` in a temporary folder with this checkout's
#                                      # node_modules linked, and pack its package.json and dist/**/*.js
#                                      # into .gpu-carry/app-a.tar.xz; .gpu-carry/builds.txt names both
#                                      # builds. REV's package.json dependencies must equal this
#                                      # checkout's: build A runs on build B's node_modules.
#   scripts/gpu-ab.sh run [OUT]        # there (carry .gpu-carry): unpack as `scripts/gpu-check.sh run`
#                                      # does, build A into $AB_ENV/app-a (node_modules, data and
#                                      # models linked to the repository root's, so both builds get
#                                      # the same tokenizer and random model); doctor (build B) checks
#                                      # the provider's adapter; then each build in AB_ORDER runs
#                                      # dist/bench/gpu-check.js with its own TMPDIR (the random model,
#                                      # 2.4 GB at 0.6B, removed afterwards), a hard timeout, and
#                                      # nvidia-smi sampling the device memory. Writes to OUT (default
#                                      # $OUT, else /tmp/gpu-ab-out).
#
# Device call (one command): scripts/gpu-ab.sh run   with carry [".gpu-carry"].
# Local test of the run (no GPU, nothing installed into /):
#   AB_LOCAL=1 AB_PROVIDER=cpu AB_SHAPE=small AB_BUDGET=60 scripts/gpu-ab.sh run /tmp/gpu-ab-out
# from a fresh copy of the repository (`git archive HEAD` with .gpu-carry copied in): the run copies
# the bundle's dist/ and node_modules into the repository root.
#
# Environment (run): AB_PROVIDER (webgpu), AB_SHAPE (qwen3-0.6b), AB_ONLY (grpo-lora: gpu-check's
# --only, comma-separated), AB_TOKENS (32: --new-tokens), AB_BUDGET (180: gpu-check's own
# --budget-seconds per build, model creation included), AB_HARD (AB_BUDGET + 30: `timeout` per
# build, then SIGKILL 10 s later), AB_ORDER ("a b"), AB_LOCAL (0; 1: skip the steps that touch the
# system, dpkg -x into / and ldconfig, and nvidia-smi), AB_ENV (/tmp/gpu-env: the unpacked bundle,
# build A, each build's TMPDIR and --out), OUT.
# Files written to OUT: ab-times.txt (the builds' commits, phase wall times, each build's rc and peak
# device memory and the step table of its gpu-check.md), setup.log (unpack, node, doctor),
# nvidia-smi.txt, a.log, a-gpu-check.json, b.log, b-gpu-check.json.
# Exit status: 0 both builds passed; 1 unpack failed or a build failed (or timed out); 2 no adapter.
# The unpack, the Vulkan ICD, the card's peak and the adapter check are scripts/gpu-carry-lib.sh's.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
carry="$root/.gpu-carry"
limit=$((64 * 1024 * 1024))
# shellcheck source=scripts/gpu-carry-lib.sh
. "$root/scripts/gpu-carry-lib.sh"

# One line per build for builds.txt: short hash and subject (shortened).
describe() { git -C "$root" log -1 --format='%h %s' "$1" | cut -c1-120; }

pack() {
  set -e
  local rev=${1:-}
  [ -n "$rev" ] || { echo "usage: scripts/gpu-ab.sh pack REV" >&2; exit 2; }
  cd "$root"
  local sha
  sha=$(git rev-parse --verify --quiet "$rev^{commit}") || { echo "gpu-ab.sh pack: $rev is not a commit" >&2; exit 1; }
  git cat-file -e "$sha:package.json" 2>/dev/null || { echo "gpu-ab.sh pack: $rev has no package.json" >&2; exit 1; }
  # Build A runs on build B's node_modules (this checkout's, carried in bundle.tar.xz): its runtime
  # dependencies must be the same. A devDependencies difference (the compiler, types) only warns.
  git show "$sha:package.json" | node -e '
    const fs = require("fs");
    const a = JSON.parse(fs.readFileSync(0, "utf8")), b = JSON.parse(fs.readFileSync("package.json", "utf8"));
    const differ = (field) => {
      const x = a[field] || {}, y = b[field] || {};
      return [...new Set([...Object.keys(x), ...Object.keys(y)])].sort().filter((k) => x[k] !== y[k])
        .map((k) => `  ${field} ${k}: ${process.argv[1]} has ${x[k] ?? "(none)"}, this checkout ${y[k] ?? "(none)"}`);
    };
    const dev = differ("devDependencies");
    if (dev.length) console.error(`gpu-ab.sh pack: warning: devDependencies differ (build A is compiled with this checkout\x27s):\n${dev.join("\n")}`);
    const run = ["dependencies", "optionalDependencies", "peerDependencies"].flatMap(differ);
    if (run.length) {
      console.error(`gpu-ab.sh pack: ${process.argv[1]}\x27s package.json dependencies differ from this checkout\x27s, so build A cannot share this checkout\x27s node_modules (build B\x27s, the ones carried):\n${run.join("\n")}`);
      process.exit(1);
    }
  ' "$rev" || exit 1
  mkdir -p "$carry"
  rm -f "$carry/app-a.tar.xz" "$carry/builds.txt"

  # Build B: this checkout, as gpu-check.sh packs it.
  "$root/scripts/gpu-check.sh" pack

  # Build A: REV's tracked files, compiled against the same node_modules.
  local stage
  stage=$(mktemp -d)
  # shellcheck disable=SC2064  # expand now: $stage is local
  trap "rm -rf '$stage'" EXIT
  mkdir -p "$stage/src"
  git archive "$sha" | tar -C "$stage/src" -xf -
  ln -s "$(readlink -f "$root/node_modules")" "$stage/src/node_modules"
  echo "building $rev ($sha) in $stage/src"
  (cd "$stage/src" && npx tsc -p tsconfig.build.json)
  (cd "$stage/src" && { echo package.json; find dist -type f -name '*.js' | sort; }) > "$stage/files.txt"
  tar -C "$stage/src" -cf - -T "$stage/files.txt" | xz -9e -T0 > "$carry/app-a.tar.xz"
  echo "packed $carry/app-a.tar.xz: $(($(wc -l < "$stage/files.txt") - 1)) dist files, $(($(stat -c %s "$carry/app-a.tar.xz") / 1024)) KiB"

  local dirty=""
  [ -z "$(git status --porcelain --untracked-files=no)" ] || dirty=" (+ uncommitted changes)"
  {
    echo "build a: $(describe "$sha")"
    echo "build b: $(describe HEAD)$dirty"
  } > "$carry/builds.txt"
  cat "$carry/builds.txt"
  local size
  size=$(du -cb "$carry" | tail -1 | cut -f1)
  echo "packed $carry: $((size / 1024 / 1024)) MiB of the 64 MiB a run may carry (working tree counts too)"
  [ "$size" -lt $((limit - 8 * 1024 * 1024)) ] || { echo "too large: leave 8 MiB for the working tree" >&2; exit 1; }
}

run_ab() {
  local out=${1:-${OUT:-/tmp/gpu-ab-out}}
  local provider=${AB_PROVIDER:-webgpu}
  local shape=${AB_SHAPE:-qwen3-0.6b}
  local only=${AB_ONLY:-grpo-lora}
  local tokens=${AB_TOKENS:-32}
  local budget=${AB_BUDGET:-180}
  local hard=${AB_HARD:-$((budget + 30))}
  local order=${AB_ORDER:-a b}
  local local_run=${AB_LOCAL:-0}
  local env=${AB_ENV:-/tmp/gpu-env}
  mkdir -p "$out"
  times="$out/ab-times.txt"
  setup="$out/setup.log"
  : > "$times"
  : > "$setup"
  local t_start t
  t_start=$(date +%s.%N)

  note "gpu-ab.sh: provider=$provider shape=$shape only=$only tokens=$tokens budget=${budget}s hard=${hard}s order='$order' local=$local_run"
  if [ -f "$carry/builds.txt" ]; then cat "$carry/builds.txt" >> "$times"; else note "(no .gpu-carry/builds.txt)"; fi

  # --- unpack: the bundle as gpu-check.sh run does (AB_LOCAL=1: not into /), build A beside it ---
  t=$(date +%s.%N)
  local system=1
  [ "$local_run" != 1 ] || system=0
  gpu_carry_unpack "$carry/bundle.tar.xz" "$env" "$root" "$system" >> "$setup" 2>&1 || fail "$GPU_CARRY_STEP"
  mkdir -p "$env/app-a" || fail "mkdir $env/app-a"
  xz -dc "$carry/app-a.tar.xz" 2>>"$setup" | tar -C "$env/app-a" -xf - 2>>"$setup" || fail "unpack app-a.tar.xz"
  local d
  for d in node_modules data models; do ln -sfn "$root/$d" "$env/app-a/$d" || fail "ln $d"; done
  node=$GPU_CARRY_NODE
  note "phase unpack: $(since "$t") s"
  gpu_carry_icd

  # --- the card, and whether the provider has an adapter (build B's doctor) ---
  t=$(date +%s.%N)
  if [ "$local_run" != 1 ] && command -v nvidia-smi >/dev/null; then
    { nvidia-smi; nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.sm,power.limit,temperature.gpu --format=csv; } > "$out/nvidia-smi.txt" 2>&1
  else
    echo "(no nvidia-smi: local run)" > "$out/nvidia-smi.txt"
  fi
  peak=$(gpu_carry_peak)
  { echo "== node"; "$node" --version; } >> "$setup" 2>&1
  (cd "$root" && "$node" dist/src/cli/main.js doctor --json) > "$env/doctor.json" 2>> "$setup"
  { echo "== doctor (build B)"; cat "$env/doctor.json"; } >> "$setup"
  local available
  available=$(gpu_carry_available "$node" "$env/doctor.json" "$provider" 2>> "$setup")
  note "phase doctor: $(since "$t") s (provider $provider available: ${available:-?}; peak-tflops $peak)"
  if [ "$available" != 1 ]; then
    note "provider $provider has no adapter: no A/B run (evidence in setup.log)"
    { echo "== ldconfig vulkan"; ldconfig -p | grep -i -e vulkan -e GLdispatch; ls -l /usr/local/nvidia/share/vulkan/icd.d /dev/nvidia* 2>&1; } >> "$setup" 2>&1
    return 2
  fi

  status=0
  local b
  for b in $order; do
    case "$b" in
      a) run_build a "$env/app-a" ;;
      b) run_build b "$root" ;;
      *) note "unknown build '$b' in AB_ORDER (a, b)"; status=1 ;;
    esac
  done
  note "total: $(since "$t_start") s"
  return "$status"
}

since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
note() { echo "$*" | tee -a "$times"; }
fail() { note "unpack FAILED at: $* (see setup.log)"; exit 1; }

# One build: its own TMPDIR and --out under AB_ENV, a hard timeout, device memory sampled.
# Uses run_ab's settings (bash's dynamic scope) and sets status=1 when the build fails.
run_build() {
  local name=$1 dir=$2
  local o="$env/out-$name" tmp="$env/tmp-$name" mem_samples="$env/mem-$name.txt"
  rm -rf "$o" "$tmp"
  mkdir -p "$o" "$tmp"
  local sampler=""
  if [ "$local_run" != 1 ] && command -v nvidia-smi >/dev/null; then
    nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits -lms 250 > "$mem_samples" 2>/dev/null &
    sampler=$!
  fi
  note "$(grep "^build $name:" "$carry/builds.txt" 2>/dev/null || echo "build $name: (not in builds.txt)")"
  local t rc wall mem="-"
  t=$(date +%s.%N)
  (cd "$dir" && TMPDIR="$tmp" timeout -k 10 "$hard" "$node" dist/bench/gpu-check.js --provider "$provider" --shape "$shape" \
    --new-tokens "$tokens" --peak-tflops "$peak" --budget-seconds "$budget" --only "$only" --out "$o") > "$out/$name.log" 2>&1
  rc=$?
  wall=$(since "$t")
  if [ -n "$sampler" ]; then
    kill "$sampler" 2>/dev/null
    wait "$sampler" 2>/dev/null
    mem="$(sort -n "$mem_samples" | tail -1) MiB"
  fi
  [ -f "$o/gpu-check.json" ] && cp "$o/gpu-check.json" "$out/$name-gpu-check.json"
  rm -rf "$tmp"
  note "phase build $name ($dir): $wall s, rc $rc$([ "$rc" = 124 ] || [ "$rc" = 137 ] && echo ' (hard timeout)'), peak device memory $mem"
  if [ -f "$o/gpu-check.md" ]; then grep '^|' "$o/gpu-check.md" | tee -a "$times"; grep '^## ' "$o/gpu-check.md" | tee -a "$times"; fi
  tail -3 "$out/$name.log" | sed "s/^/  $name.log: /" | tee -a "$times"
  [ "$rc" = 0 ] || status=1
}

case "${1:-}" in
  pack) shift; pack "$@" ;;
  run) shift; run_ab "$@" ;;
  *) echo "usage: scripts/gpu-ab.sh pack REV | run [OUT]" >&2; exit 2 ;;
esac
