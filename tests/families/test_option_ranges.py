"""Every option of the Tag, MaxCut, TSP, MiniGrid and BabyAI families has a
declared valid range (envpool_x.options, Family.options), checked when a spec
is made: NaN, out of range and the wrong type are a ValueError / TypeError
naming the task, the key and the range; contradictory or ignored combinations
are a ValueError. Generic over the declarations, then one test per case of
issue 51."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

import envpool_x
from conftest import bad_option_cases, one_task_per_pool
from envpool_x import _core
from envpool_x.options import Option
from envpool_x.registration import envs_by_family, family, lookup

FAMILIES = ("multi_agent", "combinatorial", "minigrid", "babyai", "craftax")


TASKS = one_task_per_pool(FAMILIES)


def test_every_option_of_these_families_is_declared() -> None:
    assert len(TASKS) >= 20, TASKS
    for pool, task_id in TASKS.items():
        table = lookup(task_id).declaration.option_table(pool)
        assert table is not None, f"{pool} declares no options"
        keys = set(getattr(_core, pool).default_config())
        assert set(table.options) == keys, (pool, keys ^ set(table.options))


def _bad_values(option: Option) -> list[tuple[Any, type[Exception]]]:
    """Values ``option`` must refuse, with the exception each must raise."""
    bad: list[tuple[Any, type[Exception]]] = []
    if option.kind == "int":
        bad += [(1.5, TypeError), ("3", TypeError), (True, TypeError), (math.nan, TypeError)]
        bad += [(int(option.high) + 1, ValueError), (2**63, ValueError)]
        if option.low is not None:
            bad.append((int(option.low) - 1, ValueError))
    elif option.kind == "float":
        bad += [(math.nan, ValueError), ("1.0", TypeError), (False, TypeError)]
        bad += [(math.inf, ValueError), (-math.inf, ValueError)]
        if option.low is not None:
            bad.append((option.low - 1.0, ValueError))
        if option.high is not None:
            bad.append((option.high + 1.0, ValueError))
    elif option.kind == "bool":
        bad += [(2, TypeError), ("yes", TypeError), (None, TypeError)]
    elif option.kind == "choice":
        bad += [("no-such-choice", ValueError), (3, TypeError)]
    elif option.kind in ("ints", "floats"):
        bad += [("1,2", TypeError), ([math.nan] * 2, ValueError), (["a", "b"], TypeError)]
        if option.low is not None:
            bad.append(([option.low - 1] * 2, ValueError))
        if option.kind == "ints":
            bad.append(([0.5, 0.5], ValueError))
    return bad


CASES = bad_option_cases(TASKS, _bad_values)


@pytest.mark.parametrize(("task_id", "key", "value", "exc"), CASES, ids=repr)
def test_each_declared_range_is_checked_at_make(
    task_id: str, key: str, value: Any, exc: type[Exception]
) -> None:
    with pytest.raises(exc) as info:
        envpool_x.make_spec(task_id, **{key: value})
    message = str(info.value)
    assert task_id in message and key in message, message


def test_every_registered_task_of_these_families_is_within_its_ranges() -> None:
    for fam in FAMILIES:
        for task_id in envs_by_family().get(fam, []):
            envpool_x.make_spec(task_id)
    assert family("multi_agent").options  # declared through registration.Family


# ---- Tag -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kw", "match"),
    [
        (
            {"starting_location_x": [0, 1, 2, 3, 101]},
            r"starting_location_x\[4\]=101 is outside the grid: .* \[0, grid_length=100\]",
        ),
        ({"starting_location_y": [-1, 0, 0, 0, 0]}, r"starting_location_y\[0\]=-1 is not valid"),
        ({"starting_location_x": [0, 1, 2, 3, 2.5]}, r"starting_location_x\[4\]=2.5 is not valid"),
        ({"starting_location_x": [1, 2]}, "starting_location_x must list one value per agent"),
        ({"grid_length": 10, "starting_location_x": [0, 0, 0, 0, 11]}, "outside the grid"),
        ({"wall_hit_penalty": math.nan}, r"wall_hit_penalty must be .* got nan \(NaN\)"),
        ({"episode_length": 2**40}, r"episode_length must be an int in \[1, 2147483647\]"),
        ({"use_full_observation": 2}, "use_full_observation must be a bool, got int"),
    ],
)
def test_tag_gridworld_bad_options(kw: dict[str, Any], match: str) -> None:
    exc = TypeError if "must be a bool" in match else ValueError
    with pytest.raises(exc, match=match):
        envpool_x.make_spec("TagGridworld-v0", **kw)


@pytest.mark.parametrize(
    ("kw", "match"),
    [
        ({"min_acceleration": 0.5}, "min_acceleration=0.5 is above max_acceleration=0.1"),
        ({"min_turn": 1.0, "max_turn": -1.0}, "min_turn=1.0 is above max_turn=-1.0: the range"),
        ({"max_speed": math.nan}, r"max_speed must be .* got nan \(NaN\)"),
        ({"max_speed": math.inf}, r"max_speed must be a finite number .* \(not finite\)"),
        ({"skill_level_runner": -0.5}, r"skill_level_runner must be a finite number in \[0, "),
        ({"max_acceleration": math.nan}, "max_acceleration must be"),
        ({"grid_length": 0.0}, "grid_length must be a finite number"),
        ({"tagging_distance": 1.5}, r"tagging_distance must be a finite number in \[0, 1\]"),
        ({"num_turn_levels": 2**40}, r"num_turn_levels must be an int in \[0, 65536\]"),
        ({"starting_location_x": [25.0] * 110}, "is outside the grid"),
        ({"starting_directions": [math.nan] * 110}, r"starting_directions\[0\]=nan is not valid"),
        ({"num_taggers": 60000, "num_runners": 6000}, "66000 is above the 65536 agents"),
        (
            {"num_taggers": 1, "num_runners": 1, "num_other_agents_observed": 3},
            "num_other_agents_observed=3 is more than the 2",
        ),
    ],
)
def test_tag_continuous_bad_options(kw: dict[str, Any], match: str) -> None:
    with pytest.raises(ValueError, match=match):
        envpool_x.make_spec("TagContinuous-v0", **kw)


def test_tag_starts_on_the_grid_edge_keep_the_observation_in_its_box() -> None:
    env = envpool_x.make_gymnasium(
        "TagGridworld-v0",
        grid_length=4,
        starting_location_x=[0, 4, 4, 0, 2],
        starting_location_y=[0, 0, 4, 4, 2],
    )
    obs, _ = env.reset()
    assert env.single_observation_space.contains(obs[0])
    for _ in range(5):
        obs, *_ = env.step(np.zeros((1, 5), np.int32))
        assert env.single_observation_space.contains(obs[0])
    env.close()


# ---- MiniGrid and BabyAI ------------------------------------------------------------


@pytest.mark.parametrize(
    ("task_id", "kw", "exc", "match"),
    [
        (
            "MiniGrid-Empty-5x5-v0",
            {"agent_start_pos": (-5, -5)},
            ValueError,
            r"agent_start_pos\[0\]=-5",
        ),
        (
            "MiniGrid-Empty-5x5-v0",
            {"agent_start_pos": (4, 1)},
            ValueError,
            r"\(4, 1\) is not inside the walls",
        ),
        (
            "MiniGrid-Empty-5x5-v0",
            {"agent_start_dir": 2**40},
            ValueError,
            r"agent_start_dir must be an int",
        ),
        ("MiniGrid-Empty-5x5-v0", {"agent_start_dir": -1}, ValueError, "needs a random start"),
        ("MiniGrid-Empty-Random-5x5-v0", {"agent_start_dir": 2}, ValueError, "would be ignored"),
        (
            "MiniGrid-Empty-5x5-v0",
            {"mission_bytes": 10**9},
            ValueError,
            r"mission_bytes must be an int in",
        ),
        (
            "MiniGrid-Empty-5x5-v0",
            {"agent_view_size": 8},
            ValueError,
            r"must be an odd int in \[3, 63\]",
        ),
        (
            "MiniGrid-Dynamic-Obstacles-5x5-v0",
            {"n_obstacles": 10},
            ValueError,
            "silently use size // 2",
        ),
        ("MiniGrid-DistShift1-v0", {"strip2_row": 6}, ValueError, "strip2_row=6 is more than 5"),
        ("MiniGrid-MultiRoom-N6-v0", {"min_num_rooms": 7}, ValueError, "the range is inverted"),
        ("MiniGrid-SimpleCrossingS9N1-v0", {"num_crossings": 7}, ValueError, "is more than 6"),
        (
            "BabyAI-GoToLocal-v0",
            {"num_dists": 0},
            ValueError,
            "the GoToLocal level needs num_dists >= 1",
        ),
        ("BabyAI-GoTo-v0", {"num_dists": 0}, ValueError, "the GoTo level needs num_dists >= 1"),
        (
            "BabyAI-GoToLocal-v0",
            {"num_rows": 3},
            ValueError,
            "the GoToLocal level does not read num_rows",
        ),
        (
            "BabyAI-FindObjS5-v0",
            {"num_rows": 8},
            ValueError,
            "the FindObj level does not read num_rows",
        ),
        (
            "BabyAI-GoToDoor-v0",
            {"num_cols": 1},
            ValueError,
            "the GoToDoor level does not read num_cols",
        ),
        (
            "BabyAI-OpenDoor-v0",
            {"room_size": 3},
            ValueError,
            "the OpenDoor level does not read room_size",
        ),
        (
            "BabyAI-MoveTwoAcrossS5N2-v0",
            {"objs_per_room": 1},
            ValueError,
            "needs objs_per_room >= 2",
        ),
        ("BabyAI-GoToLocal-v0", {"level": "GoTo"}, ValueError, "contradicts the task id"),
        ("BabyAI-GoToLocal-v0", {"debug": 2}, TypeError, "debug must be a bool"),
    ],
)
def test_grid_world_bad_options(
    task_id: str, kw: dict[str, Any], exc: type[Exception], match: str
) -> None:
    with pytest.raises(exc, match=match):
        envpool_x.make_spec(task_id, **kw)


def test_a_level_s_own_keys_and_unchanged_values_stay_accepted() -> None:
    envpool_x.make_spec("BabyAI-GoTo-v0", num_rows=2, num_cols=2, room_size=6, num_dists=3)
    envpool_x.make_spec("BabyAI-GoToLocal-v0", num_rows=1)  # the value the level keeps
    envpool_x.make_spec("MiniGrid-Empty-5x5-v0", agent_start_pos=(-1, -1), agent_start_dir=-1)
    envpool_x.make_spec("MiniGrid-Empty-5x5-v0", agent_start_pos=(3, 3), agent_start_dir=2)


# ---- every task: values of the type C++ reads, naming the key ----------------------


@pytest.mark.parametrize(
    ("task_id", "kw", "exc", "match"),
    [
        # Answered by the declared ranges (tests/families/test_option_ranges_more.py).
        (
            "LunarLander-v3",
            {"gravity": np.array([1.0, 2.0])},
            TypeError,
            r"LunarLander-v3: gravity must be a finite number in \(-12, 0\), got ndarray",
        ),
        ("LunarLander-v3", {"continuous": 2}, TypeError, "continuous must be a bool, got int"),
        ("CartPole-v1", {"sutton_barto_reward": "yes"}, TypeError, "must be a bool, got str"),
        ("Pendulum-v1", {"g": "9.8"}, TypeError, "g must be a finite number .*, got str"),
        ("Pong-v5", {"frame_skip": 2**64}, ValueError, "frame_skip must be an int in .* got 1844"),
        ("Taxi-v3", {"max_episode_steps": 2**63}, ValueError, "max_episode_steps must be <="),
        ("Taxi-v3", {"num_envs": 2**33}, ValueError, r"num_envs must be <= 2147483647"),
        ("Taxi-v3", {"thread_affinity_offset": 2**40}, ValueError, "thread_affinity_offset"),
        ("MiniGrid-Empty-5x5-v0", {"size": 2**63}, ValueError, "size must be an int in"),
    ],
)
def test_every_task_checks_the_type_cpp_reads(
    task_id: str, kw: dict[str, Any], exc: type[Exception], match: str
) -> None:
    if task_id not in envpool_x.list_all_envs():
        pytest.skip(f"{task_id} is not in this build")
    with pytest.raises(exc, match=match):
        envpool_x.make_spec(task_id, **kw)


def test_what_cpp_would_read_wrongly_is_refused_by_name() -> None:
    from envpool_x.options import check_env_types

    with pytest.raises(
        ValueError, match="T: config key 'n' expects an int, got 9223372036854775808"
    ):
        check_env_types("T", {"n": 1}, {"n": 2**63})
    with pytest.raises(TypeError, match="T: config key 'b' expects a bool, got int"):
        check_env_types("T", {"b": True}, {"b": -1})
    check_env_types(
        "T", {"b": True, "n": 1, "f": 0.5}, {"b": 1, "n": np.int64(3), "f": np.array(2.0)}
    )
