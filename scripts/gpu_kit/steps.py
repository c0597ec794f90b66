"""The steps `gpu_kit.sh run` runs, in priority order, each with its time limit,
what it needs, its command on the GPU machine and its CPU stand-in (--dry), and
how its markdown is read back from what it wrote."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from gpu_kit import pixels, tests_step, training

#: The run's whole budget, install included; the device call's limit is ~40 s more.
TOTAL_BUDGET_S = 550
INSTALL_LIMIT_S = 30


@dataclass
class Ctx:
    """What a step's command needs to know about this run."""

    dry: bool
    root: Path
    python: str
    work: Path  # files the steps write (sections), kept beside the logs
    out: Path
    cpus: int
    rlsolver: Path | None = None
    data: Path | None = None
    have: dict[str, str | None] = field(default_factory=dict)  # module -> version, None: absent

    def bench(self, script: str) -> list[str]:
        return [self.python, str(self.root / "benchmarks" / script)]


Commands = list[list[str]]


@dataclass(frozen=True)
class Step:
    """One step: ``commands`` gives the command lines, or a reason to skip."""

    key: str
    title: str
    limit_s: int
    needs: tuple[str, ...]
    commands: Callable[[Ctx], Commands | str]
    collect: Callable[[Ctx, str], str]
    optional: tuple[tuple[str, str], ...] = ()  # (module, what runs without it)
    env: Callable[[Ctx], dict[str, str]] | None = None  # variables for this step alone
    spare: bool = False  # runs only in the time the others leave: not in the budget's sum


def rows(log: str) -> str:
    """The markdown table lines (and their ### headers) a benchmark printed."""
    keep = [ln for ln in log.splitlines() if ln.startswith(("|", "### "))]
    return "\n".join(keep)


def from_heading(prefix: str) -> Callable[[Ctx, str], str]:
    """The text a benchmark printed from its ``## prefix`` line on, or its rows."""

    def collect(ctx: Ctx, log: str) -> str:
        at = log.find(f"\n{prefix}")
        if at >= 0:
            text = log[at + 1 :]
            return text.split("\nappended to ")[0].strip()
        return rows(log)

    return collect


def section_file(name: str) -> Callable[[Ctx, str], str]:
    """The section a benchmark wrote into ctx.work/name, else its printed rows."""

    def collect(ctx: Ctx, log: str) -> str:
        path = ctx.work / name
        if path.exists():
            text = re.sub(r"^# Benchmark results\n+", "", path.read_text())
            return re.sub(r"<!-- (begin|end): .*? -->\n?", "", text).strip()
        return rows(log)

    return collect


def _tag(ctx: Ctx) -> Commands:
    if ctx.dry:  # ours on cpu-reference, WarpDrive's kernels under numba's simulator
        return [[*ctx.bench("bench_tag.py"), "--simulate", "--rounds", "1", "--seconds", "0.05"]]
    out = str(ctx.work / "tag.md")
    return [
        [*ctx.bench("bench_tag.py"), "--gpu", "--rounds", "3", "--seconds", "0.25", "--out", out]
    ]


def _combinatorial(ctx: Ctx) -> Commands | str:
    if ctx.rlsolver is None:
        return "skipped: RLSolver's env files are not in the kit (prepare had no --rlsolver)"
    cmd = [*ctx.bench("bench_combinatorial.py"), "--rlsolver", str(ctx.rlsolver)]
    if ctx.data is not None:
        cmd += ["--data", str(ctx.data)]
    if ctx.dry:
        return [
            [
                *cmd,
                "--device",
                "cpu",
                "--envs",
                "8",
                "--problems",
                "G14,TSP-50",
                "--rounds",
                "1",
                "--seconds",
                "0.05",
                "--threads",
                "1",
            ]
        ]
    return [
        [
            *cmd,
            "--device",
            "cuda",
            "--envs",
            "1024,16384,65536",
            "--rounds",
            "3",
            "--seconds",
            "0.25",
            "--max-gb",
            "24",
        ]
    ]


#: The mujoco step's batch sizes (log2): Brax compiles once per size.
MUJOCO_LOG2 = (13, 15)


def _mujoco(ctx: Ctx) -> Commands:
    cmd = ctx.bench("bench_cuda_mujoco.py")
    if ctx.dry:  # tiny, warp's CPU device; Brax only imported
        return [[*cmd, "--smoke", "--tasks", "Ant-v5"]]
    cmd += [
        "--min-log2",
        str(MUJOCO_LOG2[0]),
        "--max-log2",
        str(MUJOCO_LOG2[1]),
        "--cpu-max-log2",
        "13",
        "--threads",
        str(ctx.cpus),
        "--rounds",
        "3",
        "--seconds",
        "0.4",
        "--ppo-envs",
        "4096",
        "--ppo-steps",
        "32",
    ]
    return [cmd if ctx.have.get("brax") else [*cmd, "--no-brax"]]


def _classic(ctx: Ctx) -> Commands:
    cmd = ctx.bench("bench_cuda.py")
    if ctx.dry:  # device="cpu-reference", tiny
        return [[*cmd, "--smoke"]]
    return [
        [
            *cmd,
            "--min-log2",
            "16",
            "--max-log2",
            "24",
            "--cpu-max-log2",
            "20",
            "--threads",
            str(ctx.cpus),
            "--rounds",
            "3",
            "--seconds",
            "0.2",
        ]
    ]


