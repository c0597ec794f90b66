"""envpool_x.distributed on Ray: steps/s with 1 and 2 nodes against a single pool,
and the per-batch overhead that decides how it scales.

A local Ray cluster is started here: two node processes of one CPU each (the
machine has two cores). Runners, measured interleaved (A B A B ...), sync steps
with pre-drawn random actions:

  pool, 1 thread / 2 threads: one ``make_gymnasium`` pool in this process
  helper, 1 node: ``DistributedEnvPool`` with one actor (1 CPU, 1 thread) owning all envs
  helper, 2 nodes: two actors (one per node, 1 CPU each), half the envs each

Overhead per batch: the time of a helper step minus the time of a step of the same
envs in one local pool with the actors' thread count (what Ray adds: the call, the
actions out, the results back, the concatenation), measured with 1 and 2 actors;
plus a no-op actor call (Ray's own round trip).

Usage: python benchmarks/bench_ray.py [--quick] [--rounds 3] [--out PATH]
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_classic import cpu_name, version, write_section  # noqa: E402

import envpool_x  # noqa: E402

CASES = [("CartPole-v1", 16), ("CartPole-v1", 4096), ("Pong-v5", 8)]


def _rate(step: Any, actions: list[np.ndarray], seconds: float) -> tuple[float, float]:
    """(env steps/s, seconds per batch step) of ``step`` over ``seconds``."""
    step(actions[0])  # warm
    n, t0 = 0, time.perf_counter()
    while True:
        step(actions[n % len(actions)])
        n += 1
        elapsed = time.perf_counter() - t0
        if elapsed >= seconds:
            return n * len(actions[0]) / elapsed, elapsed / n


def run_case(task: str, num_envs: int, rounds: int, seconds: float) -> list[dict[str, Any]]:
    from envpool_x.distributed import DistributedEnvPool

    pools = {
        "pool, 1 thread": envpool_x.make_gymnasium(task, num_envs=num_envs, num_threads=1),
        "pool, 2 threads": envpool_x.make_gymnasium(task, num_envs=num_envs, num_threads=2),
        # The envs of one actor of the 2-node helper, locally: its own step time.
        "pool of one actor's half": envpool_x.make_gymnasium(
            task, num_envs=num_envs // 2, num_threads=1
        ),
    }
    helpers = {
        # Half a CPU each, so that the three actors fit on the two 1-CPU nodes at
        # once (runners are measured one at a time); each pool has 1 thread.
        "helper, 1 node": DistributedEnvPool(task, 1, num_envs, num_cpus_per_actor=0.5),
        "helper, 2 nodes": DistributedEnvPool(task, 2, num_envs // 2, num_cpus_per_actor=0.5),
    }
    envs: dict[str, Any] = {**pools, **helpers}
    for env in envs.values():
        env.reset()
    space = pools["pool, 1 thread"].single_action_space
    rng = np.random.default_rng(0)
    samples: dict[str, list[tuple[float, float]]] = {name: [] for name in envs}
    for _ in range(rounds):
        for name, env in envs.items():
            n = env.num_envs
            actions = [rng.integers(0, space.n, n) for _ in range(16)]
            samples[name].append(_rate(env.step, actions, seconds))
    for env in envs.values():
        env.close()
    rows = []
    for name, values in samples.items():
        rate = statistics.median(v[0] for v in values)
        per_batch = statistics.median(v[1] for v in values)
        rows.append(
            {"task": task, "num_envs": num_envs, "runner": name, "rate": rate, "batch_s": per_batch}
        )
    by = {r["runner"]: r for r in rows}
    base = by["pool, 1 thread"]["rate"]
    for r in rows:
        r["vs_pool1"] = r["rate"] / base
    # What Ray adds per batch: helper step time minus the same envs' local step time.
    by["helper, 1 node"]["overhead_s"] = (
        by["helper, 1 node"]["batch_s"] - by["pool, 1 thread"]["batch_s"]
    )
    by["helper, 2 nodes"]["overhead_s"] = (
        by["helper, 2 nodes"]["batch_s"] - by["pool of one actor's half"]["batch_s"]
    )
    return rows


def noop_round_trip(rounds: int) -> float:
    """Seconds per call of a no-op actor method (Ray's own round trip)."""
    import ray

    @ray.remote(num_cpus=1)
    class Noop:
        def ping(self, x: Any) -> Any:
            return x

    actor = Noop.remote()  # type: ignore[attr-defined]
    ray.get(actor.ping.remote(0))
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        for _ in range(200):
            ray.get(actor.ping.remote(0))
        times.append((time.perf_counter() - t0) / 200)
    ray.kill(actor)
    return statistics.median(times)


def extrapolate(rows: list[dict]) -> str:
    """The scaling model, filled with this run's numbers, for 10 and 100 nodes.

    One step of K actors of E envs each takes t_env(E) (the actors step in
    parallel) plus the Ray overhead, o(K) = o1 + slope * (K - 1): o1 measured with
    one actor, slope = o(2) - o(1) (the driver's extra work per actor: one more
    request, one more result to deserialize and concatenate). Across machines the
    driver's network adds bytes(K) / bandwidth, with bytes the observations it
    receives per step.
    """
    out = [
        "Extrapolation (on paper, from the numbers above): a step of K actors of E envs "
        "takes t_env(E) + o1 + slope x (K - 1), where o1 is the overhead with one actor "
        "and slope = overhead(2 actors) - overhead(1 actor), the driver's extra work per "
        "actor; across machines add K x (observation bytes per actor batch) / (driver "
        "bandwidth, 10 Gb/s assumed). Efficiency = steps/s over K x one actor's local "
        "steps/s.",
        "",
        "| task | envs per actor E | t_env (ms) | o1 (ms) | slope (ms/actor) | "
        "MB in per step at K=100 | K=10 steps/s (eff.) | K=100 steps/s (eff.) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    tasks = sorted({(r["task"], r["num_envs"]) for r in rows}, key=lambda t: (t[0], t[1]))
    for task, n in tasks:
        by = {r["runner"]: r for r in rows if r["task"] == task and r["num_envs"] == n}
        e = n // 2
        t_env = by["pool of one actor's half"]["batch_s"]
        o1 = max(0.0, by["helper, 1 node"]["overhead_s"])
        slope = max(0.0, by["helper, 2 nodes"]["overhead_s"] - o1)
        spec = envpool_x.make_spec(task, num_envs=1)
        obs_bytes = (
            int(np.prod(spec.observation_space.shape)) * spec.observation_space.dtype.itemsize
        )
        cells = []
        for k in (10, 100):
            net = k * e * obs_bytes * 8 / 10e9
            t = t_env + o1 + slope * (k - 1) + net
            rate = k * e / t
            cells.append(f"{rate:,.0f} ({rate / (k * e / t_env):.0%})")
        mb = 100 * e * obs_bytes / 1e6
        out.append(
            f"| {task} | {e} | {t_env * 1e3:.3f} | {o1 * 1e3:.2f} | {slope * 1e3:.2f} | "
            f"{mb:.1f} | {cells[0]} | {cells[1]} |"
        )
    out += [
        "",
        "Reading: efficiency is t_env / (t_env + overhead), so what matters is the env work "
        "per actor per batch against Ray's per-batch cost. On this 2-core VM the driver, the "
        "GCS, two raylets and the actors share two cores, so every Ray number here is "
        "inflated by contention (a no-op actor call alone costs milliseconds) and the "
        "slope mixes the driver's per-actor work with that contention; the 10/100-node "
        "columns are therefore a pessimistic bound, not a forecast. What carries over: "
        "the helper pays one Ray call per actor per batch and the driver receives every "
        "observation, so (1) batches per actor must hold many envs (a CartPole batch of "
        "thousands of envs costs ~0.1 ms to step, far below one Ray round trip: such "
        "cheap envs scale by envs per node, not by nodes), (2) at 100 nodes the driver "
        "serialises 100 requests and deserialises 100 results per step, linear in K, and "
        "for Atari takes in tens of MB per step, so use async mode (recv what is ready) "
        "or keep the learner next to the actors (RLlib's env runners do: only sample "
        "batches travel, once per rollout, not once per step).",
    ]
    return "\n".join(out) + "\n"


def to_markdown(rows: list[dict], noop_s: float, args: argparse.Namespace, cmd: str) -> str:
    lines = [
        f"## {args.section}",
        "",
        f"- Command: `{cmd}`",
        f"- Date: {datetime.date.today().isoformat()}",
        f"- Machine: {os.cpu_count()} CPUs, {cpu_name()}, Python {platform.python_version()}",
        f"- Versions: envpool_x {version('envpool-x')}, ray {version('ray')}, "
        f"numpy {version('numpy')}",
        "- A local Ray cluster of two node processes, 1 CPU each, on this machine (so the "
        "'2 nodes' share the machine's 2 cores with the driver); sync steps, random actions; "
        f"{args.rounds} interleaved rounds, median reported. Env steps counted.",
        "- `vs pool 1t`: steps/s over the single pool with 1 thread. `Ray overhead / batch`: "
        "helper step time minus the local step time of the envs one actor owns.",
        f"- A no-op Ray actor call (round trip) takes {noop_s * 1e6:.0f} µs here.",
        "",
        "| task | num_envs | runner | steps/s | ms per batch step | vs pool 1t | "
        "Ray overhead / batch (ms) |",
        "|---|---:|---|---:|---:|---:|---:|",
    ]
    for r in rows:
        over = f"{r['overhead_s'] * 1e3:.2f}" if "overhead_s" in r else ""
        lines.append(
            f"| {r['task']} | {r['num_envs']} | {r['runner']} | {r['rate']:,.0f} | "
            f"{r['batch_s'] * 1e3:.3f} | {r['vs_pool1']:.2f}x | {over} |"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="short runs (smoke test)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=1.5, help="per runner per round")
    parser.add_argument("--out", default=str(Path(__file__).with_name("RESULTS.md")))
    parser.add_argument("--section", default="Ray")
    args = parser.parse_args()
    import ray
    from ray.cluster_utils import Cluster

    node = {"num_cpus": 1, "object_store_memory": 200 * 2**20}
    cluster = Cluster(initialize_head=True, head_node_args={**node, "include_dashboard": False})
    cluster.add_node(**node)
    ray.init(address=cluster.address, include_dashboard=False, log_to_driver=False)
    cluster.wait_for_nodes(timeout=60)
    try:
        rounds = 1 if args.quick else args.rounds
        seconds = 0.3 if args.quick else args.seconds
        cases = [c for c in CASES if c[0] in envpool_x.list_all_envs()]
        rows = []
        for task, n in cases:
            print(f"{task} num_envs={n}", file=sys.stderr)
            rows.extend(run_case(task, n, rounds, seconds))
        noop_s = noop_round_trip(rounds)
    finally:
        ray.shutdown()
        cluster.shutdown()
    cmd = "python " + " ".join([Path(sys.argv[0]).as_posix(), *sys.argv[1:]])
    md = to_markdown(rows, noop_s, args, cmd)
    md += "\n" + extrapolate(rows)
    write_section(Path(args.out), args.section, md)
    print(md)


if __name__ == "__main__":
    main()
