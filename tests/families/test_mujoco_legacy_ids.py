"""EnvPool's -v2 / -v3 MuJoCo ids (docs/mujoco.md, "EnvPool's older ids").

gym's v2 / v3 classes need mujoco-py, which does not install here, so each id
has two oracles:
- EnvPool 1.2.5's id of the same name (1.2.7 registers them the same way),
  stepped beside ours over whole episodes from the state its reset drew
  (read back from its reset observation): observations, rewards, terminated,
  truncated and every info key both have;
- gymnasium 1.4's v4 class with the v3 options, from gymnasium's reset state,
  where that is the same env: everything but the contact forces, which the old
  ids never compute (zeros, as gym's mujoco-py envs and EnvPool's ids have
  them; a v4 computes them).
"""

from __future__ import annotations

import math
import os
from typing import Any

import numpy as np
import pytest
from mujoco_helpers import ATOL, LEGACY_TASKS, _copy_state, _gym_make

import envpool_x
from conftest import ci_sample
from envpool_x.families import mujoco as mj
from envpool_x.families.mujoco_envpool_names import LEGACY_VERSIONS

mujoco = pytest.importorskip("mujoco")
if not mj.has_mujoco():
    pytest.skip("envpool_x was built without MuJoCo", allow_module_level=True)

LEGACY = {name: f"{name}-v{v}" for name, v in LEGACY_VERSIONS.items()}
CI_LEGACY = {"Ant-v3", "Humanoid-v3", "Reacher-v2"}
SAMPLED = ci_sample(LEGACY_TASKS, CI_LEGACY)

# Tasks whose EnvPool config takes exclude_current_positions_from_observation:
# with it off, its reset observation starts with the whole qpos and qvel.
_FULL_STATE_OBS = ("Ant", "HalfCheetah", "Hopper", "Walker2d", "Swimmer", "Humanoid")
# Trailing observation entries that are contact forces (cfrc_ext): zeros here.
_CONTACT_FORCES = {"Ant-v3": 84, "Humanoid-v3": 84, "HumanoidStandup-v2": 84}
# EnvPool's info keys gym's class (and so ours) lacks: EnvPool reports its
# alive bonus and near distance where gym's v2 did not.
_ENVPOOL_ONLY_INFO = {"HumanoidStandup-v2": {"reward_alive"}, "Pusher-v2": {"reward_near"}}
_NOT_INFO = {"env_id", "players", "elapsed_step"}


def test_every_task_has_its_older_id() -> None:
    listed = envpool_x.list_all_envs()
    assert sorted(LEGACY_TASKS) == sorted(LEGACY.values())
    for name, task in LEGACY.items():
        assert task in listed
        old, v4 = envpool_x.make_spec(task), envpool_x.make_spec(f"{name}-v4")
        assert old.max_episode_steps == v4.max_episode_steps
        assert old.reward_threshold == v4.reward_threshold
        assert old.action_space == v4.action_space
        assert old.env_config["xml_file"] == v4.env_config["xml_file"]


@pytest.mark.filterwarnings("ignore:.*precision lowered:UserWarning")
@pytest.mark.parametrize("task", LEGACY_TASKS)
def test_spaces_and_defaults_match_envpool(task: str) -> None:
    envpool = pytest.importorskip("envpool")
    theirs, ours = envpool.make_spec(task), envpool_x.make_spec(task)
    assert ours.observation_space.shape == theirs.observation_space.shape
    assert ours.action_space.shape == theirs.action_space.shape
    # EnvPool's actions are float64 (docs/differences.md).
    np.testing.assert_allclose(ours.action_space.low, theirs.action_space.low, rtol=1e-7)
    assert ours.max_episode_steps == theirs.config.max_episode_steps
    # Every key of EnvPool's config reads back here with EnvPool's default
    # (xml_file by its file name: the folders differ), bar the -v4 task's
    # documented differences (docs/mujoco.md): gymnasium's reward threshold
    # (Hopper's is 3800, EnvPool's 6000) and frames from gymnasium's camera.
    config = ours.config_dict()
    assert os.path.basename(config["xml_file"]) == theirs.config.xml_file
    skip = {"xml_file", "seed", "num_envs", "batch_size", "reward_threshold"}
    skip.add("gymnasium_v5_render_camera")
    for key, value in theirs.config._asdict().items():
        if key in config and key not in skip:
            assert config[key] == value or (
                isinstance(value, float) and math.isclose(config[key], value)
            ), (key, config[key], value)


