"""Testing: FaultInjection-v0, an env that throws, stalls or emits NaN on request."""

from __future__ import annotations

from envpool_x.registration import register

register("FaultInjection-v0", "FaultInjection", "testing", 1000)
