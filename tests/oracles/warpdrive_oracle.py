"""WarpDrive's own Tag step kernels (rl-warp-drive 2.7.1, the numba backend) run
on the CPU under numba's CUDA simulator: the oracle of tests/families/test_tag_parity.py.

Run as a script in a fresh process (the simulator must be switched on before
numba.cuda is first imported, and the grid kernel reads its agent count from a
module WarpDrive generates at run time):

    python tests/oracles/warpdrive_oracle.py IN.npz OUT.npz

IN holds the task ("grid" / "continuous"), its config (json), the episode's
first state of every env (our env's get_state layout) and the actions of
every step; OUT the observation at the start and, per step, observations,
rewards, done flags and the state, one block (env) per env, one thread per
agent, as WarpDrive runs them.
"""

from __future__ import annotations

import json
import os
import sys
import types

import numpy as np

os.environ["NUMBA_ENABLE_CUDASIM"] = "1"
# A module global: the simulator swaps the kernels' `cuda` for its own.
from numba import cuda  # noqa: E402


def _env_config(num_agents: int, num_envs: int) -> None:
    """The module WarpDrive writes before it compiles its kernels."""
    mod = types.ModuleType("warp_drive.numba_includes.env_config")
    mod.wkNumberAgents = num_agents  # type: ignore[attr-defined]
    mod.wkNumberEnvs = num_envs  # type: ignore[attr-defined]
    mod.wkBlocksPerEnv = 1  # type: ignore[attr-defined]
    sys.modules[mod.__name__] = mod


def run_grid(cfg: dict, states: np.ndarray, actions: np.ndarray) -> dict[str, np.ndarray]:
    num_envs, steps, num_agents = actions.shape
    _env_config(num_agents, num_envs)
    from example_envs.tag_gridworld import tag_gridworld_step_numba as wd

    f32 = np.float32
    full = bool(cfg["use_full_observation"])
    size = 4 * num_agents + 1 if full else 6
    x = np.ascontiguousarray(states[:, 1 : 1 + num_agents], dtype=np.int32)
    y = np.ascontiguousarray(states[:, 1 + num_agents :], dtype=np.int32)
    t = np.ascontiguousarray(states[:, 0], dtype=np.int32)
    obs = np.zeros((num_envs, num_agents, size), np.float32)
    rew = np.zeros((num_envs, num_agents), np.float32)
    done = np.zeros(num_envs, np.int32)
    length, episode = np.int32(cfg["grid_length"]), np.int32(cfg["episode_length"])

    @cuda.jit
    def observe(x, y, obs, t):  # WarpDrive's observation at the episode's start
        wd.NumbaTagGridWorldGenerateObservation(
            x, y, obs, length, t, episode, cuda.threadIdx.x, cuda.blockIdx.x, full
        )

    observe[num_envs, num_agents](x, y, obs, t)
    out = {"reset_obs": obs.copy()}
    rows: dict[str, list[np.ndarray]] = {"obs": [], "reward": [], "done": [], "state": []}
    for k in range(steps):
        act = np.ascontiguousarray(actions[:, k, :, None], dtype=np.int32)
        wd.NumbaTagGridWorldStep[num_envs, num_agents](
            x,
            y,
            act,
            done,
            rew,
            obs,
            f32(cfg["wall_hit_penalty"]),
            f32(cfg["tag_reward_for_tagger"]),
            f32(cfg["tag_penalty_for_runner"]),
            f32(cfg["step_cost_for_tagger"]),
            full,
            length,
            t,
            episode,
        )
        rows["obs"].append(obs.copy())
        rows["reward"].append(rew.copy())
        rows["done"].append(done.copy())
        rows["state"].append(np.concatenate([t[:, None], x, y], axis=1).astype(np.float64))
    out.update({key: np.stack(v, axis=1) for key, v in rows.items()})
    out.update(run_grid_numpy(cfg, states, actions))
    return out


def run_grid_numpy(cfg: dict, states: np.ndarray, actions: np.ndarray) -> dict[str, np.ndarray]:
    """The second reference: WarpDrive's numpy class TagGridWorld, env by env,
    from the same start (float64 observations and rewards)."""
    if "gym" not in sys.modules:  # its action spaces only: gymnasium's stand in for gym's
        try:
            import gym  # noqa: F401
        except ImportError:
            import gymnasium

            shim = types.ModuleType("gym")
            shim.spaces = gymnasium.spaces  # type: ignore[attr-defined]
            sys.modules["gym"] = shim
    from example_envs.tag_gridworld.tag_gridworld import TagGridWorld

    num_envs, steps, n = actions.shape
    keys = ("num_taggers", "grid_length", "episode_length", "wall_hit_penalty",
            "tag_reward_for_tagger", "tag_penalty_for_runner", "step_cost_for_tagger",
            "use_full_observation")  # fmt: skip
    obs_rows, rew_rows, done_rows = [], [], []
    for e in range(num_envs):
        env = TagGridWorld(
            **{k: cfg[k] for k in keys},
            starting_location_x=states[e, 1 : 1 + n].astype(np.int32),
            starting_location_y=states[e, 1 + n :].astype(np.int32),
        )
        first = env.reset()
        obs, rew, done = [np.stack([first[a] for a in range(n)])], [], []
        for k in range(steps):
            if done and done[-1]:  # past this env's episode: padding
                obs.append(np.full_like(obs[0], np.nan))
                rew.append(np.full(n, np.nan))
                done.append(True)
                continue
            o, r, d, _ = env.step({a: int(actions[e, k, a]) for a in range(n)})
            obs.append(np.stack([o[a] for a in range(n)]))
            rew.append(np.array([r[a] for a in range(n)]))
            done.append(bool(d["__all__"]))
        obs_rows.append(np.stack(obs))
        rew_rows.append(np.stack(rew))
        done_rows.append(np.array(done))
    return {"np_obs": np.stack(obs_rows), "np_reward": np.stack(rew_rows),
            "np_done": np.stack(done_rows)}  # fmt: skip


