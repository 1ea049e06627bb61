#!/usr/bin/env bash
# Build the libFuzzer targets (CMake preset `fuzz`: clang 14, ASan + UBSan)
# and run each for a set time on its seed corpus, as many at a time as there are
# cores (GLASS_FUZZ_JOBS=N to change it).
#   bash scripts/fuzz.sh                 # 60 s per target
#   bash scripts/fuzz.sh 600             # 10 minutes per target
#   bash scripts/fuzz.sh 15 fuzz_construct fuzz_broadcast
# Seeds: tests/fuzz/corpus/<target>/ (read only; fuzz_safetensors' are written by
# tests/fuzz/make_safetensors_seeds.py), tokens: tests/fuzz/<target>.dict if present. What the fuzzer finds goes
# to build/fuzz/corpus/<target>/ (kept between runs), a crashing input to
# build/fuzz/crashes/<target>/. Prints per target: runs, coverage (start ->
# end) and new inputs, crashes; then "fuzz: N passed, M failed" (a target
# passes when it ran its time without a crash). Exit status 1 on any crash.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

seconds="${1:-60}"
[[ "$seconds" =~ ^[1-9][0-9]*$ ]] || die "seconds per target must be a whole number > 0, got '$seconds'"
shift || true

say "fuzz: configure + build (preset fuzz)"
cmake --preset fuzz --log-level=WARNING >/dev/null
cmake --build --preset fuzz

targets=("$@")
if ((${#targets[@]} == 0)); then
  for src in tests/fuzz/fuzz_*.cpp; do targets+=("$(basename "$src" .cpp)"); done
fi

for t in "${targets[@]}"; do
  [[ -x "build/fuzz/$t" ]] || die "no fuzz target '$t' (have: $(cd build/fuzz && ls fuzz_* | tr '\n' ' '))"
done

# One target: runs it, then writes its summary line (and, after a crash, what to
# look at) to build/fuzz/<target>.result; the first word is ok or crash.
run_target() {
  local t=$1 bin="build/fuzz/$1" seeds="tests/fuzz/corpus/$1" work="build/fuzz/corpus/$1"
  local crashes="build/fuzz/crashes/$1" log="build/fuzz/$1.log" result="build/fuzz/$1.result"
  local rc=0 runs new cov0 cov1 status crash_count=0 dict=()
  mkdir -p "$work" "$crashes"
  # a target's dictionary of tokens (tests/fuzz/<target>.dict), if it has one
  [[ -f "tests/fuzz/$t.dict" ]] && dict=(-dict="tests/fuzz/$t.dict")
  # -timeout: one input running 10 s is a hang, reported like a crash
  "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$crashes/" "${dict[@]}" "$work" "$seeds" >"$log" 2>&1 || rc=$?
  # (a run that crashed at once has none of these lines: each may be empty)
  runs=$(sed -n 's/^stat::number_of_executed_units: *\([0-9]*\)/\1/p' "$log" | tail -1)
  new=$(sed -n 's/^stat::new_units_added: *\([0-9]*\)/\1/p' "$log" | tail -1)
  cov0=$(sed -n 's/.*INITED cov: \([0-9]*\).*/\1/p' "$log" | head -1)
  cov1=$({ grep -E '(DONE|pulse|NEW|REDUCE) +cov: ' "$log" || true; } | tail -1 | sed -n 's/.*cov: \([0-9]*\).*/\1/p')
  status=ok
  ((rc == 0)) || { status=crash; crash_count=1; }
  {
    printf '%s %-15s %9s runs in %4d s, coverage %5s -> %5s, %5s new inputs, %d crashes\n' \
      "$status" "$t" "${runs:-?}" "$seconds" "${cov0:-?}" "${cov1:-?}" "${new:-?}" "$crash_count"
    if ((rc != 0)); then
      echo "  $t: CRASH (exit $rc); last lines of $log:"
      { grep -E 'ERROR|fuzz oracle|SUMMARY|Test unit written|runtime error' "$log" || true; } | head -8 | sed 's/^/    /'
      echo "    reproduce: $bin <the crash-* file in $crashes/>"
    fi
  } >"$result"
}

# Each fuzzer runs on one core: as many at a time as there are cores (GLASS_FUZZ_JOBS
# changes it), so the same seconds per target take half the time on two cores.
jobs="${GLASS_FUZZ_JOBS:-$(nproc)}"
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || die "GLASS_FUZZ_JOBS must be a whole number > 0, got '$jobs'"
running=0
for t in "${targets[@]}"; do
  rm -f "build/fuzz/$t.result"
  say "fuzz: $t for $seconds s"
  run_target "$t" &
  running=$((running + 1))
  if ((running >= jobs)); then
    wait -n || true
    running=$((running - 1))
  fi
done
wait || true

passed=0
failed=0
summary=()
for t in "${targets[@]}"; do
  result="build/fuzz/$t.result"
  if [[ ! -s "$result" ]]; then
    failed=$((failed + 1))
    summary+=("$(printf '%-15s did not finish (no result in %s)' "$t" "$result")")
    continue
  fi
  read -r status line < <(head -1 "$result")
  tail -n +2 "$result"
  if [[ "$status" == ok ]]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
  summary+=("$line")
done

echo
say "fuzz summary ($seconds s per target)"
for line in "${summary[@]}"; do echo "  $line"; done
echo "fuzz: $passed passed, $failed failed"
((failed == 0))
