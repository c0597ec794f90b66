"""LunarLander against gymnasium 1.4.0's, on the same Box2D 2.3 sources.

Our pool env draws terrain, push, wind phases and engine dispersion from its own
stream, so trajectories are compared through a test hook: ``_core.LunarLanderSim``
is the pool env's physics with the random draws passed in. gymnasium's env runs
with a recording generator; every number it draws is fed to our simulator, and
observations, rewards and terminations must then be identical bit for bit over
whole episodes (random and heuristic-pilot actions, wind, gravity).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import envpool_x
from envpool_x import _core

lunar_lander = pytest.importorskip(
    "gymnasium.envs.box2d.lunar_lander", reason='the oracle needs pip install "gymnasium[box2d]"'
)


class RecordingGenerator:
    """Wraps numpy's Generator and remembers every value it hands out."""

    def __init__(self, gen: np.random.Generator) -> None:
        self.gen = gen
        self.draws: list[Any] = []

    def uniform(self, *args: Any, **kwargs: Any) -> Any:
        value = self.gen.uniform(*args, **kwargs)
        self.draws.append(value)
        return value

    def integers(self, *args: Any, **kwargs: Any) -> Any:
        value = self.gen.integers(*args, **kwargs)
        self.draws.append(value)
        return value

    def random(self, *args: Any, **kwargs: Any) -> Any:
        value = self.gen.random(*args, **kwargs)
        self.draws.append(value)
        return value

    def take(self) -> list[Any]:
        out, self.draws = self.draws, []
        return out


CONFIGS = [
    {},
    {"continuous": True},
    {"enable_wind": True},
    {"continuous": True, "enable_wind": True, "wind_power": 20.0, "turbulence_power": 2.0},
    {"gravity": -4.5},
]
FULL = {
    "continuous": False,
    "gravity": -10.0,
    "enable_wind": False,
    "wind_power": 15.0,
    "turbulence_power": 1.5,
}


def _episodes(
    config: dict[str, Any], seed: int, pilot: bool, count: int = 2
) -> list[tuple[int, float]]:
    """``count`` consecutive episodes in both (one env each); returns each
    one's length and last reward. Asserts every step agrees."""
    kwargs = {**FULL, **config}
    env = lunar_lander.LunarLander(**kwargs)
    rec = RecordingGenerator(np.random.default_rng(seed))
    env._np_random = rec  # reset() without a seed keeps it
    sim = _core.LunarLanderSim(**kwargs)
    actions = np.random.default_rng(seed)
    out = []
    for episode in range(count):
        obs, _ = env.reset()
        draws = rec.take()
        heights, fx, fy = draws[0], draws[1], draws[2]
        idx = (int(draws[3]), int(draws[4])) if kwargs["enable_wind"] else (0, 0)
        d0, d1 = draws[-2:]
        sim.build(list(heights), fx, fy, *idx)
        ours, _, _ = sim.step([0.0, 0.0], d0, d1)
        np.testing.assert_array_equal(np.asarray(ours, np.float32), obs)
        for t in range(1000):
            if pilot:
                action = lunar_lander.heuristic(env, obs)
                if kwargs["continuous"]:  # the pool's actions are float32
                    action = np.asarray(action, np.float32)
            elif kwargs["continuous"]:
                action = actions.uniform(-1, 1, 2).astype(np.float32)
            else:
                action = int(actions.integers(4))
            obs, reward, terminated, _, _ = env.step(action)
            d0, d1 = rec.take()
            cont = kwargs["continuous"]
            a = [float(action[0]), float(action[1])] if cont else [float(action), 0.0]
            ours, our_reward, our_terminated = sim.step(a, d0, d1)
            where = f"config {config}, seed {seed}, episode {episode}, step {t}"
            np.testing.assert_array_equal(np.asarray(ours, np.float32), obs, err_msg=where)
            assert our_reward == float(reward), where
            assert our_terminated == terminated, where
            if terminated:
                break
        out.append((t + 1, float(reward)))
    return out


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: ",".join(c) or "default")
def test_random_episodes_match_gymnasium(config: dict[str, Any]) -> None:
    episodes = [e for seed in range(2) for e in _episodes(config, seed, pilot=False)]
    assert sum(n for n, _ in episodes) > 4 * 20


@pytest.mark.parametrize("config", CONFIGS[:4], ids=lambda c: ",".join(c) or "default")
def test_piloted_episodes_match_gymnasium(config: dict[str, Any]) -> None:
    # gymnasium's heuristic lands: long episodes with leg contacts, most ending
    # when the lander falls asleep (+100).
    episodes = [e for seed in range(2) for e in _episodes(config, seed, pilot=True)]
    assert max(n for n, _ in episodes) > 150
    assert any(last == 100.0 for _, last in episodes)


