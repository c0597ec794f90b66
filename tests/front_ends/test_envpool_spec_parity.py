"""Specs as EnvPool 1.2.5 reports them, task by task, for a few tasks of every
family both have: spaces, reward thresholds, config fields, dm_env specs and the
array specs. Every difference is listed here and in docs/differences.md
("Specs against EnvPool"); a new one fails the test that finds it."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from gymnasium import spaces

import envpool_x

envpool = pytest.importorskip("envpool", reason="EnvPool 1.2.5 is the [test] extra's oracle")
# EnvPool's float32 Boxes with float64 bounds make gymnasium warn, on every access.
pytestmark = pytest.mark.filterwarnings("ignore:.*precision lowered:UserWarning")

TASKS = {
    "classic_control": ["CartPole-v1", "Pendulum-v1", "MountainCarContinuous-v0", "Acrobot-v1"],
    "toy_text": ["FrozenLake-v1", "Taxi-v3", "Blackjack-v1", "CliffWalking-v0"],
    "atari": ["Pong-v5", "Breakout-v5"],
    "mujoco": ["HalfCheetah-v5", "Ant-v4", "Hopper-v5"],
    "dmc": ["CheetahRun-v1", "WalkerWalk-v1", "FingerSpin-v1"],
    "box2d": ["LunarLander-v3", "LunarLanderContinuous-v3", "BipedalWalker-v3", "CarRacing-v3"],
    "minigrid": ["MiniGrid-DoorKey-8x8-v0", "MiniGrid-Empty-5x5-v0", "BabyAI-GoToLocal-v0"],
}
ALL = [(family, task) for family, tasks in TASKS.items() for task in tasks]

# ---- the differences, on purpose (docs/differences.md) ----------------------

#: reward_threshold: ours is gymnasium's registry's.
THRESHOLDS = {"Hopper-v5": (6000.0, 3800.0)}
#: EnvPool config keys we do not have: its asset path, its seed list (make takes
#: ``env_seed``, kept as ``seed``). Its other keys of the shared tasks are in our
#: config too (envpool_x.envpool_names: its names of our keys, and the values of
#: what a task fixes), but MiniGrid's of other levels.
MISSING_CONFIG = {
    "*": {"base_path", "env_seed"},
    # EnvPool's MiniGrid pool has one config for every level generator.
    "minigrid": None,  # any
}
#: Shared config keys with other values: (EnvPool's, ours) or a predicate.
CONFIG_VALUES: dict[str, Any] = {
    "xml_file": lambda a, b: str(b).endswith("/" + str(a)),  # ours: the full path
    "size": {"FrozenLake-v1": (4, 0)},  # ours: 0 = from map_name (docs/toy_text.md)
    "lap_complete_percent": lambda a, b: np.float32(a) == np.float32(b),  # EnvPool's float32
    "reward_threshold": {"Hopper-v5": THRESHOLDS["Hopper-v5"]},
    "max_episode_steps": {"BabyAI-GoToLocal-v0": (0, 512)},  # docs/babyai.md
    "num_rows": {"BabyAI-GoToLocal-v0": (3, 1)},
    "num_cols": {"BabyAI-GoToLocal-v0": (3, 1)},
    # What a -v4 task runs with: gymnasium 1.x's mj_rnePostConstraint after each
    # step and its camera (EnvPool's v4 defaults are off; docs/mujoco.md).
    "post_constraint": {"Ant-v4": (False, True)},
    "gymnasium_v5_render_camera": {"Ant-v4": (False, True)},
}
#: Spaces of another dtype or kind: ours follow gymnasium's.
SPACE_DTYPES = {
    "mujoco": ("action", np.float64, np.float32),
    "dmc": ("action", np.float64, np.float32),
}
#: Observation Box bounds: EnvPool's DMC and Box2D Boxes have placeholder bounds, the
#: smallest positive normal float to the largest float; ours are gymnasium's (Box2D)
#: and (-inf, inf) (DMC: dm_control's observations are unbounded).
PLACEHOLDER_BOUNDS = {"dmc", "box2d"}
#: Array spec dtypes that differ: key -> (EnvPool's, ours).
ARRAY_DTYPES = {
    "toy_text": {"obs": (np.int32, np.int64)},
    "atari": {"info:terminated": (np.int32, np.bool_)},
    "CliffWalking-v0": {"info:prob": (np.float32, np.float64)},
    "mujoco": {"action": (np.float64, np.float32)},
    "dmc": {"action": (np.float64, np.float32)},
}
#: State keys (obs / info fields) only one side has: (EnvPool's only, ours only).
FIELDS = {
    "Acrobot-v1": ({"info:state"}, set()),
    "FrozenLake-v1": (set(), {"info:prob"}),
    "Taxi-v3": (set(), {"info:prob", "info:action_mask"}),
    "HalfCheetah-v5": ({"info:reward_run"}, {"info:reward_forward"}),
    "Ant-v4": ({"info:reward_contact"}, {"info:forward_reward"}),
    "Hopper-v5": (
        set(),
        {"info:z_distance_from_origin", "info:reward_forward", "info:reward_ctrl"}
        | {"info:reward_survive"},
    ),
    "FingerSpin-v1": ({"obs:target_position", "obs:dist_to_target"}, set()),
    "CarRacing-v3": (set(), {"info:lap_finished"}),
}


def _specs(task: str) -> tuple[Any, Any]:
    if task not in envpool_x.list_all_envs():
        pytest.skip(f"{task} is not in this build")
    return envpool.make_spec(task), envpool_x.make_spec(task)


def _dtypes(family: str, task: str) -> dict[str, Any]:
    return {**ARRAY_DTYPES.get(family, {}), **ARRAY_DTYPES.get(task, {})}


def _same_space(
    theirs: Any, ours: Any, dtype_diff: Any = None, skip: Any = (), bounds: bool = True
) -> None:
    """Same kind, shape and dtype, and the same bounds unless ``bounds`` is False
    (then EnvPool's are its placeholders); a Dict: its keys but ``skip``, in order."""
    if isinstance(theirs, spaces.Dict):
        keys = [k for k in theirs.spaces if f"obs:{k}" not in skip]
        assert isinstance(ours, spaces.Dict) and list(ours.spaces) == keys
        for key in keys:
            _same_space(theirs[key], ours[key], bounds=bounds)
        return
    if isinstance(theirs, spaces.Discrete):
        assert isinstance(ours, spaces.Discrete), (theirs, ours)
        assert (theirs.n, theirs.start) == (ours.n, ours.start)
        return
    assert type(ours) is type(theirs), (theirs, ours)
    assert ours.shape == theirs.shape
    if dtype_diff is None:
        assert ours.dtype == theirs.dtype
    else:
        assert (theirs.dtype, ours.dtype) == tuple(np.dtype(d) for d in dtype_diff)
    if not isinstance(theirs, spaces.Box):
        return
    if bounds:
        np.testing.assert_array_equal(np.asarray(ours.low, np.float64), theirs.low)
        np.testing.assert_array_equal(np.asarray(ours.high, np.float64), theirs.high)
    else:
        assert (theirs.low == np.finfo(theirs.dtype).tiny).all()
        assert (theirs.high == np.finfo(theirs.dtype).max).all()


@pytest.mark.parametrize(("family", "task"), ALL)
def test_spaces_and_threshold(family: str, task: str) -> None:
    theirs, ours = _specs(task)
    if task == "Blackjack-v1":  # gymnasium's Tuple of Discretes; EnvPool a Box (toy_text.md)
        assert isinstance(ours.observation_space, spaces.Tuple)
        assert theirs.observation_space.shape == (len(ours.observation_space),)
    else:
        only_theirs = FIELDS.get(task, (set(), set()))[0]
        _same_space(
            theirs.observation_space,
            ours.observation_space,
            skip=only_theirs,
            bounds=family not in PLACEHOLDER_BOUNDS or task == "CarRacing-v3",
        )
    diff = SPACE_DTYPES.get(family)
    _same_space(theirs.action_space, ours.action_space, diff[1:] if diff else None)
    assert ours.gymnasium_action_space is ours.action_space
    assert ours.gymnasium_observation_space is ours.observation_space
    expected = THRESHOLDS.get(task, (theirs.reward_threshold, theirs.reward_threshold))
    assert (theirs.reward_threshold, ours.reward_threshold) == expected


@pytest.mark.parametrize(("family", "task"), ALL)
def test_config_fields(family: str, task: str) -> None:
    theirs, ours = _specs(task)
    theirs_cfg, ours_cfg = theirs.config._asdict(), ours.config_dict()
    missing = set(theirs_cfg) - set(ours_cfg)
    allowed = MISSING_CONFIG["*"] | MISSING_CONFIG.get(task, set())
    if family == "minigrid":
        missing -= allowed
    else:
        assert missing <= allowed | (MISSING_CONFIG.get(family) or set()), missing
    for key in sorted(set(theirs_cfg) & set(ours_cfg)):
        a, b = theirs_cfg[key], ours_cfg[key]
        rule = CONFIG_VALUES.get(key)
        if callable(rule):
            assert rule(a, b), (key, a, b)
        elif isinstance(rule, dict) and task in rule:
            assert (a, b) == rule[task], key
        elif isinstance(a, float):
            assert a == pytest.approx(b), key
        else:
            assert np.asarray(a).tolist() == np.asarray(b).tolist(), (key, a, b)


@pytest.mark.parametrize(("family", "task"), ALL)
def test_array_specs_have_envpools_shapes(family: str, task: str) -> None:
    """Shapes as EnvPool writes them, its -1 (one row per player) included."""
    theirs, ours = _specs(task)
    dtypes = _dtypes(family, task)
    only_theirs, only_ours = FIELDS.get(task, (set(), set()))
    state_t, state_o = theirs.state_array_spec, ours.state_array_spec
    assert set(state_t) - set(state_o) == only_theirs
    assert set(state_o) - set(state_t) == only_ours
    action_t, action_o = theirs.action_array_spec, ours.action_array_spec
    assert list(action_t) == list(action_o) == ["env_id", "players.env_id", "action"]
    for table_t, table_o in ((state_t, state_o), (action_t, action_o)):
        for key in set(table_t) & set(table_o):
            assert tuple(table_o[key].shape) == tuple(table_t[key].shape), key
            want = dtypes.get(key, (table_t[key].dtype, table_t[key].dtype))
            assert (table_t[key].dtype, table_o[key].dtype) == tuple(np.dtype(d) for d in want)


@pytest.mark.parametrize(("family", "task"), ALL)
def test_dm_specs(family: str, task: str) -> None:
    """dm_env's observation has EnvPool's fields but ``players`` (with one agent
    per env its ``env_id`` is ``env_id``), plus ``elapsed_step``; the action spec
    is EnvPool's (float32 for MuJoCo and DMC)."""
    theirs, ours = _specs(task)
    obs_t, obs_o = theirs.observation_spec(), ours.observation_spec()
    only_theirs, only_ours = FIELDS.get(task, (set(), set()))
    names_t = set(obs_t._fields) - {"players"} - {k.split(":")[-1] for k in only_theirs}
    names_o = set(obs_o._fields) - {"elapsed_step"} - {k.split(":")[-1] for k in only_ours}
    assert names_t == names_o
    dtypes = _dtypes(family, task)
    for name in names_t:
        a, b = getattr(obs_t, name), getattr(obs_o, name)
        assert tuple(a.shape) == tuple(b.shape), name
        key = (
            "obs" if name == "obs" else next((k for k in dtypes if k.split(":")[-1] == name), None)
        )
        want = dtypes.get(key, (a.dtype, a.dtype)) if key else (a.dtype, a.dtype)
        assert (a.dtype, b.dtype) == tuple(np.dtype(d) for d in want), name
    act_t, act_o = theirs.action_spec(), ours.action_spec()
    assert tuple(act_t.shape) == tuple(act_o.shape)
    assert type(act_t) is type(act_o)
    diff = SPACE_DTYPES.get(family)
    assert (act_t.dtype, act_o.dtype) == ((diff[1], diff[2]) if diff else (act_t.dtype,) * 2)


@pytest.mark.parametrize("task", ["HalfCheetah-v5", "CheetahRun-v1"])
def test_float64_box_actions_are_accepted(task: str) -> None:
    """Our float32 action spaces take the float64 actions EnvPool's spaces sample."""
    theirs, _ = _specs(task)
    env = envpool_x.make_gymnasium(task, num_envs=2)
    env.reset()
    action = np.stack([theirs.action_space.sample() for _ in range(2)])
    assert action.dtype == np.float64
    assert env.step(action)[1].shape == (2,)
    env.close()


def test_envpools_mujoco_option_names_are_taken_and_read_back() -> None:
    """EnvPool's names of our keys (tests/families/test_envpool_option_names.py)."""
    theirs, _ = _specs("Ant-v4")
    ours = envpool_x.make_spec("Ant-v4", healthy_z_min=0.3)
    assert ours.config.healthy_z_range == [0.3, 1.0]
    assert (ours.config.healthy_z_min, ours.config.healthy_z_max) == (
        0.3,
        theirs.config.healthy_z_max,
    )
