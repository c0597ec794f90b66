"""Craftax's large observation rows, in pools whose outputs take at least
``_core.stream_output_bytes``, are built in a per-thread scratch row and
streamed to the output (core/stream_rows.h). What such a pool returns must
equal each env's state rendered directly: sync and async, rows at every
16-byte alignment (Classic's pixel rows are 47,628 bytes)."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pytest

import envpool_x

_core = pytest.importorskip("envpool_x._core")
if not hasattr(_core, "CraftaxSymbolic"):
    pytest.skip("built without ENVPOOL_X_CRAFTAX", allow_module_level=True)

SCALE = np.float32(1.0 / 255.0)


def full_symbolic(state: list[float]) -> np.ndarray:
    sim = _core.CraftaxSim()
    sim.set_state(state)
    return np.asarray(sim.obs())


def full_pixels(state: list[float]) -> np.ndarray:
    return np.asarray(_core.craftax_full_pixels(state, 10)) * SCALE


def classic_pixels(state: list[float]) -> np.ndarray:
    sim = _core.CraftaxClassicSim({})
    sim.set_state(state)
    return np.asarray(sim.pixels(7)) * SCALE


CASES: list[tuple[str, Callable[[list[float]], np.ndarray]]] = [
    ("Craftax-Symbolic-v1", full_symbolic),
    ("Craftax-Pixels-v1", full_pixels),
    ("Craftax-Classic-Pixels-v1", classic_pixels),
]


@pytest.mark.parametrize("task,render", CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("mode", ["sync", "async"])
def test_streamed_rows_are_the_observation(
    task: str, render: Callable[[list[float]], np.ndarray], mode: str
) -> None:
    row_bytes = envpool_x.make_spec(task).observation_space.shape
    row_bytes = int(np.prod(row_bytes)) * 4
    # Enough envs that one batch alone passes the threshold.
    batch = math.ceil(_core.stream_output_bytes / row_bytes) + 1
    num_envs = batch if mode == "sync" else 2 * batch
    assert batch * row_bytes >= _core.stream_output_bytes
    env = envpool_x.make_gymnasium(task, num_envs=num_envs, batch_size=batch, num_threads=2, seed=5)
    n = int(env.single_action_space.n)
    rng = np.random.default_rng(1)
    if mode == "sync":
        env.reset()
        for _ in range(3):
            obs, *_ = env.step(rng.integers(0, n, size=num_envs))
        ids = np.arange(num_envs)
    else:
        env.async_reset()
        for _ in range(4):
            obs, _, _, _, info = env.recv()
            ids = info["env_id"]
            env.send(rng.integers(0, n, size=len(ids)), ids)
        obs, _, _, _, info = env.recv()
        ids = info["env_id"]
    checked = sorted({0, 1, 2, 3, len(ids) - 1, *range(5, len(ids), 23)})
    for k in checked:
        state = [float(v) for v in env.get_state(int(ids[k]))]
        np.testing.assert_array_equal(obs[k], render(state), err_msg=f"{task} row {k}")
    env.close()
