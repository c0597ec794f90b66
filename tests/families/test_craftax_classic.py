"""Craftax-Classic-Symbolic-v1 against craftax 1.6.1's JAX step, step by step.

Each episode starts from Craftax's own world (its generator, seed by seed),
loaded into our C++ game (CraftaxClassicSim, the family's test hook); both then
take the same random actions and the same random draws (tests/oracles/
craftax_oracle.py hands ours to Craftax), and the whole state, the observation,
the reward and the end of the episode must agree exactly, to the episode's end.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("craftax")
_core = pytest.importorskip("envpool_x._core")
if not hasattr(_core, "CraftaxClassicSim"):
    pytest.skip("built without ENVPOOL_X_CRAFTAX", allow_module_level=True)

import craftax_oracle as oracle  # noqa: E402

STEP = oracle.make_step()


def _draws(rng: np.random.Generator) -> np.ndarray:
    """One step's draws: float32 uniforms in [0, 1) with 24 random bits."""
    bits = rng.integers(0, 2**24, size=_core.craftax_draws_per_step)
    return (bits / 2**24).astype(np.float32)


def run_episode(seed: int, max_steps: int, action_weights: np.ndarray | None = None) -> int:
    """Step both games from Craftax's world ``seed``; return the steps taken."""
    rng = np.random.default_rng(seed)
    state = oracle.new_world(seed)
    sim = _core.CraftaxClassicSim()
    sim.set_state(oracle.pack_state(state))
    np.testing.assert_array_equal(sim.obs(), oracle.observe(state))
    for t in range(max_steps):
        action = int(rng.choice(17, p=action_weights))
        draws = _draws(rng)
        oracle.DRAWS.clear()
        oracle.DRAWS.extend(draws.tolist())
        state, reward, done, obs = STEP(state, np.int32(action))
        assert not oracle.DRAWS, f"step {t}: Craftax took fewer draws than ours"
        our_reward, our_done, used = sim.step(action, draws.tolist())
        assert used == len(draws), f"step {t}: we took {used} draws"
        expected = np.array(oracle.pack_state(state))
        got = np.array(sim.get_state())
        differ = np.nonzero(expected != got)[0]
        assert differ.size == 0, f"seed {seed} step {t} action {action}: state fields {differ[:10]}"
        np.testing.assert_array_equal(sim.obs(), np.asarray(obs), err_msg=f"step {t}")
        assert np.float32(our_reward) == np.float32(reward), f"step {t}"
        assert our_done == bool(done), f"step {t}"
        if done:
            return t + 1
    return max_steps


def test_state_size_matches_craftax_state() -> None:
    assert len(oracle.pack_state(oracle.new_world(0))) == _core.craftax_state_size


@pytest.mark.parametrize("seed", [0, 1])
def test_random_actions_match_craftax(seed: int) -> None:
    run_episode(seed, max_steps=300)


def test_crafting_heavy_actions_match_craftax() -> None:
    # DO, placing and crafting more often than uniform actions would.
    weights = np.ones(17)
    weights[5] = 12.0
    weights[7:17] = 2.0
    run_episode(7, max_steps=400, action_weights=weights / weights.sum())


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(2, 22))
def test_whole_episodes_match_craftax(seed: int) -> None:
    run_episode(seed, max_steps=10000)
