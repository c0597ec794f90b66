"""``envpool-x record`` with bad input, through ``python -m envpool_x``: one line
``envpool-x: error: ...`` on stderr and exit status 2, never a traceback, and
nothing recorded or written."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest


def _record(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "envpool_x", "record", *args, "--quiet"],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, **(env or {})},
    )


def _assert_one_line_error(out: subprocess.CompletedProcess[str], match: str) -> None:
    assert out.returncode == 2, (out.returncode, out.stdout, out.stderr)
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("envpool-x: error: "), out.stderr
    assert "Traceback" not in out.stderr
    assert match in lines[0], lines[0]


@pytest.mark.parametrize(
    ("args", "match"),
    [
        (["NoSuchTask-v0"], "unknown task id 'NoSuchTask-v0'"),
        (["CartPole-v1", "--steps", "-5"], "--steps must be an int in [0, 10000000], got -5"),
        (["CartPole-v1", "--fps", "0"], "--fps must be an int in [1, 1000], got 0"),
        (["CartPole-v1", "--num-envs", "0"], "num_envs must be >= 1, got 0"),
        (["CartPole-v1", "--seed", "-1"], "seed must be in [0, 2**64), got -1"),
        (["CartPole-v1", "--policy", "nomodule"], "--policy must be module:function"),
        (["CartPole-v1", "--policy", "no_such_module_x:f"], "No module named 'no_such_module_x'"),
        (["CartPole-v1", "--policy", "os:no_such_name"], "module 'os' has no 'no_such_name'"),
        (["CartPole-v1", "--policy", "os:sep"], "--policy os:sep is not callable"),
        (["MaxCut-v0"], "MaxCut-v0 draws no frames"),
        (["CartPole-v1", "--num-envs", "1000000000"], "the largest num_envs that fits is"),
    ],
    ids=lambda v: " ".join(v) if isinstance(v, list) else None,
)
def test_bad_options_are_one_line_errors(tmp_path: Path, args: list[str], match: str) -> None:
    out_path = tmp_path / "run.png"
    out = _record(args[0], "--out", str(out_path), *args[1:])
    _assert_one_line_error(out, match)
    assert not out_path.exists()


@pytest.mark.parametrize(
    ("out_name", "match"),
    [
        ("run.txt", "--out must end in one of"),
        ("missing/run.png", "the folder {tmp}/missing does not exist"),
        ("folder.png", "is a folder"),
        ("/proc/run.png", "/proc/run.png cannot be written"),
        ("readonly/run.mp4", "cannot be written: Permission denied"),
    ],
)
def test_unwritable_outputs_are_refused_before_recording(
    tmp_path: Path, out_name: str, match: str
) -> None:
    (tmp_path / "folder.png").mkdir()
    readonly = tmp_path / "readonly"
    readonly.mkdir()
    os.chmod(readonly, 0o500)
    if match.endswith("Permission denied") and os.geteuid() == 0:
        pytest.skip("root may write into a read-only folder")
    out = _record("CartPole-v1", "--out", str(tmp_path / out_name), "--steps", "3")
    _assert_one_line_error(out, match.format(tmp=tmp_path))
    assert list(readonly.iterdir()) == []


def test_missing_imageio_is_a_one_line_error(tmp_path: Path) -> None:
    fake = tmp_path / "fake"
    (fake / "imageio").mkdir(parents=True)
    (fake / "imageio" / "__init__.py").write_text(
        "raise ImportError(\"No module named 'imageio' (hidden by the test)\")\n"
    )
    path = os.pathsep.join([str(fake), os.environ.get("PYTHONPATH", "")])
    out = _record("CartPole-v1", "--out", str(tmp_path / "run.mp4"), env={"PYTHONPATH": path})
    _assert_one_line_error(out, "recording needs imageio")
    assert 'pip install "envpool-x[render]"' in out.stderr


def test_good_input_still_records(tmp_path: Path) -> None:
    out = _record("CartPole-v1", "--out", str(tmp_path / "run.png"), "--steps", "2")
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "run.png").stat().st_size > 0
