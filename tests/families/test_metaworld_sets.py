"""Meta-World's task sets as one pool (cpp/envs/metaworld/task_set.h,
python/envpool_x/families/metaworld_sets.py), against metaworld 3.1.1.

- Spreading: env i runs task i % n of the set, with the task's one-hot id after
  its 39 values and info["task_id"] its place in the set.
- Variations: the set's rand_vecs are Meta-World's ``_make_tasks`` over the same
  task list and seed (what MT10 / ML10 draw: one generator through the tasks).
- Parity: a set's env runs exactly what the single task's env runs. The set's
  first task draws MT1's variations, so env 0 beside the single-task env with
  the same seed agrees from the reset on, through an auto-reset; the other
  tasks' envs get the single-task env's state copied after the reset, then
  both run a whole episode with the same actions.
- Registration: a benchmark whose tasks are not all built is not registered,
  and making it says which tasks are missing.
The parity and spreading tests use a custom list of three tasks; the
benchmarks' own sets (all registered: every task is built) are checked against
Meta-World's classes, a sample in the default run and every set under slow.
"""

from __future__ import annotations

import contextlib
import functools
import pickle
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from metaworld_helpers import INFO_KEYS, load_oracle, make_ours

import envpool_x
from envpool_x.families import metaworld as family
from envpool_x.families import metaworld_sets as sets

if not family.has_metaworld():
    pytest.skip("envpool_x was built without the Meta-World tasks", allow_module_level=True)
mujoco = pytest.importorskip("mujoco")
metaworld = pytest.importorskip("metaworld")
load_oracle(mujoco, metaworld, pytest.importorskip("metaworld.policies"))
from metaworld.sawyer_xyz_env import SawyerXYZEnv  # noqa: E402

CUSTOM = sets.CUSTOM.envpool_id
# Reach first (MT1's draws with the redraw rule), then tasks of other lengths.
TASKS = ["reach-v3", "door-open-v3", "push-v3"]


def _oracle_rand_vecs(
    tasks: list[str], seed: int, meta_learning: bool = False
) -> dict[str, np.ndarray]:
    """Meta-World's rand_vecs of a list of tasks drawn as its benchmarks draw
    them (``_make_tasks`` over the list, one seed; an ML or MT benchmark's
    overrides)."""
    classes = metaworld.env_dict._get_env_dict(tasks)
    args = metaworld.env_dict._get_args_kwargs(metaworld.env_dict.ALL_V3_ENVIRONMENTS, classes)
    override = metaworld._ML_OVERRIDE if meta_learning else metaworld._MT_OVERRIDE
    drawn = metaworld._make_tasks(classes, args, override, seed=seed)
    out: dict[str, list] = {t: [] for t in tasks}
    for task in drawn:
        out[task.env_name].append(pickle.loads(task.data)["rand_vec"])
    return {t: np.array(v) for t, v in out.items()}


@functools.cache
def _state_size(task: str) -> int:
    cls = metaworld.env_dict.ALL_V3_ENVIRONMENTS[task]
    env = cls()
    return int(mujoco.mj_stateSize(env.model, mujoco.mjtState.mjSTATE_INTEGRATION))


def test_envs_spread_over_the_tasks_with_one_hot_ids() -> None:
    env = envpool_x.make_gymnasium(CUSTOM, num_envs=7, tasks=TASKS)
    obs, info = env.reset(seed=1)
    n = len(TASKS)
    assert obs.shape == (7, 39 + n) and env.single_observation_space.shape == (39 + n,)
    want = np.arange(7) % n
    np.testing.assert_array_equal(info["task_id"], want)
    np.testing.assert_array_equal(obs[:, 39:], np.eye(n)[want])
    obs, _, _, _, info = env.step(np.zeros((7, 4), np.float32))
    np.testing.assert_array_equal(obs[:, 39:], np.eye(n)[want])
    np.testing.assert_array_equal(info["task_id"], want)
    # MT-style by default: the goal is shown (non-zero), and the one-hot bounded by [0, 1].
    assert np.all(np.abs(obs[:, 36:39]).sum(axis=1) > 0)
    assert np.all(env.single_observation_space.high[39:] == 1)
    env.close()
    hidden = envpool_x.make_gymnasium(
        CUSTOM, num_envs=2, tasks=TASKS[:2], use_one_hot=False, partially_observable=True
    )
    obs, _ = hidden.reset(seed=0)
    assert obs.shape == (2, 39) and np.all(obs[:, 36:] == 0)
    hidden.close()


