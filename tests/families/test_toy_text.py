"""Toy text: FrozenLake, Taxi, CliffWalking, Blackjack against gymnasium 1.4.0;
Catch and NChain against EnvPool's definitions (and EnvPool itself where the
outcome is deterministic).

Our envs draw from their own counter-based streams, so a trajectory cannot be
compared with gymnasium's draw for draw. Instead every transition we take must
be one that gymnasium's transition table (``env.unwrapped.P``) lists with a
positive probability, with the same reward, termination and ``info["prob"]``;
the slip frequencies must match the table's probabilities; and Blackjack is
compared from identical card sequences.
"""

from __future__ import annotations

import collections
import math

import dm_env
import gymnasium as gym
import numpy as np
import pytest

import envpool_x
from conftest import rollout

GRID_TASKS = [
    # (our task, our kwargs, gymnasium id, gymnasium kwargs)
    ("FrozenLake-v1", {}, "FrozenLake-v1", {}),
    ("FrozenLake-v1", {"is_slippery": False}, "FrozenLake-v1", {"is_slippery": False}),
    ("FrozenLake8x8-v1", {}, "FrozenLake8x8-v1", {}),
    (
        "FrozenLake-v1",
        {
            "desc": ["SFFHS", "FHFFF", "FFFHG"],
            "success_rate": 0.6,
            "reward_schedule": (2.5, -1.0, -0.25),
        },
        "FrozenLake-v1",
        {
            "desc": ["SFFHS", "FHFFF", "FFFHG"],
            "success_rate": 0.6,
            "reward_schedule": (2.5, -1.0, -0.25),
        },
    ),
    ("CliffWalking-v1", {}, "CliffWalking-v1", {}),
    ("CliffWalkingSlippery-v1", {}, "CliffWalkingSlippery-v1", {}),
    ("CliffWalking-v0", {}, "CliffWalking-v1", {}),
    ("Taxi-v4", {}, "Taxi-v4", {}),
    ("Taxi-v3", {}, "Taxi-v4", {}),
    ("Taxi-v4", {"is_rainy": True}, "Taxi-v4", {"is_rainy": True}),
    (
        "Taxi-v4",
        {"is_rainy": True, "rainy_probability": 0.5},
        "Taxi-v4",
        {"is_rainy": True, "rainy_probability": 0.5},
    ),
]

ALL_TASKS = [
    "FrozenLake-v1",
    "FrozenLake8x8-v1",
    "Taxi-v4",
    "Taxi-v3",
    "CliffWalking-v1",
    "CliffWalkingSlippery-v1",
    "CliffWalking-v0",
    "Blackjack-v1",
    "Catch-v0",
    "NChain-v0",
]


def _gym(gym_id, kwargs):
    return gym.make(gym_id, disable_env_checker=True, **kwargs)


def _table(genv):
    """(s, a) -> the set of (prob, next state, reward, terminated) with prob > 0."""
    P = genv.unwrapped.P
    return {
        (s, a): {(float(p), int(s2), float(np.float32(r)), bool(t)) for p, s2, r, t in P[s][a] if p}
        for s in P
        for a in P[s]
    }


