"""Procgen against procgen's own engine, driven directly (tests/oracles/procgen_libenv.py).

Env 0 of a pool seeded with S is game 0 of procgen's env made with rand_seed=S
(tests/families/test_procgen_seeds.py checks the other envs). The oracle is
that game, made and stepped by the same libenv.so through its C API with none
of our code; observations, rewards, episode ends and level seeds must be equal
at every step of whole episodes of random actions. Procgen starts the next
level inside the step that ends an episode; our pool's autoreset step after it
repeats that frame and ignores its action, and is skipped in the comparison.
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


@pytest.fixture(scope="module")
def library():
    return load_library(family.data_dir() / "prebuilt" / "libenv.so")


def oracle_options(config: dict, rand_seed: int) -> dict:
    """procgen's libenv options for an env config and ``rand_seed``."""
    return libenv_options(config, rand_seed, family.data_dir() / "assets")


def compare_with_oracle(
    library, task: str, seed: int, steps: int, rand_seed: int | None = None, **kw
) -> int:
    """Step env 0 of ``task`` and its oracle game, made with ``rand_seed`` (the
    pool's seed when None); return the episodes seen."""
    env = envpool_x.make_gymnasium(task, num_envs=1, seed=seed, **kw)
    obs, info = env.reset()
    config = envpool_x.make_spec(task, **kw).env_config
    oracle = OracleGames(
        library, 1, oracle_options(config, seed if rand_seed is None else rand_seed)
    )
    rng = np.random.default_rng(seed)
    episodes, after_end = 0, False
    try:
        np.testing.assert_array_equal(obs[0], oracle.obs[0].transpose(2, 0, 1))
        assert info["level_seed"][0] == oracle.info["level_seed"][0]
        for t in range(steps):
            action = rng.integers(0, 15, size=1)
            obs, reward, terminated, truncated, info = env.step(action)
            if after_end:  # the pool's reset: procgen already started the level
                np.testing.assert_array_equal(obs[0], oracle.obs[0].transpose(2, 0, 1))
                after_end = False
                continue
            oracle.step(action)
            where = f"{task} seed {seed} step {t}"
            np.testing.assert_array_equal(obs[0], oracle.obs[0].transpose(2, 0, 1), where)
            assert reward[0] == oracle.reward[0], where
            assert bool(terminated[0] or truncated[0]) == bool(oracle.first[0]), where
            for key in ("level_seed", "prev_level_seed", "prev_level_complete"):
                assert info[key][0] == oracle.info[key][0], (where, key)
            after_end = bool(oracle.first[0])
            episodes += after_end
    finally:
        oracle.close()
        env.close()
    return episodes


@pytest.mark.parametrize(
    "task",
    ci_sample(
        list(family.TASK_IDS),
        {"CoinrunHard-v0", "BigfishEasy-v0", "StarpilotEasy-v0", "HeistMemory-v0"},
    ),
)
def test_matches_procgen_engine(library, task):
    steps = 600 if task in {"CoinrunHard-v0", "BigfishEasy-v0"} else 300
    episodes = compare_with_oracle(library, task, seed=3, steps=steps)
    if task == "BigfishEasy-v0":
        assert episodes >= 2  # the comparison crossed episode ends


def test_options_reach_the_engine(library):
    # Non-default options, the level range and channels-last: still procgen's frames.
    kw = dict(
        num_levels=3,
        start_level=50,
        use_sequential_levels=True,
        center_agent=False,
        use_backgrounds=False,
        use_monochrome_assets=True,
        paint_vel_info=True,
        restrict_themes=True,
        use_easy_jump=True,
    )
    compare_with_oracle(library, "CoinrunEasy-v0", seed=11, steps=300, **kw)
    # procgen saves no game with generated assets: env 0 is then game 0 of
    # procgen's env made with rand_seed = the seed of game 0's level generator.
    rand_seed = game_level_generator_seed(11, 0)
    kw["use_generated_assets"] = True
    compare_with_oracle(library, "CoinrunEasy-v0", seed=11, steps=300, rand_seed=rand_seed, **kw)
    env = envpool_x.make_gymnasium(
        "CoinrunEasy-v0", num_envs=2, seed=1, channel_first=False, num_levels=3, start_level=50
    )
    obs, info = env.reset()
    assert obs.shape == (2, 64, 64, 3)
    assert all(50 <= s < 53 for s in info["level_seed"])
    env.close()


def test_exploration_mode_plays_its_one_level():
    env = envpool_x.make_gymnasium("CoinrunExploration-v0", num_envs=2, seed=0)
    _, info = env.reset()
    seeds = set(info["level_seed"].tolist())
    for _ in range(50):
        _, _, _, _, info = env.step(np.zeros(2, np.int64))
        seeds |= set(info["level_seed"].tolist())
    assert seeds == {family.EXPLORATION_LEVEL_SEEDS["coinrun"]}
    assert (
        envpool_x.make_spec("CoinrunExploration-v0").env_config["distribution_mode"] == 1
    )  # hard mode, as in procgen
    env.close()
    with pytest.raises(ValueError, match="exploration mode plays one fixed level"):
        envpool_x.make_gymnasium("CoinrunExploration-v0", num_levels=5)


def test_same_trajectories_whatever_the_threads():
    runs = []
    for threads in (1, 2):
        env = envpool_x.make_gymnasium("StarpilotEasy-v0", num_envs=4, seed=5, num_threads=threads)
        frames = [env.reset()[0]]
        rng = np.random.default_rng(0)
        for _ in range(40):
            frames.append(env.step(rng.integers(0, 15, 4))[0])
        runs.append(np.stack(frames))
        env.close()
    np.testing.assert_array_equal(runs[0], runs[1])
    assert not np.array_equal(runs[0][:, 0], runs[0][:, 1])  # envs differ


