"""Shared by the tests that check device="cpu-reference" (and the GPU) against
the thread-pool engine: exact comparison of results, actions drawn beyond the
bounds, and a pair of envs, one on each path."""

from __future__ import annotations

import numpy as np

import envpool_x
from envpool_x.params import Choice, LogUniform, Normal, Uniform


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


def to_numpy(x):
    """Device results (torch, CuPy, JAX) as host numpy arrays, nested alike."""
    if isinstance(x, dict):
        return {k: to_numpy(v) for k, v in x.items()}
    if isinstance(x, tuple):
        return tuple(to_numpy(v) for v in x)
    if hasattr(x, "detach"):  # torch
        return x.detach().cpu().numpy()
    if hasattr(x, "get"):  # CuPy refuses implicit host copies
        return x.get()
    return np.asarray(x)


def assert_close(cpu, gpu, path="result"):
    """Floats within the GPU tolerance (test_cuda.py's docstring), the rest exact."""
    if isinstance(cpu, dict):
        assert set(cpu) == set(gpu), path
        for k in cpu:
            assert_close(cpu[k], gpu[k], f"{path}[{k!r}]")
    elif isinstance(cpu, tuple):
        for i, (a, b) in enumerate(zip(cpu, gpu, strict=True)):
            assert_close(a, b, f"{path}[{i}]")
    else:
        a, b = np.asarray(cpu), np.asarray(gpu)
        assert a.dtype == b.dtype and a.shape == b.shape, path
        if a.dtype.kind == "f":
            np.testing.assert_allclose(b, a, rtol=1e-5, atol=1e-6, err_msg=path)
        else:
            np.testing.assert_array_equal(b, a, err_msg=path)


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


def param_distributions(task):
    """Uniform (per-env highs), LogUniform, Normal and Choice around the
    defaults of the task's first parameters (as many as it has)."""
    params = envpool_x.make_spec(task).params
    kinds = [
        lambda b: Uniform(0.8 * b, [1.2 * b, 1.1 * b, 1.3 * b, 1.2 * b]),
        lambda b: LogUniform(0.5 * b, 2.0 * b),
        lambda b: Normal(b, 0.1 * b),
        lambda b: Choice([0.9 * b, b, 1.1 * b]),
    ]
    names = list(params)[: len(kinds)]
    return {name: kind(params[name].default) for name, kind in zip(names, kinds, strict=False)}
