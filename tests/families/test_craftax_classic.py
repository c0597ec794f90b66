"""Craftax-Classic-Symbolic-v1 against craftax 1.6.1's JAX step, step by step.

Each episode starts from Craftax's own world (its generator, seed by seed),
loaded into our C++ game (CraftaxClassicSim, the family's test hook); both then
take the same random actions and the same random draws (tests/oracles/
craftax_oracle.py hands ours to Craftax), and the whole state, the observation,
the reward and the end of the episode must agree exactly, to the episode's end.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

pytest.importorskip("craftax")
_core = pytest.importorskip("envpool_x._core")
if not hasattr(_core, "CraftaxClassicSim"):
    pytest.skip("built without ENVPOOL_X_CRAFTAX", allow_module_level=True)

import craftax_oracle as oracle  # noqa: E402


@functools.cache
def oracle_step() -> Any:
    """Craftax's step with our draws (traced and compiled once, on first use)."""
    return oracle.make_step()


def _draws(rng: np.random.Generator) -> np.ndarray:
    """One step's draws: float32 uniforms in [0, 1) with 24 random bits."""
    bits = rng.integers(0, 2**24, size=_core.craftax_draws_per_step)
    return (bits / 2**24).astype(np.float32)


def run_episode(
    seed: int,
    max_steps: int,
    action_weights: np.ndarray | None = None,
    start: Any = None,
    script: tuple[int, ...] = (),
    check: Callable[[Any, Any, int], None] | None = None,
) -> tuple[int, np.ndarray]:
    """Step both games from Craftax's world ``seed`` (or the state ``start``);
    the first actions are ``script``'s; ``check(sim, state, t)`` runs after
    each step's comparison. Return the steps taken and the achievements
    unlocked."""
    rng = np.random.default_rng(seed)
    keys = np.random.default_rng([seed, 1])  # the state_rng keys: a stream of their own
    state = oracle.new_world(seed) if start is None else start
    sim = _core.CraftaxClassicSim()
    sim.set_state(oracle.pack_state(state))
    np.testing.assert_array_equal(sim.obs(), oracle.observe(state))
    for t in range(max_steps):
        action = int(rng.choice(17, p=action_weights))
        action = script[t] if t < len(script) else action
        draws = _draws(rng)
        oracle.DRAWS.clear()
        oracle.DRAWS.extend(draws.tolist())
        key = keys.integers(0, 2**32, size=2, dtype=np.uint32)  # a raw JAX key
        state, reward, done, obs = oracle_step()(state, np.int32(action), key)
        assert not oracle.DRAWS, f"step {t}: Craftax took fewer draws than ours"
        our_reward, our_done, used = sim.step(action, draws.tolist())
        assert used == len(draws), f"step {t}: we took {used} draws"
        # The new state_rng (the pixel view's noise key) is randomness too:
        # ours takes Craftax's, as it takes the draws.
        sim.set_state_rng(*(int(w) for w in np.asarray(state.state_rng)))
        expected = np.array(oracle.pack_state(state))
        got = np.array(sim.get_state())
        differ = np.nonzero(expected != got)[0]
        assert differ.size == 0, f"seed {seed} step {t} action {action}: state fields {differ[:10]}"
        np.testing.assert_array_equal(sim.obs(), np.asarray(obs), err_msg=f"step {t}")
        assert np.float32(our_reward) == np.float32(reward), f"step {t}"
        assert our_done == bool(done), f"step {t}"
        if check is not None:
            check(sim, state, t)
        if done:
            break
    return t + 1, np.asarray(state.achievements)


def test_state_size_matches_craftax_state() -> None:
    assert len(oracle.pack_state(oracle.new_world(0))) == _core.craftax_state_size


@pytest.mark.parametrize("seed", [0, 1])
def test_random_actions_match_craftax(seed: int) -> None:
    run_episode(seed, max_steps=300)


#: Left, a table to the left, down, a furnace below, every tool, right, a
#: stone to the right, up, a sapling above.
CRAFTING_SCRIPT = (1, 8, 4, 9, 11, 12, 13, 14, 15, 16, 2, 7, 3, 10)


def test_crafting_and_placing_match_craftax() -> None:
    # A player with materials (Craftax's world 5, inventory given) who builds a
    # table and a furnace, crafts every tool, then mostly does, places and crafts.
    start = oracle.with_inventory(oracle.new_world(5), 9)
    weights = np.ones(17)
    weights[5] = 4.0
    weights[7:17] = 3.0
    _, unlocked = run_episode(5, 300, weights / weights.sum(), start, CRAFTING_SCRIPT)
    # The crafting and placing achievements were reached (the check has teeth).
    for index in (1, 5, 6, 7, 10, 13, 14, 16, 20, 21):
        assert unlocked[index], index


def test_night_and_time_limit_match_craftax() -> None:
    # Late in an episode and at night: more zombies, the time limit ends it.
    start = oracle.at_timestep(oracle.new_world(9), oracle.PARAMS.max_timesteps - 120)
    steps, _ = run_episode(9, 200, start=start)
    assert steps == 120  # ended by the time limit, not by death


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(2, 22))
def test_whole_episodes_match_craftax(seed: int) -> None:
    run_episode(seed, max_steps=10000)
