"""The README's fresh-machine test command is exactly what CI runs."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text()
    return re.findall(r"```bash\n(.+?)\n```", text)


def test_ci_runs_the_readme_test_command():
    commands = readme_commands()
    test_cmds = [c for c in commands if "pytest" in c]
    assert len(test_cmds) == 1, test_cmds
    ci_lines = (ROOT / ".ci" / "run").read_text().splitlines()
    assert test_cmds[0] in ci_lines


def test_readme_main_job_is_the_bench_cli():
    commands = readme_commands()
    assert any("envpool-x bench" in c and "pip install" in c for c in commands)
