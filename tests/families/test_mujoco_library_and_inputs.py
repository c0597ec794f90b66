"""The MuJoCo library and model files we load (the installed wheels'), bad
model files and bad actions refused with clear errors, and MuJoCo's warnings
routed to Python without deadlocking the pool's threads."""

from __future__ import annotations

import math
import os

import numpy as np
import pytest

import envpool_x
from envpool_x.families import mujoco as mj

pytest.importorskip("mujoco")
gym = pytest.importorskip("gymnasium")
if not mj.has_mujoco():
    pytest.skip("envpool_x was built without MuJoCo", allow_module_level=True)


@pytest.mark.parametrize("task", ["HalfCheetah-v5", "Hopper-v4"])
def test_bad_actions_rejected(task: str) -> None:
    env = envpool_x.make_gymnasium(task, num_envs=2)
    env.reset()
    n = env.single_action_space.shape[0]
    with pytest.raises(ValueError, match=rf"shape \(2, {n + 1}\) but 2 envs need shape \(2, {n}\)"):
        env.step(np.zeros((2, n + 1), dtype=np.float32))
    for bad in (math.nan, math.inf, -math.inf):
        a = np.zeros((2, n), dtype=np.float32)
        a[1, n - 1] = bad
        with pytest.raises(
            ValueError, match=rf"env 1 is not finite \(NaN or inf\) at index {n - 1}"
        ):
            env.step(a)
    env.step(np.zeros((2, n), dtype=np.float32))  # still usable
    env.close()


LIBRARY_CHECK = """
import os, sys
import envpool_x
# envpool_x's extension is loaded; the mujoco package is not imported yet, so
# whatever libmujoco is mapped was found through the extension's own run path.
assert "mujoco" not in sys.modules
print([line.split()[-1] for line in open("/proc/self/maps") if "libmujoco" in line][0])
print(envpool_x._core.mujoco_version)
print(envpool_x.make_spec("HalfCheetah-v5").env_config["xml_file"])
"""


@pytest.mark.skipif(not os.path.exists("/proc/self/maps"), reason="reads Linux's /proc")
def test_library_and_models_come_from_the_installed_wheels(tmp_path) -> None:
    """Without LD_LIBRARY_PATH, the extension maps libmujoco 3.17.0 from the
    installed mujoco wheel, and the model XMLs are gymnasium's own files."""
    import importlib.util
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "LD_LIBRARY_PATH"}
    proc = subprocess.run(
        [sys.executable, "-c", LIBRARY_CHECK],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    library, version, xml = proc.stdout.split()
    wheel = importlib.util.find_spec("mujoco").submodule_search_locations[0]
    assert os.path.samefile(library, os.path.join(wheel, f"libmujoco.so.{mj.MUJOCO_VERSION}"))
    assert version == mj.MUJOCO_VERSION
    assets = os.path.join(os.path.dirname(gym.__file__), "envs", "mujoco", "assets")
    assert os.path.samefile(xml, os.path.join(assets, "half_cheetah.xml"))


def test_missing_model_file_is_a_clear_error() -> None:
    with pytest.raises(FileNotFoundError, match="nope.xml"):
        envpool_x.make_gymnasium("HalfCheetah-v5", xml_file="/nope.xml")


def test_bad_model_file_is_a_clear_error(tmp_path) -> None:
    bad = tmp_path / "bad.xml"
    bad.write_text("<mujoco><worldbody><body></mujoco>")
    with pytest.raises(ValueError, match="could not load"):
        envpool_x.make_gymnasium("HalfCheetah-v5", xml_file=str(bad))


PYTHON_WARNING_CALLBACK = """
import ctypes, mujoco, numpy as np
import envpool_x

warnings = []

# What dm_control does on import: MuJoCo's process-wide warning handler becomes
# a Python function (a ctypes callback, which needs the GIL to run).
@ctypes.CFUNCTYPE(None, ctypes.c_char_p)
def on_warning(message):
    warnings.append(message)

mujoco.set_mju_user_warning(on_warning)
# half_cheetah.xml warns while it compiles (a deprecated attribute), here on
# the pool's builder threads; closing and garbage collection join the workers.
for _ in range(3):
    env = envpool_x.make_gymnasium("HalfCheetah-v5", num_envs=4, num_threads=2)
    env.reset()
    env.step(np.zeros((4, 6), np.float32))
    del env
assert warnings, "the model did not warn: this check no longer tests anything"
print("NO DEADLOCK", len(warnings))
"""


def test_python_warning_callback_does_not_deadlock(tmp_path) -> None:
    """A library that routes MuJoCo's warnings to Python (dm_control does, on
    import) must not deadlock a pool whose threads make MuJoCo warn."""
    import subprocess
    import sys

    proc = subprocess.run(
        [sys.executable, "-c", PYTHON_WARNING_CALLBACK],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "NO DEADLOCK" in proc.stdout
