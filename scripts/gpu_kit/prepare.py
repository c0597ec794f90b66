"""`gpu_kit.sh prepare`: build our cp312 wheel with the CUDA layer, fetch what the
GPU image lacks, and cut it all into parts with a manifest (see docs/gpu_kit.md)."""

from __future__ import annotations

import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

from gpu_kit import config, manifest, sources, wheels

STAGE_TIMEOUT_S = 60
#: The run call's limit: the kit's own step budget (steps.TOTAL_BUDGET_S) ends
#: first, leaving time to write $OUT.
RUN_TIMEOUT_S = 590


def find_python312(given: str | None) -> str:
    """A CPython 3.12 to build with: --python, python3.12 on PATH, or pyenv's."""
    candidates = [given] if given else ["python3.12"]
    candidates += sorted(glob.glob(os.path.expanduser("~/.pyenv/versions/3.12*/bin/python3.12")))
    for c in candidates:
        try:
            out = subprocess.run(
                [c, "-c", "import sys; print(sys.version_info[:2])"],
                capture_output=True,
                text=True,
                check=True,
            )
        except (OSError, subprocess.CalledProcessError):
            continue
        if out.stdout.strip() == "(3, 12)":
            return c
    sys.exit("gpu_kit prepare: no CPython 3.12 found (give --python PATH)")


def build_requires(root: Path) -> list[str]:
    """[build-system] requires of pyproject.toml."""
    text = (root / "pyproject.toml").read_text()
    block = re.search(r"^requires\s*=\s*\[(.*?)\]", text, re.S | re.M)
    if not block:
        raise RuntimeError("pyproject.toml has no [build-system] requires")
    return re.findall(r'"([^"]+)"', block.group(1))


def build_env(root: Path, kit: Path, python: str) -> Path:
    """A venv of the 3.12 interpreter with the build requirements, kept in the
    kit folder: builds without isolation reuse their build folder incrementally."""
    venv = kit / "buildenv"
    py = venv / "bin" / "python"
    stamp = venv / "requires.txt"
    reqs = "\n".join(build_requires(root))
    if not (py.exists() and stamp.exists() and stamp.read_text() == reqs):
        shutil.rmtree(venv, ignore_errors=True)
        subprocess.run([python, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(py), "-m", "pip", "install", "-q", *reqs.split("\n")], check=True)
        stamp.write_text(reqs)
    return py


def build_wheel(root: Path, kit: Path, python: str, build_dir: str) -> Path:
    """Our wheel for CPython 3.12 (every family, the CUDA layer included), into kit/files."""
    py = build_env(root, kit, python)
    env = dict(os.environ)
    nvcc = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
    if Path(nvcc).exists():
        env.setdefault("CUDACXX", nvcc)
    env.setdefault("CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 2))
    out = kit / "wheel"
    shutil.rmtree(out, ignore_errors=True)
    cmd = [
        str(py),
        "-m",
        "pip",
        "wheel",
        "--no-deps",
        "--no-build-isolation",
        "-w",
        str(out),
        "-C",
        f"build-dir={build_dir}",
        str(root),
    ]
    print(f"gpu_kit: building our wheel: {' '.join(cmd)}", flush=True)
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, env=env, cwd=root)
    (wheel,) = out.glob("envpool_x-*-cp312-*.whl")
    with zipfile.ZipFile(wheel) as z:
        core = [n for n in z.namelist() if n.startswith("envpool_x/_core.cpython-312")]
        if not core:
            raise RuntimeError(f"{wheel.name} holds no envpool_x/_core for CPython 3.12")
        # The static CUDA runtime dlopens the driver by this name.
        if b"libcuda.so" not in z.read(core[0]):
            raise RuntimeError(f"{wheel.name} was built without the CUDA layer (nvcc not found?)")
    print(f"gpu_kit: {wheel.name} built in {time.perf_counter() - t0:.0f} s", flush=True)
    return wheel


def tree_size(root: Path) -> int:
    """Bytes of what a device call sends besides the carried part: tracked and
    untracked-not-ignored files."""
    out = subprocess.run(
        ["git", "-C", str(root), "ls-files", "-z", "-co", "--exclude-standard"],
        capture_output=True,
        check=True,
    ).stdout
    total = 0
    for name in filter(None, out.decode().split("\0")):
        path = root / name
        if path.is_symlink() or path.is_file():
            total += path.lstat().st_size
    return total


def calls(kit_rel: str, parts: int) -> list[dict[str, object]]:
    """The device tool's calls, in order."""
    out: list[dict[str, object]] = [
        {
            "command": f"bash scripts/gpu_kit.sh stage {n}",
            "carry": [f"{kit_rel}/parts/{n}"],
            "timeout_s": STAGE_TIMEOUT_S,
        }
        for n in range(1, parts)
    ]
    out.append(
        {
            "command": "bash scripts/gpu_kit.sh run",
            "carry": [f"{kit_rel}/parts/{parts}"],
            "timeout_s": RUN_TIMEOUT_S,
        }
    )
    return out


