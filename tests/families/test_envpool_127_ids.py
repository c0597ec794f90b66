"""The ids EnvPool 1.2.7 registers in classic control, toy text and MiniGrid that
envpool_x added for it (docs/classic_control.md, docs/toy_text.md, docs/minigrid.md):
``Pendulum-v0``, the aliases of gymnasium's functional ids (``phys2d/...``,
``tabular/...``), each stepped against gymnasium 1.4's own env from the same
state, and the MiniGrid WFC ids' "not ported" error."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import envpool_x
from envpool_x.registration import TaskNotPortedError, aliases

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

#: id -> (the registered id it is, its time limit).
NEW_IDS = {
    "Pendulum-v0": ("Pendulum-v0", 200),
    "phys2d/CartPole-v0": ("CartPole-v0", 200),
    "phys2d/CartPole-v1": ("CartPole-v1", 500),
    "phys2d/Pendulum-v0": ("Pendulum-v0", 200),
    "tabular/CliffWalking-v0": ("CliffWalking-v1", 2**31 - 1),
    "tabular/Blackjack-v0": ("Blackjack-v1", 2**31 - 1),
    "Taxi-v4": ("Taxi-v4", 200),
}
WFC_IDS = [
    f"MiniGrid-WFC-{name}-v0"
    for name in (
        "MazeSimple",
        "DungeonMazeScaled",
        "RoomsFabric",
        "ObstaclesBlackdots",
        "ObstaclesAngular",
        "ObstaclesHogs3",
    )
]


@pytest.mark.parametrize("task", NEW_IDS)
def test_make_spec_and_make(task):
    target, steps = NEW_IDS[task]
    spec = envpool_x.make_spec(task)
    assert spec.id == task
    assert spec.max_episode_steps == steps
    assert spec.entry.task_id == target
    assert spec.observation_space == envpool_x.make_spec(target).observation_space
    env = envpool_x.make_gymnasium(task, num_envs=2)
    env.reset()
    env.step(np.array([env.single_action_space.sample()] * 2))
    env.close()


def test_aliases_are_named_but_not_listed():
    listed = set(envpool_x.list_all_envs())
    assert "Pendulum-v0" in listed and "Taxi-v4" in listed
    assert {a: t for a, t in aliases().items() if a in NEW_IDS} == {
        a: t for a, (t, _) in NEW_IDS.items() if "/" in a
    }
    assert not listed & set(aliases())
    assert not listed & set(WFC_IDS)
    # gymnasium's registry holds the listed ids only ('envpool_x/phys2d/...' is no id).
    assert "envpool_x/Pendulum-v0" in gym.registry
    assert not [k for k in gym.registry if k.startswith("envpool_x/") and k.count("/") > 1]


@pytest.mark.parametrize("task", WFC_IDS)
def test_wfc_ids_say_why_not(task):
    for make in (envpool_x.make_spec, envpool_x.make_gymnasium, envpool_x.make_dm):
        with pytest.raises(TaskNotPortedError) as info:
            make(task)
        assert isinstance(info.value, KeyError) and isinstance(info.value, NotImplementedError)
        message = str(info.value)
        assert "wave function collapse" in message and "docs/minigrid.md" in message
        assert "did you mean" not in message and "unknown task id" not in message


# ---- classic control ------------------------------------------------------------


def _pendulum_action(rng):
    return rng.uniform(-2.5, 2.5, size=(1,)).astype(np.float32)  # some beyond the bound


@pytest.mark.parametrize("task", ["Pendulum-v0", "phys2d/Pendulum-v0"])
def test_pendulum_matches_gymnasium_pendulum_v1(task):
    """EnvPool 1.2.7's Pendulum-v0 is its Pendulum-v1; ours is gymnasium 1.4's
    Pendulum-v1 bit for bit, from the same state, for whole episodes."""
    ours = envpool_x.make_gymnasium(task, num_envs=1)
    theirs = gym.make("Pendulum-v1", disable_env_checker=True)
    rng = np.random.default_rng(1)
    for episode in range(3):
        ours.reset()
        theirs.reset(seed=episode)
        ours._pool.set_state(0, np.asarray(theirs.unwrapped.state, dtype=np.float64))
        for step in range(200):
            action = _pendulum_action(rng)
            obs, rew, term, trunc, _ = ours.step(action[None])
            g_obs, g_rew, g_term, g_trunc, _ = theirs.step(action)
            np.testing.assert_allclose(obs[0], g_obs, atol=1e-6, err_msg=f"step {step}")
            assert rew[0] == pytest.approx(g_rew, abs=1e-5)
            assert (bool(term[0]), bool(trunc[0])) == (g_term, g_trunc)
        assert g_trunc  # the 200-step limit ended the episode in both


def test_pendulum_matches_gymnasiums_functional_pendulum():
    """gymnasium's phys2d/Pendulum-v0 (jax, float32 state) has Pendulum-v1's
    dynamics: each step from its state agrees with ours to float32 precision."""
    pytest.importorskip("jax")
    import jax.numpy as jnp

    ours = envpool_x.make_gymnasium("phys2d/Pendulum-v0", num_envs=1)
    theirs = gym.make("phys2d/Pendulum-v0")
    rng = np.random.default_rng(2)
    ours.reset()
    theirs.reset(seed=0)
    for step in range(200):
        state = np.asarray(theirs.unwrapped.state, dtype=np.float64)
        ours._pool.set_state(0, state)
        action = _pendulum_action(rng)
        obs, rew, term, trunc, _ = ours.step(action[None])
        g_obs, g_rew, g_term, g_trunc, _ = theirs.step(jnp.asarray(action))
        np.testing.assert_allclose(obs[0], np.asarray(g_obs), atol=2e-5, err_msg=f"step {step}")
        assert rew[0] == pytest.approx(float(g_rew), abs=1e-4)
        assert (bool(term[0]), bool(trunc[0])) == (bool(g_term), bool(g_trunc))


@pytest.mark.parametrize("task, gym_id", [("phys2d/CartPole-v1", "CartPole-v1"),
                                          ("phys2d/CartPole-v0", "CartPole-v0")])  # fmt: skip
def test_phys2d_cartpole_is_cartpole(task, gym_id):
    """EnvPool's phys2d/CartPole ids are its CartPole ids: gymnasium's CartPole,
    bit for bit from the same state, whole episodes to termination or truncation."""
    ours = envpool_x.make_gymnasium(task, num_envs=1)
    theirs = gym.make(gym_id, disable_env_checker=True)
    rng = np.random.default_rng(3)
    for episode in range(4):
        ours.reset()
        theirs.reset(seed=episode)
        ours._pool.set_state(0, np.asarray(theirs.unwrapped.state, dtype=np.float64))
        balance = episode % 2 == 0  # a controller (truncation) or random actions
        state = theirs.unwrapped.state
        for _ in range(600):
            action = int(3 * state[2] + state[3] > 0) if balance else int(rng.integers(2))
            obs, rew, term, trunc, _ = ours.step(np.array([action]))
            state, g_rew, g_term, g_trunc, _ = theirs.step(action)
            np.testing.assert_allclose(obs[0], state, atol=1e-6)
            assert (rew[0], bool(term[0]), bool(trunc[0])) == (g_rew, g_term, g_trunc)
            if g_term or g_trunc:
                break
        assert g_term or g_trunc


def test_gymnasiums_functional_cartpole_is_another_pole():
    """gymnasium's own phys2d/CartPole differs from CartPole (and from EnvPool's
    alias): its polemass_length is masspole + length (0.6), not masspole * length
    (0.05). With that one constant set to CartPole's, it steps as ours does."""
    pytest.importorskip("jax")
    from gymnasium.envs.phys2d.cartpole import CartPoleFunctional, CartPoleParams

    func = CartPoleFunctional()
    ours = envpool_x.make_gymnasium("phys2d/CartPole-v1", num_envs=1)
    ours.reset()
    state = np.array([0.01, 0.2, 0.03, -0.3])
    ours._pool.set_state(0, state)
    obs = ours.step(np.array([1]))[0][0]
    theirs = np.asarray(func.transition(state.astype(np.float32), 1, params=CartPoleParams()))
    assert np.abs(theirs - obs).max() > 1e-3
    fixed = CartPoleParams(polemass_length=0.1 * 0.5)
    np.testing.assert_allclose(
        np.asarray(func.transition(state.astype(np.float32), 1, params=fixed)), obs, atol=1e-6
    )


