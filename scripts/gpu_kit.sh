#!/usr/bin/env bash
# The GPU kit (issue 43): everything a lent GPU machine (no registry, 64 MiB per
# call, ~15 minutes) needs to run our GPU tests, the GPU benchmarks beside their
# peers and the 16-core CPU scaling, prepared here and run there in a few calls.
#
#   here:        scripts/gpu_kit.sh prepare [--rlsolver PATH]   (prints the calls)
#   device:      bash scripts/gpu_kit.sh stage 1 ... stage N-1  (carry .gpu_kit/parts/K)
#                bash scripts/gpu_kit.sh run                    (carry .gpu_kit/parts/N)
#   here:        scripts/gpu_kit.sh run --dry                   (CPU stand-ins, tiny)
#                scripts/gpu_kit.sh merge PATH/RESULTS.md       (into benchmarks/RESULTS.md)
#
# The logic is Python (scripts/gpu_kit/); docs/gpu_kit.md says what each step does.
# GPU_KIT_PYTHON picks the interpreter (default: python3, the one with torch there).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
exec "${GPU_KIT_PYTHON:-python3}" "$root/scripts/gpu_kit/__main__.py" "$@"
