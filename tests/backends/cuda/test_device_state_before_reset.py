"""The GPU path's state hooks before a reset say so, as the CPU pool's do
(tests/backends/cpu/test_state_before_reset.py); run on device="cpu-reference",
which shares CudaPool's checks and needs no GPU."""

from __future__ import annotations

import numpy as np
import pytest

import envpool_x


@pytest.mark.parametrize("task", ["CartPole-v1", "Pendulum-v1"])
def test_state_hooks_before_reset(task):
    env = envpool_x.make_gymnasium(task, num_envs=2, device="cpu-reference")
    with pytest.raises(RuntimeError, match="env 1 has not been reset; .* before get_state"):
        env.get_state(1)
    with pytest.raises(RuntimeError, match="env 0 has not been reset; .* before set_state"):
        env._pool.set_state(0, np.zeros(2))
    env.reset(seed=0)
    state = np.asarray(env.get_state(1))
    env._pool.set_state(1, state)
    np.testing.assert_array_equal(env.get_state(1), state)
    env.close()
