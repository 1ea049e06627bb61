#!/usr/bin/env bash
# npm test: every test, fail fast.
#   1. setup (apt + npm, only what is missing)
#   2. for each preset native, asan, wasm, wasm-threads: configure, build, ctest -j2 --output-on-failure
#      (wasm-threads: the same suite built with -pthread, the kernels' threads on node's workers)
#      (tsan: the thread tests only, tests/cpp/test_threads.cpp, under ThreadSanitizer, after asan;
#      avx2, not run by default: the native suite built without AVX-512, npm test -- avx2)
#   3. cli: the glassllm command line, good and bad arguments (tests/cli/test_cli.py), after native
#   4. reference: glassllm against the independent PyTorch model (scripts/test_reference.sh)
#   5. fuzz: each libFuzzer target for a short smoke run (scripts/fuzz.sh, 15 s each;
#      GLASS_FUZZ_SECONDS changes it), after asan
#   6. web: the layering checks (tsc for the page and for the worker's side without the DOM,
#      dependency-cruiser's rules in .dependency-cruiser.cjs, see docs/architecture.md),
#      then vitest run (tests/web/**, loads the wasm build; some tests compare with the
#      native CLI, which the stage builds when the native stage did not)
#   7. e2e: vite build (production dist/), then Playwright in Debian's Chromium (tests/e2e/**)
# Run a subset with: npm test -- native wasm web   (stages: native avx2 cli reference asan tsan fuzz wasm wasm-threads web e2e)
# Ends with one line "tests: N passed, M failed".
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

stages=("$@")
((${#stages[@]})) || stages=(native cli reference asan tsan fuzz wasm wasm-threads web e2e)
for stage in "${stages[@]}"; do
  case "$stage" in native | avx2 | cli | reference | asan | tsan | fuzz | wasm | wasm-threads | web | e2e) ;;
    *) die "unknown stage '$stage' (native avx2 cli reference asan tsan fuzz wasm wasm-threads web e2e)" ;; esac
done
has_stage() { [[ " ${stages[*]} " == *" $1 "* ]]; }

summary=()      # one line per finished stage
problems=()     # failed and flaky tests, with their errors (add_problems)
total_passed=0
total_failed=0
current="setup"
t_all=$(now)

on_exit() {
  local rc=$?
  echo
  say "test summary"
  for line in "${summary[@]}"; do echo "  $line"; done
  for line in "${problems[@]}"; do echo "  $line"; done
  if ((rc != 0)); then
    echo "  FAILED at stage: $current (exit $rc)"
    ((total_failed > 0)) || total_failed=1
  else
    echo "  all stages passed in $(($(now) - t_all)) s"
  fi
  echo "tests: $total_passed passed, $total_failed failed"
}
trap on_exit EXIT

# Failed and flaky tests with the start of their error, repeated in the summary so the
# end of a CI log says why (scripts/test_report.mjs).
add_problems() {   # vitest|playwright report.json
  local line
  while IFS= read -r line; do problems+=("$line"); done < <(node scripts/test_report.mjs problems "$1" "$2" || true)
}

add_summary() {   # stage passed failed t0
  summary+=("$(printf '%-7s %4d passed %3d failed  (%d s)' "$1" "$2" "$3" $(($(now) - $4)))")
  total_passed=$((total_passed + $2))
  total_failed=$((total_failed + $3))
}

bash scripts/setup.sh

run_ctest() {   # $1 = preset, then what to build (default: the whole preset)
  local preset=$1 t0 log rc=0 passed failed total cases
  shift
  t0=$(now)
  current="$preset (build)"
  bash scripts/build.sh "$preset" "$@"
  current="$preset (ctest)"
  log="build/$preset/ctest-summary.log"
  say "test:$preset: ctest -j2"
  ctest --preset "$preset" -j2 --output-on-failure 2>&1 | tee "$log" || rc=$?
  # "100% tests passed, 0 tests failed out of 71" / "80% tests passed, 14 tests failed out of 71"
  failed=$(sed -n 's/.*tests passed, \([0-9]*\) tests\{0,1\} failed out of [0-9]*.*/\1/p' "$log" | tail -1)
  total=$(sed -n 's/.*tests passed, [0-9]* tests\{0,1\} failed out of \([0-9]*\).*/\1/p' "$log" | tail -1)
  if [[ -z "$total" ]]; then
    ((rc != 0)) || rc=1
    return "$rc"
  fi
  passed=$((total - failed))
  # Under wasm one ctest entry runs the whole GoogleTest suite, under asan each of two
  # entries a share of it (GLASS_TEST_SHARDS): count their cases.
  if [[ "$preset" == wasm* || "$preset" == asan ]] && ((failed == 0)); then
    # "cases entries": the suite's cases, and how many entries ran them (the rest are scripts)
    read -r cases entries < <(sed -n 's/^\[  PASSED  \] \([0-9]*\) tests\{0,1\}\..*/\1/p' \
              "build/$preset/Testing/Temporary/LastTest.log" 2>/dev/null | awk '{s+=$1} END {print s+0, NR}')
    ((cases == 0)) || passed=$((cases + total - entries))
  fi
  add_summary "$preset" "$passed" "$failed" "$t0"
  return "$rc"
}

run_cli() {
  local t0 rc=0 line
  t0=$(now)
  current="cli (build)"
  bash scripts/build.sh native --target glassllm
  current="cli"
  say "test:cli: tests/cli/test_cli.py"
  mkdir -p build
  /usr/bin/python3 tests/cli/test_cli.py build/native/glassllm 2>&1 | tee build/cli.log || rc=$?
  # "98 passed, 0 failed"
  line=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' build/cli.log | tail -1)
  if [[ -n "$line" ]]; then add_summary cli ${line% *} ${line#* } "$t0"; fi
  ((rc == 0)) || return "$rc"
  [[ -n "$line" ]] || return 1
}

run_reference() {
  local t0 rc=0 line
  t0=$(now)
  current="reference"
  mkdir -p build
  bash scripts/test_reference.sh 2>&1 | tee build/reference.log || rc=$?
  # "reference: 753 passed, 0 failed"
  line=$(sed -n 's/^reference: \([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' build/reference.log | tail -1)
  if [[ -n "$line" ]]; then add_summary reference ${line% *} ${line#* } "$t0"; fi
  ((rc == 0)) || return "$rc"
  [[ -n "$line" ]] || return 1
}

run_fuzz() {
  local t0 rc=0 line
  t0=$(now)
  current="fuzz"
  mkdir -p build
  bash scripts/fuzz.sh "${GLASS_FUZZ_SECONDS:-15}" 2>&1 | tee build/fuzz.log || rc=$?
  # "fuzz: 3 passed, 0 failed" (a target passes when it ran its time without a crash)
  line=$(sed -n 's/^fuzz: \([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' build/fuzz.log | tail -1)
  if [[ -n "$line" ]]; then add_summary fuzz ${line% *} ${line#* } "$t0"; fi
  ((rc == 0)) || return "$rc"
  [[ -n "$line" ]] || return 1
}

for stage in native avx2 cli reference asan tsan fuzz wasm wasm-threads; do
  if ! has_stage "$stage"; then continue; fi
  case "$stage" in
    avx2) run_ctest native-avx2 ;;
    cli) run_cli ;;
    reference) run_reference ;;
    fuzz) run_fuzz ;;
    # only the suite: nothing runs the command line built with sanitizers (13 files, about a minute)
    asan) run_ctest asan --target glass_tests ;;
    # the suite and the page's modules, not the benchmark (scripts/bench.sh builds it)
    wasm) run_ctest wasm --target glass_tests glass_core glass_core_fma ;;
    wasm-threads) run_ctest wasm-threads --target glass_tests glass_core_mt glass_core_fma_mt ;;
    *) run_ctest "$stage" ;;
  esac