def test_pool_ids_specs_and_determinism() -> None:
    for task in ("LunarLander-v3", "LunarLander-v2"):
        env = envpool_x.make_gymnasium(task, num_envs=3, seed=7)
        assert env.single_action_space.n == 4
        assert env.single_observation_space.shape == (8,)
    cont = envpool_x.make_gymnasium("LunarLanderContinuous-v3", num_envs=2, seed=1)
    assert cont.single_action_space.shape == (2,)

    def run(num_threads: int) -> np.ndarray:
        env = envpool_x.make_gymnasium(
            "LunarLander-v3", num_envs=4, seed=3, num_threads=num_threads, enable_wind=True
        )
        obs, _ = env.reset()
        rows = [obs]
        rng = np.random.default_rng(0)
        for _ in range(300):
            obs, reward, term, trunc, _ = env.step(rng.integers(0, 4, 4))
            rows.append(obs)
            rows.append(reward[:, None].repeat(8, 1))
        return np.stack(rows)

    a, b = run(1), run(2)
    np.testing.assert_array_equal(a, b)
    assert np.isfinite(a).all()


def test_pool_episode_rewards_are_gymnasium_like() -> None:
    # A whole rollout of the pool: terminations happen with the -100 / +100
    # rewards and the first observation's legs are off the ground.
    env = envpool_x.make_gymnasium("LunarLander-v3", num_envs=8, seed=0)
    obs, _ = env.reset()
    assert (obs[:, 6:] == 0).all()
    assert np.allclose(obs[:, 1], obs[0, 1], atol=0.05)  # all start at the same height
    ended = 0
    rng = np.random.default_rng(1)
    for _ in range(400):
        obs, reward, term, trunc, _ = env.step(rng.integers(0, 4, 8))
        if term.any():
            assert set(np.round(reward[term]).tolist()) <= {-100.0, 100.0}
            ended += int(term.sum())
    assert ended > 0


def test_bad_actions_and_keys_are_refused() -> None:
    env = envpool_x.make_gymnasium("LunarLander-v3", num_envs=2, seed=0)
    env.reset()
    with pytest.raises(ValueError, match="action"):
        env.step(np.array([0, 4]))
    cont = envpool_x.make_gymnasium("LunarLanderContinuous-v3", num_envs=2, seed=0)
    cont.reset()
    with pytest.raises(ValueError, match="action"):
        cont.step(np.array([[0.0, 0.0], [0.0, np.nan]], np.float32))
    # Values outside [-1, 1] are clipped, as gymnasium does (only NaN / inf are
    # refused for box actions, in every family).
    a = envpool_x.make_gymnasium("LunarLanderContinuous-v3", num_envs=1, seed=4)
    b = envpool_x.make_gymnasium("LunarLanderContinuous-v3", num_envs=1, seed=4)
    a.reset(), b.reset()
    for _ in range(20):
        big = a.step(np.array([[1.5, -3.0]], np.float32))[0]
        np.testing.assert_array_equal(big, b.step(np.array([[1.0, -1.0]], np.float32))[0])
    with pytest.raises(ValueError, match="gravity"):
        envpool_x.make_gymnasium("LunarLander-v3", num_envs=1, gravity=-13.0)
    with pytest.raises((KeyError, ValueError, TypeError), match="hardcore"):
        envpool_x.make_gymnasium("LunarLander-v3", num_envs=1, hardcore=True)


def test_cli_list_and_info(capsys: pytest.CaptureFixture[str]) -> None:
    from envpool_x import cli

    assert cli.main(["list"]) == 0
    listed = capsys.readouterr().out
    for task in ("LunarLander-v3", "LunarLanderContinuous-v3", "LunarLander-v2"):
        assert task in listed
    assert cli.main(["info", "LunarLanderContinuous-v3"]) == 0
    info = capsys.readouterr().out
    for key in ("continuous", "gravity", "enable_wind", "wind_power", "turbulence_power"):
        assert key in info


def test_a_build_without_box2d_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    from envpool_x import registration
    from envpool_x.families import box2d

    monkeypatch.delitem(registration._REGISTRY, "LunarLander-v3")
    monkeypatch.setattr(registration, "_NOT_BUILT", {})
    registration.note_not_built(box2d.TASK_IDS, box2d.BUILD_HINT)
    with pytest.raises(KeyError, match="ENVPOOL_X_BOX2D"):
        envpool_x.make_gymnasium("LunarLander-v3", num_envs=1)
