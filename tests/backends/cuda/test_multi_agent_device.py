"""TagGridworld-v0 and TagContinuous-v0 on the GPU path's team body, run on the
CPU (device="cpu-reference"), against the thread-pool engine: same seed, same
actions -> bit-identical observations, rewards (one per agent), done flags and
the `active` mask, step by step over whole episodes, full and partial
observation, every autoreset mode, subset steps, seeded and partial resets and
reset_mask. Also bad actions from a device tensor (recorded, naming env and
agent), make_dm, copy_results, the memory estimate of the slab, and an env
with more agents than one GPU block has threads.

tests/backends/cuda/test_cuda.py runs the same comparison on a GPU when one is there.
"""

from __future__ import annotations

import numpy as np
import pytest
from cpu_reference_helpers import assert_same

import envpool_x
from envpool_x import _core

MODES = ["next_step", "same_step", "disabled"]

#: (task, config): small grids (tags happen within an episode) and a small
#: continuous square where runners are tagged and leave, both observations.
CASES = [
    ("TagGridworld-v0", {"num_taggers": 3, "grid_length": 4, "episode_length": 12}),
    (
        "TagGridworld-v0",
        {"num_taggers": 2, "grid_length": 5, "episode_length": 9, "use_full_observation": False},
    ),
    (
        "TagContinuous-v0",
        {
            "num_taggers": 2,
            "num_runners": 4,
            "grid_length": 2.0,
            "episode_length": 14,
            "tagging_distance": 0.25,
            "num_other_agents_observed": 3,
        },
    ),
    (
        "TagContinuous-v0",
        {
            "num_taggers": 3,
            "num_runners": 3,
            "grid_length": 2.0,
            "episode_length": 11,
            "tagging_distance": 0.3,
            "num_other_agents_observed": 5,
            "use_full_observation": True,
            "runner_exits_game_after_tagged": False,
            "step_penalty_for_tagger": -0.1,
            "edge_hit_penalty": -0.05,
        },
    ),
]


def actions(env, n: int, rng: np.random.Generator) -> np.ndarray:
    """Random actions of n envs, (n, agents) or (n, agents, 2)."""
    space = env.single_action_space
    return rng.integers(0, space.nvec, size=(n, *space.shape))


def episodes_ended(result) -> np.ndarray:
    return np.asarray(result[2]) | np.asarray(result[3])


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("case", range(len(CASES)))
def test_reference_matches_thread_pool(case: int, mode: str) -> None:
    task, cfg = CASES[case]
    n = 5
    kw = {"num_envs": n, "seed": 3, "autoreset_mode": mode, **cfg}
    cpu = envpool_x.make_gymnasium(task, num_threads=2, **kw)
    ref = envpool_x.make_gymnasium(task, device="cpu-reference", **kw)
    rng = np.random.default_rng(case)
    assert_same(cpu.reset(), ref.reset())
    ended: set[int] = set()
    ends = 0
    for t in range(45):  # several whole episodes of every env
        if t == 20:  # re-seed everything
            assert_same(cpu.reset(seed=11), ref.reset(seed=11), "reset(seed=11)")
            ended.clear()
            continue
        if t == 30:  # a partial reset with per-env seeds
            ids = np.array([3, 1])
            assert_same(cpu.reset(env_id=ids, seed=[5, 6]), ref.reset(env_id=ids, seed=[5, 6]))
            ended -= {1, 3}
            continue
        if mode == "disabled" and ended:
            ids = np.array(sorted(ended))
            assert_same(cpu.reset(env_id=ids), ref.reset(env_id=ids), f"reset at {t}")
            ended.clear()
        ids = rng.permutation(n)[: n - 2] if t % 4 == 1 else np.arange(n)
        env_id = ids if t % 4 == 1 else None
        act = actions(cpu, ids.size, rng)
        a, b = cpu.step(act, env_id=env_id), ref.step(act, env_id=env_id)
        assert_same(a, b, f"step {t}")
        ended |= set(ids[episodes_ended(a)].tolist())
        ends += int(episodes_ended(a).sum())
    assert ends >= n  # whole episodes were compared
    cpu.close()
    ref.close()


@pytest.mark.parametrize("threads", [1, 3])
def test_same_trajectories_for_any_thread_count(threads: int) -> None:
    task, cfg = CASES[2]
    kw = {"num_envs": 4, "seed": 8, "autoreset_mode": "same_step", **cfg}
    cpu = envpool_x.make_gymnasium(task, num_threads=threads, **kw)
    ref = envpool_x.make_gymnasium(task, device="cpu-reference", **kw)
    assert_same(cpu.reset(), ref.reset())
    rng = np.random.default_rng(threads)
    for t in range(30):
        act = actions(cpu, 4, rng)
        assert_same(cpu.step(act), ref.step(act), f"step {t}")


def test_tags_happen_and_runners_leave() -> None:
    """The comparison above is not vacuous: runners are tagged, leave the game
    (active False; zero rows from the next step on) and episodes terminate when
    none is left."""
    task, cfg = CASES[2]
    env = envpool_x.make_gymnasium(task, num_envs=6, seed=0, device="cpu-reference", **cfg)
    _, info = env.reset()
    before = np.asarray(info["active"]).copy()
    rng = np.random.default_rng(0)
    left = terminated = 0
    for _ in range(40):
        obs, rew, term, trunc, info = env.step(actions(env, 6, rng))
        active = np.asarray(info["active"])
        left += int((before & ~active).sum())
        terminated += int(np.asarray(term).sum())
        gone = ~before & ~active
        gone[np.asarray(info["elapsed_step"]) == 0] = False  # rows of a reset
        assert (np.asarray(obs)[gone] == 0).all()
        assert (np.asarray(rew)[:, :2] >= 0).all()  # taggers: tag rewards only
        before = active.copy()
    assert left > 0 and terminated > 0


