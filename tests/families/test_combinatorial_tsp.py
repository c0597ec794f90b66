"""TSP-v0 against plain numpy computations: rewards and tour lengths from the
visited order (TSPLIB's rounded distances on berlin52), 2-opt moves against a
numpy reversal; a visited city and malformed TSPLIB files are clear errors."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import envpool_x
from envpool_x.families.combinatorial import read_tsplib

DATA = Path(__file__).resolve().parents[3] / "shared" / "data"
BERLIN52 = DATA / "tsplib" / "berlin52.tsp"
needs_berlin = pytest.mark.skipif(not BERLIN52.exists(), reason=f"berlin52 not at {BERLIN52}")


def tour_length(xy: np.ndarray, tour: np.ndarray, rounded: bool = False) -> float:
    """The closed tour's length in float64 (TSPLIB's nint per edge if rounded)."""
    d = np.linalg.norm(xy[tour] - xy[np.roll(tour, -1)], axis=1)
    return float((np.floor(d + 0.5) if rounded else d).sum())


def run_construct(env, orders: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Visits the cities in orders[i] (one permutation per env); checks each
    step's observation; returns coords, rewards (steps, envs), final info lengths."""
    obs, info = env.reset()
    k, n = orders.shape
    np.testing.assert_array_equal(obs["current"], -1)
    np.testing.assert_array_equal(info["action_mask"], 1)
    coords = obs["coords"].astype(np.float64)
    rewards = []
    for step in range(n):
        obs, reward, term, trunc, info = env.step(orders[:, step])
        rewards.append(reward)
        np.testing.assert_array_equal(obs["current"], orders[:, step])
        np.testing.assert_array_equal(obs["first"], orders[:, 0])
        np.testing.assert_array_equal(info["action_mask"], 1 - obs["visited"])
        assert (obs["visited"].sum(axis=1) == step + 1).all()
        assert (term == (step == n - 1)).all() and not trunc.any()
        np.testing.assert_allclose(info["tour_length"], -np.sum(rewards, axis=0), rtol=1e-5)
    return coords, np.array(rewards), info["tour_length"]


def test_tsp_construct_rewards_and_tour_lengths_match_numpy() -> None:
    env = envpool_x.make_gymnasium("TSP-v0", num_envs=4, num_nodes=20, seed=2)
    try:
        rng = np.random.default_rng(0)
        orders = np.stack([rng.permutation(20) for _ in range(4)])
        coords, rewards, lengths = run_construct(env, orders)
        assert (coords >= 0).all() and (coords < 1).all()
        assert rewards[0].tolist() == [0.0] * 4 and not np.signbit(rewards[0]).any()
        for i in range(4):
            xy, o = coords[i], orders[i]
            d = np.linalg.norm(xy[o[1:]] - xy[o[:-1]], axis=1)
            d[-1] += np.linalg.norm(xy[o[-1]] - xy[o[0]])
            np.testing.assert_allclose(-rewards[1:, i], d, rtol=1e-5)
            np.testing.assert_allclose(lengths[i], tour_length(xy, o), rtol=1e-5)
        # The next step starts a new episode with new cities (next_step autoreset).
        obs, reward, _, _, info = env.step(np.zeros(4, np.int64))
        np.testing.assert_array_equal(info["elapsed_step"], 0)
        assert not np.allclose(obs["coords"], coords)
    finally:
        env.close()


@needs_berlin
def test_tsp_berlin52_uses_tsplib_rounded_distances() -> None:
    xy, rounded = read_tsplib(BERLIN52)
    assert xy.shape == (52, 2) and rounded
    env = envpool_x.make_gymnasium("TSP-v0", num_envs=2, coords=str(BERLIN52))
    try:
        orders = np.stack([np.arange(52), np.random.default_rng(1).permutation(52)])
        coords, rewards, lengths = run_construct(env, orders)
        np.testing.assert_array_equal(coords[0], xy)
        for i in range(2):
            assert lengths[i] == tour_length(xy, orders[i], rounded=True)
            assert (rewards[:, i] == np.round(rewards[:, i])).all()
    finally:
        env.close()


