"""What EnvPool's own test files found when run against envpool_x (issue 50;
docs/differences.md, "EnvPool's test files"; scripts/envpool_tests.py runs them):
the fixes, and the alignment recipes of EnvPool's tests that work here."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

import envpool_x
import envpool_x as envpool
from envpool_x.families import atari

#: EnvPool 1.2.7's ``envpool.__all__``, in its order (make_test.py checks the order).
ENVPOOL_ALL = [
    "register",
    "make",
    "make_dm",
    "make_gym",
    "make_gymnasium",
    "make_spec",
    "list_all_envs",
    "EnvSpec",
    "EnvPool",
    "DMEnvPool",
    "GymnasiumEnvPool",
]


def test_all_starts_with_envpools_names_in_its_order():
    assert envpool_x.__all__[: len(ENVPOOL_ALL)] == ENVPOOL_ALL
    assert len(set(envpool_x.__all__)) == len(envpool_x.__all__)
    for name in envpool_x.__all__:
        assert hasattr(envpool_x, name), name


def test_array_spec_shapes_equal_envpools_lists():
    """EnvPool's ArraySpec shapes are lists (atari_envpool_test: ``== [128]`` for
    Pong's ``info:ram``); ours are tuples that equal the list too."""
    obs = envpool.make_spec("CartPole-v1").state_array_spec["obs"]
    assert obs.shape == [4] and [4] == obs.shape and obs.shape == (4,)
    assert obs.shape != [5] and not (obs.shape != [4]) and obs.shape != "(4,)"
    assert hash(obs.shape) == hash((4,)) and isinstance(obs.shape, tuple)
    assert repr(obs.shape) == "(4,)"
    action = envpool.make_spec("Ant-v5").action_array_spec["action"]
    assert action.shape == [-1, 8] and action.shape == (-1, 8)
    if atari.has_atari() and importlib.util.find_spec("ale_py"):
        ram = envpool.make_spec("Pong-v5").state_array_spec["info:ram"]
        assert ram.shape == [128]


@pytest.mark.skipif(not atari.has_atari(), reason="built without the Atari family")
def test_envpools_atari_spelling_is_an_alias():
    """EnvPool names ROM ``tic_tac_toe_3d`` ``TicTacToe3d-v5`` (atari_render_test
    builds its ids so); ale-py and envpool_x ``TicTacToe3D-v5``."""
    assert atari.envpool_task_name("tic_tac_toe_3d") == "TicTacToe3d"
    assert atari.envpool_task_name("montezuma_revenge") == "MontezumaRevenge"
    spec = envpool.make_spec("TicTacToe3d-v5")
    assert spec.id == "TicTacToe3d-v5" and spec.config.task == "tic_tac_toe_3d"
    assert spec.max_episode_steps == envpool.make_spec("TicTacToe3D-v5").max_episode_steps
    assert "TicTacToe3d-v5" not in envpool.list_all_envs()  # an alias, not listed twice
    pytest.importorskip("ale_py", reason="the ROMs come from ale-py")
    env = envpool.make_gymnasium("TicTacToe3d-v5", num_envs=2)
    obs, _ = env.reset()
    assert obs.shape == (2, 4, 84, 84)
    env.step(np.zeros(2, np.int32))
    env.close()


@pytest.mark.skipif(not atari.has_atari(), reason="built without the Atari family")
@pytest.mark.parametrize("task", atari.MULTI_PLAYER_TASK_IDS)
def test_envpools_multi_player_games_say_why_not(task):
    """make_test expects EnvPool's four multi-player games to be refused; ours says
    why (docs/differences.md: not yet), as a KeyError."""
    from envpool_x.registration import TaskNotPortedError

    with pytest.raises(TaskNotPortedError, match="multi-player game") as info:
        envpool.make_gym(task)
    assert isinstance(info.value, KeyError) and task not in envpool.list_all_envs()


def test_blackjack_random_policy_returns():
    """toy_text_test's statistics of a random Blackjack policy (mean -0.395, std
    0.89, over about 1000 episodes), after the reset it skips (docs/usage.md)."""
    rng = np.random.default_rng(0)
    env = envpool.make_gymnasium("Blackjack-v1", num_envs=100, seed=0)
    env.reset()
    total, returns = np.zeros(100), []
    for _ in range(1000):
        _, rew, term, trunc, _ = env.step(rng.integers(2, size=100))
        done = term | trunc
        total += rew
        returns += total[done].tolist()
        total[done] = 0
    env.close()
    assert len(returns) > 10000
    assert abs(np.mean(returns) + 0.395) < 0.05
    assert abs(np.std(returns) - 0.89) < 0.05


