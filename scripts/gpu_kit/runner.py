"""`gpu_kit.sh stage N` and `gpu_kit.sh run [--dry] [--only STEP]`: put the kit
together on the GPU machine, install it offline, and run the steps under their
time limits, writing $OUT after every step (see docs/gpu_kit.md)."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

from gpu_kit import config, manifest, pixels, report, steps

PROBE = r"""
import importlib.metadata as md, importlib.util as u, json, sys
names = sys.argv[1:]
dist = {"envpool_x": "envpool-x", "example_envs": "rl-warp-drive", "ale_py": "ale-py",
        "mujoco_warp": "mujoco-warp", "warp": "warp-lang", "xdist": "pytest-xdist",
        "dm_control": "dm-control", "OpenGL": "PyOpenGL"}
out = {}
for n in names:
    if u.find_spec(n) is None:
        out[n] = None
        continue
    try:
        out[n] = md.version(dist.get(n, n))
    except md.PackageNotFoundError:
        out[n] = "?"
print(json.dumps(out))
"""
#: What the steps need or use; each probed in the steps' environment (find_spec only).
MODULES = tuple(
    "envpool_x torch jax warp mujoco mujoco_warp brax example_envs numba envpool ale_py networkx "
    "matplotlib pytest xdist dm_control OpenGL".split()
)
GPU_FACTS = r"""
import subprocess
try:
    print(subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version,memory.total",
                          "--format=csv,noheader"], capture_output=True, text=True,
                         timeout=20).stdout.strip() or "nvidia-smi printed nothing")
except Exception as e:
    print(f"nvidia-smi: {e}")