def run_continuous(cfg: dict, states: np.ndarray, actions: np.ndarray) -> dict[str, np.ndarray]:
    num_envs, steps, n = actions.shape[:3]
    from example_envs.tag_continuous import tag_continuous_step_numba as wd

    f32, i32 = np.float32, np.int32
    taggers = int(cfg["num_taggers"])
    types_ = np.array([1] * taggers + [0] * (n - taggers), np.int32)  # 1: tagger
    full = bool(cfg["use_full_observation"])
    k_obs = int(cfg["num_other_agents_observed"])
    size = 7 * (n - 1) + 1 if full else 7 * k_obs + 1

    def levels(lo: float, hi: float, num: int) -> np.ndarray:  # TagContinuous.__init__'s tables
        return np.insert(np.linspace(f32(lo), f32(hi), num), 0, 0).astype(np.float32)

    acc = levels(cfg["min_acceleration"], cfg["max_acceleration"], cfg["num_acceleration_levels"])
    turn = levels(cfg["min_turn"], cfg["max_turn"], cfg["num_turn_levels"])
    skill = np.where(types_ == 1, f32(cfg["skill_level_tagger"]), f32(cfg["skill_level_runner"]))
    step_rewards = (
        types_ * f32(cfg["step_penalty_for_tagger"])
        + (1 - types_) * f32(cfg["step_reward_for_runner"])
    ).astype(np.float32)
    grid = f32(cfg["grid_length"])
    margin = f32((cfg["tagging_distance"] * grid).astype(np.float32))
    blocks = [np.ascontiguousarray(states[:, 1 + j * n : 1 + (j + 1) * n]) for j in range(6)]
    x, y, speed, direction, accel = (b.astype(np.float32) for b in blocks[:5])
    still = blocks[5].astype(np.int32)
    t = np.ascontiguousarray(states[:, 0], dtype=np.int32)
    runners = (still[:, taggers:] != 0).sum(axis=1).astype(np.int32)
    obs = np.zeros((num_envs, n, size), np.float32)
    rew = np.zeros((num_envs, n), np.float32)
    done = np.zeros(num_envs, np.int32)
    edge = np.zeros((num_envs, n), np.float32)
    nd = np.zeros((num_envs, n, n - 1), np.float32)
    nids = np.zeros((num_envs, n, n - 1), np.int32)
    near = np.zeros((num_envs, n, max(k_obs, 1)), np.int32)
    max_speed, episode = f32(cfg["max_speed"]), i32(cfg["episode_length"])

    @cuda.jit
    def observe(x, y, speed, direction, accel, still, obs, nd, nids, near, t):
        wd.CudaTagContinuousGenerateObservation(
            x, y, speed, direction, accel, types_, grid, max_speed, i32(k_obs), still, full,
            obs, nd, nids, near, t, i32(n), episode, cuda.blockIdx.x, cuda.threadIdx.x,
        )  # fmt: skip

    observe[num_envs, n](x, y, speed, direction, accel, still, obs, nd, nids, near, t)
    out = {"reset_obs": obs.copy()}
    rows: dict[str, list[np.ndarray]] = {"obs": [], "reward": [], "done": [], "state": []}
    for k in range(steps):
        act = np.ascontiguousarray(actions[:, k], dtype=np.int32)
        wd.NumbaTagContinuousStep[num_envs, n](
            x, y, speed, direction, accel, types_, edge, f32(cfg["edge_hit_penalty"]), grid,
            acc, turn, max_speed, i32(k_obs), skill, bool(cfg["runner_exits_game_after_tagged"]),
            still, full, obs, act, nd, nids, near, rew, step_rewards, runners, margin,
            f32(cfg["tag_reward_for_tagger"]), f32(cfg["tag_penalty_for_runner"]),
            f32(cfg["end_of_game_reward_for_runner"]), done, t, i32(n), episode,
        )  # fmt: skip
        rows["obs"].append(obs.copy())
        rows["reward"].append(rew.copy())
        rows["done"].append(done.copy())
        state = [t[:, None], x, y, speed, direction, accel, still]
        rows["state"].append(np.concatenate(state, axis=1).astype(np.float64))
    out.update({key: np.stack(v, axis=1) for key, v in rows.items()})
    return out


def main() -> None:
    src = np.load(sys.argv[1])
    cfg = json.loads(str(src["config"]))
    run = run_grid if str(src["task"]) == "grid" else run_continuous
    np.savez(sys.argv[2], **run(cfg, src["states"], src["actions"]))


if __name__ == "__main__":
    main()
