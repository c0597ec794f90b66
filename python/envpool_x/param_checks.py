"""Checks of per-env parameter settings in Python (docs/params.md), for the
backends whose tables live in Python (MuJoCo Warp): the same checks and
messages as the C++ pools' (cpp/core/param_store.h, cpp/core/params.h), so
that every backend refuses a bad setting alike, before anything changes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

# The C++ ParamDraw codes (cpp/core/params.h), as envpool_x.params encodes them.
FIXED, UNIFORM, LOG_UNIFORM, NORMAL, CHOICE = range(5)


def _text(v: float) -> str:
    """The shortest of 15 to 17 digits that reads back as ``v`` (C++'s ParamValueText)."""
    for digits in (15, 16, 17):
        text = f"{v:.{digits}g}"
        if float(text) == v:
            return text
    return text


def _check_value(spec: Mapping[str, Any], v: float, where: str) -> None:
    low, high = spec["low"], spec["high"]
    if not np.isfinite(v) or v < low or v > high:
        what = "outside" if np.isfinite(v) else "not a finite number in"
        raise ValueError(
            f"parameter '{spec['name']}'{where}: {_text(v)} is {what} its range "
            f"[{_text(low)}, {_text(high)}]"
        )


def check_settings(
    specs: Sequence[Mapping[str, Any]], settings: Mapping[str, Any], immediate: bool
) -> list[int]:
    """The declaration index of each parameter of ``settings``
    (envpool_x.params.encode's tuples) once every one is checked, with the C++
    pools' messages (core/param_store.h).

    Raises:
        KeyError: an unknown name. ValueError: a value or bound out of range,
            a bad distribution, or ``immediate`` with a distribution or for a
            parameter that cannot change mid-episode.
    """
    names = [s["name"] for s in specs]
    index = []
    for name, (code, a, b, choices) in settings.items():
        if name not in names:
            raise KeyError(
                f"unknown parameter '{name}'; this task's parameters: {', '.join(names) or 'none'}"
            )
        spec = specs[names.index(name)]
        if immediate and not spec["mid_episode"]:
            raise ValueError(
                f"parameter '{name}' cannot change mid-episode; set it without immediate=True "
                "(it applies at the next reset)"
            )
        if immediate and code != FIXED:
            raise ValueError(f"parameter '{name}': immediate=True takes values, not distributions")
        for j, (lo, hi) in enumerate(zip(a, b, strict=True)):
            where = "" if len(a) == 1 else f" for env {j}"
            if code == FIXED:
                _check_value(spec, lo, where)
            elif code in (UNIFORM, LOG_UNIFORM):
                _check_value(spec, lo, where + " (low)")
                _check_value(spec, hi, where + " (high)")
                if not lo <= hi:
                    raise ValueError(
                        f"parameter '{name}'{where}: low {_text(lo)} is above high {_text(hi)}"
                    )
                if code == LOG_UNIFORM and not lo > 0:
                    raise ValueError(
                        f"parameter '{name}'{where}: a log-uniform range needs low > 0, "
                        f"got {_text(lo)}"
                    )
            elif code == NORMAL:
                _check_value(spec, lo, where + " (mean)")
                if not np.isfinite(hi) or hi < 0:
                    raise ValueError(
                        f"parameter '{name}'{where}: the standard deviation must be finite "
                        f"and >= 0, got {_text(hi)}"
                    )
            else:
                for v in choices:
                    _check_value(spec, v, where + " (choice)")
        index.append(names.index(name))
    return index
