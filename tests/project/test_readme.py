"""The README and docs/: the README's fresh-machine test command is what CI runs;
the framework snippets of docs/frameworks.md run; every relative link resolves."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import run_python

ROOT = Path(__file__).resolve().parents[2]
#: Where the framework snippets live (one ```python block per section).
FRAMEWORKS_DOC = "docs/frameworks.md"


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


def section_snippets(file: str, title: str) -> list[str]:
    """The ```python blocks of the section of ``file`` (relative to the repository
    root) headed ``title``, at any heading level: from that heading to the next
    heading of the same or a higher level (``#`` lines inside code blocks are not
    headings)."""
    lines = (ROOT / file).read_text().splitlines()
    level, body, fenced = 0, [], False
    for line in lines:
        if line.startswith("```"):
            fenced = not fenced
        heading = None if fenced else re.match(r"(#{1,6}) (.*)", line)
        if heading and level and len(heading.group(1)) <= level:
            break
        if level:
            body.append(line)
        elif heading and heading.group(2).strip() == title:
            level = len(heading.group(1))
    assert level, f"{file} has no section headed '{title}'"
    return re.findall(r"```python\n(.+?)\n```", "\n".join(body), re.S)


def test_readme_has_one_snippet_per_framework():
    for title in ("Stable-Baselines3", "CleanRL", "Tianshou"):
        assert len(section_snippets(FRAMEWORKS_DOC, title)) == 1, title


def markdown_files() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def heading_anchors(path: Path) -> set[str]:
    """GitHub's anchors for the headings of a markdown file: lower case, spaces to
    hyphens, punctuation other than hyphens and underscores dropped."""
    anchors, fenced = set(), False
    for line in path.read_text().splitlines():
        if line.startswith("```"):
            fenced = not fenced
        heading = None if fenced else re.match(r"#{1,6} (.*)", line)
        if heading:
            text = heading.group(1).strip().lower()
            anchors.add(re.sub(r"[^\w\- ]", "", text).replace(" ", "-"))
    return anchors


def relative_links(path: Path) -> list[str]:
    """The targets of the markdown links of a file that are not URLs, outside code
    blocks and inline code."""
    text = re.sub(r"```.*?```", "", path.read_text(), flags=re.S)
    text = re.sub(r"`[^`\n]*`", "", text)
    targets = re.findall(r"\]\(([^)\s]+)\)", text)
    return [t for t in targets if not re.match(r"[a-z][a-z0-9+.-]*:", t)]


def test_readme_and_docs_links_point_to_existing_files():
    files = markdown_files()
    assert len(files) > 10, files  # the README and its docs/ pages
    broken = []
    for path in files:
        for target in relative_links(path):
            name, _, anchor = target.partition("#")
            dest = (path.parent / name).resolve() if name else path
            if not dest.exists():
                broken.append(f"{path.relative_to(ROOT)}: {target} (no such file)")
            elif anchor and dest.suffix == ".md" and anchor not in heading_anchors(dest):
                broken.append(f"{path.relative_to(ROOT)}: {target} (no such heading)")
    assert not broken, "\n".join(broken)


def test_readme_links_every_doc_page():
    readme = set(relative_links(ROOT / "README.md"))
    pages = {f"docs/{p.name}" for p in (ROOT / "docs").glob("*.md")}
    assert pages <= readme, sorted(pages - readme)


def run_here(snippet: str, file: str = FRAMEWORKS_DOC) -> dict:
    """exec a snippet in this process (imports and JIT warm-up are shared with
    the framework's own tests); returns its globals."""
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # small nets on a shared 2-core machine
    try:
        scope: dict = {"__name__": "__readme__"}
        exec(compile(snippet, file, "exec"), scope)
    finally:
        torch.set_num_threads(threads)
    return scope


@pytest.mark.timeout(600)
def test_readme_sb3_snippet_runs():
    pytest.importorskip("stable_baselines3")
    (snippet,) = section_snippets(FRAMEWORKS_DOC, "Stable-Baselines3")
    scope = run_here(snippet)
    assert scope["mean_return"] > 0
    assert scope["model"].num_timesteps >= 10_000


@pytest.mark.timeout(600)
def test_readme_cleanrl_snippet_runs_with_old_gym(old_gym, tmp_path):
    """CleanRL's side of the env_type="gym" rule: gym 0.23.1 is installed."""
    (snippet,) = section_snippets(FRAMEWORKS_DOC, "CleanRL")
    check = "\nimport gym\nassert isinstance(envs.action_space, gym.spaces.Discrete)\n"
    run_python(["-c", snippet + check], cwd=tmp_path, pythonpath=old_gym)


@pytest.mark.timeout(600)
def test_readme_tianshou_snippet_runs():
    pytest.importorskip("tianshou")
    (snippet,) = section_snippets(FRAMEWORKS_DOC, "Tianshou")
    stats = run_here(snippet)["stats"]
    assert stats.n_collected_steps == 1_000
    assert stats.n_collected_episodes > 0 and stats.returns.mean() > 0
