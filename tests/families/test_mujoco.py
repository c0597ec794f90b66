"""MuJoCo envs against gymnasium 1.4.0's, on the same MuJoCo library.

Both sides load the same XML into the same libmujoco (the mujoco 3.17.0
wheel), start from the same qpos/qvel (copied from gymnasium's reset) and get
the same float32 actions, so the simulation itself is bit-identical; the
observation and info terms are the same float64 expressions. Observations and
info are compared with atol 1e-6 (in practice they are equal). The reward is
float32 on our side (EnvPool's dtype): it is compared with gymnasium's float64
reward rounded to float32, to one float32 ulp.

Measured (whole episodes, >= 2000 random steps per task): observations equal
bit for bit and our rewards equal float32(gymnasium's reward) on every step.
Two known non-bit-exact terms, both far inside the tolerances:
- info["distance_from_origin"] (Ant, Humanoid) can differ by one float64 ulp
  (measured 4.4e-16): numpy's norm goes through BLAS ddot, whose rounding
  (with or without FMA) depends on the CPU's kernel; we compute
  sqrt(x*x + y*y).
- The float32 reward itself is up to half a float32 ulp from gymnasium's
  float64 reward; for HumanoidStandup (rewards around 40 to 150) that is up to
  about 4e-6 (measured 1.9e-6), beyond 1e-6 only because of the dtype.
"""

from __future__ import annotations

import math
import os
from typing import Any

import numpy as np
import pytest

import envpool_x
from conftest import ci_sample
from envpool_x.backends import create_pool
from envpool_x.families import mujoco as mj
from envpool_x.spec import make_spec

pytest.importorskip("mujoco")
gym = pytest.importorskip("gymnasium")
if not mj.has_mujoco():
    pytest.skip("envpool_x was built without MuJoCo", allow_module_level=True)

ATOL = 1e-6
MUJOCO_TASKS = envpool_x.registration.envs_by_family().get("mujoco", [])
# Each task once, v4 and v5 alternating: the CI sample of the whole-episode
# parity and threading tests (all 22 in the slow suite, ENVPOOL_X_SLOW=1).
CI_TASKS = {
    "Ant-v5", "HalfCheetah-v4", "Hopper-v4", "Humanoid-v5", "HumanoidStandup-v4", "Walker2d-v5",
    "Swimmer-v4", "InvertedPendulum-v5", "InvertedDoublePendulum-v4", "Pusher-v5", "Reacher-v4",
}  # fmt: skip
SAMPLED_TASKS = ci_sample(MUJOCO_TASKS, CI_TASKS) if MUJOCO_TASKS else []
V5_TASKS = [t for t in MUJOCO_TASKS if t.endswith("-v5")]


def _gym_make(task: str, **kwargs: Any):
    """gymnasium.make without the env checker. gymnasium's Pusher-v4 refuses
    mujoco >= 3 (its issue 950: the arm passes through pusher.xml's nearly
    massless object there) but its code runs unchanged; ours is what that code
    computes on our MuJoCo, so the oracle is built past the version check."""
    if task != "Pusher-v4":
        return gym.make(task, disable_env_checker=True, **kwargs)
    import mujoco

    real = mujoco.__version__
    mujoco.__version__ = "2.3.7"
    try:
        return gym.make(task, disable_env_checker=True, **kwargs)
    finally:
        mujoco.__version__ = real


def _make_pair(task: str, kwargs: dict[str, Any], **pool_kwargs: Any):
    ours = envpool_x.make_gymnasium(task, num_envs=1, seed=0, **kwargs, **pool_kwargs)
    theirs = _gym_make(task, **kwargs, **pool_kwargs)
    return ours, theirs


def _copy_state(ours, theirs) -> None:
    data = theirs.unwrapped.data
    ours._pool.set_state(0, np.concatenate([data.qpos, data.qvel]))


