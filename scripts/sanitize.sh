#!/usr/bin/env bash
# Builds tests/cpp/pool_stress.cpp with ThreadSanitizer and with
# AddressSanitizer + UndefinedBehaviorSanitizer and runs both; any report
# fails the script. CI runs it (.ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${TMPDIR:-/tmp}/envpool_x_sanitize"
mkdir -p "$out"
CXX="${CXX:-g++}"
common=(-std=c++20 -O1 -g -fno-omit-frame-pointer -Icpp tests/cpp/pool_stress.cpp -lpthread)

"$CXX" -fsanitize=thread "${common[@]}" -o "$out/pool_stress_tsan"
TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" "$out/pool_stress_tsan"

"$CXX" -fsanitize=address,undefined -fno-sanitize-recover=undefined "${common[@]}" \
  -o "$out/pool_stress_asan"
ASAN_OPTIONS="detect_leaks=1:halt_on_error=1" "$out/pool_stress_asan"
echo "sanitize: ThreadSanitizer and AddressSanitizer+UBSan clean"
