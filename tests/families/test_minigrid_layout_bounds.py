"""MiniGrid and BabyAI layouts always come back: options that cannot give a
layout are refused at make (ValueError naming them), a layout that runs into a
dead end is drawn again (minigrid samples on forever there), and a reset that
still finds none fails with a clear error after a bounded number of draws.
Resets run in a subprocess with a timeout, so that a hang fails the test."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

import envpool_x


@pytest.mark.parametrize(
    ("task", "config", "match"),
    [
        # 25 rooms of sides up to 10 never fit the 25 x 25 grid (reset hung).
        (
            "MiniGrid-MultiRoom-N6-v0",
            {"min_num_rooms": 25, "max_num_rooms": 25},
            "max_num_rooms=25 rooms of sides 4..10 do not fit the 25 x 25 grid in practice; "
            "with max_room_size=10 at most 14",
        ),
        (
            "MiniGrid-MultiRoom-N6-v0",
            {"max_room_size": 3},
            "max_room_size must be an int in \\[4, 24\\]",
        ),
        (
            "MiniGrid-Empty-5x5-v0",
            {"mission_bytes": 10**9},
            "mission_bytes must be an int in \\[1, 4096\\]",
        ),
        (
            "BabyAI-Unlock-v0",
            {"num_rows": 1, "num_cols": 1},
            "the Unlock level does not read num_cols",
        ),
        ("BabyAI-Synth-v0", {"num_rows": 1, "num_cols": 1}, "needs two rooms"),
        ("BabyAI-GoToDoor-v0", {"num_rows": 2}, "the GoToDoor level does not read num_rows"),
        ("BabyAI-KeyInBox-v0", {"num_cols": 1}, "the KeyInBox level does not read num_cols"),
        (
            "BabyAI-OpenTwoDoors-v0",
            {"num_cols": 2},
            "the OpenTwoDoors level does not read num_cols",
        ),
        (
            "BabyAI-OpenDoorsOrderN4-v0",
            {"num_rows": 2, "num_cols": 2},
            "the OpenDoorsOrder level does not read num_cols",
        ),
        ("BabyAI-GoToLocal-v0", {"num_dists": 0}, "needs num_dists >= 1"),
        ("BabyAI-GoTo-v0", {"num_dists": 0}, "needs num_dists >= 1"),
        ("BabyAI-MoveTwoAcrossS5N2-v0", {"objs_per_room": 1}, "needs objs_per_room >= 2"),
        (
            "BabyAI-GoToRedBall-v0",
            {"room_size": 4, "num_dists": 2},
            "3 objects do not fit in a room of room_size 4 \\(at most 1\\)",
        ),
        ("BabyAI-PutNextLocal-v0", {"room_size": 3}, "do not fit in a room of room_size 3"),
    ],
)
def test_options_without_a_layout_are_refused_at_make(task, config, match):
    try:
        envpool_x.registration.lookup(task)
    except Exception:
        pytest.skip(f"{task} is not registered here")
    with pytest.raises(ValueError, match=match):
        envpool_x.make_gymnasium(task, num_envs=1, **config)


# Each case used to loop for ever (or crash) in reset; each must now return or
# fail with the message given, within the subprocess's timeout.
_RESETS = textwrap.dedent(
    """
    import time
    import numpy as np
    import envpool_x

    def resets(task, n, **config):
        env = envpool_x.make_gymnasium(task, num_envs=8, seed=0, **config)
        for k in range(n):
            env.reset(seed=k)
            env.step(np.zeros(8, dtype=np.int32))
        env.close()

    # A first object in the middle of a 3 x 3 floor leaves no cell for the
    # second (minigrid: 1 reset in 9 hangs); the layout is drawn again.
    resets("MiniGrid-PutNear-6x6-N2-v0", 40, size=5, num_objs=2)
    # Four objects fit only in the corners: many dead ends, all redrawn.
    resets("MiniGrid-PutNear-6x6-N2-v0", 5, size=5, num_objs=4)
    # Rooms near the most that fit.
    resets("MiniGrid-MultiRoom-N6-v0", 3, min_num_rooms=12, max_num_rooms=12)
    resets("MiniGrid-MultiRoom-N6-v0", 3, min_num_rooms=20, max_num_rooms=20, max_room_size=4)
    # 9 objects in 3 x 3 rooms of one cell, one of them the agent's: none fits,
    # found out by the draws.
    start = time.monotonic()
    try:
        envpool_x.make_gymnasium("BabyAI-GoTo-v0", num_envs=1, room_size=3, num_dists=9).reset()
    except ValueError as e:
        assert "no valid layout in 10000 draws with room_size=3" in str(e), e
    else:
        raise SystemExit("BabyAI GoTo with 1-cell rooms gave a layout")
    print(f"ok {time.monotonic() - start:.1f}")
    """
)


def test_dead_ends_are_redrawn_and_impossible_layouts_fail_in_bounded_time():
    out = subprocess.run(
        [sys.executable, "-c", _RESETS], capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0 and out.stdout.startswith("ok"), out.stderr[-3000:]
    assert float(out.stdout.split()[1]) < 60
