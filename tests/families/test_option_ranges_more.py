"""Declared option ranges of the classic control, toy text, testing, Atari,
Box2D, MuJoCo and DeepMind Control families (tests/families/test_option_ranges.py
has Tag, MaxCut, TSP, MiniGrid and BabyAI): every registered task has a declared
table covering its env keys; each declared range refuses NaN, infinities, the
wrong type and values out of range at make, naming the task and the key;
defaults and valid non-default values are accepted; contradictory or ignored
combinations are refused."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

import envpool_x
from conftest import bad_option_cases, one_task_per_pool
from envpool_x import cli
from envpool_x.options import Float, Floats, Option, OptionTable, check_options, ordered_pair
from envpool_x.registration import USER_FAMILY, envs_by_family, lookup

FAMILIES = ("classic_control", "toy_text", "testing", "atari", "box2d", "mujoco", "dmc")


def _env_keys(task_id: str) -> set[str]:
    """The env keys of a task: its pool's and its own defaults'."""
    entry = lookup(task_id)
    return set(entry.pool_class.default_config()) | set(entry.env_defaults)


TASKS = one_task_per_pool(FAMILIES)


def test_every_registered_task_declares_every_env_key() -> None:
    """The guard that keeps families honest: each task id (users' own envs
    aside) has a declared table whose keys are exactly its env keys."""
    checked = 0
    for fam, ids in envs_by_family().items():
        if fam == USER_FAMILY:
            continue
        for task_id in ids:
            entry = lookup(task_id)
            table = entry.declaration.option_table(entry.pool_name)
            assert table is not None, f"{task_id} ({entry.pool_name}) declares no options"
            keys = _env_keys(task_id)
            assert set(table.options) == keys, (task_id, sorted(keys ^ set(table.options)))
            checked += 1
    assert checked >= len(envpool_x.list_all_envs()) - len(envs_by_family().get(USER_FAMILY, []))


def _bad_values(option: Option) -> list[tuple[Any, type[Exception]]]:
    """Values ``option`` must refuse, with the exception each must raise."""
    bad: list[tuple[Any, type[Exception]]] = []
    low, high = option.low, option.high
    if option.kind == "int":
        bad += [(1.5, TypeError), ("3", TypeError), (True, TypeError), (math.nan, TypeError)]
        bad += [(math.inf, TypeError), (2**63, ValueError)]
        if low is not None:
            bad.append((int(low) - 1, ValueError))
        if high is not None:
            bad.append((int(high) + 1, ValueError))
    elif option.kind == "float":
        bad += [(math.nan, ValueError), ("1.0", TypeError), (False, TypeError)]
        bad += [([1.0], TypeError), (np.array([1.0, 2.0]), TypeError)]
        if option.finite:
            bad += [(math.inf, ValueError), (-math.inf, ValueError)]
        if low is not None:
            bad.append((low - 1.0, ValueError))
            if option.exclusive[0]:
                bad.append((low, ValueError))
        if high is not None:
            bad.append((high + 1.0, ValueError))
            if option.exclusive[1]:
                bad.append((high, ValueError))
    elif option.kind == "bool":
        bad += [(2, TypeError), ("yes", TypeError), (None, TypeError), (1.0, TypeError)]
    elif option.kind in ("choice", "text"):
        bad += [(3, TypeError), (["a"], TypeError)]
        bad += [] if option.optional else [(None, TypeError)]
        bad += [("no-such-choice", ValueError)] if option.kind == "choice" else []
    elif option.kind in ("ints", "floats"):
        # A length the option takes (its longest), so the bad values differ only in content.
        n = option.length[1] if option.length else 2
        bad += [("1,2", TypeError), ([math.nan] * n, ValueError), (["a"] * n, TypeError)]
        if option.length:
            bad.append(([0.0] * (option.length[1] + 1), ValueError))
        if option.finite:
            bad.append(([math.inf] * n, ValueError))
        if low is not None:
            bad.append(([low - 1] * n, ValueError))
    return bad


CASES = bad_option_cases(TASKS, _bad_values)


def test_the_cases_reach_every_family() -> None:
    assert {lookup(task_id).family for task_id, *_ in CASES} == set(FAMILIES)


@pytest.mark.parametrize(("task_id", "key", "value", "exc"), CASES, ids=repr)
def test_each_declared_range_is_checked_at_make(
    task_id: str, key: str, value: Any, exc: type[Exception]
) -> None:
    with pytest.raises(exc) as info:
        envpool_x.make_spec(task_id, **{key: value})
    message = str(info.value)
    assert task_id in message and key in message, message


@pytest.mark.parametrize("task_id", sorted(TASKS.values()))
def test_defaults_are_within_the_declared_ranges(task_id: str) -> None:
    envpool_x.make_spec(task_id)


#: Valid values other than the defaults, several at a range's bound.
ACCEPTED: list[tuple[str, dict[str, Any]]] = [
    ("CartPole-v1", {"sutton_barto_reward": True}),
    ("Pendulum-v1", {"g": -3.5}),
    ("MountainCar-v0", {"goal_velocity": 0.07}),
    ("MountainCarContinuous-v0", {"goal_velocity": -1e6}),
    ("FrozenLake-v1", {"desc": ["SFS", "FHG"], "is_slippery": False}),
    ("FrozenLake-v1", {"desc": np.asarray(["SF", "FG"], dtype="c"), "map_name": None}),
    ("FrozenLake-v1", {"desc": [["S", "H"], ["F", "G"]]}),
    ("FrozenLake-v1", {"size": 8, "map_name": "8x8"}),
    ("FrozenLake8x8-v1", {"size": 4}),
    ("FrozenLake-v1", {"map_name": None, "desc": None}),
    ("FrozenLake-v1", {"is_slippery": False, "success_rate": 1 / 3}),
    ("FrozenLake-v1", {"success_rate": 1.0, "reward_schedule": (1, -1, -0.01)}),
    ("Taxi-v3", {"is_rainy": True, "rainy_probability": 0.0}),
    ("Taxi-v4", {"fickle_passenger": True, "fickle_probability": 1.0}),
    ("Taxi-v4", {"rainy_probability": 0.8}),  # the default, given again
    ("CliffWalking-v1", {"is_slippery": True}),
    ("Blackjack-v1", {"sab": False, "natural": True}),
    ("Catch-v0", {"height": 2**23, "width": 2}),
    ("NChain-v0", {"n": 1, "slip": 0.0, "small": -2.0, "large": 1e9}),
    (
        "FaultInjection-v0",
        {"fault_env_id": 0, "throw_at_step": 5, "stall_ms": 10, "episode_length": 3},
    ),
    ("Pong-v5", {"frame_skip": 1000, "stack_num": 1, "img_height": 210, "img_width": 160}),
    ("Pong-v5", {"noop_max": 0, "repeat_action_probability": 1.0, "mode": 1, "task": "pong"}),
    ("Pong-v5", {"difficulty": 1, "gray_scale": False, "img_height": 1024}),
    ("LunarLander-v3", {"gravity": -11.99, "enable_wind": True, "wind_power": 25.0}),
    ("LunarLander-v3", {"enable_wind": True, "turbulence_power": 0.0}),
    ("LunarLander-v3", {"enable_wind": False, "wind_power": 15.0, "turbulence_power": 1.5}),
    ("BipedalWalker-v3", {"hardcore": True}),
    ("CarRacing-v3", {"lap_complete_percent": 1.0, "domain_randomize": True}),
    ("CarRacing-v3", {"lap_complete_percent": 1e-3, "continuous": False}),
    ("Hopper-v5", {"healthy_z_range": (0.5, math.inf), "healthy_angle_range": [-1.0, 1.0]}),
    ("Hopper-v4", {"ctrl_cost_weight": -1.0, "reset_noise_scale": 0.0, "frame_skip": 1}),
    ("Humanoid-v5", {"contact_cost_range": (-math.inf, 10.0), "frame_skip": 1000}),
    ("HumanoidStandup-v5", {"impact_cost_range": [0.0, 0.0], "impact_cost_weight": 0.0}),
    ("Ant-v4", {"use_contact_forces": True, "contact_cost_weight": 0.1}),
    ("Ant-v4", {"use_contact_forces": True, "contact_force_range": (-2.0, 2.0)}),
    ("Ant-v4", {"contact_force_range": (-1.0, 1.0)}),  # the default, as a tuple
    ("Ant-v5", {"main_body": np.int64(1), "contact_force_range": (-0.5, 0.5)}),
    ("Pusher-v5", {"reward_near_weight": 0.0, "reward_dist_weight": -1.0}),
    ("WalkerWalk-v1", {"task_name": "walk", "initial_state_info": True}),
    ("CartpoleSwingup-v1", {"task_name": "swingup"}),
]


@pytest.mark.parametrize(("task_id", "kw"), ACCEPTED, ids=repr)
@pytest.mark.filterwarnings("ignore:uph_cost_weight")
def test_valid_non_default_values_are_accepted(task_id: str, kw: dict[str, Any]) -> None:
    spec = envpool_x.make_spec(task_id, **kw)
    assert spec.id == task_id


#: Values each within its key's range, refused for what they do together (or
#: for a value the key's range cannot express), with the message's words.
REFUSED: list[tuple[str, dict[str, Any], type[Exception], str]] = [
    ("MountainCar-v0", {"goal_velocity": 0.08}, ValueError, r"in \[-inf, 0.07\] .* never reached"),
    ("FrozenLake-v1", {"size": 5}, ValueError, r"size must be 4 or 8 .*got 5"),
    ("FrozenLake-v1", {"desc": ["SFH", "FFH"]}, ValueError, "at least one goal tile 'G'"),
    ("FrozenLake-v1", {"desc": ["FFG"]}, ValueError, "at least one start tile 'S'"),
    ("FrozenLake-v1", {"desc": ["SFF", "FG"]}, ValueError, "desc rows must all have the same"),
    ("FrozenLake-v1", {"desc": ["SXG"]}, ValueError, "got 'X' in row 'SXG'"),
    ("FrozenLake-v1", {"desc": [""]}, ValueError, "desc rows must be non-empty"),
    ("FrozenLake-v1", {"desc": "SFFG"}, TypeError, "desc expects a sequence of str"),
    ("FrozenLake-v1", {"desc": [["S", 1]]}, TypeError, r"desc\[0\] is an item of type int"),
    ("FrozenLake-v1", {"desc": 3}, TypeError, "desc expects a sequence of str"),
    ("FrozenLake-v1", {"desc": ["SG"], "map_name": "4x4"}, ValueError, "map_name='4x4' would"),
    ("FrozenLake-v1", {"desc": ["SG"], "size": 4}, ValueError, "size=4 would be ignored: desc"),
    ("FrozenLake-v1", {"size": 8, "map_name": "4x4"}, ValueError, "size=8 contradicts map_name"),
    ("FrozenLake-v1", {"size": 4, "map_name": None}, ValueError, r"map_name=None \(a random map"),
    (
        "FrozenLake-v1",
        {"is_slippery": False, "success_rate": 0.9},
        ValueError,
        "success_rate=0.9 would be ignored with is_slippery=False",
    ),
    ("Taxi-v3", {"rainy_probability": 0.5}, ValueError, "would be ignored with is_rainy=False"),
    ("Taxi-v4", {"fickle_probability": 0.5}, ValueError, "ignored with fickle_passenger=False"),
    ("Blackjack-v1", {"natural": True}, ValueError, "natural=True would be ignored with sab=True"),
    ("Catch-v0", {"height": 2**23, "width": 4}, ValueError, "height \\* width = 33554432 is more"),
    ("FaultInjection-v0", {"stall_ms": -1}, ValueError, r"stall_ms must be an int in \[0, "),
    ("Pong-v5", {"task": "breakout"}, ValueError, "contradicts the task id.*make Breakout-v5"),
    ("Pong-v5", {"task": "no_such_rom"}, ValueError, "no registered id has it"),
    ("Pong-v5", {"mode": 7}, ValueError, r"mode 7 is not a mode of 'pong'; available: 0, 1"),
    ("Pong-v5", {"img_width": 1025}, ValueError, r"img_width must be an int in \[1, 1024\]"),
    ("LunarLander-v3", {"gravity": -12.0}, ValueError, r"gravity must be .* in \(-12, 0\)"),
    ("LunarLander-v3", {"gravity": 0.0}, ValueError, r"gravity must be .* in \(-12, 0\)"),
    ("LunarLander-v3", {"wind_power": -1.0}, ValueError, r"wind_power must be .* in \[0, inf\]"),
    (
        "LunarLander-v3",
        {"wind_power": 5.0},
        ValueError,
        "wind_power=5.0 would be ignored with enable_wind=False",
    ),
    ("CarRacing-v3", {"lap_complete_percent": 0.0}, ValueError, r"in \(0, 1\]"),
    ("CarRacing-v3", {"lap_complete_percent": 1.5}, ValueError, r"in \(0, 1\]"),
    ("Hopper-v5", {"healthy_z_range": (2.0, 1.0)}, ValueError, "is inverted: its low 2.0 is above"),
    ("Hopper-v5", {"healthy_z_range": (math.nan, 1.0)}, ValueError, r"\[0\]=nan is not valid"),
    ("Hopper-v5", {"healthy_z_range": (0.5,)}, ValueError, "has 1 values"),
    ("Hopper-v5", {"frame_skip": 2**32 + 5}, ValueError, r"frame_skip must be an int in \[1, "),
    ("Humanoid-v5", {"ctrl_cost_weight": math.inf}, ValueError, "not finite"),
    ("Swimmer-v4", {"reset_noise_scale": -0.1}, ValueError, "reset_noise_scale must be"),
    (
        "Ant-v4",
        {"contact_cost_weight": 0.1},
        ValueError,
        "contact_cost_weight=0.1 would be ignored with use_contact_forces=False",
    ),
    ("Ant-v5", {"main_body": -1}, ValueError, "main_body=-1 is not a body id"),
    ("Ant-v5", {"main_body": 1.5}, TypeError, "main_body must be a body id"),
    ("Ant-v5", {"main_body": ""}, TypeError, "main_body must be a body id"),
    ("Ant-v5", {"main_body": True}, TypeError, "main_body must be a body id"),
    ("WalkerStand-v1", {"task_name": "walk"}, ValueError, "contradicts.*make WalkerWalk-v1"),
    ("HumanoidWalk-v1", {"task_name": "dance"}, ValueError, r"task_name must be one of \["),
    ("CheetahRun-v1", {"model": 3}, TypeError, "model must be a str"),
]


@pytest.mark.parametrize(("task_id", "kw", "exc", "match"), REFUSED, ids=repr)
def test_contradictions_and_ignored_values_are_refused(
    task_id: str, kw: dict[str, Any], exc: type[Exception], match: str
) -> None:
    with pytest.raises(exc, match=match):
        envpool_x.make_spec(task_id, **kw)


def test_info_shows_each_env_key_s_declared_range(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["info", "Taxi-v3"]) == 0
    out = capsys.readouterr().out
    assert "  rainy_probability = 0.8  # a finite number in [0, 1]\n" in out
    assert "  is_rainy = False  # a bool\n" in out
    assert "  num_envs = 1\n" in out  # pool keys have no declared range here


def test_open_bounds_none_and_infinite_pairs() -> None:
    """The options.py additions: exclusive bounds, None, infinities in a
    sequence, a (low, high) pair in order."""
    gravity = Float(-12, 0, exclusive=(True, True))
    assert gravity.describe() == "a finite number in (-12, 0)"
    gravity.check("T", "g", -11.5)
    with pytest.raises(ValueError, match=r"T: g must be a finite number in \(-12, 0\), got 0"):
        gravity.check("T", "g", 0)
    maybe = Option("choice", choices=("a",), optional=True)
    maybe.check("T", "k", None)
    assert maybe.describe() == "one of ['a'] or None"
    pair = Floats(length=(2, 2), finite=False)
    pair.check("T", "r", [-math.inf, math.inf])
    with pytest.raises(ValueError, match=r"r\[1\]=nan is not valid"):
        pair.check("T", "r", [0.0, math.nan])
    with pytest.raises(ValueError, match=r"r\[0\]=inf is not valid"):
        Floats(length=(2, 2)).check("T", "r", [math.inf, 1.0])
    table = OptionTable({"r": pair}, (ordered_pair("r"),))
    check_options("T", table, {"r": [1.0, 1.0]}, frozenset({"r"}))
    with pytest.raises(ValueError, match=r"T: r=\[2.0, 1.0\] is inverted"):
        check_options("T", table, {"r": [2.0, 1.0]}, frozenset({"r"}))
