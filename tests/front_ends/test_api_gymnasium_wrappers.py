"""gymnasium's vector wrappers on top of our gymnasium front end:
RecordEpisodeStatistics (both autoreset modes) and NormalizeObservation."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.wrappers.vector import NormalizeObservation, RecordEpisodeStatistics

import envpool_x


@pytest.mark.parametrize("mode", ["next_step", "same_step"])
def test_record_episode_statistics(mode):
    num_envs, limit = 8, 20
    env = envpool_x.make_gymnasium(
        "CartPole-v1", num_envs=num_envs, max_episode_steps=limit, autoreset_mode=mode, seed=5
    )
    wrapped = RecordEpisodeStatistics(env)
    rng = np.random.default_rng(0)
    try:
        wrapped.reset()
        finished = 0
        truncated_seen = 0
        for _ in range(120):
            _, rew, term, trunc, info = wrapped.step(rng.integers(0, 2, num_envs))
            done = term | trunc
            if not done.any():
                assert "episode" not in info
                continue
            np.testing.assert_array_equal(info["_episode"], done)
            r, length = info["episode"]["r"], info["episode"]["l"]
            # The elapsed step of the terminal step is the episode length.
            if mode == "next_step":
                steps = info["elapsed_step"]
            else:  # the env has already reset; the terminal info is final_info
                np.testing.assert_array_equal(info["_final_info"], done)
                steps = info["final_info"]["elapsed_step"]
            for i in np.flatnonzero(done):
                assert 1 <= length[i] <= limit
                assert r[i] == length[i]  # CartPole: reward 1 per step
                assert length[i] == steps[i]
                if trunc[i] and not term[i]:
                    assert length[i] == limit
                    truncated_seen += 1
            assert (r[~done] == 0).all() and (length[~done] == 0).all()
            finished += int(done.sum())
        assert finished >= num_envs
        assert truncated_seen >= 1
        assert wrapped.episode_count == finished
        assert len(wrapped.length_queue) == min(finished, wrapped.length_queue.maxlen)
    finally:
        wrapped.close()
    assert env.closed


def test_normalize_observation():
    num_envs = 4
    env = envpool_x.make_gymnasium("Pendulum-v1", num_envs=num_envs, seed=1)
    wrapped = NormalizeObservation(env)
    try:
        assert wrapped.single_observation_space.shape == (3,)
        assert wrapped.single_observation_space.dtype == np.float32
        obs, _ = wrapped.reset()
        assert obs.shape == (num_envs, 3) and obs.dtype == np.float32
        mean_after_reset = wrapped.obs_rms.mean.copy()
        assert not np.allclose(mean_after_reset, 0.0)
        normalised = []
        act = np.full((num_envs, 1), 0.5, dtype=np.float32)
        for _ in range(30):
            obs, rew, term, trunc, info = wrapped.step(act)
            assert obs.shape == (num_envs, 3) and obs.dtype == np.float32
            assert np.isfinite(obs).all()
            normalised.append(obs)
        assert not np.allclose(wrapped.obs_rms.mean, mean_after_reset)
        # 1 reset + 30 steps, num_envs observations each (count starts at epsilon).
        assert wrapped.obs_rms.count == pytest.approx(31 * num_envs, abs=1e-3)
        # Normalised observations are roughly centred over the run.
        assert np.abs(np.concatenate(normalised).mean(axis=0)).max() < 2.0
        # The output is our observation normalised with the wrapper's stats:
        # replay the same seed and actions on a bare env to get the raw obs.
        raw_env = envpool_x.make_gymnasium("Pendulum-v1", num_envs=num_envs, seed=1)
        try:
            raw_env.reset()
            for _ in range(30):
                raw = raw_env.step(act)[0]
        finally:
            raw_env.close()
        expected = (raw - wrapped.obs_rms.mean) / np.sqrt(wrapped.obs_rms.var + wrapped.epsilon)
        np.testing.assert_allclose(normalised[-1], expected.astype(np.float32), rtol=1e-6)
    finally:
        wrapped.close()


def test_normalize_observation_rejects_same_step_env():
    # gymnasium's own check, which relies on metadata["autoreset_mode"] being right.
    env = envpool_x.make_gymnasium("Pendulum-v1", num_envs=2, autoreset_mode="same_step")
    try:
        with pytest.raises(ValueError, match="NEXT_STEP"):
            NormalizeObservation(env)
    finally:
        env.close()
