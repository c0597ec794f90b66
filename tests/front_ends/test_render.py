"""render_mode and env.render(): Atari against ale-py, MuJoCo and DMC frames from
the env's state, the front ends, video recorders (gymnasium's RecordVideo, SB3's
VecVideoRecorder) and the `record` CLI, each writing a real video read back."""

from __future__ import annotations

import os

import numpy as np
import pytest

import envpool_x
from conftest import ale_oracle

ale_py = pytest.importorskip("ale_py")
imageio = pytest.importorskip("imageio.v3")


def _gl_available() -> bool:
    return bool(os.environ.get("MUJOCO_GL") or os.environ.get("DISPLAY"))


needs_gl = pytest.mark.skipif(
    not _gl_available(), reason="no OpenGL backend: apt-get install libosmesa6 (see docs/render.md)"
)


def test_atari_frames_equal_ale_py() -> None:
    env = envpool_x.make_gymnasium(
        "Breakout-v5",
        num_envs=2,
        noop_max=1,
        repeat_action_probability=0.0,
        render_mode="rgb_array",
    )
    ale = ale_oracle("breakout")
    actions = ale.getMinimalActionSet()
    env.reset()
    ale.act(actions[1])  # the fire reset
    frame = env.render()
    assert frame.shape == (1, 210, 160, 3) and frame.dtype == np.uint8
    np.testing.assert_array_equal(frame[0], ale.getScreenRGB())
    rng = np.random.default_rng(0)
    for _ in range(60):
        a = int(rng.integers(len(actions)))
        _, _, term, _, _ = env.step(np.array([a, a]))
        for _ in range(4):
            ale.act(actions[a])
        np.testing.assert_array_equal(env.render(env_ids=[1])[0], ale.getScreenRGB())
        if term[0]:
            break
    env.close()


@needs_gl
@pytest.mark.parametrize("task", ["HalfCheetah-v5", "Ant-v4", "Hopper-v5"])
def test_mujoco_frames_follow_the_state(task: str) -> None:
    env = envpool_x.make_gymnasium(task, num_envs=3, render_mode="rgb_array")
    env.reset(seed=0)
    frames = env.render(env_ids=[0, 1, 2])
    assert frames.shape == (3, 480, 480, 3) and frames.dtype == np.uint8
    state = env.get_state(0)
    state[0] += 1.0  # move the body along x: the picture changes
    env._pool.set_state(1, state)
    env._pool.set_state(2, env.get_state(0))
    a, b, c = env.render(env_ids=[0, 1, 2])
    assert not np.array_equal(a, b)
    np.testing.assert_array_equal(a, c)  # equal states, equal frames
    env.close()


@needs_gl
def test_dmc_frames_follow_the_state() -> None:
    env = envpool_x.make_dm("CheetahRun-v1", num_envs=2, render_mode="rgb_array")
    env.reset()
    frames = env.render(env_ids=[0, 1])
    assert frames.shape == (2, 240, 320, 3) and frames.dtype == np.uint8
    assert not np.array_equal(frames[0], frames[1])  # random initial poses
    env._pool.set_state(1, env._pool.get_state(0))
    a, b = env.render(env_ids=[0, 1])
    np.testing.assert_array_equal(a, b)
    env.close()


def test_render_api_errors_and_modes() -> None:
    env = envpool_x.make_gymnasium("Pong-v5", num_envs=2)
    env.reset()
    with pytest.warns(UserWarning, match="without render_mode"):
        assert env.render() is None
    env.close()
    with pytest.raises(ValueError, match="render_mode must be"):
        envpool_x.make_gymnasium("Pong-v5", render_mode="rgb")
    env = envpool_x.make_gymnasium("Pong-v5", num_envs=4, batch_size=2, render_mode="rgb_array")
    assert env.metadata["render_modes"] == ["rgb_array", "human"]
    env.async_reset()
    _, _, _, _, info = env.recv()
    busy = sorted(set(range(4)) - set(info["env_id"].tolist()))
    with pytest.raises(RuntimeError, match="in flight"):
        env.render(env_ids=busy[:1])
    with pytest.raises(ValueError, match="out of range"):
        env.render(env_ids=[7])
    assert env.render(env_ids=info["env_id"]).shape == (2, 210, 160, 3)
    env.close()
    with pytest.raises(NotImplementedError, match="draws no frames"):
        faults = envpool_x.make_gymnasium("FaultInjection-v0", render_mode="rgb_array")
        faults.reset()
        faults.render()


