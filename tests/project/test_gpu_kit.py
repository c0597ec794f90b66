"""The GPU kit (scripts/gpu_kit.sh, issue 43) cannot rot between the times a GPU
machine is lent: its parts logic is checked on small fake files, its requirement
check on fake wheels, and `run --dry` runs every step end to end on CPU stand-ins."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

from gpu_kit import manifest, prepare, steps, wheels  # noqa: E402


def _items(tmp_path: Path) -> list[manifest.Item]:
    rng = __import__("random").Random(0)
    sizes = {"big.whl": 2500, "mid.whl": 700, "small.tar.gz": 120, "core.whl": 400}
    items = []
    for name, size in sizes.items():
        path = tmp_path / "src" / name
        path.parent.mkdir(exist_ok=True)
        path.write_bytes(bytes(rng.randrange(256) for _ in range(size)))
        items.append(manifest.Item(path, "core" if name == "core.whl" else "x", name == "core.whl"))
    return items


def test_parts_split_stage_and_reassemble(tmp_path):
    items = _items(tmp_path)
    data = manifest.build(items, tmp_path / "parts", limit=1000)
    folders = sorted((tmp_path / "parts").iterdir(), key=lambda p: int(p.name))
    assert [int(f.name) for f in folders] == [p["part"] for p in data["parts"]]
    for folder in folders:  # every part within the limit, each with the manifest
        pieces = [p for p in folder.iterdir() if p.name != manifest.MANIFEST]
        assert sum(p.stat().st_size for p in pieces) <= 1000
        assert manifest.load(folder) == data
    # 3,720 bytes in parts of 1,000 take four calls: the 500-byte tail of big.whl is
    # packed beside core.whl in the last part rather than carried by a fifth call.
    assert len(folders) == 4
    # The `last` file rides whole in the last part (the one `run` carries).
    core = next(f for f in data["files"] if f["name"] == "core.whl")
    assert [p["part"] for p in core["pieces"]] == [len(folders)]
    # A big file is cut as `split -d -a 3` cuts it: cat of the pieces is the file.
    big = next(f for f in data["files"] if f["name"] == "big.whl")
    assert [p["name"] for p in big["pieces"]] == ["big.whl.000", "big.whl.001", "big.whl.002"]
    stage = tmp_path / "stage"
    for folder in folders:
        manifest.stage_part(folder, stage)
    done, missing = manifest.reassemble(data, stage, tmp_path / "files")
    assert not missing and len(done) == len(items)
    for it in items:
        assert (tmp_path / "files" / it.path.name).read_bytes() == it.path.read_bytes()


def test_missing_part_is_named_and_bad_pieces_are_refused(tmp_path):
    items = _items(tmp_path)
    data = manifest.build(items, tmp_path / "parts", limit=1000)
    stage = tmp_path / "stage"
    last = len(data["parts"])
    manifest.stage_part(tmp_path / "parts" / str(last), stage)
    done, missing = manifest.reassemble(data, stage, tmp_path / "files")
    assert [f["name"] for f in done] == ["core.whl"]
    assert missing["big.whl"] and all(1 <= p < last for p in missing["big.whl"])
    # A corrupted piece: refused when staged, and when reassembled.
    piece = next(p for p in (tmp_path / "parts" / "1").iterdir() if p.name != manifest.MANIFEST)
    raw = bytearray(piece.read_bytes())
    raw[0] ^= 0xFF
    piece.write_bytes(bytes(raw))
    with pytest.raises(manifest.KitError, match="sha256 mismatch"):
        manifest.stage_part(tmp_path / "parts" / "1", tmp_path / "stage2")
    (stage / piece.name).write_bytes(bytes(raw))
    for n in range(2, last):
        manifest.stage_part(tmp_path / "parts" / str(n), stage)
    with pytest.raises(manifest.KitError, match="sha256 mismatch"):
        manifest.reassemble(data, stage, tmp_path / "files")


def _wheel(folder: Path, name: str, version: str, requires: list[str]) -> Path:
    path = folder / f"{name}-{version}-py3-none-any.whl"
    meta = f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n"
    meta += "".join(f"Requires-Dist: {r}\n" for r in requires)
    with zipfile.ZipFile(path, "w") as z:
        z.writestr(f"{name}-{version}.dist-info/METADATA", meta)
    return path


def test_requirement_check_follows_extras_and_markers(tmp_path):
    kit = [
        _wheel(
            tmp_path,
            "alpha",
            "1.0",
            [
                "beta>=2",
                "numpy",
                "gamma[fast]",
                "old; python_version < '3.10'",
                "docs; extra == 'docs'",
            ],
        ),
        _wheel(tmp_path, "beta", "1.5", []),
        _wheel(tmp_path, "gamma", "1.0", ["delta; extra == 'fast'"]),
        _wheel(tmp_path, "loose", "1.0", ["pycuda"]),
    ]
    problems, notes = wheels.unmet(kit, skip=["loose"], exempt={})
    assert problems == [
        "alpha needs beta>=2, the kit has beta 1.5",
        'gamma needs delta; extra == "fast": neither in the kit nor in the GPU image',
    ]
    assert notes == []


def test_calls_fit_the_device_tool_and_the_budget_fits_the_run():
    calls = prepare.calls(".gpu_kit", 5)
    assert [c["command"] for c in calls][-1] == "bash scripts/gpu_kit.sh run"
    assert all(len(str(c["command"])) < 2000 and len(c["carry"]) <= 8 for c in calls)  # type: ignore[arg-type]
    budgeted = sum(s.limit_s for s in steps.STEPS if not s.spare)
    assert steps.INSTALL_LIMIT_S + budgeted <= steps.TOTAL_BUDGET_S
    # What runs only in time left over comes after every budgeted step.
    kinds = [s.spare for s in steps.STEPS]
    assert kinds == sorted(kinds)
    # The run call writes $OUT after the last step (~40 s), within the device
    # tool's 600 s a command.
    assert steps.TOTAL_BUDGET_S + 30 <= prepare.RUN_TIMEOUT_S <= 600


def test_dry_run_names_every_step_and_leaves_its_outputs(tmp_path):
    out, kit = tmp_path / "out", tmp_path / "no_kit"
    cmd = [
        sys.executable,
        str(ROOT / "scripts" / "gpu_kit" / "__main__.py"),
        "--kit",
        str(kit),
        "run",
        "--dry",
        "--out",
        str(out),
        "--stage",
        str(tmp_path / "stage"),
    ]
    env = {k: v for k, v in os.environ.items() if k != "OUT"}
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=env, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    files = sorted(p.name for p in out.iterdir())
    assert {"RESULTS.md", "summary.json", "logs.tar.gz"} <= set(files) and len(files) <= 8
    summary = json.loads((out / "summary.json").read_text())
    results = (out / "RESULTS.md").read_text()
    keys = [s["key"] for s in summary["steps"]]
    assert keys == ["install", *(s.key for s in steps.STEPS)]
    for s in steps.STEPS:
        assert f"<!-- begin: {s.title} -->" in results and f"`{s.key}`" in results
    for s in summary["steps"]:  # each ran or says why not; none failed or hung
        assert s["status"] == "ok" or s["status"].startswith("skipped: "), s
    assert "skipped: no kit staged" in results
    with tarfile.open(out / "logs.tar.gz") as tar:
        logged = {Path(n).name for n in tar.getnames()}
    ran = [s["key"] for s in summary["steps"] if s["status"] == "ok" and s["key"] != "install"]
    assert {f"{k}.log" for k in ran} <= logged


def test_trimmed_wheel_drops_the_files_and_their_record_lines(tmp_path):
    from gpu_kit import sources

    wheel = tmp_path / "pkg-1.0-py3-none-any.whl"
    record = "pkg/__init__.py,sha256=a,1\npkg/big/data.bin,sha256=b,2\npkg-1.0.dist-info/RECORD,,\n"
    with zipfile.ZipFile(wheel, "w") as z:
        z.writestr("pkg/__init__.py", "x = 1\n")
        z.writestr("pkg/big/data.bin", b"\0" * 100)
        z.writestr("pkg-1.0.dist-info/RECORD", record)
    out = sources.trim_wheel(wheel, ("pkg/big/",), tmp_path / "trimmed")
    assert out.name == wheel.name and out != wheel
    with zipfile.ZipFile(out) as z:
        assert z.namelist() == ["pkg/__init__.py", "pkg-1.0.dist-info/RECORD"]
        assert z.read("pkg/__init__.py") == b"x = 1\n"
        assert "pkg/big" not in z.read("pkg-1.0.dist-info/RECORD").decode()
        assert "pkg/__init__.py,sha256=a,1" in z.read("pkg-1.0.dist-info/RECORD").decode()


def test_gl_loaders_are_added_only_where_the_machine_lacks_them(tmp_path):
    from gpu_kit import pixels

    carried = tmp_path / "gl" / "lib"
    carried.mkdir(parents=True)
    env = {"LD_LIBRARY_PATH": "/opt/x"}
    everything = set(pixels.GL_LIBS)
    add, lines = pixels.gl_env(env, carried, lambda: everything, lambda p: False)
    assert add == {} and "the machine's own" in lines[1] and "not found" in lines[0]
    add, lines = pixels.gl_env(env, carried, lambda: {"libEGL.so.1"}, lambda p: False)
    assert add == {"LD_LIBRARY_PATH": f"{carried}{os.pathsep}/opt/x"}
    assert "lacks libOpenGL.so.0" in lines[1]
    add, lines = pixels.gl_env(env, None, set, lambda p: False)
    assert add == {} and "none carried" in lines[1]
    # The driver's vendor file, named when glvnd's own folders hold none.
    driver = pixels.NVIDIA_VENDOR_FILES[0]
    add, _ = pixels.gl_env(env, None, lambda: everything, lambda p: p == driver)
    assert add == {"__EGL_VENDOR_LIBRARY_FILENAMES": driver}
    add, _ = pixels.gl_env({**env, "__EGL_VENDOR_LIBRARY_FILENAMES": "x"}, None, lambda: everything)
    assert "__EGL_VENDOR_LIBRARY_FILENAMES" not in add


def test_the_pixels_step_on_the_gpu_parses_as_bench_pixels_reads_it(tmp_path):
    """The dry run passes other flags: the GPU machine's command line is checked
    against bench_pixels.py's parser here, and the cases it makes."""
    from gpu_kit import pixels

    sys.path.insert(0, str(ROOT / "benchmarks"))
    import bench_pixels

    ctx = steps.Ctx(dry=False, root=ROOT, python="python", work=tmp_path, out=tmp_path, cpus=16)
    (cmd,) = pixels.commands(ctx)
    args = bench_pixels.parse_args(cmd[2:])
    assert (args.threads, args.scale_threads, args.num_envs) == (2, [16], [8, 64])
    assert args.section == pixels.TITLE and args.out == str(tmp_path / "pixels.md")
    assert not args.quick and args.seconds == 0.2 and args.expect_gl == "NVIDIA"
    cases = bench_pixels.cases(args)
    tasks = bench_pixels.TASKS
    assert cases[: 2 * len(tasks)] == [(t, n, 2, True) for t in tasks for n in (8, 64)]
    assert cases[2 * len(tasks) :] == [(t, 64, 16, False) for t in tasks]
    assert pixels.step_env(ctx) == {"MUJOCO_GL": "egl", "PYOPENGL_PLATFORM": "egl"}


def test_the_training_step_reads_the_returns_by_tenths_of_the_run():
    from gpu_kit import training

    log = "\n".join(
        f"frames={f} return={r} fps={s} critic_loss=1.000"
        for f, r, s in [(8000, 20.5, 900), (9000, 30.5, 950), (96000, 210.0, 1200)]
    )
    text = training.collect(None, "warp says hi\n" + log + "\nlast update: x=1")
    assert "episodes finished: 3, up to 96,000 frames; 1,200 frames/s" in text
    assert "| 9,600 | 2 | 25.5 |" in text and "| 96,000 | 1 | 210.0 |" in text
    assert "no episode finished" in training.collect(None, "killed at the limit")
