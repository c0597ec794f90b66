"""The training step (issue 49's example): examples/drq_cartpole_swingup.py from
pixels drawn through EGL, torch on the GPU, for as long as the run has time left.

On a CPU machine each 84 x 84 frame takes tens of ms in software (the model's
4096 x 4096 shadow map) and each DrQ update about a second, so the rising return
the issue asks to show can only be recorded here. The step comes last and is
not counted in the budget: it runs in whatever time the steps before it left
(or alone, ``run --only drq``), and the returns it printed are kept if it is
stopped."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gpu_kit.steps import Commands, Ctx

TITLE = "Training from pixels (DrQ on CartpoleSwingup-v1, GPU)"
#: Finished-episode lines the example prints.
EPISODE = re.compile(r"^frames=(\d+) return=([-\d.]+) fps=(\d+)", re.M)


def commands(ctx: Ctx) -> Commands:
    """The example: 8 envs, an update per two agent steps (DrQ-v2's ratio), up to
    100k frames on the GPU; under --dry a few hundred tiny frames on OSMesa."""
    cmd = [ctx.python, str(ctx.root / "examples" / "drq_cartpole_swingup.py")]
    if ctx.dry:
        tiny = ["--total-frames", "256", "--num-envs", "2", "--seed-frames", "64"]
        tiny += ["--render-size", "32", "--batch-size", "8", "--hidden-dim", "32"]
        return [[*cmd, *tiny, "--action-repeat", "8", "--num-threads", "1"]]
    return [
        [
            *cmd,
            "--total-frames",
            "100000",
            "--num-envs",
            "8",
            "--num-threads",
            str(min(max(ctx.cpus, 1), 8)),
            "--updates-per-step",
            "4",
        ]
    ]


def collect(ctx: Ctx, log: str) -> str:
    """The mean return of the finished episodes in each tenth of the frames
    run, first to last, and the frame rate."""
    found = [(int(f), float(r), int(s)) for f, r, s in EPISODE.findall(log)]
    if not found:
        return "- no episode finished (see logs/drq.log)"
    last = found[-1][0]
    bins: dict[int, list[float]] = {}
    for frames, ret, _ in found:
        bins.setdefault(min(9, (frames - 1) * 10 // max(last, 1)), []).append(ret)
    lines = [
        f"- episodes finished: {len(found)}, up to {last:,} frames; "
        f"{found[-1][2]:,} frames/s over the run (updates included)",
        "",
        "| frames up to | episodes | mean return |",
        "|---:|---:|---:|",
    ]
    for k in sorted(bins):
        lines.append(
            f"| {(k + 1) * last // 10:,} | {len(bins[k])} | {sum(bins[k]) / len(bins[k]):.1f} |"
        )
    return "\n".join(lines)
