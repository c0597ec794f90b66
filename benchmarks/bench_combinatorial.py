"""MaxCut-v0 and TSP-v0 env steps/s against RLSolver's own torch environments.

For each problem and num_envs, envpool_x and the peer are timed in turns
(A B A B ..., --rounds rounds of about --seconds each) and the median is kept:

  MaxCut on Gset G14, G22, G70: envpool_x's MaxCut-v0 (one random node flipped
      per env and step) against RLSolver's ``rlsolver/envs/env_PPO.py``
      ``EnvMaxcut`` (the same action: flip one node per env; it recomputes the
      cut from the assignment).
  TSP-50 / TSP-100 (random cities): envpool_x's TSP-v0 in 2opt mode (one
      random 2-opt move per env and step) against RLSolver's
      ``rlsolver/envs/env_ISCO.py`` ``ISCO_TSP.step`` with path_length=1 (one
      proposed 2-opt move per chain), its batch size set to num_envs.

RLSolver's code is read from a checkout the user names (--rlsolver PATH, the
repository root holding ``rlsolver/``); none of it is part of envpool_x.
Points whose estimated memory exceeds --max-gb are skipped (and say so).

    python benchmarks/bench_combinatorial.py --rlsolver /path/to/RLSolver
    python benchmarks/bench_combinatorial.py --rlsolver PATH --device cuda   # on a GPU
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

import envpool_x
from envpool_x import memory
from envpool_x.families.combinatorial import read_gset

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
PROBLEMS = ("G14", "G22", "G70", "TSP-50", "TSP-100")
GiB = 2**30


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--rlsolver", required=True, help="an RLSolver checkout (holds rlsolver/)")
    p.add_argument("--device", default="cpu", choices=["cpu", "cuda"])
    p.add_argument("--envs", default="256,1024,4096,16384,65536")
    p.add_argument("--problems", default=",".join(PROBLEMS))
    p.add_argument("--data", default=str(DATA), help="holds gset/G14.txt ... (Gset files)")
    p.add_argument("--threads", type=int, default=2, help="envpool_x threads and torch threads")
    p.add_argument("--seconds", type=float, default=1.0, help="per timed round (at least 2 steps)")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--max-gb", type=float, default=5.0, help="skip points needing more memory")
    return p.parse_args(argv)


def timed(step: Callable[[int], None], seconds: float, sync: Callable[[], None]) -> float:
    """Steps per second of ``step(i)`` over about ``seconds`` (at least 2 calls)."""
    step(0)
    sync()
    start, calls = time.perf_counter(), 0
    while calls < 2 or time.perf_counter() - start < seconds:
        step(calls)
        calls += 1
    sync()
    return calls / (time.perf_counter() - start)


class Ours:
    """An envpool_x pool stepped with pre-drawn random actions."""

    def __init__(self, task: str, cfg: dict[str, Any], n: int, args: argparse.Namespace) -> None:
        kw: dict[str, Any] = {"num_envs": n, "seed": 0, **cfg}
        if args.device == "cuda":
            kw.update(device="cuda", array_backend="torch")
        else:
            kw["num_threads"] = args.threads
        self.spec = envpool_x.make_spec(task, **kw)
        self.kw, self.task, self.device = kw, task, args.device
        self.env: Any = None

    def memory_bytes(self) -> int:
        est = memory.estimate(self.spec)
        return int(est.device if self.device == "cuda" else est.resident)

    def start(self) -> Callable[[int], None]:
        self.env = envpool_x.make_gymnasium(self.task, **self.kw)
        self.env.reset()
        k = int(self.env.single_action_space.n)
        rng = np.random.default_rng(0)
        acts: list[Any] = [rng.integers(0, k, self.spec.config.num_envs) for _ in range(8)]
        if self.device == "cuda":
            import torch

            acts = [torch.as_tensor(a, device="cuda") for a in acts]
        return lambda i: self.env.step(acts[i % 8])

    def stop(self) -> None:
        self.env.close()


class RlsolverMaxcut:
    """RLSolver's env_PPO.EnvMaxcut on a Gset graph, one node flipped per env."""

    def __init__(self, rl: Any, path: Path, n: int, device: str) -> None:
        nodes, edges = read_gset(path)
        self.graph = [(int(i), int(j), int(w)) for i, j, w in edges]
        # EnvMaxcut counts the nodes that appear in an edge: an isolated node
        # (G70 has 1,354) gets a zero-weight self-loop, which is never cut.
        isolated = np.setdiff1d(np.arange(nodes), edges[:, :2])
        self.graph += [(int(v), int(v), 0) for v in isolated]
        self.nodes, self.n, self.rl, self.device = nodes, n, rl, device

    def memory_bytes(self) -> int:
        # n0_ids, n1_ids, sim_ids (int64) and the gathered values, each envs x edges.
        return 5 * 8 * self.n * len(self.graph)

    def start(self) -> Callable[[int], None]:
        import torch

        args = types.SimpleNamespace(num_nodes=self.nodes, num_envs=self.n, num_steps=2**30)
        env = self.rl.env_PPO.EnvMaxcut(args, self.graph, device=torch.device(self.device))
        env.reset()
        gen = torch.Generator().manual_seed(0)
        acts = [torch.randint(0, self.nodes, (self.n,), generator=gen) for _ in range(8)]
        acts = [a.to(self.device) for a in acts]
        return lambda i: env.step(acts[i % 8])

    def stop(self) -> None:
        pass