def _start_states(task, genv):
    """States an episode can pass through (not terminal, not off the map)."""
    u = genv.unwrapped
    if task.startswith("FrozenLake"):
        return [s for s, c in enumerate(u.desc.ravel()) if c not in b"HG"]
    if task.startswith("CliffWalking"):
        return [s for s in range(47) if not (36 < s < 47)]
    return [s for s in range(500) if not (s // 4 % 5 < 4 and s // 4 % 5 == s % 4)]


def _label(task, kwargs):
    return f"{task} {kwargs}"


@pytest.mark.parametrize(
    "task, kwargs, gym_id, gym_kwargs", GRID_TASKS, ids=[_label(t[0], t[1]) for t in GRID_TASKS]
)
def test_every_transition_is_in_gymnasiums_table(task, kwargs, gym_id, gym_kwargs):
    genv = _gym(gym_id, gym_kwargs)
    table = _table(genv)
    initial = set(np.flatnonzero(genv.unwrapped.initial_state_distrib).tolist())
    taxi = genv.unwrapped if task.startswith("Taxi") else None
    # Half of the episodes start anywhere, so that the whole table is visited
    # (a random walk rarely gets a taxi passenger home, or past the cliff).
    starts = _start_states(task, genv)
    num_envs, steps = 32, 250
    terminations = transitions = 0
    for seed in range(3):
        env = envpool_x.make_gymnasium(
            task, num_envs=num_envs, seed=seed, num_threads=2, max_episode_steps=60, **kwargs
        )
        assert env.single_observation_space == genv.observation_space
        assert env.single_action_space == genv.action_space
        n = int(env.single_action_space.n)
        obs, info = env.reset()
        assert obs.dtype == np.int64
        assert set(obs.tolist()) <= initial
        rng = np.random.default_rng(seed)
        for _ in range(steps):
            actions = rng.integers(n, size=num_envs)
            prev = obs
            obs, rew, term, trunc, info = env.step(actions)
            for i in range(num_envs):
                s2 = int(obs[i])
                where = f"{task} {kwargs} seed {seed} env {i}: {int(prev[i])} -{actions[i]}-> {s2}"
                if taxi is not None:
                    np.testing.assert_array_equal(
                        info["action_mask"][i], taxi.action_mask(s2), err_msg=where
                    )
                if info["elapsed_step"][i] == 0:  # the auto-reset step
                    assert s2 in initial and rew[i] == 0 and not term[i] and not trunc[i], where
                    assert info["prob"][i] == 1.0, where
                    if rng.random() < 0.5:
                        obs[i] = starts[rng.integers(len(starts))]
                        state = [obs[i], 0] if taxi is not None else [obs[i]]
                        env._pool.set_state(i, np.array(state, dtype=np.float64))
                    continue
                got = (float(info["prob"][i]), s2, float(rew[i]), bool(term[i]))
                assert got in table[(int(prev[i]), int(actions[i]))], (where, got)
                assert bool(trunc[i]) == (info["elapsed_step"][i] == 60), where
                terminations += bool(term[i])
                transitions += 1
        env.close()
    assert terminations > 0 and transitions > 0.7 * 3 * num_envs * steps


def _histogram_check(counts, expected, n, where):
    """Counts of next states against probabilities, within 5 standard errors."""
    assert set(counts) <= set(expected), (where, counts, expected)
    for s2, p in expected.items():
        tol = 5 * math.sqrt(p * (1 - p) / n) + 1e-12
        assert abs(counts.get(s2, 0) / n - p) <= tol, (where, s2, counts, expected)


@pytest.mark.parametrize(
    "task, kwargs, gym_id, state, action",
    [
        # Down from (1, 2): holes left and right, frozen below (three outcomes).
        ("FrozenLake-v1", {"success_rate": 0.6}, "FrozenLake-v1", 6, 1),
        ("FrozenLake-v1", {}, "FrozenLake-v1", 6, 1),
        # Down from (2, 1): into the cliff (back to start), or sideways.
        ("CliffWalkingSlippery-v1", {}, "CliffWalkingSlippery-v1", 25, 2),
        # South from (2, 2) with a passenger waiting at R for G.
        ("Taxi-v4", {"is_rainy": True}, "Taxi-v4", 241, 0),
        ("Taxi-v4", {"is_rainy": True, "rainy_probability": 0.5}, "Taxi-v4", 241, 2),
    ],
)
def test_slip_frequencies_match_gymnasiums_probabilities(task, kwargs, gym_id, state, action):
    gym_kwargs = dict(kwargs)
    genv = _gym(gym_id, gym_kwargs)
    expected: dict[int, float] = collections.defaultdict(float)
    for p, s2, _, _ in genv.unwrapped.P[state][action]:
        expected[int(s2)] += p
    assert len([p for p in expected.values() if p > 0]) == 3
    n = 6000
    env = envpool_x.make_gymnasium(task, num_envs=n, seed=7, **kwargs)
    env.reset()
    extra = [0.0] if task.startswith("Taxi") else []
    for i in range(n):
        env._pool.set_state(i, np.array([state, *extra], dtype=np.float64))
    obs, _, _, _, _ = env.step(np.full(n, action))
    _histogram_check(collections.Counter(obs.tolist()), expected, n, _label(task, kwargs))


def test_initial_states_are_gymnasiums():
    # Taxi: uniform over the 300 states with the passenger waiting for
    # another stand.
    genv = _gym("Taxi-v4", {})
    dist = genv.unwrapped.initial_state_distrib
    n = 9000
    obs, _ = envpool_x.make_gymnasium("Taxi-v4", num_envs=n, seed=3).reset()
    counts = np.bincount(obs, minlength=500)
    assert set(np.flatnonzero(counts)) == set(np.flatnonzero(dist))
    expected = n * dist[dist > 0]
    chi2 = float((((counts[dist > 0] - expected) ** 2) / expected).sum())
    dof = int((dist > 0).sum()) - 1
    assert chi2 < dof + 6 * math.sqrt(2 * dof), chi2
    # FrozenLake: uniform over the start tiles.
    desc = ["SFS", "FHF", "SFG"]
    obs, _ = envpool_x.make_gymnasium("FrozenLake-v1", num_envs=3000, seed=3, desc=desc).reset()
    starts = np.flatnonzero(_gym("FrozenLake-v1", {"desc": desc}).unwrapped.initial_state_distrib)
    _histogram_check(
        collections.Counter(obs.tolist()), {int(s): 1 / 3 for s in starts}, 3000, "starts"
    )


def _taxi_decode(s):
    return s // 100, (s // 20) % 5, (s // 4) % 5, s % 4


def _taxi_encode(row, col, passenger, dest):
    return ((row * 5 + col) * 5 + passenger) * 4 + dest


@pytest.mark.parametrize("is_rainy", [False, True])
def test_taxi_fickle_passenger(is_rainy):
    # Every transition is in the table, except the one allowed change of
    # destination: on the first move of the taxi with the passenger aboard,
    # when the passenger was made fickle on reset.
    table = _table(_gym("Taxi-v4", {"is_rainy": is_rainy}))
    num_envs = 48
    env = envpool_x.make_gymnasium(
        "Taxi-v4",
        num_envs=num_envs,
        seed=1,
        is_rainy=is_rainy,
        fickle_passenger=True,
        fickle_probability=0.5,
    )
    obs, _ = env.reset()
    fickle = np.array([env._pool.get_state(i)[1] for i in range(num_envs)])
    assert set(fickle.tolist()) == {0.0, 1.0}
    rng = np.random.default_rng(0)
    changes = 0
    for _ in range(400):
        # Drive towards pickups and drop-offs more often than chance.
        actions = rng.choice(6, size=num_envs, p=[0.15, 0.15, 0.15, 0.15, 0.2, 0.2])
        prev = obs
        obs, rew, term, _, info = env.step(actions)
        state = [env._pool.get_state(i) for i in range(num_envs)]
        for i in range(num_envs):
            s, s2 = int(prev[i]), int(obs[i])
            now_fickle = state[i][1]
            if info["elapsed_step"][i] == 0:
                fickle[i] = now_fickle
                continue
            got = (float(info["prob"][i]), s2, float(rew[i]), bool(term[i]))
            allowed = table[(s, int(actions[i]))]
            row, col, passenger, dest = _taxi_decode(s)
            row2, col2, passenger2, dest2 = _taxi_decode(s2)
            # A fickle passenger aboard changes destination on the first move.
            must_change = fickle[i] == 1.0 and passenger == 4 and (row, col) != (row2, col2)
            assert (got not in allowed) == must_change, (s, actions[i], got)
            if must_change:
                assert dest2 != dest and now_fickle == 0.0
                restored = (got[0], _taxi_encode(row2, col2, passenger2, dest), got[2], got[3])
                assert restored in allowed
                changes += 1
            fickle[i] = now_fickle
    assert changes > 0
    # How many passengers are fickle: fickle_probability of the resets.
    n = 4000
    env = envpool_x.make_gymnasium(
        "Taxi-v4", num_envs=n, seed=5, fickle_passenger=True, fickle_probability=0.3
    )
    env.reset()
    share = np.mean([env._pool.get_state(i)[1] for i in range(n)])
    assert abs(share - 0.3) < 5 * math.sqrt(0.3 * 0.7 / n)


# ---- Blackjack ----------------------------------------------------------------


class _Dealer:
    """Stands in for gymnasium's np_random: deals the given cards in order."""

    def __init__(self, cards):
        self.cards = list(cards)

    def choice(self, deck):
        assert self.cards, "gymnasium drew more cards than our env"
        return self.cards.pop(0)


def _hands(state):
    n = int(state[0])
    return [int(c) for c in state[1 : 1 + n]], [int(c) for c in state[1 + n :]]


def _bj_row(obs, i):
    """Env i's Blackjack observation from the batched tuple (sums, card, ace)."""
    return tuple(int(column[i]) for column in obs)


def _blackjack_step(ours, genv, action):
    """Step both from the same hands; gymnasium gets the cards ours drew."""
    player, dealer = _hands(ours._pool.get_state(0))
    obs, rew, term, trunc, _ = ours.step(np.array([action]))
    player2, dealer2 = _hands(ours._pool.get_state(0))
    assert player2[: len(player)] == player and dealer2[: len(dealer)] == dealer
    dealt = _Dealer(player2[len(player) :] + dealer2[len(dealer) :])
    genv.np_random = dealt
    g_obs, g_rew, g_term, g_trunc, _ = genv.step(action)
    assert not dealt.cards, "our env drew cards gymnasium did not"
    assert genv.player == player2 and genv.dealer == dealer2
    assert _bj_row(obs, 0) == g_obs
    assert rew[0] == np.float32(g_rew)
    assert bool(term[0]) == g_term and not trunc[0] and not g_trunc
    return g_rew, g_term


def _blackjack_pair(kwargs, seed=0):
    ours = envpool_x.make_gymnasium("Blackjack-v1", num_envs=1, seed=seed, **kwargs)
    genv = _gym("Blackjack-v1", kwargs).unwrapped
    genv.reset(seed=seed)
    return ours, genv


def _set_hands(ours, genv, player, dealer):
    ours._pool.set_state(0, np.array([len(player), *player, *dealer], dtype=np.float64))
    genv.player, genv.dealer = list(player), list(dealer)


BLACKJACK_RULES = [{"sab": True}, {"sab": False, "natural": True}, {"sab": False}]


@pytest.mark.parametrize("kwargs", BLACKJACK_RULES, ids=str)
def test_blackjack_matches_gymnasium_on_the_same_cards(kwargs):
    ours, genv = _blackjack_pair(kwargs)
    rng = np.random.default_rng(0)
    rewards = collections.Counter()
    for _ in range(1500):
        obs, _ = ours.reset()
        player, dealer = _hands(ours._pool.get_state(0))
        assert len(player) == len(dealer) == 2
        genv.player, genv.dealer = player, dealer
        assert _bj_row(obs, 0) == genv._get_obs()
        for _ in range(30):
            # Hit more often on low sums, so that both busts and sticks happen.
            action = int(rng.random() < (0.9 if obs[0][0] < 15 else 0.3))
            rew, term = _blackjack_step(ours, genv, action)
            if term:
                rewards[rew] += 1
                break
            obs = np.array([genv._get_obs()])
        else:
            raise AssertionError("episode did not end")
    assert {-1.0, 0.0, 1.0} <= set(rewards)
    if kwargs.get("natural") and not kwargs.get("sab"):
        assert rewards[1.5] > 0


@pytest.mark.parametrize("kwargs", BLACKJACK_RULES, ids=str)
@pytest.mark.parametrize(
    "player, dealer, action, expected",
    [
        # (player, dealer, action, {rules: reward}); dealers stand on 17+.
        ([1, 10], [10, 7], 0, {"sab": 1.0, "natural": 1.5, "plain": 1.0}),
        ([1, 10], [10, 1], 0, {"sab": 0.0, "natural": 0.0, "plain": 0.0}),
        ([10, 1], [10, 5, 6], 0, {"sab": 1.0, "natural": 0.0, "plain": 0.0}),
        ([10, 6, 5], [10, 7], 0, {"sab": 1.0, "natural": 1.0, "plain": 1.0}),
        ([10, 6, 5], [1, 10], 0, {"sab": 0.0, "natural": 0.0, "plain": 0.0}),
        ([10, 7], [10, 10], 0, {"sab": -1.0, "natural": -1.0, "plain": -1.0}),
        ([9, 8], [10, 8], 0, {"sab": -1.0, "natural": -1.0, "plain": -1.0}),
        ([9, 9], [10, 8], 0, {"sab": 0.0, "natural": 0.0, "plain": 0.0}),
        (
            [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
            [10, 10],
            0,
            {r: 1.0 for r in ("sab", "natural", "plain")},
        ),
    ],
)
def test_blackjack_natural_and_sab_rules(kwargs, player, dealer, action, expected):
    rules = "sab" if kwargs.get("sab") else "natural" if kwargs.get("natural") else "plain"
    ours, genv = _blackjack_pair(kwargs)
    ours.reset()
    _set_hands(ours, genv, player, dealer)
    rew, term = _blackjack_step(ours, genv, action)
    assert term and rew == expected[rules]


def test_blackjack_always_hitting_ends_in_a_bust():
    # From a soft 17 (usable ace) every hit either keeps the hand at most 21
    # (the ace may turn hard) or busts with -1, never a win.
    ours, genv = _blackjack_pair({"sab": True})
    softened = 0
    for _ in range(100):
        ours.reset()
        _set_hands(ours, genv, [1, 6], [10, 7])
        usable = 1
        while True:
            rew, term = _blackjack_step(ours, genv, 1)
            if term:
                assert rew == -1.0 and sum(genv.player) > 21
                break
            softened += usable and not genv._get_obs()[2]
            usable = genv._get_obs()[2]
    assert softened > 0


def test_blackjack_spaces():
    ours = envpool_x.make_gymnasium("Blackjack-v1", num_envs=4)
    g_space = _gym("Blackjack-v1", {}).observation_space
    # gymnasium's Tuple of Discretes; batched as a tuple of 3 int64 arrays.
    assert ours.single_observation_space == g_space
    assert ours.single_action_space == _gym("Blackjack-v1", {}).action_space
    obs, _ = ours.reset()
    assert isinstance(obs, tuple) and len(obs) == 3
    assert all(column.shape == (4,) and column.dtype == np.int64 for column in obs)
    assert all(g_space.contains(_bj_row(obs, i)) for i in range(4))
    assert ours.spec.config.sab is True and ours.spec.config.natural is False
    # same_step's final_obs has the same layout.
    same = envpool_x.make_gymnasium("Blackjack-v1", num_envs=4, autoreset_mode="same_step")
    same.reset()
    _, _, term, _, info = same.step(np.zeros(4, dtype=np.int32))  # stick: every hand ends
    assert term.all() and isinstance(info["final_obs"], tuple)
    assert all(g_space.contains(_bj_row(info["final_obs"], i)) for i in range(4))


# ---- Catch and NChain (EnvPool's definitions) ----------------------------------


@pytest.mark.parametrize("kwargs", [{}, {"height": 7, "width": 3}])
def test_catch_matches_envpool(kwargs):
    envpool = pytest.importorskip("envpool")
    theirs = envpool.make_gymnasium("Catch-v0", num_envs=1, seed=1, **kwargs)
    ours = envpool_x.make_gymnasium("Catch-v0", num_envs=1, seed=1, **kwargs)
    assert ours.single_observation_space == theirs.observation_space
    assert ours.single_action_space.n == theirs.action_space.n == 3
    height, width = ours.single_observation_space.shape
    rng = np.random.default_rng(0)

    def sync(obs):
        # Start ours from EnvPool's ball column (our draws differ).
        ball_col = int(np.flatnonzero(obs[0][0])[0])
        ours._pool.set_state(0, np.array([0, ball_col, width // 2], dtype=np.float64))

    t_obs, _ = theirs.reset()
    o_obs, _ = ours.reset()
    sync(t_obs)
    episodes = rewards = 0
    while episodes < 60:
        action = rng.integers(3, size=1).astype(np.int32)
        t_obs, t_rew, t_term, t_trunc, t_info = theirs.step(action)
        o_obs, o_rew, o_term, o_trunc, o_info = ours.step(action)
        assert o_info["elapsed_step"][0] == t_info["elapsed_step"][0]
        if t_info["elapsed_step"][0] == 0:  # both reset: ball on row 0, paddle centred
            assert o_obs[0][0].sum() == 1 and o_obs[0][-1][width // 2] == 1
            sync(t_obs)
            continue
        np.testing.assert_array_equal(o_obs, t_obs)
        assert o_rew[0] == t_rew[0] and o_term[0] == t_term[0] and o_trunc[0] == t_trunc[0]
        episodes += bool(t_term[0])
        rewards += int(t_rew[0] == 1)
    assert 0 < rewards < episodes
    # An episode is height - 1 steps, whatever the actions.
    ours.reset()
    for t in range(1, height):
        _, _, term, _, _ = ours.step(np.array([t % 3]))
        assert bool(term[0]) == (t == height - 1)


def _nchain_reference(s, action, n, small, large):
    """gym 0.20's NChain step without the slip."""
    if action == 1:
        return 0, small
    if s < n - 1:
        return s + 1, 0.0
    return s, large


@pytest.mark.parametrize("kwargs", [{}, {"n": 8, "small": 1.0, "large": 50.0}])
def test_nchain_without_slip_follows_the_chain(kwargs):
    cfg = {"n": 5, "small": 2.0, "large": 10.0, **kwargs}
    env = envpool_x.make_gymnasium("NChain-v0", num_envs=16, seed=0, slip=0.0, **kwargs)
    assert env.single_observation_space == gym.spaces.Discrete(cfg["n"])
    obs, _ = env.reset()
    assert (obs == 0).all()
    rng = np.random.default_rng(1)
    for t in range(1, 1001):
        # Mostly forward, so that the end of the chain is reached.
        actions = (rng.random(16) < 0.1).astype(np.int64)
        expected = [
            _nchain_reference(int(s), int(a), **cfg) for s, a in zip(obs, actions, strict=True)
        ]
        obs, rew, term, trunc, _ = env.step(actions)
        assert obs.tolist() == [e[0] for e in expected]
        assert rew.tolist() == [e[1] for e in expected]
        assert not term.any() and trunc.all() == (t == 1000)
    assert (rew == cfg["large"]).any() or (obs == cfg["n"] - 1).any()


def _slip_share(env, num_envs, steps, rng):
    """The share of steps whose effective action was not the one sent."""
    obs = env.reset()[0]
    slips = total = 0
    for _ in range(steps):
        actions = rng.integers(2, size=num_envs).astype(np.int32)
        new, rew, _, _, info = env.step(actions)
        for s, a, s2, r, k in zip(obs, actions, new, rew, info["elapsed_step"], strict=True):
            if k == 0:
                continue
            went_back = s2 == 0 and r == 2.0
            assert went_back or (r in (0.0, 10.0) and s2 == min(s + 1, 4)), (s, a, s2, r)
            slips += int(went_back) != int(a)
            total += 1
        obs = new
    return slips / total, total


def test_nchain_slips_like_envpool():
    envpool = pytest.importorskip("envpool")
    rng = np.random.default_rng(0)
    ours = envpool_x.make_gymnasium("NChain-v0", num_envs=64, seed=0)
    theirs = envpool.make_gymnasium("NChain-v0", num_envs=64, seed=0)
    assert ours.single_observation_space == gym.spaces.Discrete(5)
    assert ours.spec.max_episode_steps == theirs.spec.config.max_episode_steps == 1000
    for env in (ours, theirs):
        share, total = _slip_share(env, 64, 200, rng)
        assert abs(share - 0.2) < 5 * math.sqrt(0.2 * 0.8 / total), share


# ---- spaces, specs, determinism, bad input -------------------------------------


@pytest.mark.parametrize(
    "task, gym_id",
    [
        ("FrozenLake-v1", "FrozenLake-v1"),
        ("FrozenLake8x8-v1", "FrozenLake8x8-v1"),
        ("Taxi-v4", "Taxi-v4"),
        ("Taxi-v3", "Taxi-v4"),
        ("CliffWalking-v1", "CliffWalking-v1"),
        ("CliffWalkingSlippery-v1", "CliffWalkingSlippery-v1"),
        ("CliffWalking-v0", "CliffWalking-v1"),
    ],
)
def test_spaces_and_registry_match_gymnasium(task, gym_id):
    g = gym.spec(gym_id)
    genv = _gym(gym_id, {})
    spec = envpool_x.make_spec(task)
    # Discrete stays Discrete, int64 as gymnasium's (equality checks the dtype).
    assert spec.observation_space == genv.observation_space
    assert spec.action_space == genv.action_space
    assert spec.max_episode_steps == (g.max_episode_steps or 2**31 - 1)
    assert spec.reward_threshold == g.reward_threshold
    env = envpool_x.make_gymnasium(task, num_envs=3)
    obs, info = env.reset()
    assert obs.dtype == np.int64 and all(env.single_observation_space.contains(o) for o in obs)
    assert info["prob"].dtype == np.float64


def test_frozen_lake_options():
    # EnvPool's size key, map_name, and a map given as gymnasium's char array.
    assert envpool_x.make_spec("FrozenLake-v1", size=8).observation_space.n == 64
    assert envpool_x.make_spec("FrozenLake-v1", map_name="8x8").observation_space.n == 64
    assert envpool_x.make_spec("FrozenLake8x8-v1", size=4).observation_space.n == 16
    desc = _gym("FrozenLake-v1", {"desc": ["SFF", "FHG"]}).unwrapped.desc
    spec = envpool_x.make_spec("FrozenLake-v1", desc=desc)
    assert spec.observation_space.n == 6
    env = envpool_x.make_gymnasium("FrozenLake-v1", desc=desc, is_slippery=False)
    env.reset()
    obs, rew, term, _, _ = env.step(np.array([2]))  # right
    obs, rew, term, _, _ = env.step(np.array([1]))  # down: the hole
    assert obs[0] == 4 and term[0] and rew[0] == 0.0


def test_dm_env_specs_and_observations():
    env = envpool_x.make_dm("Taxi-v4", num_envs=4)
    spec = env.observation_spec()
    assert isinstance(spec.obs, dm_env.specs.DiscreteArray)
    assert spec.obs.num_values == 500 and spec.obs.dtype == np.int64
    assert spec.action_mask.shape == (6,) and spec.action_mask.dtype == np.int8
    assert env.action_spec().num_values == 6
    ts = env.reset()
    assert ts.observation.obs.dtype == np.int64
    spec.obs.validate(ts.observation.obs[0])
    spec.action_mask.validate(ts.observation.action_mask[0])
    ts = env.step(np.zeros(4, dtype=np.int32))
    assert (ts.step_type == dm_env.StepType.MID).all()
    bj = envpool_x.make_dm("Blackjack-v1", num_envs=2).observation_spec().obs
    assert bj.shape == (3,) and bj.maximum.tolist() == [31, 10, 1]


def test_same_step_autoreset_returns_terminal_tile():
    env = envpool_x.make_gymnasium(
        "FrozenLake-v1", num_envs=16, seed=0, autoreset_mode="same_step", max_episode_steps=1000
    )
    env.reset()
    tiles = "SFFFFHFHFFFHHFFG"
    rng = np.random.default_rng(0)
    seen = 0
    for _ in range(300):
        obs, _, term, _, info = env.step(rng.integers(4, size=16))
        for i in np.flatnonzero(term):
            assert tiles[int(info["final_obs"][i])] in "HG" and obs[i] == 0
            seen += 1
    assert seen > 0


@pytest.mark.parametrize(
    "task, config",
    [
        ("FrozenLake-v1", {}),
        ("Taxi-v4", {"is_rainy": True, "fickle_passenger": True}),
        ("CliffWalkingSlippery-v1", {}),
        ("Blackjack-v1", {}),
        ("Catch-v0", {}),
        ("NChain-v0", {}),
    ],
)
def test_trajectories_identical_across_threads_and_batch_sizes(task, config):
    ref = rollout(task, 8, 60, num_threads=1, seed=3, max_episode_steps=25, **config)
    for threads in (1, 2, 4):
        for batch in (8, 3, 1):
            got = rollout(
                task,
                8,
                60,
                num_threads=threads,
                batch_size=batch,
                seed=3,
                max_episode_steps=25,
                **config,
            )
            assert got == ref, (threads, batch)


@pytest.mark.parametrize("task", ALL_TASKS)
def test_bad_actions_are_rejected(task):
    env = envpool_x.make_gymnasium(task, num_envs=2)
    env.reset()
    n = int(env.single_action_space.n)
    for dtype in (np.int32, np.int64):
        for bad in (n, -1):
            with pytest.raises(ValueError, match=f"action {bad} for env 1 is out of range"):
                env.step(np.array([0, bad], dtype=dtype))
    with pytest.raises(TypeError, match="discrete actions must be integers"):
        env.step(np.array([0.0, 1.0]))
    obs, *_ = env.step(np.array([0, n - 1]))  # still usable
    assert (obs[0] if isinstance(obs, tuple) else obs).shape[0] == 2  # Blackjack: a tuple


@pytest.mark.parametrize(
    "task, config, error, match",
    [
        (
            "FrozenLake-v1",
            {"map_name": "5x5"},
            ValueError,
            r"map_name must be one of \['4x4', '8x8'\] or None",
        ),
        ("FrozenLake-v1", {"size": 5}, ValueError, "size must be 4 or 8"),
        ("FrozenLake-v1", {"desc": ["SFF", "FG"]}, ValueError, "same length"),
        ("FrozenLake-v1", {"desc": ["SXF"]}, ValueError, "got 'X'"),
        ("FrozenLake-v1", {"desc": ["FFG"]}, ValueError, "start tile"),
        ("FrozenLake-v1", {"desc": "SFFG"}, TypeError, "expects a sequence of str"),
        ("FrozenLake-v1", {"desc": [1, 2]}, TypeError, "item of type int"),
        (
            "FrozenLake-v1",
            {"success_rate": 1.5},
            ValueError,
            r"success_rate must be a finite number in \[0, 1\]",
        ),
        ("FrozenLake-v1", {"reward_schedule": (1, 0)}, ValueError, "has 2 values: .* list of 3"),
        (
            "FrozenLake-v1",
            {"reward_schedule": ("a", 0, 0)},
            TypeError,
            r"reward_schedule\[0\] must be a number",
        ),
        ("Taxi-v4", {"rainy_probability": -0.1}, ValueError, "rainy_probability must be"),
        ("Taxi-v4", {"fickle_probability": 2.0}, ValueError, "fickle_probability must be"),
        ("Catch-v0", {"height": 1}, ValueError, r"height must be an int in \[2, "),
        ("NChain-v0", {"n": 0}, ValueError, r"n must be an int in \[1, 1073741824\]"),
        ("NChain-v0", {"slip": 1.5}, ValueError, r"slip must be a finite number in \[0, 1\]"),
        ("CliffWalking-v1", {"is_slippery": "yes"}, TypeError, "is_slippery must be a bool"),
    ],
)
def test_bad_config_is_rejected(task, config, error, match):
    with pytest.raises(error, match=match):
        envpool_x.make_gymnasium(task, num_envs=1, **config)


@pytest.mark.parametrize(
    "task, state, match",
    [
        ("FrozenLake-v1", [16], r"must be an integer in \[0, 15\]"),
        ("FrozenLake-v1", [1, 2], "must have 1 value"),
        ("Taxi-v4", [3], "must have 2 values"),
        ("Taxi-v4", [500, 0], r"in \[0, 499\]"),
        ("CliffWalking-v1", [0.5], "must be an integer"),
        ("Blackjack-v1", [2, 1, 10], "1 to 21 cards"),
        ("Blackjack-v1", [2, 1, 11, 5], "Blackjack card"),
        ("Catch-v0", [9, 0, 0], "ball_row"),
        ("NChain-v0", [5], r"in \[0, 4\]"),
    ],
)
def test_bad_state_is_rejected(task, state, match):
    env = envpool_x.make_gymnasium(task, num_envs=1)
    env.reset()
    with pytest.raises(ValueError, match=match):
        env._pool.set_state(0, np.array(state, dtype=np.float64))


def test_frozen_lake_random_map_like_gymnasium_map_name_none():
    # gymnasium: desc=None and map_name=None draw a random valid 8x8 map.
    from gymnasium.envs.toy_text.frozen_lake import is_valid

    env = envpool_x.make_gymnasium("FrozenLake-v1", num_envs=2, map_name=None, desc=None, seed=5)
    desc = [list(row) for row in env.spec.config.desc]
    assert len(desc) == 8 and all(len(row) == 8 for row in desc)
    assert desc[0][0] == "S" and desc[7][7] == "G" and is_valid(desc, 8)
    assert env.single_observation_space.n == 64
    # The pool's seed picks the map: same seed, same map; another seed, another map.
    again = envpool_x.make_spec("FrozenLake-v1", map_name=None, seed=5)
    other = envpool_x.make_spec("FrozenLake-v1", map_name=None, seed=6)
    assert list(again.config.desc) == list(env.spec.config.desc)
    assert list(other.config.desc) != list(env.spec.config.desc)
    obs, _ = env.reset()
    np.testing.assert_array_equal(obs, [0, 0])
    env.close()