def _assert_step_equal(task, t, ours_out, theirs_out, row: int = 0) -> None:
    """Row `row` of our batched step against gymnasium's single step."""
    o1, r1, te1, tr1, i1 = ours_out
    o2, r2, te2, tr2, i2 = theirs_out
    at = f"{task} env {row} step {t}"
    np.testing.assert_allclose(o1[row], o2, atol=ATOL, rtol=0, err_msg=f"{at}: obs")
    want = np.float32(r2)
    assert abs(float(r1[row]) - float(want)) <= float(np.spacing(np.abs(want))), (
        f"{at}: reward {r1[row]!r} vs gymnasium {r2!r}"
    )
    assert bool(te1[row]) == bool(te2), f"{at}: terminated"
    assert bool(tr1[row]) == bool(tr2), f"{at}: truncated"
    for key, value in i2.items():
        assert key in i1, f"{task}: info lacks gymnasium's key {key!r}"
        np.testing.assert_allclose(
            i1[key][row], value, atol=ATOL, rtol=0, err_msg=f"{at}: info[{key!r}]"
        )


def _run_parity(
    task: str,
    kwargs: dict[str, Any] | None = None,
    episodes: int = 2,
    max_steps: int | None = None,
    seed: int = 0,
    action_scale: float = 1.0,
    min_steps: int = 0,
) -> dict[str, Any]:
    """Step ours and gymnasium's side by side with random actions from the
    same states, each episode to its end (terminated, or truncated at the
    time limit) or for `max_steps`, and more episodes until `min_steps` steps
    were compared; return the summed rewards (ours), the steps, the episodes
    that ended and the last info, so callers can check what an option
    changed."""
    kwargs = kwargs or {}
    ours, theirs = _make_pair(task, kwargs)
    rng = np.random.default_rng(seed)
    space = theirs.action_space
    total = 0.0
    steps = 0
    ended = 0
    last_info: dict[str, Any] = {}
    episode = 0
    while episode < episodes or steps < min_steps:
        ours.reset()
        theirs.reset(seed=seed * 100 + episode)
        _copy_state(ours, theirs)
        t = 0
        while max_steps is None or t < max_steps:
            a = (rng.uniform(space.low, space.high) * action_scale).astype(np.float32)
            out1 = ours.step(a[None])
            out2 = theirs.step(a)
            _assert_step_equal(task, t, out1, out2)
            total += float(out1[1][0])
            steps += 1
            last_info = out1[4]
            t += 1
            if out2[2] or out2[3]:
                ended += 1
                break
        episode += 1
    ours.close()
    theirs.close()
    return {
        "total": total,
        "steps": steps,
        "episodes": episode,
        "ended": ended,
        "info": last_info,
    }


def test_mujoco_tasks_registered() -> None:
    names = {t.rsplit("-", 1)[0] for t in MUJOCO_TASKS}
    assert names, "no MuJoCo task registered"
    for name in names:
        assert f"{name}-v4" in MUJOCO_TASKS and f"{name}-v5" in MUJOCO_TASKS


@pytest.mark.parametrize("task", MUJOCO_TASKS)
def test_spaces_match_gymnasium(task: str) -> None:
    ours = envpool_x.make_spec(task)
    theirs = _gym_make(task)
    assert ours.observation_space.shape == theirs.observation_space.shape
    assert ours.observation_space.dtype == theirs.observation_space.dtype
    assert ours.action_space == theirs.action_space
    assert ours.config.max_episode_steps == theirs.spec.max_episode_steps


@pytest.mark.parametrize("task", SAMPLED_TASKS)
def test_parity_with_gymnasium(task: str) -> None:
    """Whole episodes, at least two and at least 2000 steps in all: every
    step until gymnasium's env terminates or its TimeLimit truncates (1000
    steps for most tasks), on the same step here. Tasks whose random-action
    episodes end early (Hopper, Humanoid, ...) run many episodes, each from
    gymnasium's reset state."""
    result = _run_parity(task, episodes=2, min_steps=2000)
    assert result["steps"] >= 2000
    assert result["ended"] == result["episodes"] >= 2