def _model(task: str) -> Any:
    return mujoco.MjModel.from_xml_path(envpool_x.make_spec(task).env_config["xml_file"])


def _slide_qpos(model: Any, body: str, xy: np.ndarray, first: int) -> np.ndarray:
    """The values of the two slide joints (qpos[first], qpos[first + 1]) that put
    ``body``'s centre at ``xy``: its centre moves linearly with them."""
    data = mujoco.MjData(model)

    def centre(q: tuple[float, float]) -> np.ndarray:
        data.qpos[:] = 0.0
        data.qpos[first : first + 2] = q
        mujoco.mj_forward(model, data)
        return data.body(body).xipos[:2].copy()

    origin = centre((0.0, 0.0))
    moves = np.stack([centre((1.0, 0.0)) - origin, centre((0.0, 1.0)) - origin], axis=1)
    return np.linalg.solve(moves, xy - origin)


def _state_from_envpool_obs(task: str, obs: np.ndarray) -> np.ndarray:
    """The qpos and qvel EnvPool's reset drew, read from its reset observation."""
    name = task.rsplit("-", 1)[0]
    model = _model(task)
    nq, nv = model.nq, model.nv
    qpos, qvel = np.zeros(nq), np.zeros(nv)
    if name in _FULL_STATE_OBS or name in ("HumanoidStandup", "InvertedPendulum"):
        qpos[:], qvel[:] = obs[:nq], obs[nq : nq + nv]  # (reset velocities are < 10: unclipped)
    elif name == "InvertedDoublePendulum":  # x, sin(angles), cos(angles), qvel
        qpos[:] = [obs[0], math.atan2(obs[1], obs[3]), math.atan2(obs[2], obs[4])]
        qvel[:] = obs[5:8]
    elif name == "Reacher":  # cos, sin of the arm's angles, the target, arm velocities
        qpos[:] = [math.atan2(obs[2], obs[0]), math.atan2(obs[3], obs[1]), obs[4], obs[5]]
        qvel[:2] = obs[6:8]
    else:  # Pusher: the arm's qpos and qvel, then the object's and goal's centres
        qpos[:7], qvel[:7] = obs[:7], obs[7:14]
        qpos[7:9] = _slide_qpos(model, "object", obs[17:19], 7)
        qpos[9:11] = _slide_qpos(model, "goal", obs[20:22], 9)
    return np.concatenate([qpos, qvel])


# EnvPool 1.2.5 links MuJoCo 3.6.0, we 3.17.0: from the same state the two
# simulations agree to ~1e-8 per step, which the contact-rich tasks amplify
# over an episode (measured: beyond 1e-4 relative after 60 to 140 steps of
# HalfCheetah, 65+ of Ant, 14+ of Humanoid, 1 to 40 of HumanoidStandup lying
# on the floor, whose first step differs by up to 1.6e-4). Those are compared
# for the first _DRIFT steps of each episode, the others over whole episodes
# (measured: within 1.1e-5); values within 1e-4 of EnvPool's relative to
# 1 + |value|. The whole episodes of every id, on our MuJoCo, are compared
# with gymnasium's v4 below.
_DRIFT = {"HalfCheetah-v3": 50, "Ant-v3": 50, "Humanoid-v3": 10, "HumanoidStandup-v2": 1}
_TOL = 1e-4
# HumanoidStandup's first step already differs by up to 1.6e-4 (measured).
_TOL_OF = {"HumanoidStandup-v2": 1e-3}


def _close(ours: Any, theirs: Any, at: str, tol: float = _TOL) -> None:
    ours, theirs = np.asarray(ours, np.float64), np.asarray(theirs, np.float64)
    worst = float(np.max(np.abs(ours - theirs) / (1.0 + np.abs(theirs)), initial=0.0))
    assert worst <= tol, f"{at}: off by {worst:.2e} (tolerance {tol:.0e})"