class RlsolverTsp:
    """RLSolver's env_ISCO.ISCO_TSP, one proposed 2-opt move per chain."""

    def __init__(self, rl: Any, cities: int, n: int, device: str) -> None:
        self.cities, self.n, self.rl, self.device = cities, n, rl, device

    def memory_bytes(self) -> int:
        # random_indices[sample] and nearest_indices[sample]: envs x N x N int64.
        return 3 * 8 * self.n * self.cities * self.cities

    def start(self) -> Callable[[int], None]:
        import torch

        isco = self.rl.env_ISCO
        isco.BATCH_SIZE, isco.DEVICE = self.n, torch.device(self.device)
        xy = np.random.default_rng(0).random((self.cities, 2))
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "random.tsp")
            lines = [f"{i + 1} {x:.9f} {y:.9f}" for i, (x, y) in enumerate(xy)]
            Path(path).write_text("NODE_COORD_SECTION\n" + "\n".join(lines) + "\nEOF\n")
            params = self.rl.util_TSP.load_data(path)
        for key in ("distance", "nearest_indices", "random_indices"):
            params[key] = params[key].to(self.device)
        sampler = isco.ISCO_TSP(params)
        state = {"x": sampler.random_gen_init_sample(params)}
        temperature = torch.tensor(1.0, device=self.device)

        def step(_: int) -> None:
            state["x"], _acc = sampler.step(state["x"], 1, temperature)

        return step

    def stop(self) -> None:
        pass


def load_rlsolver(root: str) -> Any:
    """RLSolver's env modules, imported from the user's checkout."""
    if not (Path(root) / "rlsolver" / "envs").is_dir():
        sys.exit(f"--rlsolver {root}: no rlsolver/envs/ there (give the repository root)")
    sys.path.insert(0, str(Path(root).resolve()))
    import importlib

    names = ("rlsolver.envs.env_PPO", "rlsolver.envs.env_ISCO", "rlsolver.methods.ISCO.util_TSP")
    mods = [importlib.import_module(m) for m in names]
    return types.SimpleNamespace(env_PPO=mods[0], env_ISCO=mods[1], util_TSP=mods[2])


def pair(problem: str, n: int, args: argparse.Namespace, rl: Any) -> tuple[Any, Any]:
    """(ours, theirs) for one problem and num_envs."""
    if problem.startswith("TSP-"):
        cities = int(problem.split("-")[1])
        ours = Ours("TSP-v0", {"num_nodes": cities, "mode": "2opt"}, n, args)
        return ours, RlsolverTsp(rl, cities, n, args.device)
    path = Path(args.data) / "gset" / f"{problem}.txt"
    return Ours("MaxCut-v0", {"graph": str(path)}, n, args), RlsolverMaxcut(
        rl, path, n, args.device
    )


def plan(side: Any, args: argparse.Namespace) -> list[float] | str:
    """Slots for the throughputs of ``side`` per round, or why it is skipped."""
    need = side.memory_bytes()
    if need > args.max_gb * GiB:
        return f"skipped ({need / GiB:.1f} GiB > --max-gb)"
    return [0.0] * args.rounds


def main(argv: list[str] | None = None) -> None:
    """Run every point and print a markdown table (steps/s = env steps per second)."""
    args = parse_args(argv)
    rl = load_rlsolver(args.rlsolver)
    import torch

    torch.set_num_threads(args.threads)
    sync: Callable[[], None] = torch.cuda.synchronize if args.device == "cuda" else (lambda: None)
    print("| problem | envs | envpool_x steps/s | RLSolver steps/s | ratio |")
    print("|---|---:|---:|---:|---:|")
    for problem in args.problems.split(","):
        for n in (int(v) for v in args.envs.split(",")):
            sides = pair(problem, n, args, rl)
            results: list[list[float] | str] = [plan(s, args) for s in sides]
            steps = [
                s.start() if isinstance(r, list) else None
                for s, r in zip(sides, results, strict=True)
            ]
            for k in range(args.rounds):  # A B A B ...
                for step, res in zip(steps, results, strict=True):
                    if step is not None and isinstance(res, list):
                        res[k] = n * timed(step, args.seconds, sync)
            for side, step in zip(sides, steps, strict=True):
                if step is not None:
                    side.stop()
            med = [statistics.median(r) if isinstance(r, list) else r for r in results]
            cells = [f"{m:,.0f}" if isinstance(m, float) else m for m in med]
            ours, theirs = med
            ratio = "-"
            if isinstance(ours, float) and isinstance(theirs, float):
                ratio = f"{ours / theirs:.1f}x"
            print(f"| {problem} | {n:,} | {cells[0]} | {cells[1]} | {ratio} |", flush=True)


if __name__ == "__main__":
    main()
