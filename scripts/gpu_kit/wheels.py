"""Download the pinned cp312 wheels and check that their requirements are met by
the kit or the GPU image (Requires-Dist, followed through extras, markers
evaluated for CPython 3.12 on x86-64 Linux)."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from collections.abc import Iterable, Sequence
from email.parser import Parser
from pathlib import Path

try:
    from packaging.markers import Marker
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name
    from packaging.version import Version
except ImportError:  # pip always carries a copy
    from pip._vendor.packaging.markers import Marker  # type: ignore[no-redef,assignment]
    from pip._vendor.packaging.requirements import Requirement  # type: ignore[no-redef,assignment]
    from pip._vendor.packaging.utils import canonicalize_name  # type: ignore[no-redef,assignment]
    from pip._vendor.packaging.version import Version  # type: ignore[no-redef,assignment]

from gpu_kit import config

#: PEP 508 marker values of the GPU machine's Python.
TARGET_ENV = {
    "python_version": "3.12",
    "python_full_version": "3.12.3",
    "implementation_name": "cpython",
    "platform_python_implementation": "CPython",
    "implementation_version": "3.12.3",
    "sys_platform": "linux",
    "platform_system": "Linux",
    "platform_machine": "x86_64",
    "os_name": "posix",
}


def pip_download_args(dest: Path) -> list[str]:
    """``pip download`` for the GPU machine's Python, wheels only, no requirements."""
    args = ["download", "--no-deps", "--only-binary=:all:", "--python-version", "3.12"]
    args += ["--implementation", "cp", "-d", str(dest), "--disable-pip-version-check"]
    for platform in config.PLATFORMS:
        args += ["--platform", platform]
    return args


def wheel_name(path: Path) -> tuple[str, str]:
    """(canonical project name, version) from a wheel's file name."""
    parts = path.name.split("-")
    return canonicalize_name(parts[0]), parts[1]


def find_wheel(folder: Path, requirement: str) -> Path | None:
    """The wheel in ``folder`` for ``name==version``, if there."""
    name, version = requirement.split("==")
    for path in sorted(folder.glob("*.whl")):
        n, v = wheel_name(path)
        if n == canonicalize_name(name) and Version(v) == Version(version):
            return path
    return None


def download(pins: Iterable[config.Pin], dest: Path, pip: Sequence[str] = ()) -> list[Path]:
    """Each pinned wheel in ``dest`` (downloaded unless already there)."""
    dest.mkdir(parents=True, exist_ok=True)
    pins = list(pins)
    todo = [p.req for p in pins if find_wheel(dest, p.req) is None]
    if todo:
        cmd = [*(pip or [sys.executable, "-m", "pip"]), *pip_download_args(dest), *todo]
        print(f"gpu_kit: downloading {len(todo)} wheels: {' '.join(todo)}", flush=True)
        subprocess.run(cmd, check=True)
    out = []
    for p in pins:
        path = find_wheel(dest, p.req)
        if path is None:
            raise RuntimeError(f"pip left no wheel for {p.req} in {dest}")
        out.append(path)
    return out


def requires(wheel: Path) -> list[str]:
    """The wheel's Requires-Dist lines."""
    with zipfile.ZipFile(wheel) as z:
        meta = next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))
        msg = Parser().parsestr(z.read(meta).decode())
    return msg.get_all("Requires-Dist") or []


def _applies(marker: Marker | None, extras: set[str]) -> bool:
    if marker is None:
        return True
    return any(marker.evaluate({**TARGET_ENV, "extra": e}) for e in {"", *extras})


def unmet(
    wheels: Sequence[Path],
    image: frozenset[str] = config.IMAGE_PACKAGES,
    skip: Iterable[str] = (),
    exempt: dict[str, set[str]] | None = None,
) -> tuple[list[str], list[str]]:
    """Follow every wheel's requirements. Returns (problems, notes): a problem is a
    requirement neither the kit nor the image has, or a kit wheel of the wrong
    version; a note is a bound on an image package (its version is not known
    here). ``skip``: wheels installed without their requirements;
    ``exempt``: wheel name -> requirement names something else stands in for."""
    exempt = {canonicalize_name(k): v for k, v in (exempt or config.EXEMPT).items()}
    kit = {wheel_name(w)[0]: w for w in wheels}
    skipped = {canonicalize_name(s) for s in skip}
    queue = [(name, frozenset[str]()) for name in kit if name not in skipped]
    seen: set[tuple[str, frozenset[str]]] = set()
    problems, notes = [], []
    while queue:
        name, extras = queue.pop()
        if (name, extras) in seen:
            continue
        seen.add((name, extras))
        for line in requires(kit[name]):
            req = Requirement(line)
            dep = canonicalize_name(req.name)
            if not _applies(req.marker, set(extras)) or dep in exempt.get(name, set()):
                continue
            if dep in kit:
                version = Version(wheel_name(kit[dep])[1])
                if req.specifier and not req.specifier.contains(version, prereleases=True):
                    problems.append(f"{name} needs {req}, the kit has {dep} {version}")
                if dep not in skipped:
                    queue.append((dep, frozenset(req.extras)))
            elif dep in image:
                if req.specifier:
                    notes.append(f"{name} needs {req} (in the image; its version not checked)")
                for extra in req.extras:
                    for sub in config.IMAGE_EXTRAS.get((dep, extra), ()):
                        if canonicalize_name(sub) not in image and sub not in kit:
                            problems.append(f"{dep}[{extra}] (for {name}) needs {sub}")
            else:
                problems.append(f"{name} needs {req}: neither in the kit nor in the GPU image")
    return sorted(set(problems)), sorted(set(notes))
