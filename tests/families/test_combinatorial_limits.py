"""The default episode lengths of MaxCut-v0 and TSP-v0, which depend on the
instance (registered as PER_INSTANCE_TIME_LIMIT and set when a spec is made),
and that a value the user gives is kept as given, whatever it is."""

from __future__ import annotations

import pytest

import envpool_x
from envpool_x.registration import NO_TIME_LIMIT, PER_INSTANCE_TIME_LIMIT, lookup, register


def test_defaults_follow_the_instance() -> None:
    assert lookup("MaxCut-v0").max_episode_steps is PER_INSTANCE_TIME_LIMIT
    assert envpool_x.make_spec("MaxCut-v0", graph="er:30:0.2").max_episode_steps == 60
    assert envpool_x.make_spec("TSP-v0", num_nodes=7, mode="2opt").max_episode_steps == 7
    assert envpool_x.make_spec("TSP-v0", num_nodes=7).max_episode_steps == NO_TIME_LIMIT


@pytest.mark.parametrize("steps", [5, NO_TIME_LIMIT])
def test_explicit_limits_are_kept(steps: int) -> None:
    spec = envpool_x.make_spec("MaxCut-v0", graph="er:30:0.2", max_episode_steps=steps)
    assert spec.max_episode_steps == steps
    spec = envpool_x.make_spec("TSP-v0", num_nodes=7, mode="2opt", max_episode_steps=steps)
    assert spec.max_episode_steps == steps


def test_bad_limits_and_registrations() -> None:
    with pytest.raises(TypeError, match="max_episode_steps must be an int"):
        envpool_x.make_spec("MaxCut-v0", graph="er:30:0.2", max_episode_steps=2.5)
    with pytest.raises(ValueError, match="max_episode_steps must be >= 1"):
        envpool_x.make_spec("TSP-v0", max_episode_steps=0)
    with pytest.raises(ValueError, match="per-instance time limit needs a resolve"):
        register("NoResolve-v0", "Tsp", "combinatorial", PER_INSTANCE_TIME_LIMIT)
