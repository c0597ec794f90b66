"""MaxCut-v0 and TSP-v0 on the GPU path's kernel body, run on the CPU
(device="cpu-reference"), against the thread-pool engine: same seed, same
actions -> bit-identical observations, rewards and infos, in every autoreset
mode, with subset steps, seeded and partial resets and reset_mask. Also the
errors a launch records (a node out of range, a visited city), the shared
instance (one graph per env), and the local-search example with a device.

tests/backends/cuda/test_cuda.py runs the same comparison on a GPU when one is there.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from cpu_reference_helpers import assert_same

import envpool_x
from envpool_x import _core

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT.parent / "shared" / "data"
G14 = DATA / "gset" / "G14.txt"
BERLIN52 = DATA / "tsplib" / "berlin52.tsp"
MODES = ["next_step", "same_step", "disabled"]

#: (task, config) pairs: Gset G14 (when present), negative weights, one graph
#: per env with zero init, TSP in both modes on random and fixed cities.
CASES = [
    ("MaxCut-v0", {"graph": "er:40:0.3:5"}),
    ("MaxCut-v0", {"graph": ["er:30:0.2:3", "ba:30:2:4", "er:30:0.4"], "init": "zeros"}),
    ("TSP-v0", {"num_nodes": 9}),
    ("TSP-v0", {"num_nodes": 9, "mode": "2opt"}),
]
if G14.exists():
    CASES.append(("MaxCut-v0", {"graph": str(G14)}))
if BERLIN52.exists():
    CASES += [
        ("TSP-v0", {"coords": str(BERLIN52)}),
        ("TSP-v0", {"coords": str(BERLIN52), "mode": "2opt"}),
    ]


def legal_actions(env, last, ids, rng) -> np.ndarray:
    """Random actions; in TSP's construct mode a random unvisited city of each
    env (``last``: the latest result's obs and info, rows by env id)."""
    n = int(env.single_action_space.n)
    obs, info = last
    if "action_mask" not in info:
        return rng.integers(0, n, ids.size)
    mask = np.asarray(info["action_mask"])[ids].astype(bool)
    mask[~mask.any(axis=1)] = True  # a finished env (disabled mode) is not stepped
    return np.array([rng.choice(np.flatnonzero(m)) for m in mask])


def merge(last, ids, result) -> tuple:
    """The latest obs and info of every env after ``result`` for ``ids``."""
    obs, info = last
    new_obs, new_info = result[0], result[-1]
    for k in obs:
        obs[k][ids] = np.asarray(new_obs[k])
    for k in info:
        if k in new_info and np.ndim(info[k]) >= 1 and not k.startswith("_"):
            info[k][ids] = np.asarray(new_info[k])
    return obs, info


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("case", range(len(CASES)))
def test_reference_matches_thread_pool(case: int, mode: str) -> None:
    task, cfg = CASES[case]
    n = 3 if isinstance(cfg.get("graph"), list) else 6
    kw = {"num_envs": n, "seed": 4, "autoreset_mode": mode, "max_episode_steps": 7, **cfg}
    cpu = envpool_x.make_gymnasium(task, num_threads=2, **kw)
    ref = envpool_x.make_gymnasium(task, device="cpu-reference", **kw)
    rng = np.random.default_rng(case)
    first = cpu.reset()
    assert_same(first, ref.reset())
    last = (
        {k: np.array(v) for k, v in first[0].items()},
        {k: np.array(v) for k, v in first[1].items()},
    )
    ended: set[int] = set()
    for t in range(40):
        if t == 15:  # re-seed everything
            result = cpu.reset(seed=9)
            assert_same(result, ref.reset(seed=9))
            last = merge(last, np.arange(n), result)
            ended.clear()
            continue
        if t == 25:  # a partial reset with per-env seeds
            ids = np.array([2, 0])
            result = cpu.reset(env_id=ids, seed=[5, 6])
            assert_same(result, ref.reset(env_id=ids, seed=[5, 6]))
            last = merge(last, ids, result)
            ended -= {0, 2}
            continue
        if mode == "disabled" and ended:
            ids = np.array(sorted(ended))
            result = cpu.reset(env_id=ids)
            assert_same(result, ref.reset(env_id=ids), f"reset at {t}")
            last = merge(last, ids, result)
            ended.clear()
        ids = rng.permutation(n)[: n - 1] if t % 3 == 1 else np.arange(n)
        act = legal_actions(cpu, last, ids, rng)
        env_id = ids if t % 3 == 1 else None
        a, b = cpu.step(act, env_id=env_id), ref.step(act, env_id=env_id)
        assert_same(a, b, f"step {t}")
        last = merge(last, ids, a)
        ended |= set(ids[np.asarray(a[2]) | np.asarray(a[3])].tolist())
    cpu.close()
    ref.close()


@pytest.mark.parametrize("task, cfg", [("MaxCut-v0", {"graph": "ba:20:2:3"}), ("TSP-v0", {})])
def test_reset_mask_with_dict_observations(task: str, cfg: dict) -> None:
    kw = {"num_envs": 4, "seed": 2, "autoreset_mode": "disabled", "max_episode_steps": 3, **cfg}
    cpu = envpool_x.make_gymnasium(task, **kw)
    ref = envpool_x.make_gymnasium(task, device="cpu-reference", **kw)
    assert_same(cpu.reset(), ref.reset())
    for t in range(3):
        act = np.full(4, t)
        assert_same(cpu.step(act), ref.step(act))
    mask = np.array([True, False, True, False])
    a, b = cpu.reset(options={"reset_mask": mask}), ref.reset(options={"reset_mask": mask})
    assert_same(a, b)
    assert set(a[1]) >= {"env_id", "_env_id", "tour_length" if task == "TSP-v0" else "cut"}
    # Unmasked rows keep the latest observation; masked ones start over.
    progress = a[0]["progress"] if task == "MaxCut-v0" else a[0]["visited"].sum(axis=1)
    assert (np.asarray(progress)[mask] == 0).all() and (np.asarray(progress)[~mask] > 0).all()
    act = np.array([0, 0]) if task == "MaxCut-v0" else np.array([3, 3])
    assert_same(
        cpu.step(act, env_id=np.flatnonzero(mask)), ref.step(act, env_id=np.flatnonzero(mask))
    )


def test_recorded_bad_actions_end_the_episode_and_the_pool_goes_on() -> None:
    env = envpool_x.make_gymnasium(
        "TSP-v0", num_envs=3, num_nodes=6, seed=0, device="cpu-reference"
    )
    env.reset()
    env.step(np.array([0, 1, 2]))
    # The CPU engine raises at once; a device records the visited city.
    _, reward, _, trunc, info = env.step(np.array([1, 1, 3]))
    np.testing.assert_array_equal(trunc, [False, True, False])
    np.testing.assert_array_equal(reward[1], 0.0)
    with pytest.raises(ValueError, match=r"env 1 got an invalid action.*not yet visited"):
        env._pool.check_errors()
    env._pool.check_errors()  # cleared
    obs, _, _, _, info = env.step(np.array([2, 0, 4]))
    np.testing.assert_array_equal(info["elapsed_step"], [3, 0, 3])  # env 1 reset
    np.testing.assert_array_equal(np.asarray(obs["visited"]).sum(axis=1), [3, 0, 3])
    # A node out of range from a device tensor (unchecked here as there).
    maxcut = envpool_x.make_gymnasium(
        "MaxCut-v0", num_envs=2, graph="er:10:0.5", device="cpu-reference"
    )
    maxcut.reset()
    raw = maxcut._pool._pool.step(np.array([3, 10], dtype=np.int64), None, 0, False)
    names = maxcut._pool._pool.field_names
    np.testing.assert_array_equal(np.from_dlpack(raw[names.index("truncated")]), [False, True])
    with pytest.raises(ValueError, match=r"env 1 got an invalid action .*\[0, 10\)"):
        maxcut._pool.check_errors()
    with pytest.raises(ValueError, match="not available on the GPU path"):
        maxcut._pool.get_state(0)
    with pytest.raises(ValueError, match=r"out of range"):
        maxcut.step(np.array([3, 10]))  # host actions are checked at once
    maxcut.close()
    env.close()


@pytest.mark.parametrize(
    "task, cfg",
    [
        ("MaxCut-v0", {"graph": "er:50:0.1"}),
        ("TSP-v0", {"num_nodes": 20, "mode": "2opt"}),
        ("TSP-v0", {"num_nodes": 20}),
    ],
)
def test_memory_estimate_counts_the_slab(task: str, cfg: dict) -> None:
    # The estimate's slab, computed without a pool, is the one a pool allocates.
    spec = envpool_x.make_spec(task, num_envs=4, device="cpu-reference", **cfg)
    env = envpool_x.make_gymnasium(task, num_envs=4, device="cpu-reference", **cfg)
    sizes = _core.CudaPool.memory_sizes(spec.entry.pool_name, spec.env_config, num_envs=4)
    assert sizes["slab_per_env"] == env._pool._pool.slab_bytes > 0
    env.close()


@pytest.mark.skipif(not G14.exists(), reason=f"Gset G14 not found at {G14}")
def test_local_search_example_runs_on_a_device() -> None:
    cmd = [
        sys.executable,
        str(ROOT / "examples" / "maxcut_local_search.py"),
        "--device",
        "cpu-reference",
    ]
    cmd += ["--num-envs", "32", "--seconds", "2"]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=True).stdout
    best = int(out.split("best cut ")[1].split()[0])
    # Above any random cut (G14's: 2347 +- 34), at most the best known: the
    # search climbed (how far in 2 s depends on the machine).
    assert 2500 < best <= 3064, out


@pytest.mark.parametrize("task, cfg", [("MaxCut-v0", {"graph": "er:20:0.3:2"}), ("TSP-v0", {})])
def test_make_dm_on_the_reference_device(task: str, cfg: dict) -> None:
    kw = {"num_envs": 3, "seed": 1, "max_episode_steps": 5, **cfg}
    cpu, ref = envpool_x.make_dm(task, **kw), envpool_x.make_dm(task, device="cpu-reference", **kw)
    a, b = cpu.reset(), ref.reset()
    for t in range(12):  # construct: cities t % 5 (each episode ends after 5 steps)
        assert_same(tuple(a), tuple(b), f"timestep {t}")
        act = np.full(3, t % 5 if task == "TSP-v0" else t)
        a, b = cpu.step(act), ref.step(act)
    assert_same(tuple(a), tuple(b))
