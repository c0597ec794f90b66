"""The backend seam (envpool_x.backends): what sits above it names no backend and
no family; what sits below it knows no front end; families declare what the
central tables used to hold."""

from __future__ import annotations

import ast
from pathlib import Path

from test_package_layout import PACKAGE, import_graph

import envpool_x
from envpool_x import backends
from envpool_x.registration import families, lookup

#: Modules above the seam: they reach backends only through the spec's backend
#: and the registry of envpool_x.backends.
ABOVE = [
    "spec",
    "memory",
    "memory_available",
    "factory",
    "gymnasium_env",
    "dm_env_wrapper",
    "dm_single_env",
    "pettingzoo_env",
    "xla",
    "cli",
    "render",
]
BACKEND_MODULES = {f"envpool_x.backends.{name}" for name in backends.names()}
FRONT_ENDS = {"envpool_x.gymnasium_env", "envpool_x.dm_env_wrapper", "envpool_x.factory"}


def _strings(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    return {
        n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
    }


def _path(module: str) -> Path:
    folder = PACKAGE / module
    return folder / "__init__.py" if folder.is_dir() else PACKAGE / f"{module}.py"


def test_modules_above_the_seam_name_no_backend_and_no_family() -> None:
    graph = import_graph()
    family_names = {f.name for f in families()}
    for module in ABOVE:
        name = f"envpool_x.{module}"
        imported = graph[name]
        assert not imported & BACKEND_MODULES, f"{name} imports a backend: {imported}"
        assert not {m for m in imported if m.startswith("envpool_x.families")}, name
        named = _strings(_path(module)) & (family_names | set(backends.names()) - {"cpu"})
        assert not named, f"{name} names {named}"


def test_backends_import_no_front_end() -> None:
    graph = import_graph()
    for name, imported in graph.items():
        if name.startswith("envpool_x.backends"):
            assert not imported & FRONT_ENDS, f"{name} imports {imported & FRONT_ENDS}"


def test_mujoco_warp_imports_no_private_name_of_another_backend() -> None:
    for path in (PACKAGE / "backends").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("envpool_x"):
                private = [
                    a.name for a in node.names if a.name.startswith("_") and a.name != "_core"
                ]
                assert not private, f"{path.name} imports {private} from {node.module}"


def test_every_task_has_a_declared_family() -> None:
    declared = {f.name for f in families()}
    for task in envpool_x.list_all_envs():
        assert lookup(task).family in declared, task
