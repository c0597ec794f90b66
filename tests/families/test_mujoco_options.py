"""MuJoCo keyword options against gymnasium's: every v5 and v4 constructor
keyword is a config key here, steps as gymnasium's with the same value and
changes the env where it should; Ant's main_body; HumanoidStandup-v5's
ignored uph_cost_weight."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from mujoco_helpers import MUJOCO_TASKS, V5_TASKS, _gym_make, _run_parity

import envpool_x
from envpool_x.families import mujoco as mj

pytest.importorskip("mujoco")
pytest.importorskip("gymnasium")
if not mj.has_mujoco():
    pytest.skip("envpool_x was built without MuJoCo", allow_module_level=True)


# ---- v5 keyword options: each one, against gymnasium with the same option,
# and differing from the default where it should -------------------------------

# task -> {option: value}; the value differs from gymnasium's default.
V5_OPTIONS: dict[str, dict[str, Any]] = {
    "HalfCheetah-v5": {
        "forward_reward_weight": 2.5,
        "ctrl_cost_weight": 0.7,
        "reset_noise_scale": 0.3,
        "exclude_current_positions_from_observation": False,
        "frame_skip": 2,
    },
    "Hopper-v5": {
        "forward_reward_weight": 2.5,
        "ctrl_cost_weight": 0.3,
        "healthy_reward": 3.0,
        "terminate_when_unhealthy": False,
        "healthy_state_range": (-1.0, 1.0),
        "healthy_z_range": (1.3, 2.0),  # the hopper starts at z = 1.25
        "healthy_angle_range": (-0.05, 0.05),
        "reset_noise_scale": 0.05,
        "exclude_current_positions_from_observation": False,
        "frame_skip": 2,
    },
    "Ant-v5": {
        "frame_skip": 2,
        "forward_reward_weight": 2.5,
        "ctrl_cost_weight": 0.9,
        "contact_cost_weight": 0.05,
        "healthy_reward": 3.0,
        "main_body": "aux_1",  # body 2, front_left_leg, sits at the torso's origin
        "terminate_when_unhealthy": False,
        "healthy_z_range": (0.6, 1.0),
        "contact_force_range": (-0.1, 0.1),
        "reset_noise_scale": 0.3,
        "exclude_current_positions_from_observation": False,
        "include_cfrc_ext_in_observation": False,
    },
    "Humanoid-v5": {
        "frame_skip": 2,
        "forward_reward_weight": 2.5,
        "ctrl_cost_weight": 0.7,
        "contact_cost_weight": 5e-5,
        "contact_cost_range": (-math.inf, 1e-3),
        "healthy_reward": 3.0,
        "terminate_when_unhealthy": False,
        "healthy_z_range": (1.3, 2.0),  # the humanoid starts at z = 1.4
        "reset_noise_scale": 0.05,
        "exclude_current_positions_from_observation": False,
        "include_cinert_in_observation": False,
        "include_cvel_in_observation": False,
        "include_qfrc_actuator_in_observation": False,
        "include_cfrc_ext_in_observation": False,
    },
    "HumanoidStandup-v5": {
        "frame_skip": 2,
        "uph_cost_weight": 2.0,  # ignored by gymnasium 1.4.0: see IGNORED_BY_GYMNASIUM
        "ctrl_cost_weight": 0.7,
        "impact_cost_weight": 5e-4,
        "impact_cost_range": (-math.inf, 1e-3),
        "reset_noise_scale": 0.05,
        "exclude_current_positions_from_observation": False,
        "include_cinert_in_observation": False,
        "include_cvel_in_observation": False,
        "include_qfrc_actuator_in_observation": False,
        "include_cfrc_ext_in_observation": False,
    },
    "Walker2d-v5": {
        "forward_reward_weight": 2.5,
        "ctrl_cost_weight": 0.3,
        "healthy_reward": 3.0,
        "terminate_when_unhealthy": False,
        "healthy_z_range": (1.3, 2.0),  # the walker starts at z = 1.25
        "healthy_angle_range": (-0.05, 0.05),
        "reset_noise_scale": 0.05,
        "exclude_current_positions_from_observation": False,
        "frame_skip": 2,
    },
    "Swimmer-v5": {
        "forward_reward_weight": 2.5,
        "ctrl_cost_weight": 0.7,
        "reset_noise_scale": 0.3,
        "exclude_current_positions_from_observation": False,
        "frame_skip": 2,
    },
    "InvertedPendulum-v5": {
        "reset_noise_scale": 0.05,
        "frame_skip": 1,
    },
    "InvertedDoublePendulum-v5": {
        "healthy_reward": 3.0,
        "reset_noise_scale": 0.3,
        "frame_skip": 2,
    },
    "Reacher-v5": {
        "reward_dist_weight": 2.5,
        "reward_control_weight": 0.3,
        "frame_skip": 4,
    },
    "Pusher-v5": {
        "reward_near_weight": 1.5,
        "reward_dist_weight": 2.5,
        "reward_control_weight": 0.7,
        "frame_skip": 2,
    },
}

# Keywords gymnasium 1.4.0 accepts but never reads; we follow it (a test
# checks they change nothing, as there).
IGNORED_BY_GYMNASIUM = {("HumanoidStandup-v5", "uph_cost_weight")}

# Other options both runs of an option's test share, where the option only
# shows under them (the ant stays within its default z range for 60 steps).
OPTION_CONTEXT: dict[tuple[str, str], dict[str, Any]] = {
    ("Ant-v5", "terminate_when_unhealthy"): {"healthy_z_range": (0.6, 1.0)},
}

V5_OPTION_CASES = [
    (task, key, value) for task, options in V5_OPTIONS.items() for key, value in options.items()
]


@pytest.mark.filterwarnings("ignore:uph_cost_weight")  # test_ignored_uph_cost_weight_warns
@pytest.mark.parametrize(("task", "key", "value"), V5_OPTION_CASES)
def test_v5_option_matches_gymnasium_and_changes_the_env(task: str, key: str, value: Any) -> None:
    context = OPTION_CONTEXT.get((task, key), {})
    changed = _run_parity(task, {**context, key: value}, episodes=1, max_steps=60, seed=5)
    default = _run_parity(task, context, episodes=1, max_steps=60, seed=5)
    if key == "reset_noise_scale":
        # The parity run starts from gymnasium's state; our own resets must
        # spread qpos by the new scale: beyond the default's, within the new.
        theirs = _gym_make(task).unwrapped
        env = envpool_x.make_gymnasium(task, num_envs=32, seed=1, reset_noise_scale=value)
        env.reset()
        nq = theirs.model.nq
        dev = np.stack([env._pool.get_state(i)[:nq] for i in range(32)]) - theirs.init_qpos
        assert theirs._reset_noise_scale < np.abs(dev).max() <= value
        env.close()
    elif key == "exclude_current_positions_from_observation":
        wide = envpool_x.make_spec(task, **{key: value}).observation_space.shape[0]
        theirs = _gym_make(task, **{key: value})
        assert wide == theirs.observation_space.shape[0]
        assert wide > envpool_x.make_spec(task).observation_space.shape[0]
    elif key.startswith("include_"):
        # A part of the observation switched off (the parity run compared it
        # with gymnasium's, shape included): the observation is shorter.
        narrow = envpool_x.make_spec(task, **{key: value}).observation_space.shape[0]
        assert narrow < envpool_x.make_spec(task).observation_space.shape[0]
    elif (task, key) in IGNORED_BY_GYMNASIUM:
        assert (changed["total"], changed["steps"]) == (default["total"], default["steps"])
    else:
        assert (changed["total"], changed["steps"]) != (default["total"], default["steps"]), (
            f"{task}: {key}={value!r} changed nothing"
        )


def test_every_v5_task_has_option_tests() -> None:
    missing = [t for t in V5_TASKS if t not in V5_OPTIONS]
    assert not missing, f"v5 tasks without keyword-option tests: {missing}"


# Rendering and model-file keywords, tested elsewhere (or not simulated).
NOT_SIMULATION_KEYWORDS = {
    "self",
    "kwargs",
    "xml_file",
    "default_camera_config",
    "camera_id",
    "camera_name",
    "render_mode",
    "width",
    "height",
    "max_geom",
    "visual_options",
}


@pytest.mark.parametrize("task", V5_TASKS)
def test_v5_option_set_covers_gymnasium_keywords(task: str) -> None:
    """Every keyword of gymnasium's v5 constructor (except rendering and the
    model file, tested separately) is a config key here and tested above."""
    import inspect

    cls = type(_gym_make(task).unwrapped)
    params = set(inspect.signature(cls.__init__).parameters) - NOT_SIMULATION_KEYWORDS
    config = envpool_x.make_spec(task).config_dict()
    assert params <= set(config), f"{task}: missing keys {sorted(params - set(config))}"
    assert params <= set(V5_OPTIONS[task]), (
        f"{task}: untested keywords {sorted(params - set(V5_OPTIONS[task]))}"
    )


# ---- v4 options and Ant's main_body ----------------------------------------


# v4 keywords whose code paths the v5 cases above don't reach.
V4_OPTION_CASES = [
    ("Ant-v4", {"use_contact_forces": True}),
    ("Ant-v4", {"terminate_when_unhealthy": False, "healthy_z_range": (0.6, 1.0)}),
    ("Ant-v4", {"exclude_current_positions_from_observation": False}),
    ("Humanoid-v4", {"terminate_when_unhealthy": False}),
    ("Humanoid-v4", {"exclude_current_positions_from_observation": False}),
]


# Ant-v4 reads its contact terms only with use_contact_forces (given alone,
# they are refused as ignored: envpool_x.families.mujoco).
V4_OPTION_CONTEXT: dict[tuple[str, str], dict[str, Any]] = {
    ("Ant-v4", "contact_cost_weight"): {"use_contact_forces": True},
    ("Ant-v4", "contact_force_range"): {"use_contact_forces": True},
}


@pytest.mark.parametrize(("task", "kwargs"), V4_OPTION_CASES)
def test_v4_option_matches_gymnasium(task: str, kwargs: dict[str, Any]) -> None:
    _run_parity(task, kwargs, episodes=1, max_steps=60, seed=5)


@pytest.mark.parametrize("task", [t for t in MUJOCO_TASKS if t.endswith("-v4")])
def test_every_v4_keyword_matches_gymnasium(task: str) -> None:
    """Every keyword of gymnasium's v4 constructor is a config key here, and
    with a non-default value (the v5 case's, or use_contact_forces=True) the
    env steps as gymnasium's with the same value."""
    import inspect

    cls = type(_gym_make(task).unwrapped)
    params = set(inspect.signature(cls.__init__).parameters) - NOT_SIMULATION_KEYWORDS
    config = envpool_x.make_spec(task).config_dict()
    assert params <= set(config), f"{task}: missing keys {sorted(params - set(config))}"
    values = {**V5_OPTIONS[task.replace("-v4", "-v5")], "use_contact_forces": True}
    for key in sorted(params):
        context = OPTION_CONTEXT.get((task.replace("-v4", "-v5"), key), {})
        context = {**context, **V4_OPTION_CONTEXT.get((task, key), {})}
        _run_parity(task, {**context, key: values[key]}, episodes=1, max_steps=60, seed=5)


def test_ant_main_body_by_id_or_name() -> None:
    """main_body may be a body id (int, numpy int) or a name, as in gymnasium."""
    by_id = _run_parity("Ant-v5", {"main_body": 3}, episodes=1, max_steps=30, seed=2)
    by_np = _run_parity("Ant-v5", {"main_body": np.int64(3)}, episodes=1, max_steps=30, seed=2)
    by_name = _run_parity("Ant-v5", {"main_body": "aux_1"}, episodes=1, max_steps=30, seed=2)
    assert by_id["total"] == by_np["total"] == by_name["total"]
    with pytest.raises(ValueError, match="no body"):
        envpool_x.make_spec("Ant-v5", main_body="no_such_body")
    with pytest.raises(ValueError, match="not a body id"):
        envpool_x.make_spec("Ant-v5", main_body=99)


def test_ignored_uph_cost_weight_warns() -> None:
    """gymnasium ignores HumanoidStandup-v5's uph_cost_weight; so do we, but
    not silently."""
    with pytest.warns(UserWarning, match="uph_cost_weight") as caught:
        envpool_x.make_spec("HumanoidStandup-v5", uph_cost_weight=2.0)
    assert caught[0].filename == __file__, "the warning should point at the caller's line"
