"""Combinatorial optimisation: ``MaxCut-v0`` and ``TSP-v0`` (docs/combinatorial.md).

This module owns what happens in Python before the C++ pools are built: the
declared range of every option (:data:`OPTIONS`) and the options that must
agree (TSP's ``coords`` and ``num_nodes``), loading each graph
(:mod:`envpool_x.families.graphs`: Gset files, TSPLIB instances, random graphs,
their size bounds), handing each graph to the C++ graph registry once (keyed
by a hash of its content, shared read-only by every env that uses it), and the
default episode lengths that depend on the instance.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from envpool_x import _core, memory
from envpool_x.families.graphs import (
    Graph,
    generate_graph,
    graph_of_pair,
    read_gset,
    read_tsplib,
)
from envpool_x.options import ANY, BOOL, Choice, Floats, Int, OptionTable
from envpool_x.registration import (
    NO_TIME_LIMIT,
    PER_INSTANCE_TIME_LIMIT,
    Family,
    FamilyMemory,
    declare_family,
    register,
)

#: ``MaxCut-v0``'s graph when none is given.
DEFAULT_GRAPH = "er:100:0.1"
#: The most cities of a TSP instance (C++ keeps squared distances in int32 range).
MAX_CITIES = 46340


def register_graph(n: int, edges: np.ndarray) -> str:
    """Hand a graph to the C++ registry (once per content) and return its key."""
    edges = np.ascontiguousarray(edges, dtype=np.int64).reshape(-1, 3)
    digest = hashlib.sha256(np.int64(n).tobytes() + edges.tobytes()).hexdigest()[:24]
    key = f"g{n}@{digest}"
    if not _core.maxcut_has_graph(key):
        _core.maxcut_add_graph(key, n, edges[:, 0], edges[:, 1], edges[:, 2])
    return key


def load_graph(graph: Any, seed: int, check_memory: bool = True) -> Graph:
    """One graph of a ``graph=`` value: a Gset path, a ``ba:``/``er:`` spec
    (drawn from ``seed``) or an ``(n, edges)`` pair, within the size bounds."""
    if isinstance(graph, (str, os.PathLike)):
        text = os.fspath(graph)
        if ":" in text and not os.path.exists(text):
            # "ba:..." / "er:..." (else a clear error)
            return generate_graph(text, seed, check_memory)
        if not os.path.isfile(text):
            raise FileNotFoundError(
                f"graph {text!r} is not a Gset file (nor 'ba:N:M[:W]' / 'er:N:P[:W]')"
            )
        return read_gset(text, check_memory)
    if isinstance(graph, tuple) and len(graph) == 2:
        return graph_of_pair(graph, check_memory)
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
    given_keys = list(config["graph_keys"])
    check = _memory_checked(config)
    if isinstance(graph, str) and graph.startswith("<") and given_keys:
        keys = list(config["graph_keys"])  # a spec rebuilt from its own config
        sizes = [int(k[1:].split("@")[0]) for k in keys]
    elif isinstance(graph, Sequence) and not isinstance(graph, (str, tuple)):
        if len(graph) != config["num_envs"]:
            raise ValueError(
                f"graph is a list of {len(graph)} graphs but num_envs={config['num_envs']} "
                "(give one graph per env, or one graph for the whole pool)"
            )
        loaded = [load_graph(g, seed + i, check) for i, g in enumerate(graph)]
        sizes = [n for n, _ in loaded]
        if len(set(sizes)) > 1:
            raise ValueError(
                "MaxCut graphs of one pool need the same node count (the observations are "
                f"batched arrays); got node counts {sorted(set(sizes))}"
            )
        keys = [register_graph(n, e) for n, e in loaded]
        config["graph"] = f"<{len(keys)} graphs>"
    else:
        n, edges = load_graph(graph, seed, check)
        keys, sizes = [register_graph(n, edges)], [n]
        if not isinstance(graph, str):
            config["graph"] = "<1 graph>" if isinstance(graph, tuple) else os.fspath(graph)
    if given_keys and given_keys != keys:
        raise ValueError(
            f"MaxCut-v0: graph_keys={given_keys!r} do not name the graph(s) of graph="
            f"{graph!r} ({keys!r}); graph_keys is filled by envpool_x from graph: leave it out"
        )
    config["graph_keys"] = keys
    if config["max_episode_steps"] is None:  # the default: 2n flips
        config["max_episode_steps"] = 2 * sizes[0]


def _read_coords(path: str) -> tuple[np.ndarray, bool]:
    """TSP's ``coords``: a TSPLIB file (:func:`read_tsplib`)."""
    if not os.path.isfile(path):
        raise FileNotFoundError(f"TSP-v0: coords={path!r} is not a TSPLIB file")
    return read_tsplib(path)


