"""MaxCut-v0 and TSP-v0 alike: determinism across thread counts and batch
sizes, the dm_env front end, and bad configs refused with clear errors."""

from __future__ import annotations

import dm_env
import numpy as np
import pytest

import envpool_x


def test_bad_configs() -> None:
    for graph in ("er:10", "xx:10:2", "ba:10:10", "er:10:1.5"):
        with pytest.raises(ValueError, match="graph"):
            envpool_x.make_spec("MaxCut-v0", graph=graph)
    with pytest.raises(TypeError, match="graph must be"):
        envpool_x.make_spec("MaxCut-v0", graph=3)
    with pytest.raises(ValueError, match="init must be"):
        envpool_x.make_spec("MaxCut-v0", init="ones")
    with pytest.raises(ValueError, match="mode must be"):
        envpool_x.make_spec("TSP-v0", mode="3opt")
    with pytest.raises(ValueError, match=r"num_nodes must be an int in \[3, 46340\], got 2"):
        envpool_x.make_spec("TSP-v0", num_nodes=2)
    assert envpool_x.make_spec("TSP-v0", mode="2opt", num_nodes=9).max_episode_steps == 9


def trajectories(task: str, num_envs: int, steps: int, **config) -> dict:
    """Per-env (obs bytes, reward) lists under any batch size and thread count."""
    env = envpool_x.make_gymnasium(task, num_envs=num_envs, **config)
    n = int(env.single_action_space.n)
    traj: dict[int, list] = {i: [] for i in range(num_envs)}
    count = np.zeros(num_envs, dtype=int)
    env.async_reset()
    try:
        while min(len(t) for t in traj.values()) < steps:
            obs, reward, _, _, info = env.recv()
            ids = info["env_id"]
            for row, i in enumerate(ids):
                flat = b"".join(np.asarray(v[row]).tobytes() for v in obs.values())
                traj[int(i)].append((flat, float(reward[row]), int(info["elapsed_step"][row])))
            # TSP construct: the first unvisited city (after the last one any: it resets).
            acts = [(int(i) * 7 + k * 5) % n for i, k in zip(ids, count[ids], strict=True)]
            acts = [int(np.argmin(v)) for v in obs["visited"]] if "visited" in obs else acts
            count[ids] += 1
            env.send(np.asarray(acts), ids)
    finally:
        env.close()
    return {i: t[:steps] for i, t in traj.items()}


@pytest.mark.parametrize(
    ("task", "config"),
    [
        ("MaxCut-v0", {"graph": "ba:64:3:4", "max_episode_steps": 30}),
        ("TSP-v0", {"num_nodes": 12}),
        ("TSP-v0", {"num_nodes": 12, "mode": "2opt", "max_episode_steps": 20}),
    ],
)
def test_determinism_across_threads_and_batches(task: str, config: dict) -> None:
    ref = trajectories(task, 8, 45, num_threads=1, seed=9, **config)
    for threads, batch in ((2, 8), (2, 3), (1, 5)):
        got = trajectories(task, 8, 45, num_threads=threads, batch_size=batch, seed=9, **config)
        assert got == ref, (threads, batch)


@pytest.mark.parametrize("task", ["MaxCut-v0", "TSP-v0"])
def test_make_dm(task: str) -> None:
    env = envpool_x.make_dm(task, num_envs=2, seed=0)
    try:
        ts = env.reset()
        assert isinstance(ts, dm_env.TimeStep) and ts.first().all()
        obs_spec = env.observation_spec()
        first_field = "assignment" if task == "MaxCut-v0" else "coords"
        assert obs_spec[0].name == first_field
        ts = env.step(np.array([0, 1]))
        assert ts.reward.dtype == np.float32
        assert getattr(ts.observation, first_field).shape[0] == 2
    finally:
        env.close()
