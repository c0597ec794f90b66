"""Meta-World's benchmark task sets as one pool each (C++: ``MetaWorldTaskSet``).

``make_gymnasium("MetaWorld/MT10-v3", num_envs=n)`` steps the set's tasks in one
batch: env i runs task ``i % len(tasks)`` of the set, in Meta-World's order
(with ``num_envs`` equal to the number of tasks, env k runs the k-th, as in
Meta-World's ``gym.make_vec("Meta-World/MT10")``). Its observation is the
task's 39 values and, with ``use_one_hot`` (on for the MT sets), the task's
one-hot id in the set, as Meta-World's ``OneHotWrapper``;
``info["task_id"]`` is that place in the set. The goal variations are the
benchmark's: ``MT10(seed=task_seed).train_tasks`` (one numpy generator
through the set's tasks in order), ``ML10(seed=task_seed).train_tasks`` /
``test_tasks`` for the ML sets (goal hidden). A set is registered only when
this build has all its tasks; ``MetaWorld/custom-mt-v3`` takes any list of
built tasks (``tasks=[...]``; by default all of them, in MT50's order), its
variations drawn as Meta-World's benchmarks draw a list.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from envpool_x.families.option_rules import same_value, task_defaults
from envpool_x.options import BOOL, Int, Option, OptionTable
from envpool_x.params import with_built_param_options
from envpool_x.registration import note_not_built, register_alias

#: The C++ pool of every set.
SET_POOL = "MetaWorldTaskSet"
#: Meta-World 3.1.1's task names in its own order (ALL_V3_ENVIRONMENTS = MT50).
ALL_TASKS: tuple[str, ...] = tuple(
    f"{name}-v3"
    for name in (
        "assembly basketball bin-picking box-close button-press-topdown "
        "button-press-topdown-wall button-press button-press-wall coffee-button coffee-pull "
        "coffee-push dial-turn disassemble door-close door-lock door-open door-unlock "
        "hand-insert drawer-close drawer-open faucet-open faucet-close hammer "
        "handle-press-side handle-press handle-pull-side handle-pull lever-pull "
        "pick-place-wall pick-out-of-hole pick-place plate-slide plate-slide-side "
        "plate-slide-back plate-slide-back-side peg-insert-side peg-unplug-side soccer "
        "stick-push stick-pull push push-wall push-back reach reach-wall shelf-place "
        "sweep-into sweep window-open window-close"
    ).split()
)
_ML45_TEST = ("bin-picking-v3", "box-close-v3", "hand-insert-v3", "door-lock-v3", "door-unlock-v3")
#: ML45's train list is not ALL_TASKS minus the test five in order: push-back
#: comes before pick-place, push-wall / push and reach-wall / reach swap.
_ML45_TRAIN = tuple(
    f"{name}-v3"
    for name in (
        "assembly basketball button-press-topdown button-press-topdown-wall button-press "
        "button-press-wall coffee-button coffee-pull coffee-push dial-turn disassemble "
        "door-close door-open drawer-close drawer-open faucet-open faucet-close hammer "
        "handle-press-side handle-press handle-pull-side handle-pull lever-pull "
        "pick-place-wall pick-out-of-hole push-back pick-place plate-slide plate-slide-side "
        "plate-slide-back plate-slide-back-side peg-insert-side peg-unplug-side soccer "
        "stick-push stick-pull push-wall push reach-wall reach shelf-place sweep-into sweep "
        "window-open window-close"
    ).split()
)


@dataclass(frozen=True)
class TaskSet:
    """One of Meta-World's benchmark sets.

    Attributes:
        name: EnvPool-style name, ``"MT10"``, ``"ML10-train"``, ...
        tasks: Meta-World's task names in the benchmark's order.
        meta_learning: an ML set (goal hidden, no one-hot id), else MT (goal
            shown, one-hot id), as Meta-World's ``_ML_OVERRIDE`` / ``_MT_OVERRIDE``.
    """

    name: str
    tasks: tuple[str, ...]
    meta_learning: bool

    @property
    def task_id(self) -> str:
        """envpool_x's id, e.g. ``MetaWorldML10Train-v3``."""
        return "MetaWorld" + "".join(p[0].upper() + p[1:] for p in self.name.split("-")) + "-v3"

    @property
    def envpool_id(self) -> str:
        """The EnvPool-style alias, e.g. ``MetaWorld/ML10-train-v3``."""
        return f"MetaWorld/{self.name}-v3"


SETS: list[TaskSet] = [
    TaskSet(
        "MT10",
        tuple(
            f"{n}-v3"
            for n in (
                "reach push pick-place door-open drawer-open drawer-close "
                "button-press-topdown peg-insert-side window-open window-close"
            ).split()
        ),
        False,
    ),
    TaskSet("MT50", ALL_TASKS, False),
    TaskSet(
        "ML10-train",
        tuple(
            f"{n}-v3"
            for n in (
                "reach push pick-place door-open drawer-close button-press-topdown "
                "peg-insert-side window-open sweep basketball"
            ).split()
        ),
        True,
    ),
    TaskSet(
        "ML10-test",
        tuple(
            f"{n}-v3" for n in "drawer-open door-close shelf-place sweep-into lever-pull".split()
        ),
        True,
    ),
    TaskSet("ML45-train", _ML45_TRAIN, True),
    TaskSet("ML45-test", _ML45_TEST, True),
]
#: The set of the user's own tasks (``tasks=[...]``; by default every task of
#: this build, in MT50's order), MT-style by default.
CUSTOM = TaskSet("custom-mt", (), False)


