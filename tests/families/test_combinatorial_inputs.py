"""MaxCut and TSP with bad or huge input: graphs over the size bounds are a
ValueError naming the counts and the limit (before anything is drawn or read),
graphs that would not fit a MemoryError with the numbers, random graphs are
drawn in O(n + edges) (the same graphs as before where one uniform per pair is
still drawn), and TSP's cities come from one place."""

from __future__ import annotations

import math
import time
from pathlib import Path

import numpy as np
import pytest

import envpool_x
from envpool_x.families import graphs
from envpool_x.families.graphs import generate_graph, read_gset
from envpool_x.memory_available import Available

DATA = Path(__file__).resolve().parents[3] / "shared" / "data"
BERLIN52 = DATA / "tsplib" / "berlin52.tsp"
needs_berlin = pytest.mark.skipif(not BERLIN52.exists(), reason=f"berlin52 not at {BERLIN52}")


def _old_generate(spec: str, seed: int) -> tuple[int, np.ndarray]:
    """The generator before size bounds (one uniform per pair, a Python list of
    edge ends): the reference the kept graphs must equal."""
    kind, n_text, mp, *rest = spec.split(":")
    n, bound = int(n_text), int(rest[0]) if rest else 0
    rng = np.random.default_rng(seed)
    if kind == "er":
        rows = [np.flatnonzero(rng.random(n - 1 - a) < float(mp)) + a + 1 for a in range(n - 1)]
        i = np.repeat(np.arange(n - 1, dtype=np.int64), [len(r) for r in rows])
        j = np.concatenate(rows).astype(np.int64)
    else:
        m = int(mp)
        ends: list[int] = []
        pairs = [(0, t) for t in range(1, m + 1)]
        for a, b in pairs:
            ends += [a, b]
        for new in range(m + 1, n):
            targets: set[int] = set()
            while len(targets) < m:
                targets.add(ends[int(rng.integers(len(ends)))])
            for t in sorted(targets):
                pairs.append((t, new))
                ends += [t, new]
        arr = np.asarray(pairs, dtype=np.int64)
        i, j = arr[:, 0], arr[:, 1]
    if bound == 0:
        w = np.ones(i.size, dtype=np.int64)
    else:
        w = rng.integers(1, bound + 1, i.size)
        w = np.where(rng.random(i.size) < 0.5, -w, w).astype(np.int64)
    return n, np.stack([i, j, w], axis=1)


@pytest.mark.parametrize(
    "spec", ["er:40:0.3:5", "er:300:0.05", "er:2000:0.01:3", "ba:50:3:7", "ba:500:4", "er:2:1.0"]
)
def test_graphs_that_worked_before_are_the_same(spec: str) -> None:
    for seed in (0, 11):
        n, edges = generate_graph(spec, seed)
        n_old, edges_old = _old_generate(spec, seed)
        assert n == n_old
        np.testing.assert_array_equal(edges, edges_old)


def test_a_ten_million_node_graph_is_refused_at_once() -> None:
    start = time.perf_counter()
    with pytest.raises(ValueError) as info:
        envpool_x.make_spec("MaxCut-v0", graph="er:10000000:1e-7")
    assert time.perf_counter() - start < 1.0
    assert str(info.value) == (
        "graph 'er:10000000:1e-7': 10,000,000 nodes (5,000,000 edges) is above the limit of "
        "4,194,304 nodes of a MaxCut graph"
    )


