"""Atari family: frame parity with a direct ALE loop (ale-py), EnvPool's
preprocessing and reset semantics, options, errors, and the Pong-v5 pool."""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import envpool_x
from conftest import ale_oracle
from envpool_x import _core, registration
from envpool_x.families import atari

if not atari.has_atari():
    pytest.skip(
        "envpool_x was built without the Atari family (ENVPOOL_X_ATARI=OFF)",
        allow_module_level=True,
    )
ale_py = pytest.importorskip("ale_py", reason="the Atari oracle needs ale-py (the [test] extra)")
cv2 = pytest.importorskip("cv2", reason="the resize oracle needs opencv-python-headless")

FIRE = 1


oracle = ale_oracle


def make(task: str, **kw):  # type: ignore[no-untyped-def]
    kw.setdefault("num_envs", 1)
    return envpool_x.make_gymnasium(task, **kw)


def test_registry_lists_every_rom_of_ale_py() -> None:
    ids = envpool_x.list_all_envs()
    for name in ("Pong-v5", "Breakout-v5", "MontezumaRevenge-v5", "SpaceInvaders-v5"):
        assert name in ids
    ours = set(registration.envs_by_family()["atari"])
    # ale-py's own gymnasium ids (ALE/<Game>-v5): every game its ALE can run.
    import gymnasium

    gymnasium.register_envs(ale_py)
    theirs = {i[4:] for i in gymnasium.registry if i.startswith("ALE/") and i.endswith("-v5")}
    assert ours == theirs
    assert _core.ale_version == atari.ALE_VERSION == ale_py.__version__


def test_spaces_and_info_fields() -> None:
    env = make("Pong-v5", num_envs=2)
    assert env.single_observation_space.shape == (4, 84, 84)
    assert env.single_observation_space.dtype == np.uint8
    assert env.single_action_space.n == 6
    obs, info = env.reset()
    assert obs.shape == (2, 4, 84, 84)
    assert set(info) >= {"env_id", "elapsed_step", "lives", "reward", "terminated", "ram"}
    assert info["ram"].shape == (2, 128) and info["ram"].dtype == np.uint8
    full = envpool_x.make_spec("Pong-v5", full_action_space=True, gray_scale=False, stack_num=2)
    assert full.action_space.n == 18
    assert full.observation_space.shape == (6, 84, 84)
    env.close()


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


def test_reward_clip_keeps_raw_reward_in_info() -> None:
    kw = dict(num_envs=4, seed=3, noop_max=0)
    clipped = make("SpaceInvaders-v5", reward_clip=True, **kw)
    raw = make("SpaceInvaders-v5", **kw)
    clipped.reset()
    raw.reset()
    rng = np.random.default_rng(0)
    seen_big = False
    for _ in range(400):
        a = rng.integers(6, size=4)
        _, rc, _, _, ic = clipped.step(a)
        _, rr, _, _, ir = raw.step(a)
        np.testing.assert_array_equal(rr, ir["reward"])
        np.testing.assert_array_equal(ic["reward"], ir["reward"])
        np.testing.assert_array_equal(rc, np.sign(rr))
        seen_big |= bool((rr > 1).any())
    assert seen_big
    clipped.close()
    raw.close()


def test_episodic_life_and_zero_discount() -> None:
    kw = dict(num_envs=1, seed=0, noop_max=1, max_episode_steps=10000)
    life = make("Breakout-v5", episodic_life=True, **kw)
    plain = make("Breakout-v5", **kw)
    dm = envpool_x.make_dm("Breakout-v5", zero_discount_on_life_loss=True, **kw)
    life.reset()
    plain.reset()
    dm.reset()
    rng = np.random.default_rng(0)
    losses = 0
    for _ in range(2000):
        a = rng.integers(4, size=1)
        _, _, term, trunc, info = life.step(a)
        _, _, pterm, _, pinfo = plain.step(a)
        ts = dm.step(a)
        if term[0]:
            # Same game so far: a life lost ends the episode but not the game.
            assert pinfo["lives"][0] == info["lives"][0] > 0
            assert not pterm[0] and not info["terminated"][0]
            assert ts.discount[0] == 0.0 and ts.step_type[0] == 1  # MID: the game goes on
            losses += 1
            elapsed = info["elapsed_step"][0]
            _, _, term2, _, info2 = life.step(a)  # the auto-reset step
            assert not term2[0]
            # The game goes on: elapsed_step and lives continue.
            assert info2["elapsed_step"][0] == elapsed
            assert info2["lives"][0] == info["lives"][0]
            break
        assert ts.discount[0] == 1.0
    assert losses == 1
    for e in (life, plain, dm):
        e.close()


def test_truncation_at_max_episode_steps() -> None:
    env = make("Pong-v5", max_episode_steps=10, noop_max=0)
    assert envpool_x.make_spec("Pong-v5").config.max_episode_steps == 27000
    env.reset()
    for t in range(1, 11):
        _, _, term, trunc, info = env.step(np.array([0]))
        assert info["elapsed_step"][0] == t
        assert trunc[0] == (t == 10) and not term[0]
    _, _, _, trunc, info = env.step(np.array([0]))
    assert info["elapsed_step"][0] == 0 and not trunc[0]
    env.close()


def test_determinism_across_threads_and_sticky_actions() -> None:
    def run(threads: int) -> list[np.ndarray]:
        env = make(
            "Breakout-v5", num_envs=4, num_threads=threads, seed=5, repeat_action_probability=0.25
        )
        out = [env.reset()[0]]
        rng = np.random.default_rng(0)
        for _ in range(60):
            out.append(env.step(rng.integers(4, size=4))[0])
        env.close()
        return out

    a, b = run(1), run(2)
    for x, y in zip(a, b, strict=True):
        np.testing.assert_array_equal(x, y)


