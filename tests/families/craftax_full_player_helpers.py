"""Shared by the full Craftax player-action tests (test_craftax_full_player*.py).

States are packed (tests/oracles/craftax_full_oracle.py's pack_state) as
float64 rows; ``oracle.field(row, name)`` edits one in place. ``compare`` runs
one of Craftax's functions and ours on the same rows and actions and asserts
that the whole packed results agree exactly.
"""

from __future__ import annotations

import functools
from typing import Any

import craftax_full_oracle as oracle
import numpy as np
import pytest

NUM_ACTIONS = 43
#: Every action, the default sweep; the tests of one function's branches
#: sweep its own actions with a few others by default, all 43 under slow.
ALL_ACTIONS = tuple(range(NUM_ACTIONS))
#: Parametrize a branch test with SWEEPS and pass sweep_of(which, own) on.
SWEEPS = ("own", pytest.param("all", marks=pytest.mark.slow))


def sweep_of(which: str, own: tuple[int, ...]) -> tuple[int, ...]:
    """``own`` (the function's own actions and a few others), or all 43."""
    return ALL_ACTIONS if which == "all" else own


NUM_BLOCKS = 37
MAP = 48
BLOCK = {
    "grass": 2,
    "water": 3,
    "stone": 4,
    "tree": 5,
    "path": 7,
    "crafting_table": 11,
    "furnace": 12,
    "sand": 13,
    "lava": 14,
    "plant": 15,
    "ripe_plant": 16,
}
ITEM_TORCH, LADDER_DOWN, LADDER_UP, LADDER_DOWN_BLOCKED = 1, 2, 3, 4
# Craftax's Action values used by the tests.
SLEEP, PLACE_STONE, PLACE_TABLE, PLACE_FURNACE, PLACE_PLANT = 6, 7, 8, 9, 10
REST, DESCEND, ASCEND, PLACE_TORCH, DRINK_RED = 17, 18, 19, 28, 29
LEVEL_UP_DEX = 39
CLOSE_BLOCKS = ((0, -1), (0, 1), (-1, 0), (1, 0), (-1, -1), (-1, 1), (1, -1), (1, 1))
DIRECTIONS = {1: (0, -1), 2: (0, 1), 3: (-1, 0), 4: (1, 0)}


def core() -> Any:
    import envpool_x._core as _core

    return _core


@functools.cache
def world(seed: int) -> np.ndarray:
    """Craftax's own world for ``seed``, packed."""
    return np.asarray(oracle.pack_state(oracle.new_world(seed)), np.float64)


@functools.cache
def trajectory(seed: int, steps: int, every: int) -> tuple[np.ndarray, ...]:
    """States along Craftax's own steps from world ``seed`` with random actions
    (moves, DO, placing and crafting weighted up), every ``every`` steps."""
    import jax

    rng = np.random.default_rng(seed)
    weights = np.ones(NUM_ACTIONS)
    weights[1:6] = 8.0
    weights /= weights.sum()
    state, key, out = oracle.new_world(seed), jax.random.PRNGKey(seed), []
    for t in range(steps):
        key, step_key = jax.random.split(key)
        action = np.int32(rng.choice(NUM_ACTIONS, p=weights))
        state, _, done = oracle.real_step()(state, action, step_key)
        if (t + 1) % every == 0:
            out.append(np.asarray(oracle.pack_state(state), np.float64))
        if bool(done):
            break
    return tuple(out)


def edit(base: np.ndarray, changes: dict[str, Any]) -> np.ndarray:
    """A copy of ``base`` with whole leaves set (``{"inventory.wood": 3}``)."""
    row = base.copy()
    for name, value in changes.items():
        oracle.field(row, name)[...] = value
    return row


def set_cell(row: np.ndarray, leaf: str, level: int, x: int, y: int, value: float) -> None:
    oracle.field(row, leaf)[level, x, y] = value


def player(row: np.ndarray) -> tuple[int, int, int]:
    """(level, x, y) of the player in ``row``."""
    x, y = (int(v) for v in oracle.field(row, "player_position"))
    return int(oracle.field(row, "player_level")), x, y


def compare(
    name: str,
    states: list[np.ndarray],
    actions: np.ndarray | None = None,
    sweep: tuple[int, ...] = ALL_ACTIONS,
    **params: Any,
) -> Outcome:
    """Craftax's ``name`` and ours on each state with each action of
    ``sweep`` (when ``actions`` is None, else one action per state), with
    EnvParams fields ``params``; asserts the packed results are equal, 64
    rows at a time (a state is 84,033 numbers)."""
    states = np.stack(states)
    if actions is None:
        index = np.repeat(np.arange(len(states)), len(sweep))
        actions = np.tile(np.asarray(sweep, np.int32), len(states))
    else:
        index, actions = np.arange(len(states)), np.asarray(actions, np.int32)
    env_params = oracle.PARAMS.replace(**params)
    results = []
    for start in range(0, len(index), 64):
        rows, acts = states[index[start : start + 64]], actions[start : start + 64]
        expected = oracle.player_batch(name, rows, acts, env_params)
        got = np.asarray(core().craftax_full_player_phases(name, rows, acts, params))
        bad = np.argwhere(expected != got)
        if bad.size:
            lines = [
                f"state {index[start + r]} action {acts[r]}: {oracle.field_at(c)} ours "
                f"{got[r, c]} Craftax's {expected[r, c]} (was {rows[r, c]})"
                for r, c in bad[:8]
            ]
            raise AssertionError(f"{name}: {len(bad)} values differ\n" + "\n".join(lines))
        results.append(expected)
    return Outcome(states, index, actions, results)


class Outcome:
    """What a comparison ran: per row its state (``index`` into ``states``),
    its action, and Craftax's packed result (kept in 64-row blocks)."""

    def __init__(self, states: np.ndarray, index: np.ndarray, actions: np.ndarray, results: list):
        self.states, self.index, self.actions, self._results = states, index, actions, results

    def before(self, leaf: str) -> np.ndarray:
        """Leaf ``leaf`` of each row's state, flattened: (rows, size)."""
        return self.states[:, _span(leaf)][self.index]

    def after(self, leaf: str) -> np.ndarray:
        return np.concatenate([r[:, _span(leaf)] for r in self._results])

    def changed(self, leaf: str) -> np.ndarray:
        """Per row, whether Craftax's function changed ``leaf``."""
        return (self.before(leaf) != self.after(leaf)).any(axis=1)


def _span(leaf: str) -> slice:
    offset, shape = oracle.state_layout()[leaf]
    return slice(offset, offset + int(np.prod(shape, dtype=np.int64)))


def require(condition: np.ndarray, what: str) -> None:
    """The sweep must have made ``what`` happen (a test that cannot fail is a
    defect: this checks the states reach the branch)."""
    assert np.any(condition), f"no state made this happen: {what}"
