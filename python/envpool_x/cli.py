"""The ``envpool-x`` command line: list, info, bench, record."""

from __future__ import annotations

import argparse
import os
import platform
import sys
from typing import Any

from envpool_x import bench, memory
from envpool_x.factory import make_gymnasium
from envpool_x.registration import envs_by_family
from envpool_x.render.record import record
from envpool_x.spec import make_spec

# What bad input raises (an unknown task, a bad option, a path that cannot be
# written, a missing extra, a pool too big): one line and exit status 2, as
# argparse does for a bad argument, rather than a traceback.
_USER_ERRORS = (
    KeyError,
    ValueError,
    TypeError,
    ImportError,
    NotImplementedError,
    MemoryError,
    OSError,
)


def _cmd_list(args: argparse.Namespace) -> int:
    for family, ids in envs_by_family().items():
        print(f"{family}:")
        for task in ids:
            print(f"  {task}")
    return 0


def _cmd_info(args: argparse.Namespace) -> int:
    spec = make_spec(args.task, **({"num_envs": args.num_envs} if args.num_envs else {}))
    print(f"task: {spec.id}")
    print(f"observation_space: {spec.observation_space}")
    if spec.num_agents > 1:  # one agent's spaces: the env's are those with an agent axis
        print(f"num_agents: {spec.num_agents}")
        print(f"agent_observation_space: {spec.agent_observation_space}")
        print(f"agent_action_space: {spec.agent_action_space}")
    else:
        print(f"action_space: {spec.action_space}")
    print(f"reward_threshold: {spec.reward_threshold}")
    print("config (defaults):" if not args.num_envs else "config:")
    # The env keys' declared valid ranges (envpool_x.options), beside their values.
    table = spec.entry.declaration.option_table(spec.entry.pool_name)
    declared = table.options if table is not None else {}
    for key, value in spec.config_dict().items():
        valid = f"  # {declared[key].summary()}" if key in declared else ""
        print(f"  {key} = {value!r}{valid}")
    if spec.params:  # docs/params.md
        print("per-env parameters (env.set_params; also config keys):")
        for p in spec.params.values():
            when = "mid-episode or at reset" if p.mid_episode else "at reset"
            print(f"  {p.name} = {p.default!r}  # [{p.low:g}, {p.high:g}], {when}")
    print(f"frame: {_frame_size(args.task)}")
    if args.num_envs:
        for line in memory.describe(spec):
            print(line)
    return 0


def _frame_size(task: str) -> str:
    """One frame's size (render_mode="rgb_array"), or why there is none."""
    try:
        env = make_gymnasium(task, num_envs=1, render_mode="rgb_array")
        try:
            env.reset()
            _, height, width, channels = env.render().shape
        finally:
            env.close()
    except (NotImplementedError, RuntimeError, ImportError) as e:
        return f"none ({e})"
    return f"{height} x {width} x {channels} (height x width x RGB) uint8"


def _cmd_record(args: argparse.Namespace) -> int:
    written, (height, width) = record(
        args.task,
        args.out,
        steps=args.steps,
        num_envs=args.num_envs,
        grid=args.grid,
        policy=args.policy,
        seed=args.seed,
        fps=args.fps,
        progress=not args.quiet,
    )
    print(f"wrote {args.out}: {written} frame(s) of {height} x {width}")
    return 0


def _cmd_bench(args: argparse.Namespace) -> int:
    num_envs, threads = args.num_envs, args.num_threads
    batch = args.batch_size or num_envs
    runners: list[Any] = [bench.envpool_x_runner(args.task, num_envs, batch, threads)]
    if not args.no_peers:
        peer = bench.envpool_runner(args.task, num_envs, batch, threads)
        if peer is not None:
            runners.append(peer)
        if batch == num_envs:
            for mode in ("vector_entry_point", "sync"):
                g = bench.gymnasium_runner(args.task, num_envs, mode)
                if g is not None:
                    runners.append(g)
    print(
        f"{args.task}: num_envs={num_envs} batch_size={batch} num_threads={threads} "
        f"({'sync' if batch == num_envs else 'async'}), {os.cpu_count()} CPUs, "
        f"{platform.processor() or platform.machine()}",
        file=sys.stderr,
    )
    try:
        bench.measure(runners, args.steps, rounds=args.rounds, progress=not args.quiet)
    finally:
        for r in runners:
            r.close()
    ours = runners[0].steps_per_s
    print(f"{'runner':<32} {'steps/s':>14} {'envpool_x / runner':>20}")
    for r in runners:
        print(f"{r.name:<32} {r.steps_per_s:>14,.0f} {ours / r.steps_per_s:>19.2f}x")
    note = None if args.no_peers else bench.peer_note()
    if note:
        print(f"note: {note}", file=sys.stderr)
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``envpool-x``."""
    parser = argparse.ArgumentParser(prog="envpool-x", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="list task ids by family").set_defaults(func=_cmd_list)
    info = sub.add_parser("info", help="spaces and default config of a task")
    info.add_argument("task")
    info.add_argument(
        "--num-envs", type=int, default=0, help="also print the memory a pool of N envs takes"
    )
    info.set_defaults(func=_cmd_info)
    b = sub.add_parser("bench", help="measure steps/s, side by side with installed peers")
    b.add_argument("task", nargs="?", default="CartPole-v1")
    b.add_argument("--num-envs", type=int, default=4096)
    b.add_argument("--batch-size", type=int, default=0, help="0: num_envs (sync)")
    b.add_argument("--num-threads", type=int, default=0, help="0: one per core")
    b.add_argument("--steps", type=int, default=2_000_000, help="env steps per round")
    b.add_argument("--rounds", type=int, default=5)
    b.add_argument("--no-peers", action="store_true", help="measure envpool_x only")
    b.add_argument("--quiet", action="store_true", help="no progress bar")
    b.set_defaults(func=_cmd_bench)
    r = sub.add_parser("record", help="record an agent's frames to a video (or the last to a PNG)")
    r.add_argument("task")
    r.add_argument("--out", required=True, help="video (.mp4, .gif, ...) or image (.png)")
    r.add_argument("--steps", type=int, default=500)
    r.add_argument("--num-envs", type=int, default=1)
    r.add_argument("--grid", action="store_true", help="tile every env's frame (else env 0)")
    r.add_argument("--policy", help="module:function from batched obs to actions (default random)")
    r.add_argument("--seed", type=int, default=0)
    r.add_argument("--fps", type=int, default=30)
    r.add_argument("--quiet", action="store_true", help="no progress bar")
    r.set_defaults(func=_cmd_record)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``envpool-x`` and ``python -m envpool_x``."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except _USER_ERRORS as e:
        msg = e.args[0] if isinstance(e, KeyError) and e.args else e
        print(f"envpool-x: error: {msg}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
