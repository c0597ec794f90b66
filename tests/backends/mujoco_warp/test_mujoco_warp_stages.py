"""MuJoCo Warp pools (device="cpu-reference"): what each call returns against
our CPU engine (info and final_info keys, the v4 tasks, a diverged
simulation), and the optional stages running only when some env needs them."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("mujoco_warp", reason="the mujoco-gpu extra (mujoco-warp) is not installed")
pytest.importorskip("gymnasium")

import envpool_x  # noqa: E402
from envpool_x.backends.mujoco_warp import stages as stages_module  # noqa: E402
from envpool_x.families.mujoco import MUJOCO_WARP_POOLS  # noqa: E402
from envpool_x.registration import list_all_envs, lookup  # noqa: E402

DEV = "cpu-reference"
pytestmark = pytest.mark.timeout(900)


def _layout(tree) -> dict:
    """Keys, shapes and dtypes of an info dict (final_info nested)."""
    out = {}
    for k, v in tree.items():
        if isinstance(v, dict):
            out[k] = _layout(v)
        else:
            a = np.asarray(v)
            out[k] = (a.shape, a.dtype.str)
    return out


#: The task ids MuJoCo Warp runs (the MuJoCo family declares their pools).
SUPPORTED_IDS = [t for t in list_all_envs() if lookup(t).pool_name in MUJOCO_WARP_POOLS]


@pytest.mark.parametrize("task", SUPPORTED_IDS)
def test_info_matches_the_cpu_engine(task):
    # same_step mode, time limit 2, env 0 stepped alone first: the second full
    # step ends env 0's episode only, so final_info has a row that ends and
    # rows that do not. Layout (keys, shapes, dtypes) of reset info, step info
    # and final_info, and final_info's env_id / elapsed_step, as the CPU engine.
    seen = {}
    for dev in ("cpu", DEV):
        env = envpool_x.make_gymnasium(
            task, num_envs=3, device=dev, autoreset_mode="same_step", max_episode_steps=2
        )
        _, reset_info = env.reset(seed=0)
        nu = env.single_action_space.shape[0]
        env.step(np.zeros((1, nu), np.float32), np.array([0]))
        _, _, _, trunc, info = env.step(np.zeros((3, nu), np.float32))
        assert np.asarray(trunc).tolist() == [True, False, False]
        final = info["final_info"]
        seen[dev] = (
            _layout(reset_info),
            _layout(info),
            np.asarray(final["env_id"]).tolist(),
            np.asarray(final["elapsed_step"]).tolist(),
            np.asarray(final["_elapsed_step"]).tolist(),
        )
        if "tendon_length" in final:  # Humanoid: the ending row's vectors, zeros elsewhere
            rows = np.asarray(final["tendon_length"])
            assert np.any(rows[0] != 0) and not np.any(rows[1:])
        env.close()
    assert seen[DEV] == seen["cpu"]


def test_other_mujoco_tasks_name_the_gpu_ids():
    for task in ("Swimmer-v5", "HumanoidStandup-v5", "Reacher-v4"):
        with pytest.raises(ValueError, match="Ant-v5, HalfCheetah-v5.*Humanoid-v4 only"):
            envpool_x.make_gymnasium(task, num_envs=2, device=DEV)


@pytest.mark.parametrize("mode", ["next_step", "same_step"])
def test_a_diverged_env_ends_as_on_the_cpu(mode):
    # Env 1's velocities set beyond MuJoCo's limit (1e10): MuJoCo warns and
    # resets its data in the step, the CPU env ends the episode (truncated);
    # the MuJoCo Warp pool checks after the step and does the same. The other
    # envs step as usual; the diverged one's row is finite; it then resets.
    flags = {}
    for dev in ("cpu", DEV):
        env = envpool_x.make_gymnasium(
            "HalfCheetah-v5", num_envs=3, device=dev, autoreset_mode=mode
        )
        env.reset(seed=0)
        state = env._pool.get_state(1)
        state[9:] = 1e11
        env._pool.set_state(1, state)
        rows = []
        for _ in range(2):
            obs, rew, term, trunc, info = env.step(np.full((3, 6), 0.1, np.float32))
            assert np.isfinite(obs).all() and np.isfinite(rew).all()
            rows.append(
                (
                    np.asarray(term).tolist(),
                    np.asarray(trunc).tolist(),
                    info["elapsed_step"].tolist(),
                )
            )
        assert np.isfinite(env._pool.get_state(1)).all()
        flags[dev] = rows
        if dev == DEV:
            assert rew[1] == 0 or mode == "same_step"
        env.close()
    assert flags[DEV] == flags["cpu"], flags
    assert flags["cpu"][0][1] == [False, True, False]


def test_a_diverged_env_row_is_the_initial_observation():
    env = envpool_x.make_gymnasium("Hopper-v5", num_envs=2, device=DEV)
    env.reset(seed=0)
    state = env._pool.get_state(0)
    state[6:] = np.nan
    env._pool.set_state(0, state)
    obs, rew, term, trunc, _ = env.step(np.zeros((2, 3), np.float32))
    assert trunc.tolist() == [True, False] and not term.any() and rew[0] == 0
    np.testing.assert_array_equal(obs[0], env._pool.initial_obs.numpy()[0])
    model_qpos0 = env._pool.physics.mj_model.qpos0
    np.testing.assert_allclose(obs[0][:5], model_qpos0[1:], atol=1e-6)  # Hopper: qpos[1:]
    env.close()


def test_stages_run_only_when_some_env_needs_them(monkeypatch):
    # The save / restore copies and the reset stage are gated by device flags
    # (a conditional graph node on a GPU; read directly on warp's CPU device):
    # count how often their bodies run.
    calls = {"save": 0, "reset": 0}
    save, reset = stages_module.Stages._save, stages_module.Stages._reset_flagged

    def counted(name, fn):
        def run(self):
            calls[name] += 1
            fn(self)

        return run

    monkeypatch.setattr(stages_module.Stages, "_save", counted("save", save))
    monkeypatch.setattr(stages_module.Stages, "_reset_flagged", counted("reset", reset))
    env = envpool_x.make_gymnasium("HalfCheetah-v5", num_envs=3, device=DEV, max_episode_steps=2)
    env.reset(seed=0)
    assert calls == {"save": 0, "reset": 1}
    act = np.zeros((3, 6), np.float32)
    env.step(act)  # every env stepped, none ends: neither stage
    assert calls == {"save": 0, "reset": 1}
    env.step(act[:1], np.array([0]))  # envs 1 and 2 are put back; env 0's episode ends
    assert calls == {"save": 1, "reset": 1}
    env.step(act)  # next_step: env 0 resets; envs 1 and 2 end
    assert calls == {"save": 1, "reset": 2}
    env.step(act)  # envs 1 and 2 reset
    env.step(act)  # none
    assert calls == {"save": 1, "reset": 3}
    env.close()


@pytest.mark.parametrize("task", ["Hopper-v4", "Hopper-v5"])
def test_unhealthy_step_reward_as_the_cpu_engine(task):
    # v4 pays the healthy reward whenever terminate_when_unhealthy is set,
    # v5 only while healthy: from a falling state (torso tilted 0.3 rad,
    # beyond the healthy range's 0.2) one step's reward and termination, both
    # engines (the healthy reward is 1: a wrong rule is off by 1).
    seen = {}
    for dev in ("cpu", DEV):
        env = envpool_x.make_gymnasium(task, num_envs=1, device=dev)
        env.reset(seed=0)
        state = env._pool.get_state(0)
        state[2] = 0.3
        env._pool.set_state(0, state)
        _, rew, term, _, _ = env.step(np.zeros((1, 3), np.float32))
        seen[dev] = (float(rew[0]), bool(term[0]))
        env.close()
    assert seen[DEV][1] and seen["cpu"][1]
    np.testing.assert_allclose(seen[DEV][0], seen["cpu"][0], atol=1e-3)


def test_reset_clears_the_reused_final_blocks():
    # copy_results=False reuses one block: a reset after a step that ended
    # episodes must not show that step's final_obs / final_info again.
    env = envpool_x.make_gymnasium(
        "Humanoid-v5",
        num_envs=2,
        device=DEV,
        autoreset_mode="same_step",
        max_episode_steps=1,
        copy_results=False,
    )
    env.reset(seed=0)
    _, _, _, _, info = env.step(np.zeros((2, 17), np.float32))
    assert np.asarray(info["_final_obs"]).all()
    assert np.any(np.asarray(info["final_info"]["tendon_length"]) != 0)
    _, info = env.reset()
    assert not np.asarray(info["_final_obs"]).any() and not np.any(info["final_obs"])
    for key, value in info["final_info"].items():
        assert not np.any(np.asarray(value)), key
    env.close()
