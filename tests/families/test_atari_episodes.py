"""Atari episodes: reward clipping (the raw reward kept in info), episodic life
and zero discount on a life loss, the time limit, determinism across threads
with sticky actions, and the Pong-v5 pool of 100 envs, sync and async."""

from __future__ import annotations

import numpy as np
from atari_helpers import make, require_atari_and_oracles

import envpool_x

require_atari_and_oracles()


def test_reward_clip_keeps_raw_reward_in_info() -> None:
    kw = dict(num_envs=4, seed=3, noop_max=0)
    clipped = make("SpaceInvaders-v5", reward_clip=True, **kw)
    raw = make("SpaceInvaders-v5", **kw)
    clipped.reset()
    raw.reset()
    rng = np.random.default_rng(0)
    seen_big = False
    for _ in range(400):
        a = rng.integers(6, size=4)
        _, rc, _, _, ic = clipped.step(a)
        _, rr, _, _, ir = raw.step(a)
        np.testing.assert_array_equal(rr, ir["reward"])
        np.testing.assert_array_equal(ic["reward"], ir["reward"])
        np.testing.assert_array_equal(rc, np.sign(rr))
        seen_big |= bool((rr > 1).any())
    assert seen_big
    clipped.close()
    raw.close()


def test_episodic_life_and_zero_discount() -> None:
    kw = dict(num_envs=1, seed=0, noop_max=1, max_episode_steps=10000)
    life = make("Breakout-v5", episodic_life=True, **kw)
    plain = make("Breakout-v5", **kw)
    dm = envpool_x.make_dm("Breakout-v5", zero_discount_on_life_loss=True, **kw)
    life.reset()
    plain.reset()
    dm.reset()
    rng = np.random.default_rng(0)
    losses = 0
    for _ in range(2000):
        a = rng.integers(4, size=1)
        _, _, term, trunc, info = life.step(a)
        _, _, pterm, _, pinfo = plain.step(a)
        ts = dm.step(a)
        if term[0]:
            # Same game so far: a life lost ends the episode but not the game.
            assert pinfo["lives"][0] == info["lives"][0] > 0
            assert not pterm[0] and not info["terminated"][0]
            assert ts.discount[0] == 0.0 and ts.step_type[0] == 1  # MID: the game goes on
            losses += 1
            elapsed = info["elapsed_step"][0]
            _, _, term2, _, info2 = life.step(a)  # the auto-reset step
            assert not term2[0]
            # The game goes on: elapsed_step and lives continue.
            assert info2["elapsed_step"][0] == elapsed
            assert info2["lives"][0] == info["lives"][0]
            break
        assert ts.discount[0] == 1.0
    assert losses == 1
    for e in (life, plain, dm):
        e.close()


def test_truncation_at_max_episode_steps() -> None:
    env = make("Pong-v5", max_episode_steps=10, noop_max=0)
    assert envpool_x.make_spec("Pong-v5").config.max_episode_steps == 27000
    env.reset()
    for t in range(1, 11):
        _, _, term, trunc, info = env.step(np.array([0]))
        assert info["elapsed_step"][0] == t
        assert trunc[0] == (t == 10) and not term[0]
    _, _, _, trunc, info = env.step(np.array([0]))
    assert info["elapsed_step"][0] == 0 and not trunc[0]
    env.close()


def test_determinism_across_threads_and_sticky_actions() -> None:
    def run(threads: int) -> list[np.ndarray]:
        env = make(
            "Breakout-v5", num_envs=4, num_threads=threads, seed=5, repeat_action_probability=0.25
        )
        out = [env.reset()[0]]
        rng = np.random.default_rng(0)
        for _ in range(60):
            out.append(env.step(rng.integers(4, size=4))[0])
        env.close()
        return out

    a, b = run(1), run(2)
    for x, y in zip(a, b, strict=True):
        np.testing.assert_array_equal(x, y)


def test_pong_100_envs_sync_and_async() -> None:
    env = envpool_x.make_gym("Pong-v5", num_envs=100)
    obs, info = env.reset()
    assert obs.shape == (100, 4, 84, 84)
    np.testing.assert_array_equal(info["env_id"], np.arange(100))
    for _ in range(3):
        obs, rew, term, trunc, info = env.step(np.random.randint(0, 6, size=100))
    assert obs.shape == (100, 4, 84, 84) and rew.dtype == np.float32
    env.close()

    env = envpool_x.make_gym("Pong-v5", num_envs=100, batch_size=50, num_threads=2)
    env.async_reset()
    seen = []
    for _ in range(6):
        obs, rew, term, trunc, info = env.recv()
        assert obs.shape == (50, 4, 84, 84)
        ids = info["env_id"]
        assert len(set(ids.tolist())) == 50
        seen.extend(ids.tolist())
        env.send(np.random.randint(0, 6, size=50), ids)
    assert set(seen) == set(range(100))
    env.close()
