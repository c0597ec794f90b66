"""The ALE inside envpool_x._core: the module exports only its entry point, runs
beside ale-py's own ALE loaded globally (either import order), and its
emulation-only loop for the benchmarks."""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap

import pytest
from atari_helpers import require_atari_and_oracles

from envpool_x import _core
from envpool_x.families import atari

require_atari_and_oracles()


def test_module_exports_only_its_entry_point() -> None:
    # ALE and libstdc++ instantiations inside _core stay local: a process that
    # also loads ale_py's own ALE (or JAX's, torch's libstdc++ copies) with
    # RTLD_GLOBAL must not bind one library's calls to the other's code.
    nm = shutil.which("nm")
    if nm is None:
        pytest.skip("binutils' nm is not installed")
    out = subprocess.run(
        [nm, "-D", "--defined-only", _core.__file__], capture_output=True, text=True, check=True
    ).stdout
    exported = sorted(line.split()[-1] for line in out.splitlines() if line.strip())
    assert exported == ["PyInit__core"]


def test_runs_beside_ale_py_loaded_globally() -> None:
    # Both ALEs in one process, every library loaded with RTLD_GLOBAL, in both
    # import orders; each must step its own emulator and agree on the frames.
    code = textwrap.dedent(
        """
        import os, sys
        sys.setdlopenflags(os.RTLD_GLOBAL | os.RTLD_NOW)
        first, second = sys.argv[1:]
        __import__(first); __import__(second)
        import numpy as np, ale_py, envpool_x
        from envpool_x.families import atari
        ale = ale_py.ALEInterface()
        ale.setLoggerMode(ale_py.LoggerMode.Error)
        ale.setInt("random_seed", 0)
        ale.setFloat("repeat_action_probability", 0.0)
        ale.loadROM(atari.rom_path("breakout"))
        ale.reset_game()
        env = envpool_x.make_gymnasium("Breakout-v5", num_envs=1, img_height=210,
                                       img_width=160, stack_num=1, frame_skip=1, noop_max=1)
        obs, _ = env.reset()
        ale.act(1)
        actions = ale.getMinimalActionSet()
        for step in range(200):
            a = step % len(actions)
            obs, *_ = env.step(np.array([a]))
            ale.act(actions[a])
            assert (obs[0, 0] == ale.getScreenGrayscale()).all(), step
        env.close()
        print("ok")
        """
    )
    for order in (("envpool_x", "ale_py"), ("ale_py", "envpool_x")):
        proc = subprocess.run(
            [sys.executable, "-c", code, *order], capture_output=True, text=True, timeout=120
        )
        assert proc.returncode == 0 and proc.stdout.strip() == "ok", (order, proc.stderr[-2000:])


def test_emulation_only_loop_for_the_benchmarks() -> None:
    rom = atari.rom_path("pong")
    assert _core.atari_act_loop(rom, "pong", 200) > 0
    with pytest.raises(ValueError, match="frame_skip"):
        _core.atari_act_loop(rom, "pong", 10, 0)
