"""MaxCut-v0 against plain numpy computations: after every step the cut,
every node's gain and the reward are recomputed from the returned assignment
with a dense weight matrix (on Gset G14 and on generated graphs with negative
weights); graphs per env, malformed Gset files, actions out of range and the
autoreset modes."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import envpool_x
from envpool_x.families.combinatorial import generate_graph, read_gset

DATA = Path(__file__).resolve().parents[3] / "shared" / "data"
G14 = DATA / "gset" / "G14.txt"
needs_g14 = pytest.mark.skipif(not G14.exists(), reason=f"Gset G14 not found at {G14}")


def dense(n: int, edges: np.ndarray) -> np.ndarray:
    """The symmetric weight matrix (parallel edges summed, self-loops dropped)."""
    w = np.zeros((n, n), dtype=np.int64)
    np.add.at(w, (edges[:, 0], edges[:, 1]), edges[:, 2])
    np.add.at(w, (edges[:, 1], edges[:, 0]), edges[:, 2])
    np.fill_diagonal(w, 0)
    return w


def cut_and_gains(w: np.ndarray, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Cut values (k,) and gains (k, n) of k assignments x (k, n)."""
    x = x.astype(np.int64)
    sign = 1 - 2 * (x[:, :, None] != x[:, None, :])  # +1 same side, -1 apart
    cut = ((w[None] * (sign < 0)).sum(axis=(1, 2))) // 2
    gains = (w[None] * sign).sum(axis=2)
    return cut, gains


def check_maxcut_run(env, w: np.ndarray, steps: int, seed: int = 0) -> int:
    """Random flips; checks every step against numpy; returns the episodes ended."""
    rng = np.random.default_rng(seed)
    obs, info = env.reset()
    n = w.shape[0]
    cut, gains = cut_and_gains(w, obs["assignment"])
    np.testing.assert_array_equal(info["cut"], cut)
    np.testing.assert_array_equal(info["best_cut"], cut)
    np.testing.assert_array_equal(obs["gain"], gains.astype(np.float32))
    prev, best, done, episodes = cut, cut.copy(), np.zeros(env.num_envs, bool), 0
    for _ in range(steps):
        action = rng.integers(0, n, env.num_envs)
        before = obs["assignment"].copy()
        obs, reward, term, trunc, info = env.step(action)
        cut, gains = cut_and_gains(w, obs["assignment"])
        np.testing.assert_array_equal(info["cut"], cut)
        np.testing.assert_array_equal(obs["gain"], gains.astype(np.float32))
        assert obs["assignment"].dtype == np.int8 and reward.dtype == np.float32
        assert not term.any()
        stepped = ~done  # next_step autoreset: a done env's next step is its reset
        flipped = before.copy()
        flipped[np.arange(env.num_envs), action] ^= 1
        np.testing.assert_array_equal(obs["assignment"][stepped], flipped[stepped])
        np.testing.assert_array_equal(reward[stepped], (cut - prev)[stepped].astype(np.float32))
        np.testing.assert_array_equal(reward[done], 0.0)
        best = np.where(done, cut, np.maximum(best, cut))
        np.testing.assert_array_equal(info["best_cut"], best)
        elapsed = info["elapsed_step"]
        np.testing.assert_allclose(obs["progress"], elapsed / env.spec.max_episode_steps)
        prev, done = cut, term | trunc
        episodes += int(done.sum())
    return episodes


@needs_g14
def test_maxcut_g14_cut_gains_and_rewards_match_numpy() -> None:
    n, edges = read_gset(G14)
    assert (n, len(edges)) == (800, 4694)
    env = envpool_x.make_gymnasium("MaxCut-v0", num_envs=4, graph=str(G14), seed=3)
    try:
        assert env.spec.max_episode_steps == 2 * n  # the default episode length
        assert env.single_action_space.n == n
        check_maxcut_run(env, dense(n, edges), steps=60)
    finally:
        env.close()


#: A Gset file with negative weights, parallel edges (1-2) and a self-loop (3-3).
SMALL_GSET = "6 9\n1 2 3\n2 3 -2\n3 4 1\n4 5 -4\n5 6 2\n6 1 1\n1 2 -1\n3 3 5\n2 5 -3\n"


@pytest.mark.parametrize("graph", ["er:40:0.3:5", "ba:50:3:7", "file"])
def test_maxcut_negative_weights_across_resets(graph: str, tmp_path: Path) -> None:
    if graph == "file":
        graph = str(tmp_path / "g.txt")
        Path(graph).write_text(SMALL_GSET)
    env = envpool_x.make_gymnasium(
        "MaxCut-v0", num_envs=5, graph=graph, seed=11, max_episode_steps=25
    )
    try:  # the pool's seed draws a generated graph
        n, edges = read_gset(graph) if graph.endswith(".txt") else generate_graph(graph, 11)
        assert (edges[:, 2] < 0).any()
        assert check_maxcut_run(env, dense(n, edges), steps=80, seed=1) >= 10
    finally:
        env.close()


