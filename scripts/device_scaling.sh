#!/usr/bin/env bash
# Issue 33's 16-core run on a lent GPU machine (the `device` tool): Python 3.12,
# 16 cores, no network, 64 MiB carried per call, files outside $OUT kept while
# the machine stays warm (about 30 s). So it goes in three steps:
#
#   here:            scripts/device_scaling.sh prepare
#                    (cp312 wheels and ALE's sdist into .device/, git-ignored)
#   device call 1:   bash scripts/device_scaling.sh stage 1   carry [".device/1"]
#   device call 2:   bash scripts/device_scaling.sh run       carry [".device/2"]
#                    (right after call 1: installs offline, builds envpool_x with
#                    16 jobs, runs bench_scaling.py at 1-16 threads, and leaves
#                    the section, the plot and the log in $OUT)
#
# Then copy $OUT/RESULTS.md's "CPU scaling (16 cores)" section and
# $OUT/scaling16.png into benchmarks/ and quote the 16-thread line in the README.
# ROUNDS (default 5) and CASES (default all) trade precision for device time:
# the 2-core run with 15 rounds and 2 thread counts took 392 s.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
stage_dir=/tmp/envpool_x_device

case "${1:-}" in
prepare)
  rm -rf "$root/.device" && mkdir -p "$root/.device/1" "$root/.device/2"
  pip312() { pip download -q --no-deps --only-binary=:all: --python-version 3.12 "$@"; }
  pip312 -d "$root/.device/1" envpool==1.2.5  # 53 MB: a call of its own
  pip312 -d "$root/.device/2" ale-py==0.12.1 mujoco==3.17.0 gymnasium==1.4.0 dm-env==1.6 \
    farama-notifications dm-tree tqdm
  # The sdist the build compiles ALE from: the copy a local build
  # fetched (cmake/sdist.cmake), else pip's (slow: it prepares its metadata).
  for sdist in ale_py-0.12.1; do
    found="$(ls "$root"/build/*/_deps/*-sdist/"$sdist".tar.gz 2>/dev/null | head -1)"
    if [ -n "$found" ]; then
      cp "$found" "$root/.device/2/"
    else
      pip download -q --no-deps --no-binary=:all: -d "$root/.device/2" "${sdist%-*}==${sdist##*-}"
    fi
  done
  du -sh "$root/.device/1" "$root/.device/2"
  ;;
stage)
  mkdir -p "$stage_dir"
  cp "$root/.device/$2"/* "$stage_dir/"
  ls -la "$stage_dir"
  ;;
run)
  mkdir -p "$stage_dir" && cp "$root/.device/2"/* "$stage_dir/"
  pip install -q --no-index --find-links "$stage_dir" "$stage_dir"/*.whl
  export ENVPOOL_X_ALE_SOURCE="$(ls "$stage_dir"/ale_py-*.tar.gz)"
  # Only what the benchmark steps (classic control, Atari, MuJoCo): a shorter build.
  off=()
  for family in CUDA XLA DMC GRID_WORLDS BOX2D; do
    off+=(--config-settings="cmake.define.ENVPOOL_X_$family=OFF")
  done
  CMAKE_BUILD_PARALLEL_LEVEL=16 pip install -q --no-index --no-build-isolation --no-deps \
    "${off[@]}" "$root"
  nproc && lscpu | grep -E "Model name|NUMA|L3"
  cp "$root/benchmarks/RESULTS.md" "$OUT/RESULTS.md"
  # shellcheck disable=SC2086
  python "$root/benchmarks/bench_scaling.py" --threads 1 2 4 8 16 \
    --rounds "${ROUNDS:-5}" ${CASES:+--cases $CASES} --section "CPU scaling (16 cores)" \
    --out "$OUT/RESULTS.md" --plot "$OUT/scaling16.png" 2>&1 | tee "$OUT/scaling16.log"
  ;;
*)
  echo "usage: $0 prepare | stage 1 | run   (see the header)" >&2
  exit 2
  ;;
esac