def _dmc_recipe(domain: str, task: str, task_id: str, steps: int, cast) -> float:  # type: ignore[no-untyped-def]
    """mujoco_dmc_suite_align_test's recipe: dm_control's env reset to our
    ``qpos0`` inside ``reset_context``, then both stepped with the same actions;
    the largest observation or reward difference."""
    from dm_control import suite

    ref = suite.load(domain, task)
    env = envpool.make_dm(task_id, initial_state_info=True)
    ref.reset()
    ts = env.reset(np.array([0]))
    with ref.physics.reset_context():
        ref.physics.data.qpos[:] = ts.observation.qpos0[0]
    spec = ref.action_spec()
    rng = np.random.default_rng(0)
    worst = 0.0
    for _ in range(steps):
        a = cast(rng.uniform(spec.minimum, spec.maximum, spec.shape))
        ts0 = ref.step(a)
        ts1 = env.step(np.array([a]), np.array([0]))
        for key, value in ts0.observation.items():
            worst = max(worst, float(np.abs(value - getattr(ts1.observation, key)[0]).max()))
        worst = max(worst, abs(float(ts0.reward) - float(np.float32(ts1.reward[0]))))
    env.close()
    return worst


@pytest.mark.parametrize(
    "domain, task, task_id",
    [
        ("acrobot", "swingup", "AcrobotSwingup-v1"),
        ("walker", "walk", "WalkerWalk-v1"),
        ("hopper", "hop", "HopperHop-v1"),
        ("finger", "spin", "FingerSpin-v1"),
    ],
)
def test_dmc_qpos0_recipe_aligns_with_float32_actions(domain, task, task_id):
    """EnvPool's recipe holds here bit for bit when the actions are float32 (our
    action dtype, docs/dmc.md). With float64 actions dm_control steps the
    unrounded action and the rollouts drift apart (by ~1e-6 within a few hundred
    steps): the difference mujoco_dmc_suite_align_test meets."""
    pytest.importorskip("dm_control")

    def to_float32(a):  # type: ignore[no-untyped-def]
        return a.astype(np.float32).astype(np.float64)

    assert _dmc_recipe(domain, task, task_id, 200, to_float32) <= 6e-8  # reward: float32 rounding
    assert _dmc_recipe(domain, task, task_id, 5, lambda a: a) > 0


def test_dmc_cheetah_qpos0_is_after_the_settling_steps():
    """CheetahRun's qpos0 / qvel0 are the state after dm_control's 200 settling steps
    (docs/dmc.md: "after the reset"); EnvPool's qpos0 is the state before them, and
    its align test replays the 200 steps, which here start from a settled body."""
    pytest.importorskip("dm_control")
    from dm_control import suite

    ref = suite.load("cheetah", "run")
    env = envpool.make_dm("CheetahRun-v1", initial_state_info=True)
    ref.reset()
    ts = env.reset(np.array([0]))
    with ref.physics.reset_context():
        ref.physics.data.qpos[:] = ts.observation.qpos0[0]
        ref.physics.data.qvel[:] = ts.observation.qvel0[0]
    rng = np.random.default_rng(0)
    for _ in range(50):
        a = rng.uniform(-1, 1, 6).astype(np.float32).astype(np.float64)
        o0 = ref.step(a).observation
        o1 = env.step(np.array([a]), np.array([0])).observation
        np.testing.assert_allclose(o0["position"], o1.position[0], atol=1e-10)
        np.testing.assert_allclose(o0["velocity"], o1.velocity[0], atol=1e-10)
    env.close()


@pytest.mark.parametrize("task", ["Hopper-v5", "HalfCheetah-v4"])
def test_mujoco_qpos0_recipe_aligns(task):
    """mujoco_gym_align_test's recipe (gymnasium's env ``mj_resetData`` then
    ``set_state(qpos0, qvel0)``) with its tolerances."""
    import gymnasium as gym

    mujoco = pytest.importorskip("mujoco", reason="gymnasium's MuJoCo envs need mujoco")

    ref = gym.make(task)
    env = envpool.make_gymnasium(task, num_envs=1, initial_state_info=True)
    ref.reset(seed=0)
    _, info = env.reset(np.array([0]))
    base = ref.unwrapped
    mujoco.mj_resetData(base.model, base.data)
    base.set_state(info["qpos0"][0], info["qvel0"][0])
    ref.action_space.seed(0)
    for _ in range(200):
        a = ref.action_space.sample()
        o0, r0, term0, _, _ = ref.step(a)
        o1, r1, term1, _, _ = env.step(np.array([a]), np.array([0]))
        np.testing.assert_allclose(o0, o1[0], atol=1e-6, rtol=1e-7)
        np.testing.assert_allclose(r0, r1[0], atol=5e-7, rtol=1e-7)
        assert term0 == term1[0]
        if term0:
            break
    env.close()
