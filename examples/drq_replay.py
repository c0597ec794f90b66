"""A replay buffer for pixel agents on a batched env (examples/drq_cartpole_swingup.py).

It keeps the newest frame of each observation only (a third of a 3-frame stack)
and rebuilds stacks when sampling, as the env builds them: after a reset the
stack holds the reset's frame in every slot. A transition is an n-step window
of one env; windows that cross an episode's end are not sampled, so an
episode's last n agent steps are left out (DMC tasks end by their time limit
only, so no terminal value is lost)."""

from __future__ import annotations

import numpy as np


class FrameReplay:
    """``capacity`` agent steps over ``num_envs`` envs, as a ring of batch steps."""

    def __init__(
        self,
        capacity: int,
        num_envs: int,
        obs_shape: tuple[int, ...],
        num_actions: int,
        n_step: int,
        gamma: float,
    ) -> None:
        channels, height, width = obs_shape
        if channels % 3:
            raise ValueError(f"expected stacked RGB frames, got {channels} channels")
        self.stack, self.n_step, self.n = channels // 3, n_step, num_envs
        self.cap = max(capacity // num_envs, n_step + self.stack + 2)
        self.frames = np.zeros((self.cap, num_envs, 3, height, width), np.uint8)
        self.ep_step = np.zeros((self.cap, num_envs), np.int64)
        self.action = np.zeros((self.cap, num_envs, num_actions), np.float32)
        self.reward = np.zeros((self.cap, num_envs), np.float32)
        self.ended = np.zeros((self.cap, num_envs), bool)
        self.discounts = gamma ** np.arange(n_step)
        self.t = 0  # observations stored so far; the next goes to slot t % cap

    def add_first(self, obs: np.ndarray) -> None:
        """The observations of the first reset."""
        self.frames[0] = obs[:, -3:]
        self.ep_step[0] = 0
        self.t = 1

    def add(
        self, action: np.ndarray, reward: np.ndarray, ended: np.ndarray, obs: np.ndarray
    ) -> None:
        """What the last observations' action gave; ``obs`` is a new episode's first
        observation where ``ended`` (``autoreset_mode="same_step"``)."""
        last = (self.t - 1) % self.cap
        self.action[last], self.reward[last], self.ended[last] = action, reward, ended
        slot = self.t % self.cap
        self.frames[slot] = obs[:, -3:]
        self.ep_step[slot] = np.where(ended, 0, self.ep_step[last] + 1)
        self.t += 1

    def _bounds(self) -> tuple[int, int]:
        """Absolute indices a window may start at: its stack still stored, its n
        actions and the observation after them taken."""
        return max(0, self.t - self.cap) + self.stack - 1, self.t - 1 - self.n_step

    def can_sample(self) -> bool:
        low, high = self._bounds()
        return high >= low

    def _stack(self, s: np.ndarray, env: np.ndarray) -> np.ndarray:
        first = s - self.ep_step[s % self.cap, env]  # the episode's reset observation
        parts = []
        for back in range(self.stack - 1, -1, -1):  # the oldest frame first, as the env
            idx = np.maximum(s - back, first) % self.cap
            parts.append(self.frames[idx, env])
        return np.concatenate(parts, axis=1)

    def sample(self, batch: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
        """``batch`` windows: stacked observations, the first action, the discounted
        n-step return and the stacked observation n steps later."""
        low, high = self._bounds()
        if high < low:
            raise RuntimeError("not enough steps stored to sample a window")
        s_all, env_all = [], []
        for _ in range(100):
            s = rng.integers(low, high + 1, 2 * batch)
            env = rng.integers(0, self.n, 2 * batch)
            steps = (s[:, None] + np.arange(self.n_step)) % self.cap
            keep = ~self.ended[steps, env[:, None]].any(axis=1)
            s_all.append(s[keep])
            env_all.append(env[keep])
            if sum(len(x) for x in s_all) >= batch:
                break
        else:
            raise RuntimeError(f"no window of {self.n_step} steps inside an episode")
        s, env = np.concatenate(s_all)[:batch], np.concatenate(env_all)[:batch]
        steps = (s[:, None] + np.arange(self.n_step)) % self.cap
        return {
            "obs": self._stack(s, env),
            "action": self.action[s % self.cap, env],
            "return": (self.reward[steps, env[:, None]] * self.discounts).sum(1).astype(np.float32),
            "next_obs": self._stack(s + self.n_step, env),
        }
