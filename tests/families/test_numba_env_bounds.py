"""The C++ side of numba envs (_core.NumbaEnv) whatever Python lets through:
sizes beyond what a buffer can be indexed with are a ValueError, a buffer that
cannot be had a MemoryError; never a crash at the first step (a huge
step_random used to leave the draws' buffer empty while the callback read it)."""

from __future__ import annotations

import pytest

from envpool_x import _core

# The callbacks are never called: every case fails while the pool is built.
_BASE = {"reset_fn": 1, "step_fn": 1, "num_actions": 2}


def _pool(num_envs: int = 1, **config):
    cfg = dict(_BASE, **config)
    return _core.NumbaEnv(cfg, num_envs, num_envs, 1, -1, 0, "next_step", 0)


@pytest.mark.parametrize(
    ("config", "match"),
    [
        ({"step_random": 10**12}, "step_random must be in \\[0, 2147483647\\], got 1000000000000"),
        ({"reset_random": -1}, "reset_random must be in \\[0, 2147483647\\], got -1"),
        ({"state_size": 2**31}, "state_size must be in \\[1, 2147483647\\], got 2147483648"),
        ({"state_size": 0}, "state_size must be in \\[1, 2147483647\\], got 0"),
        ({"obs_shape": [2**31 - 1, 4]}, "obs_shape must have at most 2147483647 elements"),
        ({"obs_shape": [2**40]}, "obs_shape must hold positive ints"),
        ({"num_actions": 0, "action_shape": [2**20, 2**20]}, "action_shape must have at most"),
    ],
)
def test_sizes_beyond_an_index_are_refused(config, match):
    with pytest.raises(ValueError, match=match):
        _pool(**config)


def test_output_rows_that_cannot_be_had_are_a_memory_error():
    # 2^20 envs of 2^31 - 1 float64s: 16 PiB, more than the address space.
    with pytest.raises(MemoryError, match="out of memory building a pool of 1048576 NumbaEnv"):
        _pool(num_envs=2**20, obs_shape=[2**31 - 1], obs_dtype="float64")
