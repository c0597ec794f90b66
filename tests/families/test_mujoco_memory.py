"""The memory check counts a MuJoCo model of the user's own (issue 51): each
env's mjData grows with the model, and its arena (``<size memory=...>``) is
reserved per env, so a large model must be refused with numbers before the
pool is built, not fail halfway."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import envpool_x
from envpool_x import memory
from envpool_x.families import mujoco as mj

pytestmark = pytest.mark.skipif(not mj.has_mujoco(), reason="built without MuJoCo")

MiB = 1 << 20


def _big_arena_model(tmp_path: Path, arena: str = "512M") -> Path:
    """Hopper's stock model with an arena of ``arena`` per mjData."""
    text = Path(mj.expand_model_path("hopper.xml")).read_text()
    assert "<size" not in text
    path = tmp_path / "hopper_big_arena.xml"
    path.write_text(re.sub(r"(<mujoco[^>]*>)", rf'\1\n  <size memory="{arena}"/>', text, count=1))
    return path


def test_the_stock_model_adds_nothing() -> None:
    stock = envpool_x.make_spec("Hopper-v5", num_envs=4)
    assert stock.entry.declaration.memory.extra("HopperV5", stock.env_config) == (0, 0)


def test_a_larger_arena_is_counted_per_env(tmp_path: Path) -> None:
    path = _big_arena_model(tmp_path)
    stock = memory.estimate(envpool_x.make_spec("Hopper-v5", num_envs=8))
    big = memory.estimate(envpool_x.make_spec("Hopper-v5", num_envs=8, xml_file=str(path)))
    per_env = (big.address_space - stock.address_space) / 8
    # 512 MiB against the stock arena of about 13 MiB, both reserved per env.
    assert 480 * MiB < per_env < 512 * MiB, per_env / MiB
    assert big.resident >= stock.resident


def test_a_pool_of_a_large_model_is_refused_with_numbers(tmp_path: Path) -> None:
    """Under an address-space limit of 8 GiB, 64 envs of a 512 MiB arena (32
    GiB) are refused by the check, which names a num_envs that fits; that
    many envs are then built and stepped."""
    path = _big_arena_model(tmp_path)
    code = f"""
        import re, resource, numpy as np, envpool_x
        resource.setrlimit(resource.RLIMIT_AS, (8 << 30, 8 << 30))
        try:
            envpool_x.make_gymnasium("Hopper-v5", num_envs=64, xml_file={str(path)!r})
            print("built")
        except MemoryError as e:
            print("MemoryError:", e)
            fit = int(re.search(r"the largest num_envs that fits is (\\d+)", str(e)).group(1))
            env = envpool_x.make_gymnasium("Hopper-v5", num_envs=fit, xml_file={str(path)!r})
            env.reset(seed=0)
            env.step(np.zeros((fit, 3), np.float32))
            print("fits", fit)
    """
    out = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=300,
        env=dict(os.environ),
    )
    assert out.returncode == 0, out.stderr[-3000:]
    assert "MemoryError: a pool of num_envs=64 Hopper-v5 envs needs about" in out.stdout, out.stdout
    assert "address space" in out.stdout
    fit = int(re.search(r"fits (\d+)", out.stdout).group(1))
    assert 1 <= fit < 16, out.stdout
