"""The lint and format checks of `.ci/run`, run by the README's test command too.

CI runs its lint lines only after the tests and the sanitizers (~30 min in); a
formatting slip found there fails the whole run. This test runs the very same lines
(read from `.ci/run`, so the two cannot drift apart) in the test suite, where a
developer sees them before pushing.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LINTERS = ("ruff", "mypy", "clang-format")


def ci_lint_lines() -> list[str]:
    """The lines of `.ci/run` that call a linter, in order."""
    lines = (ROOT / ".ci" / "run").read_text().splitlines()
    return [ln for ln in lines if ln.split(" ", 1)[0] in LINTERS]


def test_ci_has_every_linter():
    tools = {ln.split(" ", 1)[0] for ln in ci_lint_lines()}
    assert tools == set(LINTERS), tools


@pytest.mark.parametrize("line", ci_lint_lines(), ids=lambda ln: " ".join(ln.split()[:3]))
def test_ci_lint_line_passes(line: str):
    tool = line.split(" ", 1)[0]
    # The tools of this interpreter's environment first, as when it is activated.
    path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    # The linters are in the `test` extra; a missing one is an install error, not a skip.
    assert shutil.which(tool, path=path), f"{tool} is not installed (pip install '.[test]')"
    # The globs of the clang-format line are expanded by the shell, as in CI.
    proc = subprocess.run(
        ["bash", "-c", line],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "PATH": path},
    )
    assert proc.returncode == 0, f"{shlex.quote(line)} failed:\n{proc.stdout}\n{proc.stderr}"