def test_human_mode_without_a_display_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    env = envpool_x.make_gymnasium("Pong-v5", render_mode="human")
    env.reset()
    with pytest.raises(RuntimeError, match="needs a display"):
        env.render()
    env.close()


def test_gymnasium_record_video_on_a_single_env_view(tmp_path) -> None:
    pytest.importorskip("moviepy")
    from gymnasium.wrappers import RecordVideo

    pool = envpool_x.make_gymnasium("Pong-v5", num_envs=1, render_mode="rgb_array")
    env = RecordVideo(pool.single_env(), str(tmp_path), episode_trigger=lambda e: True)
    env.reset(seed=0)
    for _ in range(40):
        env.step(env.action_space.sample())
    env.close()
    (video,) = tmp_path.glob("*.mp4")
    frames = imageio.imread(video)
    assert frames.shape[1:] == (210, 160, 3) and len(frames) == 41


def test_sb3_vec_video_recorder(tmp_path) -> None:
    pytest.importorskip("moviepy")
    pytest.importorskip("stable_baselines3")
    from stable_baselines3.common.vec_env import VecVideoRecorder as Recorder

    venv = envpool_x.make_sb3("Pong-v5", num_envs=4, render_mode="rgb_array")
    rec = Recorder(venv, str(tmp_path), record_video_trigger=lambda s: s == 0, video_length=30)
    rec.reset()
    for _ in range(35):
        rec.step(np.zeros(4, dtype=np.int64))
    rec.close()
    (video,) = tmp_path.glob("*.mp4")
    frames = imageio.imread(video)
    assert len(frames) >= 30 and frames.shape[1:3] == (420, 320)  # SB3 tiles 4 envs 2 x 2


def test_record_cli_writes_a_video_and_a_png(tmp_path) -> None:
    from envpool_x.cli import main

    out = tmp_path / "pong.mp4"
    assert (
        main(
            [
                "record",
                "Pong-v5",
                "--out",
                str(out),
                "--steps",
                "20",
                "--num-envs",
                "4",
                "--grid",
                "--quiet",
            ]
        )
        == 0
    )
    frames = imageio.imread(out)
    assert frames.shape == (21, 420, 320, 3)
    png = tmp_path / "pong.png"
    assert main(["record", "Pong-v5", "--out", str(png), "--steps", "5", "--quiet"]) == 0
    assert imageio.imread(png).shape == (210, 160, 3)
    assert main(["record", "Pong-v5", "--out", str(tmp_path / "x.txt"), "--quiet"]) == 2


FAMILY_FRAMES = {
    "CartPole-v1": (400, 600),
    "Acrobot-v1": (500, 500),
    "FrozenLake-v1": (256, 256),
    "Blackjack-v1": (376, 384),
    "Pong-v5": (210, 160),
}


@pytest.mark.parametrize("task", sorted(FAMILY_FRAMES))
@pytest.mark.parametrize("env_type", ["gymnasium", "dm"])
def test_every_front_end_renders_each_family(task: str, env_type: str) -> None:
    env = envpool_x.make(task, env_type=env_type, num_envs=3, render_mode="rgb_array")
    env.reset()
    frames = env.render(env_ids=[2, 0])
    assert frames.shape == (2, *FAMILY_FRAMES[task], 3) and frames.dtype == np.uint8
    assert frames.std() > 0  # not a blank picture
    env.close()