# ---- toy text ---------------------------------------------------------------------


def test_tabular_cliffwalking_matches_gymnasiums_functional_env():
    """gymnasium's tabular/CliffWalking-v0 has CliffWalking-v1's rules (-1 a
    step, -100 and back to the start at the cliff, the goal terminates) in a
    Box((1,), int32) observation; ours is CliffWalking-v1's Discrete(48)."""
    pytest.importorskip("jax")
    ours = envpool_x.make_gymnasium("tabular/CliffWalking-v0", num_envs=1)
    theirs = gym.make("tabular/CliffWalking-v0")
    rng = np.random.default_rng(4)
    episodes = 0
    obs, _ = ours.reset()
    g_obs, _ = theirs.reset(seed=0)
    for _ in range(3000):
        assert int(obs[0]) == int(np.asarray(g_obs)[0])
        # Mostly right and up, so that episodes reach the goal (and the cliff).
        action = int(rng.choice(4, p=[0.3, 0.4, 0.2, 0.1]))
        obs, rew, term, trunc, _ = ours.step(np.array([action]))
        g_obs, g_rew, g_term, g_trunc, _ = theirs.step(np.array([action], dtype=np.int32))
        assert (float(rew[0]), bool(term[0])) == (float(g_rew), bool(g_term))
        assert not trunc[0] and not g_trunc
        if g_term:
            episodes += 1
            obs, _ = ours.reset()
            g_obs, _ = theirs.reset()
    assert episodes >= 3