@pytest.mark.parametrize(
    ("graph", "match"),
    [
        ("er:100000:0.1", r"499,995,000 edges \(100,000 nodes\) is above the limit of 33,554,432"),
        ("ba:1000000:2", r"1,000,000 nodes and 1,999,996 edges is above the limits of a Barabasi"),
        ("ba:10000:5000", r"25,000,000 edges is above the limits of a Barabasi-Albert graph"),
        ("er:100:nan", "P must be in"),
        ("er:100:-0.5", "P must be in"),
        ("er:1:0.5", "need N >= 2"),
        ("er:10:0.5:-1", "W in"),
        ("ba:10:0", r"M must be in \[1, N\)"),
        ("xx:10:2", "expected a Gset file path"),
    ],
)
def test_random_graphs_over_the_bounds_are_refused(graph: str, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        envpool_x.make_spec("MaxCut-v0", graph=graph)


def test_a_large_sparse_graph_is_drawn_in_linear_time() -> None:
    n, p = 2_000_000, 2e-6  # 2e12 pairs: hours at one uniform per pair
    start = time.perf_counter()
    got_n, edges = generate_graph(f"er:{n}:{p}", 3)
    assert time.perf_counter() - start < 30
    i, j = edges[:, 0], edges[:, 1]
    assert got_n == n and (i < j).all() and (j < n).all() and (i >= 0).all()
    assert len(np.unique(i * n + j)) == len(i)  # no pair twice
    mean = p * n * (n - 1) / 2
    assert abs(len(i) - mean) < 6 * math.sqrt(mean), (len(i), mean)
    # Every node range is reached (the pairs are spread over all rows).
    assert i.min() < n // 100 and i.max() > n - n // 100


def test_the_geometric_generator_matches_the_pair_probability() -> None:
    # Just above DENSE_PAIRS: each pair's rate matches P (rows and columns alike).
    n = 11_600
    assert n * (n - 1) // 2 > graphs.DENSE_PAIRS
    _, edges = generate_graph(f"er:{n}:0.002", 5)
    rows = np.bincount(edges[:, 0], minlength=n)[: n // 2]
    expected = 0.002 * (n - 1 - np.arange(n // 2))
    assert abs(rows.sum() - expected.sum()) < 6 * math.sqrt(expected.sum())


def _gset(tmp_path: Path, text: str) -> str:
    path = tmp_path / "g.txt"
    path.write_text(text)
    return str(path)


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("1000000000000 1\n1 2 1\n", r"1,000,000,000,000 nodes \(1 edges\) is above the limit"),
        ("5000000 0\n", r"5,000,000 nodes \(0 edges\) is above the limit of 4,194,304 nodes"),
        ("10 100000000\n1 2 1\n", r"100,000,000 edges \(10 nodes\) is above the limit"),
        ("3 1\n1 2 99999999999999999999\n", "weight 99999999999999999999 is out of range"),
        ("3 1\n1 2 1\n2 3 1\n", "announces 1 edges but the file has more edge lines"),
    ],
)
def test_a_gset_file_over_the_bounds_names_its_counts(
    tmp_path: Path, text: str, match: str
) -> None:
    with pytest.raises(ValueError, match=match):
        envpool_x.make_spec("MaxCut-v0", graph=_gset(tmp_path, text))


def test_a_graph_that_does_not_fit_is_a_memory_error_with_numbers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    small = Available(1 << 20, None, None, {"MemAvailable": 1 << 20})
    monkeypatch.setattr(graphs.memory, "available", lambda spec=None: small)
    path = _gset(tmp_path, "4000000 0\n")
    with pytest.raises(MemoryError) as info:
        read_gset(path)
    assert str(info.value).startswith(
        f"{path}: a graph of 4,000,000 nodes and 0 edges needs about 122.1 MiB while it is "
        "built, but this process has 1.0 MiB"
    )
    with pytest.raises(MemoryError, match="a graph of 3,000,000 nodes and 450 edges"):
        envpool_x.make_spec("MaxCut-v0", graph="er:3000000:1e-10")
    # check_memory=False skips it, as for pools.
    n, _ = read_gset(path, check_memory=False)
    assert n == 4_000_000


@pytest.mark.parametrize(
    ("graph", "exc", "match"),
    [
        ((True, np.zeros((0, 3), np.int64)), TypeError, "needs an int n, got bool"),
        ((5_000_000, np.zeros((0, 3), np.int64)), ValueError, "5,000,000 nodes"),
        ((0, np.zeros((0, 3), np.int64)), ValueError, "needs n >= 1, got 0"),
        ((3, np.zeros((2, 2), np.int64)), ValueError, r"an \(m, 3\) integer array"),
    ],
)
def test_bad_edge_pairs(graph: tuple, exc: type[Exception], match: str) -> None:
    with pytest.raises(exc, match=match):
        envpool_x.make_spec("MaxCut-v0", graph=graph)


def test_graph_keys_that_name_another_graph_are_refused() -> None:
    with pytest.raises(ValueError, match="graph_keys=\\['x'\\] do not name the graph"):
        envpool_x.make_spec("MaxCut-v0", graph_keys=["x"])


# ---- TSP: one source of cities -------------------------------------------------------


@needs_berlin
def test_tsp_coords_and_a_different_num_nodes_are_refused() -> None:
    with pytest.raises(ValueError, match=r"num_nodes=50 but coords=.* lists 52 cities"):
        envpool_x.make_spec("TSP-v0", coords=str(BERLIN52), num_nodes=50)
    spec = envpool_x.make_spec("TSP-v0", coords=str(BERLIN52), num_nodes=52)
    assert spec.config.num_nodes == 52
    assert envpool_x.make_spec("TSP-v0", coords=str(BERLIN52)).config.num_nodes == 52


@needs_berlin
def test_tsp_coord_values_that_differ_from_coords_are_refused() -> None:
    with pytest.raises(ValueError, match="coord_values differ from the cities of coords"):
        envpool_x.make_spec("TSP-v0", coords=str(BERLIN52), coord_values=[0.0] * 104)


@pytest.mark.parametrize(
    ("kw", "exc", "match"),
    [
        ({"coord_values": [0.0, 0.0, 1.0, 1.0, 2.0], "num_nodes": 3}, ValueError, "x, y pairs"),
        ({"coord_values": [0.0, 0.0, 1.0, 1.0]}, ValueError, "hold 2 cities; TSP needs between"),
        ({"coord_values": [0.0, 0.0, 1.0, 1.0, 2.0, 0.5], "num_nodes": 4}, ValueError, "give one"),
        ({"coord_values": [0.0, 0.0, 1.0, math.nan, 2.0, 0.5]}, ValueError, r"coord_values\[3\]"),
        ({"round_distances": True}, ValueError, "round_distances=True applies to fixed cities"),
        ({"num_nodes": math.nan}, TypeError, "num_nodes must be an int"),
        ({"num_nodes": 10**6}, ValueError, r"num_nodes must be an int in \[3, 46340\]"),
        ({"coords": 3}, TypeError, "coords must be a TSPLIB file path"),
        ({"mode": "3opt"}, ValueError, "mode must be one of"),
    ],
)
def test_tsp_contradictions_and_ranges(kw: dict, exc: type[Exception], match: str) -> None:
    with pytest.raises(exc, match=match):
        envpool_x.make_spec("TSP-v0", **kw)


def test_tsp_coord_values_alone_set_num_nodes() -> None:
    spec = envpool_x.make_spec("TSP-v0", coord_values=[0.0, 0.0, 1.0, 1.0, 2.0, 0.5])
    assert spec.config.num_nodes == 3


@pytest.mark.parametrize("graph", ["", "no_such_file.txt", "/"])
def test_a_graph_path_that_is_not_a_file_is_named(graph: str) -> None:
    with pytest.raises(FileNotFoundError, match=f"graph {graph!r} is not a Gset file"):
        envpool_x.make_spec("MaxCut-v0", graph=graph)


@pytest.mark.parametrize("coords", ["no_such_file.tsp", "/"])
def test_tsp_coords_that_are_not_a_file_are_named(coords: str) -> None:
    with pytest.raises(FileNotFoundError, match=f"coords={coords!r} is not a TSPLIB file"):
        envpool_x.make_spec("TSP-v0", coords=coords)
