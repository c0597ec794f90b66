#!/usr/bin/env python3
"""Run EnvPool's own test files against envpool_x (docs/differences.md, "EnvPool's
test files").

    python scripts/envpool_tests.py PATH/TO/ENVPOOL [--rev REV] [--work DIR]
        [--timeout S] [--list] [--reset-first] [--test-build] [FILE ...]

PATH is a checkout of EnvPool's source repository (a work tree, or with ``--rev`` a git
repository, bare or not, read with ``git show``). Nothing is fetched and nothing of
EnvPool's is copied into this repository: the test files of the families envpool_x has
(and the test helpers they import, ``*test_utils.py``) are copied into a scratch folder
(``--work``, a new temporary folder by default) beside a small ``envpool`` package that
points EnvPool's names at envpool_x:

- ``envpool``: envpool_x's public names (``make``, ``make_gym``, ``make_gymnasium``,
  ``make_dm``, ``make_spec``, ``list_all_envs``, ``EnvPool``, ...);
- ``envpool.registration``: the same ``make*`` functions, ``registry.specs`` ({task id:
  (EnvPool's family module, "EnvSpec", "EnvPool")} for envpool_x's tasks), ``base_path``
  (a folder whose ``atari/roms`` links ale-py's ROMs) and a ``register`` that only
  records;
- ``envpool.<family>.registration``: EnvPool's registration file of the family, run with
  that ``register``, so its tables (``atari_game_list``, ``gym_mujoco_envs``,
  ``dmc_mujoco_envs``) are EnvPool's while the tasks are envpool_x's;
- ``envpool.python.protocol``: ``EnvPool``, ``DMEnvPool``, ``GymnasiumEnvPool``,
  ``EnvSpec``; ``envpool.python.glfw_context.preload_windows_gl_dlls``: does nothing;
- ``envpool.minigrid.decode_mission``: envpool_x's, a batch as a numpy object array.

EnvPool's internals (``envpool.python.api.py_env``, the ``_XxxEnvPool`` / ``_XxxEnvSpec``
classes, ``AtariEnvSpec``, ``_debug_states``, ...) are left out: a test using them fails,
and is reported so. Each file runs on its own (``python -m envpool.<family>.<file>``,
one at a time) with the interpreter running this script, its results read from
absltest's XML; the summary gives, per file, the tests (subtests counted one by one)
passed, failed (an assertion), errored and skipped, and each failure's message, grouped.
The run checks first that ``import envpool`` gives the shim (an installed EnvPool is
shadowed). To see what a test finds past a documented difference it stops at:
``--reset-first`` (a gymnasium env's first step resets it, as EnvPool's do) and
``--test-build`` (MuJoCo / DMC envs give ``qpos0`` / ``qvel0``, as EnvPool's test builds).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path

#: EnvPool's folders of the families envpool_x has, and its family-independent tests.
FAMILY_DIRS = (
    "envpool/classic_control",
    "envpool/toy_text",
    "envpool/atari",
    "envpool/box2d",
    "envpool/minigrid",
    "envpool/mujoco/gym",
    "envpool/mujoco/dmc",
)
TOP_FILES = ("envpool/make_test.py",)
#: Helpers the family tests import from ``envpool.mujoco``.
MUJOCO_HELPERS = ("envpool/mujoco/pixel_observation_test_utils.py",)

#: envpool_x's family -> EnvPool's module of that family (``registry.specs``).
FAMILY_MODULES = {
    "classic_control": "envpool.classic_control",
    "toy_text": "envpool.toy_text",
    "atari": "envpool.atari",
    "box2d": "envpool.box2d",
    "minigrid": "envpool.minigrid",
    "babyai": "envpool.minigrid",
    "mujoco": "envpool.mujoco.gym",
    "dmc": "envpool.mujoco.dmc",
}

SHIM_INIT = '''\
"""envpool_x under EnvPool's name (scripts/envpool_tests.py)."""
import os as _os

import envpool_x as _x
from envpool_x import *  # noqa: F401,F403

if _os.environ.get("ENVPOOL_TESTS_RESET_FIRST") or _os.environ.get("ENVPOOL_TESTS_TEST_BUILD"):
    from envpool import _compat

    make, make_gym, make_gymnasium, make_dm = _compat.wrap(
        make, make_gym, make_gymnasium, make_dm
    )

