"""The instances of the combinatorial family: Gset graphs and TSPLIB cities read
from files, Barabasi-Albert and Erdos-Renyi graphs drawn from a seed, and the
bounds on their size (docs/combinatorial.md).

Every graph is checked against :data:`MAX_NODES` and :data:`MAX_EDGES` before
it is read or drawn (a ValueError naming the counts and the limit, with the
expected edges of a random graph), and against the memory this process may
still use (a MemoryError with the numbers). Generation takes time linear in
nodes + edges.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from envpool_x import memory

#: The most nodes of a MaxCut graph (every env keeps about 13 bytes a node, its
#: observation 5 more, and an episode flips 2n times by default).
MAX_NODES = 1 << 22
#: The most edges of a MaxCut graph (about 100 bytes an edge while it is built).
MAX_EDGES = 1 << 25
#: Barabasi-Albert graphs are drawn one node at a time (each node's draws depend
#: on the degrees so far), about 10-30 us a node and 2-10 us an edge in Python:
#: their own, lower bounds keep a draw under half a minute.
MAX_BA_NODES = 1 << 19
MAX_BA_EDGES = 1 << 23
#: Bytes a graph takes while it is handed to C++, per node and per edge: the
#: (m, 3) edge array, C++'s copies of its columns and the CSR arrays (neighbour
#: int32 and weight int64 in both directions), with the generators' scratch.
GRAPH_BYTES_PER_NODE = 32
GRAPH_BYTES_PER_EDGE = 96
#: Erdos-Renyi graphs with at most this many node pairs draw one uniform per
#: pair (the graphs of envpool_x before geometric skipping, kept identical);
#: larger ones skip from edge to edge with geometric gaps, O(n + edges).
DENSE_PAIRS = 1 << 26
#: Uniforms drawn at once by the dense Erdos-Renyi generator.
_CHUNK = 1 << 22
#: A graph: its node count and an (m, 3) int64 array of 0-based edges (i, j, w).
Graph = tuple[int, np.ndarray]


def check_graph_size(what: str, n: int, edges: float, check_memory: bool = True) -> None:
    """Refuse a graph of ``n`` nodes and (about) ``edges`` edges that is over
    the bounds, or that would not fit in the memory this process may use.

    Raises:
        ValueError: more than :data:`MAX_NODES` nodes or :data:`MAX_EDGES` edges.
        MemoryError: the graph would not fit (unless ``check_memory`` is False).
    """
    if n > MAX_NODES:
        raise ValueError(
            f"{what}: {n:,} nodes ({edges:,.0f} edges) is above the limit of "
            f"{MAX_NODES:,} nodes of a MaxCut graph"
        )
    if edges > MAX_EDGES:
        raise ValueError(
            f"{what}: {edges:,.0f} edges ({n:,} nodes) is above the limit of "
            f"{MAX_EDGES:,} edges of a MaxCut graph"
        )
    need = GRAPH_BYTES_PER_NODE * n + GRAPH_BYTES_PER_EDGE * edges
    have = memory.available().resident
    if check_memory and have is not None and need > have:
        raise MemoryError(
            f"{what}: a graph of {n:,} nodes and {edges:,.0f} edges needs about "
            f"{memory.fmt_bytes(need)} while it is built, but this process has "
            f"{memory.fmt_bytes(have)}; pass check_memory=False or set "
            f"{memory.SKIP_ENV_VAR}=1 if you know better"
        )


def _header(name: str, k: int, words: list[str]) -> tuple[int, int]:
    if len(words) != 2:
        raise ValueError(f"{name}, line {k}: expected 'n m', got {' '.join(words)!r}")
    try:
        n, m = int(words[0]), int(words[1])
    except ValueError:
        raise ValueError(
            f"{name}, line {k}: expected integers ('n m'), got {' '.join(words)!r}"
        ) from None
    if n < 1 or m < 0:
        raise ValueError(f"{name}, line {k}: need n >= 1 and m >= 0, got n={n} m={m}")
    return n, m


def read_gset(path: str | os.PathLike[str], check_memory: bool = True) -> Graph:
    """Read a graph in the Gset text format: a line ``n m``, then ``m`` lines
    ``i j w`` (1-based nodes, integer weights, possibly negative). The header's
    counts are checked against the bounds (:func:`check_graph_size`) before
    any edge is read.

    Raises:
        ValueError: the file is malformed (the message names the file and
            line), or the graph is over the bounds.
        MemoryError: the graph would not fit in memory.
        OSError: the file cannot be read.
    """
    name = os.fspath(path)
    with open(name, encoding="ascii", errors="replace") as f:
        numbered = ((k, line.split()) for k, line in enumerate(f, start=1))
        lines = ((k, words) for k, words in numbered if words)
        first = next(lines, None)
        if first is None:
            raise ValueError(f"{name}: empty file, expected a first line 'n m'")
        n, m = _header(name, *first)
        check_graph_size(name, n, m, check_memory)
        edges = np.empty((m, 3), dtype=np.int64)
        count, last = 0, first[0]
        for k, words in lines:
            if count == m:
                raise ValueError(
                    f"{name}, line {k}: the header announces {m} edges but the file has more "
                    "edge lines"
                )
            edges[count] = _edge(name, k, words, n)
            count, last = count + 1, k
    if count != m:
        raise ValueError(
            f"{name}, line {last}: the header announces {m} edges but the file has "
            f"{count} edge lines"
        )
    return n, edges


def _edge(name: str, k: int, words: list[str], n: int) -> tuple[int, int, int]:
    """One 1-based edge line ``i j w`` as a 0-based edge."""
    if len(words) != 3:
        raise ValueError(f"{name}, line {k}: expected an edge 'i j w', got {' '.join(words)!r}")
    try:
        i, j, w = (int(v) for v in words)
    except ValueError:
        raise ValueError(
            f"{name}, line {k}: expected integers (an edge 'i j w'), got {' '.join(words)!r}"
        ) from None
    if not (1 <= i <= n and 1 <= j <= n):
        raise ValueError(f"{name}, line {k}: node {i if not 1 <= i <= n else j} not in 1..{n}")
    if not -(2**62) <= w <= 2**62:
        raise ValueError(f"{name}, line {k}: weight {w} is out of range [-2**62, 2**62]")
    return i - 1, j - 1, w


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


def _parse(spec: str) -> tuple[str, int, float, int]:
    """``(kind, N, M or P, W)`` of a ``"ba:N:M[:W]"`` / ``"er:N:P[:W]"`` spec."""
    parts = spec.split(":")
    try:
        if parts[0] not in ("ba", "er") or len(parts) not in (3, 4):
            raise ValueError
        n = int(parts[1])
        bound = int(parts[3]) if len(parts) == 4 else 0
        m_or_p = float(int(parts[2])) if parts[0] == "ba" else float(parts[2])
    except ValueError:
        raise ValueError(
            f"graph {spec!r}: expected a Gset file path, 'ba:N:M[:W]' or 'er:N:P[:W]'"
        ) from None
    if n < 2 or not 0 <= bound <= 2**62:
        raise ValueError(f"graph {spec!r}: need N >= 2 and W in [0, 2**62]")
    if parts[0] == "er" and not 0.0 <= m_or_p <= 1.0:  # NaN fails too
        raise ValueError(f"graph {spec!r}: P must be in [0, 1]")
    if parts[0] == "ba" and not 1 <= m_or_p < n:
        raise ValueError(f"graph {spec!r}: M must be in [1, N)")
    return parts[0], n, m_or_p, bound


def expected_edges(spec: str) -> float:
    """The edges a ``ba:`` spec gives, or an ``er:`` spec's expected count."""
    kind, n, m_or_p, _ = _parse(spec)
    if kind == "ba":
        return m_or_p * (n - m_or_p)  # a star of M edges, then M per new node
    return m_or_p * (n * (n - 1) / 2)


