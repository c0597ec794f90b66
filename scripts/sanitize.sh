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

# The MuJoCo envs too, when the Python in use has the mujoco wheel and
# gymnasium (the model XMLs): libmujoco itself is not instrumented, our env
# code and the pool around it are.
mujoco_dir="$(python -c 'import importlib.util as u, os; s = u.find_spec("mujoco"); print(os.path.dirname(s.origin) if s else "")' 2>/dev/null || true)"
assets="$(python -c 'import importlib.util as u, os; s = u.find_spec("gymnasium"); print(os.path.join(list(s.submodule_search_locations)[0], "envs", "mujoco", "assets") if s else "")' 2>/dev/null || true)"
if [[ -n "$mujoco_dir" && -d "$assets" ]]; then
  lib="$(ls "$mujoco_dir"/libmujoco.so.* | head -n1)"
  common+=(-DENVPOOL_X_STRESS_MUJOCO -isystem "$mujoco_dir/include" "$lib" "-Wl,-rpath,$mujoco_dir")
  export ENVPOOL_X_MUJOCO_ASSETS="$assets"
else
  echo "sanitize: no mujoco/gymnasium in this Python: MuJoCo envs not stressed"
fi

"$CXX" -fsanitize=thread "${common[@]}" -o "$out/pool_stress_tsan"
TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" "$out/pool_stress_tsan"

"$CXX" -fsanitize=address,undefined -fno-sanitize-recover=undefined "${common[@]}" \
  -o "$out/pool_stress_asan"
ASAN_OPTIONS="detect_leaks=1:halt_on_error=1" "$out/pool_stress_asan"
echo "sanitize: ThreadSanitizer and AddressSanitizer+UBSan clean"