from envpool_x.backends.cuda import cuda_status
print("envpool_x cuda_status:", cuda_status())
"""


def stage(args: argparse.Namespace, root: Path) -> int:
    """Copy carried part N (checked) into the stage folder, quickly."""
    kit = Path(args.kit)
    if not kit.is_absolute():
        kit = root / kit
    part = kit / "parts" / str(args.part)
    stage_dir = Path(args.stage)
    t0 = time.perf_counter()
    try:
        data = manifest.stage_part(part, stage_dir / "pieces")
    except manifest.KitError as e:
        print(f"gpu_kit stage {args.part}: {e}")
        return 1
    have = sorted(
        {
            p["part"]
            for f in data["files"]
            for p in f["pieces"]
            if (stage_dir / "pieces" / p["name"]).exists()
        }
    )
    print(
        f"gpu_kit stage {args.part}: staged in {time.perf_counter() - t0:.1f} s into "
        f"{stage_dir}; parts there: {have} of {len(data['parts'])}"
    )
    if args.part == 1:  # facts worth having even if nothing else comes back
        subprocess.run(
            "nproc; nvidia-smi -L; python3 --version; df -h /tmp | tail -1", shell=True, check=False
        )
    return 0


def _stage_present(kit: Path, stage_dir: Path) -> list[str]:
    """Stage every part folder present under kit/parts (the one `run` carries)."""
    lines = []
    for part in sorted((kit / "parts").glob("*"), key=lambda p: p.name):
        if part.name.isdigit() and (part / manifest.MANIFEST).exists():
            manifest.stage_part(part, stage_dir / "pieces")
            lines.append(f"staged part {part.name} from {part}")
    return lines


def _unpack(tar: Path, dest: Path) -> Path:
    shutil.rmtree(dest, ignore_errors=True)
    dest.mkdir(parents=True)
    with tarfile.open(tar) as t:
        t.extractall(dest, filter="data") if sys.version_info >= (3, 12) else t.extractall(dest)
    return dest


def pip_install(ctx: steps.Ctx, whls: list[str], shas: list[str], site: Path) -> str:
    """``pip install --no-index --no-deps --target site`` of the wheels, unless
    that exact set (by sha256) is there already; a line saying what happened. --dry unpacks
    the cp312 wheels for CPython 3.12 (the running Python cannot import them)."""
    stamp = site / ".gpu_kit_installed"
    key = json.dumps(sorted(shas))
    if stamp.exists() and stamp.read_text() == key:
        return f"the {len(whls)} wheels were installed in {site} by an earlier run"
    shutil.rmtree(site, ignore_errors=True)
    cmd = [sys.executable, "-m", "pip", "install", "-q", "--no-index", "--no-deps"]
    cmd += ["--no-compile", "--no-cache-dir", "--upgrade", "--target", str(site)]
    if ctx.dry:
        cmd += ["--python-version", "3.12", "--implementation", "cp", "--only-binary=:all:"]
        cmd += ["--ignore-requires-python", "--platform", "linux_x86_64"]
        for p in config.PLATFORMS:
            cmd += ["--platform", p]
    t0 = time.perf_counter()
    proc = subprocess.run([*cmd, *whls], capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise manifest.KitError(f"pip exit {proc.returncode}: {proc.stderr.strip()[-1500:]}")
    stamp.write_text(key)
    return f"installed {len(whls)} wheels into {site} in {time.perf_counter() - t0:.0f} s"


def install(ctx: steps.Ctx, kit: Path, stage_dir: Path, rep: report.Report) -> dict[str, object]:
    """Stage what was carried, verify and reassemble, unpack the tarballs,
    install the wheels into stage/site. Returns facts for the run (what is where)."""
    facts: dict[str, object] = {"missing": {}, "site": None}
    lines = _stage_present(kit, stage_dir)
    pieces = stage_dir / "pieces"
    if not (pieces / manifest.MANIFEST).exists():
        facts["status"] = f"skipped: no kit staged (nothing under {kit}/parts or {pieces})"
        return facts
    data = manifest.load(pieces)
    files = stage_dir / "files"
    done, missing = manifest.reassemble(data, pieces, files)
    facts["missing"] = missing
    lines.append(f"{len(done)} of {len(data['files'])} files verified (sha256) and reassembled")
    for name, parts in missing.items():
        lines.append(f"MISSING {name}: part(s) {parts} not staged (rerun `stage N` for each)")
    names = {f["name"] for f in done}
    if "envpool_assets.tar.gz" in names:
        tree = _unpack(files / "envpool_assets.tar.gz", stage_dir / "assets") / "envpool_assets"
        facts["envpool_assets"] = tree
    if "data.tar.gz" in names:
        ctx.data = _unpack(files / "data.tar.gz", stage_dir / "data_tar") / "data"
        shared = ctx.root.parent / "shared" / "data"  # where the tests look (tests/backends/cuda)
        if not ctx.dry and not shared.exists():
            try:
                shutil.copytree(ctx.data, shared)
                lines.append(f"copied the data to {shared} for the tests")
            except OSError as e:
                lines.append(f"could not copy the data to {shared} ({e}): G14 tests skip")
    if "gl.tar.gz" in names:
        facts["gl_libs"] = _unpack(files / "gl.tar.gz", stage_dir / "gl") / "gl" / "lib"
    if "rlsolver.tar.gz" in names:
        ctx.rlsolver = _unpack(files / "rlsolver.tar.gz", stage_dir / "rlsolver") / "rlsolver_src"
    wheel_files = [f for f in done if f["name"].endswith(".whl")]
    whls = [str(files / f["name"]) for f in wheel_files]
    try:
        lines.append(pip_install(ctx, whls, [f["sha256"] for f in wheel_files], stage_dir / "site"))
        facts["site"] = None if ctx.dry else stage_dir / "site"
    except manifest.KitError as e:
        lines.append(str(e))
        facts["status"] = "failed: pip (see below)"
    if missing:
        facts["status"] = f"partial: {len(missing)} files missing (see below)"
    rep.note("install", "\n".join(f"- {ln}" for ln in lines))
    return facts


def child_env(ctx: steps.Ctx, facts: dict[str, object], stage_dir: Path) -> dict[str, str]:
    """The environment of every step's command: the kit's site first on the path;
    JAX neither takes 75% of the GPU at start (torch and warp share it) nor
    forgets what it compiled (the warm-ups compile for the mujoco step)."""
    env = dict(os.environ)
    env.update(PYTHONUNBUFFERED="1", MPLBACKEND="Agg", XLA_PYTHON_CLIENT_PREALLOCATE="false")
    env["JAX_COMPILATION_CACHE_DIR"] = str(stage_dir / "jax_cache")
    if facts.get("site"):
        env["PYTHONPATH"] = os.pathsep.join(
            filter(None, [str(facts["site"]), env.get("PYTHONPATH")])
        )
    if facts.get("envpool_assets") and not ctx.dry:
        env["ENVPOOL_ASSETS_PATH"] = str(facts["envpool_assets"])
    if ctx.dry:
        env["JAX_PLATFORMS"] = "cpu"
    carried = facts.get("gl_libs")
    gl, lines = pixels.gl_env(env, carried if isinstance(carried, Path) else None)
    env.update(gl)
    facts["gl_lines"] = lines
    return env


def run_one(cmd: list[str], env: dict[str, str], cwd: Path, log: Path, limit: float) -> str:
    """Run one command, output appended to ``log``; 'ok', 'exit N' or 'timed out'.
    At the limit the command's whole process group is stopped."""
    with log.open("a") as f:
        f.write(f"$ {' '.join(cmd)}\n")
        f.flush()
        proc = subprocess.Popen(
            cmd, stdout=f, stderr=subprocess.STDOUT, env=env, cwd=cwd, start_new_session=True
        )
        status = finish(proc, limit)
        if status == "timed out":
            f.write(f"\n[gpu_kit: stopped at its limit, {limit:.0f} s]\n")
    return status


