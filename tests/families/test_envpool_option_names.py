"""EnvPool's config keys of the tasks both projects have (envpool_x.envpool_names;
docs/mujoco.md, "EnvPool's option names"): an alias steps as our name does and is
read back under EnvPool's name, both names with different values are refused, a
fixed key takes the task's value only, an unsupported key is a KeyError saying
what to do instead; and, with EnvPool 1.2.5 installed, every key of its config
with its default is taken or refused as listed here."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

import envpool_x
from conftest import ci_sample
from envpool_x.envpool_names import Alias, Fixed, Unsupported
from envpool_x.families.dmc import DOMAINS as DMC_DOMAINS
from envpool_x.registration import envs_by_family, families, lookup
from envpool_x.spec import POOL_DEFAULTS

INF = math.inf
BY_FAMILY = envs_by_family()
MUJOCO = BY_FAMILY.get("mujoco", [])
needs_mujoco = pytest.mark.skipif(not MUJOCO, reason="this build has no MuJoCo")
needs_dmc = pytest.mark.skipif(not BY_FAMILY.get("dmc"), reason="this build has no DMC")
needs_grid = pytest.mark.skipif(not BY_FAMILY.get("minigrid"), reason="no grid worlds")


def _table(task: str) -> Any:
    entry = lookup(task)
    return entry.declaration.envpool_table(entry.pool_name)


def _one_task_per_table() -> list[str]:
    tasks: dict[str, str] = {}
    for fam in families():
        for task in BY_FAMILY.get(fam.name, []):
            if fam.envpool_table(lookup(task).pool_name) is not None:
                tasks.setdefault(lookup(task).pool_name, task)
    return sorted(tasks.values())


TABLE_TASKS = _one_task_per_table()


@pytest.mark.parametrize("task", TABLE_TASKS)
def test_tables_name_no_key_of_the_task_and_aliases_name_one(task: str) -> None:
    """Only an unsupported key may be one of the task's own (EnvPool's MiniGrid
    config has every level's keys: a level's own are its own); an alias names
    an env key of the task."""
    env_keys = set(envpool_x.make_spec(task).env_config)
    for key, entry in _table(task).entries.items():
        assert key not in POOL_DEFAULTS, key
        if not isinstance(entry, Unsupported):
            assert key not in env_keys, key
        if isinstance(entry, Alias):
            assert entry.target in env_keys, (key, entry.target)


# ---- aliases ---------------------------------------------------------------

#: (task, EnvPool's names, ours): the same config, so the same steps.
ALIASES = [
    ("Ant-v4", {"healthy_z_min": 0.3, "healthy_z_max": 0.9}, {"healthy_z_range": (0.3, 0.9)}),
    (
        "Ant-v4",
        {"use_contact_force": True, "contact_force_min": -0.5, "contact_force_max": 0.7},
        {"use_contact_forces": True, "contact_force_range": (-0.5, 0.7)},
    ),
    (
        "Ant-v5",
        {"contact_force_max": 0.5, "healthy_z_min": 0.25},
        {"contact_force_range": (-1.0, 0.5), "healthy_z_range": (0.25, 1.0)},
    ),
    (
        "Hopper-v4",
        {"healthy_z_min": 0.8, "healthy_angle_min": -0.1, "healthy_angle_max": 0.15}
        | {"healthy_state_min": -50.0, "healthy_state_max": 60.0},
        {"healthy_z_range": (0.8, INF), "healthy_angle_range": (-0.1, 0.15)}
        | {"healthy_state_range": (-50.0, 60.0)},
    ),
    (
        "Walker2d-v5",
        {"healthy_z_min": 0.9, "healthy_z_max": 1.9, "healthy_angle_min": -0.5}
        | {"healthy_angle_max": 0.6},
        {"healthy_z_range": (0.9, 1.9), "healthy_angle_range": (-0.5, 0.6)},
    ),
    ("Humanoid-v4", {"healthy_z_min": 1.1, "healthy_z_max": 1.9}, {"healthy_z_range": (1.1, 1.9)}),
    ("Humanoid-v5", {"contact_cost_max": 1e-3}, {"contact_cost_range": (-INF, 1e-3)}),
    (
        "HumanoidStandup-v5",
        {"contact_cost_weight": 1e-5, "contact_cost_max": 0.5},
        {"impact_cost_weight": 1e-5, "impact_cost_range": (-INF, 0.5)},
    ),
    (
        "Reacher-v4",
        {"ctrl_cost_weight": 0.5, "dist_cost_weight": 2.0},
        {"reward_control_weight": 0.5, "reward_dist_weight": 2.0},
    ),
    ("Reacher-v5", {"dist_cost_weight": 0.3}, {"reward_dist_weight": 0.3}),
    (
        "Pusher-v4",
        {"ctrl_cost_weight": 0.2, "dist_cost_weight": 1.5, "near_cost_weight": 0.25},
        {"reward_control_weight": 0.2, "reward_dist_weight": 1.5, "reward_near_weight": 0.25},
    ),
    ("Pusher-v5", {"near_cost_weight": 0.75}, {"reward_near_weight": 0.75}),
]
ALIAS_IDS = [f"{task}-{'-'.join(theirs)}" for task, theirs, _ in ALIASES]


def _plain(config: dict[str, Any]) -> dict[str, Any]:
    """``config`` with its (low, high) pairs as lists (given as tuples, kept so)."""
    return {k: list(v) if isinstance(v, (tuple, list)) else v for k, v in config.items()}


def _trajectory(task: str, steps: int = 8, **config: Any) -> list[np.ndarray]:
    """Observations, rewards and flags of a few random steps of two envs."""
    env = envpool_x.make_gymnasium(task, num_envs=2, seed=7, **config)
    space = env.spec.action_space
    rng = np.random.default_rng(0)
    out = [env.reset()[0]]
    for _ in range(steps):
        action = rng.uniform(space.low, space.high, (2, *space.shape)).astype(space.dtype)
        obs, reward, terminated, truncated, _ = env.step(action)
        out += [obs, reward, terminated, truncated]
    env.close()
    return out


@needs_mujoco
@pytest.mark.parametrize(("task", "theirs", "ours"), ALIASES, ids=ALIAS_IDS)
def test_an_alias_steps_as_our_name(task: str, theirs: dict, ours: dict) -> None:
    by_alias, by_ours = envpool_x.make_spec(task, **theirs), envpool_x.make_spec(task, **ours)
    default = _plain(envpool_x.make_spec(task).env_config)
    assert _plain(by_alias.env_config) == _plain(by_ours.env_config) != default
    for key, value in theirs.items():  # read back under EnvPool's name, both ways
        assert getattr(by_alias.config, key) == getattr(by_ours.config, key) == value
    a, b = _trajectory(task, **theirs), _trajectory(task, **ours)
    for x, y in zip(a, b, strict=True):
        np.testing.assert_array_equal(x, y)


@needs_mujoco
@pytest.mark.parametrize(("task", "theirs", "ours"), ALIASES, ids=ALIAS_IDS)
def test_both_names_must_agree(task: str, theirs: dict, ours: dict) -> None:
    envpool_x.make_spec(task, **theirs, **ours)  # the same values: accepted
    defaults = envpool_x.make_spec(task).config_dict()
    for key, value in theirs.items():
        target = _table(task).entries[key].target
        with pytest.raises(ValueError, match=rf"{key}=.*contradicts {target}=.*one of the two"):
            envpool_x.make_spec(task, **{key: value, target: defaults[target]})


@needs_mujoco
def test_a_bad_alias_value_is_refused_naming_both_names() -> None:
    with pytest.raises(ValueError, match=r"healthy_z_range\[0\]=nan.*EnvPool's healthy_z_min"):
        envpool_x.make_spec("Ant-v4", healthy_z_min=math.nan)
    with pytest.raises(TypeError, match=r"reward_dist_weight.*EnvPool's dist_cost_weight"):
        envpool_x.make_spec("Reacher-v4", dist_cost_weight="1")
    # Ant-v4's contact terms need its switch, under either name.
    with pytest.raises(ValueError, match="would be ignored with use_contact_forces=False"):
        envpool_x.make_spec("Ant-v4", contact_force_max=2.0)
    envpool_x.make_spec("Ant-v4", contact_force_max=2.0, use_contact_force=True)


# ---- fixed keys --------------------------------------------------------------


def _other(value: Any) -> Any:
    """A value other than a fixed key's ``value``, of its type."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, str):
        return value + "_other"
    if isinstance(value, (list, tuple)):
        return type(value)(value[:-1]) if value else type(value)([value])
    return value + 1


