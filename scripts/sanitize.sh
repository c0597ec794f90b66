#!/usr/bin/env bash
# The engine and every env family under ThreadSanitizer and under
# AddressSanitizer + UBSan; any sanitizer report fails the script. CI runs it
# (.ci/run).
#
#  1. tests/cpp/pool_stress.cpp (queues, pool, classic control, toy text,
#     Atari, MuJoCo; many threads, tiny batches, injected faults, close with
#     work in flight) built with TSan, and with ASan + UBSan + LeakSanitizer.
#     ALE's emulator is compiled instrumented from the same pinned ale-py sdist
#     as the wheel (cmake/ale.cmake); libmujoco is the wheel's, uninstrumented.
#  2. The Python extension envpool_x._core built with the same flags, and a
#     concurrency-heavy subset of the Python tests (engine, async, errors and
#     Ctrl-C, faults, lifetime, fork, pickling, the short fuzz run, the
#     gymnasium / dm_env API, Atari through Python) run against
#     it with the sanitizer runtime preloaded into the uninstrumented
#     interpreter (scripts/sanitize_python.sh).
#
# Build folders: build/sanitize-thread and build/sanitize-address (or under
# ENVPOOL_X_SANITIZE_BUILD). CMake and ninja rebuild only what changed, so a
# rerun does not compile ALE again. Needs the Python in use to have the [test]
# extra (pybind11, cmake, ninja, mujoco, gymnasium's MuJoCo XMLs, ale-py's ROMs,
# pytest, hypothesis).
set -euo pipefail
cd "$(dirname "$0")/.."
root="${ENVPOOL_X_SANITIZE_BUILD:-$PWD/build}"
py="$(command -v python)"
export CXX="${CXX:-g++}"
start=$SECONDS

ENVPOOL_X_MUJOCO_ASSETS="$("$py" -c 'import gymnasium, os; print(os.path.join(os.path.dirname(gymnasium.__file__), "envs", "mujoco", "assets"))')"
ENVPOOL_X_ATARI_ROMS="$("$py" -c 'import ale_py.roms, os; print(os.path.dirname(ale_py.roms.__file__))')"
export ENVPOOL_X_MUJOCO_ASSETS ENVPOOL_X_ATARI_ROMS

build() {  # $1: thread | address
  local dir="$root/sanitize-$1"
  mkdir -p "$dir"
  # The compiler comes from $CXX (CMake reads it at the first configure). No
  # Box2D, DeepMind Control, Meta-World, robotics, Craftax, grid worlds or
  # Procgen (procgen's own library is not instrumented anyway): neither
  # pool_stress nor the Python subset steps them, and they would only add to
  # the two instrumented builds (dmc.cpp, metaworld.cpp and minigrid.cpp are
  # among the slowest files to compile).
  if ! cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DENVPOOL_X_SANITIZE="$1" -DENVPOOL_X_STRESS_TEST=ON \
      -DENVPOOL_X_XLA=OFF -DENVPOOL_X_CUDA=OFF -DENVPOOL_X_BOX2D=OFF \
      -DENVPOOL_X_DMC=OFF -DENVPOOL_X_METAWORLD=OFF -DENVPOOL_X_ROBOTICS=OFF \
      -DENVPOOL_X_CRAFTAX=OFF -DENVPOOL_X_GRID_WORLDS=OFF -DENVPOOL_X_PROCGEN=OFF -DPython_EXECUTABLE="$py" \
      -Dpybind11_DIR="$("$py" -m pybind11 --cmakedir)" >"$dir/configure.log" 2>&1; then
    cat "$dir/configure.log"
    exit 1
  fi
  local t=$SECONDS
  cmake --build "$dir" --target pool_stress _core
  echo "sanitize: $1 build $((SECONDS - t)) s"
}

build thread
t=$SECONDS
TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" "$root/sanitize-thread/pool_stress"
echo "sanitize: pool_stress under TSan clean ($((SECONDS - t)) s)"

build address
t=$SECONDS
ASAN_OPTIONS="detect_leaks=1:halt_on_error=1" UBSAN_OPTIONS="print_stacktrace=1" \
  "$root/sanitize-address/pool_stress"
echo "sanitize: pool_stress under ASan+UBSan+LSan clean ($((SECONDS - t)) s)"

scripts/sanitize_python.sh address "$root/sanitize-address"
scripts/sanitize_python.sh thread "$root/sanitize-thread"

echo "sanitize: ThreadSanitizer and AddressSanitizer+UBSan clean ($((SECONDS - start)) s in all)"
