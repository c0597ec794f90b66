"""``render_mode="human"``: one window that shows the latest frame (tkinter from the
standard library; no pygame needed)."""

from __future__ import annotations

import os
from typing import Any

import numpy as np

_WINDOW: dict[str, Any] = {}


def show(frame: np.ndarray) -> None:
    """Show ``frame`` (H, W, 3 uint8) in the envpool_x window, opening it first.

    Raises:
        RuntimeError: no display ($DISPLAY / $WAYLAND_DISPLAY unset) or no tkinter.
    """
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        raise RuntimeError(
            "render_mode='human' needs a display, and $DISPLAY is not set here; use "
            "render_mode='rgb_array' and write the frames to a video "
            "(envpool-x record TASK --out video.mp4)"
        )
    try:
        import tkinter
    except ImportError as e:
        raise RuntimeError(
            "render_mode='human' opens its window with tkinter, which this Python lacks "
            "(Debian / Ubuntu: apt-get install python3-tk)"
        ) from e
    if "root" not in _WINDOW:
        root = tkinter.Tk()
        root.title("envpool_x")
        label = tkinter.Label(root)
        label.pack()
        _WINDOW.update(root=root, label=label)
    height, width = frame.shape[:2]
    ppm = f"P6 {width} {height} 255\n".encode() + np.ascontiguousarray(frame).tobytes()
    image = tkinter.PhotoImage(data=ppm, format="PPM")
    _WINDOW["label"].configure(image=image)
    _WINDOW["image"] = image  # tkinter shows an image only while a reference lives
    _WINDOW["root"].update()
