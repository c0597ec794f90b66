"""Multi-agent pools (docs/multi_agent.md): the agent axis in spaces and
arrays, async send / recv by env id, every autoreset mode, dm_env, EnvPool's
max_num_players, and bad actions named by env and agent."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from gymnasium import spaces

import envpool_x
from conftest import run_python

GRID = dict(num_taggers=3, grid_length=4, episode_length=12)
CONT = dict(
    num_taggers=2,
    num_runners=3,
    grid_length=3.0,
    episode_length=15,
    tagging_distance=0.2,
    num_other_agents_observed=3,
)


def random_actions(env, rng: np.random.Generator, n: int) -> np.ndarray:
    return rng.integers(0, env.action_space.nvec, size=(n, *env.action_space.shape))


def test_spaces_carry_the_agent_axis() -> None:
    grid = envpool_x.make_gymnasium("TagGridworld-v0", num_envs=2, **GRID)
    assert grid.num_agents == 4
    assert grid.single_observation_space == spaces.Box(0.0, 1.0, (4, 17), np.float32)
    assert grid.single_action_space == spaces.MultiDiscrete([5, 5, 5, 5])
    assert grid.agent_observation_space == spaces.Box(0.0, 1.0, (17,), np.float32)
    assert grid.agent_action_space == spaces.Discrete(5)
    cont = envpool_x.make_gymnasium("TagContinuous-v0", num_envs=2, **CONT)
    assert cont.single_action_space.shape == (5, 2)
    assert cont.agent_action_space == spaces.MultiDiscrete([21, 21])
    assert cont.single_observation_space.shape == (5, 7 * 3 + 1)
    obs, info = cont.reset()
    assert obs.shape == (2, 5, 22) and info["active"].shape == (2, 5)
    obs, rew, term, trunc, info = cont.step(random_actions(cont, np.random.default_rng(0), 2))
    assert rew.shape == (2, 5) and term.shape == (2,) and trunc.shape == (2,)
    assert cont.single_observation_space.contains(obs[0])


def test_single_agent_tasks_are_unchanged() -> None:
    env = envpool_x.make_gymnasium("CartPole-v1", num_envs=3)
    assert env.num_agents == 1 and env.agent_action_space == env.single_action_space
    env.reset()
    _, rew, *_ = env.step(np.zeros(3, np.int32))
    assert rew.shape == (3,)
    with pytest.raises(ValueError, match="max_num_players must be 1"):
        envpool_x.make_gymnasium("CartPole-v1", max_num_players=2)


def test_max_num_players_is_the_agent_count() -> None:
    env = envpool_x.make_gymnasium("TagGridworld-v0", num_envs=1, max_num_players=4, **GRID)
    assert env.spec.config.max_num_players == 4
    assert envpool_x.make_spec("TagContinuous-v0").config.max_num_players == 110
    with pytest.raises(ValueError, match="has 4 agents per env"):
        envpool_x.make_gymnasium("TagGridworld-v0", max_num_players=7, **GRID)


def test_async_send_recv_matches_sync_steps() -> None:
    rng = np.random.default_rng(1)
    sync = envpool_x.make_gymnasium("TagContinuous-v0", num_envs=4, seed=5, **CONT)
    asyn = envpool_x.make_gymnasium(
        "TagContinuous-v0", num_envs=4, batch_size=2, seed=5, num_threads=2, **CONT
    )
    obs_sync, _ = sync.reset()
    asyn.async_reset()
    latest = {}
    for _ in range(2):
        obs, _, _, _, info = asyn.recv()
        for k, e in enumerate(info["env_id"]):
            latest[int(e)] = obs[k]
    for e in range(4):
        np.testing.assert_array_equal(latest[e], obs_sync[e])
    for _ in range(20):
        act = random_actions(sync, rng, 4)
        expect = sync.step(act)
        got: dict[int, tuple] = {}
        ids = np.arange(4)
        asyn.send(act[:2], ids[:2])
        asyn.send(act[2:], ids[2:])
        for _ in range(2):
            obs, rew, term, trunc, info = asyn.recv()
            for k, e in enumerate(info["env_id"]):
                got[int(e)] = (obs[k], rew[k], term[k], trunc[k], info["active"][k])
        for e in range(4):
            np.testing.assert_array_equal(got[e][0], expect[0][e])
            np.testing.assert_array_equal(got[e][1], expect[1][e])
            assert got[e][2] == expect[2][e] and got[e][3] == expect[3][e]
            np.testing.assert_array_equal(got[e][4], expect[4]["active"][e])


def test_same_step_final_obs_has_the_agent_axis() -> None:
    rng = np.random.default_rng(2)
    nxt = envpool_x.make_gymnasium("TagGridworld-v0", num_envs=3, seed=1, **GRID)
    same = envpool_x.make_gymnasium(
        "TagGridworld-v0", num_envs=3, seed=1, autoreset_mode="same_step", **GRID
    )
    first, _ = nxt.reset()
    same.reset()
    ended = 0
    in_step = True  # the two agree until the first episode ends
    for _ in range(40):
        act = random_actions(nxt, rng, 3)
        o1, r1, te1, tr1, _ = nxt.step(act)
        o2, r2, te2, tr2, info = same.step(act)
        done = te2 | tr2
        assert info["final_obs"].shape == (3, 4, 17)
        np.testing.assert_array_equal(done, info["_final_obs"])
        np.testing.assert_array_equal(info["final_obs"][~done], 0.0)
        for e in np.flatnonzero(done):
            np.testing.assert_array_equal(o2[e], first[e])  # the grid resets to its start
            assert not np.array_equal(info["final_obs"][e], first[e])
            assert (r2[e] != 0).all()  # the last step's rewards survive the reset
            ended += 1
        if in_step:
            np.testing.assert_array_equal(r1, r2)
            np.testing.assert_array_equal(info["final_obs"][done], o1[done])
            in_step = not done.any()
    assert ended > 0


def test_disabled_autoreset_resets_by_mask() -> None:
    env = envpool_x.make_gymnasium(
        "TagGridworld-v0", num_envs=2, autoreset_mode="disabled", **dict(GRID, episode_length=3)
    )
    first, _ = env.reset()
    for _ in range(3):
        _, _, term, trunc, _ = env.step(np.zeros((2, 4), np.int32))
    assert (term | trunc).all()
    with pytest.raises(RuntimeError, match="env 0 finished its episode"):
        env.step(np.zeros((2, 4), np.int32))
    obs, _ = env.reset(options={"reset_mask": np.array([True, True])})
    np.testing.assert_array_equal(obs, first)


def test_dm_env_carries_the_agent_axis() -> None:
    env = envpool_x.make_dm("TagContinuous-v0", num_envs=2, **CONT)
    assert env.action_spec().shape == (5, 2) and env.reward_spec().shape == (5,)
    ts = env.reset()
    assert ts.observation.obs.shape == (2, 5, 22) and ts.observation.active.shape == (2, 5)
    ts = env.step(np.zeros((2, 5, 2), np.int32))
    assert ts.reward.shape == (2, 5) and ts.discount.shape == (2,)


def test_inactive_runners_are_zero_and_their_actions_ignored() -> None:
    config = dict(CONT, num_runners=6, grid_length=2.0, episode_length=40, tagging_distance=0.3)
    env_a, env_b = (envpool_x.make_gymnasium("TagContinuous-v0", seed=4, **config) for _ in "ab")
    env_a.reset()
    env_b.reset()
    rng = np.random.default_rng(3)
    active = np.ones(8, bool)
    seen_inactive = 0
    for _ in range(40):
        act = random_actions(env_a, rng, 1)
        other = act.copy()  # other actions for the agents out of the game
        other[0, ~active] = rng.integers(0, 21, size=(int((~active).sum()), 2))
        out_a, out_b = env_a.step(act), env_b.step(other)
        for x, y in zip(out_a[:4], out_b[:4], strict=True):
            np.testing.assert_array_equal(x, y)
        # Out before this step: zero observation rows (partial) and rewards.
        np.testing.assert_array_equal(out_a[0][0, ~active], 0.0)
        np.testing.assert_array_equal(out_a[1][0, ~active], 0.0)
        seen_inactive += int((~active).sum())
        active = out_a[4]["active"][0]
        if out_a[2][0] or out_a[3][0]:
            break
    assert seen_inactive > 0


def test_bad_actions_name_env_and_agent() -> None:
    env = envpool_x.make_gymnasium("TagContinuous-v0", num_envs=3, **CONT)
    env.reset()
    with pytest.raises(ValueError, match=r"shape \(3, 4, 2\) but 3 envs with 5 agents each"):
        env.step(np.zeros((3, 4, 2), np.int32))
    with pytest.raises(ValueError, match=r"shape \(3, 5\) but 3 envs with 5 agents each"):
        env.step(np.zeros((3, 5), np.int32))
    bad = np.zeros((3, 5, 2), np.int64)
    bad[2, 3, 1] = 21
    with pytest.raises(ValueError, match=r"action 21 for env 2, agent 3 \(element 1\) is out"):
        env.step(bad)
    bad = np.zeros((3, 5, 2), np.int32)
    bad[1, 4, 0] = -1
    with pytest.raises(ValueError, match=r"action -1 for env 1, agent 4 \(element 0\)"):
        env.step(bad)
    with pytest.raises(TypeError, match="discrete actions must be integers"):
        env.step(np.full((3, 5, 2), np.nan))
    grid = envpool_x.make_gymnasium("TagGridworld-v0", num_envs=2, **GRID)
    grid.reset()
    with pytest.raises(ValueError, match=r"action 5 for env 1, agent 2 is out of range \[0, 5\)"):
        grid.step(np.array([[0, 0, 0, 0], [0, 0, 5, 0]], np.int32))
    with pytest.raises(ValueError, match=r"action 9 for env 0, agent 0"):
        grid.step(np.array([[9, 0, 0, 0], [0, 0, 0, 0]], np.int64))
    grid.step(np.zeros((2, 4), np.int32))  # the pool stays usable


def test_config_errors_are_clear() -> None:
    with pytest.raises(ValueError, match="num_other_agents_observed"):
        envpool_x.make_gymnasium("TagContinuous-v0", **dict(CONT, num_other_agents_observed=9))
    with pytest.raises(ValueError, match="starting_location_x must list one"):
        envpool_x.make_gymnasium("TagGridworld-v0", starting_location_x=[1, 2], **GRID)


def test_small_team_observes_every_agent_by_default() -> None:
    """The default of 10 neighbours shrinks to a team of 5 (WarpDrive accepts
    such a team); a value given that the team cannot fill is still refused."""
    env = envpool_x.make_gymnasium("TagContinuous-v0", num_envs=2, num_taggers=2, num_runners=3)
    assert env.spec.config.num_other_agents_observed == 5
    obs, _ = env.reset(seed=0)
    assert obs.shape == (2, 5, 7 * 5 + 1)
    env.close()
    with pytest.raises(ValueError, match="num_other_agents_observed=6 is more than the 5"):
        envpool_x.make_spec(
            "TagContinuous-v0", num_taggers=2, num_runners=3, num_other_agents_observed=6
        )


def test_shared_policy_example_learns_to_tag(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    script = Path(__file__).resolve().parents[2] / "examples" / "tag_ppo.py"
    out = run_python([str(script), "--iterations", "15"], cwd=tmp_path, timeout=300).stdout
    rates = [float(r) for r in re.findall(r"tag rate ([0-9.]+)", out)]
    assert len(rates) == 15 and np.mean(rates[-3:]) > np.mean(rates[:3]) + 0.3, out


# A user env with a box action per agent: the engine's agent axis beyond the Tag envs.
MULTI_BOX = """
#pragma once
#include <vector>
#include "core/env.h"
class MultiPush {
 public:
  static constexpr const char* kName = "MultiPush";
  static constexpr bool kCheap = true;
  static envpool_x::Config DefaultConfig() { return envpool_x::Config{{"agents", int64_t{3}}}; }
  static envpool_x::EnvSpec Spec(const envpool_x::Config& c) {
    const int64_t n = c.Int("agents");
    envpool_x::EnvSpec spec;
    spec.obs.push_back(envpool_x::ArraySpec{"obs", envpool_x::DType::kFloat32, {n, 2}, {}, {}});
    spec.action.discrete = false;
    spec.action.box = envpool_x::ArraySpec{"action", envpool_x::DType::kFloat32, {2}, {-1}, {1}};
    spec.action.num_agents = n;
    return spec;
  }
  MultiPush(const envpool_x::Config& c, const envpool_x::EnvSpec& spec)
      : n_(c.Int("agents")), obs_(envpool_x::ObsField<float>(spec, "obs")) {}
  void Reset(envpool_x::Rng&, const envpool_x::StepOutput& out) {
    for (int64_t k = 0; k < 2 * n_; ++k) out[obs_][k] = 0.0f;
  }
  void Step(const void* action, envpool_x::Rng&, const envpool_x::StepOutput& out) {
    const float* a = envpool_x::BoxAction(action);
    for (int64_t i = 0; i < n_; ++i) {
      out[obs_][2 * i] = a[2 * i];
      out[obs_][2 * i + 1] = a[2 * i + 1];
      out.reward[i] = a[2 * i] + 10.0f * static_cast<float>(i);
    }
    *out.terminated = false;
  }
  std::vector<double> GetState() const { return {}; }
  void SetState(const std::vector<double>&) {}
 private:
  int64_t n_;
  envpool_x::OutputField<float> obs_;
};
"""


def test_box_actions_per_agent(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ENVPOOL_X_CACHE_DIR", str(tmp_path / "cache"))
    header = tmp_path / "multi_push.h"
    header.write_text(MULTI_BOX)
    task = f"MultiPush{np.random.default_rng().integers(1 << 30)}-v0"
    envpool_x.register_cpp_env(task, header, "MultiPush", max_episode_steps=5)
    env = envpool_x.make_gymnasium(task, num_envs=2, autoreset_mode="same_step")
    assert env.single_action_space.shape == (3, 2) and env.agent_action_space.shape == (2,)
    env.reset()
    act = np.arange(12, dtype=np.float32).reshape(2, 3, 2) / 12
    obs, rew, term, trunc, info = env.step(act)
    np.testing.assert_array_equal(obs, act)
    np.testing.assert_array_equal(rew, act[:, :, 0] + np.float32([0, 10, 20]))
    for _ in range(4):
        obs, rew, term, trunc, info = env.step(act)
    assert trunc.all() and info["final_obs"].shape == (2, 3, 2)
    # The rewards survive the reset.
    np.testing.assert_array_equal(rew, act[:, :, 0] + np.float32([0, 10, 20]))
    bad = act.copy()
    bad[1, 2, 1] = np.nan
    with pytest.raises(ValueError, match=r"action for env 1, agent 2 is not finite .* index 1"):
        env.step(bad)
    with pytest.raises(ValueError, match=r"need shape \(2, 3, 2\)"):
        env.step(np.zeros((2, 6), np.float32))


def test_xla_step_carries_the_agent_axis() -> None:
    jax = pytest.importorskip("jax")
    for task, config, shape in [
        ("TagGridworld-v0", GRID, (2, 4)),
        ("TagContinuous-v0", CONT, (2, 5, 2)),
    ]:
        env = envpool_x.make_gymnasium(task, num_envs=2, seed=1, **config)
        ref = envpool_x.make_gymnasium(task, num_envs=2, seed=1, **config)
        handle, recv, _, step = env.xla()
        env.async_reset()
        ref.reset()
        handle, _ = recv(handle)
        act = np.ones(shape, np.int32)
        handle, (obs, rew, *_) = jax.jit(step)(handle, jax.numpy.asarray(act), np.arange(2))
        expect = ref.step(act)
        np.testing.assert_array_equal(np.asarray(obs), expect[0])
        np.testing.assert_array_equal(np.asarray(rew), expect[1])
        with pytest.raises(ValueError, match="agents each need shape"):
            step(handle, jax.numpy.zeros((2, 3), np.int32), np.arange(2))


def test_single_env_views_keep_the_agent_axis() -> None:
    gym_env = envpool_x.make_gymnasium("TagGridworld-v0", num_envs=2, **GRID).single_env(1)
    obs, info = gym_env.reset()
    assert obs.shape == (4, 17) and info["active"].shape == (4,)
    obs, reward, terminated, truncated, info = gym_env.step(np.zeros(4, np.int32))
    assert reward.shape == (4,) and isinstance(terminated, bool)
    dm = envpool_x.make_dm("TagGridworld-v0", num_envs=2, **GRID).single_env(0)
    dm.reset()
    step = dm.step(np.zeros(4, np.int32))
    assert step.reward.shape == (4,) and step.reward.dtype == np.float32


def test_starting_locations_and_directions() -> None:
    grid = envpool_x.make_gymnasium(
        "TagGridworld-v0",
        use_full_observation=False,
        starting_location_x=[1, 2, 3, 4],
        starting_location_y=[0, 1, 2, 3],
        **GRID,
    )
    obs, _ = grid.reset()
    np.testing.assert_allclose(obs[0, :, :2], np.array([[1, 0], [2, 1], [3, 2], [4, 3]]) / 4)
    assert grid.get_state(0).tolist() == [0, 1, 2, 3, 4, 0, 1, 2, 3]
    start = dict(
        starting_location_x=[0.5, 1.0, 1.5, 2.0, 2.5],
        starting_location_y=[0.1, 0.2, 0.3, 0.4, 0.5],
        starting_directions=[0.0, 1.0, 2.0, 3.0, 4.0],
    )
    cont = envpool_x.make_gymnasium("TagContinuous-v0", num_envs=2, **CONT, **start)
    cont.reset()
    for e in range(2):  # every env, every episode starts there
        state = cont.get_state(e)
        np.testing.assert_array_equal(state[1:6], np.float32(start["starting_location_x"]))
        np.testing.assert_array_equal(state[16:21], np.float32(start["starting_directions"]))
