"""The memory check under an address-space limit (``ulimit -v``): the num_envs a
MemoryError suggests fits every limit and builds, and what a task allocates
per env from its config (a numba env's state) counts."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

import envpool_x
from envpool_x import memory


def _under_rlimit(code: str, limit: int) -> str:
    """Run ``code`` in a child whose address space is capped at ``limit``
    bytes; return what it prints (a crash or a kill fails the test)."""
    prelude = f"import resource\nresource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))\n"
    out = subprocess.run(
        [sys.executable, "-c", prelude + textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=600,
        env={k: v for k, v in os.environ.items() if k != memory.SKIP_ENV_VAR},
    )
    assert out.returncode == 0, f"rc={out.returncode}\n{out.stdout}\n{out.stderr[-3000:]}"
    return out.stdout


# Tasks whose address space exceeds what they touch (MuJoCo's arena, Box2D's
# stack allocator): the limit that binds under ulimit -v is the address space.
_TASKS = [t for t in ("Hopper-v5", "LunarLander-v3") if t in envpool_x.list_all_envs()]


@pytest.mark.skipif(not _TASKS, reason="no MuJoCo or Box2D family in this build")
@pytest.mark.parametrize("task", _TASKS)
def test_the_suggested_num_envs_builds_under_an_address_space_limit(task: str) -> None:
    out = _under_rlimit(
        f"""
        import re
        import numpy as np
        import envpool_x
        try:
            envpool_x.make_gymnasium({task!r}, num_envs=10**7)
        except MemoryError as e:
            print("refused:", e)
            fit = int(re.search(r"fits is (\\d+)\\.", str(e)).group(1))
        env = envpool_x.make_gymnasium({task!r}, num_envs=fit)
        env.reset()
        env.step(np.stack([env.single_action_space.sample() for _ in range(fit)]))
        print("built", fit)
        """,
        limit=2 << 30,
    )
    assert "refused:" in out and "within memory and address space (RLIMIT_AS)" in out, out
    assert int(out.split("built ")[1]) > 0, out


def _register_big_state(task: str, state_size: int) -> None:
    numba = pytest.importorskip("numba")
    from gymnasium import spaces

    @numba.njit
    def reset(state, obs, rand):  # type: ignore[no-untyped-def]
        obs[0] = 0.0

    @numba.njit
    def step(state, action, obs, rand):  # type: ignore[no-untyped-def]
        obs[0] = 0.0
        return 0.0, False

    envpool_x.register_numba_env(
        task,
        reset,
        step,
        state_size=state_size,
        observation_space=spaces.Box(-1.0, 1.0, (1,)),
        action_space=spaces.Discrete(2),
        step_random=1000,
    )


def test_a_numba_env_s_state_and_random_buffers_count_in_the_estimate() -> None:
    task = "BigStateEstimate-v0"
    _register_big_state(task, 10**6)
    spec = envpool_x.make_spec(task, num_envs=4)
    per_env = memory.estimate(spec).per_env["resident"]
    assert per_env >= 8 * (10**6 + 1000), per_env
    assert per_env < 8 * (10**6 + 1000) + 64 * 1024, per_env


def test_a_large_numba_state_is_refused_under_an_address_space_limit() -> None:
    out = _under_rlimit(
        f"""
        import sys
        sys.path.insert(0, {os.path.dirname(__file__)!r})
        from test_memory_limits import _register_big_state
        import envpool_x
        _register_big_state("BigState-v0", 1 << 27)  # 1 GiB of state per env
        try:
            envpool_x.make_gymnasium("BigState-v0", num_envs=8)
        except MemoryError as e:
            print("refused:", e)
        """,
        limit=4 << 30,
    )
    assert "refused:" in out, out
    assert "(1.0 GiB per env)" in out and "address space (RLIMIT_AS)" in out, out