done

run_layers() {   # one check each: types (page), types (worker, no DOM), imports (dependency-cruiser)
  local t0 passed=0 failed=0 name
  t0=$(now)
  for name in types worker-types imports; do
    current="web (layers: $name)"
    say "test:web: $name"
    case "$name" in
      types) tsc --noEmit -p tsconfig.json ;;
      worker-types) tsc --noEmit -p tsconfig.worker.json ;;
      imports) depcruise web/src --config .dependency-cruiser.cjs --output-type err-long ;;
    esac && passed=$((passed + 1)) || failed=$((failed + 1))
    if ((failed > 0)); then
      add_summary layers "$passed" "$failed" "$t0"
      return 1
    fi
  done
  add_summary layers "$passed" "$failed" "$t0"
}

if has_stage web; then
  t0=$(now)
  current="web (wasm build)"
  has_stage wasm || bash scripts/build.sh wasm --web
  has_stage wasm-threads || bash scripts/build.sh wasm-threads --web # tests/web/wasmOpcodesAtomics.test.ts reads it
  # the native command line (trainNative and lesson-generation compare with it): built by the
  # native stage when it runs, else here (a no-op when it is up to date)
  bash scripts/build.sh native --target glassllm
  run_layers
  t0=$(now)
  current="web (vitest)"
  say "test:web: vitest run"
  mkdir -p build
  rm -f build/vitest.json
  rc=0
  vitest run --reporter=default --reporter=json --outputFile.json=build/vitest.json || rc=$?
  if [[ -f build/vitest.json ]]; then
    read -r passed failed _ < <(node scripts/test_report.mjs counts vitest build/vitest.json)
    add_summary web "$passed" "$failed" "$t0"
    add_problems vitest build/vitest.json
  fi
  ((rc == 0)) || exit "$rc"
fi

if has_stage e2e; then
  t0=$(now)
  current="e2e (production build)"
  has_stage wasm || has_stage web || bash scripts/build.sh wasm --web
  has_stage wasm-threads || bash scripts/build.sh wasm-threads --web # the page's threaded core (cross-origin isolated)
  # the inspector and lessons load the shipped weights (committed, trained by npm run train)
  [[ -f public/weights/glass-kjv.safetensors ]] || die "e2e: public/weights/glass-kjv.safetensors is missing"
  vite build
  current="e2e (playwright)"
  say "test:e2e: playwright test (Chromium, against vite preview of dist/)"
  mkdir -p build
  rm -f build/playwright.json
  rc=0
  playwright test || rc=$?
  if [[ -f build/playwright.json ]]; then
    read -r passed failed flaky < <(node scripts/test_report.mjs counts playwright build/playwright.json)
    add_summary e2e "$passed" "$failed" "$t0"
    ((flaky == 0)) || summary[-1]+="  ($flaky passed only on a retry: see below)"
    add_problems playwright build/playwright.json
  fi
  ((rc == 0)) || exit "$rc"
fi
current="done"