def run_beside_envpool(task: str, seed: int, min_steps: int, episodes: int = 2) -> int:
    """Step ours beside EnvPool's id with the same random actions, from the
    state EnvPool's reset drew, to the end of each episode (or for _DRIFT
    steps); return the steps compared."""
    envpool = pytest.importorskip("envpool")
    name = task.rsplit("-", 1)[0]
    theirs_kw: dict[str, Any] = {}
    if name in _FULL_STATE_OBS or name == "HumanoidStandup":
        theirs_kw["exclude_current_positions_from_observation"] = False
    ours_kw = {} if name == "HumanoidStandup" else theirs_kw  # gym's v2 takes no options
    skip = 2 if name == "HumanoidStandup" else 0  # its qpos[0:2] in EnvPool's observation
    tol = _TOL_OF.get(task, _TOL)
    theirs = envpool.make_gymnasium(task, num_envs=1, seed=seed, **theirs_kw)
    ours = envpool_x.make_gymnasium(task, num_envs=1, seed=seed, **ours_kw)
    space = ours.single_action_space
    rng = np.random.default_rng(seed)
    steps = episode = 0
    while episode < episodes or steps < min_steps:
        t_o, _ = theirs.reset()
        ours.reset()
        ours._pool.set_state(0, _state_from_envpool_obs(task, t_o[0]))
        for t in range(_DRIFT.get(task, 100_000)):
            a = rng.uniform(space.low, space.high).astype(np.float32)
            o, r, te, tr, info = ours.step(a[None])
            t_o, t_r, t_te, t_tr, t_info = theirs.step(a[None].astype(np.float64))
            at = f"{task} seed {seed} episode {episode} step {t}"
            _close(o[0], t_o[0][skip:], f"{at}: obs", tol)
            _close(r[0], t_r[0], f"{at}: reward", tol)
            assert (bool(te[0]), bool(tr[0])) == (bool(t_te[0]), bool(t_tr[0])), at
            keys = set(t_info) - _NOT_INFO
            assert keys - set(info) == _ENVPOOL_ONLY_INFO.get(task, set()), at
            for key in sorted(keys & set(info)):
                _close(info[key][0], t_info[key][0], f"{at}: info[{key!r}]", tol)
            steps += 1
            if t_te[0] or t_tr[0]:
                break
        episode += 1
    ours.close()
    theirs.close()
    return steps


@pytest.mark.filterwarnings("ignore:.*precision lowered:UserWarning")
@pytest.mark.parametrize("task", SAMPLED)
def test_whole_episodes_match_envpool(task: str) -> None:
    """At least 2 episodes and 300 steps (all of Ant-v3's first episode: the
    1000-step time limit)."""
    assert run_beside_envpool(task, seed=0, min_steps=300) >= 300


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore:.*precision lowered:UserWarning")
@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("task", LEGACY_TASKS)
def test_whole_episodes_match_envpool_more_seeds(task: str, seed: int) -> None:
    assert run_beside_envpool(task, seed=seed, min_steps=2000, episodes=3) >= 2000


# gymnasium's v4 options that make it the old id's env (bar the contact forces).
_V4_OPTIONS = {"Ant-v3": {"use_contact_forces": False}}


def run_beside_gymnasium_v4(task: str, seed: int, min_steps: int, **kwargs: Any) -> int:
    """Step ours beside gymnasium's v4 class (both given ``kwargs``) from
    gymnasium's reset states; what the contact forces enter is compared as
    described above."""
    v4 = task.rsplit("-", 1)[0] + "-v4"
    ours = envpool_x.make_gymnasium(task, num_envs=1, seed=seed, **kwargs)
    theirs = _gym_make(v4, **_V4_OPTIONS.get(task, {}), **kwargs)
    forces = _CONTACT_FORCES.get(task, 0)
    rng = np.random.default_rng(seed)
    steps = episode = 0
    while steps < min_steps:
        ours.reset()
        theirs.reset(seed=seed * 100 + episode)
        _copy_state(ours, theirs)
        for t in range(100_000):
            a = rng.uniform(theirs.action_space.low, theirs.action_space.high).astype(np.float32)
            o, r, te, tr, info = ours.step(a[None])
            t_o, t_r, t_te, t_tr, t_info = theirs.step(a)
            at = f"{task} episode {episode} step {t}"
            kept = len(o[0]) - forces
            np.testing.assert_allclose(o[0][:kept], t_o[:kept], atol=ATOL, rtol=0, err_msg=at)
            assert not o[0][kept:].any(), f"{at}: contact forces are not zero"
            # HumanoidStandup-v4 pays an impact cost of its (computed) forces.
            want = t_r - (t_info["reward_impact"] if task == "HumanoidStandup-v2" else 0.0)
            assert abs(float(r[0]) - want) <= 2 * float(np.spacing(np.float32(abs(want)))), at
            assert (bool(te[0]), bool(tr[0])) == (t_te, t_tr), at
            for key, value in t_info.items():
                expect = 0.0 if key == "reward_impact" else value
                np.testing.assert_allclose(info[key][0], expect, atol=ATOL, err_msg=f"{at}: {key}")
            steps += 1
            if t_te or t_tr:
                break
        episode += 1
    ours.close()
    theirs.close()
    return steps