def plan_text(kit_rel: str, data: dict[str, object], budget: str) -> str:
    """What to do with the kit on a GPU machine: the calls, the sizes, the time."""
    parts = data["parts"]
    assert isinstance(parts, list)
    lines = ["# The GPU kit's device calls", "", "Parts:"]
    lines += [f"- {line}" for line in manifest.describe(data)]
    lines += [
        "",
        "Make these `device` tool `run` calls in order, each right after the last one",
        "returns (files outside $OUT last only while the machine stays warm, ~30 s):",
        "",
    ]
    import json

    for k, call in enumerate(calls(kit_rel, len(parts)), start=1):
        lines.append(f"{k}. run {json.dumps(call)}")
    stage_s = 25 * (len(parts) - 1)
    lines += [
        "",
        f"Expected: machine start 60-120 s, {len(parts) - 1} staging calls ~{stage_s} s "
        f"(a {config.PART_LIMIT >> 20} MiB transfer each), the run call <= "
        f"{RUN_TIMEOUT_S} s: about {(90 + stage_s + RUN_TIMEOUT_S) / 60:.0f} min of the "
        "session's 15.",
        "If a staging call lands on a fresh machine (the previous one went cold), `run`",
        "says which parts are missing and runs every step the staged groups allow.",
        "Rerun one step on the warm machine: `bash scripts/gpu_kit.sh run --only STEP`",
        "(no carry needed while the staged kit is there).",
        "",
        budget,
    ]
    return "\n".join(lines) + "\n"


def main(args: argparse.Namespace, root: Path) -> int:
    """Prepare the kit; print the calls."""
    t0 = time.perf_counter()
    kit = Path(args.kit).resolve()
    files = kit / "files"
    files.mkdir(parents=True, exist_ok=True)
    python = find_python312(args.python)
    if args.wheel:
        ours = Path(args.wheel).resolve()
    else:
        ours = build_wheel(root, kit, python, args.build_dir)
    pip = [python, "-m", "pip"]
    downloaded = [
        sources.trim_wheel(w, config.TRIM[p.name], kit / "trimmed") if p.name in config.TRIM else w
        for w, p in zip(wheels.download(config.PINS, kit / "wheels", pip), config.PINS, strict=True)
    ]
    everything = [ours, *downloaded]
    problems, notes = wheels.unmet(
        everything, skip=[p.name for p in config.PINS if not p.check_deps]
    )
    if notes:
        print(
            f"gpu_kit: {len(notes)} version bounds on image packages, not checked here "
            "(KINDS.md lists no versions; see .gpu_kit/NOTES.txt)"
        )
        (kit / "NOTES.txt").write_text("\n".join(notes) + "\n")
    if problems:
        print("gpu_kit: requirements that nothing in the kit or the image meets:")
        print("\n".join(f"  {p}" for p in problems))
        if not args.allow_unmet:
            return 1
    groups = {
        wheels.wheel_name(w)[0]: p.group for w, p in zip(downloaded, config.PINS, strict=True)
    }
    items = [manifest.Item(ours, "core", last=True)]
    items += [
        manifest.Item(
            w,
            groups[wheels.wheel_name(w)[0]],
            last=groups[wheels.wheel_name(w)[0]] in config.LAST_PART_GROUPS,
        )
        for w in downloaded
    ]
    items.append(manifest.Item(sources.envpool_assets(kit, files, pip), "envpool"))
    gl = sources.gl_tar(kit, files)
    if gl is not None:
        items.append(manifest.Item(gl, "pixels", last="pixels" in config.LAST_PART_GROUPS))
    items.append(manifest.Item(sources.data_tar(Path(args.data), files), "data", last=True))
    if args.rlsolver:
        items.append(manifest.Item(sources.rlsolver_tar(args.rlsolver, files), "rlsolver", True))
    else:
        print(
            "gpu_kit: no --rlsolver: the combinatorial step will be skipped on the GPU "
            "(no RLSolver peer column)"
        )
    tree = tree_size(root)
    limit = min(config.PART_LIMIT, config.CARRY_LIMIT - tree - config.MIB)
    print(
        f"gpu_kit: working tree {tree / config.MIB:.1f} MiB; parts of at most "
        f"{limit / config.MIB:.1f} MiB"
    )
    data = manifest.build(items, kit / "parts", limit)
    from gpu_kit import steps

    try:
        kit_rel = str(kit.relative_to(root))
    except ValueError:
        kit_rel = str(kit)
        print(f"gpu_kit: WARNING: {kit} is outside the repository: no call can carry it")
    text = plan_text(kit_rel, data, steps.budget_text())
    (kit / "CALLS.md").write_text(text)
    total = sum(f["size"] for f in data["files"])
    print(
        f"\ngpu_kit: {len(data['files'])} files, {total / config.MIB:.1f} MiB, "
        f"prepared in {time.perf_counter() - t0:.0f} s\n"
    )
    print(text)
    return 0
