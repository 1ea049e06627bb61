# Shared helpers for scripts/*.sh (sourced, not run).
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export NODE_PATH="${NODE_PATH:-/usr/share/nodejs}"   # emcc at -O2/-O3 needs acorn from here
export DEBIAN_FRONTEND=noninteractive
export PATH="$ROOT/node_modules/.bin:$PATH"

say() { printf '\033[1;34m==>\033[0m %s\n' "$*"; }
die() { printf '\033[1;31mERROR:\033[0m %s\n' "$*" >&2; exit 1; }
now() { date +%s; }