def _tasks_fixed_by_id(task_id: str, config: Mapping[str, Any], given: frozenset[str]) -> None:
    """A benchmark's id fixes its tasks; only the custom set takes a list."""
    if task_id in (CUSTOM.task_id, CUSTOM.envpool_id):
        return
    own = task_defaults(task_id)["tasks"]
    if "tasks" in given and not same_value(list(config["tasks"]), list(own)):
        raise ValueError(
            f"{task_id}: tasks is fixed by the benchmark ({len(own)} tasks); for your own "
            f"list make {CUSTOM.envpool_id} with tasks=[...]"
        )


#: The declared options of the set pool.
SET_OPTIONS = OptionTable(
    with_built_param_options(
        SET_POOL,
        {
            "tasks": Option("any", note="Meta-World's task names (a benchmark's id fixes them)"),
            "xml_files": Option("any", note="filled from the installed metaworld package"),
            "task_seed": Int(0, 2**32 - 1, note="the seed of the benchmark's variations"),
            "task_index": Int(-1, 49, note="-1: a variation drawn per reset"),
            "partially_observable": BOOL,
            "use_one_hot": BOOL,
        },
    ),
    (_tasks_fixed_by_id,),
)


def _resolver(
    built: Mapping[str, str], assets_dir: Callable[[], str], on_resolve: Callable[[], None]
) -> Callable[[dict[str, Any]], None]:
    """Check ``tasks`` (each built, none twice) and fill ``xml_files``."""

    def resolve(config: dict[str, Any]) -> None:
        tasks = config.get("tasks")
        if isinstance(tasks, str) or not isinstance(tasks, Sequence) or not tasks:
            raise ValueError(
                f"tasks must be a non-empty list of Meta-World task names, got {tasks!r}"
            )
        missing = [t for t in tasks if t not in built]
        if missing:
            raise ValueError(f"tasks {missing} are not in this build (built: {sorted(built)})")
        if len(set(tasks)) != len(tasks):
            raise ValueError(f"tasks names a task twice: {list(tasks)}")
        config["tasks"] = list(tasks)
        files = [os.path.join(assets_dir(), built[t]) for t in tasks]
        if config.get("xml_files") and list(config["xml_files"]) != files:
            raise ValueError(
                "xml_files is filled from the installed metaworld package: leave it out"
            )
        config["xml_files"] = files
        on_resolve()

    return resolve


def register_sets(
    built: Mapping[str, str],
    family_built: bool,
    add: Callable[..., None],
    assets_dir: Callable[[], str],
    on_resolve: Callable[[], None],
    episode_steps: int,
    reward_threshold: float,
    sets: Sequence[TaskSet] = SETS,
) -> None:
    """Register each set whose tasks are all in ``built`` (Meta-World name ->
    model file); a set with a missing task is noted as not built, naming the
    missing tasks. With ``sets`` left out, also the custom set.

    Args:
        built: the tasks of this build.
        family_built: whether this build has the Meta-World family at all.
        add: the family's ``register`` (:func:`register_if_built`).
        assets_dir, on_resolve: the family's model folder and its resolve hook.
        episode_steps, reward_threshold: every set's time limit and threshold.
        sets: the sets to register (the benchmarks by default).
    """
    resolve = _resolver(built, assets_dir, on_resolve)
    for task_set in sets:
        missing = [t for t in task_set.tasks if t not in built]
        if family_built and missing:
            note_not_built(
                [task_set.task_id, task_set.envpool_id],
                f"Meta-World's {task_set.name} needs {len(missing)} task(s) this build does not "
                f"have yet: {', '.join(missing)}",
            )
            continue
        _add_set(add, task_set, list(task_set.tasks), resolve, episode_steps, reward_threshold)
        if family_built:
            register_alias(task_set.envpool_id, task_set.task_id)
    if sets is not SETS:
        return
    # The custom set runs every built task (MT50's order) unless given tasks=[...].
    every = [t for t in ALL_TASKS if t in built]
    _add_set(add, CUSTOM, every, resolve, episode_steps, reward_threshold)
    if family_built:
        register_alias(CUSTOM.envpool_id, CUSTOM.task_id)


def _add_set(
    add: Callable[..., None],
    task_set: TaskSet,
    tasks: list[str],
    resolve: Callable[[dict[str, Any]], None],
    episode_steps: int,
    reward_threshold: float,
) -> None:
    add(
        task_set.task_id,
        SET_POOL,
        "metaworld",
        episode_steps,
        reward_threshold=reward_threshold,
        resolve=resolve,
        tasks=tasks,
        partially_observable=task_set.meta_learning,
        use_one_hot=not task_set.meta_learning,
    )
