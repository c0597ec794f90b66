"""CarRacing's per-env parameters (docs/params.md).

As for BipedalWalker (test_box2d_walker_params.py): ``set_params`` equals the
same values given as config, bit for bit over whole episodes; and the
constants gymnasium lets one patch (car_dynamics' ENGINE_POWER,
WHEEL_MOMENT_OF_INERTIA and FRICTION_LIMIT, each road tile's road_friction)
mean what gymnasium's do, over an episode of ``_core.CarRacingSim`` against
gymnasium's env.
"""

from __future__ import annotations

import numpy as np
import pytest

import envpool_x
from envpool_x.families.box2d import BUILD_HINT, has_box2d

pytestmark = pytest.mark.skipif(not has_box2d(), reason=BUILD_HINT)

VALUES = {
    "engine_power": 52000.0,
    "wheel_moment_of_inertia": 1.9,
    "friction_limit": 330.0,
    "brake_force": 11.0,
    "grass_friction": 0.2,
    "road_friction": 0.9,
}


STEPS = 120  # gymnasium's frames cost about 30 ms a step


def _trajectory(env: envpool_x.VectorEnv, steps: int) -> list[np.ndarray]:
    rng = np.random.default_rng(1)
    obs, _ = env.reset()
    rows = [obs.reshape(env.num_envs, -1).astype(np.float32)]
    for _ in range(steps):
        # Mostly gas, some braking and steering; the last env turns hard
        # off the road (grass_friction): every constant acts.
        action = rng.uniform([-1, 0.3, 0], [1, 1, 0.5], (env.num_envs, 3)).astype(np.float32)
        action[-1] = [1.0, 1.0, 0.0]
        obs, rew, term, trunc, _ = env.step(action)
        flags = np.stack([rew, term, trunc], axis=1).astype(np.float32)
        rows.append(np.concatenate([obs.reshape(env.num_envs, -1), flags], axis=1))
    return rows


def test_set_params_equals_config() -> None:
    """Every parameter set by set_params: the frames, rewards and ends of a
    pool made with the values, bit for bit, across an autoreset."""
    kw = {"num_envs": 2, "seed": 3, "max_episode_steps": 60}
    made = envpool_x.make_gymnasium("CarRacing-v3", **kw, **VALUES)
    changed = envpool_x.make_gymnasium("CarRacing-v3", **kw)
    default = envpool_x.make_gymnasium("CarRacing-v3", **kw)
    changed.set_params(**VALUES)
    ours, ref = _trajectory(changed, 90), _trajectory(made, 90)
    for t, (a, b) in enumerate(zip(ours, ref, strict=True)):
        np.testing.assert_array_equal(a, b, f"step {t}")
    assert not all(
        np.array_equal(a, b) for a, b in zip(ours, _trajectory(default, 90), strict=True)
    )
    for name, value in VALUES.items():
        np.testing.assert_array_equal(changed.get_params()[name], [value] * 2)
    assert list(envpool_x.make_spec("CarRacing-v3").params) == list(VALUES)
    for env in (made, changed, default):
        env.close()


def test_immediate_engine_power_and_errors() -> None:
    """The car reads its constants at each step: immediate=True acts at once."""
    a = envpool_x.make_gymnasium("CarRacing-v3", num_envs=1, seed=4)
    b = envpool_x.make_gymnasium("CarRacing-v3", num_envs=1, seed=4)
    np.testing.assert_array_equal(a.reset()[0], b.reset()[0])
    gas = np.array([[0.0, 1.0, 0.0]], np.float32)
    for _ in range(5):
        np.testing.assert_array_equal(a.step(gas)[0], b.step(gas)[0])
    a.set_params(immediate=True, engine_power=0.0)
    frames_a = [a.step(gas)[0] for _ in range(20)]
    frames_b = [b.step(gas)[0] for _ in range(20)]
    assert not np.array_equal(frames_a[-1], frames_b[-1])
    with pytest.raises(ValueError, match="wheel_moment_of_inertia"):
        a.set_params(wheel_moment_of_inertia=0.0)  # it divides
    with pytest.raises(ValueError, match="friction_limit"):
        envpool_x.make_gymnasium("CarRacing-v3", num_envs=1, friction_limit=-1.0)
    a.close()
    b.close()


def test_constants_match_gymnasium(monkeypatch: pytest.MonkeyPatch) -> None:
    """Non-default constants mean what gymnasium's do: car state, rewards and
    frames as in tests/families/test_box2d_car.py, over one episode."""
    pytest.importorskip("pygame", reason='gymnasium\'s CarRacing needs pip install "pygame"')
    car_dynamics = pytest.importorskip(
        "gymnasium.envs.box2d.car_dynamics",
        reason='the oracle needs pip install "gymnasium[box2d]"',
    )
    from test_box2d_car import Episode, _pursuit

    from envpool_x import _core

    monkeypatch.setattr(car_dynamics, "ENGINE_POWER", VALUES["engine_power"])
    monkeypatch.setattr(car_dynamics, "WHEEL_MOMENT_OF_INERTIA", VALUES["wheel_moment_of_inertia"])
    monkeypatch.setattr(car_dynamics, "FRICTION_LIMIT", VALUES["friction_limit"])
    ep = Episode(seed=5)
    patched = ("engine_power", "wheel_moment_of_inertia", "friction_limit", "road_friction")
    ep.sim = _core.CarRacingSim(**ep.kwargs, **{k: VALUES[k] for k in patched})
    ep.reset()
    for tile in ep.env.road:  # set by gymnasium's _create_track at each reset
        tile.road_friction = VALUES["road_friction"]
    rng = np.random.default_rng(9)
    tiles = 0
    for t in range(STEPS):
        # The pursuit keeps the car on the road; a random push now and then.
        action = _pursuit(ep.env, True) if t % 7 else rng.uniform([-1, 0, 0], [1, 1, 1])
        _, _, terminated = ep.step(np.asarray(action, np.float32), f"step {t}")
        tiles = ep.env.tile_visited_count
        if terminated:
            break
    assert tiles > 5  # the road's friction acted
