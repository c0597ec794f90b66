"""Combinatorial optimisation: ``MaxCut-v0`` and ``TSP-v0`` (docs/combinatorial.md).

This module owns what happens in Python before the C++ pools are built:
reading Gset graph files and TSPLIB instances (a malformed file is a
ValueError naming the file and the line), generating Barabasi-Albert and
Erdos-Renyi graphs from the pool's seed, handing each graph to the C++ graph
registry once (keyed by a hash of its content, shared read-only by every env
that uses it), and the default episode lengths that depend on the instance.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from typing import Any

import numpy as np

from envpool_x import _core
from envpool_x.registration import (
    NO_TIME_LIMIT,
    PER_INSTANCE_TIME_LIMIT,
    Family,
    FamilyMemory,
    declare_family,
    register,
)

# MaxCut keeps about 13 bytes a node, TSP 21 a city, beside what the pool shares:
# three observations' worth.
declare_family(
    Family(
        "combinatorial",
        title="MaxCut, TSP",
        memory=FamilyMemory(heap_observations=3),
        backends={"cuda": ("MaxCut", "Tsp")},
    )
)

#: ``MaxCut-v0``'s graph when none is given.
DEFAULT_GRAPH = "er:100:0.1"
#: A graph: its node count and an (m, 3) int64 array of 0-based edges (i, j, w).
Graph = tuple[int, np.ndarray]


def read_gset(path: str | os.PathLike[str]) -> Graph:
    """Read a graph in the Gset text format: a line ``n m``, then ``m`` lines
    ``i j w`` (1-based nodes, integer weights, possibly negative).

    Raises:
        ValueError: the file is malformed; the message names the file and line.
        OSError: the file cannot be read.
    """
    name = os.fspath(path)
    with open(name, encoding="ascii", errors="replace") as f:
        lines = [(k, line.split()) for k, line in enumerate(f, start=1)]
    lines = [(k, words) for k, words in lines if words]
    if not lines:
        raise ValueError(f"{name}: empty file, expected a first line 'n m'")

    def ints(k: int, words: list[str], count: int, what: str) -> list[int]:
        if len(words) != count:
            raise ValueError(f"{name}, line {k}: expected {what}, got {' '.join(words)!r}")
        try:
            return [int(w) for w in words]
        except ValueError:
            raise ValueError(
                f"{name}, line {k}: expected integers ({what}), got {' '.join(words)!r}"
            ) from None

    k0, head = lines[0]
    n, m = ints(k0, head, 2, "'n m'")
    if n < 1 or m < 0:
        raise ValueError(f"{name}, line {k0}: need n >= 1 and m >= 0, got n={n} m={m}")
    if len(lines) - 1 != m:
        where = lines[m + 1][0] if len(lines) - 1 > m else lines[-1][0]
        raise ValueError(
            f"{name}, line {where}: the header announces {m} edges but the file has "
            f"{len(lines) - 1} edge lines"
        )
    edges = np.empty((m, 3), dtype=np.int64)
    for e, (k, words) in enumerate(lines[1:]):
        i, j, w = ints(k, words, 3, "an edge 'i j w'")
        if not (1 <= i <= n and 1 <= j <= n):
            raise ValueError(f"{name}, line {k}: node {i if not 1 <= i <= n else j} not in 1..{n}")
        edges[e] = (i - 1, j - 1, w)
    return n, edges


def read_tsplib(path: str | os.PathLike[str]) -> tuple[np.ndarray, bool]:
    """Read a TSPLIB instance with a NODE_COORD_SECTION.

    Returns:
        The (N, 2) float64 coordinates and whether distances are rounded to the
        nearest integer (EDGE_WEIGHT_TYPE EUC_2D, TSPLIB's ``nint``); ``EUC_2D``
        is the only weight type supported.

    Raises:
        ValueError: malformed or unsupported file; the message names the line.
    """
    name = os.fspath(path)
    with open(name, encoding="ascii", errors="replace") as f:
        lines = list(enumerate(f, start=1))
    header: dict[str, str] = {}
    coords: list[tuple[float, float]] = []
    in_coords = False
    for k, raw in lines:
        line = raw.strip()
        if not line or line == "EOF":
            if line == "EOF":
                break
            continue
        if not in_coords:
            if line.startswith("NODE_COORD_SECTION"):
                in_coords = True
                continue
            if ":" not in line:
                raise ValueError(f"{name}, line {k}: expected 'KEY : VALUE', got {line!r}")
            key, value = (s.strip() for s in line.split(":", 1))
            header[key] = value
            if key == "EDGE_WEIGHT_TYPE" and value != "EUC_2D":
                raise ValueError(
                    f"{name}, line {k}: EDGE_WEIGHT_TYPE {value} is not supported (EUC_2D only)"
                )
            continue
        words = line.split()
        try:
            index, x, y = int(words[0]), float(words[1]), float(words[2])
            if len(words) != 3:
                raise IndexError
        except (ValueError, IndexError):
            raise ValueError(f"{name}, line {k}: expected a city 'i x y', got {line!r}") from None
        if index != len(coords) + 1:
            raise ValueError(f"{name}, line {k}: expected city {len(coords) + 1}, got {index}")
        if not (np.isfinite(x) and np.isfinite(y)):
            raise ValueError(f"{name}, line {k}: coordinates must be finite")
        coords.append((x, y))
    if not in_coords:
        raise ValueError(f"{name}: no NODE_COORD_SECTION")
    if header.get("EDGE_WEIGHT_TYPE") != "EUC_2D":
        raise ValueError(f"{name}: needs EDGE_WEIGHT_TYPE: EUC_2D")
    if "DIMENSION" in header and header["DIMENSION"] != str(len(coords)):
        raise ValueError(
            f"{name}: DIMENSION is {header['DIMENSION']} but the file lists {len(coords)} cities"
        )
    return np.asarray(coords, dtype=np.float64).reshape(-1, 2), True


def _weights(rng: np.random.Generator, count: int, bound: int) -> np.ndarray:
    """Unit weights (bound 0), else integers uniform in [-bound, bound] without 0."""
    if bound == 0:
        return np.ones(count, dtype=np.int64)
    w = rng.integers(1, bound + 1, count)
    return np.where(rng.random(count) < 0.5, -w, w).astype(np.int64)


def generate_graph(spec: str, seed: int) -> Graph:
    """A random graph: ``"ba:N:M"`` (Barabasi-Albert, each new node joins M
    existing ones, chosen by degree) or ``"er:N:P"`` (Erdos-Renyi, each pair
    with probability P); an optional ``":W"`` gives integer weights uniform in
    [-W, W] without 0 (else all 1). Drawn with numpy's PCG64 from ``seed``.

    Raises:
        ValueError: a malformed spec.
    """
    parts = spec.split(":")
    kind = parts[0]
    try:
        if kind not in ("ba", "er") or len(parts) not in (3, 4):
            raise ValueError
        n = int(parts[1])
        bound = int(parts[3]) if len(parts) == 4 else 0
        m_or_p = int(parts[2]) if kind == "ba" else float(parts[2])
    except ValueError:
        raise ValueError(
            f"graph {spec!r}: expected a Gset file path, 'ba:N:M[:W]' or 'er:N:P[:W]'"
        ) from None
    rng = np.random.default_rng(seed)
    if n < 2 or bound < 0:
        raise ValueError(f"graph {spec!r}: need N >= 2 and W >= 0")
    if kind == "er":
        p = float(m_or_p)
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"graph {spec!r}: P must be in [0, 1]")
        # Row by row (the pair list of a 10,000-node graph would take 800 MB).
        rows = [np.flatnonzero(rng.random(n - 1 - a) < p) + a + 1 for a in range(n - 1)]
        i = np.repeat(np.arange(n - 1, dtype=np.int64), [len(r) for r in rows])
        j = np.concatenate(rows).astype(np.int64)
    else:
        m = int(m_or_p)
        if not 1 <= m < n:
            raise ValueError(f"graph {spec!r}: M must be in [1, N)")
        # Start from a star on m + 1 nodes; then preferential attachment.
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
    w = _weights(rng, i.size, bound)
    return n, np.stack([i, j, w], axis=1).astype(np.int64)


def register_graph(n: int, edges: np.ndarray) -> str:
    """Hand a graph to the C++ registry (once per content) and return its key."""
    edges = np.ascontiguousarray(edges, dtype=np.int64).reshape(-1, 3)
    digest = hashlib.sha256(np.int64(n).tobytes() + edges.tobytes()).hexdigest()[:24]
    key = f"g{n}@{digest}"
    if not _core.maxcut_has_graph(key):
        _core.maxcut_add_graph(key, n, edges[:, 0], edges[:, 1], edges[:, 2])
    return key


def load_graph(graph: Any, seed: int) -> Graph:
    """One graph of a ``graph=`` value: a Gset path, a ``ba:``/``er:`` spec
    (drawn from ``seed``) or an ``(n, edges)`` pair."""
    if isinstance(graph, (str, os.PathLike)):
        text = os.fspath(graph)
        if ":" in text and not os.path.exists(text):
            return generate_graph(text, seed)  # "ba:..." / "er:..." (else a clear error)
        return read_gset(text)
    if isinstance(graph, tuple) and len(graph) == 2:
        n, edges = int(graph[0]), np.asarray(graph[1])
        if edges.ndim != 2 or edges.shape[1] != 3 or not np.issubdtype(edges.dtype, np.integer):
            raise ValueError("an (n, edges) graph needs an (m, 3) integer array of (i, j, w)")
        return n, edges.astype(np.int64)
    raise TypeError(
        "graph must be a Gset file path, 'ba:N:M', 'er:N:P', an (n, edges) pair, or a "
        f"list of those (one per env); got {type(graph).__name__}"
    )


def _base_seed(config: dict[str, Any]) -> int:
    seed = config["seed"]
    return int(seed) if isinstance(seed, (int, np.integer)) else int(seed[0])


def _resolve_maxcut(config: dict[str, Any]) -> None:
    """Register the pool's graph(s) and fill ``graph_keys`` and the time limit.

    A list gives one graph per env (its length must be num_envs; entry i of a
    generated kind is drawn from seed + i); every graph needs the same node
    count, because the observation's arrays are batched.
    """
    graph = config["graph"]
    seed = _base_seed(config)
    if isinstance(graph, str) and graph.startswith("<") and config["graph_keys"]:
        keys = list(config["graph_keys"])  # a spec rebuilt from its own config
        sizes = [int(k[1:].split("@")[0]) for k in keys]
    elif isinstance(graph, Sequence) and not isinstance(graph, (str, tuple)):
        if len(graph) != config["num_envs"]:
            raise ValueError(
                f"graph is a list of {len(graph)} graphs but num_envs={config['num_envs']} "
                "(give one graph per env, or one graph for the whole pool)"
            )
        loaded = [load_graph(g, seed + i) for i, g in enumerate(graph)]
        sizes = [n for n, _ in loaded]
        if len(set(sizes)) > 1:
            raise ValueError(
                "MaxCut graphs of one pool need the same node count (the observations are "
                f"batched arrays); got node counts {sorted(set(sizes))}"
            )
        keys = [register_graph(n, e) for n, e in loaded]
        config["graph"] = f"<{len(keys)} graphs>"
    else:
        n, edges = load_graph(graph, seed)
        keys, sizes = [register_graph(n, edges)], [n]
        if not isinstance(graph, str):
            config["graph"] = "<1 graph>" if isinstance(graph, tuple) else os.fspath(graph)
    config["graph_keys"] = keys
    if config["max_episode_steps"] is None:  # the default: 2n flips
        config["max_episode_steps"] = 2 * sizes[0]


def _resolve_tsp(config: dict[str, Any]) -> None:
    """Parse ``coords`` (a TSPLIB path) into the cities; the time limit."""
    if config["coords"] and not config["coord_values"]:
        config["coords"] = os.fspath(config["coords"])
        xy, rounded = read_tsplib(config["coords"])
        config["coord_values"] = [float(v) for v in xy.reshape(-1)]
        config["round_distances"] = rounded
    n = len(config["coord_values"]) // 2 or int(config["num_nodes"])
    if config["max_episode_steps"] is None:  # the default: N moves, or none (construct)
        config["max_episode_steps"] = n if config["mode"] == "2opt" else NO_TIME_LIMIT


# The default episode lengths depend on the instance (MaxCut: 2n flips; TSP:
# N 2-opt moves, or no limit in construct mode, whose episodes end after N
# steps): _resolve_* sets them when the user gives none.
register(
    "MaxCut-v0",
    "MaxCut",
    "combinatorial",
    PER_INSTANCE_TIME_LIMIT,
    resolve=_resolve_maxcut,
    graph=DEFAULT_GRAPH,
)
register("TSP-v0", "Tsp", "combinatorial", PER_INSTANCE_TIME_LIMIT, resolve=_resolve_tsp)