@pytest.mark.parametrize("seed", [0, 5])
def test_variations_are_the_benchmark_draws(seed: int) -> None:
    with _quick_hand_reset():
        expected = _oracle_rand_vecs(TASKS, seed)
    for index in (0, 17, 49):
        env = envpool_x.make_gymnasium(
            CUSTOM, num_envs=len(TASKS), tasks=TASKS, task_seed=seed, task_index=index
        )
        _, info = env.reset(seed=seed)
        for k, task in enumerate(TASKS):
            size = _state_size(task)
            want = expected[task][index]
            got = env.get_state(k)[size : size + len(want)]
            np.testing.assert_array_equal(got, want, err_msg=f"{task}[{index}] seed {seed}")
            assert int(info["task_index"][k]) == index
        env.close()


def _compare(where: str, a: tuple, b: tuple, row: int) -> None:
    """Row ``row`` of step result ``a`` (the set) against row 0 of ``b``."""
    obs, reward, terminated, truncated, info = a
    s_obs, s_reward, s_terminated, s_truncated, s_info = b
    np.testing.assert_array_equal(obs[row, :39], s_obs[0], err_msg=where)
    assert reward[row] == s_reward[0], f"{where}: reward {reward[row]} vs {s_reward[0]}"
    assert terminated[row] == s_terminated[0] and truncated[row] == s_truncated[0], where
    for key in (*INFO_KEYS, "task_index"):
        assert info[key][row] == s_info[key][0], f"{where}: info[{key!r}]"


def test_a_set_env_steps_as_its_task_env() -> None:
    seed, seeds = 3, [11, 12, 13]
    env = envpool_x.make_gymnasium(CUSTOM, num_envs=3, tasks=TASKS, task_seed=seed)
    singles = [make_ours(task, seed, -1, False) for task in TASKS]
    obs, info = env.reset(seed=seeds)
    for k, single in enumerate(singles):
        s_obs, s_info = single.reset(seed=[seeds[k]])
        if k == 0:  # the set's first task draws MT1's variations: the same reset
            np.testing.assert_array_equal(obs[0, :39], s_obs[0])
            assert info["task_index"][0] == s_info["task_index"][0]
        else:
            single._pool.set_state(0, env.get_state(k))
    rng = np.random.default_rng(0)
    # Env 0 past its auto-reset (a variation drawn from the same seed stream);
    # the others for their first episode (their variations are the set's).
    for step in range(1, 511):
        actions = rng.uniform(-1, 1, (3, 4)).astype(np.float32)
        out = env.step(actions)
        for k, single in enumerate(singles):
            if k > 0 and step > 500:
                continue
            _compare(f"{TASKS[k]} step {step}", out, single.step(actions[k : k + 1]), k)
    env.close()
    for single in singles:
        single.close()


def test_benchmarks_are_registered_only_when_built() -> None:
    built = {name for name, _, _, _ in family.TASKS}
    for task_set in sets.SETS:
        missing = [t for t in task_set.tasks if t not in built]
        if missing:
            with pytest.raises(KeyError, match=missing[0]):
                envpool_x.make_gymnasium(task_set.envpool_id, num_envs=1)
            continue
        env = envpool_x.make_gymnasium(task_set.envpool_id, num_envs=len(task_set.tasks))
        obs, info = env.reset(seed=0)
        one_hot = 0 if task_set.meta_learning else len(task_set.tasks)
        assert obs.shape == (len(task_set.tasks), 39 + one_hot)
        np.testing.assert_array_equal(info["task_id"], np.arange(len(task_set.tasks)))
        env.close()


_BENCHMARK_OF = {
    "MT10": ("MT10", "train"), "MT50": ("MT50", "train"),
    "ML10-train": ("ML10", "train"), "ML10-test": ("ML10", "test"),
    "ML45-train": ("ML45", "train"), "ML45-test": ("ML45", "test"),
}  # fmt: skip


@contextlib.contextmanager
def _quick_hand_reset() -> Iterator[None]:
    """Meta-World's hand reset without its 250 MuJoCo steps while it draws
    variations: a benchmark's draws are numpy's alone (the hand reset draws
    nothing), and drawing ML10 takes 3 s instead of 35. The test below checks
    that the draws do not change."""
    reset_hand = SawyerXYZEnv._reset_hand

    def quick(self: Any, steps: int = 50) -> None:
        mujoco.mj_forward(self.model, self.data)
        self.init_tcp = self.tcp_center

    SawyerXYZEnv._reset_hand = quick
    try:
        yield
    finally:
        SawyerXYZEnv._reset_hand = reset_hand


def test_quick_hand_reset_keeps_the_draws() -> None:
    """Two tasks with their own redraw rules drawn either way: the same."""
    tasks = ["sweep-into-v3", "stick-push-v3"]
    full = _oracle_rand_vecs(tasks, 4)
    with _quick_hand_reset():
        quick = _oracle_rand_vecs(tasks, 4)
    for task in tasks:
        np.testing.assert_array_equal(quick[task], full[task], err_msg=task)


