"""The README: its fresh-machine test command is what CI runs; its framework
snippets run."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import run_python

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


def section_snippets(title: str) -> list[str]:
    """The ```python blocks of the README section headed ``### title``."""
    text = (ROOT / "README.md").read_text()
    match = re.search(rf"^### {re.escape(title)}\n(.*?)(?=^##)", text, re.M | re.S)
    assert match, f"README has no section '### {title}'"
    return re.findall(r"```python\n(.+?)\n```", match.group(1), re.S)


def test_readme_has_one_snippet_per_framework():
    for title in ("Stable-Baselines3", "CleanRL", "Tianshou"):
        assert len(section_snippets(title)) == 1, title


def run_here(snippet: str) -> dict:
    """exec a snippet in this process (imports and JIT warm-up are shared with
    the framework's own tests); returns its globals."""
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # small nets on a shared 2-core machine
    try:
        scope: dict = {"__name__": "__readme__"}
        exec(compile(snippet, "README.md", "exec"), scope)
    finally:
        torch.set_num_threads(threads)
    return scope


@pytest.mark.timeout(600)
def test_readme_sb3_snippet_runs():
    pytest.importorskip("stable_baselines3")
    (snippet,) = section_snippets("Stable-Baselines3")
    scope = run_here(snippet)
    assert scope["mean_return"] > 0
    assert scope["model"].num_timesteps >= 10_000


@pytest.mark.timeout(600)
def test_readme_cleanrl_snippet_runs_with_old_gym(old_gym, tmp_path):
    """CleanRL's side of the env_type="gym" rule: gym 0.23.1 is installed."""
    (snippet,) = section_snippets("CleanRL")
    check = "\nimport gym\nassert isinstance(envs.action_space, gym.spaces.Discrete)\n"
    run_python(["-c", snippet + check], cwd=tmp_path, pythonpath=old_gym)


@pytest.mark.timeout(600)
def test_readme_tianshou_snippet_runs():
    pytest.importorskip("tianshou")
    (snippet,) = section_snippets("Tianshou")
    stats = run_here(snippet)["stats"]
    assert stats.n_collected_steps == 1_000
    assert stats.n_collected_episodes > 0 and stats.returns.mean() > 0