__all__ = list(_x.__all__)
__version__ = _x.__version__
ENVPOOL_X_SHIM = _x.__file__
'''

SHIM_REGISTRATION = '''\
"""EnvPool's ``envpool.registration`` names, pointing at envpool_x."""
from types import SimpleNamespace

import os

from envpool import (  # noqa: F401
    list_all_envs, make, make_dm, make_gym, make_gymnasium, make_spec,
)
from envpool_x.registration import envs_by_family as _envs_by_family

#: What EnvPool's registration files register, {{task id: (module, kwargs)}}: its
#: ``register`` here only records (envpool_x registers its own tasks on import).
envpool_registered = {{}}
#: EnvPool's assets folder: here only ``atari/roms``, ale-py's ROMs (atari_game_list).
base_path = os.path.join(os.path.dirname(os.path.dirname(__file__)), "_base_path")


def register(task_id, import_path, *classes, **kwargs):
    envpool_registered[task_id] = (import_path, kwargs)

_MODULES = {modules!r}

registry = SimpleNamespace(
    specs={{
        task: (_MODULES[family], "EnvSpec", "EnvPool")
        for family, tasks in _envs_by_family().items() if family in _MODULES
        for task in tasks
    }}
)
'''

SHIM_COMPAT = '''\
"""Options of this runner, to see past a difference a test stops at:

- ENVPOOL_TESTS_RESET_FIRST: a gymnasium env's first step / send resets it first
  (EnvPool's behaviour; envpool_x raises ResetNeeded, docs/usage.md);
- ENVPOOL_TESTS_TEST_BUILD: MuJoCo and DMC tasks are made with initial_state_info=True,
  the qpos0 / qvel0 info EnvPool's test builds always give (docs/config.md).
"""
import functools
import os

from envpool_x.registration import lookup

_RESET_FIRST = bool(os.environ.get("ENVPOOL_TESTS_RESET_FIRST"))
_TEST_BUILD = bool(os.environ.get("ENVPOOL_TESTS_TEST_BUILD"))


