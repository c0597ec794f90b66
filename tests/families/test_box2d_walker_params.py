"""BipedalWalker's per-env parameters (docs/params.md).

Two checks: a pool whose parameters are set by ``set_params`` steps bit for bit
like a pool made with the same values as config, over whole episodes (autoreset
included); and the constants mean what gymnasium's do: ``_core.BipedalWalkerSim``
built with non-default values replays gymnasium's env with its module constants,
fixture definitions and world gravity patched to the same values.
"""

from __future__ import annotations

import numpy as np
import pytest

import envpool_x
from envpool_x import _core
from envpool_x.families.box2d import BUILD_HINT, has_box2d

pytestmark = pytest.mark.skipif(not has_box2d(), reason=BUILD_HINT)

VALUES = {
    "gravity": -8.5,
    "motors_torque": 95.0,
    "speed_hip": 4.5,
    "speed_knee": 5.25,
    "terrain_friction": 1.75,
    "leg_friction": 0.35,
    "hull_density": 4.0,
    "leg_density": 1.3,
}


def _trajectory(env: envpool_x.VectorEnv, steps: int, seed: int = 0) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    rows = [env.reset()[0].copy()]
    for _ in range(steps):
        action = np.clip(rng.normal(0.2, 0.6, (env.num_envs, 4)), -1, 1).astype(np.float32)
        obs, rew, term, trunc, _ = env.step(action)
        rows.append(np.concatenate([obs, rew[:, None], term[:, None], trunc[:, None]], axis=1))
    return rows


@pytest.mark.parametrize("task", ["BipedalWalker-v3", "BipedalWalkerHardcore-v3"])
def test_set_params_equals_config(task: str) -> None:
    """Every parameter set by set_params: the trajectory of a pool made with
    the values, bit for bit, over episodes that end by a fall or the limit."""
    kw = {"num_envs": 3, "seed": 7, "max_episode_steps": 70}
    made = envpool_x.make_gymnasium(task, **kw, **VALUES)
    changed = envpool_x.make_gymnasium(task, **kw)
    default = envpool_x.make_gymnasium(task, **kw)
    changed.set_params(**VALUES)
    ours, ref = _trajectory(changed, 160), _trajectory(made, 160)
    for t, (a, b) in enumerate(zip(ours, ref, strict=True)):
        np.testing.assert_array_equal(a, b, f"step {t}")
    assert not all(
        np.array_equal(a, b) for a, b in zip(ours, _trajectory(default, 160), strict=True)
    )
    for name, value in VALUES.items():
        np.testing.assert_array_equal(changed.get_params()[name], [value] * 3)
    assert list(envpool_x.make_spec(task).params) == list(VALUES)
    for env in (made, changed, default):
        env.close()


def test_immediate_and_at_reset() -> None:
    """Gravity and the motors may change mid-episode (the next step differs);
    the frictions and densities belong to fixtures and wait for a reset."""
    a = envpool_x.make_gymnasium("BipedalWalker-v3", num_envs=1, seed=4)
    b = envpool_x.make_gymnasium("BipedalWalker-v3", num_envs=1, seed=4)
    np.testing.assert_array_equal(a.reset()[0], b.reset()[0])
    still = np.zeros((1, 4), np.float32)
    np.testing.assert_array_equal(a.step(still)[0], b.step(still)[0])
    a.set_params(immediate=True, gravity=-20.0)
    obs_a, obs_b = a.step(still)[0], b.step(still)[0]
    assert obs_a[0, 3] < obs_b[0, 3]  # vertical speed: stronger gravity, faster fall
    with pytest.raises(ValueError, match="leg_friction.*mid-episode"):
        a.set_params(immediate=True, leg_friction=1.0)
    with pytest.raises(ValueError, match="speed_hip"):
        a.set_params(speed_hip=0.0)  # it divides the joint speed in the observation
    with pytest.raises(ValueError, match="gravity"):
        envpool_x.make_gymnasium("BipedalWalker-v3", num_envs=1, gravity=1.0)
    a.close()
    b.close()


def _oracle_episode(monkeypatch: pytest.MonkeyPatch, hardcore: bool, seed: int) -> int:
    """One episode of gymnasium's walker with VALUES patched in, against the
    sim built with them; returns its length."""
    bipedal_walker = pytest.importorskip(
        "gymnasium.envs.box2d.bipedal_walker",
        reason='the oracle needs pip install "gymnasium[box2d]"',
    )
    from test_box2d_lunar import RecordingGenerator

    bw = bipedal_walker
    monkeypatch.setattr(bw, "MOTORS_TORQUE", VALUES["motors_torque"])
    monkeypatch.setattr(bw, "SPEED_HIP", VALUES["speed_hip"])
    monkeypatch.setattr(bw, "SPEED_KNEE", VALUES["speed_knee"])
    monkeypatch.setattr(bw, "FRICTION", VALUES["terrain_friction"])  # read by __init__
    for fd in (bw.LEG_FD, bw.LOWER_FD):
        monkeypatch.setattr(fd, "friction", VALUES["leg_friction"])
        monkeypatch.setattr(fd, "density", VALUES["leg_density"])
    monkeypatch.setattr(bw.HULL_FD, "density", VALUES["hull_density"])
    env = bw.BipedalWalker(hardcore=hardcore)
    env.world.gravity = (0, VALUES["gravity"])
    rec = RecordingGenerator(np.random.default_rng(seed))
    env._np_random = rec
    sim = _core.BipedalWalkerSim(hardcore, **VALUES)
    actions = np.random.default_rng(seed + 100)
    obs, _ = env.reset()
    assert sim.build([float(v) for v in rec.take()]) == 0
    ours, _, _ = sim.step([0.0] * 4)
    np.testing.assert_array_equal(np.asarray(ours, np.float32), obs)
    for t in range(400):
        action = np.clip(actions.normal(0.2, 0.6, 4), -1, 1).astype(np.float32)
        obs, reward, terminated, _, _ = env.step(action)
        ours, our_reward, our_terminated = sim.step(action.tolist())
        where = f"hardcore {hardcore}, seed {seed}, step {t}"
        np.testing.assert_array_equal(np.asarray(ours, np.float32), obs, err_msg=where)
        assert our_reward == float(reward), where
        assert our_terminated == terminated, where
        if terminated:
            break
    env.close()
    return t + 1


@pytest.mark.parametrize("hardcore", [False, True])
def test_constants_match_gymnasium(monkeypatch: pytest.MonkeyPatch, hardcore: bool) -> None:
    """Non-default constants mean what gymnasium's do, bit for bit."""
    lengths = [_oracle_episode(monkeypatch, hardcore, seed) for seed in range(2)]
    assert max(lengths) > 30
