#!/usr/bin/env bash
# fuzz/run.sh TARGET|all SECONDS [libFuzzer flags...]
#
# Builds the libFuzzer targets (Clang, ASan + UBSan) in build/fuzz and runs TARGET
# (parse, classify, movegen, game, or all of them one after another) for SECONDS each.
# New corpus entries go to build/fuzz/corpus/TARGET (the seeds in fuzz/corpus/TARGET are
# read, never written); a crash is saved as build/fuzz/artifacts/TARGET-crash-* and makes
# the script exit non-zero. Extra flags go to libFuzzer, e.g. -jobs=2 -workers=2.
# Environment: CXX (default clang++), DDZ_FUZZ_BUILD (default build/fuzz),
# DDZ_FUZZ_CORE_DIR (the core sources to fuzz; default cpp/, e.g. a patched copy).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
if [ $# -lt 2 ]; then
  echo "usage: fuzz/run.sh parse|classify|movegen|game|all SECONDS [libFuzzer flags...]" >&2
  exit 2
fi
target="$1"
seconds="$2"
shift 2
build="${DDZ_FUZZ_BUILD:-$root/build/fuzz}"
cxx="${CXX:-clang++}"
if ! command -v "$cxx" >/dev/null; then
  echo "fuzz/run.sh: $cxx not found (apt-get install -y clang libclang-rt-dev)" >&2
  exit 2
fi

if [ "$target" = all ]; then
  targets=(parse classify movegen game)
else
  case "$target" in
    parse|classify|movegen|game) targets=("$target") ;;
    *) echo "fuzz/run.sh: unknown target '$target'" >&2; exit 2 ;;
  esac
fi

core_dir="${DDZ_FUZZ_CORE_DIR:-$root/cpp}"
cmake -S "$here" -B "$build" -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DDDZ_FUZZ_CORE_DIR="$core_dir" >/dev/null
cmake --build "$build" -j "$(nproc)" --target "${targets[@]/#/fuzz_}" >/dev/null

export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}"
status=0
for t in "${targets[@]}"; do
  work="$build/corpus/$t"
  mkdir -p "$work" "$build/artifacts"
  flags=(-max_total_time="$seconds" -timeout=30 -rss_limit_mb=2048 -print_final_stats=1
         -artifact_prefix="$build/artifacts/$t-")
  [ -f "$here/$t.dict" ] && flags+=(-dict="$here/$t.dict")
  log="$build/$t.log"
  set +e
  "$build/fuzz_$t" "${flags[@]}" "$@" "$work" "$here/corpus/$t" >"$log" 2>&1
  rc=$?
  set -e
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 || true)
  if [ "$rc" -ne 0 ]; then
    echo "fuzz_$t: FAILED (exit $rc); log $log" >&2
    grep -E -A30 'FUZZ INVARIANT|ERROR: (AddressSanitizer|libFuzzer)|runtime error' "$log" | head -60 >&2 || tail -40 "$log" >&2
    status=1
  else
    echo "fuzz_$t: ${runs:-?} runs in ${seconds} s (${rate:-?}/s), ${cov:-cov ?}, corpus $(ls "$work" | wc -l) new + $(ls "$here/corpus/$t" | wc -l) seeds, no crash"
  fi
done
exit $status
