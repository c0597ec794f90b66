"""MiniGrid throughput: envpool_x against EnvPool 1.2.5's MiniGrid envs and
minigrid 3.2.0 under gymnasium's vector envs, side by side in one run.

The runners and the table are bench_classic.py's (interleaved rounds, ratios
to envpool_x sync, the single-thread raw C++ loop); this script only picks
the MiniGrid tasks and registers minigrid's ids for gymnasium. Arguments
given on the command line override the defaults below.

Usage: python benchmarks/bench_minigrid.py [--rounds 3] [--num-envs 16 256]
"""

from __future__ import annotations

import sys
from pathlib import Path

import minigrid  # noqa: F401  (registers MiniGrid-* for gymnasium's runners)

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_classic  # noqa: E402

DEFAULTS = [
    "--tasks",
    "MiniGrid-Empty-8x8-v0",
    "MiniGrid-DoorKey-8x8-v0",
    "MiniGrid-FourRooms-v0",
    "--num-envs",
    "16",
    "256",
    "--rounds",
    "3",
    "--section",
    "MiniGrid",
]

if __name__ == "__main__":
    sys.argv = [sys.argv[0], *DEFAULTS, *sys.argv[1:]]
    bench_classic.main()
