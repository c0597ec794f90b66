"""Classic-control frames: gymnasium 1.4's pictures drawn in C++ from a state.

The drawing lives in cpp/envs/classic_control/frames.h (the same geometry and
colours as gymnasium's pygame code, without anti-aliasing); this module only
calls it. Pendulum's frame has no action arrow: we do not keep the last action.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from envpool_x import _core


def classic_frame(pool_name: str, env_config: dict[str, Any], state: Sequence[float]) -> np.ndarray:
    """The frame (uint8, (H, W, 3), gymnasium's rgb_array size) of a classic-control env.

    ``pool_name`` is the C++ pool class ("CartPole", "Pendulum", "MountainCar",
    "MountainCarContinuous", "Acrobot"), ``env_config`` the env's config and
    ``state`` what the env's GetState() returns. ValueError for another pool or
    a state of the wrong length.
    """
    frame = _core.render_classic(pool_name, [float(v) for v in state], dict(env_config))
    return np.asarray(frame, dtype=np.uint8)
