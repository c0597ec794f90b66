"""The tests step: the GPU tests on the GPU machine, and what pytest said."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gpu_kit.steps import Commands, Ctx

GPU_TESTS = (
    "tests/backends/cuda/test_cuda.py",
    "tests/backends/cuda/test_device_state_before_reset.py",
    "tests/backends/cuda/test_cuda_params_gpu.py",
    "tests/backends/mujoco_warp/test_mujoco_warp_cuda.py",
    "tests/backends/mujoco_warp/test_mujoco_warp_params_cuda.py",
    "tests/backends/cuda/test_multi_agent_device.py",
    "tests/backends/cuda/test_combinatorial_device.py",
    "tests/backends/test_contract.py",
    # Issue 49's frames through the GPU's EGL (the step's MUJOCO_GL): the worker
    # threads' frames against render() (gymnasium's and dm_control's renderers).
    "tests/families/test_pixels_egl.py",
    "tests/families/test_pixels.py",
)
#: Under --dry: every file collected, only the tests that need a GPU selected (they
#: skip here); the cpu-reference tests in the same files are CI's to run.
DRY_SELECT = "gpu"


def collect(ctx: Ctx, log: str) -> str:
    """Counts per outcome, the failures and the reasons for skips, from pytest -v -rfEs."""
    kinds = "PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS"
    # `path::test OUTCOME [ n%]` (one process), `[gwN] [ n%] OUTCOME path::test` (xdist).
    outcome = re.compile(rf"^(?:\S+::\S+ ({kinds})\b|\[gw\d+\] \[\s*\d+%\] ({kinds}) )", re.M)
    counts: dict[str, int] = {}
    for m in outcome.finditer(log):
        kind = m.group(1) or m.group(2)
        counts[kind] = counts.get(kind, 0) + 1
    final = [ln.strip("= ") for ln in log.splitlines() if re.match(r"=+ .*\bin [\d.]+s", ln)]
    lines = [
        f"- Outcomes seen: {', '.join(f'{v} {k.lower()}' for k, v in counts.items()) or 'none'}"
    ]
    lines.append(f"- pytest's summary: {final[-1] if final else 'none (cut short)'}")
    short = [
        ln[:240] for ln in log.splitlines() if ln.startswith(("FAILED ", "ERROR ", "SKIPPED "))
    ]
    if short:
        lines += ["", "```", *short[:60], "```"]
    return "\n".join(lines)


def commands(ctx: Ctx) -> Commands:
    """pytest on GPU_TESTS (8 processes where xdist is there); under --dry, only the
    tests named for the GPU, which skip here."""
    cmd = [ctx.python, "-m", "pytest", "-v", "-p", "no:cacheprovider", "-rfEs"]
    if ctx.dry:
        return [[*cmd, "--timeout", "60", "-k", DRY_SELECT, *GPU_TESTS]]
    if ctx.have.get("xdist"):
        cmd += ["-n", "8"]
    return [[*cmd, "--timeout", "80", *GPU_TESTS]]
