"""A pool's state and frames before its first reset: get_state, set_state and
render (own frames, or drawn from the state) of one env of every pool class
say that the env has not been reset instead of reading a world that does not
exist yet (CarRacing's render used to kill the process). Everything runs in a
subprocess, so that a crash fails the test instead of killing pytest."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

# One task of every pool class (argv[1] == "all") or of every family (the CI
# sample: a family's pool classes share their reset code); each call before
# reset must raise RuntimeError "has not been reset". Prints a line per task
# first, so that a crash names it.
_SCRIPT = textwrap.dedent(
    """
    import sys
    import numpy as np
    import envpool_x
    from envpool_x import registration

    NOT_RESET = "has not been reset"
    every_pool = sys.argv[1] == "all"
    seen, checked = set(), 0
    for task in envpool_x.list_all_envs():
        entry = registration.lookup(task)
        key = entry.pool_name if every_pool else entry.family
        if key in seen:
            continue
        seen.add(key)
        print("task", task, flush=True)
        try:
            env = envpool_x.make_gymnasium(task, num_envs=1, render_mode="rgb_array")
        except Exception as e:  # not built here, assets missing, no renderer
            try:
                env = envpool_x.make_gymnasium(task, num_envs=1)
            except Exception:
                print("skip", task, type(e).__name__, e, flush=True)
                continue
        own_frames = env._pool.render_shape[0] > 0  # Atari, CarRacing
        calls = [("get_state", lambda: env.get_state(0), True),
                 ("set_state", lambda: env._pool.set_state(0, np.zeros(1)), True)]
        if env.render_mode is not None:
            # A renderer drawn from the state may fail earlier for want of
            # OpenGL: only a crash or a frame would be wrong then.
            calls.append(("render", env.render, own_frames))
        for name, call, strict in calls:
            try:
                call()
            except RuntimeError as e:
                if strict and NOT_RESET not in str(e):
                    sys.exit(f"{task} {name}: unexpected message {e}")
            except (ImportError, NotImplementedError) as e:
                if strict:
                    sys.exit(f"{task} {name}: {type(e).__name__} {e}")
            except Exception as e:
                sys.exit(f"{task} {name}: {type(e).__name__} {e}")
            else:
                sys.exit(f"{task} {name}: no error before reset")
        env.reset(seed=0)
        if env.render_mode is not None and own_frames:
            frames = env.render()  # own frames, once reset
            assert frames.ndim == 4 and frames.shape[0] == 1, frames.shape
        env.close()
        checked += 1
    print("checked", checked, flush=True)
    """
)


@pytest.mark.parametrize("which", ["family", pytest.param("all", marks=pytest.mark.slow)])
def test_state_and_frames_before_reset_raise_for_every_pool_class(which):
    out = subprocess.run(
        [sys.executable, "-c", _SCRIPT, which], capture_output=True, text=True, timeout=600
    )
    lines = out.stdout.splitlines()
    assert out.returncode == 0, (
        f"exit {out.returncode} after {lines[-1:] or 'nothing'}:\n{out.stderr[-3000:]}"
    )
    assert int(lines[-1].split()[1]) >= 10, out.stdout


@pytest.mark.parametrize(
    ("name", "args", "calls"),
    [
        ("CarRacingSim", (), ["step(None)", "render()", "car_state()"]),
        (
            "LunarLanderSim",
            (False, -10.0, False, 15.0, 1.5, True),
            ["step([0, 0], 0, 0)", "bodies()", "particles()", "render()"],
        ),
        ("BipedalWalkerSim", (False,), ["step([0, 0, 0, 0])", "render()"]),
    ],
)
def test_box2d_simulators_before_build_raise(name, args, calls):
    script = textwrap.dedent(
        f"""
        from envpool_x import _core
        sim = _core.{name}(*{args!r})
        for call in {calls!r}:
            try:
                eval("sim." + call)
            except RuntimeError as e:
                assert "call build() first" in str(e), e
            else:
                raise SystemExit(call + ": no error before build()")
        print("ok")
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-2000:]


def test_a_failed_reset_leaves_no_state_to_read():
    # FaultInjection never fails a reset; a pool whose last reset failed is
    # the user-env test's (tests/families/test_user_env_exceptions.py). Here:
    # after a reset, state and frames are there, and set_state works again.
    import numpy as np

    import envpool_x

    env = envpool_x.make_gymnasium("CartPole-v1", num_envs=2)
    with pytest.raises(RuntimeError, match="env 1 has not been reset; call reset"):
        env.get_state(1)
    env.reset(seed=1)
    state = np.asarray(env.get_state(1))
    env._pool.set_state(1, state)
    np.testing.assert_array_equal(env.get_state(1), state)
    env.close()
