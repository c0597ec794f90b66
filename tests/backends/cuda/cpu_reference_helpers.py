"""Shared by the tests that check device="cpu-reference" (and the GPU) against
the thread-pool engine: exact comparison of results, actions drawn beyond the
bounds, and a pair of envs, one on each path."""

from __future__ import annotations

import numpy as np

import envpool_x


def assert_same(a, b, path="result"):
    """Exact equality of nested tuples / dicts of arrays (bit for bit)."""
    if isinstance(a, dict):
        assert set(a) == set(b), f"{path}: keys {sorted(a)} != {sorted(b)}"
        for k in a:
            assert_same(a[k], b[k], f"{path}[{k!r}]")
    elif isinstance(a, tuple):
        assert len(a) == len(b), path
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            assert_same(x, y, f"{path}[{i}]")
    else:
        x, y = np.asarray(a), np.asarray(b)
        assert x.dtype == y.dtype, f"{path}: dtype {x.dtype} != {y.dtype}"
        assert x.shape == y.shape, f"{path}: shape {x.shape} != {y.shape}"
        # Compare bits, so that -0.0 vs 0.0 or NaN payloads would show.
        assert x.tobytes() == y.tobytes(), f"{path}: values differ\n{x}\n{y}"


def draw_actions(space, n, rng):
    if hasattr(space, "n"):
        return rng.integers(0, int(space.n), size=n).astype(np.int64)
    # Beyond the bounds too, so the dynamics' clipping is exercised.
    width = float(space.high[0] - space.low[0])
    low, high = float(space.low[0]) - 0.25 * width, float(space.high[0]) + 0.25 * width
    return rng.uniform(low, high, size=(n, *space.shape)).astype(np.float32)


def make_pair(task, **kw):
    cpu = envpool_x.make_gymnasium(task, **kw)
    ref = envpool_x.make_gymnasium(task, device="cpu-reference", **kw)
    return cpu, ref
