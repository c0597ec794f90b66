"""MuJoCo tasks on MuJoCo Warp (device="cuda"), tested through device="cpu-reference":
the same warp kernels on warp's CPU device.

Parity: from identical states (qpos, qvel) one step agrees with gymnasium 1.4's
own env (the CPU engine's oracle, tests/test_mujoco.py) within float32
tolerances; over many episodes of a fixed deterministic policy, episode
lengths and returns agree with our CPU engine statistically. Tolerances and
why: docs/mujoco_gpu.md.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("mujoco_warp", reason="the mujoco-gpu extra (mujoco-warp) is not installed")
gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("mujoco")

import envpool_x  # noqa: E402

DEV = "cpu-reference"
# The first pool of a model compiles MuJoCo Warp's kernels for warp's CPU device
# (80 s for Ant with an empty warp cache on the 2-core VM); later ones load them.
pytestmark = pytest.mark.timeout(900)
# One step from the same state, MuJoCo (float64) against MuJoCo Warp (float32).
# Humanoid's XML asks for PGS, which MuJoCo Warp replaces by Newton (same
# convex problem, solved to tolerance): its contact forces differ more.
TOL = {
    "HalfCheetah-v5": (1e-4, 1e-4),
    "Hopper-v5": (1e-4, 1e-4),
    "Walker2d-v5": (1e-4, 1e-4),
    "Ant-v5": (1e-4, 1e-4),
    "Humanoid-v5": (1e-2, 1e-2),
    "HalfCheetah-v4": (1e-4, 1e-4),
    "Hopper-v4": (1e-4, 1e-4),
    "Walker2d-v4": (1e-4, 1e-4),
}
# Random steps before the compared one: a state with contacts (1 for
# HalfCheetah and Ant, 2 for the others). Measured differences (2026-11-25):
# at most 1.1e-5 in the observation, 2.1e-3 for Humanoid (PGS against Newton).
# Other Ant contact states (a steep leg sliding on the floor) differ by up to
# about 0.6 in qvel: MuJoCo Warp turns that contact's friction pyramid
# (tests/test_mujoco_gpu_contacts.py proves that this is the whole difference).
WARMUP = {"HalfCheetah-v5": 3, "Hopper-v5": 20, "Walker2d-v5": 20, "Ant-v5": 150, "Humanoid-v5": 40}
WARMUP.update({"HalfCheetah-v4": 3, "Hopper-v4": 20, "Walker2d-v4": 20})


def _policy(t: int, n: int, nu: int) -> np.ndarray:
    """A fixed deterministic policy: a phase-shifted sine per actuator."""
    j = np.arange(nu)
    return np.tile(0.6 * np.sin(0.3 * t + j), (n, 1)).astype(np.float32)


@pytest.mark.parametrize("task", sorted(TOL))
def test_one_step_matches_gymnasium(task):
    rtol, atol = TOL[task]
    ref = gymnasium.make(task).unwrapped
    ref.reset(seed=1)
    rng = np.random.default_rng(0)
    for _ in range(WARMUP[task]):
        ref.step(rng.uniform(-0.3, 0.3, ref.action_space.shape))
    env = envpool_x.make_gymnasium(task, num_envs=2, device=DEV, seed=0)
    env.reset()
    qpos, qvel = ref.data.qpos.copy(), ref.data.qvel.copy()
    ref.data.qacc_warmstart[:] = 0  # as a freshly reset world of the pool
    ref.set_state(qpos, qvel)
    env._pool.set_state(1, np.concatenate([qpos, qvel]))
    action = rng.uniform(-0.5, 0.5, (2, ref.action_space.shape[0])).astype(np.float32)
    obs_ref, rew_ref, term_ref, _, _ = ref.step(action[1].astype(np.float64))
    obs, rew, term, trunc, info = env.step(action, np.arange(2))
    np.testing.assert_allclose(obs[1], obs_ref, rtol=rtol, atol=atol)
    np.testing.assert_allclose(rew[1], rew_ref, rtol=rtol, atol=atol * 10)
    assert bool(term[1]) == bool(term_ref)
    state = env._pool.get_state(1)
    np.testing.assert_allclose(
        state, np.concatenate([ref.data.qpos, ref.data.qvel]), rtol=rtol, atol=atol
    )
    assert obs.dtype == np.float64 and obs.shape == (2, *env.single_observation_space.shape)
    assert not trunc.any() and info["elapsed_step"].tolist() == [1, 1]
    env.close()


def _episodes(env, steps: int, n: int, nu: int) -> tuple[list[int], list[float]]:
    """Lengths and returns of the episodes that end within ``steps`` steps
    (same_step mode: elapsed_step is already 0 in an ending row, so count here)."""
    env.reset(seed=7)
    lengths, returns = [], []
    ret, length = np.zeros(n), np.zeros(n, dtype=int)
    for t in range(steps):
        _, rew, term, trunc, _ = env.step(_policy(t, n, nu))
        ret += np.asarray(rew)
        length += 1
        for i in np.flatnonzero(np.asarray(term) | np.asarray(trunc)):
            lengths.append(int(length[i]))
            returns.append(float(ret[i]))
            ret[i], length[i] = 0.0, 0
    return lengths, returns


def test_episodes_agree_statistically_with_cpu_engine():
    # Hopper under a fixed open-loop policy falls within tens of steps; the
    # reset noise makes each episode different. Means agree within 4 standard
    # errors (the engines draw different noise and are float32 vs float64).
    n, steps = 24, 50  # about 2 episodes per env
    kw = dict(num_envs=n, autoreset_mode="same_step")
    gpu = _episodes(envpool_x.make_gymnasium("Hopper-v5", device=DEV, **kw), steps, n, 3)
    cpu = _episodes(envpool_x.make_gymnasium("Hopper-v5", **kw), steps, n, 3)
    for a, b in zip(gpu, cpu, strict=True):
        a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
        assert a.size >= n and b.size >= n
        se = np.hypot(a.std() / np.sqrt(a.size), b.std() / np.sqrt(b.size))
        assert abs(a.mean() - b.mean()) <= 4 * se + 0.02 * abs(b.mean()), (a.mean(), b.mean())


def _ant_run(device: str, n: int, steps: int) -> dict[str, np.ndarray]:
    """Ant-v5 under the fixed policy: per step and env, the reward, its contact
    term and whether the episode terminated (next_step mode: ended envs reset)."""
    env = envpool_x.make_gymnasium("Ant-v5", num_envs=n, device=device)
    env.reset(seed=3)
    out: dict[str, list[np.ndarray]] = {"reward": [], "contact": [], "terminated": []}
    for t in range(steps):
        _, rew, term, _, info = env.step(_policy(t, n, 8))
        out["reward"].append(np.asarray(rew, dtype=float))
        out["contact"].append(np.asarray(info["reward_contact"], dtype=float))
        out["terminated"].append(np.asarray(term, dtype=float))
    env.close()
    return {k: np.asarray(v) for k, v in out.items()}  # (steps, n) each


def _agree(a: np.ndarray, b: np.ndarray, what: str) -> None:
    """Means of per-env samples within 4 standard errors of their difference."""
    se = np.hypot(a.std() / np.sqrt(a.size), b.std() / np.sqrt(b.size))
    assert abs(a.mean() - b.mean()) <= 4 * se + 1e-9, (what, a.mean(), b.mean(), se)


def test_ant_rewards_agree_statistically_with_cpu_engine():
    # Ant under a fixed open-loop policy: its legs touch the floor at every
    # step after the first few, so this covers the contact solver, and some
    # envs terminate (their torso leaves the healthy z range). 48 envs x 60
    # steps on each engine (different reset noise, so not paired): the mean
    # reward per step, its contact term (the part the contact solver sets),
    # and the same per block of 20 steps (the gait's phases) agree within 4
    # standard errors; termination counts within 4 Poisson standard errors.
    # Measured 2026-11-25: reward 0.182 vs 0.198 (SE 0.046), contact cost
    # 1.08e-3 vs 1.10e-3 (SE 3.5e-5), 12 vs 21 terminations.
    n, steps = 48, 60
    a, b = _ant_run(DEV, n, steps), _ant_run("cpu", n, steps)
    for key in ("reward", "contact"):
        _agree(a[key].mean(0), b[key].mean(0), key)  # per env
        for k in range(0, steps, 20):
            _agree(a[key][k : k + 20].mean(0), b[key][k : k + 20].mean(0), f"{key} from {k}")
    ta, tb = a["terminated"].sum(), b["terminated"].sum()
    assert abs(ta - tb) <= 4 * np.sqrt(ta + tb) + 2, (ta, tb)