def test_maxcut_zero_init_and_explicit_edges() -> None:
    edges = np.array([[0, 1, 2], [1, 2, -1], [0, 2, 4]])
    env = envpool_x.make_gymnasium(
        "MaxCut-v0", num_envs=2, graph=(3, edges), init="zeros", max_episode_steps=7
    )
    try:
        obs, info = env.reset()
        np.testing.assert_array_equal(obs["assignment"], 0)
        np.testing.assert_array_equal(info["cut"], 0)
        np.testing.assert_array_equal(obs["gain"], [[6, 1, 3]] * 2)
        obs, reward, _, _, info = env.step(np.array([0, 2]))
        np.testing.assert_array_equal(reward, [6, 3])
        np.testing.assert_array_equal(obs["gain"], [[-6, -3, -5], [-2, 3, -3]])
        assert env.spec.max_episode_steps == 7
    finally:
        env.close()


def test_maxcut_one_graph_per_env() -> None:
    graphs = ["er:30:0.2:3", "er:30:0.2:3", "ba:30:2"]
    env = envpool_x.make_gymnasium("MaxCut-v0", num_envs=3, graph=graphs, init="zeros", seed=5)
    try:
        obs, _ = env.reset()
        for i, g in enumerate(graphs):  # entry i is drawn from seed + i
            n, edges = generate_graph(g, 5 + i)
            _, gains = cut_and_gains(dense(n, edges), np.zeros((1, n), np.int8))
            np.testing.assert_array_equal(obs["gain"][i], gains[0])
        assert not np.array_equal(obs["gain"][0], obs["gain"][1])  # same spec, other seed
    finally:
        env.close()
    assert not np.array_equal(generate_graph("er:50:0.2", 1)[1], generate_graph("er:50:0.2", 2)[1])
    with pytest.raises(ValueError, match="same node count"):
        envpool_x.make_gymnasium("MaxCut-v0", num_envs=2, graph=["er:30:0.2", "er:31:0.2"])
    with pytest.raises(ValueError, match="list of 2 graphs but num_envs=3"):
        envpool_x.make_gymnasium("MaxCut-v0", num_envs=3, graph=["er:30:0.2", "er:30:0.2"])


@pytest.mark.parametrize(
    ("text", "line", "what"),
    [
        ("3 2\n1 2 1\n", 2, "announces 2 edges"),
        ("3 1\n1 4 1\n", 2, "node 4 not in 1..3"),
        ("3 1\n1 2 x\n", 2, "expected integers"),
        ("3 1\n1 2\n", 2, "expected an edge"),
        ("three 1\n1 2 1\n", 1, "expected integers"),
    ],
)
def test_malformed_gset_file_names_file_and_line(
    tmp_path: Path, text: str, line: int, what: str
) -> None:
    path = tmp_path / "bad.txt"
    path.write_text(text)
    with pytest.raises(ValueError, match=rf"bad\.txt, line {line}: .*{what}"):
        envpool_x.make_gymnasium("MaxCut-v0", num_envs=1, graph=str(path))


def test_maxcut_node_out_of_range_leaves_the_pool_usable() -> None:
    env = envpool_x.make_gymnasium("MaxCut-v0", num_envs=2, graph="er:20:0.3", seed=0)
    try:
        env.reset()
        for bad in ([0, 20], [-1, 0]):
            with pytest.raises(ValueError, match="out of range"):
                env.step(np.array(bad))
        _, _, _, _, info = env.step(np.array([1, 2]))
        np.testing.assert_array_equal(info["elapsed_step"], [1, 1])
    finally:
        env.close()


def test_maxcut_autoreset_modes() -> None:
    kw = {"num_envs": 2, "graph": "er:12:0.5:2", "max_episode_steps": 3, "seed": 1}
    env = envpool_x.make_gymnasium("MaxCut-v0", autoreset_mode="same_step", **kw)
    try:
        env.reset()
        for _ in range(2):
            env.step(np.array([0, 1]))
        obs, _, _, trunc, info = env.step(np.array([2, 3]))
        assert trunc.all() and info["_final_obs"].all()
        np.testing.assert_array_equal(info["final_obs"]["progress"], 1.0)
        np.testing.assert_array_equal(obs["progress"], 0.0)  # already reset
        np.testing.assert_array_equal(info["best_cut"], info["cut"])
    finally:
        env.close()
    env = envpool_x.make_gymnasium("MaxCut-v0", autoreset_mode="disabled", **kw)
    try:
        env.reset()
        for _ in range(3):
            obs, _, _, trunc, _ = env.step(np.array([0, 1]))
        assert trunc.all()
        with pytest.raises(RuntimeError, match="reset"):  # disabled: no reset by a step
            env.step(np.array([0, 1]))
        obs, _ = env.reset(env_id=np.array([1]))
        np.testing.assert_array_equal(obs["progress"], [0.0])
        _, _, _, _, info = env.step(np.array([4]), env_id=np.array([1]))
        np.testing.assert_array_equal(info["elapsed_step"], [1])
    finally:
        env.close()
