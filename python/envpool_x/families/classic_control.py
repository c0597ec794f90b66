"""Classic control: gymnasium 1.x's ids, time limits and reward thresholds."""

from __future__ import annotations

from envpool_x.registration import Family, declare_family, register
from envpool_x.render.classic_control import classic_drawer

declare_family(
    Family(
        "classic_control",
        title="the classic control tasks",
        renderer=classic_drawer,
        backends={
            "cuda": ("CartPole", "Pendulum", "MountainCar", "MountainCarContinuous", "Acrobot")
        },
    )
)

register("CartPole-v0", "CartPole", "classic_control", 200, 195.0)
register("CartPole-v1", "CartPole", "classic_control", 500, 475.0)
register("Pendulum-v1", "Pendulum", "classic_control", 200)
register("MountainCar-v0", "MountainCar", "classic_control", 200, -110.0)
register("MountainCarContinuous-v0", "MountainCarContinuous", "classic_control", 999, 90.0)
register("Acrobot-v1", "Acrobot", "classic_control", 500, -100.0)