def _patch(env):
    if not _RESET_FIRST or not hasattr(env, "send") or type(env).__name__.startswith("Dm"):
        return env
    state = {"reset": False}
    reset, async_reset, step, send = env.reset, env.async_reset, env.step, env.send

    def mark(fn):
        @functools.wraps(fn)
        def inner(*a, **k):
            state["reset"] = True
            return fn(*a, **k)
        return inner

    def first(fn):
        @functools.wraps(fn)
        def inner(*a, **k):
            if not state["reset"]:
                state["reset"] = True
                if env.is_async:
                    async_reset()
                    for _ in range(env.num_envs // env.config["batch_size"]):
                        env.recv()
                else:
                    reset()
            return fn(*a, **k)
        return inner

    env.reset, env.async_reset = mark(reset), mark(async_reset)
    env.step, env.send = first(step), first(send)
    return env


def wrap(*makers):
    def one(maker):
        @functools.wraps(maker)
        def inner(task_id, *a, **k):
            if _TEST_BUILD and lookup(task_id).family in ("mujoco", "dmc"):
                k.setdefault("initial_state_info", True)
            return _patch(maker(task_id, *a, **k))
        return inner
    return tuple(one(m) for m in makers)
'''

SHIM_FAMILY_REGISTRATION = '''\
"""EnvPool's registration file of this family, run with a ``register`` that records:
its tables (``atari_game_list``, ``gym_mujoco_envs``, ...) are EnvPool's; the tasks
are envpool_x's, registered when ``envpool_x`` is imported."""
from pathlib import Path as _Path

_SOURCE = _Path(__file__).with_name("_envpool_registration.py")
if _SOURCE.is_file():
    exec(compile(_SOURCE.read_text(), str(_SOURCE), "exec"))
'''

SHIM_PROTOCOL = '''\
"""EnvPool's protocol classes: envpool_x's env classes."""
from envpool_x import DMEnvPool, EnvPool, EnvSpec, GymnasiumEnvPool  # noqa: F401
'''

SHIM_GLFW = '''\
"""EnvPool's Windows GL preloading: nothing to do here."""


def preload_windows_gl_dlls(strict: bool = False) -> None:
    return None
'''

SHIM_MINIGRID = '''\
"""EnvPool's ``envpool.minigrid`` helpers."""
import numpy as np

from envpool_x.families.minigrid import decode_mission as _decode


def decode_mission(mission):
    out = _decode(mission)
    return out if isinstance(out, str) else np.asarray(out, dtype=object)
'''


def _export(checkout: Path, rev: str | None, dest: Path) -> None:
    """Copies EnvPool's test files (and their helpers) of our families to ``dest``, and
    each family's ``registration.py`` as ``_envpool_registration.py`` (its tables)."""
    wanted = [*FAMILY_DIRS, *TOP_FILES, *MUJOCO_HELPERS]
    if rev is not None:
        names = subprocess.run(
            ["git", "-C", str(checkout), "ls-tree", "-r", "--name-only", rev, "--", *wanted],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.split()
    else:
        names = []
        for item in wanted:
            src = checkout / item
            files = [src] if src.is_file() else sorted(src.rglob("*.py")) if src.is_dir() else []
            names += [file.relative_to(checkout).as_posix() for file in files]
    for name in names:
        target = _target(name)
        if target is None:
            continue
        if rev is not None:
            data = subprocess.run(
                ["git", "-C", str(checkout), "show", f"{rev}:{name}"],
                check=True,
                capture_output=True,
            ).stdout
        else:
            data = (checkout / name).read_bytes()
        (dest / target).parent.mkdir(parents=True, exist_ok=True)
        (dest / target).write_bytes(data)


def _target(name: str) -> str | None:
    """Where EnvPool's file ``name`` goes in the scratch tree (None: not copied)."""
    if name.endswith(("_test.py", "test_utils.py")):
        return name
    folder, _, base = name.rpartition("/")
    if base == "registration.py" and folder in FAMILY_DIRS:
        return f"{folder}/_envpool_registration.py"
    return None


def _write_shim(root: Path) -> None:
    pkg = root / "envpool"
    files = {
        "__init__.py": SHIM_INIT,
        "_compat.py": SHIM_COMPAT,
        "registration.py": SHIM_REGISTRATION.format(modules=FAMILY_MODULES),
        "python/__init__.py": "",
        "python/protocol.py": SHIM_PROTOCOL,
        "python/glfw_context.py": SHIM_GLFW,
        "minigrid/__init__.py": SHIM_MINIGRID,
        "py.typed": "",  # envpool_x's package has one, as EnvPool's
    }
    for folder in ("", *(d.removeprefix("envpool/") for d in FAMILY_DIRS), "mujoco"):
        sub = pkg / folder
        files.setdefault(f"{folder}/__init__.py".lstrip("/"), "")
        if folder and folder != "mujoco":
            files.setdefault(f"{folder}/registration.py", SHIM_FAMILY_REGISTRATION)
        sub.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (pkg / name).parent.mkdir(parents=True, exist_ok=True)
        (pkg / name).write_text(text)
    roms = root / "_base_path" / "atari" / "roms"
    roms.mkdir(parents=True, exist_ok=True)
    try:
        import ale_py
    except ImportError:
        return
    for rom in sorted((Path(ale_py.__file__).parent / "roms").glob("*.bin")):
        if not (roms / rom.name).exists():
            (roms / rom.name).symlink_to(rom)


def _check_shim(root: Path, env: dict[str, str]) -> None:
    out = subprocess.run(
        [sys.executable, "-c", "import envpool; print(envpool.__file__, envpool.ENVPOOL_X_SHIM)"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
    )
    if out.returncode or not out.stdout.startswith(str(root)):
        sys.exit(f"import envpool does not give the shim:\n{out.stdout}{out.stderr}")
    print(f"import envpool -> {out.stdout.split()[0]} (envpool_x: {out.stdout.split()[1]})")


def _results(xml_file: Path) -> dict[str, list[str]]:
    """Test names by outcome (passed, failed, errored, skipped) from absltest's XML."""
    out: dict[str, list[str]] = {k: [] for k in ("passed", "failed", "errored", "skipped")}
    if not xml_file.is_file():
        return out
    for case in ET.parse(xml_file).iter("testcase"):
        name = f"{case.get('classname', '').rsplit('.', 1)[-1]}.{case.get('name')}"
        if case.find("failure") is not None:
            out["failed"].append(f"{name}: {_last_line(case.find('failure'))}")
        elif case.find("error") is not None:
            out["errored"].append(f"{name}: {_last_line(case.find('error'))}")
        elif case.get("result") == "suppressed" or case.find("skipped") is not None:
            out["skipped"].append(name)
        else:
            out["passed"].append(name)
    return out


def _last_line(node: ET.Element | None) -> str:
    """The failure's last line (the exception and its message)."""
    if node is None:
        return ""
    text = (node.get("message") or node.text or "").strip()
    lines = [line for line in text.splitlines() if line.strip()]
    return lines[-1][:300] if lines else ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkout", type=Path, help="EnvPool's source repository")
    parser.add_argument("--rev", help="read the files at this git revision")
    parser.add_argument("--work", type=Path, help="scratch folder (default: a new one)")
    parser.add_argument("--timeout", type=float, default=600, help="seconds per file")
    parser.add_argument("--list", action="store_true", help="list the files and stop")
    parser.add_argument(
        "--reset-first",
        action="store_true",
        help="a gymnasium env's first step resets it (EnvPool's way), to see past that difference",
    )
    parser.add_argument(
        "--test-build",
        action="store_true",
        help="MuJoCo / DMC envs give qpos0 / qvel0 (initial_state_info=True), as EnvPool's "
        "test builds",
    )
    parser.add_argument("files", nargs="*", help="only these (paths under envpool/, or names)")
    args = parser.parse_intermixed_args(argv)

    work = (args.work or Path(tempfile.mkdtemp(prefix="envpool_tests_"))).resolve()
    work.mkdir(parents=True, exist_ok=True)
    for old in ("envpool", "_base_path"):
        if (work / old).is_symlink() or (work / old).is_file():
            (work / old).unlink()
        elif (work / old).exists():
            shutil.rmtree(work / old)
    _export(args.checkout, args.rev, work)
    _write_shim(work)
    tests = sorted(p.relative_to(work).as_posix() for p in (work / "envpool").rglob("*_test.py"))
    if args.files:
        tests = [t for t in tests if any(t.endswith(f) or Path(t).stem == f for f in args.files)]
    if args.list:
        print("\n".join(tests))
        return 0
    path = [str(work), os.environ.get("PYTHONPATH", "")]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in path if p))
    if args.reset_first:
        env["ENVPOOL_TESTS_RESET_FIRST"] = "1"
    if args.test_build:
        env["ENVPOOL_TESTS_TEST_BUILD"] = "1"
    _check_shim(work, env)
    (work / "logs").mkdir(exist_ok=True)
    rows = []
    for test in tests:
        module = test.removesuffix(".py").replace("/", ".")
        log, xml_file = work / "logs" / f"{module}.log", work / "logs" / f"{module}.xml"
        xml_file.unlink(missing_ok=True)
        start = time.monotonic()
        try:
            proc = subprocess.run(
                [sys.executable, "-m", module, f"--xml_output_file={xml_file}"],
                cwd=work,
                env=env,
                capture_output=True,
                text=True,
                timeout=args.timeout,
            )
            rc, output = proc.returncode, proc.stdout + proc.stderr
        except subprocess.TimeoutExpired as exc:
            rc, output = "timeout", f"{exc.stdout or ''}{exc.stderr or ''}"
            output = output if isinstance(output, str) else output.decode(errors="replace")
        log.write_text(output)
        res = _results(xml_file)
        counts = {k: len(v) for k, v in res.items()}
        note = ""
        if not any(counts.values()):
            tail = [line for line in output.strip().splitlines() if line.strip()][-1:] or [""]
            note = f"did not run (rc={rc}): {tail[0][:200]}"
            res["errored"].append(f"(file): {note}")
        rows.append((test, counts, time.monotonic() - start, note))
        print(
            f"\n== {test}  rc={rc}  {time.monotonic() - start:.0f}s  "
            + "  ".join(f"{k}={v}" for k, v in counts.items())
        )
        for kind in ("failed", "errored"):
            groups: dict[str, list[str]] = {}
            for line in res[kind]:
                name, _, message = line.partition(": ")
                task = re.search(r"task_id='([^']+)'", name)
                if task:
                    message = message.replace(task.group(1), "<task>")
                message = re.split(r"; (?:valid keys|did you mean)", message)[0][:240]
                groups.setdefault(message, []).append(name)
            for message, names in groups.items():
                more = f" (+{len(names) - 2} more)" if len(names) > 2 else ""
                print(f"   {kind} x{len(names)}: {message}\n      in {', '.join(names[:2])}{more}")
        sys.stdout.flush()
    print("\n| file | passed | failed | errored | skipped | seconds | note |")
    print("|---|---|---|---|---|---|---|")
    for test, c, secs, note in rows:
        cells = " | ".join(str(c[k]) for k in ("passed", "failed", "errored", "skipped"))
        print(f"| {test} | {cells} | {secs:.0f} | {note.replace('|', '/')} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
