"""Ant with several legs on the floor: where MuJoCo Warp and MuJoCo (C) differ, and why.

MuJoCo Warp's plane-capsule collision (as MJX's) takes the contact frame's
first tangent along the capsule axis projected on the plane only when that
projection is at least 0.5 long; for a steeper capsule it takes a fixed
tangent, where MuJoCo (C) always takes the projected axis. Contact points,
depths and normals are the same; only the tangent frame turns. Ant's model uses
MuJoCo's default pyramidal friction cone, whose four edges follow the tangent
frame, so the two engines solve differently oriented friction pyramids and a
step with a steep leg on the floor differs (by up to about 0.6 in qvel over an
env step of 5 RK4 substeps). These tests prove that this is the whole
difference: MuJoCo's own solver, given MuJoCo Warp's contact frames, finds
MuJoCo Warp's accelerations; and with the elliptic cone (round, so the
tangent frame does not matter) a full env step agrees within float32
tolerance. docs/mujoco_gpu.md has the numbers.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

pytest.importorskip("mujoco_warp", reason="the mujoco-gpu extra (mujoco-warp) is not installed")
gymnasium = pytest.importorskip("gymnasium")
mujoco = pytest.importorskip("mujoco")

import envpool_x  # noqa: E402

DEV = "cpu-reference"
pytestmark = pytest.mark.timeout(900)


def _steep_two_leg_state(ref) -> tuple[np.ndarray, np.ndarray]:
    """Step gymnasium's Ant under random actions until at least two legs touch
    the floor, one of them a capsule steeper than MuJoCo Warp's 0.5 threshold,
    and turning that contact's tangent frame as MuJoCo Warp does (first tangent
    +y, the fallback for a floor normal +z) changes MuJoCo's accelerations by
    more than 5% (when every pyramid edge pushes, a turned pyramid spans the
    same forces and nothing changes); its qpos, qvel."""
    ref.reset(seed=1)
    rng = np.random.default_rng(0)
    m = ref.model
    for _ in range(400):
        ref.step(rng.uniform(-0.3, 0.3, ref.action_space.shape))
        # The contacts of this state (ref.data's are those of the last substep's start).
        d = _ref_data(m, ref.data.qpos, ref.data.qvel)
        legs = {int(c.geom[1]) for c in d.contact[: d.ncon]} - {0}
        frames = d.contact.frame[: d.ncon].copy()
        for i, c in enumerate(d.contact[: d.ncon]):
            g = int(c.geom[1])
            axis = d.geom_xmat[g].reshape(3, 3)[:, 2]
            if m.geom_type[g] == mujoco.mjtGeom.mjGEOM_CAPSULE and np.hypot(*axis[:2]) < 0.5:
                frames[i, 3:] = [0, 1, 0, -1, 0, 0]
        if len(legs) < 2 or np.array_equal(frames, d.contact.frame[: d.ncon]):
            continue
        turned = _qacc_on_frames(m, d, frames)
        if np.abs(turned - d.qacc).max() > 0.05 * np.abs(d.qacc).max():
            return d.qpos.copy(), d.qvel.copy()
    raise AssertionError("no state with two legs on the floor where the frame matters")


def _ref_data(model, qpos: np.ndarray, qvel: np.ndarray):
    """A fresh MjData at (qpos, qvel), ctrl 0 and no warm start (as a world of
    the pool after reset and set_state), after mj_forward."""
    d = mujoco.MjData(model)
    d.qpos[:], d.qvel[:] = qpos, qvel
    mujoco.mj_forward(model, d)
    return d


def _qacc_on_frames(model, d, frames: np.ndarray) -> np.ndarray:
    """MuJoCo's qacc of ``d``'s state (after mj_forward) with its contacts'
    frames replaced by ``frames``: the constraints are rebuilt and solved again."""
    d2 = mujoco.MjData(model)
    mujoco.mj_copyData(d2, model, d)
    d2.contact.frame[:] = frames
    mujoco.mj_makeConstraint(model, d2)
    mujoco.mj_island(model, d2)
    mujoco.mj_forwardSkip(model, d2, mujoco.mjtStage.mjSTAGE_POS, 0)
    return d2.qacc.copy()


def _warp_contacts(pool, world: int) -> dict[str, np.ndarray]:
    """The contacts of one world of the pool's MuJoCo Warp data (host copies)."""
    c = pool.physics.data.contact
    n = int(pool.physics.data.nacon.numpy()[0])
    mine = np.flatnonzero(c.worldid.numpy()[:n] == world)
    return {
        k: getattr(c, k).numpy()[:n][mine]
        for k in ("geom", "pos", "dist", "frame", "includemargin")
    }