def _scaling(
    cases: tuple[str, ...], num_envs: int, rounds: int, section: str, plot: str
) -> Callable[[Ctx], Commands]:
    """bench_scaling.py for ``cases`` at ``num_envs``: its section and plot named ``plot``."""

    def commands(ctx: Ctx) -> Commands:
        cmd = [
            *ctx.bench("bench_scaling.py"),
            "--cases",
            *cases,
            "--section",
            section,
            "--out",
            str(ctx.work / f"{plot}.md"),
            "--plot",
            str(ctx.out / f"{plot}.png"),
        ]
        if ctx.dry:  # a thread count more where one case runs: seconds, not tens
            few = ["1", "2"] if len(cases) == 1 else ["1"]
            return [[*cmd, "--quick", "--threads", *few, "--no-profile"]]
        threads = [str(t) for t in (1, 2, 4, 8, 16) if t <= max(ctx.cpus, 1)]
        return [
            [
                *cmd,
                "--num-envs",
                str(num_envs),
                "--threads",
                *threads,
                "--rounds",
                str(rounds),
                "--note",
                "gpu_kit run on the GPU machine's CPUs",
            ]
        ]

    return commands


SCALING_CARTPOLE = "CPU scaling (16 cores): CartPole-v1"
SCALING_PONG_ANT = "CPU scaling (16 cores): Pong-v5, Ant-v5"

STEPS: tuple[Step, ...] = (
    Step(
        "tests",
        "GPU tests (gpu_kit)",
        105,
        ("envpool_x", "pytest"),
        tests_step.commands,
        tests_step.collect,
        env=pixels.step_env,
    ),
    Step(
        "tag",
        "Tag on the GPU (WarpDrive's envs)",
        70,
        ("envpool_x", "example_envs", "numba"),
        _tag,
        section_file("tag.md"),
    ),
    Step(
        "combinatorial",
        "Combinatorial on the GPU (RLSolver)",
        60,
        ("envpool_x", "torch", "networkx"),
        _combinatorial,
        lambda ctx, log: rows(log),
    ),
    Step(
        "mujoco",
        "MuJoCo on the GPU (MuJoCo Warp, Brax)",
        100,
        ("envpool_x", "torch", "mujoco_warp"),
        _mujoco,
        from_heading("## MuJoCo on the GPU"),
        optional=(("brax", "the Brax column"),),
    ),
    Step("classic", "GPU path", 40, ("envpool_x", "torch"), _classic, from_heading("## GPU path")),
    Step(
        "scaling-cartpole",
        SCALING_CARTPOLE,
        25,
        ("envpool_x",),
        _scaling(("cartpole",), 65536, 5, SCALING_CARTPOLE, "scaling16_cartpole"),
        section_file("scaling16_cartpole.md"),
        optional=(("envpool", "the EnvPool column"),),
    ),
    Step(
        "scaling-pong-ant",
        SCALING_PONG_ANT,
        40,
        ("envpool_x", "ale_py"),
        _scaling(("pong", "ant"), 256, 3, SCALING_PONG_ANT, "scaling16_pong_ant"),
        section_file("scaling16_pong_ant.md"),
        optional=(("envpool", "the EnvPool column"),),
    ),
    Step(
        "pixels",
        pixels.TITLE,
        80,
        ("envpool_x", "dm_control", "OpenGL"),
        pixels.commands,
        pixels.collect,
        optional=(("envpool", "the EnvPool rows"),),
        env=pixels.step_env,
    ),
    Step(
        "drq",
        training.TITLE,
        150,
        ("envpool_x", "torch"),
        training.commands,
        training.collect,
        env=pixels.step_env,
        spare=True,
    ),
)


@dataclass(frozen=True)
class Warmup:
    """A background job started with the first step and waited for (up to
    ``limit_s`` from its start) before step ``before`` runs."""

    key: str
    limit_s: int
    needs: tuple[str, ...]
    argv: Callable[[Ctx], list[str]]
    before: str = "mujoco"
    dry_too: bool = True  # also under --dry (Brax's CPU compile takes minutes: not)


def _warmup(ctx: Ctx, *args: str) -> list[str]:
    script = str(ctx.root / "scripts" / "gpu_kit" / "warmup.py")
    return [ctx.python, script, *args, *(["--dry"] if ctx.dry else [])]


def _brax_warmup(log2: int) -> Callable[[Ctx], list[str]]:
    return lambda ctx: _warmup(ctx, "brax", str(log2))


#: MuJoCo Warp's kernels and Brax's compiles, beside the tests (one process each,
#: so the Brax sizes compile at once).
WARMUPS: tuple[Warmup, ...] = (
    Warmup(
        "warmup-warp",
        150,
        ("envpool_x", "torch", "mujoco_warp"),
        lambda ctx: _warmup(ctx, "warp", str(MUJOCO_LOG2[0])),
    ),
    *(
        Warmup(f"warmup-brax-{k}", 150, ("brax", "jax"), _brax_warmup(k), dry_too=False)
        for k in range(MUJOCO_LOG2[0], MUJOCO_LOG2[1] + 1)
    ),
)


def budget_text() -> str:
    """The run's time budget, step by step."""
    lines = [
        "Budget of `gpu_kit.sh run` (seconds; each step is stopped at its limit and",
        "keeps what it printed; the run stops starting steps at the total):",
        "",
        f"- install (verify, reassemble, pip --target; expected, not enforced): {INSTALL_LIMIT_S}",
    ]
    lines += [f"- {s.key}: {s.limit_s}" for s in STEPS if not s.spare]
    total = INSTALL_LIMIT_S + sum(s.limit_s for s in STEPS if not s.spare)
    lines.append(f"- sum of limits {total}, whole run capped at {TOTAL_BUDGET_S}")
    lines += [
        f"- {s.key}: up to {s.limit_s}, only in the time the steps before it leave"
        for s in STEPS
        if s.spare
    ]
    lines.append(
        f"- in the background from the first step, waited for before `mujoco` (at most "
        f"{max(w.limit_s for w in WARMUPS)} s from their start): "
        + ", ".join(w.key for w in WARMUPS)
    )
    return "\n".join(lines)
