"""Multi-agent tasks: WarpDrive's Tag envs (docs/multi_agent.md).

``TagGridworld-v0`` and ``TagContinuous-v0`` carry an agent axis after the env
axis in every batched array. Their episodes end by their own
``episode_length`` key (WarpDrive's), so the pool's time limit is off by
default.
"""

from __future__ import annotations

from envpool_x.registration import NO_TIME_LIMIT, Family, declare_family, register

declare_family(
    Family(
        "multi_agent",
        title="the Tag envs",
        backends={"cuda": ("TagGridworld", "TagContinuous")},
    )
)

register("TagGridworld-v0", "TagGridworld", "multi_agent", NO_TIME_LIMIT)
register("TagContinuous-v0", "TagContinuous", "multi_agent", NO_TIME_LIMIT)