FIXED = [
    (task, key)
    for task in TABLE_TASKS
    for key, entry in _table(task).entries.items()
    if isinstance(entry, Fixed)
]


@pytest.mark.parametrize(("task", "key"), FIXED)
def test_a_fixed_key_takes_the_tasks_value_only(task: str, key: str) -> None:
    entry = _table(task).entries[key]
    spec = envpool_x.make_spec(task, **{key: entry.value})
    assert getattr(spec.config, key) == entry.value
    assert getattr(envpool_x.make_spec(task).config, key) == entry.value  # read back
    other = _other(entry.value)
    if entry.same_with is not None and entry.same_with(other, spec.config_dict()):
        envpool_x.make_spec(task, **{key: other})  # nothing reads it (tested below)
        return
    with pytest.raises(ValueError, match=rf"^{task}: EnvPool's {key}=.* is not supported here"):
        envpool_x.make_spec(task, **{key: other})


#: post_constraint=False (EnvPool's -v4 default) is the same where the config
#: reads no contact force: (task, config, accepted).
POST_CONSTRAINT_OFF = [
    ("HalfCheetah-v4", {}, True),
    ("Reacher-v5", {}, True),
    ("Ant-v4", {}, True),
    ("Ant-v4", {"use_contact_force": True}, False),
    ("Ant-v5", {}, False),
    ("Ant-v5", {"include_cfrc_ext_in_observation": False, "contact_cost_weight": 0.0}, True),
    ("Humanoid-v4", {}, False),
    ("Humanoid-v5", {"include_cfrc_ext_in_observation": False, "contact_cost_weight": 0}, True),
    ("HumanoidStandup-v4", {}, False),
    ("HumanoidStandup-v5", {"include_cfrc_ext_in_observation": False}, False),
    (
        "HumanoidStandup-v5",
        {"include_cfrc_ext_in_observation": False, "impact_cost_weight": 0},
        True,
    ),
]


