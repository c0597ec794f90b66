"""MuJoCo tasks on MuJoCo Warp (device="cuda"), tested through device="cpu-reference":
the same warp kernels on warp's CPU device.

Parity: from identical states (qpos, qvel) one step agrees with gymnasium 1.4's
own env (the CPU engine's oracle, tests/families/test_mujoco_parity.py) within float32
tolerances; over many episodes of a fixed deterministic policy, episode
lengths and returns agree with our CPU engine statistically. Tolerances and
why: docs/mujoco_gpu.md.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("mujoco_warp", reason="the mujoco-gpu extra (mujoco-warp) is not installed")
gymnasium = pytest.importorskip("gymnasium")
mujoco = pytest.importorskip("mujoco")

import envpool_x  # noqa: E402

DEV = "cpu-reference"
# The first pool of a model compiles MuJoCo Warp's kernels for warp's CPU device
# (80 s for Ant with an empty warp cache on the 2-core VM); later ones load them.
pytestmark = pytest.mark.timeout(900)
# One step from the same state, MuJoCo (float64) against MuJoCo Warp (float32).
TOL = {
    "HalfCheetah-v5": (1e-4, 1e-4),
    "Hopper-v5": (1e-4, 1e-4),
    "Walker2d-v5": (1e-4, 1e-4),
    "Ant-v5": (1e-4, 1e-4),
    "Humanoid-v5": (1e-4, 1e-4),
    "Ant-v4": (1e-4, 1e-4),
    "HalfCheetah-v4": (1e-4, 1e-4),
    "Hopper-v4": (1e-4, 1e-4),
    "Walker2d-v4": (1e-4, 1e-4),
    "Humanoid-v4": (1e-4, 1e-4),
}
# Task keyword options of a case "task:option" (set to True).
CASES = sorted(TOL) + ["Ant-v4:use_contact_forces"]
# Contact forces (cfrc_ext: Humanoid's last 78 observation entries, up to
# about 800) come from the constraint solver, which stops at a tolerance:
# MuJoCo Warp raises MuJoCo's 1e-8 to 1e-6 for float32, and MuJoCo itself at
# 1e-6 moves them by up to 6e-4 of their size. Measured 2026-11-26 over 24
# Humanoid states: at most 2.0e-3 of their size (everything else 1.7e-5),
# the same against MuJoCo's PGS (what humanoid.xml asks for) and Newton
# (what MuJoCo Warp runs instead): the solver choice is not what differs.
CFRC_RTOL = 5e-3
CFRC_SIZE = {"Humanoid-v5": 78, "Humanoid-v4": 84}
# Random steps before the compared one: a state with contacts (1 for
# HalfCheetah and Ant, 2 for the others). Measured differences (2026-11-25):
# at most 1.1e-5 in the observation, 2.1e-3 for Humanoid (PGS against Newton).
# Other Ant contact states (a steep leg sliding on the floor) differ by up to
# about 0.6 in qvel: MuJoCo Warp turns that contact's friction pyramid
# (test_mujoco_warp_contacts.py proves that this is the whole difference).
WARMUP = {"HalfCheetah-v5": 3, "Hopper-v5": 20, "Walker2d-v5": 20, "Ant-v5": 150, "Humanoid-v5": 40}
WARMUP.update({f"{t[:-1]}4": n for t, n in WARMUP.items()})


def _policy(t: int, n: int, nu: int) -> np.ndarray:
    """A fixed deterministic policy: a phase-shifted sine per actuator."""
    j = np.arange(nu)
    return np.tile(0.6 * np.sin(0.3 * t + j), (n, 1)).astype(np.float32)


@pytest.mark.parametrize("case", CASES)
def test_one_step_matches_gymnasium(case):
    task, *options = case.split(":")
    kw = {name: True for name in options}
    rtol, atol = TOL[task]
    ref = gymnasium.make(task, **kw).unwrapped
    ref.reset(seed=1)
    rng = np.random.default_rng(0)
    for _ in range(WARMUP[task]):
        ref.step(rng.uniform(-0.3, 0.3, ref.action_space.shape))
    env = envpool_x.make_gymnasium(task, num_envs=2, device=DEV, seed=0, **kw)
    env.reset()
    qpos, qvel = ref.data.qpos.copy(), ref.data.qvel.copy()
    ref.data.qacc_warmstart[:] = 0  # as a freshly reset world of the pool
    ref.set_state(qpos, qvel)
    env._pool.set_state(1, np.concatenate([qpos, qvel]))
    action = rng.uniform(-0.5, 0.5, (2, ref.action_space.shape[0])).astype(np.float32)
    obs_ref, rew_ref, term_ref, _, info_ref = ref.step(action[1].astype(np.float64))
    obs, rew, term, trunc, info = env.step(action, np.arange(2))
    k = obs.shape[1] - CFRC_SIZE.get(task, 0)
    np.testing.assert_allclose(obs[1][:k], obs_ref[:k], rtol=rtol, atol=atol)
    np.testing.assert_allclose(obs[1][k:], obs_ref[k:], rtol=CFRC_RTOL, atol=atol)
    # Humanoid's contact cost is 5e-7 * sum(cfrc_ext^2): CFRC_RTOL of it.
    reward_atol = atol * 10 + 2 * CFRC_RTOL * abs(info.get("reward_contact", [0, 0])[1])
    np.testing.assert_allclose(rew[1], rew_ref, rtol=rtol, atol=reward_atol)
    # gymnasium's scalar info (reward terms, positions, velocities) too.
    scalars = [k for k, v in info_ref.items() if np.ndim(v) == 0]
    assert scalars and set(scalars) <= set(info)
    for key in scalars:
        np.testing.assert_allclose(info[key][1], info_ref[key], rtol=rtol, atol=reward_atol)
    assert bool(term[1]) == bool(term_ref)
    state = env._pool.get_state(1)
    np.testing.assert_allclose(
        state, np.concatenate([ref.data.qpos, ref.data.qvel]), rtol=rtol, atol=atol
    )
    assert obs.dtype == np.float64 and obs.shape == (2, *env.single_observation_space.shape)
    assert not trunc.any() and info["elapsed_step"].tolist() == [1, 1]
    env.close()


def test_humanoid_pgs_and_newton_agree_in_mujoco():
    # humanoid.xml asks for PGS, which MuJoCo Warp lacks: the pool runs Newton.
    # In MuJoCo itself both solvers give the same env step (8 states along a
    # random walk, 5 substeps each) within the tolerances above, so the switch
    # is not what the GPU path's differences come from (measured 2026-11-26
    # over 24 states: 1.1e-5 in qpos/qvel, 3.8e-4 of cfrc_ext's size).
    ref = gymnasium.make("Humanoid-v5").unwrapped
    m = ref.model
    assert m.opt.solver == mujoco.mjtSolver.mjSOL_PGS
    ref.reset(seed=1)
    rng = np.random.default_rng(0)
    for t in range(32):
        ref.step(rng.uniform(-0.3, 0.3, ref.action_space.shape))
        if t % 4 != 3:
            continue
        action = rng.uniform(-0.4, 0.4, ref.action_space.shape)
        out = []
        for solver in (mujoco.mjtSolver.mjSOL_PGS, mujoco.mjtSolver.mjSOL_NEWTON):
            m.opt.solver = solver
            d = mujoco.MjData(m)
            d.qpos[:], d.qvel[:], d.ctrl[:] = ref.data.qpos, ref.data.qvel, action
            for _ in range(ref.frame_skip):
                mujoco.mj_step(m, d)
            mujoco.mj_rnePostConstraint(m, d)
            out.append((np.concatenate([d.qpos, d.qvel]), d.cfrc_ext[1:].ravel().copy()))
        m.opt.solver = mujoco.mjtSolver.mjSOL_PGS
        np.testing.assert_allclose(out[0][0], out[1][0], rtol=1e-4, atol=1e-4)
        np.testing.assert_allclose(out[0][1], out[1][1], rtol=CFRC_RTOL, atol=1e-4)


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
