"""Nested observation Dicts (envpool_x.nested_obs): "group.key" fields grouped
for gymnasium, other observations untouched."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from envpool_x.nested_obs import nest, nested_space, result_hook


def _box(n: int) -> spaces.Box:
    return spaces.Box(-np.inf, np.inf, (n,), np.float64)


def test_nest_groups_in_field_order() -> None:
    flat = {"a.x": 1, "a.y": 2, "b": 3, "c.z": 4}
    assert nest(flat) == {"a": {"x": 1, "y": 2}, "b": 3, "c": {"z": 4}}
    assert list(nest(flat)) == ["a", "b", "c"]


def test_nested_space() -> None:
    flat = spaces.Dict({"goal.kettle": _box(7), "goal.light switch": _box(2), "obs": _box(3)})
    nested = nested_space(flat)
    assert isinstance(nested, spaces.Dict)
    assert nested["goal"] == spaces.Dict({"kettle": _box(7), "light switch": _box(2)})
    assert nested["obs"] == _box(3)
    plain = spaces.Dict({"x": _box(1), "y": _box(2)})
    assert nested_space(plain) is plain
    assert nested_space(_box(4)) == _box(4)


def test_result_hook_nests_obs_and_final_obs_after_the_family_hook() -> None:
    seen: list[Any] = []
    hook = result_hook(["g.a", "o"], lambda result: seen.append(sorted(result[0])))
    assert hook is not None
    obs = {"g.a": np.zeros(2), "o": np.ones(2)}
    final = {"g.a": np.zeros(2), "o": np.ones(2)}
    hook((obs, None, None, None, {"final_obs": final}))
    assert seen == [["g.a", "o"]]  # the family sees the engine's names
    assert set(obs) == {"g", "o"} and set(obs["g"]) == {"a"}
    assert set(final) == {"g", "o"}
    assert result_hook(["x", "y"], None) is None
