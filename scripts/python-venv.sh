#!/usr/bin/env bash
# Create (or reuse) the Python venv that sqlenv's framework tests run against — TRL's
# GRPOTrainer, Gymnasium's check_env and vector envs, transformers' tokenizers, PyTorch — from
# the machine's LOCAL package index only, and print its interpreter's path on stdout.
#
#   scripts/python-venv.sh            # prints e.g. /root/.cache/sqlenv/venv-3f2a9c01d4e5/bin/python
#   export SQLENV_PYTHON="$(scripts/python-venv.sh)"   # what .ci/run and the tests do
#
# The venv lives in ${SQLENV_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sqlenv}/venv-<hash>, where
# <hash> covers scripts/python-requirements.txt (every package pinned), the base interpreter's
# version and the index locations: change any of them and a fresh venv is built beside the old
# one. A venv is reused only when its build finished (a marker written last) and its interpreter
# still runs and finds every required module. Concurrent callers (parallel CI jobs, several test
# runs) wait on a lock instead of building twice.
#
# Why the local index alone: pip's default index is unreachable on these machines and its
# retries stretch an install to ~8 minutes, so pip is run with the local indexes as its ONLY
# sources (its global config is ignored) and no retries.
#
# Exit status: 0 ready (path on stdout); 2 no local index here (nothing to install from — the
# tests that need the venv skip and say so); 1 the build failed or ran past its time bound.
#
# Environment:
#   SQLENV_PYPI_INDEX     space-separated index URLs (default: file:///opt/pypi/simple file:///opt/pypi-more/simple)
#   SQLENV_PYPI_WHEELS    a find-links directory (default: /opt/wheels; skipped when absent)
#   SQLENV_PYTHON_BASE    the interpreter the venv is made from (default: python3.11, else python3)
#   SQLENV_VENV_TIMEOUT   seconds the whole build may take (default: 900)
#   SQLENV_CACHE          where venvs are cached (see above)
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
requirements="$here/python-requirements.txt"
indexes=(${SQLENV_PYPI_INDEX:-file:///opt/pypi/simple file:///opt/pypi-more/simple})
wheels="${SQLENV_PYPI_WHEELS:-/opt/wheels}"
limit="${SQLENV_VENV_TIMEOUT:-900}"
cache="${SQLENV_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sqlenv}"
# The modules the tests import (top-level names; a venv missing one is rebuilt).
modules=(torch transformers trl gymnasium numpy msgpack websockets safetensors datasets accelerate)

log() { echo "python-venv: $*" >&2; }

# The local index must be there: a file:// index is a directory; anything else is the caller's
# choice of server and is tried as is.
available=()
for url in "${indexes[@]}"; do
  if [[ "$url" == file://* ]]; then
    [ -d "${url#file://}" ] && available+=("$url")
  else
    available+=("$url")
  fi
done
if [ "${#available[@]}" -eq 0 ]; then
  log "no local Python index (looked for ${indexes[*]}); not building the venv"
  exit 2
fi

base="${SQLENV_PYTHON_BASE:-}"
if [ -z "$base" ]; then
  if command -v python3.11 >/dev/null 2>&1; then base=python3.11; else base=python3; fi
fi
base_version="$("$base" -c 'import sys; print("%d.%d.%d" % sys.version_info[:3])' 2>/dev/null)" || {
  log "the base interpreter '$base' does not run (set SQLENV_PYTHON_BASE)"
  exit 1
}

hash="$( { cat "$requirements"; echo "$base_version"; echo "${available[*]}"; } | sha256sum | cut -c1-12)"
venv="$cache/venv-$hash"
python="$venv/bin/python"
marker="$venv/.sqlenv-ready"

usable() {
  [ -f "$marker" ] && "$python" - "${modules[@]}" <<'EOF' >/dev/null 2>&1
import importlib.util, sys
missing = [m for m in sys.argv[1:] if importlib.util.find_spec(m) is None]
sys.exit(1 if missing else 0)
EOF
}

if usable; then
  echo "$python"
  exit 0
fi

mkdir -p "$cache"
exec 9>"$venv.lock"
if ! flock -w "$limit" 9; then
  log "waited ${limit}s for another build of $venv; giving up"
  exit 1
fi
# Another caller may have built it while this one waited.
if usable; then
  echo "$python"
  exit 0
fi

start=$(date +%s)
log "building $venv from ${available[*]} (Python $base_version; bounded to ${limit}s)"
rm -rf "$venv"
"$base" -m venv "$venv"
sources=(--index-url "${available[0]}")
for url in "${available[@]:1}"; do sources+=(--extra-index-url "$url"); done
[ -d "$wheels" ] && sources+=(--find-links "$wheels")
# PIP_CONFIG_FILE=/dev/null: the machine's pip config adds indexes and a 180 s timeout; only the
# sources above may be used. --retries 0: a source that fails fails now, not after minutes.
# The grep drops pip's warning for every package an index lacks (each index holds a part).
set +e
PIP_CONFIG_FILE=/dev/null timeout "$limit" "$python" -m pip install \
  --no-input --disable-pip-version-check --retries 0 --timeout 30 --progress-bar off -q \
  "${sources[@]}" -r "$requirements" 2>&1 | grep -v 'is ignored: it is neither a file nor a directory' >&2
status=${PIPESTATUS[0]}
set -e
if [ "$status" -ne 0 ]; then
  log "pip install failed or ran past ${limit}s; removing the partial venv"
  rm -rf "$venv"
  exit 1
fi
# A real import of everything once, at build time (reuse checks only that the modules are found).
if ! "$python" -c "import $(IFS=,; echo "${modules[*]}")" >&2; then
  log "the new venv does not import its packages; removing it"
  rm -rf "$venv"
  exit 1
fi
touch "$marker"
log "built $venv in $(( $(date +%s) - start ))s"
echo "$python"
