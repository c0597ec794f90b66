"""Meta-World throughput: envpool_x against Meta-World 3.1.1 under gymnasium's
vector envs and against EnvPool's Meta-World, side by side in one run.

Cases: Reach, PickPlace, DoorOpen, and MT10 when this build registers it (all
ten tasks built), at 16 and 64 envs, 2 threads. Runners per case, measured in
interleaved rounds in a fresh random order (bench.measure):

  envpool_x sync / async (batch num_envs/2)
  envpool sync / async: EnvPool 1.2.7 (set ENVPOOL_X_PEER_PYTHON to a Python
      3.12 with envpool==1.2.7, e.g. /work/venv312/bin/python); single tasks
      only (EnvPool has no multi-task pool)
  metaworld sync / async: gymnasium's SyncVectorEnv / AsyncVectorEnv of
      Meta-World's envs as its own make_vec builds them (metaworld._init_each_env:
      MT1's 50 variations drawn per reset, the 500-step limit); for MT10, env i
      runs MT10's task i % 10 with its one-hot id (make_vec("Meta-World/MT10")
      gives one env per task; here n of them)
  raw C++ loop, 1 thread: our env stepped without the pool (single tasks)

Meta-World runs on the mujoco wheel envpool_x is built against, its weld reset
patched for it (tests/families/metaworld_helpers.py). Paired ratios: the
median over rounds of the per-round ratio with a 95% bootstrap interval.

Usage: python benchmarks/bench_metaworld.py [--quick] [--threads 2]
           [--tasks MetaWorld/Reach-v3 ...] [--sets MT10 custom:reach-v3,push-v3]
           [--num-envs 16 64] [--rounds 30] [--out PATH]
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
import warnings
from pathlib import Path
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests" / "families"))

from bench_classic import (  # noqa: E402
    case_rows,
    measure_shuffled,
    pool_and_peer_runners,
    report_cases,
)

from envpool_x import bench  # noqa: E402
from envpool_x.families import metaworld as family  # noqa: E402
from envpool_x.families import metaworld_sets as sets  # noqa: E402
from envpool_x.registration import list_all_envs  # noqa: E402

SLICE_S = 0.15  # seconds per runner per round
_NAME_OF_ID = {family.envpool_id(s): n for n, s, _, _ in family.TASKS}


def _oracle_modules() -> Any:
    """metaworld, imported with its weld reset patched for our mujoco."""
    import metaworld
    import metaworld.policies
    import mujoco
    from metaworld_helpers import load_oracle

    load_oracle(mujoco, metaworld, metaworld.policies)
    return metaworld


def _metaworld_env(env_cls: Any, tasks: list, seed: int, env_id: int | None, n: int) -> Any:
    """One of Meta-World's envs as its make_vec makes it (in a worker process too)."""
    metaworld = _oracle_modules()
    if env_id is None:
        return metaworld._init_each_env(env_cls=env_cls, tasks=tasks, seed=seed)
    return metaworld._init_each_env(
        env_cls=env_cls, tasks=tasks, seed=seed, use_one_hot=True, env_id=env_id, num_tasks=n
    )


def metaworld_runner(task_names: list[str], num_envs: int, mode: str, seed: int = 0) -> Any:
    """Meta-World's envs in gymnasium's vector env (mode "sync" or "async"):
    one task, or env i on task i % len(task_names) with its one-hot id."""
    import gymnasium

    metaworld = _oracle_modules()
    all_envs = metaworld.env_dict.ALL_V3_ENVIRONMENTS
    if len(task_names) == 1:
        drawn = metaworld.MT1(task_names[0], seed=seed).train_tasks
    else:
        classes = metaworld.env_dict._get_env_dict(task_names)
        args = metaworld.env_dict._get_args_kwargs(all_envs, classes)
        drawn = metaworld._make_tasks(classes, args, metaworld._MT_OVERRIDE, seed=seed)
    n = len(task_names)
    fns = []
    for i in range(num_envs):
        name = task_names[i % n]
        own = [t for t in drawn if t.env_name == name]
        env_id = None if n == 1 else i % n
        fns.append(functools.partial(_metaworld_env, all_envs[name], own, seed, env_id, n))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if mode == "sync":
            env = gymnasium.vector.SyncVectorEnv(fns)
        else:
            # Spawned, not forked: a forked worker would keep our end of the
            # EnvPool peer's stdin open, and the peer would never see it close.
            env = gymnasium.vector.AsyncVectorEnv(fns, context="spawn")
        env.reset(seed=seed)
    acts = bench._actions(env.single_action_space, num_envs, 64)
    return bench.Runner(f"metaworld {mode}", bench.sync_step_loop(env, num_envs, acts), env.close)