def test_tabular_blackjack_matches_gymnasiums_functional_env():
    """gymnasium's tabular/Blackjack-v0 plays Blackjack-v1's rules (sab=True):
    from its deal, ours gives the same observation; sticking against its dealer's
    final hand gives the same reward; hitting to a bust loses in both."""
    pytest.importorskip("jax")
    ours = envpool_x.make_gymnasium("tabular/Blackjack-v0", num_envs=1)
    theirs = gym.make("tabular/Blackjack-v0")
    rewards = set()
    for seed in range(60):
        g_obs, _ = theirs.reset(seed=seed)
        ours.reset()
        start = theirs.unwrapped.state
        player = [int(c) for c in np.asarray(start.player_hand) if c]
        action = seed % 3 == 0  # hit (to a bust or not), else stick
        g_obs2, g_rew, g_term, _, _ = theirs.step(int(action))
        end = theirs.unwrapped.state
        if action:
            # The card gymnasium drew is given to ours as the hand before the hit;
            # then compare the hand's observation and a stick or bust from there.
            player = [int(c) for c in np.asarray(end.player_hand) if c]
        dealer = [int(c) for c in np.asarray(end.dealer_hand) if c]
        dealer_start = [int(c) for c in np.asarray(start.dealer_hand) if c]
        hands = np.array([len(player), *player, *(dealer if not action else dealer_start)])
        ours._pool.set_state(0, hands.astype(np.float64))
        obs = ours.step(np.array([0]))  # sticking; its dealer draws only below 17
        if not action:
            assert [int(o[0]) for o in obs[0]] == [int(v) for v in np.asarray(g_obs2)]
            assert (float(obs[1][0]), bool(obs[2][0])) == (float(g_rew), bool(g_term))
            rewards.add(float(g_rew))
        elif float(g_rew) == -1.0 and g_term:  # gymnasium's hit busted: so is ours
            assert sum(player) > 21
            assert float(obs[1][0]) == -1.0
    assert {-1.0, 1.0} <= rewards


# ---- against EnvPool ------------------------------------------------------------


@pytest.mark.filterwarnings("ignore:.*precision lowered:UserWarning")
@pytest.mark.parametrize("task", [t for t in NEW_IDS if t != "Taxi-v4"])
def test_spaces_agree_with_envpool(task):
    """EnvPool 1.2.5 has these ids too (1.2.7 as well); the spaces agree, with
    the documented exceptions (docs/differences.md): Discrete observations are
    int64 here, and Blackjack's is gymnasium's Tuple where EnvPool has (3,) int32."""
    envpool = pytest.importorskip("envpool")
    theirs = envpool.make_spec(task)
    ours = envpool_x.make_spec(task)
    t_obs, o_obs = theirs.observation_space, ours.observation_space
    if task == "tabular/Blackjack-v0":
        assert [s.n for s in o_obs.spaces] == [32, 11, 2]
        assert t_obs.shape == (3,)
    elif isinstance(o_obs, gym.spaces.Discrete):
        assert (o_obs.n, o_obs.start) == (t_obs.n, t_obs.start)
    else:
        assert (o_obs.shape, o_obs.dtype) == (t_obs.shape, t_obs.dtype)
        np.testing.assert_allclose(o_obs.low, t_obs.low, rtol=1e-6)
        np.testing.assert_allclose(o_obs.high, t_obs.high, rtol=1e-6)
    t_act, o_act = theirs.action_space, ours.action_space
    assert type(o_act) is type(t_act) and o_act.shape == t_act.shape
    if isinstance(o_act, gym.spaces.Discrete):
        assert o_act.n == t_act.n
    else:
        np.testing.assert_allclose(o_act.low, t_act.low)
        np.testing.assert_allclose(o_act.high, t_act.high)
    assert ours.max_episode_steps == theirs.config.max_episode_steps
