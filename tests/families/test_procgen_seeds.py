"""Procgen's seeding against procgen's own env of several games (tests/oracles/procgen_libenv.py).

Env i of a pool seeded with S must play what game i of procgen's env made with
num=num_envs and rand_seed=S plays (as EnvPool's env i does), whatever the
threads, batches and sync or async stepping. The oracle's games step together,
so the oracle runs first and its trajectory is recorded; the pool is then driven
in any order, each env compared with its game at the env's own step count. The
pool's reset after an episode end repeats the frame procgen already started.
"""

from __future__ import annotations

import numpy as np
import pytest
from procgen_libenv import OracleGames, game_level_generator_seed, libenv_options, load_library

import envpool_x
from conftest import ci_sample
from envpool_x import _core
from envpool_x.families import procgen as family

pytestmark = pytest.mark.skipif(
    not hasattr(_core, "Procgen"), reason="this build has no Procgen family"
)

INFO_KEYS = ("level_seed", "prev_level_seed", "prev_level_complete")


@pytest.fixture(scope="module")
def library():
    return load_library(family.data_dir() / "prebuilt" / "libenv.so")


def record_oracle(library, task: str, rand_seed: int, actions: np.ndarray, **kw) -> dict:
    """What each game of procgen's env of ``actions.shape[1]`` games made with
    ``rand_seed`` shows before the first step (row 0) and after each step of
    ``actions`` (steps x games): obs (channels first), reward, first and infos."""
    config = envpool_x.make_spec(task, **kw).env_config
    options = libenv_options(config, rand_seed, family.data_dir() / "assets")
    oracle = OracleGames(library, actions.shape[1], options)
    rows: dict[str, list[np.ndarray]] = {k: [] for k in ("obs", "reward", "first", *INFO_KEYS)}

    def keep() -> None:
        rows["obs"].append(oracle.obs.transpose(0, 3, 1, 2).copy())
        rows["reward"].append(oracle.reward.copy())
        rows["first"].append(oracle.first.copy())
        for key in INFO_KEYS:
            rows[key].append(oracle.info[key].copy())

    try:
        keep()
        for step_actions in actions:
            oracle.step(step_actions)
            keep()
    finally:
        oracle.close()
    return {k: np.stack(v) for k, v in rows.items()}


class PerEnvCheck:
    """Compares the rows a pool returns with the oracle's record, env by env.

    ``steps[j]``: the engine steps env j has made; ``after_end[j]``: its next
    row is the pool's reset after an episode end (next_step autoreset)."""

    def __init__(self, record: dict, actions: np.ndarray, same_step: bool) -> None:
        self.record, self.actions, self.same_step = record, actions, same_step
        num = actions.shape[1]
        self.steps = np.zeros(num, np.int64)
        self.after_end = np.zeros(num, bool)
        self.started = np.zeros(num, bool)
        self.episode_ends = 0

    def done(self) -> bool:
        return bool(np.all(self.steps >= len(self.actions)))

    def next_actions(self, ids: np.ndarray) -> np.ndarray:
        """Each env's action at its own step (0 once past the record)."""
        last = len(self.actions) - 1
        return np.array([self.actions[min(self.steps[j], last), j] for j in ids], np.int32)

    def rows(self, obs, reward, terminated, truncated, info) -> None:
        for k, j in enumerate(info["env_id"]):
            if self.steps[j] >= len(self.actions):
                continue  # past the record: stepped only to keep the batches full
            if not self.started[j] or self.after_end[j]:
                # A reset row: the game's frame at its current step.
                self.started[j], self.after_end[j] = True, False
                self.compare(j, k, obs, info, self.steps[j])
                continue
            self.steps[j] += 1
            t = self.steps[j]
            self.compare(j, k, obs, info, t)
            where = f"env {j} step {t}"
            assert reward[k] == self.record["reward"][t, j], where
            ended = bool(terminated[k] or truncated[k])
            assert ended == bool(self.record["first"][t, j]), where
            self.episode_ends += ended
            self.after_end[j] = ended and not self.same_step

    def compare(self, j: int, k: int, obs, info, t: int) -> None:
        where = f"env {j} step {t}"
        np.testing.assert_array_equal(obs[k], self.record["obs"][t, j], where)
        for key in INFO_KEYS:
            assert info[key][k] == self.record[key][t, j], (where, key)


def run_pool(env, check: PerEnvCheck, asynchronous: bool, seed=None) -> None:
    """Reset ``env`` (with ``seed`` if given) and step it until ``check`` is done."""
    if asynchronous:
        env.async_reset(seed=seed)
        while not check.done():
            obs, reward, terminated, truncated, info = env.recv()
            check.rows(obs, reward, terminated, truncated, info)
            env.send(check.next_actions(info["env_id"]), info["env_id"])
        return
    obs, info = env.reset(seed=seed)
    ids = info["env_id"]
    check.rows(obs, np.zeros(len(ids)), np.zeros(len(ids), bool), np.zeros(len(ids), bool), info)
    while not check.done():
        check.rows(*env.step(check.next_actions(ids)))


# (threads, asynchronous, autoreset_mode): the pool's ways of stepping.
RUNS = {
    "1 thread, sync": (1, False, "next_step"),
    "2 threads, async": (2, True, "next_step"),
    "2 threads, sync, same_step": (2, False, "same_step"),
}


