"""Stateful fuzzing of the pool API against a small model of what must hold.

Random sequences of make, reset (all / subsets, with seeds), step (all /
subsets), async send / recv, close, and invalid calls (bad actions, bad ids,
ids in flight, recv with nothing in flight), on one or a few tasks of every
kind of env: classic control (discrete and continuous), toy text, MuJoCo,
MiniGrid, BabyAI, MaxCut, TSP, the Tag envs (an agent axis, MultiDiscrete
actions) and Box2D. After every call the model checks: each env comes back
once per send, elapsed_step counts up and restarts where an episode ended, and
an invalid call raises a typed exception and changes nothing. Each group of
families runs a few seconds here (``FUZZ_SCALE`` multiplies the examples);
scripts/fuzz_long.py runs the same machine for >= 10^5 operations.
tests/backends/cpu/test_fuzz_inputs.py fuzzes the options and the users'
env registrations.
"""

from __future__ import annotations

import os
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

import envpool_x

NUM_ENVS = 5
MAX_STEPS = 4
# Examples per group = its base count times this (ENVPOOL_X_FUZZ_SCALE).
FUZZ_SCALE = float(os.environ.get("ENVPOOL_X_FUZZ_SCALE", "1"))
_BUILT = set(envpool_x.list_all_envs())
# The tasks of each group, with the config keys they are made with: one task
# per kind of env (discrete classic, continuous classic, toy text, MuJoCo on
# the shared FIFO), then the newer families. TSP runs its 2-opt mode, where
# every action is valid (a visited city ends a construct-mode episode with an
# error, which the model does not follow).
FUZZ_GROUPS: dict[str, list[tuple[str, dict[str, Any]]]] = {
    "classic": [("CartPole-v1", {}), ("Pendulum-v1", {}), ("Taxi-v3", {}), ("Hopper-v5", {})],
    "grid_worlds": [
        ("MiniGrid-Empty-5x5-v0", {}),
        ("MiniGrid-DoorKey-5x5-v0", {}),
        ("BabyAI-GoToRedBall-v0", {}),
    ],
    "combinatorial": [
        ("MaxCut-v0", {"graph": "er:12:0.4:3"}),
        ("TSP-v0", {"num_nodes": 6, "mode": "2opt"}),
    ],
    "multi_agent": [
        ("TagGridworld-v0", {"num_taggers": 2, "grid_length": 6}),
        (
            "TagContinuous-v0",
            {"num_taggers": 2, "num_runners": 2, "num_other_agents_observed": 3},
        ),
    ],
    "box2d": [("LunarLander-v3", {}), ("BipedalWalker-v3", {})],
}
FUZZ_TASKS = [
    (task, config) for group in FUZZ_GROUPS.values() for task, config in group if task in _BUILT
]


