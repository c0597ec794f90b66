"""examples/drq_cartpole_swingup.py (issue 49's pixel training example): its replay
buffer rebuilds exactly the stacks the env gives, and a tiny run trains end to end on
the pixel env."""

from __future__ import annotations

import math
import pathlib
import sys

import numpy as np
import pytest

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples"
sys.path.insert(0, str(EXAMPLES))

from drq_replay import FrameReplay  # noqa: E402


class StackingEnvs:
    """Envs whose frames spell (env, episode, step) and whose observations stack the
    last 3 frames, the reset frame repeated after a reset, as a pixel env does."""

    def __init__(self, n: int, lengths: list[int]) -> None:
        self.n, self.lengths = n, lengths
        self.episode, self.step_in = np.zeros(n, int), np.zeros(n, int)
        self.history: list[list[np.ndarray]] = [[self.frame(i)] * 3 for i in range(n)]

    def frame(self, i: int) -> np.ndarray:
        f = np.zeros((3, 2, 2), np.uint8)
        f[0], f[1], f[2] = i, self.episode[i], self.step_in[i]
        return f

    def obs(self) -> np.ndarray:
        return np.stack([np.concatenate(h[-3:]) for h in self.history])

    def step(self) -> tuple[np.ndarray, np.ndarray]:
        ended = np.zeros(self.n, bool)
        for i in range(self.n):
            self.step_in[i] += 1
            length = self.lengths[(self.episode[i] + i) % len(self.lengths)]
            if self.step_in[i] == length:
                ended[i] = True
                self.episode[i] += 1
                self.step_in[i] = 0
                self.history[i] = [self.frame(i)] * 3
            else:
                self.history[i].append(self.frame(i))
        return self.obs(), ended


def test_replay_rebuilds_the_env_stacks_and_n_step_returns():
    rng = np.random.default_rng(0)
    envs = StackingEnvs(3, lengths=[5, 9, 4, 12])
    replay = FrameReplay(
        capacity=60, num_envs=3, obs_shape=(9, 2, 2), num_actions=1, n_step=3, gamma=0.5
    )
    replay.add_first(envs.obs())
    seen: dict[tuple[int, int], np.ndarray] = {}  # (absolute step, env) -> observation
    rewards: dict[tuple[int, int], float] = {}
    for i in range(3):
        seen[(0, i)] = envs.obs()[i]
    for t in range(1, 80):
        reward = rng.normal(size=3).astype(np.float32)
        obs, ended = envs.step()
        for i in range(3):
            rewards[(t - 1, i)] = float(reward[i])
            seen[(t, i)] = obs[i]
        replay.add(np.full((3, 1), t - 1, np.float32), reward, ended, obs)
    assert replay.can_sample()
    batch = replay.sample(200, rng)
    assert batch["obs"].shape == (200, 9, 2, 2) == batch["next_obs"].shape
    for k in range(200):
        s, env = int(batch["action"][k, 0]), int(batch["obs"][k, 0, 0, 0])
        np.testing.assert_array_equal(batch["obs"][k], seen[(s, env)])
        np.testing.assert_array_equal(batch["next_obs"][k], seen[(s + 3, env)])
        # The window stays in one episode: the same episode number in both stacks.
        assert batch["next_obs"][k, -2, 0, 0] == batch["obs"][k, -2, 0, 0]
        expected = sum(0.5**j * rewards[(s + j, env)] for j in range(3))
        assert math.isclose(batch["return"][k], expected, rel_tol=1e-5, abs_tol=1e-6)


def test_replay_refuses_windows_longer_than_every_episode():
    envs = StackingEnvs(2, lengths=[2])
    replay = FrameReplay(
        capacity=40, num_envs=2, obs_shape=(9, 2, 2), num_actions=1, n_step=3, gamma=0.9
    )
    replay.add_first(envs.obs())
    for _ in range(10):
        obs, ended = envs.step()
        replay.add(np.zeros((2, 1), np.float32), np.zeros(2, np.float32), ended, obs)
    with pytest.raises(RuntimeError, match="no window of 3 steps"):
        replay.sample(4, np.random.default_rng(0))


def test_tiny_training_run_on_the_pixel_env(monkeypatch):
    """A few agent steps and updates on CartpoleSwingup-v1 from 32 x 32 frames: the
    loop, the replay and the DrQ update run, and the losses are finite."""
    pytest.importorskip("torch")
    import envpool_x

    if "CartpoleSwingup-v1" not in envpool_x.list_all_envs():
        pytest.skip("this build has no DeepMind Control tasks")
    monkeypatch.setenv("MUJOCO_GL", "osmesa")
    import drq_cartpole_swingup as drq

    printed: list[str] = []
    monkeypatch.setattr("builtins.print", lambda *a, **k: printed.append(" ".join(map(str, a))))
    args = ["--num-envs", "2", "--num-threads", "2", "--render-size", "32", "--action-repeat", "2"]
    args += ["--total-frames", "48", "--seed-frames", "16", "--batch-size", "4", "--n-step", "2"]
    args += ["--hidden-dim", "32", "--feature-dim", "8", "--device", "cpu"]
    drq.main(args)
    last = [line for line in printed if line.startswith("last update:")]
    assert last, printed
    values = dict(kv.split("=") for kv in last[0].split(": ")[1].split())
    assert set(values) == {"critic_loss", "actor_loss"}
    assert all(np.isfinite(float(v)) for v in values.values())