def test_gpu_path_frames_equal_the_cpu_engines_for_the_same_state() -> None:
    """device="cpu-reference" runs the CUDA path's kernels on the CPU; render
    copies the env's state to the host and draws it as the CPU engine does."""
    gpu = envpool_x.make_gymnasium(
        "CartPole-v1",
        num_envs=2,
        device="cpu-reference",
        array_backend="numpy",
        render_mode="rgb_array",
    )
    cpu = envpool_x.make_gymnasium("CartPole-v1", num_envs=2, render_mode="rgb_array")
    gpu.reset(seed=3)
    cpu.reset()
    for _ in range(5):
        gpu.step(np.ones(2, np.int64))
    cpu._pool.set_state(1, gpu.get_state(1))
    np.testing.assert_array_equal(gpu.render(env_ids=[1]), cpu.render(env_ids=[1]))
    gpu.close()
    cpu.close()


def test_gymnasium_make_vec_and_gym_front_ends_render() -> None:
    import gymnasium

    vec = gymnasium.make_vec(
        "envpool_x/Pong-v5",
        num_envs=2,
        vectorization_mode="vector_entry_point",
        render_mode="rgb_array",
    )
    vec.reset()
    assert vec.render_mode == "rgb_array" and vec.render().shape == (1, 210, 160, 3)
    vec.close()
    gym = envpool_x.make_gym("CartPole-v1", num_envs=2, render_mode="rgb_array")
    gym.reset()
    assert gym.render(env_ids=[1]).shape == (1, 400, 600, 3)
    gym.close()


def test_no_opengl_backend_says_what_to_install(tmp_path) -> None:
    import subprocess
    import sys

    code = (
        "import envpool_x\n"
        "e = envpool_x.make_gymnasium('Hopper-v5', render_mode='rgb_array'); e.reset()\n"
        "try:\n    e.render()\nexcept RuntimeError as ex:\n    print(ex)\n"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env["MUJOCO_GL"] = "glfw"  # no display: GLFW cannot make a context
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300
    )
    assert "could not render with MUJOCO_GL=glfw" in out.stdout, out.stdout + out.stderr
    assert "apt-get install libosmesa6" in out.stdout


def test_gymnasium_single_env_view() -> None:
    pool = envpool_x.make_gymnasium("CartPole-v1", num_envs=3, render_mode="rgb_array")
    env = pool.single_env(2)
    obs, info = env.reset(seed=5)
    assert obs.shape == (4,) and int(info["env_id"]) == 2
    obs, reward, terminated, truncated, _ = env.step(1)
    assert obs.shape == (4,) and reward == 1.0 and not truncated and terminated in (True, False)
    assert env.render().shape == (400, 600, 3)
    with pytest.raises(ValueError, match="out of range"):
        pool.single_env(3)
    with pytest.raises(TypeError):
        pool.single_env(1.0)
    env.close()
    with pytest.raises(ValueError, match="batch_size"):
        envpool_x.make_gymnasium("CartPole-v1", num_envs=4, batch_size=2).single_env()


def test_craftax_frames_follow_the_state() -> None:
    pytest.importorskip("craftax")  # its textures
    if not hasattr(envpool_x._core, "CraftaxClassic"):
        pytest.skip("built without ENVPOOL_X_CRAFTAX")
    env = envpool_x.make_gymnasium(
        "Craftax-Classic-Symbolic-v1", num_envs=2, render_mode="rgb_array"
    )
    env.reset(seed=0)
    a, b = env.render(env_ids=[0, 1])
    assert a.shape == (144, 144, 3) and a.dtype == np.uint8
    assert not np.array_equal(a, b)  # two worlds
    env._pool.set_state(1, env.get_state(0))
    a, b = env.render(env_ids=[0, 1])
    np.testing.assert_array_equal(a, b)  # equal states, equal frames
    env.close()