class PoolMachine(RuleBasedStateMachine):
    """Model: per env, whether it is in flight, started, its last elapsed_step
    and whether its last result ended an episode."""

    tasks = FUZZ_TASKS  # a subclass per group narrows this

    def __init__(self) -> None:
        super().__init__()
        self.env = None

    @rule(
        batch=st.sampled_from([NUM_ENVS, 2, 1]),
        threads=st.sampled_from([1, 2, 3]),
        index=st.integers(0, 1000),
    )
    @precondition(lambda self: self.env is None or self.closed)
    def make(self, batch, threads, index):
        task, config = self.tasks[index % len(self.tasks)]
        self.batch = batch
        self.env = envpool_x.make_gymnasium(
            task,
            num_envs=NUM_ENVS,
            batch_size=batch,
            num_threads=threads,
            max_episode_steps=MAX_STEPS,
            seed=7,
            **config,
        )
        self.in_flight = set()
        self.started = set()
        self.elapsed = {}
        self.ended = {}
        self.closed = False
        self.space = self.env.single_action_space
        self.discrete = isinstance(self.space, (gym.spaces.Discrete, gym.spaces.MultiDiscrete))

    # ---- helpers -------------------------------------------------------
    def absorb(self, result, expect_reset_ids=()):
        obs, rew, term, trunc, info = result
        ids = info["env_id"].tolist()
        assert len(ids) == len(set(ids)), "an env came back twice in one batch"
        for leaf in obs.values() if isinstance(obs, dict) else [obs]:
            assert leaf.shape[0] == len(ids) == rew.shape[0]
        for row, i in enumerate(ids):
            assert i in self.in_flight, f"env {i} returned but not in flight"
            self.in_flight.discard(i)
            step = int(info["elapsed_step"][row])
            if i in expect_reset_ids or self.ended.get(i, False):
                assert step == 0, (i, step)
            else:
                assert step == self.elapsed[i] + 1, (i, step, self.elapsed[i])
            assert bool(trunc[row]) == (step == MAX_STEPS) or bool(term[row])
            self.elapsed[i] = step
            self.ended[i] = bool(term[row] or trunc[row])
        return ids

    def actions(self, data, n):
        """n valid actions of this task's space (drawn by the space from a
        drawn seed: Discrete, MultiDiscrete with an agent axis, bounded Box)."""
        self.space.seed(data.draw(st.integers(0, 2**32 - 1)))
        return np.stack([self.space.sample() for _ in range(n)])

    def zeros(self, n):
        dtype = np.int32 if self.discrete else np.float32
        return np.zeros((n, *self.space.shape), dtype=dtype)

    def too_large(self):
        """One discrete action with its first element one past its range."""
        a = self.zeros(1)
        high = self.space.n if isinstance(self.space, gym.spaces.Discrete) else self.space.nvec
        a.flat[0] = int(np.asarray(high).flat[0])
        return a

    def idle(self):
        return [i for i in range(NUM_ENVS) if i not in self.in_flight]

    def sync(self):
        return self.batch == NUM_ENVS

    # ---- valid calls ---------------------------------------------------
    @rule(data=st.data())
    @precondition(lambda self: self.env is not None and not self.closed)
    def reset_some(self, data):
        idle = self.idle()
        if not self.sync() or not idle:
            return
        ids = data.draw(st.lists(st.sampled_from(idle), min_size=1, unique=True))
        seed = data.draw(st.one_of(st.none(), st.integers(0, 2**32)))
        self.in_flight.update(ids)
        obs, info = self.env.reset(env_id=np.array(ids), seed=seed)
        self.started.update(ids)
        got = self.absorb(
            (obs, np.zeros(len(ids)), np.zeros(len(ids), bool), np.zeros(len(ids), bool), info),
            expect_reset_ids=set(ids),
        )
        assert got == ids

    @rule(data=st.data())
    @precondition(lambda self: self.env is not None and not self.closed)
    def step_some(self, data):
        ready = [i for i in self.idle() if i in self.started]
        if not self.sync() or not ready:
            return
        ids = data.draw(st.lists(st.sampled_from(ready), min_size=1, unique=True))
        actions = self.actions(data, len(ids))
        self.in_flight.update(ids)
        got = self.absorb(self.env.step(actions, env_id=np.array(ids)))
        assert got == ids

    @rule()
    @precondition(lambda self: self.env is not None and not self.closed)
    def async_reset_idle(self):
        idle = self.idle()
        if self.sync() or not idle:
            return
        self.env.async_reset(env_id=np.array(idle))
        self.in_flight.update(idle)
        self.started.update(idle)
        for i in idle:
            self.ended[i] = True  # next result is a reset: elapsed 0

    @rule(data=st.data())
    @precondition(lambda self: self.env is not None and not self.closed)
    def send_some(self, data):
        ready = [i for i in self.idle() if i in self.started]
        if self.sync() or not ready:
            return
        ids = data.draw(st.lists(st.sampled_from(ready), min_size=1, unique=True))
        self.env.send(self.zeros(len(ids)), np.array(ids))
        self.in_flight.update(ids)

    @rule()
    @precondition(lambda self: self.env is not None and not self.closed)
    def recv(self):
        if len(self.in_flight) < (1 if self.sync() else self.batch):
            with pytest.raises(RuntimeError, match="recv"):
                self.env.recv()
            return
        if self.sync():
            return  # sync results are collected by step/reset
        got = self.absorb(self.env.recv())
        assert len(got) == self.batch

    # ---- invalid calls: typed exception, nothing changes ----------------
    @rule(bad=st.sampled_from(["action", "id", "dup", "nan_type", "in_flight"]))
    @precondition(lambda self: self.env is not None and not self.closed)
    def invalid_call(self, bad):
        ready = [i for i in self.idle() if i in self.started]
        if bad == "in_flight":
            if not self.in_flight:
                return
            i = next(iter(self.in_flight))
            with pytest.raises(RuntimeError, match="in flight"):
                self.env.send(self.zeros(1), np.array([i]))
            return
        if not ready:
            return
        i = ready[0]
        call = self.env.step if self.sync() else self.env.send
        if bad == "action":
            if self.discrete:
                with pytest.raises(ValueError, match="out of range"):
                    call(self.too_large(), env_id=np.array([i]))
            else:
                a = self.zeros(1)
                a[0, -1] = np.nan
                with pytest.raises(ValueError, match="not finite"):
                    call(a, env_id=np.array([i]))
        elif bad == "id":
            with pytest.raises(ValueError, match="out of range"):
                call(self.zeros(1), env_id=np.array([NUM_ENVS]))
        elif bad == "dup":
            with pytest.raises(ValueError, match="more than once"):
                call(self.zeros(2), env_id=np.array([i, i]))
        elif self.discrete:
            with pytest.raises(TypeError, match="integers"):
                call(self.zeros(1).astype(np.float32) + 0.5, env_id=np.array([i]))
        else:
            with pytest.raises(ValueError, match="shape"):
                call(np.zeros((1, self.space.shape[0] + 1), np.float32), env_id=np.array([i]))

    @rule()
    @precondition(lambda self: self.env is not None and not self.closed)
    def close(self):
        self.env.close()
        self.closed = True
        with pytest.raises(RuntimeError, match="closed"):
            self.env.async_reset()

    operations = 0  # counted across runs, for scripts/fuzz_long.py

    @invariant()
    def model_consistent(self):
        PoolMachine.operations += 1
        if self.env is not None and not self.closed:
            assert self.env._pool.pending == len(self.in_flight)

    def teardown(self):
        if self.env is not None:
            self.env.close()


def _settings(examples: int, steps: int) -> settings:
    return settings(
        max_examples=max(1, int(examples * FUZZ_SCALE)),
        stateful_step_count=steps,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )


# Every group's tasks: scripts/fuzz_long.py runs this one.
PoolMachine.TestCase.settings = _settings(25, 40)


def _group_machine(name: str, examples: int, steps: int = 25) -> Any:
    """The machine on one group's tasks (a few seconds of examples each)."""
    tasks = [(t, c) for t, c in FUZZ_GROUPS[name] if t in _BUILT]
    machine = type(f"PoolMachine_{name}", (PoolMachine,), {"tasks": tasks})
    machine.TestCase.settings = _settings(examples, steps)
    case = machine.TestCase
    if not tasks:
        case = pytest.mark.skip(reason=f"no {name} task in this build")(case)
    return case


TestPoolMachine = _group_machine("classic", 25, 40)
TestGridWorlds = _group_machine("grid_worlds", 20)
TestCombinatorial = _group_machine("combinatorial", 20)
TestMultiAgent = _group_machine("multi_agent", 20)
TestBox2d = _group_machine("box2d", 12)