def finish(proc: subprocess.Popen[bytes], limit: float) -> str:
    """Wait for ``proc`` up to ``limit`` seconds, then stop its process group
    (SIGTERM, SIGKILL 5 s later); 'ok', 'exit N' or 'timed out'."""
    try:
        rc = proc.wait(timeout=max(limit, 0.1))
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        return "timed out"
    return "ok" if rc == 0 else f"exit {rc}"


class Background:
    """The warm-ups (steps.WARMUPS): started together, each waited for before
    the step it serves, stopped at its limit."""

    def __init__(
        self, ctx: steps.Ctx, env: dict[str, str], rep: report.Report, deadline: float
    ) -> None:
        self.ctx, self.env, self.rep, self.deadline = ctx, env, rep, deadline
        self.reserve: dict[str, float] = {}  # step -> the limits of it and the steps after it
        self.jobs: list[tuple[steps.Warmup, subprocess.Popen[bytes], float]] = []

    def start(self, selected: set[str]) -> None:
        later = 0.0
        for step in reversed(steps.STEPS):
            later += step.limit_s if step.key in selected and not step.spare else 0
            self.reserve[step.key] = later
        for w in steps.WARMUPS:
            absent = [m for m in w.needs if not self.ctx.have.get(m)]
            if w.before not in selected or (self.ctx.dry and not w.dry_too):
                continue
            if absent:
                self.rep.background(w.key, f"skipped: {', '.join(absent)} not installed", 0)
                continue
            log = (self.ctx.work / "logs" / f"{w.key}.log").open("w")
            proc = subprocess.Popen(
                w.argv(self.ctx),
                stdout=log,
                stderr=subprocess.STDOUT,
                env=self.env,
                cwd=self.ctx.root,
                start_new_session=True,
            )
            log.close()  # the child holds its own copy
            self.jobs.append((w, proc, time.perf_counter()))

    def wait_before(self, step: str) -> None:
        for w, proc, t0 in [j for j in self.jobs if j[0].before == step]:
            now = time.perf_counter()  # never wait into the time this step and later ones need
            spare = self.deadline - now - self.reserve.get(step, 0)
            status = finish(proc, min(w.limit_s - (now - t0), spare))
            self.rep.background(w.key, status, time.perf_counter() - t0)
        self.jobs = [j for j in self.jobs if j[0].before != step]

    def stop(self) -> None:
        for w, proc, t0 in self.jobs:
            self.rep.background(w.key, finish(proc, 0), time.perf_counter() - t0)
        self.jobs = []


