"""The Python package has no import circle, the registry imports no family, and
each family module registers its tasks against the registry it imports at its
top.

What counts as an edge of the import graph: every ``import`` / ``from ...
import`` of a module of the package, at module level or inside a function (a
deferred import closes a circle as surely as a top one, it only waits for the
call). ``from pkg import name`` needs ``pkg`` itself unless ``name`` is a
submodule of ``pkg``. Left out are the implicit edges from a submodule to the
packages above it (importing ``envpool_x.families.atari`` runs
``envpool_x/__init__.py`` first): with them every package whose ``__init__``
imports one of its own submodules would be a circle, which is how packages
work, not a circle. Also left out: imports under ``if TYPE_CHECKING:``, which
never run (type checkers read them; the interpreter does not).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "python" / "envpool_x"
FAMILIES = ["classic_control", "toy_text", "testing", "atari", "mujoco", "dmc", "combinatorial"]
FAMILIES += ["minigrid", "babyai"]
FAMILIES.append("multi_agent")
FAMILIES.append("box2d")
FAMILIES.append("procgen")
FAMILIES.append("craftax")
FAMILIES.append("metaworld")
FAMILIES.append("robotics")
FAMILIES.append("robotics_adroit")
FAMILIES.append("robotics_kitchen")
FAMILIES.append("robotics_maze")
#: The longest a module of the package may be (the bound tests/project/test_cpp_layout.py
#: sets for C++ files): a longer one holds more than one concern.
MAX_LINES = 420


def module_name(path: Path, root: Path = PACKAGE) -> str:
    """The dotted name of the module at ``path`` (a package is its folder's name)."""
    parts = ["envpool_x", *path.relative_to(root).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_module(name: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The absolute name of the module a ``from ... import`` in module ``name``
    names (``from . import x`` and ``from .sub import x`` are resolved)."""
    if node.level == 0:
        return node.module or ""
    base = name.split(".")
    if not is_package:
        base = base[:-1]  # a module's `.` is the package it is in
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def type_only_nodes(tree: ast.AST) -> set[int]:
    """The ids of the nodes under ``if TYPE_CHECKING:`` (never run)."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.body:
                out.update(id(n) for n in ast.walk(child))
    return out


def import_graph(root: Path = PACKAGE) -> dict[str, set[str]]:
    """Module -> the modules of the package it imports (see the module docstring)."""
    paths = {module_name(p, root): p for p in root.rglob("*.py")}
    # Compiled submodules (envpool_x._core) have a stub beside them.
    submodules = set(paths) | {module_name(p, root) for p in root.rglob("*.pyi")}
    graph: dict[str, set[str]] = {name: set() for name in paths}
    for name, path in paths.items():
        tree = ast.parse(path.read_text())
        type_only = type_only_nodes(tree)
        for node in ast.walk(tree):
            if id(node) in type_only:
                continue
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                module = imported_module(name, path.name == "__init__.py", node)
                for alias in node.names:
                    sub = f"{module}.{alias.name}"
                    targets.append(sub if sub in submodules else module)
            graph[name].update(t for t in targets if t in paths and t != name)
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A cycle of the graph as a list of modules (first == last), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
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


def top_level_imports(path: Path) -> list[str]:
    """What a file imports at module level: ``X`` for ``import X`` and for
    ``from X import ...``, and also ``X.name`` for each name of the latter."""
    out: list[str] = []
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Import):
            out += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            out += [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
    return out


def test_no_import_circle() -> None:
    cycle = find_cycle(import_graph())
    assert cycle is None, " -> ".join(cycle or [])


def write_package(root: Path, files: dict[str, str]) -> Path:
    """A package ``envpool_x`` under ``root`` made of ``files`` (path -> text)."""
    pkg = root / "envpool_x"
    for rel, text in files.items():
        (pkg / rel).parent.mkdir(parents=True, exist_ok=True)
        (pkg / rel).write_text(text)
    return pkg


def test_circle_through_a_deferred_import_is_found(tmp_path: Path) -> None:
    """The registry importing a family that imports the registry back inside a
    function (the layout this package had) is a circle."""
    pkg = write_package(
        tmp_path,
        {
            "__init__.py": "from envpool_x.registration import register\n",
            "registration.py": "def register(): pass\nfrom envpool_x import atari\n",
            "atari.py": "def tasks():\n    from envpool_x.registration import register\n",
        },
    )
    cycle = find_cycle(import_graph(pkg))
    assert cycle is not None and set(cycle) == {"envpool_x.registration", "envpool_x.atari"}


def test_circle_through_the_package_init_is_found(tmp_path: Path) -> None:
    """``from envpool_x import name`` (not a submodule) needs envpool_x/__init__,
    which here imports the module back; a relative import counts as well."""
    pkg = write_package(
        tmp_path,
        {
            "__init__.py": "from envpool_x.spec import make_spec\nregister = 1\n",
            "spec.py": (
                "from . import _core\ndef make_spec():\n    from envpool_x import register\n"
            ),
            "_core.pyi": "",
        },
    )
    cycle = find_cycle(import_graph(pkg))
    assert cycle is not None and set(cycle) == {"envpool_x", "envpool_x.spec"}
    assert import_graph(pkg)["envpool_x.spec"] == {"envpool_x"}  # _core is no .py module


def test_type_only_imports_are_no_edge(tmp_path: Path) -> None:
    pkg = write_package(
        tmp_path,
        {
            "__init__.py": "",
            "spec.py": "from envpool_x.memory import check\n",
            "memory.py": (
                "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                "    from envpool_x.spec import EnvSpec\ndef check(): pass\n"
            ),
        },
    )
    assert import_graph(pkg)["envpool_x.memory"] == set()
    assert find_cycle(import_graph(pkg)) is None


def test_a_package_importing_its_own_submodules_is_no_circle(tmp_path: Path) -> None:
    pkg = write_package(
        tmp_path,
        {
            "__init__.py": "from envpool_x import families\n",
            "registration.py": "",
            "families/__init__.py": "from envpool_x.families import atari\n",
            "families/atari.py": "from envpool_x.registration import register\n",
        },
    )
    assert find_cycle(import_graph(pkg)) is None


def test_each_module_is_short() -> None:
    long = {
        str(path.relative_to(PACKAGE)): n
        for path in PACKAGE.rglob("*.py")
        if (n := len(path.read_text().splitlines())) > MAX_LINES
    }
    assert not long, f"modules over {MAX_LINES} lines: {long}"


def test_registry_imports_no_other_module_of_the_package() -> None:
    """registration.py holds the registry only (it may use the compiled _core,
    and leaf modules of declarations it re-exports, which import nothing of
    the package themselves: family_memory)."""
    graph = import_graph()
    imported = graph["envpool_x.registration"]
    assert imported <= {"envpool_x.family_memory"}, imported
    assert all(graph[name] == set() for name in imported)


def test_each_family_imports_the_registry_at_its_top() -> None:
    for family in FAMILIES:
        path = PACKAGE / "families" / f"{family}.py"
        assert "envpool_x.registration" in top_level_imports(path), family


def test_only_the_package_init_imports_the_families_package() -> None:
    """Importing envpool_x registers every task, once: envpool_x/__init__.py
    imports envpool_x.families at its top and no other module does (a module
    may import one family module for its helpers)."""
    assert "envpool_x.families" in top_level_imports(PACKAGE / "__init__.py")
    graph = import_graph()
    assert {name for name, targets in graph.items() if "envpool_x.families" in targets} == {
        "envpool_x"
    }


def test_registry_lookup_works_without_importing_envpool_x_first() -> None:
    """``from envpool_x.registration import lookup`` in a fresh interpreter
    (as spec.py, cli.py, ... do) finds the tasks of every family: importing a
    submodule runs envpool_x/__init__.py, which registers them."""
    code = (
        "from envpool_x.registration import envs_by_family, lookup\n"
        "print(lookup('CartPole-v1').family, *envs_by_family())\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    ).stdout.split()
    assert out[0] == "classic_control"
    # The families in registration order (optional ones may be missing from the build).
    assert out[1:] == [f for f in FAMILIES if f in out[1:]]
    assert out[1:4] == ["classic_control", "toy_text", "testing"]
