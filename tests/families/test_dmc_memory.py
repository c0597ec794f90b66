"""The memory check's figures for the DMC domains that differ from the family's:
those that keep a private model per env (manipulator, stacker, lqr: their tasks
write into it) and dog's larger arena. A pool's measured growth per env (VmRSS
and VmSize from 4 to 20 envs, after a reset and 20 steps, in a fresh
interpreter) must not exceed what ``memory.estimate`` counts per env."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

import envpool_x
from envpool_x import memory
from envpool_x.families import dmc

pytestmark = pytest.mark.skipif(not dmc.has_dmc(), reason="built without dmc")

SMALL, LARGE = 4, 20

MEASURE = textwrap.dedent(
    """
    import json, sys
    import numpy as np
    import envpool_x

    def status():
        out = {}
        for line in open("/proc/self/status"):
            key, value = line.split(":", 1)
            if key in ("VmRSS", "VmSize"):
                out[key] = int(value.split()[0]) * 1024
        return out

    task, n = sys.argv[1], int(sys.argv[2])
    # One env first: the model is compiled and cached before the baseline.
    warm = envpool_x.make_gymnasium(task, num_envs=1, num_threads=1)
    warm.reset()
    before = status()
    env = envpool_x.make_gymnasium(task, num_envs=n, num_threads=1, check_memory=False)
    env.reset()
    zeros = np.zeros((n, *env.single_action_space.shape), np.float32)
    for _ in range(20):
        env.step(zeros)
    after = status()
    print(json.dumps({key: after[key] - before[key] for key in after}))
    """
)


def _growth(task: str, n: int) -> dict[str, int]:
    out = subprocess.run(
        [sys.executable, "-c", MEASURE, task, str(n)],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize(
    "task",
    [
        "StackerStack2-v1",
        "LqrLqr21-v1",
        pytest.param("ManipulatorBringBall-v1", marks=pytest.mark.slow),
        pytest.param("DogRun-v1", marks=pytest.mark.slow),
    ],
)
def test_the_estimate_covers_the_measured_growth_per_env(task: str) -> None:
    small, large = _growth(task, SMALL), _growth(task, LARGE)
    n = LARGE - SMALL
    rss, vm = (large["VmRSS"] - small["VmRSS"]) / n, (large["VmSize"] - small["VmSize"]) / n
    a = memory.estimate(envpool_x.make_spec(task, num_envs=SMALL))
    b = memory.estimate(envpool_x.make_spec(task, num_envs=LARGE))
    resident, address = (b.resident - a.resident) / n, (b.address_space - a.address_space) / n
    assert resident >= rss, (task, resident / 2**20, rss / 2**20)
    assert address >= vm, (task, address / 2**20, vm / 2**20)


def test_dog_counts_its_larger_arena() -> None:
    """Without measuring (the slow test does): dog's address space per env is
    the family's plus its larger arena."""
    dog = envpool_x.make_spec("DogRun-v1", num_envs=1)
    cheetah = envpool_x.make_spec("CheetahRun-v1", num_envs=1)
    extra = dog.entry.declaration.memory.extra(dog.entry.pool_name, dog.env_config)
    assert extra[1] >= 18 << 20
    assert cheetah.entry.declaration.memory.extra(cheetah.entry.pool_name, {}) == (0, 0)