def generate_graph(spec: str, seed: int, check_memory: bool = True) -> Graph:
    """A random graph: ``"ba:N:M"`` (Barabasi-Albert, each new node joins M
    existing ones, chosen by degree) or ``"er:N:P"`` (Erdos-Renyi, each pair
    with probability P); an optional ``":W"`` gives integer weights uniform in
    [-W, W] without 0 (else all 1). Drawn with numpy's PCG64 from ``seed``.

    Barabasi-Albert graphs have at most :data:`MAX_BA_NODES` nodes and
    :data:`MAX_BA_EDGES` edges. Erdos-Renyi graphs of at most
    :data:`DENSE_PAIRS` node pairs (N up to 11,586) draw one uniform per pair,
    as envpool_x always has (the same graphs for the same seed); larger ones
    draw geometric gaps between edges, which takes O(N + edges) but gives other
    graphs than one uniform per pair would.

    Raises:
        ValueError: a malformed spec, or a graph over the bounds (the message
            gives its nodes and expected edges, and the limit).
        MemoryError: the graph would not fit in memory.
    """
    kind, n, m_or_p, bound = _parse(spec)
    edges = expected_edges(spec)
    if kind == "ba" and (n > MAX_BA_NODES or edges > MAX_BA_EDGES):
        raise ValueError(
            f"graph {spec!r}: {n:,} nodes and {edges:,.0f} edges is above the limits of a "
            f"Barabasi-Albert graph, {MAX_BA_NODES:,} nodes and {MAX_BA_EDGES:,} edges (drawn "
            "one node at a time); use an 'er:N:P' graph or an (n, edges) pair for larger ones"
        )
    check_graph_size(f"graph {spec!r}", n, edges, check_memory)
    rng = np.random.default_rng(seed)
    if kind == "er":
        i, j = _erdos_renyi(rng, n, m_or_p, spec)
    else:
        i, j = _barabasi_albert(rng, n, int(m_or_p))
    w = _weights(rng, i.size, bound)
    return n, np.stack([i, j, w], axis=1).astype(np.int64)