def _benchmark_rand_vecs(name: str, seed: int, first: int | None) -> dict[str, list]:
    """The rand_vecs of a benchmark's split by task: Meta-World's class
    (``MT50(seed).train_tasks``, ...), or with ``first`` the first tasks of the
    split drawn as the class draws them (``_make_tasks`` over the split's list
    with the seed: the later tasks change nothing before them)."""
    (task_set,) = [s for s in sets.SETS if s.name == name]
    with _quick_hand_reset():
        if first is not None:
            drawn = _oracle_rand_vecs(list(task_set.tasks[:first]), seed, task_set.meta_learning)
            return {task: list(v) for task, v in drawn.items()}
        cls, split = _BENCHMARK_OF[name]
        benchmark = getattr(metaworld, cls)(seed=seed)
    tasks = benchmark.train_tasks if split == "train" else benchmark.test_tasks
    expected: dict[str, list] = {}
    for task in tasks:
        expected.setdefault(task.env_name, []).append(pickle.loads(task.data)["rand_vec"])
    return expected


#: The default run's sample: (set, how many of its first tasks are checked; None:
#: Meta-World's class, every task). A test split is drawn on its own (seeded
#: again), so its whole list drawn alone is the class's.
_DEFAULT_CASES = [("MT10", None), ("MT50", 2), ("ML10-test", 5), ("ML45-test", 5)]


@pytest.mark.parametrize(
    "name, first",
    [
        *_DEFAULT_CASES,
        *(
            pytest.param(n, None, marks=pytest.mark.slow)
            for n in _BENCHMARK_OF
            if (n, None) not in _DEFAULT_CASES
        ),
    ],
)
def test_registered_benchmarks_draw_metaworlds_variations(name: str, first: int | None) -> None:
    """Each registered benchmark against Meta-World's own class (MT10(seed) ...):
    the rand_vec of every task (the default run: a sample), at two variations.
    All 50 tasks are built, so every benchmark is registered."""
    (task_set,) = [s for s in sets.SETS if s.name == name]
    assert task_set.task_id in envpool_x.list_all_envs(), f"{name} is not registered"
    expected = _benchmark_rand_vecs(name, 2, first)
    n = len(task_set.tasks)
    checked = task_set.tasks[: n if first is None else first]
    assert set(expected) == set(checked)
    for index in (0, 31):
        env = envpool_x.make_gymnasium(
            task_set.envpool_id, num_envs=n, task_seed=2, task_index=index
        )
        env.reset(seed=0)
        for k, task in enumerate(checked):
            size = _state_size(task)
            want = expected[task][index]
            np.testing.assert_array_equal(env.get_state(k)[size : size + len(want)], want)
        env.close()


def test_a_set_with_a_task_not_built_explains_itself() -> None:
    fake = sets.TaskSet("TEST-missing", ("reach-v3", "no-such-task-v3"), False)
    built = {name: xml for name, _, _, xml in family.TASKS}
    sets.register_sets(
        built, True, lambda *a, **k: pytest.fail("registered"), family.assets_dir,
        lambda: None, family.EPISODE_STEPS, family.REWARD_THRESHOLD, sets=[fake],
    )  # fmt: skip
    with pytest.raises(KeyError, match="no-such-task-v3"):
        envpool_x.make_gymnasium(fake.envpool_id, num_envs=1)


def test_bad_task_lists_are_refused() -> None:
    with pytest.raises(ValueError, match="non-empty list"):
        envpool_x.make_gymnasium(CUSTOM, num_envs=1, tasks=[])
    with pytest.raises(ValueError, match="not in this build"):
        envpool_x.make_gymnasium(CUSTOM, num_envs=1, tasks=["reach-v3", "nope-v3"])
    with pytest.raises(ValueError, match="twice"):
        envpool_x.make_gymnasium(CUSTOM, num_envs=1, tasks=["reach-v3", "reach-v3"])


def test_custom_set_defaults_to_every_built_task_in_mt50_order() -> None:
    built = {name for name, _, _, _ in family.TASKS}
    every = [t for t in metaworld.env_dict.ALL_V3_ENVIRONMENTS if t in built]
    env = envpool_x.make_gymnasium(CUSTOM, num_envs=len(every))
    assert env.spec.env_config["tasks"] == every
    obs, info = env.reset(seed=0)
    assert obs.shape == (len(every), 39 + len(every))
    env.close()


def test_benchmark_sets_match_metaworld_lists() -> None:
    names = {s.name: s for s in sets.SETS}
    d = metaworld.env_dict
    assert list(names["MT10"].tasks) == list(d.MT10_V3)
    assert list(names["MT50"].tasks) == list(d.MT50_V3)
    for split in ("train", "test"):
        assert list(names[f"ML10-{split}"].tasks) == list(d.ML10_V3[split])
        assert list(names[f"ML45-{split}"].tasks) == list(d.ML45_V3[split])