def test_registers_envpools_ids():
    assert len(family.TASK_IDS) == 50
    assert set(family.TASK_IDS) <= set(envpool_x.list_all_envs())
    spec = envpool_x.make_spec("BigfishHard-v0")
    assert spec.observation_space.shape == (3, 64, 64)
    assert spec.action_space.n == 15
    assert spec.config.max_episode_steps == 6000


@pytest.mark.parametrize("action", [15, -1])
def test_action_out_of_range(action):
    env = envpool_x.make_gymnasium("CoinrunHard-v0", num_envs=1)
    env.reset()
    with pytest.raises(ValueError, match="action"):
        env.step(np.array([action]))
    env.close()


@pytest.mark.parametrize(
    ("kw", "error", "match"),
    [
        ({"no_such_option": 1}, KeyError, "no_such_option"),
        ({"distribution_mode": "easy"}, ValueError, "contradicts the task id"),
        ({"distribution_mode": "medium"}, ValueError, "not one of"),
        ({"num_levels": -1}, ValueError, "num_levels"),
        ({"start_level": 2**31}, ValueError, "start_level"),
        ({"env_name": "maze"}, ValueError, "contradicts the task id"),
    ],
)
def test_bad_options(kw, error, match):
    with pytest.raises(error, match=match):
        envpool_x.make_gymnasium("CoinrunHard-v0", **kw)


def test_missing_library(monkeypatch, tmp_path):
    with pytest.raises(RuntimeError, match="cannot load procgen's library .*nowhere"):
        envpool_x.make_gymnasium("CoinrunHard-v0", library_path=str(tmp_path / "nowhere.so"))
    monkeypatch.setenv(family.DATA_DIR_VARIABLE, str(tmp_path))
    monkeypatch.setattr(family, "__file__", str(tmp_path / "families" / "procgen.py"))
    monkeypatch.setattr(_core, "procgen_build_dir", str(tmp_path))
    with pytest.raises(FileNotFoundError, match="procgen's library .* was not found"):
        envpool_x.make_gymnasium("CoinrunHard-v0")


def test_render_is_procgens_human_view(library):
    env = envpool_x.make_gymnasium("MazeEasy-v0", num_envs=1, seed=2, render_mode="rgb_array")
    env.reset()
    options = oracle_options(envpool_x.make_spec("MazeEasy-v0").env_config, 2)
    oracle = OracleGames(library, 1, {**options, "render_human": True})
    rng = np.random.default_rng(0)
    try:
        for _ in range(5):
            action = rng.integers(0, 15, size=1)
            env.step(action)
            oracle.step(action)
        frame = env.render()
        assert frame.shape[-3:] == (512, 512, 3)
        np.testing.assert_array_equal(frame.reshape(512, 512, 3), oracle.info["rgb"][0])
        assert frame.std() > 0
    finally:
        oracle.close()
        env.close()


def test_step_limit_is_a_truncation():
    # Maze's agent standing still (button 4: no move) never reaches the cheese:
    # procgen ends the episode at the game's 500-step limit.
    env = envpool_x.make_gymnasium("MazeEasy-v0", num_envs=1, seed=0)
    env.reset()
    for t in range(1, 501):
        _, _, terminated, truncated, info = env.step(np.array([4]))
        if t < 500:
            assert not (terminated[0] or truncated[0]), t
    assert truncated[0] and not terminated[0]
    # The pool's reset after it keeps the level procgen started in that step.
    level = info["level_seed"][0]
    obs, _, _, _, info = env.step(np.array([4]))
    assert info["level_seed"][0] == level and info["elapsed_step"][0] == 0
    env.close()


def test_shorter_time_limit_starts_the_next_level():
    env = envpool_x.make_gymnasium("MazeEasy-v0", num_envs=1, seed=0, max_episode_steps=10)
    _, info = env.reset()
    first_level = info["level_seed"][0]
    for _ in range(10):
        _, _, terminated, truncated, _ = env.step(np.array([4]))
    assert truncated[0] and not terminated[0]
    _, _, _, _, info = env.step(np.array([4]))  # the reset: the next level of the stream
    assert info["level_seed"][0] != first_level
    env.close()


def test_async_and_same_step_autoreset():
    env = envpool_x.make_gymnasium(
        "BigfishEasy-v0", num_envs=4, batch_size=2, seed=0, autoreset_mode="same_step"
    )
    env.async_reset()
    rng = np.random.default_rng(0)
    ends = 0
    for _ in range(300):
        obs, _, terminated, truncated, info = env.recv()
        assert obs.shape == (2, 3, 64, 64)
        ends += int(np.sum(terminated | truncated))
        env.send(rng.integers(0, 15, 2), info["env_id"])
    assert ends > 0
    env.close()


def test_bad_resource_root(tmp_path):
    # procgen ends the process on a missing sprite: the root is checked first.
    with pytest.raises(ValueError, match="is not procgen's assets folder"):
        envpool_x.make_gymnasium("CoinrunHard-v0", resource_root=str(tmp_path))
    copy = tmp_path / "assets"
    for folder in family.SPRITE_FOLDERS:
        (copy / folder).mkdir(parents=True)
    envpool_x.make_spec("CoinrunHard-v0")  # the process's root is the installed one
    with pytest.raises(ValueError, match="already uses procgen's sprites"):
        envpool_x.make_gymnasium("CoinrunHard-v0", resource_root=str(copy))