def _memory_checked(config: dict[str, Any]) -> bool:
    """Whether graphs are checked against the memory (as pools are)."""
    skip = os.environ.get(memory.SKIP_ENV_VAR, "") not in ("", "0")
    return bool(config.get("check_memory", True)) and not skip


def _resolve_tsp(config: dict[str, Any]) -> None:
    """Parse ``coords`` (a TSPLIB path) into the cities (checking a given
    ``coord_values`` against them), set ``num_nodes`` to the instance's city
    count, and the time limit."""
    if config["coords"]:
        config["coords"] = os.fspath(config["coords"])
        xy, rounded = _read_coords(config["coords"])
        values = [float(v) for v in xy.reshape(-1)]
        if config["coord_values"] and list(map(float, config["coord_values"])) != values:
            raise ValueError(
                f"TSP-v0: coord_values differ from the cities of coords={config['coords']!r}; "
                "coord_values is filled by envpool_x from coords: leave it out"
            )
        config["coord_values"] = values
        config["round_distances"] = rounded
    if config["coord_values"]:
        config["num_nodes"] = len(config["coord_values"]) // 2
    n = int(config["num_nodes"])
    if config["max_episode_steps"] is None:  # the default: N moves, or none (construct)
        config["max_episode_steps"] = n if config["mode"] == "2opt" else NO_TIME_LIMIT


def _tsp_instance(task_id: str, config: Mapping[str, Any], given: frozenset[str]) -> None:
    """TSP's cities come from one place: ``num_nodes`` random cities, or the
    cities of ``coords`` / ``coord_values``, whose count ``num_nodes`` may only
    repeat; ``round_distances`` belongs to an instance of fixed cities."""
    if not isinstance(config["coords"], (str, os.PathLike)):
        raise TypeError(
            f"{task_id}: coords must be a TSPLIB file path (str or os.PathLike), got "
            f"{type(config['coords']).__name__}"
        )
    values = list(config["coord_values"])
    if len(values) % 2:
        raise ValueError(f"{task_id}: coord_values must hold x, y pairs, got {len(values)} numbers")
    cities = len(values) // 2
    if values and not 3 <= cities <= MAX_CITIES:
        raise ValueError(
            f"{task_id}: coord_values hold {cities} cities; TSP needs between 3 and {MAX_CITIES}"
        )
    fixed = bool(config["coords"]) or bool(values)
    if not fixed and "round_distances" in given and config["round_distances"]:
        raise ValueError(
            f"{task_id}: round_distances=True applies to fixed cities (coords or "
            "coord_values); random cities in the unit square would round every distance to 0 or 1"
        )
    if not config["coords"] or "num_nodes" not in given:
        if values and "num_nodes" in given and int(config["num_nodes"]) != cities:
            raise ValueError(
                f"{task_id}: num_nodes={config['num_nodes']} but coord_values hold {cities} "
                "cities; give one of them"
            )
        return
    xy, _ = _read_coords(os.fspath(config["coords"]))
    if int(config["num_nodes"]) != len(xy):
        raise ValueError(
            f"{task_id}: num_nodes={config['num_nodes']} but coords={config['coords']!r} "
            f"lists {len(xy)} cities; give one of them (num_nodes is taken from the file)"
        )


#: The declared options of MaxCut and TSP (graph values are checked when loaded:
#: a Gset file, a ba:/er: spec, an (n, edges) pair or a list of them).
OPTIONS = {
    "MaxCut": OptionTable(
        {
            "graph": ANY,
            "graph_keys": ANY,
            "init": Choice("random", "zeros"),
        }
    ),
    "Tsp": OptionTable(
        {
            "num_nodes": Int(3, MAX_CITIES),
            "coords": ANY,
            "coord_values": Floats(-1e300, 1e300),
            "mode": Choice("construct", "2opt"),
            "round_distances": BOOL,
        },
        relations=(_tsp_instance,),
    ),
}


# MaxCut keeps about 13 bytes a node, TSP 21 a city, beside what the pool shares:
# three observations' worth.
declare_family(
    Family(
        "combinatorial",
        title="MaxCut, TSP",
        memory=FamilyMemory(heap_observations=3),
        backends={"cuda": ("MaxCut", "Tsp")},
        options=OPTIONS,
    )
)

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