@needs_mujoco
@pytest.mark.parametrize(("task", "config", "accepted"), POST_CONSTRAINT_OFF)
def test_post_constraint_off_only_where_nothing_reads_contact_forces(
    task: str, config: dict, accepted: bool
) -> None:
    if accepted:
        spec = envpool_x.make_spec(task, post_constraint=False, **config)
        assert spec.config.post_constraint is True  # what the task runs with
        return
    with pytest.raises(ValueError, match="mj_rnePostConstraint after every step"):
        envpool_x.make_spec(task, post_constraint=False, **config)


@needs_mujoco
def test_fixed_keys_say_what_to_do_instead() -> None:
    cases = [
        # frame_stack is a key of the task's (pixel observations: test_pixels.py)
        ("Hopper-v4", {"frame_stack": 4}, "it needs from_pixels=True"),
        ("Hopper-v4", {"legacy_healthy_reward": False}, "make the -v5 id for v5's rule"),
        ("Walker2d-v5", {"legacy_healthy_reward": True}, "make the -v4 id for v4's rule"),
        ("Reacher-v4", {"reward_after_step": True}, "make the -v5 id"),
        ("Hopper-v5", {"velocity_max": 5.0}, "a constant of gymnasium's task"),
        ("Humanoid-v4", {"use_contact_force": True}, "make Humanoid-v5 for it"),
        ("HumanoidStandup-v4", {"ctrl_cost_weight": 0.2}, "HumanoidStandup-v5, which takes"),
        ("Ant-v4", {"gymnasium_v5_render_camera": False}, "gymnasium's env with its default"),
    ]
    for task, config, words in cases:
        with pytest.raises(ValueError, match=words.replace(".", r"\.")):
            envpool_x.make_spec(task, **config)
    envpool_x.make_spec("Hopper-v4", frame_stack=1, legacy_healthy_reward=True)


@pytest.mark.skipif("Pendulum-v1" not in envpool_x.list_all_envs(), reason="no Pendulum")
def test_pendulum_version() -> None:
    assert envpool_x.make_spec("Pendulum-v1").config.version == 1
    envpool_x.make_spec("Pendulum-v1", version=1)
    with pytest.raises(ValueError, match="EnvPool's Pendulum-v0 dynamics"):
        envpool_x.make_spec("Pendulum-v1", version=0)


@needs_dmc
@pytest.mark.parametrize(
    "domain", ci_sample([d for d, *_ in DMC_DOMAINS], {"cheetah", "walker", "cartpole"})
)
def test_dmc_frame_skip_is_dm_controls_sub_steps(domain: str) -> None:
    pytest.importorskip("dm_control")
    from dm_control import suite

    from envpool_x.families.dmc import SUB_STEPS, task_id

    assert set(SUB_STEPS) == {d for d, *_ in DMC_DOMAINS}
    ((prefix, tasks),) = [(p, t) for d, p, _, t in DMC_DOMAINS if d == domain]
    for task in tasks:
        steps = suite.load(domain, task)._n_sub_steps
        assert SUB_STEPS[domain] == steps, (domain, task)
        assert envpool_x.make_spec(task_id(prefix, task)).config.frame_skip == steps


@needs_dmc
def test_dmc_frame_skip_other_than_sub_steps_says_what_to_do() -> None:
    envpool_x.make_spec("WalkerWalk-v1", frame_skip=10, frame_stack=1)
    with pytest.raises(ValueError, match="repeat each action k times yourself"):
        envpool_x.make_spec("WalkerWalk-v1", frame_skip=5)
    with pytest.raises(ValueError, match="it needs from_pixels=True"):
        envpool_x.make_spec("CheetahRun-v1", frame_stack=3)


# ---- unsupported keys ----------------------------------------------------------


