"""MaxCut-v0 and TSP-v0 against plain numpy computations.

MaxCut: after every step the cut, every node's gain and the reward are
recomputed from the returned assignment with a dense weight matrix (on Gset
G14 and on generated graphs with negative weights). TSP: rewards and tour
lengths from the visited order, 2-opt moves against a numpy reversal. Also
determinism across thread counts and batch sizes, bad inputs (clear errors,
the pool still usable), every front end and autoreset mode.
"""

from __future__ import annotations

from pathlib import Path

import dm_env
import numpy as np
import pytest

import envpool_x
from envpool_x.families.combinatorial import generate_graph, read_gset, read_tsplib

DATA = Path(__file__).resolve().parents[3] / "shared" / "data"
G14 = DATA / "gset" / "G14.txt"
BERLIN52 = DATA / "tsplib" / "berlin52.tsp"
needs_g14 = pytest.mark.skipif(not G14.exists(), reason=f"Gset G14 not found at {G14}")
needs_berlin = pytest.mark.skipif(not BERLIN52.exists(), reason=f"berlin52 not at {BERLIN52}")


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
