"""LunarLander's per-env parameters (docs/params.md): set_params equals the config."""

import numpy as np
import pytest

import envpool_x

pytestmark = pytest.mark.skipif(
    not hasattr(envpool_x._core, "LunarLander"), reason="built without Box2D"
)

VALUES = {
    "gravity": -7.5,
    "wind_power": 11.0,
    "turbulence_power": 0.9,
    "main_engine_power": 15.0,
    "side_engine_power": 0.45,
}


def _trajectory(env, steps, seed=0):
    rng = np.random.default_rng(seed)
    rows = [env.reset()[0].copy()]
    for _ in range(steps):
        obs, rew, term, trunc, _ = env.step(rng.integers(0, 4, env.num_envs).astype(np.int32))
        rows.append(np.concatenate([obs, rew[:, None], term[:, None], trunc[:, None]], axis=1))
    return rows


def test_set_params_equals_config():
    """Every parameter set by set_params: the trajectory of a pool made with the
    values, bit for bit (the wind on, so that its powers act)."""
    kw = {"num_envs": 4, "seed": 2, "enable_wind": True, "max_episode_steps": 60}
    made = envpool_x.make_gymnasium("LunarLander-v3", **kw, **VALUES)
    changed = envpool_x.make_gymnasium("LunarLander-v3", **kw)
    changed.set_params(**VALUES)
    for t, (a, b) in enumerate(zip(_trajectory(made, 150), _trajectory(changed, 150), strict=True)):
        np.testing.assert_array_equal(a, b, f"step {t}")
    for name, value in VALUES.items():
        np.testing.assert_array_equal(changed.get_params()[name], [value] * 4)
    made.close()
    changed.close()


def test_immediate_gravity_changes_the_fall():
    """immediate=True reaches the Box2D world mid-episode: the lander falls
    differently from an untouched twin from the next step on."""
    a = envpool_x.make_gymnasium("LunarLander-v3", num_envs=1, seed=4)
    b = envpool_x.make_gymnasium("LunarLander-v3", num_envs=1, seed=4)
    np.testing.assert_array_equal(a.reset()[0], b.reset()[0])
    noop = np.zeros(1, np.int32)
    np.testing.assert_array_equal(a.step(noop)[0], b.step(noop)[0])
    a.set_params(immediate=True, gravity=-2.0)
    obs_a, obs_b = a.step(noop)[0], b.step(noop)[0]
    assert obs_a[0, 3] > obs_b[0, 3]  # vertical speed: weaker gravity, slower fall
    a.close()
    b.close()