def _set_of(spec: str) -> tuple[str, list[str], dict[str, Any]]:
    """(label, task names, our config) of a set given as a benchmark name or
    ``custom:a-v3,b-v3``."""
    if spec.startswith("custom:"):
        tasks = spec.split(":", 1)[1].split(",")
        return f"custom {len(tasks)} tasks", tasks, {"tasks": tasks}
    (task_set,) = [s for s in sets.SETS if s.name == spec]
    return spec, list(task_set.tasks), {}


def run_case(
    label: str, our_id: str, task_names: list[str], config: dict[str, Any], num_envs: int,
    threads: int, rounds: int, quick: bool,
) -> tuple[list[dict], str]:  # fmt: skip
    """Measure every runner on one case; return the table rows and the paired ratios."""
    single = len(task_names) == 1
    runners = pool_and_peer_runners(our_id, num_envs, threads, peer=single, **config)
    for mode in ("sync", "async"):
        runners.append(metaworld_runner(task_names, num_envs, mode))
    raw = bench.raw_runner(family.task_id(our_id.split("/")[1][:-3]), 1) if single else None
    if raw is not None:
        runners.append(raw)
    measure_shuffled(runners, rounds, quick, SLICE_S)
    pairs = [
        ("envpool_x sync", "envpool sync"),
        ("envpool_x async", "envpool async"),
        ("envpool_x sync", "metaworld sync"),
        ("envpool_x sync", "metaworld async"),
    ]
    return case_rows(label, num_envs, runners, raw, pairs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--quick", action="store_true", help="tiny workloads (smoke test)")
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument(
        "--tasks",
        nargs="*",
        default=["MetaWorld/Reach-v3", "MetaWorld/PickPlace-v3", "MetaWorld/DoorOpen-v3"],
    )
    parser.add_argument("--sets", nargs="*", default=["MT10"], help="benchmarks or custom:a,b")
    parser.add_argument("--num-envs", nargs="+", type=int, default=[16, 64])
    parser.add_argument("--out", default=str(HERE / "RESULTS.md"))
    parser.add_argument("--section", default="Meta-World")
    args = parser.parse_args()
    if not family.has_metaworld():
        sys.exit(family.BUILD_HINT)
    if args.quick:
        args.rounds = 1
    cases = [(t, t, [_NAME_OF_ID[t]], {}) for t in args.tasks]
    for spec in args.sets:
        label, names, config = _set_of(spec)
        our_id = sets.CUSTOM.envpool_id if config else f"MetaWorld/{spec}-v3"
        if not config and f"MetaWorld{spec}-v3" not in list_all_envs():
            print(f"{spec}: left out (not registered in this build)", file=sys.stderr)
            continue
        cases.append((label, our_id, names, config))
    rows, ratios = [], []
    for label, our_id, names, config in cases:
        for n in args.num_envs:
            print(f"{label} num_envs={n}", file=sys.stderr)
            new_rows, new_ratio = run_case(
                label, our_id, names, config, n, args.threads, args.rounds, args.quick
            )
            rows.extend(new_rows)
            ratios.append(new_ratio)
    report_cases(rows, ratios, args, SLICE_S)


if __name__ == "__main__":
    main()
