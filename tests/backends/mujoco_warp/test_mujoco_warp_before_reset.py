"""MuJoCo Warp's pool refuses what the C++ pools refuse before a reset
(tests/backends/cpu/test_state_before_reset.py): a step, get_state, set_state
and a render read a world that was never initialised. Run on
device="cpu-reference" (warp on the CPU), so no GPU is needed."""

from __future__ import annotations

import numpy as np
import pytest

import envpool_x

pytest.importorskip("mujoco_warp", reason="the mujoco-gpu extra (mujoco-warp) is not installed")


def test_hooks_before_reset_raise_then_work_after():
    env = envpool_x.make_gymnasium(
        "Hopper-v5", num_envs=3, device="cpu-reference", render_mode="rgb_array"
    )
    with pytest.raises(RuntimeError, match="env 0 has not been reset; .* before stepping"):
        env.step(np.zeros((3, 3), dtype=np.float32))
    with pytest.raises(RuntimeError, match="env 1 has not been reset; .* before get_state"):
        env.get_state(1)
    with pytest.raises(RuntimeError, match="env 2 has not been reset; .* before set_state"):
        env._pool.set_state(2, np.zeros(12))
    with pytest.raises(RuntimeError, match="has not been reset"):
        env.render()
    env._pool.reset(np.array([0, 1]))
    env._pool.step(np.zeros((2, 3), dtype=np.float32), np.array([1, 0]))
    with pytest.raises(RuntimeError, match="env 2 has not been reset; .* before stepping"):
        env._pool.step(np.zeros((2, 3), dtype=np.float32), np.array([0, 2]))
    state = np.asarray(env.get_state(1))
    env._pool.set_state(1, state)
    np.testing.assert_allclose(env.get_state(1), state, rtol=1e-6)
    env.reset(seed=1)
    assert env.render().shape[0] == 1  # env 0, one frame
    env.close()
