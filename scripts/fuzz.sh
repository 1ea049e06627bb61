#!/usr/bin/env bash
# Build the libFuzzer targets (CMake preset `fuzz`: clang 14, ASan + UBSan)
# and run each for a set time on its seed corpus.
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

passed=0
failed=0
summary=()
for t in "${targets[@]}"; do
  bin="build/fuzz/$t"
  [[ -x "$bin" ]] || die "no fuzz target '$t' (have: $(cd build/fuzz && ls fuzz_* | tr '\n' ' '))"
  seeds="tests/fuzz/corpus/$t"
  work="build/fuzz/corpus/$t"
  crashes="build/fuzz/crashes/$t"
  log="build/fuzz/$t.log"
  mkdir -p "$work" "$crashes"
  # a target's dictionary of tokens (tests/fuzz/<target>.dict), if it has one
  dict=()
  [[ -f "tests/fuzz/$t.dict" ]] && dict=(-dict="tests/fuzz/$t.dict")
  say "fuzz: $t for $seconds s"
  rc=0
  # -timeout: one input running 10 s is a hang, reported like a crash
  "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$crashes/" "${dict[@]}" "$work" "$seeds" >"$log" 2>&1 || rc=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *\([0-9]*\)/\1/p' "$log" | tail -1)
  new=$(sed -n 's/^stat::new_units_added: *\([0-9]*\)/\1/p' "$log" | tail -1)
  cov0=$(sed -n 's/.*INITED cov: \([0-9]*\).*/\1/p' "$log" | head -1)
  cov1=$(grep -E '(DONE|pulse|NEW|REDUCE) +cov: ' "$log" | tail -1 | sed -n 's/.*cov: \([0-9]*\).*/\1/p')
  if ((rc != 0)); then
    crash_count=1
    failed=$((failed + 1))
    echo "  $t: CRASH (exit $rc); last lines of $log:"
    grep -E 'ERROR|fuzz oracle|SUMMARY|Test unit written|runtime error' "$log" | head -8 | sed 's/^/    /'
    echo "    reproduce: $bin <the crash-* file in $crashes/>"
  else
    crash_count=0
    passed=$((passed + 1))
  fi
  line=$(printf '%-15s %9s runs in %4d s, coverage %5s -> %5s, %5s new inputs, %d crashes' \
    "$t" "${runs:-?}" "$seconds" "${cov0:-?}" "${cov1:-?}" "${new:-?}" "$crash_count")
  echo "  $line"
  summary+=("$line")
done

echo
say "fuzz summary ($seconds s per target)"
for line in "${summary[@]}"; do echo "  $line"; done
echo "fuzz: $passed passed, $failed failed"
((failed == 0))
