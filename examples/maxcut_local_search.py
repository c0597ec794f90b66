"""Batched tabu search for MaxCut, written only against the env API.

Every env of a ``MaxCut-v0`` pool runs its own tabu search: each step flips the
node with the largest ``gain`` (the cut's change, from the observation) among
the nodes not flipped in the last few steps (the tabu tenure), unless a tabu
flip would beat the best cut of the env's episode (aspiration). Episodes end
after ``--restart-steps`` flips and the pool resets them to a fresh random
assignment: the random restarts. The best cut over all envs is reported, with
the time it took to reach 99% of the best known value.

    python examples/maxcut_local_search.py                       # Gset G14
    python examples/maxcut_local_search.py ../shared/data/gset/G22.txt

Ties between equal gains are broken by a small random offset per node, redrawn
at every restart, so that envs started alike still take different paths.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces

import envpool_x

#: Best known cuts of Gset graphs (BLS, as tabled by RLSolver; ../shared/data/README.md).
BEST_KNOWN = {"G14": 3064, "G22": 13359, "G70": 9541}
DEFAULT_GRAPH = Path(__file__).resolve().parents[2] / "shared" / "data" / "gset" / "G14.txt"


def host(x: Any) -> np.ndarray:
    """A result as a numpy array: with device="cuda" the env returns tensors of
    its array backend (torch by default), which may live on the GPU."""
    return x.cpu().numpy() if hasattr(x, "cpu") else np.asarray(x)


def parse_args() -> argparse.Namespace:
    """The command line."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("graph", nargs="?", default=str(DEFAULT_GRAPH), help="a Gset file")
    p.add_argument("--best-known", type=int, default=None, help="default: by file name")
    p.add_argument("--num-envs", type=int, default=1024)
    p.add_argument("--num-threads", type=int, default=2)
    p.add_argument("--seconds", type=float, default=60.0, help="time budget")
    p.add_argument("--tenure", type=float, default=0.1, help="tabu tenure, fraction of n")
    p.add_argument("--restart-steps", type=int, default=0, help="flips per restart (0: 10 n)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--device", default="cpu", help='"cpu" or "cuda" (or "cuda:K")')
    return p.parse_args()


def main() -> None:
    """Run the search and print the best cut and the time to 99% of the best known."""
    args = parse_args()
    best_known = args.best_known or BEST_KNOWN.get(Path(args.graph).stem)
    start = time.perf_counter()
    config = {"graph": args.graph, "seed": args.seed, "device": args.device}
    space = envpool_x.make_spec("MaxCut-v0", **config).action_space
    assert isinstance(space, spaces.Discrete)
    n = int(space.n)
    env = envpool_x.make_gymnasium(
        "MaxCut-v0",
        num_envs=args.num_envs,
        num_threads=args.num_threads,
        max_episode_steps=args.restart_steps or 10 * n,
        **config,
    )
    obs, info = env.reset()
    num_envs = args.num_envs
    rng = np.random.default_rng(args.seed)
    rows = np.arange(num_envs)
    tenure_lo, tenure_hi = max(1, int(args.tenure * n) // 2), max(2, int(args.tenure * n) * 3 // 2)
    tabu_until = np.zeros((num_envs, n), dtype=np.int64)
    noise = rng.random((num_envs, n), dtype=np.float32) * 0.5
    best, best_time, target_time = int(host(info["best_cut"]).max()), 0.0, None
    target = 0.99 * best_known if best_known else None
    done = np.zeros(num_envs, dtype=bool)
    step = 0
    setup = time.perf_counter() - start
    print(f"{Path(args.graph).name}: n={n}, {num_envs} envs, setup {setup:.2f} s")
    while time.perf_counter() - start < args.seconds:
        gain = host(obs["gain"])
        cut = host(info["cut"])
        best_cut = host(info["best_cut"])
        # Tabu moves are allowed only when they beat the episode's best cut.
        allowed = (tabu_until <= step) | (cut[:, None] + gain > best_cut[:, None])
        score = np.where(allowed, gain + noise, -np.inf)
        action = score.argmax(axis=1)
        obs, _, terminated, truncated, info = env.step(action)
        step += 1
        tabu_until[rows, action] = step + rng.integers(tenure_lo, tenure_hi + 1, num_envs)
        if done.any():  # these envs were reset by this step: a random restart
            tabu_until[done] = 0
            noise[done] = rng.random((int(done.sum()), n), dtype=np.float32) * 0.5
        done = host(terminated) | host(truncated)
        now_best = int(host(info["best_cut"]).max())
        if now_best > best:
            best, best_time = now_best, time.perf_counter() - start
            if target is not None and target_time is None and best >= target:
                target_time = best_time
                print(f"99% of {best_known} reached: cut {best} after {target_time:.2f} s")
    elapsed = time.perf_counter() - start
    env.close()
    print(f"best cut {best} (found after {best_time:.2f} s)", end="")
    if best_known:
        print(f", {100.0 * best / best_known:.2f}% of the best known {best_known}", end="")
    print(f"; {step} steps x {num_envs} envs = {step * num_envs / elapsed:,.0f} flips/s")
    if target is not None:
        reached = f"{target_time:.2f} s" if target_time is not None else "not reached"
        print(f"time to 99%: {reached}")


if __name__ == "__main__":
    main()
