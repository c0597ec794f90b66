"""Craftax-Classic-Pixels-v1, render() and EnvPool's info keys, against craftax 1.6.1.

The pixel view is compared with Craftax's own ``render_craftax_pixels`` (jitted)
for the same state at every step of parity episodes (the episodes of
test_craftax_classic.py: same states, same draws, same state_rng keys), by day,
at night (the static noise from the state's key) and asleep.

Tolerance: XLA's CPU compiler fuses the night and daylight blends (multiply-adds
contracted differently from our plain float32 C++), so a pixel may differ by
a float32 ulp or two: a relative difference of at most 5e-7 (seen: 2.1e-7),
in the 0..255 pixels and in the [0, 1] observation alike. Every other part
(textures, blocks, player, mobs, arrows, inventory, digits, the noise) is exact.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("craftax")
_core = pytest.importorskip("envpool_x._core")
if not hasattr(_core, "CraftaxClassicPixels"):
    pytest.skip("built without ENVPOOL_X_CRAFTAX", allow_module_level=True)

import craftax_oracle as oracle  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from test_craftax_classic import run_episode  # noqa: E402

import envpool_x  # noqa: E402
from envpool_x.families import craftax as family  # noqa: E402
from envpool_x.families.craftax_textures import classic_textures  # noqa: E402

RTOL = 5e-7  # about 4 float32 ulps


@pytest.fixture(scope="module", autouse=True)
def textures() -> None:
    for block in (7, 16):
        family.load_textures(block)


@pytest.mark.parametrize("block", [7, 16])
def test_textures_equal_craftax(block: int) -> None:
    from craftax.craftax_classic.constants import load_all_textures

    theirs = load_all_textures()[block]
    ours = classic_textures(block)
    np.testing.assert_array_equal(ours[0], np.asarray(theirs["block_textures"]))
    np.testing.assert_array_equal(ours[1], np.asarray(theirs["smaller_block_textures"]))
    centre = np.s_[:, 3 * block : 4 * block, 4 * block : 5 * block]
    np.testing.assert_array_equal(ours[2], np.asarray(theirs["full_map_player_textures"])[centre])
    alpha = np.asarray(theirs["full_map_player_textures_alpha"])
    np.testing.assert_array_equal(ours[3], alpha[centre])
    np.testing.assert_array_equal(ours[4], np.asarray(theirs["number_textures"]))
    np.testing.assert_array_equal(ours[5], np.asarray(theirs["number_textures_alpha"]))
    for i, name in enumerate(("zombie", "cow", "skeleton")):
        np.testing.assert_array_equal(ours[7][i], np.asarray(theirs[f"{name}_texture"]))
        np.testing.assert_array_equal(ours[8][i], np.asarray(theirs[f"{name}_texture_alpha"]))
    np.testing.assert_array_equal(ours[9], np.asarray(theirs["arrow_texture"]))
    noise = np.asarray(theirs["night_noise_intensity_texture"])[:, :, 0]
    np.testing.assert_array_equal(ours[11], noise)


class PixelCheck:
    """Compares our pixel view with Craftax's after each step; counts the night
    and sleeping steps seen (so a test knows its episode reached them)."""

    def __init__(self, blocks: tuple[int, ...] = (7,)) -> None:
        self.blocks = blocks
        self.night = self.sleeping = 0
        self.worst = 0.0

    def __call__(self, sim: object, state: object, t: int) -> None:
        for block in self.blocks:
            theirs = np.asarray(oracle.pixel_renderer(block)(state))
            ours = sim.pixels(block)  # type: ignore[attr-defined]
            np.testing.assert_allclose(ours, theirs, rtol=RTOL, atol=1e-6, err_msg=f"step {t}")
            self.worst = max(self.worst, float(np.abs(ours - theirs).max()))
        obs = np.asarray(oracle.pixel_observer()(state))
        ours_obs = sim.pixels(7) * np.float32(1.0 / 255.0)  # type: ignore[attr-defined]
        np.testing.assert_allclose(ours_obs, obs, rtol=RTOL, atol=1e-9, err_msg=f"step {t}")
        self.night += float(state.light_level) < 0.5  # type: ignore[attr-defined]
        self.sleeping += bool(state.is_sleeping)  # type: ignore[attr-defined]


def test_pixels_match_craftax_by_day() -> None:
    check = PixelCheck()
    run_episode(1, max_steps=120, check=check)


def test_pixels_match_craftax_at_night_and_asleep() -> None:
    # From dusk: the night's noise, more zombies; sleep is more likely.
    weights = np.ones(17)
    weights[6] = 8.0
    start = oracle.at_timestep(oracle.new_world(4), 170)
    check = PixelCheck(blocks=(7, 16))
    run_episode(4, max_steps=150, action_weights=weights / weights.sum(), start=start, check=check)
    assert check.night > 50 and check.sleeping > 5, (check.night, check.sleeping)


def test_pool_observation_is_the_pixel_view() -> None:
    env = envpool_x.make_gymnasium("Craftax-Classic-Pixels-v1", num_envs=3, seed=3)
    assert env.observation_space.shape == (63, 63, 3)
    obs, _ = env.reset()
    sim = _core.CraftaxClassicSim()
    rng = np.random.default_rng(0)
    for _ in range(30):
        for i in range(3):
            sim.set_state(env.get_state(i))
            np.testing.assert_array_equal(obs[i], sim.pixels(7) * np.float32(1.0 / 255.0))
        obs, *_ = env.step(rng.integers(0, 17, size=3))
    env.close()


@pytest.mark.parametrize("task", ["Craftax-Classic-Symbolic-v1", "Craftax/Classic-Pixels-v1"])
def test_render_is_the_pixel_view_at_render_tile_size(task: str) -> None:
    env = envpool_x.make_gymnasium(task, num_envs=2, seed=1, render_mode="rgb_array")
    env.reset()
    env.step(np.array([3, 4]))
    frames = env.render(env_ids=[0, 1])
    assert frames.shape == (2, 144, 144, 3) and frames.dtype == np.uint8
    sim = _core.CraftaxClassicSim()
    for i in range(2):
        sim.set_state(env.get_state(i))
        expected = np.clip(np.rint(sim.pixels(16)), 0, 255).astype(np.uint8)
        np.testing.assert_array_equal(frames[i], expected)
    env.close()
    big = envpool_x.make_gymnasium(task, num_envs=1, render_mode="rgb_array", render_tile_size=64)
    big.reset()
    assert big.render().shape == (1, 576, 576, 3)
    big.close()


def test_render_tile_size_is_checked() -> None:
    with pytest.raises(ValueError, match="render_tile_size"):
        envpool_x.make_gymnasium("Craftax-Classic-Pixels-v1", render_tile_size=3)


@pytest.mark.parametrize(
    "task", ["Craftax-Classic-Pixels-AutoReset-v1", "Craftax/Classic-Symbolic-AutoReset-v1"]
)
def test_autoreset_ids_reset_in_the_same_step(task: str) -> None:
    assert envpool_x.make_spec(task).config.autoreset_mode == "same_step"
    plain = task.replace("-AutoReset", "")
    assert envpool_x.make_spec(plain).config.autoreset_mode == "next_step"
    given = envpool_x.make_spec(task, autoreset_mode="disabled")
    assert given.config.autoreset_mode == "disabled"  # the user's value wins


def _compute_score(unlocked: np.ndarray, done: bool) -> dict[str, np.ndarray]:
    """Craftax's own info (``compute_score``) for these achievements."""
    from craftax.craftax_classic.envs.common import compute_score

    state = oracle.new_world(0).replace(achievements=jnp.asarray(unlocked))
    return {k: np.asarray(v) for k, v in compute_score(state, done).items()}


@pytest.mark.parametrize("autoreset_mode", ["next_step", "same_step"])
def test_achievement_info_as_craftax_computes_it(autoreset_mode: str) -> None:
    env = envpool_x.make_gymnasium(
        "Craftax-Classic-Symbolic-v1", num_envs=4, seed=2, autoreset_mode=autoreset_mode
    )
    _, info = env.reset()
    assert all(not info[k].any() for k in family.ACHIEVEMENT_KEYS) and not info["score"].any()
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(1500):
        _, _, term, trunc, info = env.step(rng.integers(0, 17, size=4))
        done = term | trunc
        keys = (*family.ACHIEVEMENT_KEYS, "score")
        assert all(info[k].dtype == np.float32 and info[k].shape == (4,) for k in keys)
        for i in range(4):
            if not done[i]:  # Craftax: zero until the episode's last step
                assert all(info[k][i] == 0 for k in keys)
                continue
            source = info["final_info"] if autoreset_mode == "same_step" else info
            expected = _compute_score(source["achievements"][i].astype(bool), True)
            for key in keys:
                np.testing.assert_allclose(info[key][i], expected[key], rtol=1e-6, err_msg=key)
        ended += int(done.sum())
        if ended >= 3:
            break
    assert ended >= 3
    env.close()
