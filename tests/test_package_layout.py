"""The Python package has no import circle, and each family module registers its
tasks against the registry it imports at its top."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "python" / "envpool_x"
FAMILIES = ["classic_control", "toy_text", "testing", "atari", "mujoco", "dmc"]


def module_name(path: Path, root: Path = PACKAGE) -> str:
    parts = ["envpool_x", *path.relative_to(root).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph(root: Path = PACKAGE) -> dict[str, set[str]]:
    """Module -> the package modules it imports, at module level or inside
    functions (a deferred import closes a circle as surely as a top one)."""
    modules = {module_name(p, root): p for p in root.rglob("*.py")}
    # Compiled submodules (envpool_x._core) have a stub beside them.
    submodules = set(modules) | {module_name(p, root) for p in root.rglob("*.pyi")}
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        for node in ast.walk(ast.parse(path.read_text())):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                # `from pkg import sub` needs pkg.sub only (pkg is already
                # being imported); `from pkg import name` needs pkg itself.
                for a in node.names:
                    sub = f"{node.module}.{a.name}"
                    targets.append(sub if sub in submodules else node.module)
            for target in targets:
                if target in modules and target != name:
                    graph[name].add(target)
    # Importing a submodule imports its parent packages first; a package's
    # own __init__ importing its submodules is how packages work, not a circle.
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A cycle of the graph as a list of modules, or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state and (cycle := visit(nxt)) is not None:
                return cycle
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)) is not None:
            return cycle
    return None


def test_no_import_circle() -> None:
    cycle = find_cycle(import_graph())
    assert cycle is None, " -> ".join(cycle or [])


def test_the_circle_finder_finds_the_old_registry_circle(tmp_path: Path) -> None:
    """The registry importing a family that imports the registry back inside a
    function (the layout this package had) is a circle."""
    pkg = tmp_path / "envpool_x"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("from envpool_x.registration import register\n")
    (pkg / "registration.py").write_text(
        "def register(): pass\nfrom envpool_x.atari import register_atari_tasks\n"
    )
    (pkg / "atari.py").write_text(
        "def register_atari_tasks():\n    from envpool_x.registration import register\n"
    )
    cycle = find_cycle(import_graph(pkg))
    assert cycle is not None and "envpool_x.registration" in cycle and "envpool_x.atari" in cycle


def test_registry_imports_no_family() -> None:
    assert not any(
        target.startswith("envpool_x.families")
        for target in import_graph()["envpool_x.registration"]
    )


def test_each_family_imports_the_registry_at_its_top() -> None:
    for family in FAMILIES:
        tree = ast.parse((PACKAGE / "families" / f"{family}.py").read_text())
        top = [
            n.module
            for n in tree.body
            if isinstance(n, ast.ImportFrom) and n.module is not None and n.level == 0
        ]
        assert "envpool_x.registration" in top, family
