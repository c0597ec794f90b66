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

import pytest
from mujoco_helpers import MUJOCO_TASKS, SAMPLED_TASKS, _gym_make, _run_parity

import envpool_x
from envpool_x.families import mujoco as mj

pytest.importorskip("mujoco")
pytest.importorskip("gymnasium")
if not mj.has_mujoco():
    pytest.skip("envpool_x was built without MuJoCo", allow_module_level=True)


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
