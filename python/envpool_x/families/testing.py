"""Testing: FaultInjection-v0, an env that throws, stalls or emits NaN on request."""

from __future__ import annotations

from envpool_x.options import Int, OptionTable
from envpool_x.registration import Family, declare_family, register

_INT64_MAX = 2**63 - 1
#: The longest stall one step or reset may ask for: an hour, in milliseconds.
MAX_STALL_MS = 3_600_000
#: The declared options of the FaultInjection pool: steps count from 1 (-1 or
#: 0: never); env ids are the pool's ints.
TESTING_OPTIONS: dict[str, OptionTable] = {
    "FaultInjection": OptionTable(
        {
            "fault_env_id": Int(-1, 2**31 - 1, note="the env that misbehaves, -1: every env"),
            "throw_at_step": Int(-1, _INT64_MAX, note="the step that throws, -1: none"),
            "nan_at_step": Int(-1, _INT64_MAX, note="the step whose outputs are NaN, -1: none"),
            "stall_ms": Int(0, MAX_STALL_MS, note="milliseconds each step sleeps"),
            "reset_stall_ms": Int(0, MAX_STALL_MS, note="milliseconds each reset sleeps"),
            "episode_length": Int(0, _INT64_MAX, note="steps before it terminates, 0: never"),
        }
    )
}

declare_family(Family("testing", options=TESTING_OPTIONS))

register("FaultInjection-v0", "FaultInjection", "testing", 1000)
