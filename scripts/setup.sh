#!/usr/bin/env bash
# Install what GlassLLM needs, only what is missing. Safe to run again and again.
#   - Debian packages (apt-get, non-interactive, one `apt-get update` at most)
#   - npm packages (`npm ci` when node_modules is missing, incomplete or older than package-lock.json)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

# One entry per line: "<debian package>  <command that proves it is there, - to ask dpkg,
# or py:MODULE for a module /usr/bin/python3 must import>".
APT_PACKAGES=(
  "cmake            cmake"
  "ninja-build      ninja"
  "g++              g++"
  "emscripten       em++"
  "googletest       -"
  "libbenchmark-dev -"
  "nlohmann-json3-dev -"
  "nodejs           node"
  "npm              npm"
  "bible-kjv        bible"
  "python3          python3"
  "python3-torch    py:torch"
  "python3-numpy    py:numpy"
  "libopenblas0     -"
  "chromium         chromium"
  "libclang-rt-14-dev -"
)

missing=()
for entry in "${APT_PACKAGES[@]}"; do
  read -r pkg probe <<<"$entry"
  if [[ "$probe" == py:* ]]; then
    /usr/bin/python3 -c "import ${probe#py:}" >/dev/null 2>&1 && continue
    missing+=("$pkg")
    continue
  fi
  if [[ "$probe" != "-" ]]; then
    command -v "$probe" >/dev/null 2>&1 && continue
  fi
  dpkg -s "$pkg" >/dev/null 2>&1 && [[ "$probe" == "-" ]] && continue
  missing+=("$pkg")
done

if ((${#missing[@]})); then
  say "setup: installing Debian packages: ${missing[*]}"
  SUDO=""
  if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -q
  $SUDO apt-get install -y -q "${missing[@]}"
else
  say "setup: Debian packages present (${#APT_PACKAGES[@]} checked)"
fi

# npm writes node_modules/.package-lock.json last, once an install is complete: an
# emptied or half-written node_modules lacks it (a bare directory once passed here,
# and every npx in the tests then failed).
stamp=node_modules/.package-lock.json
if [[ ! -f $stamp ]] || [[ package-lock.json -nt $stamp ]]; then
  say "setup: npm ci (node_modules missing, incomplete or older than package-lock.json)"
  npm ci --no-audit --no-fund
  touch "$stamp"
else
  say "setup: node_modules up to date"
fi
