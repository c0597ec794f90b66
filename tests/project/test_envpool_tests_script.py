"""scripts/envpool_tests.py (EnvPool's test files against envpool_x) on a fake EnvPool
checkout: the files of our families are copied, EnvPool's registration tables are
read, ``import envpool`` gives the shim (not an installed EnvPool), and the summary
counts each file's tests."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "envpool_tests.py"

FAKE_TEST = """\
from absl.testing import absltest
import numpy as np

import envpool
import envpool.classic_control.registration as reg
from envpool.python.protocol import EnvPool
from envpool.registration import make_gym, registry


class FakeTest(absltest.TestCase):
    def test_shim(self):
        self.assertTrue(hasattr(envpool, "ENVPOOL_X_SHIM"))
        self.assertEqual(reg.classic_tasks, ["CartPole-v1"])
        self.assertEqual(registry.specs["CartPole-v1"][0], "envpool.classic_control")
        env = make_gym(reg.classic_tasks[0], num_envs=2)
        self.assertIsInstance(env, EnvPool)
        env.step(np.zeros(2, np.int32))  # EnvPool resets an env never reset

    def test_fails(self):
        self.assertEqual(1, 2)


if __name__ == "__main__":
    absltest.main()
"""

FAKE_REGISTRATION = """\
from envpool.registration import register

classic_tasks = ["CartPole-v1"]
for task in classic_tasks:
    register(task_id=task, import_path="envpool.classic_control", spec_cls="X")
"""


def _checkout(tmp_path: Path) -> Path:
    root = tmp_path / "envpool_checkout"
    family = root / "envpool" / "classic_control"
    family.mkdir(parents=True)
    (family / "fake_test.py").write_text(FAKE_TEST)
    (family / "registration.py").write_text(FAKE_REGISTRATION)
    (family / "classic_control.py").write_text("raise ImportError('not copied')\n")
    (root / "envpool" / "atari").mkdir()
    (root / "envpool" / "atari" / "api_test.py").write_text(
        "from envpool.atari import AtariEnvSpec  # EnvPool's internals\n"
    )
    (root / "envpool" / "procgen").mkdir()
    (root / "envpool" / "procgen" / "procgen_test.py").write_text("raise SystemExit(3)\n")
    return root


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=300
    )


def test_lists_only_our_families(tmp_path: Path) -> None:
    out = _run(str(_checkout(tmp_path)), "--work", str(tmp_path / "work"), "--list")
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == [
        "envpool/atari/api_test.py",
        "envpool/classic_control/fake_test.py",
    ]
    copied = {p.name for p in (tmp_path / "work" / "envpool" / "classic_control").iterdir()}
    assert "classic_control.py" not in copied  # EnvPool's own modules stay out
    assert {"fake_test.py", "_envpool_registration.py", "registration.py"} <= copied


def test_runs_against_the_shim(tmp_path: Path) -> None:
    work = tmp_path / "work"
    checkout = _checkout(tmp_path)
    out = _run(str(checkout), "--work", str(work), "--timeout", "200")
    assert out.returncode == 0, out.stderr
    assert f"import envpool -> {work}" in out.stdout
    assert "| envpool/classic_control/fake_test.py | 0 | 1 | 1 | 0 | " in out.stdout
    assert "has not been reset" in out.stdout  # envpool_x's ResetNeeded, listed
    assert "| envpool/atari/api_test.py | 0 | 0 | 0 | 0 |" in out.stdout
    assert "did not run (rc=1): ImportError: cannot import name 'AtariEnvSpec'" in out.stdout
    again = _run(str(checkout), "--work", str(work), "--reset-first", "fake_test")
    assert "| envpool/classic_control/fake_test.py | 1 | 1 | 0 | 0 | " in again.stdout, again.stdout


def test_reads_a_git_revision(tmp_path: Path) -> None:
    checkout = _checkout(tmp_path)
    git = ["git", "-C", str(checkout), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "fake"], check=True)
    (checkout / "envpool" / "classic_control" / "fake_test.py").unlink()  # only in the commit
    out = _run(str(checkout), "--rev", "HEAD", "--work", str(tmp_path / "work"), "--list")
    assert out.returncode == 0, out.stderr
    assert "envpool/classic_control/fake_test.py" in out.stdout.split()
    text = (tmp_path / "work" / "envpool" / "classic_control" / "fake_test.py").read_text()
    assert text == textwrap.dedent(FAKE_TEST)
