"""BipedalWalker (and Hardcore) against gymnasium 1.4.0's, on the same Box2D.

As for LunarLander (tests/families/test_box2d_lunar.py), ``_core.BipedalWalkerSim`` is the
pool env's physics with its random draws replayed from the ones gymnasium made
(terrain, clouds, initial push). Observations (lidar included), rewards and
terminations must be identical bit for bit, over two consecutive episodes in
one world, since gymnasium keeps its world across resets.
"""

from __future__ import annotations

import numpy as np
import pytest
from test_box2d_lunar import RecordingGenerator

import envpool_x
from envpool_x import _core

bipedal_walker = pytest.importorskip(
    "gymnasium.envs.box2d.bipedal_walker", reason='the oracle needs pip install "gymnasium[box2d]"'
)


def _compare(hardcore: bool, seed: int, steps: int) -> tuple[list[int], int]:
    """Two episodes of random actions in both; returns their lengths and the
    number of obstacle bodies (stumps, stairs, pits) their terrains had."""
    env = bipedal_walker.BipedalWalker(hardcore=hardcore)
    rec = RecordingGenerator(np.random.default_rng(seed))
    env._np_random = rec  # reset() without a seed keeps it
    sim = _core.BipedalWalkerSim(hardcore)
    actions = np.random.default_rng(seed + 100)
    lengths = []
    obstacles = 0
    for episode in range(2):
        obs, _ = env.reset()
        draws = [float(v) for v in rec.take()]
        assert sim.build(draws) == 0
        # The terrain as Box2D holds it: edges, and with hardcore the stumps,
        # stairs and pits (gymnasium's list is reversed after generation).
        ref = [
            c
            for body in reversed(env.terrain)
            for fixture in body.fixtures
            for vertex in fixture.shape.vertices
            for c in vertex
        ]
        np.testing.assert_array_equal(
            np.asarray(sim.terrain_vertices(), np.float32), np.asarray(ref, np.float32)
        )
        obstacles += len(env.terrain) - (bipedal_walker.TERRAIN_LENGTH - 1)
        ours, _, _ = sim.step([0.0] * 4)
        np.testing.assert_array_equal(np.asarray(ours, np.float32), obs)
        for t in range(steps):
            # Mostly-forward pushes keep some episodes going past the start pad.
            action = np.clip(actions.normal(0.2, 0.6, 4), -1, 1).astype(np.float32)
            obs, reward, terminated, _, _ = env.step(action)
            ours, our_reward, our_terminated = sim.step(action.tolist())
            where = f"hardcore {hardcore}, seed {seed}, episode {episode}, step {t}"
            np.testing.assert_array_equal(np.asarray(ours, np.float32), obs, err_msg=where)
            assert our_reward == float(reward), where
            assert our_terminated == terminated, where
            if terminated:
                break
        lengths.append(t + 1)
    return lengths, obstacles


@pytest.mark.parametrize("hardcore", [False, True])
def test_episodes_match_gymnasium(hardcore: bool) -> None:
    runs = [_compare(hardcore, seed, 300) for seed in range(3)]
    assert max(n for lengths, _ in runs for n in lengths) > 50
    obstacles = sum(k for _, k in runs)
    assert (obstacles > 10) if hardcore else (obstacles == 0)


def test_pool_spec_determinism_and_errors() -> None:
    def run(task: str, num_threads: int) -> np.ndarray:
        env = envpool_x.make_gymnasium(task, num_envs=3, seed=5, num_threads=num_threads)
        assert env.single_observation_space.shape == (24,)
        assert env.single_action_space.shape == (4,)
        obs, _ = env.reset()
        rows = [obs]
        rng = np.random.default_rng(0)
        for _ in range(150):
            obs, reward, *_ = env.step(rng.uniform(-1, 1, (3, 4)).astype(np.float32))
            rows += [obs, reward[:, None].repeat(24, 1)]
        return np.stack(rows)

    for task in ("BipedalWalker-v3", "BipedalWalkerHardcore-v3"):
        np.testing.assert_array_equal(run(task, 1), run(task, 2))
    env = envpool_x.make_gymnasium("BipedalWalker-v3", num_envs=1)
    env.reset()
    with pytest.raises(ValueError, match="action"):
        env.step(np.array([[0.0, np.inf, 0.0, 0.0]], np.float32))
    # Out of [-1, 1]: clipped as gymnasium does.
    a = envpool_x.make_gymnasium("BipedalWalker-v3", num_envs=1, seed=2)
    b = envpool_x.make_gymnasium("BipedalWalker-v3", num_envs=1, seed=2)
    a.reset(), b.reset()
    for _ in range(20):
        big = a.step(np.array([[2.0, -5.0, 0.5, 1.0]], np.float32))
        ref = b.step(np.array([[1.0, -1.0, 0.5, 1.0]], np.float32))
        np.testing.assert_array_equal(big[0], ref[0])
        np.testing.assert_array_equal(big[1], ref[1])
    assert "BipedalWalkerHardcore-v3" in envpool_x.list_all_envs()