@pytest.mark.parametrize("task", ci_sample(LEGACY_TASKS, {"HumanoidStandup-v2", "Hopper-v3"}))
def test_steps_as_gymnasium_v4_with_the_v3_options(task: str) -> None:
    assert run_beside_gymnasium_v4(task, seed=0, min_steps=300) >= 300


def test_ant_v3_has_gym_v3s_contact_terms() -> None:
    """Ant-v3 observes the contact forces (zeros) and reports reward_ctrl as
    the control cost and reward_contact, as gym's v3 and EnvPool; with
    use_contact_forces=False (EnvPool's use_contact_force) it is Ant-v4's
    observation."""
    spec = envpool_x.make_spec("Ant-v3")
    assert spec.observation_space.shape == (111,) and spec.config_dict()["use_contact_forces"]
    assert envpool_x.make_spec("Ant-v3", use_contact_force=False).observation_space.shape == (27,)
    env = envpool_x.make_gymnasium("Ant-v3", num_envs=1, seed=0)
    env.reset()
    _, r, _, _, info = env.step(np.full((1, 8), 0.5, np.float32))
    assert info["reward_ctrl"][0] == pytest.approx(-0.5 * 8 * 0.25)
    assert info["reward_contact"][0] == 0.0
    env.close()


def test_humanoid_v3_contact_cost_range_applies() -> None:
    """gym's Humanoid-v3 clips its contact cost to contact_cost_range: with
    zero forces the cost is the range's low end where that is above zero."""
    base = envpool_x.make_gymnasium("Humanoid-v3", num_envs=1, seed=0)
    paid = envpool_x.make_gymnasium("Humanoid-v3", num_envs=1, seed=0, contact_cost_range=(2, 10))
    a = np.zeros((1, 17), np.float32)
    base.reset()
    paid.reset()
    plain, more = base.step(a), paid.step(a)  # the same seed: the same state
    assert more[4]["reward_impact"][0] == -2.0 and plain[4]["reward_impact"][0] == 0.0
    assert more[1][0] == pytest.approx(plain[1][0] - 2.0, abs=1e-4)
    base.close()
    paid.close()


@pytest.mark.parametrize(
    ("task", "kwargs", "error"),
    [
        ("Ant-v3", {"use_contact_forces": False, "contact_cost_weight": 1.0}, "use_contact_forces"),
        ("Hopper-v3", {"healthy_z_range": (2.0, 1.0)}, "healthy_z_range"),
        ("Humanoid-v3", {"contact_cost_range": (1.0, 0.0)}, "contact_cost_range"),
        ("Reacher-v2", {"frame_skip": 0}, "frame_skip"),
        ("Swimmer-v3", {"ctrl_cost_weight": math.nan}, "ctrl_cost_weight"),
        ("Humanoid-v3", {"post_constraint": True}, "post_constraint"),
        ("HumanoidStandup-v2", {"post_constraint": True}, "post_constraint"),
        ("Ant-v3", {"post_constraint": True}, "post_constraint"),
        ("InvertedPendulum-v2", {"reward_if_not_terminated": True}, "-v5"),
    ],
)
def test_bad_options_are_refused(task: str, kwargs: dict[str, Any], error: str) -> None:
    with pytest.raises((ValueError, TypeError), match=error):
        envpool_x.make_spec(task, **kwargs)


def test_envpool_keys_the_old_ids_fix() -> None:
    """post_constraint=False is each old id's own (True is the same where
    the config reads no contact force), as EnvPool's use_contact_force=True
    is Humanoid-v3's."""
    # Accepted, and read back as what the task runs with.
    assert not envpool_x.make_spec("HalfCheetah-v3", post_constraint=True).config.post_constraint
    spec = envpool_x.make_spec("Ant-v3", use_contact_force=False, post_constraint=True)
    assert spec.observation_space.shape == (27,)
    assert not envpool_x.make_spec("Humanoid-v3").config.post_constraint
    assert envpool_x.make_spec("Humanoid-v3", use_contact_force=True).config.use_contact_force
    with pytest.raises(ValueError, match="contact_cost_weight=0"):
        envpool_x.make_spec("Humanoid-v3", use_contact_force=False)
