"""Classic-control frames: gymnasium 1.4's pictures drawn in C++ from a state.

The drawing lives in cpp/envs/classic_control/frames.h (the same geometry and
colours as gymnasium's pygame code, without anti-aliasing); this module only
calls it. Pendulum's frame has no action arrow: we do not keep the last action.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from envpool_x import _core

if TYPE_CHECKING:
    from envpool_x.spec import EnvSpec


def classic_frame(
    pool_name: str, env_config: dict[str, Any], state: Sequence[float] | np.ndarray
) -> np.ndarray:
    """The frame (uint8, (H, W, 3), gymnasium's rgb_array size) of a classic-control env.

    ``pool_name`` is the C++ pool class ("CartPole", "Pendulum", "MountainCar",
    "MountainCarContinuous", "Acrobot"), ``env_config`` the env's config and
    ``state`` what the env's GetState() returns. ValueError for another pool or
    a state of the wrong length.
    """
    frame = _core.render_classic(pool_name, [float(v) for v in state], dict(env_config))
    return np.asarray(frame, dtype=np.uint8)


def classic_drawer(spec: EnvSpec) -> Callable[[np.ndarray], np.ndarray]:
    """The classic control family's renderer: frames of ``spec``'s envs from their states."""
    pool_name, config = spec.entry.pool_name, spec.env_config
    return lambda state: classic_frame(pool_name, config, state)
