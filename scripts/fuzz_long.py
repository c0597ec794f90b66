"""Long run of the stateful fuzzer (tests/backends/cpu/test_fuzz.py), on every family's
tasks: >= 10^5 operations.

Usage: python scripts/fuzz_long.py [--examples 2500] [--steps 50]
Prints the number of operations run and the time taken; exits non-zero on a
failure (hypothesis prints the shrunk failing sequence).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from hypothesis import HealthCheck, settings

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "backends" / "cpu"))
import test_fuzz  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--examples", type=int, default=2500)
    parser.add_argument("--steps", type=int, default=50)
    args = parser.parse_args()
    machine = test_fuzz.PoolMachine
    machine.TestCase.settings = settings(
        max_examples=args.examples,
        stateful_step_count=args.steps,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    start = time.monotonic()
    machine.TestCase("runTest").runTest()
    calls = machine.operations  # the invariant runs once after every operation
    print(f"fuzz_long: {calls} operations in {time.monotonic() - start:.0f} s, no failure")


if __name__ == "__main__":
    main()
