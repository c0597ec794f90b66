"""Classic control: gymnasium 1.x's ids, time limits and reward thresholds."""

from __future__ import annotations

from envpool_x import _core
from envpool_x.envpool_names import EnvPoolNames, Fixed
from envpool_x.options import BOOL, Float, Option, OptionTable
from envpool_x.params import with_param_options
from envpool_x.registration import Family, declare_family, register, register_alias
from envpool_x.render.classic_control import classic_drawer

#: MountainCar's velocity bound: its velocity is clipped to [-0.07, 0.07].
MOUNTAIN_CAR_MAX_SPEED = 0.07
_GOAL_VELOCITY = Float(
    high=MOUNTAIN_CAR_MAX_SPEED,
    note="the least velocity at the flag; velocities are clipped to [-0.07, 0.07], so a "
    "higher goal is never reached",
)


def _with_params(pool: str, options: dict[str, Option]) -> OptionTable:
    """``options`` and the pool's per-env parameters (docs/params.md)."""
    return OptionTable(with_param_options(getattr(_core, pool), options))


#: The declared options of each pool (gymnasium takes any value; NaN and
#: infinities are refused, and a goal velocity the car cannot reach).
CLASSIC_CONTROL_OPTIONS: dict[str, OptionTable] = {
    "CartPole": _with_params("CartPole", {"sutton_barto_reward": BOOL}),
    "Pendulum": _with_params("Pendulum", {"g": Float(note="the acceleration of gravity")}),
    "MountainCar": _with_params("MountainCar", {"goal_velocity": _GOAL_VELOCITY}),
    "MountainCarContinuous": _with_params(
        "MountainCarContinuous", {"goal_velocity": _GOAL_VELOCITY}
    ),
    "Acrobot": _with_params("Acrobot", {}),
}

#: EnvPool's ``version`` of Pendulum (0: its Pendulum-v0's dynamics), which the
#: id fixes (:mod:`envpool_x.envpool_names`).
_PENDULUM_VERSION = Fixed(
    1,
    "Pendulum-v1 has gymnasium's Pendulum-v1 dynamics (the angle advanced with the clipped "
    "speed); version=0 asks for EnvPool's Pendulum-v0 dynamics (old gym's: the angle advanced "
    "with the speed before clipping), which envpool_x does not have",
)

declare_family(
    Family(
        "classic_control",
        title="the classic control tasks",
        renderer=classic_drawer,
        backends={
            "cuda": ("CartPole", "Pendulum", "MountainCar", "MountainCarContinuous", "Acrobot")
        },
        options=CLASSIC_CONTROL_OPTIONS,
        envpool_names={"Pendulum": EnvPoolNames({"version": _PENDULUM_VERSION})},
    )
)

register("CartPole-v0", "CartPole", "classic_control", 200, 195.0)
register("CartPole-v1", "CartPole", "classic_control", 500, 475.0)
register("Pendulum-v1", "Pendulum", "classic_control", 200)
register("MountainCar-v0", "MountainCar", "classic_control", 200, -110.0)
register("MountainCarContinuous-v0", "MountainCarContinuous", "classic_control", 999, 90.0)
register("Acrobot-v1", "Acrobot", "classic_control", 500, -100.0)
# EnvPool 1.2.7's Pendulum-v0, listed after gymnasium's ids: the same env as its
# Pendulum-v1 (its `version` key changes nothing a step shows); here gymnasium
# 1.4's dynamics, as Pendulum-v1.
register("Pendulum-v0", "Pendulum", "classic_control", 200)

# gymnasium's functional (jax) ids, as EnvPool 1.2.7 accepts them: other names
# of the classic ids (docs/classic_control.md says where gymnasium's own differ).
register_alias("phys2d/CartPole-v0", "CartPole-v0")
register_alias("phys2d/CartPole-v1", "CartPole-v1")
register_alias("phys2d/Pendulum-v0", "Pendulum-v0")