def test_only_the_contact_frame_differs():
    ref = gymnasium.make("Ant-v5").unwrapped
    qpos, qvel = _steep_two_leg_state(ref)
    env = envpool_x.make_gymnasium("Ant-v5", num_envs=2, device=DEV)
    env.reset()
    env._pool.set_state(1, np.concatenate([qpos, qvel]))  # runs MuJoCo Warp's forward
    w = _warp_contacts(env._pool, 1)
    d = _ref_data(ref.model, qpos, qvel)
    # Same contacts: count, geoms, points, depths, margins and normals.
    assert d.ncon == len(w["dist"]) >= 2
    # MuJoCo Warp's contact of each of MuJoCo's: same leg, nearest point.
    other_leg = 9.0 * (w["geom"][:, 1][None, :] != d.contact.geom[:, 1][:, None])
    gaps = np.linalg.norm(w["pos"][None] - d.contact.pos[:, None], axis=2) + other_leg
    order = [int(j) for j in gaps.argmin(axis=1)]
    assert sorted(order) == list(range(d.ncon))
    for i, j in enumerate(order):
        c = d.contact[i]
        assert tuple(w["geom"][j]) == tuple(c.geom)
        np.testing.assert_allclose(w["pos"][j], c.pos, atol=1e-5)
        np.testing.assert_allclose(w["dist"][j], c.dist, atol=1e-5)
        np.testing.assert_allclose(w["includemargin"][j], c.includemargin, atol=1e-6)
        np.testing.assert_allclose(w["frame"][j][0], c.frame[:3], atol=1e-5)  # normal
    # ... but not the same tangent frames, nor the same accelerations.
    frames = np.stack([w["frame"][j].reshape(9) for j in order]).astype(np.float64)
    tangent_gap = np.abs(frames[:, 3:6] - d.contact.frame[:, 3:6]).max()
    assert tangent_gap > 0.1
    qacc_warp = env._pool.physics.data.qacc.numpy()[1].astype(np.float64)
    scale = np.abs(d.qacc).max()
    assert np.abs(qacc_warp - d.qacc).max() > 0.05 * scale
    # MuJoCo's own constraint solver on MuJoCo Warp's frames: MuJoCo Warp's
    # accelerations, within the float32 solver's precision (MuJoCo Warp stops
    # at tolerance 1e-6, MuJoCo at 1e-8). Measured 2026-11-26: 1.0e-4 against
    # MuJoCo's own frames' 2.4, for a largest |qacc| of 16.
    on_warp_frames = _qacc_on_frames(ref.model, d, frames)
    np.testing.assert_allclose(qacc_warp, on_warp_frames, rtol=0, atol=1e-3 * scale)
    env.close()


def test_env_step_agrees_with_an_elliptic_cone(tmp_path):
    # The same state and one env step (5 RK4 substeps, new contacts included)
    # on a copy of ant.xml with the elliptic cone, in gymnasium and in the
    # pool: the friction cone is round, so the tangent frame does not matter
    # and the two-leg step agrees as the other tasks' steps do (measured
    # 7.4e-6 here, 0.037 with the pyramidal cone; at most 2.7e-5 in qvel over
    # 200 Ant states with 0 to 3 contacts, where the pyramidal cone gave up to 0.58).
    ref0 = gymnasium.make("Ant-v5").unwrapped
    qpos, qvel = _steep_two_leg_state(ref0)
    with open(ref0.fullpath) as f:
        xml = f.read()
    assert 'integrator="RK4"' in xml
    path = os.path.join(tmp_path, "ant_elliptic.xml")
    with open(path, "w") as f:
        f.write(xml.replace('integrator="RK4"', 'integrator="RK4" cone="elliptic"', 1))
    ref = gymnasium.make("Ant-v5", xml_file=path).unwrapped
    assert ref.model.opt.cone == mujoco.mjtCone.mjCONE_ELLIPTIC
    ref.reset(seed=0)
    env = envpool_x.make_gymnasium("Ant-v5", num_envs=2, device=DEV, xml_file=path)
    env.reset()
    ref.data.qacc_warmstart[:] = 0
    ref.data.ctrl[:] = 0
    ref.set_state(qpos, qvel)
    env._pool.set_state(1, np.concatenate([qpos, qvel]))
    action = np.random.default_rng(1).uniform(-0.5, 0.5, (2, 8)).astype(np.float32)
    obs_ref, rew_ref, term_ref, _, _ = ref.step(action[1].astype(np.float64))
    obs, rew, term, _, _ = env.step(action)
    state = env._pool.get_state(1)
    np.testing.assert_allclose(state, np.concatenate([ref.data.qpos, ref.data.qvel]), atol=1e-4)
    np.testing.assert_allclose(obs[1], obs_ref, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(rew[1], rew_ref, atol=1e-3)
    assert bool(term[1]) == bool(term_ref)
    env.close()
