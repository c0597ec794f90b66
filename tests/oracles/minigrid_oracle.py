"""minigrid 3.2.0 as the oracle of the MiniGrid family: its world read into
our state layout (cpp/envs/minigrid/minigrid_env.h), and one episode stepped
in both with the same actions."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import gymnasium as gym
import numpy as np
import pytest

import envpool_x

minigrid = pytest.importorskip("minigrid")
from minigrid.core.constants import OBJECT_TO_IDX  # noqa: E402

EMPTY = OBJECT_TO_IDX["empty"]
COLORS = ["red", "green", "blue", "purple", "yellow", "grey"]


def cell_codes(obj: object | None) -> list[int]:
    """type, color, state, box content type and color of one minigrid object."""
    if obj is None:
        return [EMPTY, 0, 0, EMPTY, 0]
    t, c, s = obj.encode()  # type: ignore[attr-defined]
    inner = getattr(obj, "contains", None)
    ti, ci = (EMPTY, 0) if inner is None else inner.encode()[:2]
    return [int(t), int(c), int(s), int(ti), int(ci)]


def world_state(env: gym.Env, mission_id: int, extra: Sequence[float] = ()) -> np.ndarray:
    """minigrid's whole world as our state vector (header, grid, extra)."""
    u = env.unwrapped
    head = [u.width, u.height, *u.agent_pos, u.agent_dir, u.step_count, mission_id]
    head += cell_codes(u.carrying)
    cells = [
        v for y in range(u.height) for x in range(u.width) for v in cell_codes(u.grid.get(x, y))
    ]
    return np.array(head + cells + list(extra), dtype=np.float64)


def make_pair(task: str, **kwargs: object) -> tuple[gym.Env, gym.Env]:
    """Our one-env gymnasium pool and minigrid's env of the same id."""
    ours = envpool_x.make_gymnasium(task, num_envs=1, autoreset_mode="disabled", **kwargs)
    theirs = gym.make(task, **kwargs)
    return ours, theirs


def assert_same_obs(obs: dict, g_obs: dict, mission: str, where: str) -> None:
    """Image, direction and mission text agree."""
    np.testing.assert_array_equal(obs["image"][0], g_obs["image"], err_msg=where)
    assert int(obs["direction"][0]) == g_obs["direction"], where
    text = envpool_x.families.minigrid.decode_mission(obs["mission"][0])
    assert text == mission == g_obs["mission"], where


def run_episodes(
    task: str,
    num_episodes: int,
    mission_id: Callable[[str], int],
    load_layout: bool,
    extra: Callable[[gym.Env], Sequence[float]] = lambda env: (),
    action_probs: Sequence[float] | None = None,
    seed: int = 0,
    **kwargs: object,
) -> dict[str, int]:
    """Steps ours and minigrid's envs with the same random actions over
    ``num_episodes`` whole episodes and asserts that every observation,
    reward, termination and truncation agree. With ``load_layout`` ours
    starts each episode from minigrid's layout (random generators draw from
    other streams); else both must produce the same first observation.
    Returns counts of terminated and truncated episodes (for the tests to
    check that the actions reached the ends they aim at). ``kwargs`` go to
    both envs (``agent_view_size``)."""
    ours, theirs = make_pair(task, **kwargs)
    rng = np.random.default_rng(seed)
    n_actions = int(theirs.action_space.n)
    ends = {"ended": 0, "terminated": 0, "truncated": 0, "rewarded": 0}
    for episode in range(num_episodes):
        obs, info = ours.reset()
        g_obs, _ = theirs.reset(seed=seed * 1000 + episode)
        mid = mission_id(g_obs["mission"])
        if load_layout:
            state = world_state(theirs, mid, extra(theirs))
            ours._pool.set_state(0, state)
            np.testing.assert_array_equal(ours._pool.get_state(0), state)
        else:
            assert_same_obs(obs, g_obs, g_obs["mission"], f"{task} reset {episode}")
            assert int(info["mission_id"][0]) == mid
        for t in range(1, 100_000):
            where = f"{task} episode {episode} step {t}"
            action = int(rng.choice(n_actions, p=action_probs))
            g_obs, g_rew, g_term, g_trunc, _ = theirs.step(action)
            obs, rew, term, trunc, info = ours.step(np.array([action]))
            assert_same_obs(obs, g_obs, g_obs["mission"], where)
            assert rew[0] == np.float32(g_rew), where
            assert bool(term[0]) == g_term and bool(trunc[0]) == g_trunc, where
            assert tuple(info["agent_pos"][0]) == tuple(theirs.unwrapped.agent_pos), where
            assert int(info["mission_id"][0]) == mid, where
            if g_term or g_trunc:
                ends["ended"] += 1
                ends["terminated"] += g_term
                ends["truncated"] += g_trunc
                ends["rewarded"] += g_rew > 0
                break
    ours.close()
    theirs.close()
    return ends


class OurStream:
    """A stand-in for minigrid's ``np_random`` that draws from our env's
    Philox stream (cpp/core/random.h: the k-th draw of ``integers(low, high)``
    is ``low + UniformInt(high - low)`` of draw k). minigrid's generators and
    ours draw in the same order, so from the same stream they make the same
    layout, and DynamicObstacles moves its balls alike."""

    def __init__(self, key: int) -> None:
        self.key = key
        self.count = 0
        self.block = np.zeros(0)

    def integers(self, low: int, high: int | None = None) -> int:
        if high is None:
            low, high = 0, low
        if self.count >= len(self.block):
            more = envpool_x._core.philox_uniform(self.key, len(self.block), 4096)
            self.block = np.concatenate([self.block, more])
        u = self.block[self.count]
        self.count += 1
        return int(low) + int(u * (int(high) - int(low)))

    def choice(self, seq: Sequence[int]) -> int:
        """One element, drawn as our generators draw an index."""
        return seq[self.integers(0, len(seq))]

    def shuffle(self, items: list) -> None:
        """Fisher-Yates from the end, as CrossingTask::Shuffle (numpy's own
        shuffle draws differently, so this stands in for it)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.integers(0, i + 1)
            items[i], items[j] = items[j], items[i]


def same_seed_pair(task: str, seed: int) -> tuple[gym.Env, gym.Env]:
    """Our one-env pool seeded with ``seed`` and minigrid's env drawing from
    the same stream (env 0's), neither reset yet."""
    ours = envpool_x.make_gymnasium(task, num_envs=1, seed=seed, autoreset_mode="disabled")
    theirs = gym.make(task)
    theirs.unwrapped._np_random = OurStream(envpool_x._core.derive_env_seed(seed, 0))
    return ours, theirs
