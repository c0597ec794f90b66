"""Blackjack against gymnasium 1.4.0, compared from identical card sequences:
gymnasium's env is dealt the cards ours drew, under each rule set (sab,
natural, plain)."""

from __future__ import annotations

import collections

import numpy as np
import pytest
from toy_text_helpers import _gym

import envpool_x


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
