"""Shared by the MuJoCo tests (tests/families/test_mujoco_*.py): the task lists,
gymnasium's env as the oracle, and the side-by-side parity run with its
tolerances (explained in test_mujoco_parity.py's docstring)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import envpool_x
from conftest import ci_sample

gym = pytest.importorskip("gymnasium")


ATOL = 1e-6
_ALL_TASKS = envpool_x.registration.envs_by_family().get("mujoco", [])
#: EnvPool's -v2 / -v3 ids (gymnasium has no env for them: their oracles are
#: EnvPool and gymnasium's v4, tests/families/test_mujoco_legacy_ids.py).
LEGACY_TASKS = [t for t in _ALL_TASKS if t.endswith(("-v2", "-v3"))]
#: gymnasium's -v4 and -v5 ids, whose oracle is gymnasium's own env.
MUJOCO_TASKS = [t for t in _ALL_TASKS if t not in LEGACY_TASKS]
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
