"""Box2D throughput: envpool_x against EnvPool 1.2.5's Box2D envs and
gymnasium 1.4.0's under its vector envs, side by side in one run.

The runners and the table are bench_classic.py's (interleaved rounds, ratios
to envpool_x sync); this script only picks the Box2D tasks (EnvPool 1.2.5 has
the same ids, CarRacing-v3 included; its CarRacing draws with OpenCV, ours as
pygame does; gymnasium's CarRacing needs pygame). Arguments given on the
command line replace the defaults below (each flag once).

Usage: python benchmarks/bench_box2d.py [--rounds 3] [--num-envs 16 256]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_classic  # noqa: E402

DEFAULTS = [
    "--tasks",
    "LunarLander-v3",
    "BipedalWalker-v3",
    "CarRacing-v3",
    "--num-envs",
    "16",
    "256",
    "--rounds",
    "3",
    "--section",
    "Box2D",
]

if __name__ == "__main__":
    sys.argv = [sys.argv[0], *bench_classic.with_defaults(sys.argv[1:], DEFAULTS)]
    bench_classic.main()
