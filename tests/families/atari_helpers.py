"""Shared by the Atari tests (tests/families/test_atari_*.py)."""

from __future__ import annotations

import pytest

import envpool_x
from envpool_x.families import atari


def require_atari_and_oracles() -> None:
    """Skip the calling test module unless this build has Atari and the
    oracles (ale-py, OpenCV's resize) are installed."""
    if not atari.has_atari():
        pytest.skip(
            "envpool_x was built without the Atari family (ENVPOOL_X_ATARI=OFF)",
            allow_module_level=True,
        )
    pytest.importorskip("ale_py", reason="the Atari oracle needs ale-py (the [test] extra)")
    pytest.importorskip("cv2", reason="the resize oracle needs opencv-python-headless")


def make(task: str, **kw):  # type: ignore[no-untyped-def]
    kw.setdefault("num_envs", 1)
    return envpool_x.make_gymnasium(task, **kw)
