#!/usr/bin/env bash
# Runs the concurrency-heavy Python tests against an instrumented build of
# envpool_x._core (scripts/sanitize.sh builds it), with gcc's sanitizer
# runtime preloaded into the uninstrumented interpreter. Fails on a test
# failure and on any sanitizer report, also from subprocesses and forked
# children (every report is written to a file under <build dir>/reports).
#
# Usage: scripts/sanitize_python.sh thread|address <build dir> [pytest args]
set -euo pipefail
cd "$(dirname "$0")/.."
kind="$1"
dir="$(cd "$2" && pwd)"
shift 2
py="$(command -v python)"
CXX="${CXX:-g++}"

# The subset: engine (sync / async / threads / faults), errors (bad input,
# Ctrl-C during a blocking recv), lifetime (close under load and racing other
# threads, exit and GC with work in flight, many pools, two threads on one env,
# fork, NaN), the short stateful fuzz run, the API (gymnasium / dm_env, async,
# pickling), per-env parameters (staged while an env is in flight, applied by
# its worker at reset) and Atari through Python (ALE instrumented too).
tests=(tests/backends/cpu/test_engine.py tests/backends/cpu/test_engine_autoreset.py
       tests/backends/cpu/test_errors.py tests/backends/cpu/test_lifetime.py tests/backends/cpu/test_fuzz.py
       tests/front_ends/test_api_make_and_registry.py tests/front_ends/test_api_gymnasium.py
       tests/front_ends/test_api_gymnasium_wrappers.py tests/front_ends/test_api_dm_env.py
       tests/front_ends/test_api_pickling.py tests/front_ends/test_params_api.py
       tests/families/test_atari_frames.py tests/families/test_atari_episodes.py
       tests/families/test_atari_options.py tests/families/test_atari_library.py)
# Left out: RSS under a sanitizer measures its shadow memory and quarantine,
# not us (the memory assertions run in the plain test run, .ci/run); and the
# two Atari tests that emulate for minutes under TSan (100 Pong envs, reward
# clipping over long episodes): pool_stress covers Atari's async paths.
deselect=(-k "not rss_flat and not test_pong_100_envs and not test_reward_clip_keeps_raw")

# The package from the source tree with the instrumented module beside it,
# first on sys.path (before any installed envpool_x).
stage="$dir/python"
rm -rf "$stage"
mkdir -p "$stage/envpool_x"
for f in python/envpool_x/*; do
  case "$(basename "$f")" in _core*) ;; *) ln -s "$PWD/$f" "$stage/envpool_x/" ;; esac
done
ln -s "$dir"/_core*.so "$stage/envpool_x/"

reports="$dir/reports"
rm -rf "$reports"
mkdir -p "$reports"
case "$kind" in
  address)
    runtime="$("$CXX" -print-file-name=libasan.so)"
    # detect_leaks=0: every allocation, ours included, has CPython frames
    # below it, and CPython keeps much of its own memory until exit by
    # design, so LeakSanitizer would report the interpreter; a suppression
    # matching CPython would match (and hide) our allocations too. Leaks of
    # the engine are checked by pool_stress under LeakSanitizer and by the
    # thread / fd / RSS tests of tests/backends/cpu/test_lifetime.py.
    export ASAN_OPTIONS="detect_leaks=0:halt_on_error=1:abort_on_error=1:log_path=$reports/asan"
    export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:log_path=$reports/ubsan"
    # Python objects through malloc, so ASan also sees our bindings' use of them.
    export PYTHONMALLOC=malloc
    ;;
  thread)
    runtime="$("$CXX" -print-file-name=libtsan.so)"
    # No suppressions needed: CPython is not instrumented, so TSan sees only
    # our code's accesses, and the GIL and Python's threads go through the
    # pthread calls TSan intercepts (so their ordering is known to it).
    export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:log_path=$reports/tsan"
    ;;
  *)
    echo "usage: $0 thread|address <build dir> [pytest args]" >&2
    exit 2
    ;;
esac

# libstdc++ too: the interpreter does not link it, and a runtime preloaded
# alone finds no __cxa_throw to forward its interceptor to ("CHECK failed:
# ... real___cxa_throw != 0" at the first C++ exception).
runtime="$runtime $("$CXX" -print-file-name=libstdc++.so.6)"

export PYTHONPATH="$stage${PYTHONPATH:+:$PYTHONPATH}"
got="$(LD_PRELOAD="$runtime" "$py" -c 'import envpool_x._core as c; print(c.__file__)')"
if [[ "$got" != "$stage/envpool_x/"* ]]; then
  echo "sanitize_python: imported $got instead of the instrumented module in $stage" >&2
  exit 1
fi

t=$SECONDS
status=0
LD_PRELOAD="$runtime" "$py" -m pytest -q -p no:cacheprovider "${deselect[@]}" "${tests[@]}" "$@" ||
  status=$?
if compgen -G "$reports/*" >/dev/null; then
  echo "sanitize_python: $kind sanitizer reports:" >&2
  cat "$reports"/* >&2
  exit 1
fi
if [[ $status -ne 0 ]]; then
  echo "sanitize_python: tests failed under the $kind sanitizer (exit $status)" >&2
  exit "$status"
fi
echo "sanitize_python: Python tests under the $kind sanitizer clean ($((SECONDS - t)) s)"