@pytest.mark.parametrize(
    "key, value, message",
    [
        # The declared ranges answer first (envpool_x.families.atari.ATARI_OPTIONS) ...
        ("stack_num", 0, "Pong-v5: stack_num must be an int in [1, 1024]"),
        ("frame_skip", 0, "Pong-v5: frame_skip must be an int in [1, 1000]"),
        ("img_height", 0, "Pong-v5: img_height must be an int in [1, 1024], got 0"),
        ("img_width", -3, "Pong-v5: img_width must be an int in [1, 1024], got -3"),
        ("noop_max", -1, "Pong-v5: noop_max must be an int in [0, "),
        ("repeat_action_probability", 1.5, "repeat_action_probability must be a finite number in"),
        # ... then C++, with the ROM's own modes and difficulties.
        ("mode", 12345, "mode 12345 is not a mode of 'pong'"),
        ("difficulty", 99, "difficulty 99 is not a difficulty of 'pong'"),
        ("rom_path", "/nonexistent/pong.bin", "does not exist"),
    ],
)
def test_bad_options(key: str, value: object, message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("[", r"\[").replace("]", r"\]")):
        envpool_x.make_gymnasium("Pong-v5", **{key: value})


def test_unknown_game_and_missing_ale_py(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(KeyError, match="Pong-v5"):
        envpool_x.make_spec("Pongg-v5")
    atari.rom_path.cache_clear()
    monkeypatch.setitem(sys.modules, "ale_py", None)
    monkeypatch.setitem(sys.modules, "ale_py.roms", None)
    with pytest.raises(ImportError, match=r"envpool-x\[atari\]"):
        envpool_x.make_spec("Pong-v5")
    atari.rom_path.cache_clear()


def test_valid_mode_and_difficulty() -> None:
    env = make("Breakout-v5", mode=4, difficulty=1)
    obs, _ = env.reset()
    env.step(np.array([1]))
    env.close()


def test_pong_100_envs_sync_and_async() -> None:
    env = envpool_x.make_gym("Pong-v5", num_envs=100)
    obs, info = env.reset()
    assert obs.shape == (100, 4, 84, 84)
    np.testing.assert_array_equal(info["env_id"], np.arange(100))
    for _ in range(3):
        obs, rew, term, trunc, info = env.step(np.random.randint(0, 6, size=100))
    assert obs.shape == (100, 4, 84, 84) and rew.dtype == np.float32
    env.close()

    env = envpool_x.make_gym("Pong-v5", num_envs=100, batch_size=50, num_threads=2)
    env.async_reset()
    seen = []
    for _ in range(6):
        obs, rew, term, trunc, info = env.recv()
        assert obs.shape == (50, 4, 84, 84)
        ids = info["env_id"]
        assert len(set(ids.tolist())) == 50
        seen.extend(ids.tolist())
        env.send(np.random.randint(0, 6, size=50), ids)
    assert set(seen) == set(range(100))
    env.close()


def test_module_exports_only_its_entry_point() -> None:
    # ALE and libstdc++ instantiations inside _core stay local: a process that
    # also loads ale_py's own ALE (or JAX's, torch's libstdc++ copies) with
    # RTLD_GLOBAL must not bind one library's calls to the other's code.
    nm = shutil.which("nm")
    if nm is None:
        pytest.skip("binutils' nm is not installed")
    out = subprocess.run(
        [nm, "-D", "--defined-only", _core.__file__], capture_output=True, text=True, check=True
    ).stdout
    exported = sorted(line.split()[-1] for line in out.splitlines() if line.strip())
    assert exported == ["PyInit__core"]


def test_runs_beside_ale_py_loaded_globally() -> None:
    # Both ALEs in one process, every library loaded with RTLD_GLOBAL, in both
    # import orders; each must step its own emulator and agree on the frames.
    code = textwrap.dedent(
        """
        import os, sys
        sys.setdlopenflags(os.RTLD_GLOBAL | os.RTLD_NOW)
        first, second = sys.argv[1:]
        __import__(first); __import__(second)
        import numpy as np, ale_py, envpool_x
        from envpool_x.families import atari
        ale = ale_py.ALEInterface()
        ale.setLoggerMode(ale_py.LoggerMode.Error)
        ale.setInt("random_seed", 0)
        ale.setFloat("repeat_action_probability", 0.0)
        ale.loadROM(atari.rom_path("breakout"))
        ale.reset_game()
        env = envpool_x.make_gymnasium("Breakout-v5", num_envs=1, img_height=210,
                                       img_width=160, stack_num=1, frame_skip=1, noop_max=1)
        obs, _ = env.reset()
        ale.act(1)
        actions = ale.getMinimalActionSet()
        for step in range(200):
            a = step % len(actions)
            obs, *_ = env.step(np.array([a]))
            ale.act(actions[a])
            assert (obs[0, 0] == ale.getScreenGrayscale()).all(), step
        env.close()
        print("ok")
        """
    )
    for order in (("envpool_x", "ale_py"), ("ale_py", "envpool_x")):
        proc = subprocess.run(
            [sys.executable, "-c", code, *order], capture_output=True, text=True, timeout=120
        )
        assert proc.returncode == 0 and proc.stdout.strip() == "ok", (order, proc.stderr[-2000:])


def test_emulation_only_loop_for_the_benchmarks() -> None:
    rom = atari.rom_path("pong")
    assert _core.atari_act_loop(rom, "pong", 200) > 0
    with pytest.raises(ValueError, match="frame_skip"):
        _core.atari_act_loop(rom, "pong", 10, 0)
