"""``envpool-x record``: run an agent (random, or a policy function) in a pool and
write its frames to a video (one env, or a grid of several) or the last frame to
an image."""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from envpool_x.factory import make_gymnasium

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg")
VIDEO_SUFFIXES = (".mp4", ".gif", ".webm", ".avi", ".mkv")
#: The most steps one recording takes, and the highest frame rate.
MAX_STEPS = 10**7
MAX_FPS = 1000


def tile(frames: np.ndarray) -> np.ndarray:
    """Frames ``(k, H, W, 3)`` as one picture: a grid of ``ceil(sqrt(k))`` columns,
    empty cells black."""
    k, h, w, c = frames.shape
    cols = math.ceil(math.sqrt(k))
    rows = math.ceil(k / cols)
    grid = np.zeros((rows * h, cols * w, c), dtype=frames.dtype)
    for i, frame in enumerate(frames):
        r, col = divmod(i, cols)
        grid[r * h : (r + 1) * h, col * w : (col + 1) * w] = frame
    return grid


def _even(frame: np.ndarray) -> np.ndarray:
    """Pad to even height and width (the yuv420p video format needs them)."""
    h, w = frame.shape[:2]
    if h % 2 == 0 and w % 2 == 0:
        return frame
    return np.pad(frame, ((0, h % 2), (0, w % 2), (0, 0)))


def load_policy(spec: str | None, action_space: Any, num_envs: int) -> Callable[[Any], Any]:
    """``module:function`` (called with the batched observation, returns the
    batched actions), or None for uniformly random actions.

    Raises:
        ValueError: not ``module:function``, or the module has no such name.
        ImportError: the module cannot be imported.
        TypeError: the name is not callable.
    """
    if spec is None:
        action_space.seed(0)
        return lambda obs: np.stack([action_space.sample() for _ in range(num_envs)])
    module_name, sep, attr = spec.partition(":")
    if not sep or not module_name or not attr:
        raise ValueError(f"--policy must be module:function, got {spec!r}")
    module = importlib.import_module(module_name)
    if not hasattr(module, attr):
        raise ValueError(f"--policy {spec}: module {module_name!r} has no {attr!r}")
    func = getattr(module, attr)
    if not callable(func):
        raise TypeError(f"--policy {spec} is not callable")
    return func  # type: ignore[no-any-return]


def check_output(out: Path) -> None:
    """Refuse an output path that cannot be written, before anything is
    recorded: a missing folder, a folder, or a place the process may not
    create a file in (found by creating it, then removing it if it was new).

    Raises:
        ValueError: the path and why it cannot be written.
    """
    if out.is_dir():
        raise ValueError(f"--out {out} is a folder; give a file name such as {out / 'run.mp4'}")
    folder = out.parent
    if not folder.is_dir():
        raise ValueError(f"--out {out}: the folder {folder} does not exist")
    existed = out.exists()
    try:
        with open(out, "ab"):
            pass
    except OSError as e:
        raise ValueError(f"--out {out} cannot be written: {e.strerror or e}") from None
    if not existed:
        out.unlink()


def record(
    task: str,
    out: str | Path,
    steps: int = 500,
    num_envs: int = 1,
    grid: bool = False,
    policy: str | None = None,
    seed: int = 0,
    fps: int = 30,
    progress: bool = True,
    **config: Any,
) -> tuple[int, tuple[int, int]]:
    """Record ``steps`` steps of ``task`` to ``out`` (a video, or an image of the
    last frame); ``grid`` tiles every env's frame, else env 0 is recorded.

    Returns:
        ``(frames written, (height, width))``.

    Raises:
        ValueError: an unknown file type, a path that cannot be written, steps
            or fps out of range; ImportError: no video writer
            (``pip install "envpool-x[render]"``); and what making the env raises.
    """
    from tqdm import tqdm

    out = Path(out)
    suffix = out.suffix.lower()
    if suffix not in IMAGE_SUFFIXES + VIDEO_SUFFIXES:
        raise ValueError(f"--out must end in one of {IMAGE_SUFFIXES + VIDEO_SUFFIXES}, got {out}")
    for name, value, low, high in (("steps", steps, 0, MAX_STEPS), ("fps", fps, 1, MAX_FPS)):
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ValueError(f"--{name} must be an int in [{low}, {high}], got {value!r}")
    try:
        import imageio.v2 as imageio
    except ImportError as e:
        raise ImportError(f'recording needs imageio ({e}): pip install "envpool-x[render]"') from e
    check_output(out)
    env = make_gymnasium(task, num_envs=num_envs, seed=seed, render_mode="rgb_array", **config)
    act = load_policy(policy, env.single_action_space, num_envs)
    ids = np.arange(num_envs) if grid else np.array([0])

    def picture() -> np.ndarray:
        frames = env.render(env_ids=ids)
        return _even(tile(frames) if grid else frames[0])

    writer = None
    written = 0
    try:
        obs, _ = env.reset()
        frame = picture()
        if suffix in VIDEO_SUFFIXES:
            # macro_block_size=1: keep the frame's size (ffmpeg's default
            # would scale 210 x 160 up to multiples of 16).
            extra: dict[str, Any] = {"macro_block_size": 1} if suffix != ".gif" else {}
            writer = imageio.get_writer(out, fps=fps, **extra)
            writer.append_data(frame)
            written = 1
        for _ in tqdm(range(steps), desc=f"recording {task}", unit="step", disable=not progress):
            obs, *_ = env.step(act(obs))
            frame = picture()
            if writer is not None:
                writer.append_data(frame)
                written += 1
        if writer is None:
            imageio.imwrite(out, frame)
            written = 1
    finally:
        if writer is not None:
            writer.close()
        env.close()
    return written, (int(frame.shape[0]), int(frame.shape[1]))