def _erdos_renyi(
    rng: np.random.Generator, n: int, p: float, spec: str
) -> tuple[np.ndarray, np.ndarray]:
    """The edges (i < j, by i then j) of G(n, p)."""
    pairs = n * (n - 1) // 2
    if pairs <= DENSE_PAIRS:
        return _erdos_renyi_dense(rng, n, p)
    if p == 0.0:
        flat = np.empty(0, dtype=np.int64)
    elif p == 1.0:
        flat = np.arange(pairs, dtype=np.int64)
    else:
        chunks, last = [], -1
        total = 0
        while last < pairs:
            # Enough gaps to pass the end most of the time; more rounds otherwise.
            size = int((pairs - last) * p * 1.05) + 1024
            pos: np.ndarray = last + np.cumsum(rng.geometric(p, size), dtype=np.int64)
            last = int(pos[-1])
            pos = pos[pos < pairs]
            chunks.append(pos)
            total += pos.size
            if total > MAX_EDGES:
                raise ValueError(f"graph {spec!r}: drew more than the limit of {MAX_EDGES:,} edges")
        flat = np.concatenate(chunks)
    # Pair index -> (row a, column j): row a starts at a * (2n - a - 1) / 2.
    rows = np.arange(n - 1, dtype=np.int64)
    starts = rows * (2 * n - rows - 1) // 2
    a = np.searchsorted(starts, flat, side="right") - 1
    return a, flat - starts[a] + a + 1


def _erdos_renyi_dense(rng: np.random.Generator, n: int, p: float) -> tuple[np.ndarray, np.ndarray]:
    """G(n, p) from one uniform per pair, row by row (row a: pairs (a, a+1..n-1)),
    drawn a block of rows at a time."""
    i_parts, j_parts = [], []
    a = 0
    while a < n - 1:
        # Rows a..b-1 in one draw of at most _CHUNK uniforms (at least one row).
        lengths: np.ndarray = np.arange(n - 1 - a, 0, -1, dtype=np.int64)
        count = max(1, int(np.searchsorted(np.cumsum(lengths), _CHUNK, side="right")))
        lengths = lengths[:count]
        starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
        hits = np.flatnonzero(rng.random(int(lengths.sum())) < p)
        row = np.searchsorted(starts, hits, side="right") - 1
        i_parts.append(row + a)
        j_parts.append(hits - starts[row] + row + a + 1)
        a += count
    return np.concatenate(i_parts).astype(np.int64), np.concatenate(j_parts).astype(np.int64)


def _barabasi_albert(rng: np.random.Generator, n: int, m: int) -> tuple[np.ndarray, np.ndarray]:
    """Preferential attachment from a star on m + 1 nodes: each new node joins m
    distinct nodes drawn by degree (an end of a uniformly drawn edge end)."""
    total = m * (n - m)
    i = np.empty(total, dtype=np.int64)
    j = np.empty(total, dtype=np.int64)
    ends = np.empty(2 * total, dtype=np.int64)  # every edge's two ends, in order
    i[:m], j[:m] = 0, np.arange(1, m + 1)
    ends[0 : 2 * m : 2], ends[1 : 2 * m : 2] = 0, j[:m]
    e = m
    for new in range(m + 1, n):
        targets: set[int] = set()
        while len(targets) < m:
            # m - |targets| draws at once: the set can only reach m at the last,
            # so this draws what one draw at a time would.
            targets.update(ends[rng.integers(2 * e, size=m - len(targets))].tolist())
        i[e : e + m] = sorted(targets)
        j[e : e + m] = new
        ends[2 * e : 2 * (e + m) : 2] = i[e : e + m]
        ends[2 * e + 1 : 2 * (e + m) : 2] = new
        e += m
    return i, j


def graph_of_pair(graph: tuple[Any, Any], check_memory: bool = True) -> Graph:
    """An ``(n, edges)`` pair checked: n an int, edges an (m, 3) integer array,
    both within the bounds."""
    n, edges = graph
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise TypeError(f"an (n, edges) graph needs an int n, got {type(n).__name__}")
    edges = np.asarray(edges)
    if edges.ndim != 2 or edges.shape[1] != 3 or not np.issubdtype(edges.dtype, np.integer):
        raise ValueError("an (n, edges) graph needs an (m, 3) integer array of (i, j, w)")
    if n < 1:
        raise ValueError(f"an (n, edges) graph needs n >= 1, got {n}")
    check_graph_size("an (n, edges) graph", int(n), edges.shape[0], check_memory)
    return int(n), edges.astype(np.int64)


__all__ = [
    "DENSE_PAIRS",
    "MAX_BA_EDGES",
    "MAX_BA_NODES",
    "MAX_EDGES",
    "MAX_NODES",
    "Graph",
    "check_graph_size",
    "expected_edges",
    "generate_graph",
    "graph_of_pair",
    "read_gset",
    "read_tsplib",
]
