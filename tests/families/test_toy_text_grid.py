"""Toy text grid worlds against gymnasium 1.4.0: FrozenLake, CliffWalking and
Taxi (rain, fickle passengers).

Our envs draw from their own counter-based streams, so a trajectory cannot be
compared with gymnasium's draw for draw. Instead every transition we take must
be one that gymnasium's transition table (``env.unwrapped.P``) lists with a
positive probability, with the same reward, termination and ``info["prob"]``;
the slip frequencies and start states must match the table's probabilities.
"""

from __future__ import annotations

import collections
import math

import numpy as np
import pytest
from toy_text_helpers import _gym

import envpool_x

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
