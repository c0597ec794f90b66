"""Testing: FaultInjection-v0, an env that throws, stalls or emits NaN on request."""

from __future__ import annotations

from envpool_x.registration import Family, declare_family, register

declare_family(Family("testing"))

register("FaultInjection-v0", "FaultInjection", "testing", 1000)