@needs_mujoco
def test_base_path_says_to_give_xml_file() -> None:
    with pytest.raises(KeyError, match="'base_path' is an EnvPool config key.*give xml_file"):
        envpool_x.make_spec("Hopper-v5", base_path="/opt/envpool_assets")


@pytest.mark.parametrize(
    "task",
    ["CartPole-v1", "FrozenLake-v1", "Pong-v5", "MiniGrid-Empty-5x5-v0", "LunarLander-v3",
     "MaxCut-v0", "TagGridworld-v0"],
)  # fmt: skip
def test_base_path_of_the_other_families_says_why(task: str) -> None:
    """EnvPool gives every task a base_path; here only MuJoCo and DMC say more."""
    if task not in envpool_x.list_all_envs():
        pytest.skip(f"{task} is not in this build")
    with pytest.raises(KeyError, match="'base_path' is an EnvPool config key.*leave it out"):
        envpool_x.make_spec(task, base_path="/opt/envpool")


@needs_grid
def test_a_key_of_another_grid_level_does_not_apply() -> None:
    cases = [
        ("MiniGrid-DoorKey-8x8-v0", "action_kinds"),  # EnvPool's only
        ("MiniGrid-DoorKey-8x8-v0", "num_dists"),  # a BabyAI level's
        ("BabyAI-GoToLocal-v0", "n_obstacles"),  # a MiniGrid level's
    ]
    for task, key in cases:
        with pytest.raises(KeyError, match=rf"{task}: '{key}'.*does not apply here"):
            envpool_x.make_spec(task, **{key: 1})
    envpool_x.make_spec("MiniGrid-DoorKey-8x8-v0", agent_view_size=5)  # its own key


@needs_mujoco
@pytest.mark.parametrize("task", MUJOCO)
def test_a_config_read_back_is_taken_again(task: str) -> None:
    alias = isinstance(_table(task).entries.get("healthy_z_min"), Alias)
    config = {"healthy_z_min": 0.3} if alias else {}
    spec = envpool_x.make_spec(task, **config)
    again = envpool_x.make_spec(task, **spec.config_dict())
    assert again.config_dict() == spec.config_dict()


# ---- EnvPool 1.2.5's own defaults --------------------------------------------

_V4 = [t.removesuffix("-v4") for t in MUJOCO if t.endswith("-v4")]
#: EnvPool's defaults we refuse, with why (the words the refusal carries).
REFUSED_DEFAULTS: dict[tuple[str, str], tuple[type, str]] = {
    # EnvPool's asset folder: we load gymnasium's model files (xml_file).
    **{(task, "base_path"): (KeyError, "give xml_file") for task in MUJOCO},
    # -v4's (and the -v2 / -v3 ids') False draws MuJoCo's free camera; our frames
    # are gymnasium's default camera for every version (EnvPool's True).
    **{
        (task, "gymnasium_v5_render_camera"): (ValueError, "its default camera")
        for task in MUJOCO
        if not task.endswith("-v5")
    },
    # -v4's False leaves cfrc_ext uncomputed, which these tasks observe; gymnasium
    # 1.x (and we) compute it after every step.
    ("Humanoid-v4", "post_constraint"): (ValueError, "mj_rnePostConstraint"),
    ("HumanoidStandup-v4", "post_constraint"): (ValueError, "mj_rnePostConstraint"),
}
#: EnvPool's keys whose default we take but read back as what the task runs
#: with: mj_rnePostConstraint after every step (EnvPool's -v4 default is False;
#: its -v2 / -v3 ids' False is theirs here too).
READ_BACK: dict[str, Any] = {"post_constraint": True}
LEGACY = tuple(t for t in MUJOCO if t.endswith(("-v2", "-v3")))


@needs_mujoco
@pytest.mark.parametrize("task", MUJOCO)
def test_envpools_defaults_are_taken_or_refused_as_listed(task: str) -> None:
    envpool = pytest.importorskip("envpool", reason="EnvPool 1.2.5 is the [test] extra's oracle")
    theirs = envpool.make_spec(task).config._asdict()
    ours = envpool_x.make_spec(task)
    for key, value in theirs.items():
        if key in POOL_DEFAULTS or key in ("env_seed", "max_episode_steps", "reward_threshold"):
            continue
        refused = REFUSED_DEFAULTS.get((task, key))
        if refused is not None:
            with pytest.raises(refused[0], match=refused[1]):
                envpool_x.make_spec(task, **{key: value})
            continue
        spec = envpool_x.make_spec(task, **{key: value})
        if key in ours.env_config:
            continue  # our own key, under the same name (test_envpool_spec_parity.py)
        read_back = value if task in LEGACY else READ_BACK.get(key, value)
        assert getattr(spec.config, key) == read_back, key
        assert spec.env_config == ours.env_config, key  # EnvPool's default is ours
