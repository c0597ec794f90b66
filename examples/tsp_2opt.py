"""Batched 2-opt with random restarts on a TSPLIB instance, through ``TSP-v0``.

Every env of a ``TSP-v0`` pool in ``mode="2opt"`` holds a tour. Each step, for
every env, the decrease of the tour length of all N x N segment reversals is
computed from the observation (the tour and the cities) and the best one is
sent as the action ``i * N + j``; an env whose tour no move improves is at a
2-opt local optimum and is reset (a new random tour: the restart). The best
tour length seen is reported, with the time to come within 2% of the optimum.

    python examples/tsp_2opt.py                        # TSPLIB berlin52
    python examples/tsp_2opt.py path/to/other.tsp --optimum 1234

Distances follow the instance's EUC_2D rule (nint of the Euclidean distance),
as the env computes them; the env's ``tour_length`` is what is reported.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

import envpool_x

#: Optimal tour lengths of TSPLIB instances (../shared/data/README.md).
OPTIMUM = {"berlin52": 7542}
DEFAULT_INSTANCE = Path(__file__).resolve().parents[2] / "shared" / "data" / "tsplib"


def parse_args() -> argparse.Namespace:
    """The command line."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("coords", nargs="?", default=str(DEFAULT_INSTANCE / "berlin52.tsp"))
    p.add_argument("--optimum", type=float, default=None, help="default: by file name")
    p.add_argument("--num-envs", type=int, default=512)
    p.add_argument("--num-threads", type=int, default=2)
    p.add_argument("--seconds", type=float, default=60.0, help="time budget")
    p.add_argument("--seed", type=int, default=0)
    return p.parse_args()


def move_gains(dist: np.ndarray, tours: np.ndarray) -> np.ndarray:
    """(k, N, N): the tour length's decrease of reversing positions i..j
    (i < j; other entries -inf), for each of k tours, from the distance matrix."""
    k, n = tours.shape
    prev, nxt = np.roll(tours, 1, axis=1), np.roll(tours, -1, axis=1)
    i_city, j_city = tours[:, :, None], tours[:, None, :]
    i_prev, j_next = prev[:, :, None], nxt[:, None, :]
    gain = dist[i_prev, i_city] + dist[j_city, j_next] - dist[i_prev, j_city] - dist[i_city, j_next]
    # i < j, and not the whole tour (its reversal changes nothing).
    valid = np.triu(np.ones((n, n), dtype=bool), 1)
    valid[0, n - 1] = False
    return np.where(valid[None], gain, -np.inf)


def main() -> None:
    """Run the search; print the best tour length and the time to within 2%."""
    args = parse_args()
    optimum = args.optimum or OPTIMUM.get(Path(args.coords).stem)
    start = time.perf_counter()
    env = envpool_x.make_gymnasium(
        "TSP-v0",
        num_envs=args.num_envs,
        num_threads=args.num_threads,
        coords=args.coords,
        mode="2opt",
        max_episode_steps=10**9,  # the search restarts an env itself
        seed=args.seed,
    )
    obs, info = env.reset()
    xy = obs["coords"][0].astype(np.float64)  # one fixed instance: the same for every env
    dist = np.floor(np.linalg.norm(xy[:, None] - xy[None], axis=2) + 0.5)
    n = xy.shape[0]
    tours = np.array(obs["tour"])
    lengths = np.array(info["tour_length"])
    best, best_time, target_time, steps, restarts = lengths.min(), 0.0, None, 0, 0
    target = 1.02 * optimum if optimum else None
    print(f"{Path(args.coords).name}: {n} cities, {args.num_envs} envs")
    while time.perf_counter() - start < args.seconds:
        gains = move_gains(dist, tours).reshape(len(tours), -1)
        action = gains.argmax(axis=1)
        improving = gains[np.arange(len(tours)), action] > 1e-9
        ids = np.flatnonzero(improving)
        stuck = np.flatnonzero(~improving)
        if len(ids):
            obs, _, _, _, info = env.step(action[ids], env_id=ids)
            tours[ids], lengths[ids] = obs["tour"], info["tour_length"]
            steps += len(ids)
        if len(stuck):  # a 2-opt local optimum: restart from a random tour
            obs, info = env.reset(env_id=stuck)
            tours[stuck], lengths[stuck] = obs["tour"], info["tour_length"]
            restarts += len(stuck)
        if lengths.min() < best:
            best, best_time = lengths.min(), time.perf_counter() - start
            if target is not None and target_time is None and best <= target:
                target_time = best_time
                print(f"within 2% of {optimum:g}: {best:g} after {target_time:.2f} s")
    elapsed = time.perf_counter() - start
    env.close()
    print(f"best tour {best:g} (found after {best_time:.2f} s)", end="")
    if optimum:
        print(f", {100.0 * (best / optimum - 1):.2f}% above the optimum {optimum:g}", end="")
    print(f"; {steps / elapsed:,.0f} moves/s, {restarts} restarts")
    if target is not None:
        reached = f"{target_time:.2f} s" if target_time is not None else "not reached"
        print(f"time to within 2%: {reached}")


if __name__ == "__main__":
    main()