def test_tsp_visited_city_is_an_error_naming_the_env_and_pool_goes_on() -> None:
    env = envpool_x.make_gymnasium("TSP-v0", num_envs=3, num_nodes=6, seed=0)
    try:
        env.reset()
        env.step(np.array([0, 1, 2]))
        with pytest.raises(ValueError, match="env 1 .*city 1 is already visited"):
            env.step(np.array([1, 1, 3]))
        obs, reward, _, _, info = env.step(np.array([2, 0, 4]))
        # env 1's episode was ended by the error; it resets, the others go on.
        np.testing.assert_array_equal(info["elapsed_step"], [3, 0, 3])
        np.testing.assert_array_equal(obs["visited"].sum(axis=1), [3, 0, 3])
    finally:
        env.close()


@pytest.mark.parametrize("source", ["random", "berlin52"])
def test_tsp_2opt_moves_match_a_numpy_reversal(source: str) -> None:
    if source == "berlin52" and not BERLIN52.exists():
        pytest.skip(f"berlin52 not found at {BERLIN52}")
    config = {"coords": str(BERLIN52)} if source == "berlin52" else {"num_nodes": 15}
    env = envpool_x.make_gymnasium(
        "TSP-v0", num_envs=3, mode="2opt", seed=4, max_episode_steps=1000, **config
    )
    try:
        n = int(env.single_observation_space["tour"].shape[0])
        assert env.single_action_space.n == n * n
        obs, info = env.reset()
        xy = obs["coords"].astype(np.float64)
        if source == "berlin52":
            xy, _ = read_tsplib(BERLIN52)
            xy = np.broadcast_to(xy, (3, n, 2))
        rounded = source == "berlin52"
        tours = obs["tour"]
        for i in range(3):
            assert sorted(tours[i]) == list(range(n))
            assert info["tour_length"][i] == pytest.approx(tour_length(xy[i], tours[i], rounded))
        rng = np.random.default_rng(7)
        for _ in range(150):
            i_pos, j_pos = rng.integers(0, n, 3), rng.integers(0, n, 3)
            obs, reward, term, _, info = env.step(i_pos * n + j_pos)
            for e in range(3):
                lo, hi = sorted((i_pos[e], j_pos[e]))
                want = tours[e].copy()
                want[lo : hi + 1] = want[lo : hi + 1][::-1]
                np.testing.assert_array_equal(obs["tour"][e], want)
                old, new = tour_length(xy[e], tours[e], rounded), tour_length(xy[e], want, rounded)
                assert reward[e] == pytest.approx(old - new, abs=1e-4)
                assert info["tour_length"][e] == pytest.approx(new)
            assert not term.any()
            tours = obs["tour"]
    finally:
        env.close()


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("NAME: x\nEDGE_WEIGHT_TYPE: GEO\nNODE_COORD_SECTION\n1 0 0\n", "line 2: .*GEO"),
        ("EDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n1 0 0\n2 1 one\n", "line 4: .*city"),
        ("EDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n1 0 0\n3 1 1\n", "line 4: .*city 2"),
        ("DIMENSION: 5\nEDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n1 0 0\n2 1 1\n", "DIMEN"),
        ("EDGE_WEIGHT_TYPE: EUC_2D\n1 0 0\n", "line 2: expected 'KEY : VALUE'"),
    ],
)
def test_malformed_tsplib_file_is_a_clear_error(tmp_path: Path, text: str, match: str) -> None:
    path = tmp_path / "bad.tsp"
    path.write_text(text)
    with pytest.raises(ValueError, match=rf"bad\.tsp.*{match}"):
        envpool_x.make_gymnasium("TSP-v0", num_envs=1, coords=str(path))
