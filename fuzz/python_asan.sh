#!/usr/bin/env bash
# fuzz/python_asan.sh [pytest args...]
#
# Builds doudizhu._core with AddressSanitizer + UndefinedBehaviorSanitizer (into
# build/pyasan, not installed) and runs the hostile-input and thread tests against it,
# with CPython's allocator off so that ASan sees every Python object's memory: a handle
# to a freed object or a write past a buffer in the bindings fails the run.
# Default tests: tests/test_hostile_input.py tests/test_threads.py tests/test_boundary.py (with the
# record replay that once read freed memory), tests/test_vector_env.py (its background
# thread, send / recv), tests/test_envs.py, tests/test_web_api.py (hostile requests down to
# the engine), tests/test_selfplay.py (saved files read as untrusted) and tests/test_partner.py
# (four_partner's choice, positions and records), tests/test_run_fast.py (run_fast's rules
# of play, settlement pickles and records). Environment: PYTHON,
# DDZ_PYASAN_BUILD (default build/pyasan), DDZ_SOURCE_DIR (the tree to build; default
# this one, e.g. a patched copy).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
build="${DDZ_PYASAN_BUILD:-$root/build/pyasan}"
python="${PYTHON:-python}"
src="${DDZ_SOURCE_DIR:-$root}"

# Unity batches, as wheels build: a few large compilations instead of one a file (CI time), the same code.
cmake -S "$src" -B "$build" -DDDZ_PYTHON=ON -DDDZ_TESTS=OFF -DDDZ_BENCH=OFF -DDDZ_SANITIZE=ON -DDDZ_UNITY=ON \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPython_EXECUTABLE="$(command -v "$python")" \
  -Dpybind11_DIR="$("$python" -m pybind11 --cmakedir)" >/dev/null
cmake --build "$build" -j "$(nproc)" --target _core >/dev/null

# The package from the source tree with the sanitized extension beside it.
pkg="$build/pkg"
rm -rf "$pkg"
mkdir -p "$pkg"
cp -r "$src/python/doudizhu" "$pkg/"
rm -f "$pkg"/doudizhu/_core*.so  # a development tree's extension (or a link to one) stays where it is
cp "$build"/_core*.so "$pkg/doudizhu/"

cxx_lib() { "${CXX:-g++}" -print-file-name="$1"; }
preload="$(cxx_lib libasan.so):$(cxx_lib libubsan.so)"
[ $# -eq 0 ] && set -- tests/test_hostile_input.py tests/test_threads.py tests/test_boundary.py tests/test_vector_env.py \
  tests/test_envs.py tests/test_web_api.py tests/test_selfplay.py tests/test_partner.py tests/test_run_fast.py
cd "$root"
PYTHONPATH="$pkg" PYTHONMALLOC=malloc LD_PRELOAD="$preload" \
  ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:${ASAN_OPTIONS:-}" \
  UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}" \
  "$python" -m pytest -p no:cacheprovider -q "$@"