@pytest.mark.parametrize("run", list(RUNS))
@pytest.mark.parametrize(
    "task", ci_sample(list(family.TASK_IDS), {"BigfishEasy-v0", "ChaserHard-v0"})
)
def test_envs_play_the_games_of_procgens_env(library, task, run):
    threads, asynchronous, mode = RUNS[run]
    num_envs, seed, steps = 3, 7, 200
    actions = np.random.default_rng(seed).integers(0, 15, (steps, num_envs)).astype(np.int32)
    record = record_oracle(library, task, seed, actions)
    env = envpool_x.make_gymnasium(
        task,
        num_envs=num_envs,
        batch_size=2 if asynchronous else num_envs,
        num_threads=threads,
        seed=seed,
        autoreset_mode=mode,
    )
    check = PerEnvCheck(record, actions, same_step=mode == "same_step")
    try:
        run_pool(env, check, asynchronous)
    finally:
        env.close()
    if task == "BigfishEasy-v0":
        assert check.episode_ends >= 2  # the comparison crossed episode ends


@pytest.mark.slow
def test_long_run_of_many_envs(library):
    num_envs, seed, steps = 8, 12345, 1500
    actions = np.random.default_rng(0).integers(0, 15, (steps, num_envs)).astype(np.int32)
    record = record_oracle(library, "CoinrunHard-v0", seed, actions)
    env = envpool_x.make_gymnasium(
        "CoinrunHard-v0", num_envs=num_envs, batch_size=3, num_threads=2, seed=seed
    )
    check = PerEnvCheck(record, actions, same_step=False)
    try:
        run_pool(env, check, asynchronous=True)
    finally:
        env.close()
    assert check.episode_ends >= num_envs


def test_reset_with_a_seed_plays_that_seeds_games(library):
    # reset(seed=X) gives env i game i of procgen's env made with rand_seed=X;
    # procgen's rand_seed is 32 bits, so 2**32 + 11 plays as 11.
    num_envs, steps = 3, 60
    actions = np.random.default_rng(1).integers(0, 15, (steps, num_envs)).astype(np.int32)
    record = record_oracle(library, "BigfishEasy-v0", 11, actions)
    env = envpool_x.make_gymnasium("BigfishEasy-v0", num_envs=num_envs, seed=3)
    try:
        for seed in (11, 2**32 + 11):
            env.reset()
            env.step(np.zeros(num_envs, np.int64))
            run_pool(env, PerEnvCheck(record, actions, same_step=False), False, seed=seed)
    finally:
        env.close()


def test_an_envs_own_seed_plays_its_game(library):
    # Env 1 reseeded with the seed a pool seeded with 11 gives env 1 plays game 1
    # of procgen's env made with rand_seed=11; the other envs keep their levels.
    actions = np.zeros((1, 3), np.int32)
    record = record_oracle(library, "MazeEasy-v0", 11, actions)
    env = envpool_x.make_gymnasium("MazeEasy-v0", num_envs=3, seed=3)
    try:
        _, before = env.reset()
        obs, info = env.reset(env_id=[1], seed=[_core.derive_env_seed(11, 1)])
        np.testing.assert_array_equal(obs[0], record["obs"][0, 1])
        assert info["level_seed"][0] == record["level_seed"][0, 1]
        obs, _, _, _, info = env.step(np.zeros(3, np.int64))
        np.testing.assert_array_equal(obs[1], record["obs"][1, 1])
        assert info["level_seed"][0] == before["level_seed"][0]
    finally:
        env.close()


def test_a_reset_mid_episode_starts_the_next_level(library):
    # As procgen's forced reset (action -1) does, and play goes on from there.
    num_envs, seed = 2, 5
    actions = np.random.default_rng(2).integers(0, 15, (12, num_envs)).astype(np.int32)
    actions[4] = -1
    record = record_oracle(library, "StarpilotEasy-v0", seed, actions)
    assert not record["first"][1:5].any()  # the 4 steps before stay in the first level
    env = envpool_x.make_gymnasium("StarpilotEasy-v0", num_envs=num_envs, seed=seed)
    try:
        env.reset()
        for t in range(4):
            env.step(actions[t])
        obs, info = env.reset()
        for key in INFO_KEYS:
            np.testing.assert_array_equal(info[key], record[key][5], key)
        np.testing.assert_array_equal(obs, record["obs"][5])
        assert not np.array_equal(record["level_seed"][5], record["level_seed"][4])
        for t in range(5, 12):
            obs, reward, _, _, info = env.step(actions[t])
            np.testing.assert_array_equal(obs, record["obs"][t + 1], f"step {t}")
            np.testing.assert_array_equal(reward, record["reward"][t + 1], f"step {t}")
    finally:
        env.close()


def test_generated_assets_play_the_seed_of_each_games_levels(library):
    # procgen saves no game with generated assets, so env i is game 0 of procgen's
    # env made with rand_seed = the seed of game i's level generator.
    num_envs, seed, steps = 2, 9, 150
    actions = np.random.default_rng(3).integers(0, 15, (steps, num_envs)).astype(np.int32)
    games = [
        record_oracle(
            library,
            "BigfishEasy-v0",
            game_level_generator_seed(seed, i),
            actions[:, i : i + 1],
            use_generated_assets=True,
        )
        for i in range(num_envs)
    ]
    record = {k: np.concatenate([g[k] for g in games], axis=1) for k in games[0]}
    env = envpool_x.make_gymnasium(
        "BigfishEasy-v0", num_envs=num_envs, seed=seed, use_generated_assets=True
    )
    check = PerEnvCheck(record, actions, same_step=False)
    try:
        run_pool(env, check, asynchronous=False)
    finally:
        env.close()
