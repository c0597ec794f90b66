"""Atari frames against a direct ALE loop (ale-py) and OpenCV: raw frames bit
for bit, EnvPool's max-pool / resize / stack preprocessing, fire reset and
no-ops."""

from __future__ import annotations

import numpy as np
import pytest
from atari_helpers import make

import envpool_x
from conftest import ale_oracle
from envpool_x.families import atari

if not atari.has_atari():
    pytest.skip(
        "envpool_x was built without the Atari family (ENVPOOL_X_ATARI=OFF)",
        allow_module_level=True,
    )
pytest.importorskip("ale_py", reason="the Atari oracle needs ale-py (the [test] extra)")
cv2 = pytest.importorskip("cv2", reason="the resize oracle needs opencv-python-headless")

FIRE = 1


oracle = ale_oracle


@pytest.mark.parametrize("gray", [True, False])
def test_raw_frames_identical_to_ale(gray: bool) -> None:
    # frame_skip 1, no resize, no no-ops (noop_max=1 with fire reset), sticky 0.
    env = make(
        "Breakout-v5",
        img_height=210,
        img_width=160,
        stack_num=1,
        frame_skip=1,
        noop_max=1,
        gray_scale=gray,
    )
    ale = oracle("breakout")
    actions = ale.getMinimalActionSet()

    def screen() -> np.ndarray:
        if gray:
            return ale.getScreenGrayscale()[None]
        return ale.getScreenRGB().transpose(2, 0, 1)

    obs, _ = env.reset()
    ale.act(FIRE)
    np.testing.assert_array_equal(obs[0], screen())
    rng = np.random.default_rng(0)
    for _ in range(300):
        a = int(rng.integers(len(actions)))
        obs, rew, term, trunc, info = env.step(np.array([a]))
        r = ale.act(actions[a])
        assert rew[0] == r and info["lives"][0] == ale.lives()
        np.testing.assert_array_equal(info["ram"][0], ale.getRAM())
        np.testing.assert_array_equal(obs[0], screen())
        if term[0]:
            break
    env.close()


def test_maxpool_resize_and_stack_match_ale_and_opencv() -> None:
    env = make("Breakout-v5", noop_max=1)  # frame_skip 4, 84x84, stack 4, area resize
    ale = oracle("breakout")
    actions = ale.getMinimalActionSet()

    def resize(frame: np.ndarray) -> np.ndarray:
        return cv2.resize(frame, (84, 84), interpolation=cv2.INTER_AREA)

    obs, _ = env.reset()
    ale.act(FIRE)
    first = resize(ale.getScreenGrayscale())
    expected = [first] * 4  # a new game fills the whole stack
    rng = np.random.default_rng(1)
    same = total = 0
    worst = steps = 0
    for _ in range(200):
        steps += 1
        got = obs[0].astype(int)
        want = np.stack(expected).astype(int)
        same += int((got == want).sum())
        total += got.size
        worst = max(worst, int(np.abs(got - want).max()))
        a = int(rng.integers(len(actions)))
        obs, rew, term, _, _ = env.step(np.array([a]))
        frames, reward = [], 0
        for _ in range(4):
            reward += ale.act(actions[a])
            frames.append(ale.getScreenGrayscale())
        assert rew[0] == reward
        pooled = np.maximum(frames[-2], frames[-1])
        expected = expected[1:] + [resize(pooled)]
        if term[0]:
            break
    assert steps > 20
    # Not bit-identical: OpenCV and we sum the area weights in float in a
    # different order; a sum landing on .5 may round the other way.
    assert same / total >= 0.99, same / total
    assert worst <= 1
    env.close()


def test_resize_rgb_and_bilinear_close_to_opencv() -> None:
    ale = oracle("space_invaders")
    for _ in range(50):
        ale.act(FIRE)
    for area, flag in ((True, cv2.INTER_AREA), (False, cv2.INTER_LINEAR)):
        env = make(
            "SpaceInvaders-v5",
            noop_max=0,
            use_fire_reset=False,
            gray_scale=False,
            stack_num=1,
            frame_skip=1,
            img_height=100,
            img_width=70,
            use_inter_area_resize=area,
        )
        env.reset()
        for _ in range(50):
            obs, *_ = env.step(np.array([FIRE]))
        want = cv2.resize(ale.getScreenRGB(), (70, 100), interpolation=flag).transpose(2, 0, 1)
        diff = np.abs(obs[0].astype(int) - want.astype(int))
        # Bilinear: OpenCV uses 11-bit fixed-point weights, we use float.
        assert (diff == 0).mean() >= 0.99 and diff.max() <= 1, (area, (diff == 0).mean())
        env.close()


def test_fire_reset_and_noops() -> None:
    # noop_max=1: with fire reset no no-op (one FIRE), without it one no-op.
    for fire in (True, False):
        env = make(
            "Breakout-v5",
            img_height=210,
            img_width=160,
            stack_num=1,
            noop_max=1,
            use_fire_reset=fire,
        )
        ale = oracle("breakout")
        ale.act(FIRE if fire else 0)
        obs, _ = env.reset()
        np.testing.assert_array_equal(obs[0, 0], ale.getScreenGrayscale())
        env.close()
    # Pong's minimal action set has FIRE; a game without FIRE gets no fire reset.
    spec = envpool_x.make_spec("Skiing-v5")
    assert spec.action_space.n == 3


def test_noops_are_random_per_env_and_noop_max_zero_works() -> None:
    env = make("Pong-v5", num_envs=8, noop_max=30, img_height=210, img_width=160, stack_num=1)
    obs, _ = env.reset()
    ram = env.step(np.zeros(8, dtype=np.int32))[4]["ram"]
    assert len({r.tobytes() for r in ram}) > 1  # different numbers of no-ops
    env.close()
    env = make("Pong-v5", num_envs=2, noop_max=0)
    obs, _ = env.reset()
    assert obs.shape == (2, 4, 84, 84)
    np.testing.assert_array_equal(obs[0], obs[1])
    env.step(np.zeros(2, dtype=np.int32))
    env.close()
