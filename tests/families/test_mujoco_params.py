"""Per-env parameters of gymnasium's MuJoCo tasks (docs/params.md): set_params
equals the config bit for bit, gymnasium's env with its model arrays scaled the
same way is the oracle, draws reproduce by seed, and the memory estimate counts
the model copy an env takes when its values differ."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from model_param_helpers import VALUES, assert_same, scale_model, trajectory
from mujoco_helpers import V5_TASKS, _assert_step_equal, _copy_state, _gym_make

import envpool_x
from conftest import ci_sample
from envpool_x import memory
from envpool_x.families import mujoco as mujoco_family
from envpool_x.params import Uniform

if not mujoco_family.has_mujoco():
    pytest.skip("envpool_x was built without MuJoCo", allow_module_level=True)
mujoco = pytest.importorskip("mujoco")

TASKS = ["HalfCheetah-v5", "Ant-v5", "Hopper-v5"]
# The oracle run: the sample in CI, every v5 task with ENVPOOL_X_SLOW=1.
ORACLE_TASKS = ci_sample(V5_TASKS, set(TASKS)) if V5_TASKS else []


@pytest.mark.parametrize("task", TASKS)
def test_set_params_equals_config(task: str) -> None:
    """Envs 0 and 1 set to VALUES step bit for bit as a pool made with them,
    over several episodes (autoreset); env 2, left at 1, as a default pool's:
    the scaled envs' model copies leave the shared model as it was."""
    kw = {"num_envs": 3, "seed": 3, "max_episode_steps": 40}
    made = envpool_x.make_gymnasium(task, **kw, **VALUES)
    default = envpool_x.make_gymnasium(task, **kw)
    changed = envpool_x.make_gymnasium(task, **kw)
    changed.set_params(env_ids=[0, 1], **VALUES)
    ours = trajectory(changed, 100)
    assert_same(ours, trajectory(made, 100), rows=slice(0, 2))
    theirs = trajectory(default, 100)
    assert_same(ours, theirs, rows=slice(2, 3))
    assert not np.array_equal(ours[-1][:2], theirs[-1][:2])  # the values act
    got = changed.get_params()
    for name, value in VALUES.items():
        np.testing.assert_array_equal(got[name], [value, value, 1.0])
    # Back to 1: the envs run on the shared model again, as a default pool's
    # (a reset with a seed: their streams moved on by other episode ends).
    changed.set_params(**dict.fromkeys(VALUES, 1.0))
    assert_same(trajectory(changed, 50, reset_seed=9), trajectory(default, 50, reset_seed=9))
    for env in (made, default, changed):
        env.close()


