"""Shared by the Atari tests (tests/families/test_atari_*.py)."""

from __future__ import annotations

import envpool_x


def make(task: str, **kw):  # type: ignore[no-untyped-def]
    kw.setdefault("num_envs", 1)
    return envpool_x.make_gymnasium(task, **kw)