def run_steps(
    ctx: steps.Ctx,
    env: dict[str, str],
    rep: report.Report,
    only: set[str],
    deadline: float,
    budget: float,
) -> None:
    """Every step (or only's) in order, $OUT rewritten after each."""
    selected = {s.key for s in steps.STEPS if not only or s.key in only}
    background = Background(ctx, env, rep, deadline)
    background.start(selected)
    try:
        for step in steps.STEPS:
            if step.key not in selected:
                rep.skip(step, "skipped: not selected (--only)")
                continue
            background.wait_before(step.key)
            left = deadline - time.perf_counter() - 5
            absent = [m for m in step.needs if not ctx.have.get(m)]
            commands = step.commands(ctx)
            if absent:
                rep.skip(step, f"skipped: {', '.join(absent)} not installed")
            elif isinstance(commands, str):
                rep.skip(step, commands)
            elif left < 15:
                rep.skip(step, f"skipped: out of budget ({budget:.0f} s)")
            else:
                limit = min(step.limit_s, left)
                log = ctx.work / "logs" / f"{step.key}.log"
                for module, what in step.optional:
                    if not ctx.have.get(module):
                        rep.line(step, f"skipped: {module} not installed ({what})")
                own = {**env, **step.env(ctx)} if step.env else env
                t0, status = time.perf_counter(), "ok"
                for cmd in commands:
                    status = run_one(cmd, own, ctx.root, log, limit - (time.perf_counter() - t0))
                    if status != "ok":
                        break
                text = log.read_text(errors="replace")
                body = step.collect(ctx, text)
                rep.finish(step, status, time.perf_counter() - t0, limit, commands, body)
            rep.write()
    finally:
        background.stop()


def run(args: argparse.Namespace, root: Path) -> int:
    """Install, then every step (or --only's) in order, within the budget."""
    t_start = time.perf_counter()
    out = Path(args.out or os.environ.get("OUT") or tempfile.mkdtemp(prefix="gpu_kit_out_"))
    out.mkdir(parents=True, exist_ok=True)
    default_stage = tempfile.mkdtemp(prefix="gpu_kit_dry_") if args.dry else "/tmp/gpu_kit"
    stage_dir = Path(args.stage or default_stage)
    work = stage_dir / "work"
    shutil.rmtree(work, ignore_errors=True)
    (work / "logs").mkdir(parents=True)
    kit = Path(args.kit) if Path(args.kit).is_absolute() else root / args.kit
    ctx = steps.Ctx(
        dry=args.dry,
        root=root,
        python=sys.executable,
        work=work,
        out=out,
        cpus=os.cpu_count() or 1,
        rlsolver=Path(args.rlsolver) if args.rlsolver else None,
    )
    only = {k for item in args.only or () for k in item.split(",")}
    unknown = only - {s.key for s in steps.STEPS}
    if unknown:
        print(f"gpu_kit run: no step {sorted(unknown)}; steps: {[s.key for s in steps.STEPS]}")
        return 2
    rep = report.Report(out, work, dry=args.dry)
    t0 = time.perf_counter()
    try:
        facts = install(ctx, kit, stage_dir, rep)
        status = str(facts.get("status", "ok"))
    except (manifest.KitError, subprocess.CalledProcessError, OSError) as e:
        facts, status = {"missing": {}, "site": None}, f"failed: {e}"
        rep.note("install", f"- {e}")
    rep.step("install", "install", status, time.perf_counter() - t0, steps.INSTALL_LIMIT_S)
    env = child_env(ctx, facts, stage_dir)
    probe = subprocess.run(
        [sys.executable, "-c", PROBE, *MODULES],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    ctx.have = json.loads(probe.stdout) if probe.returncode == 0 else {}
    if ctx.have.get("envpool_x"):
        gpu = subprocess.run(
            [sys.executable, "-c", GPU_FACTS],
            env=env,
            capture_output=True,
            text=True,
            check=False,
            timeout=60,
        )
        rep.environment(ctx.have, (gpu.stdout + gpu.stderr[-500:]).strip(), ctx.cpus)
    gl_lines = facts.get("gl_lines")
    if isinstance(gl_lines, list):
        rep.env_lines += [f"- {ln}" for ln in gl_lines]
    rep.write()
    run_steps(ctx, env, rep, only, t_start + args.budget, args.budget)
    rep.write(final=True, seconds=time.perf_counter() - t_start)
    print(f"gpu_kit run: {rep.summary_line()}; outputs in {out}")
    return 0
