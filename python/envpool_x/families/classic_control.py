"""Classic control: gymnasium 1.x's ids, time limits and reward thresholds."""

from __future__ import annotations

from envpool_x.registration import register

register("CartPole-v0", "CartPole", "classic_control", 200, 195.0)
register("CartPole-v1", "CartPole", "classic_control", 500, 475.0)
register("Pendulum-v1", "Pendulum", "classic_control", 200)
register("MountainCar-v0", "MountainCar", "classic_control", 200, -110.0)
register("MountainCarContinuous-v0", "MountainCarContinuous", "classic_control", 999, 90.0)
register("Acrobot-v1", "Acrobot", "classic_control", 500, -100.0)