@pytest.mark.parametrize("task", MUJOCO_TASKS)
def test_parity_truncation(task: str) -> None:
    """The time limit truncates on the same step as gymnasium's TimeLimit."""
    result = _run_parity(task, {"max_episode_steps": 30}, episodes=1, max_steps=40)
    assert result["ended"] == 1


def _unstable_pair(task: str, **pool_kwargs: Any):
    """Ours and gymnasium's env in the same state, with velocities (1e12) that
    MuJoCo rejects on the next mj_step."""
    ours = envpool_x.make_gymnasium(task, num_envs=1, seed=0, **pool_kwargs)
    theirs = _gym_make(task)
    ours.reset()
    theirs.reset(seed=0)
    data = theirs.unwrapped.data
    theirs.unwrapped.set_state(data.qpos.copy(), np.full_like(data.qvel, 1e12))
    _copy_state(ours, theirs)
    return ours, theirs


@pytest.mark.parametrize("task", MUJOCO_TASKS)
def test_unstable_simulation_ends_the_episode(task: str) -> None:
    """A step on which the simulation goes unstable (MuJoCo warns of a bad
    qvel and resets mjData to the model's initial state mid-step) gives
    gymnasium's observation, reward, terminated and info, and ends the
    episode: truncated, where gymnasium carries on from the reset state. The
    next step starts a new episode from our own reset; the process lives."""
    import mujoco

    ours, theirs = _unstable_pair(task)
    a = np.zeros(theirs.action_space.shape, dtype=np.float32)
    out, want = ours.step(a[None]), theirs.step(a)
    assert theirs.unwrapped.data.warning[mujoco.mjtWarning.mjWARN_BADQVEL].number > 0
    assert not want[3], "gymnasium truncated too: this test no longer shows the difference"
    np.testing.assert_allclose(out[0][0], want[0], atol=ATOL, rtol=0)
    assert out[1][0] == np.float32(want[1])
    assert not want[2] and not out[2][0], "terminated: the task's own end, not the instability"
    assert out[3][0], "the unstable step did not end the episode"
    for key, value in want[4].items():
        np.testing.assert_allclose(out[4][key][0], value, atol=ATOL, rtol=0, err_msg=key)
    obs, reward, terminated, truncated, info = ours.step(a[None])
    assert info["elapsed_step"][0] == 0 and reward[0] == 0 and not truncated[0]
    # A fresh episode from our reset: stable steps are not truncated.
    for _ in range(3):
        assert not ours.step(a[None])[3][0]
    ours.close()