def test_reset_mask_and_views() -> None:
    task, cfg = CASES[0]
    kw = {"num_envs": 4, "seed": 2, "autoreset_mode": "disabled", **cfg}
    cpu = envpool_x.make_gymnasium(task, **kw)
    ref = envpool_x.make_gymnasium(task, device="cpu-reference", copy_results=False, **kw)
    assert_same(cpu.reset(), tuple(_copy(x) for x in ref.reset()))
    rng = np.random.default_rng(1)
    for t in range(3):
        act = actions(cpu, 4, rng)
        assert_same(cpu.step(act), tuple(_copy(x) for x in ref.step(act)), f"step {t}")
    mask = np.array([True, False, True, False])
    a = cpu.reset(options={"reset_mask": mask})
    b = ref.reset(options={"reset_mask": mask})
    assert_same(a, tuple(_copy(x) for x in b))
    assert (np.asarray(a[1]["elapsed_step"]) == 0).all()


def _copy(x):
    if isinstance(x, dict):
        return {k: _copy(v) for k, v in x.items()}
    return np.array(x)


def test_bad_device_actions_name_env_and_agent() -> None:
    task, cfg = CASES[2]
    env = envpool_x.make_gymnasium(task, num_envs=3, seed=0, device="cpu-reference", **cfg)
    env.reset()
    pool = env._pool._pool
    act = np.zeros((3, 6, 2), np.int64)
    act[1, 4, 1] = 21  # turn level out of [0, 21)
    raw = pool.step(act, None, 0, False)  # unchecked, as a device tensor is
    names = pool.field_names
    np.testing.assert_array_equal(np.from_dlpack(raw[names.index("truncated")]), [0, 1, 0])
    assert (np.from_dlpack(raw[names.index("reward")])[1] == 0).all()
    with pytest.raises(
        ValueError, match=r"env 1, agent 4 got an invalid action.*nvec = \[21, 21\]"
    ):
        env._pool.check_errors()
    env._pool.check_errors()  # cleared
    _, _, _, _, info = env.step(np.zeros((3, 6, 2), np.int64))
    np.testing.assert_array_equal(info["elapsed_step"], [2, 0, 2])  # env 1 reset
    # Host actions are checked at once by the shared validator.
    with pytest.raises(ValueError, match=r"env 2, agent 5 \(element 0\) is out of range"):
        bad = np.zeros((3, 6, 2), np.int64)
        bad[2, 5, 0] = -1
        env.step(bad)
    with pytest.raises(ValueError, match=r"need shape \(3, 6, 2\)"):
        env.step(np.zeros((3, 5, 2), np.int64))  # wrong agent axis
    with pytest.raises(TypeError, match="must be integers"):
        env.step(np.full((3, 6, 2), np.nan))
    grid = envpool_x.make_gymnasium("TagGridworld-v0", num_envs=2, device="cpu-reference")
    grid.reset()
    raw = grid._pool._pool.step(np.array([[0, 1, 2, 3, 4], [0, 5, 0, 0, 0]]), None, 0, False)
    with pytest.raises(ValueError, match=r"env 1, agent 1 got an invalid action.*\[0, 5\)"):
        grid._pool.check_errors()
    with pytest.raises(ValueError, match="not available on the GPU path"):
        grid._pool.get_state(0)
    env.close()
    grid.close()


def test_more_agents_than_a_block() -> None:
    """300 agents: a GPU block has 256 threads, so threads loop over agents;
    on the reference device the same phases run over all agents in order."""
    cfg = {"num_taggers": 20, "num_runners": 280, "episode_length": 6}
    kw = {"num_envs": 2, "seed": 5, "autoreset_mode": "same_step", **cfg}
    cpu = envpool_x.make_gymnasium("TagContinuous-v0", **kw)
    ref = envpool_x.make_gymnasium("TagContinuous-v0", device="cpu-reference", **kw)
    assert_same(cpu.reset(), ref.reset())
    rng = np.random.default_rng(2)
    for t in range(8):
        act = actions(cpu, 2, rng)
        assert_same(cpu.step(act), ref.step(act), f"step {t}")


@pytest.mark.parametrize("case", [0, 2])
def test_make_dm_on_the_reference_device(case: int) -> None:
    task, cfg = CASES[case]
    kw = {"num_envs": 3, "seed": 1, **cfg}
    cpu, ref = envpool_x.make_dm(task, **kw), envpool_x.make_dm(task, device="cpu-reference", **kw)
    space = envpool_x.make_spec(task, **kw).action_space  # one env's (agents, ...)
    a, b = cpu.reset(), ref.reset()
    rng = np.random.default_rng(case)
    for t in range(16):
        assert_same(tuple(a), tuple(b), f"timestep {t}")
        act = rng.integers(0, space.nvec, size=(3, *space.shape))
        a, b = cpu.step(act), ref.step(act)
    assert_same(tuple(a), tuple(b))


@pytest.mark.parametrize("case", range(len(CASES)))
def test_memory_estimate_counts_the_slab(case: int) -> None:
    task, cfg = CASES[case]
    # The estimate's slab, computed without a pool, is the one a pool allocates.
    spec = envpool_x.make_spec(task, num_envs=2, device="cpu-reference", **cfg)
    env = envpool_x.make_gymnasium(task, num_envs=2, device="cpu-reference", **cfg)
    sizes = _core.CudaPool.memory_sizes(spec.entry.pool_name, spec.env_config, num_envs=2)
    assert sizes["slab_per_env"] == env._pool._pool.slab_bytes > 0
    env.close()