def async_trajectory(env: Any, steps: int, seed: int = 0) -> list[np.ndarray]:
    """`trajectory` through async_reset / send / recv (batch_size < num_envs):
    the rows of each round reassembled in env order."""
    rng = np.random.default_rng(seed)
    space = env.single_action_space
    n = env.num_envs
    rows: list[np.ndarray] = []
    env.async_reset()
    for step in range(steps + 1):
        if step:
            a = rng.uniform(space.low, space.high, (n, *space.shape)).astype(np.float32)
            env.send(a, np.arange(n))
        row = None
        for _ in range(n // env.batch_size):
            obs, rew, term, trunc, info = env.recv()
            part = (
                obs
                if not step
                else np.concatenate([obs, rew[:, None], term[:, None], trunc[:, None]], axis=1)
            )
            if row is None:
                row = np.zeros((n, part.shape[1]), part.dtype)
            row[info["env_id"]] = part
        rows.append(row)
    return rows


def test_async_set_params_equals_config() -> None:
    """The async path (send / recv in batches of 2 of 4 envs): set_params
    equals the config, and both equal the sync pool's rows."""
    kw = {"num_envs": 4, "seed": 1, "max_episode_steps": 30}
    made = envpool_x.make_gymnasium("Hopper-v5", batch_size=2, **kw, **VALUES)
    changed = envpool_x.make_gymnasium("Hopper-v5", batch_size=2, **kw)
    changed.set_params(**VALUES)
    sync = envpool_x.make_gymnasium("Hopper-v5", **kw, **VALUES)
    ours = async_trajectory(changed, 70)
    assert_same(ours, async_trajectory(made, 70))
    assert_same(ours, trajectory(sync, 70))
    for env in (made, changed, sync):
        env.close()


@pytest.mark.parametrize("task", ORACLE_TASKS)
def test_matches_gymnasium_with_the_model_scaled(task: str) -> None:
    """Our env made with VALUES against gymnasium's with its model arrays
    scaled the same way, from the same states: dt (timestep x frame_skip)
    follows the timestep in both, so the rewards' velocities agree too."""
    ours = envpool_x.make_gymnasium(task, num_envs=1, seed=0, **VALUES)
    theirs = _gym_make(task)
    scale_model(theirs.unwrapped.model, VALUES)
    rng = np.random.default_rng(1)
    space = theirs.action_space
    for episode in range(2):
        ours.reset()
        theirs.reset(seed=episode)
        _copy_state(ours, theirs)
        for t in range(150):
            a = rng.uniform(space.low, space.high).astype(np.float32)
            out = theirs.step(a)
            _assert_step_equal(task, t, ours.step(a[None]), out)
            if out[2] or out[3]:
                break
    ours.close()
    theirs.close()


def test_immediate_values_reach_the_next_step() -> None:
    """immediate=True mid-episode: the next step is gymnasium's after the same
    change of its model."""
    task = "HalfCheetah-v5"
    ours = envpool_x.make_gymnasium(task, num_envs=1, seed=0)
    theirs = _gym_make(task)
    ours.reset()
    theirs.reset(seed=0)
    _copy_state(ours, theirs)
    rng = np.random.default_rng(2)
    for t in range(60):
        if t == 20:
            values = {"body_mass_scale": 2.0, "gravity_scale": 0.5, "timestep_scale": 1.5}
            ours.set_params(immediate=True, **values)
            scale_model(theirs.unwrapped.model, values)
        a = rng.uniform(-1, 1, 6).astype(np.float32)
        _assert_step_equal(task, t, ours.step(a[None]), theirs.step(a))
    ours.close()
    theirs.close()


def test_distributions_reproduce_by_seed() -> None:
    """Values drawn at each reset depend on the seed only: two pools of one
    seed draw and step alike, another seed draws otherwise."""

    def run(seed: int) -> tuple[list[np.ndarray], np.ndarray]:
        env = envpool_x.make_gymnasium("Hopper-v5", num_envs=4, seed=seed, max_episode_steps=30)
        env.set_params(body_mass_scale=Uniform(0.5, 2.0), geom_friction_scale=Uniform(0.5, 1.5))
        rows = trajectory(env, 70)
        masses = env.get_params()["body_mass_scale"]
        env.close()
        return rows, masses

    rows, masses = run(5)
    again, masses_again = run(5)
    assert_same(rows, again)
    np.testing.assert_array_equal(masses, masses_again)
    assert len(set(masses.tolist())) == 4 and np.all((masses >= 0.5) & (masses < 2.0))
    assert not np.array_equal(run(6)[1], masses)


def test_bad_values_are_refused() -> None:
    env = envpool_x.make_gymnasium("Hopper-v5", num_envs=2, seed=0)
    with pytest.raises(ValueError, match="body_mass_scale"):
        env.set_params(body_mass_scale=0.0)
    with pytest.raises(KeyError):
        env.set_params(body_mass=2.0)
    with pytest.raises(ValueError, match="timestep_scale"):
        envpool_x.make_gymnasium("Hopper-v5", num_envs=1, timestep_scale=50.0)
    env.close()


def test_memory_counts_one_model_copy_per_env() -> None:
    """A first set_params may give every env its own model arrays: the check
    counts a shallow mjModel and the scaled arrays per env, on top of the
    tables; a pool made with values other than 1 counts them at make."""
    spec = envpool_x.make_spec("Ant-v5", num_envs=8)
    model = mujoco.MjModel.from_xml_path(str(spec.env_config["xml_file"]))
    arrays = 8 * (4 * model.nbody + 3 * model.ngeom + 2 * model.nv + 6 * model.nu)
    copy = memory.param_copy_bytes(spec)
    assert arrays < copy < arrays + 64 * 1024  # the arrays and one mjModel struct
    tables = spec.entry.pool_class.memory_sizes()["params_per_env"]
    for n in (1, 8, 100):
        assert memory.param_table_bytes(spec, n) == n * (tables + copy)
    other = envpool_x.make_spec("Hopper-v5", num_envs=8)
    hopper = mujoco.MjModel.from_xml_path(str(other.env_config["xml_file"]))
    hopper_arrays = 8 * (4 * hopper.nbody + 3 * hopper.ngeom + 2 * hopper.nv + 6 * hopper.nu)
    assert copy - memory.param_copy_bytes(other) == arrays - hopper_arrays
    scaled = envpool_x.make_spec("Ant-v5", num_envs=8, body_mass_scale=2.0)
    grew = memory.estimate(scaled).resident - memory.estimate(spec).resident
    assert grew == 8 * copy