@pytest.mark.parametrize("batch_size", [8, 4])
def test_unstable_simulation_ends_only_its_own_episode(batch_size: int) -> None:
    """Among 8 envs on 2 threads (sync: envs 3 and 7 are stepped in pair
    chunks; async: batches of 4) only the envs that went unstable truncate."""
    env = envpool_x.make_gymnasium(
        "Hopper-v5", num_envs=8, batch_size=batch_size, num_threads=2, seed=0
    )
    pool = env._pool
    env.async_reset()
    for _ in range(8 // batch_size):
        env.recv()
    for i in (3, 7):
        state = pool.get_state(i)
        state[6:] = 1e12
        pool.set_state(i, state)
    a = np.zeros((8, 3), np.float32)
    ended = np.zeros(8, bool)
    if batch_size == 8:
        _, _, terminated, ended, _ = env.step(a)  # a full sync step: pair chunks
        assert not terminated.any()
    else:
        env.send(a, np.arange(8))
        for _ in range(2):
            _, _, terminated, truncated, info = env.recv()
            assert not terminated.any()
            ended[info["env_id"]] = truncated
    np.testing.assert_array_equal(np.flatnonzero(ended), [3, 7])
    env.close()


@pytest.mark.parametrize(
    ("task", "xml", "ends"),
    [("HalfCheetah-v5", "half_cheetah.xml", "truncated"), ("Ant-v5", "ant.xml", "terminated")],
)
def test_step_to_a_non_finite_state_ends_the_episode(
    tmp_path, task: str, xml: str, ends: str
) -> None:
    """A step that leaves an infinite qpos without any MuJoCo warning (a model
    whose timestep is 1e300: MuJoCo checks qpos only at the start of the next
    step) ends the episode: truncated, or terminated where the task's own
    health check says so (Ant: a non-finite state is unhealthy), never both."""
    import re

    text = open(os.path.join(mj.gymnasium_assets_dir(), xml)).read()
    text, n = re.subn(r'timestep="[^"]*"', 'timestep="1e300"', text)
    assert n == 1
    model = tmp_path / xml
    model.write_text(text)
    env = envpool_x.make_gymnasium(task, num_envs=1, seed=0, xml_file=str(model), frame_skip=1)
    env.reset()
    a = np.full((1, *env.single_action_space.shape), 0.5, np.float32)
    obs, _, terminated, truncated, _ = env.step(a)
    assert not np.isfinite(obs).all()
    assert (bool(terminated[0]), bool(truncated[0])) == (ends == "terminated", ends == "truncated")
    obs, _, _, _, info = env.step(a)
    assert info["elapsed_step"][0] == 0 and np.isfinite(obs).all()
    env.close()


def test_unstable_simulation_same_step_autoreset() -> None:
    """With same-step autoreset the unstable step returns the new episode's
    first observation, and gymnasium's observation of that step as final_obs."""
    ours, theirs = _unstable_pair("HalfCheetah-v5", autoreset_mode="same_step")
    a = np.zeros(theirs.action_space.shape, dtype=np.float32)
    obs, _, _, truncated, info = ours.step(a[None])
    want = theirs.step(a)
    assert truncated[0] and info["_final_obs"][0]
    np.testing.assert_allclose(info["final_obs"][0], want[0], atol=ATOL, rtol=0)
    assert np.abs(obs[0]).max() < 1.0  # a reset observation, not the blown-up one
    ours.close()


def test_stable_steps_are_never_cut_short() -> None:
    """Long episodes of every task end only as gymnasium's do: the parity
    runs above compare truncated on every step; here, 8 HalfCheetah envs run
    a whole 1000-step episode with full-scale random actions untruncated."""
    env = envpool_x.make_gymnasium("HalfCheetah-v5", num_envs=8, num_threads=2, seed=4)
    env.reset()
    rng = np.random.default_rng(0)
    for t in range(1000):
        _, _, terminated, truncated, _ = env.step(rng.uniform(-1, 1, (8, 6)).astype(np.float32))
        assert not terminated.any()
        assert truncated.all() == (t == 999) and truncated.any() == (t == 999)
    env.close()


# Reset noise of the v4 envs whose gymnasium class has it as a constant.
FIXED_RESET_NOISE = {
    "InvertedPendulum-v4": 0.01,
    "InvertedDoublePendulum-v4": 0.1,
    "HumanoidStandup-v4": 0.01,
}
# Envs that place a target or object in reset: see test_reacher_reset and
# test_pusher_reset below.
GOAL_RESET_FAMILIES = ("Reacher", "Pusher")


@pytest.mark.parametrize("task", [t for t in MUJOCO_TASKS if not t.startswith(GOAL_RESET_FAMILIES)])
def test_reset_noise_within_scale(task: str) -> None:
    """Initial states are the model's initial state plus noise of the
    configured scale (drawn from our own stream, not gymnasium's)."""
    env = envpool_x.make_gymnasium(task, num_envs=16, seed=3)
    env.reset()
    theirs = _gym_make(task).unwrapped
    nq = theirs.model.nq
    scale = getattr(theirs, "_reset_noise_scale", None) or FIXED_RESET_NOISE[task]
    states = np.stack([env._pool.get_state(i) for i in range(16)])
    qpos_dev = states[:, :nq] - theirs.init_qpos
    assert np.all(np.abs(qpos_dev) <= scale + 1e-12)
    assert np.std(qpos_dev) > scale / 10, "no reset noise"
    env.close()


@pytest.mark.parametrize("task", SAMPLED_TASKS)
def test_determinism_across_threads(task: str) -> None:
    """The same seed gives the same observations, rewards and episode ends
    with 1, 2 or 4 threads, sync or async (batch 3 of 6); envs whose episodes
    end within the 60 steps (Hopper, Humanoid, ...) reset on the way."""

    def rollout(num_threads: int, batch_size: int) -> np.ndarray:
        env = envpool_x.make_gymnasium(
            task, num_envs=6, batch_size=batch_size, num_threads=num_threads, seed=11
        )
        rng = np.random.default_rng(0)
        shape = (6, *env.single_action_space.shape)
        # Per step and env: the observation, then reward, terminated, truncated.
        out = np.zeros((60, 6, env.single_observation_space.shape[0] + 3))

        def record(t: int, i: int, obs, rew, term, trunc, row: int) -> None:
            out[t, i] = np.concatenate([obs[row], [rew[row], term[row], trunc[row]]])

        if batch_size == 6:
            env.reset()
            for t in range(60):
                step = env.step(rng.uniform(-1, 1, shape).astype(np.float32))
                for i in range(6):
                    record(t, i, *step[:4], row=i)
        else:
            actions = rng.uniform(-1, 1, (60, *shape)).astype(np.float32)
            count = np.zeros(6, dtype=int)
            env.async_reset()
            while count.min() < 61:
                *step, info = env.recv()
                ids = info["env_id"]
                for row, i in enumerate(ids):
                    if 1 <= count[i] <= 60:
                        record(count[i] - 1, i, *step, row=row)
                    count[i] += 1
                env.send(np.stack([actions[min(count[i] - 1, 59), i] for i in ids]), ids)
        env.close()
        return out

    ref = rollout(1, 6)
    np.testing.assert_array_equal(ref, rollout(2, 6))
    np.testing.assert_array_equal(ref, rollout(4, 6))
    np.testing.assert_array_equal(ref, rollout(2, 3))


@pytest.mark.parametrize("task", SAMPLED_TASKS)
def test_parity_of_sync_steps_shared_between_threads(task: str) -> None:
    """With two threads on a sync step, each thread's last two envs are
    stepped in alternating physics substeps and an idle thread may finish one
    of them (a pair chunk): every row still matches gymnasium's env."""
    n = 8
    ours = envpool_x.make_gymnasium(task, num_envs=n, num_threads=2, seed=0)
    theirs = [_gym_make(task) for _ in range(n)]
    ours.reset()
    for i, env in enumerate(theirs):
        env.reset(seed=i)
        data = env.unwrapped.data
        ours._pool.set_state(i, np.concatenate([data.qpos, data.qvel]))
    space = theirs[0].action_space
    rng = np.random.default_rng(1)
    live = set(range(n))
    for t in range(150):
        actions = rng.uniform(space.low, space.high, (n, *space.shape)).astype(np.float32)
        out = ours.step(actions)
        for i in sorted(live):
            want = theirs[i].step(actions[i])
            _assert_step_equal(task, t, out, want, row=i)
            if want[2] or want[3]:
                live.discard(i)  # ours resets it on the next step
        if not live:
            break
    ours.close()
    for env in theirs:
        env.close()


def _sync_rollout(chunk_size: int, steps: int) -> tuple[np.ndarray, int]:
    """HalfCheetah-v5, 8 envs, 2 threads: (observations, pair_steals)."""
    spec = make_spec("HalfCheetah-v5", num_envs=8, num_threads=2, seed=5)
    pool = create_pool(spec, chunk_size=chunk_size)
    rng = np.random.default_rng(2)
    out = [pool.reset(None, None)[0]]
    for _ in range(steps):
        out.append(pool.step(rng.uniform(-1, 1, (8, 6)).astype(np.float32), None)[0])
    steals = pool.pair_steals
    pool.close()
    return np.stack(out), steals


def test_idle_thread_takes_over_half_stepped_envs_without_changing_results() -> None:
    """A thread out of work finishes an env another thread has half stepped
    (counted in pair_steals); with whole-env chunks (chunk_size=2) no thread
    does. Both give the same trajectories."""
    shared, steals = _sync_rollout(chunk_size=0, steps=300)
    whole, whole_steals = _sync_rollout(chunk_size=2, steps=300)
    np.testing.assert_array_equal(shared, whole)
    assert whole_steals == 0
    assert steals > 0


@pytest.mark.parametrize("task", ["HalfCheetah-v5", "Hopper-v4"])
def test_bad_actions_rejected(task: str) -> None:
    env = envpool_x.make_gymnasium(task, num_envs=2)
    env.reset()
    n = env.single_action_space.shape[0]
    with pytest.raises(ValueError, match=rf"shape \(2, {n + 1}\) but 2 envs need shape \(2, {n}\)"):
        env.step(np.zeros((2, n + 1), dtype=np.float32))
    for bad in (math.nan, math.inf, -math.inf):
        a = np.zeros((2, n), dtype=np.float32)
        a[1, n - 1] = bad
        with pytest.raises(
            ValueError, match=rf"env 1 is not finite \(NaN or inf\) at index {n - 1}"
        ):
            env.step(a)
    env.step(np.zeros((2, n), dtype=np.float32))  # still usable
    env.close()


LIBRARY_CHECK = """
import os, sys
import envpool_x
# envpool_x's extension is loaded; the mujoco package is not imported yet, so
# whatever libmujoco is mapped was found through the extension's own run path.
assert "mujoco" not in sys.modules
print([line.split()[-1] for line in open("/proc/self/maps") if "libmujoco" in line][0])
print(envpool_x._core.mujoco_version)
print(envpool_x.make_spec("HalfCheetah-v5").env_config["xml_file"])
"""


@pytest.mark.skipif(not os.path.exists("/proc/self/maps"), reason="reads Linux's /proc")
def test_library_and_models_come_from_the_installed_wheels(tmp_path) -> None:
    """Without LD_LIBRARY_PATH, the extension maps libmujoco 3.17.0 from the
    installed mujoco wheel, and the model XMLs are gymnasium's own files."""
    import importlib.util
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "LD_LIBRARY_PATH"}
    proc = subprocess.run(
        [sys.executable, "-c", LIBRARY_CHECK],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    library, version, xml = proc.stdout.split()
    wheel = importlib.util.find_spec("mujoco").submodule_search_locations[0]
    assert os.path.samefile(library, os.path.join(wheel, f"libmujoco.so.{mj.MUJOCO_VERSION}"))
    assert version == mj.MUJOCO_VERSION
    assets = os.path.join(os.path.dirname(gym.__file__), "envs", "mujoco", "assets")
    assert os.path.samefile(xml, os.path.join(assets, "half_cheetah.xml"))


def test_missing_model_file_is_a_clear_error() -> None:
    with pytest.raises(FileNotFoundError, match="nope.xml"):
        envpool_x.make_gymnasium("HalfCheetah-v5", xml_file="/nope.xml")


def test_bad_model_file_is_a_clear_error(tmp_path) -> None:
    bad = tmp_path / "bad.xml"
    bad.write_text("<mujoco><worldbody><body></mujoco>")
    with pytest.raises(ValueError, match="could not load"):
        envpool_x.make_gymnasium("HalfCheetah-v5", xml_file=str(bad))


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


# ---- Reacher and Pusher place a target / object in reset ----------------------


def _initial_states(task: str, n: int, seed: int) -> np.ndarray:
    env = envpool_x.make_gymnasium(task, num_envs=n, seed=seed)
    env.reset()
    states = np.stack([env._pool.get_state(i) for i in range(n)])
    env.close()
    return states


def _gymnasium_initial_states(task: str, n: int) -> np.ndarray:
    env = _gym_make(task).unwrapped
    states = []
    for i in range(n):
        env.reset(seed=i)
        states.append(np.concatenate([env.data.qpos, env.data.qvel]))
    env.close()
    return np.stack(states)


@pytest.mark.parametrize("task", ["Reacher-v4", "Reacher-v5"])
def test_reacher_reset(task: str) -> None:
    """Arm angles init + U(-0.1, 0.1); the target uniform in the disk of radius
    0.2; arm qvel U(-0.005, 0.005), the target's 0: the same distribution as
    gymnasium's (compared on samples of both)."""
    n = 400
    ours = _initial_states(task, n, seed=2)
    theirs = _gymnasium_initial_states(task, n)
    init = _gym_make(task).unwrapped.init_qpos
    for states in (ours, theirs):
        arm, goal, qvel = states[:, :2] - init[:2], states[:, 2:4], states[:, 4:]
        assert np.all(np.abs(arm) <= 0.1) and np.std(arm) > 0.04
        radius = np.linalg.norm(goal, axis=1)
        assert np.all(radius < 0.2)
        assert np.all(np.abs(qvel[:, :2]) <= 0.005) and np.all(qvel[:, 2:] == 0)
    # Uniform in the disk: E|goal| = 2/3 * 0.2, sd about 0.047, so the two
    # sample means (400 each) agree to well within 0.015.
    for states in (ours, theirs):
        assert abs(np.linalg.norm(states[:, 2:4], axis=1).mean() - 0.4 / 3) < 0.01
    assert abs(ours[:, 2:4].mean() - theirs[:, 2:4].mean()) < 0.015


@pytest.mark.parametrize("task", ["Pusher-v4", "Pusher-v5"])
def test_pusher_reset(task: str) -> None:
    """The arm at its initial qpos; the object uniform in [-0.3, 0] x
    [-0.2, 0.2] outside the 0.17 disk around the goal at (0, 0); arm qvel
    U(-0.005, 0.005), the object's and goal's 0: as gymnasium's."""
    n = 400
    ours = _initial_states(task, n, seed=2)
    theirs = _gymnasium_initial_states(task, n)
    nq = 11
    for states in (ours, theirs):
        qpos, qvel = states[:, :nq], states[:, nq:]
        assert np.all(qpos[:, :7] == 0.0)
        obj = qpos[:, 7:9]
        assert np.all((obj[:, 0] >= -0.3) & (obj[:, 0] <= 0.0))
        assert np.all(np.abs(obj[:, 1]) <= 0.2)
        assert np.all(np.linalg.norm(obj, axis=1) > 0.17)
        assert np.all(qpos[:, 9:] == 0.0)
        assert np.all(np.abs(qvel[:, :7]) <= 0.005) and np.std(qvel[:, :7]) > 0.002
        assert np.all(qvel[:, 7:] == 0.0)
    np.testing.assert_allclose(ours[:, 7:9].mean(0), theirs[:, 7:9].mean(0), atol=0.02)


# ---- reset info, v4 options and Ant's main_body ------------------------------


@pytest.mark.parametrize("task", MUJOCO_TASKS)
def test_reset_info_matches_gymnasium(task: str) -> None:
    """Our reset's info carries gymnasium's reset-info keys, with the values
    gymnasium computes from the same (our) initial state."""
    env = envpool_x.make_gymnasium(task, num_envs=3, seed=7)
    _, info = env.reset()
    theirs = _gym_make(task).unwrapped
    theirs.reset(seed=0)
    for i in range(3):
        state = env._pool.get_state(i)
        nq = theirs.model.nq
        theirs.set_state(state[:nq], state[nq:])
        for key, value in theirs._get_reset_info().items():
            assert key in info, f"{task}: reset info lacks gymnasium's key {key!r}"
            np.testing.assert_allclose(info[key][i], value, atol=ATOL, rtol=0, err_msg=key)
    env.close()


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


PYTHON_WARNING_CALLBACK = """
import ctypes, mujoco, numpy as np
import envpool_x

warnings = []

# What dm_control does on import: MuJoCo's process-wide warning handler becomes
# a Python function (a ctypes callback, which needs the GIL to run).
@ctypes.CFUNCTYPE(None, ctypes.c_char_p)
def on_warning(message):
    warnings.append(message)

mujoco.set_mju_user_warning(on_warning)
# half_cheetah.xml warns while it compiles (a deprecated attribute), here on
# the pool's builder threads; closing and garbage collection join the workers.
for _ in range(3):
    env = envpool_x.make_gymnasium("HalfCheetah-v5", num_envs=4, num_threads=2)
    env.reset()
    env.step(np.zeros((4, 6), np.float32))
    del env
assert warnings, "the model did not warn: this check no longer tests anything"
print("NO DEADLOCK", len(warnings))
"""


def test_python_warning_callback_does_not_deadlock(tmp_path) -> None:
    """A library that routes MuJoCo's warnings to Python (dm_control does, on
    import) must not deadlock a pool whose threads make MuJoCo warn."""
    import subprocess
    import sys

    proc = subprocess.run(
        [sys.executable, "-c", PYTHON_WARNING_CALLBACK],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "NO DEADLOCK" in proc.stdout


def test_async_recv_caller_steps_expensive_envs_while_it_waits() -> None:
    """An async recv() whose batch is not ready runs queued envs on the calling
    thread instead of sleeping (a sleeping caller costs a context switch per
    batch, which showed as ~8% of async throughput with a worker per core)."""
    env = envpool_x.make_gymnasium("HalfCheetah-v5", num_envs=16, batch_size=8, num_threads=1)
    pool = env._pool
    rng = np.random.default_rng(0)
    env.async_reset()
    for _ in range(20):
        info = env.recv()[-1]
        env.send(rng.uniform(-1, 1, (8, 6)).astype(np.float32), info["env_id"])
    # One worker for 16 envs: at every recv most of them are still queued.
    assert pool.caller_steps > 0
    env.close()


def test_sync_step_with_a_worker_per_cpu_keeps_the_last_worker_out() -> None:
    """Expensive envs too: with a worker on every CPU a sync step runs on the
    caller and all workers but the last (see the engine test of the same)."""
    import os

    from test_engine import _sync_steps_spread

    cpus = len(os.sched_getaffinity(0))
    caller, workers = _sync_steps_spread("HalfCheetah-v5", 8, cpus)
    assert workers[-1] == 0
    assert caller > 0
    assert caller + sum(workers) == 8 * 11


def test_refused_send_leaves_in_flight_actions_alone() -> None:
    """A send to envs that are in flight is refused before it writes any of
    their actions: a worker reads an env's action when it gets to it, so an
    early write would change a step already sent (env 63 runs last here, ~1 ms
    after the send)."""
    rng = np.random.default_rng(0)
    first = rng.uniform(-1, 1, (64, 3)).astype(np.float32)
    obs = []
    for refuse in (False, True):
        env = envpool_x.make_gymnasium("Hopper-v5", num_envs=64, batch_size=64, num_threads=1)
        env.reset(seed=1)
        env.send(first)
        if refuse:
            with pytest.raises(RuntimeError, match="in flight"):
                env.send(np.full((1, 3), 0.9, np.float32), np.array([63]))
        obs.append(env.recv()[0])
        env.close()
    np.testing.assert_array_equal(obs[0], obs[1])
