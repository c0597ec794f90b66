"""The DeepMind Control suite tasks, stepped in C++ on MuJoCo's C API.

Ids follow EnvPool: ``<Domain><Task>-v1`` in CamelCase, e.g. ``CheetahRun-v1``,
``WalkerWalk-v1``, ``CartpoleBalanceSparse-v1``. Every task runs 1000 steps (its
dm_control time limit divided by its control timestep).

The models are dm_control's own: at make time the task's model XML and asset
files come from the installed ``dm-control`` package (its
``get_model_and_assets()``, which for cartpole with several poles builds the
XML in Python) and are handed to C++, which compiles them from memory. Nothing
of dm_control is copied into envpool_x; install it with ``pip install
"envpool-x[dmc]"``.

Observations are dm_control's named fields: ``make_dm`` gives them in the
TimeStep's observation (with ``env_id`` and ``elapsed_step``), ``make_gym`` /
``make_gymnasium`` as a ``Dict`` observation of the same fields, as EnvPool.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import warnings
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from envpool_x import _core
from envpool_x.envpool_names import EnvPoolNames, Fixed, Unsupported
from envpool_x.families.mujoco import drop_default_timer
from envpool_x.families.mujoco_memory import scaled_model_bytes
from envpool_x.families.option_rules import fixed_by_task_id
from envpool_x.families.pixels import (
    PIXEL_OPTIONS,
    RenderSizes,
    pixel_bytes,
    pixel_relations,
    pixel_thread_bytes,
)
from envpool_x.options import BOOL, Choice, Option, OptionTable
from envpool_x.params import with_param_options
from envpool_x.registration import (
    Family,
    FamilyMemory,
    KiB,
    MiB,
    declare_family,
    register_if_built,
)
from envpool_x.render.physics import DmcFrames

if TYPE_CHECKING:
    from envpool_x.spec import EnvSpec

#: The dm-control release whose tasks these reproduce (its suite is the test oracle).
DM_CONTROL_VERSION = "1.0.50"

#: (dm_control domain, id prefix, C++ pool, tasks) in registration order.
DOMAINS: list[tuple[str, str, str, tuple[str, ...]]] = [
    ("cheetah", "Cheetah", "DmcCheetah", ("run",)),
    ("walker", "Walker", "DmcWalker", ("stand", "walk", "run")),
    ("hopper", "Hopper", "DmcHopper", ("stand", "hop")),
    (
        "cartpole",
        "Cartpole",
        "DmcCartpole",
        ("balance", "balance_sparse", "swingup", "swingup_sparse", "two_poles", "three_poles"),
    ),
    ("pendulum", "Pendulum", "DmcPendulum", ("swingup",)),
    ("acrobot", "Acrobot", "DmcAcrobot", ("swingup", "swingup_sparse")),
    ("point_mass", "PointMass", "DmcPointMass", ("easy", "hard")),
    ("reacher", "Reacher", "DmcReacher", ("easy", "hard")),
    ("ball_in_cup", "BallInCup", "DmcBallInCup", ("catch",)),
    ("finger", "Finger", "DmcFinger", ("spin", "turn_easy", "turn_hard")),
    ("humanoid", "Humanoid", "DmcHumanoid", ("stand", "walk", "run", "run_pure_state")),
    ("swimmer", "Swimmer", "DmcSwimmer", ("swimmer6", "swimmer15")),
    ("fish", "Fish", "DmcFish", ("upright", "swim")),
    ("quadruped", "Quadruped", "DmcQuadruped", ("walk", "run", "escape", "fetch")),
    (
        "manipulator",
        "Manipulator",
        "DmcManipulator",
        ("bring_ball", "bring_peg", "insert_ball", "insert_peg"),
    ),
    ("stacker", "Stacker", "DmcStacker", ("stack_2", "stack_4")),
    ("lqr", "Lqr", "DmcLqr", ("lqr_2_1", "lqr_6_2")),
    ("humanoid_CMU", "HumanoidCMU", "DmcHumanoidCMU", ("stand", "walk", "run")),
    ("dog", "Dog", "DmcDog", ("stand", "walk", "trot", "run", "fetch")),
]


def _fresh_random_state() -> np.random.RandomState:
    """A RandomState of seed 0 (a MODEL_ARGS value that is called for each build)."""
    return np.random.RandomState(0)


#: Arguments of a domain's ``get_model_and_assets`` (or its MODEL_FUNCTIONS
#: entry) for tasks whose model dm_control builds in Python (all others use
#: the defaults); a callable value is called for each build.
MODEL_ARGS: dict[tuple[str, str], dict[str, Any]] = {
    ("cartpole", "two_poles"): {"num_poles": 2},
    ("cartpole", "three_poles"): {"num_poles": 3},
    ("swimmer", "swimmer6"): {"n_joints": 6},
    ("swimmer", "swimmer15"): {"n_joints": 15},
    # quadruped's walk/run floor: its time limit (20 s) times the task's speed.
    ("quadruped", "walk"): {"floor_size": 10.0},
    ("quadruped", "run"): {"floor_size": 100},
    # escape: a 40 m floor under the heightfield, and the rangefinders.
    ("quadruped", "escape"): {"floor_size": 40, "terrain": True, "rangefinders": True},
    # fetch: the default floor, with its walls, the ball and the target.
    ("quadruped", "fetch"): {"walls_and_ball": True},
    ("manipulator", "bring_ball"): {"use_peg": False, "insert": False},
    ("manipulator", "bring_peg"): {"use_peg": True, "insert": False},
    ("manipulator", "insert_ball"): {"use_peg": False, "insert": True},
    ("manipulator", "insert_peg"): {"use_peg": True, "insert": True},
    ("stacker", "stack_2"): {"n_boxes": 2},
    ("stacker", "stack_4"): {"n_boxes": 4},
    # lqr's chain; its stiffnesses come from `random` (each env redraws them
    # from its seed, so any fixed state will do: a fresh one each call, for
    # one XML and so one model key).
    ("lqr", "lqr_2_1"): {"n_bodies": 2, "n_actuators": 1, "random": _fresh_random_state},
    ("lqr", "lqr_6_2"): {"n_bodies": 6, "n_actuators": 2, "random": _fresh_random_state},
    # dog's floor: its time limit (15 s) times the task's speed (walk's for
    # stand); fetch keeps the ball, target and walls.
    ("dog", "stand"): {"floor_size": 15},
    ("dog", "walk"): {"floor_size": 15},
    ("dog", "trot"): {"floor_size": 45},
    ("dog", "run"): {"floor_size": 135},
    ("dog", "fetch"): {"remove_ball": False},
}

#: Domains whose tasks build their model with another dm_control function
#: than ``get_model_and_assets`` (called with the task's MODEL_ARGS). It may
#: return the XML alone, whose assets are then dm_control's ``common.ASSETS``.
MODEL_FUNCTIONS: dict[str, str] = {
    "quadruped": "make_model",
    "manipulator": "make_model",
    "stacker": "make_model",
}

#: dm_control's physics steps per control step of each domain's tasks (its
#: control timestep over the model's timestep, as the C++ envs compute it;
#: tests/families check it against dm_control): EnvPool's ``frame_skip``.
SUB_STEPS: dict[str, int] = {
    "cheetah": 1, "walker": 10, "hopper": 4, "cartpole": 1, "pendulum": 1, "acrobot": 1,
    "point_mass": 1, "reacher": 1, "ball_in_cup": 10, "finger": 2, "humanoid": 5,
    "swimmer": 15, "fish": 10, "quadruped": 4, "manipulator": 10, "stacker": 10, "lqr": 1,
    "humanoid_CMU": 10, "dog": 3,
}  # fmt: skip

#: Every dm_control suite task runs this many control steps (checked against
#: dm_control's own step limit by tests/families/test_dmc.py).
EPISODE_STEPS = 1000


def has_dmc() -> bool:
    """Return True if this build of envpool_x includes the DeepMind Control tasks."""
    return hasattr(_core, "dmc_add_model")


def task_id(prefix: str, task: str) -> str:
    """EnvPool's id of a task, e.g. ``("Cartpole", "balance_sparse")`` gives
    ``"CartpoleBalanceSparse-v1"``."""
    return prefix + "".join(word.capitalize() for word in task.split("_")) + "-v1"


def _import_domain(domain: str) -> Any:
    """dm_control's module of ``domain``; an ImportError that says what to install."""
    try:
        with warnings.catch_warnings():
            # dm_control probes for a display (GLFW) on import; we never render.
            warnings.simplefilter("ignore")
            return importlib.import_module(f"dm_control.suite.{domain}")
    except ImportError as e:
        raise ImportError(
            "the DeepMind Control tasks load their models from the dm-control package, "
            f"which could not be imported ({e}): "
            f'pip install "envpool-x[dmc]" (dm-control=={DM_CONTROL_VERSION})'
        ) from e


@functools.cache
def model_key(domain: str, task: str) -> str:
    """Register the model of ``domain``/``task`` with the C++ core (once per
    process) and return its key: the domain and a hash of the XML and assets.

    Raises:
        ImportError: dm-control is not installed.
    """
    module = _import_domain(domain)
    build = getattr(module, MODEL_FUNCTIONS.get(domain, "get_model_and_assets"))
    args = {k: v() if callable(v) else v for k, v in MODEL_ARGS.get((domain, task), {}).items()}
    built = build(**args)
    xml, assets = built if isinstance(built, tuple) else (built, module.common.ASSETS)
    xml_bytes = xml.encode() if isinstance(xml, str) else bytes(xml)
    names = sorted(assets)
    data = [a.encode() if isinstance(a, str) else bytes(a) for a in (assets[n] for n in names)]
    digest = hashlib.sha256(xml_bytes)
    for name, content in zip(names, data, strict=True):
        digest.update(name.encode())
        digest.update(content)
    key = f"{domain}@{digest.hexdigest()[:16]}"
    _core.dmc_add_model(key, xml_bytes, names, data)
    return key


def _resolver(domain: str) -> Any:
    def resolve(config: dict[str, Any]) -> None:
        key = model_key(domain, str(config["task_name"]))
        # `model` is filled from task_name: a different one given would be ignored.
        if config.get("model") and config["model"] != key:
            raise ValueError(
                f"model={config['model']!r} does not name the model of {domain}/"
                f"{config['task_name']} ({key!r}); model is filled by envpool_x from "
                "task_name: leave it out"
            )
        config["model"] = key
        drop_default_timer()  # dm_control imported mujoco, which installs it

    return resolve


#: How to get the family when this build lacks it.
def _frame_drawer(spec: EnvSpec) -> Callable[[np.ndarray], np.ndarray]:
    """The family's renderer: dm_control's ``Physics.render``, set to each env's state."""
    (domain,) = [d for d, _, pool, _ in DOMAINS if pool == spec.entry.pool_name]
    return DmcFrames(domain, str(spec.env_config["task_name"]), spec.env_config)


def _id_of_task(prefix: str, tasks: tuple[str, ...]) -> Callable[[Any], str | None]:
    """The id of another task of a domain, for messages (None: not a task of it)."""
    return lambda task: task_id(prefix, task) if task in tasks else None


def _with_params(pool: str, options: dict[str, Option]) -> dict[str, Option]:
    """``options`` and the pool's per-env parameters (docs/params.md), where
    this build has the pool."""
    pool_class = getattr(_core, pool, None)
    return options if pool_class is None else with_param_options(pool_class, options)


#: The declared options of each pool: a task of the domain (the task id's:
#: another would run under this id's name), and ``model``, which envpool_x
#: fills from ``task_name`` (its resolve refuses another model's key).
DMC_OPTIONS: dict[str, OptionTable] = {
    pool: OptionTable(
        _with_params(
            pool,
            {
                "initial_state_info": BOOL,
                "model": Option("text", note="filled from task_name: leave it out"),
                "task_name": Choice(*tasks, note=f"a task of {domain}"),
                **PIXEL_OPTIONS,
            },
        ),
        (
            fixed_by_task_id("task_name", _id_of_task(prefix, tasks)),
            *pixel_relations(PIXEL_OPTIONS),
        ),
    )
    for domain, prefix, pool, tasks in DOMAINS
}


def _envpool_names(domain: str) -> EnvPoolNames:
    """EnvPool's keys of a domain's pool: ``frame_skip``, fixed by dm_control's
    task, and ``base_path`` (:mod:`envpool_x.envpool_names`); its pixel keys
    (``frame_stack``, ``from_pixels``, ...) are the pool's own."""
    skip = (
        f"frame_skip is EnvPool's name of dm_control's physics steps per control step, which "
        f"the {domain} tasks fix ({SUB_STEPS[domain]}: their control timestep over the model's) "
        "and envpool_x's C++ envs follow; to act less often, repeat each action k times yourself"
    )
    base_path = Unsupported(
        "it is where EnvPool keeps its model files; envpool_x loads dm_control's own models "
        "(from the installed dm-control package)"
    )
    return EnvPoolNames(
        {
            "frame_skip": Fixed(SUB_STEPS[domain], skip),
            "base_path": base_path,
        }
    )


#: Bytes of quadruped escape's heightfield (201 x 201 floats), which each
#: escape env copies to draw its own terrain into (the rest of the model is shared).
ESCAPE_HEIGHTFIELD_BYTES = 160 * KiB

# One env: mjData's buffer and the touched part of its arena (measured); the
# arena is reserved at once and touched as needed. Measured per env as the
# growth of VmRSS / VmSize from a 4-env to a 20-env pool after 20 steps:
# the domains that keep a private copy of the model per env (their task
# writes into it: manipulator, stacker, lqr) touch 11-14 MiB more (declared with
# a quarter more: the measurement varies by up to a tenth); dog's
# arena is larger than the others' (48 MiB of address space).
_PRIVATE_MODEL_RESIDENT = {"DmcManipulator": 18 * MiB, "DmcStacker": 17 * MiB, "DmcLqr": 15 * MiB}
# (resident, address) beyond the family's. Stacker's private model copy also
# maps more than the family's 30 MiB: 30.4-32.1 MiB of VmSize per env measured.
_LARGER_ARENA = {"DmcDog": (1 * MiB, 22 * MiB), "DmcStacker": (0, 4 * MiB)}


def _env_extra(pool_name: str, config: Mapping[str, Any]) -> tuple[int, int]:
    """The (resident, address space) bytes one env of ``pool_name`` takes beyond
    the family's figures (FamilyMemory.config_extra): dog's larger arena,
    escape's own heightfield, scaled model arrays (per-env parameters other
    than 1), a pixel env's frame stack."""
    pixels = pixel_bytes(config)
    if pool_name == "DmcQuadruped" and config.get("task_name") == "escape":
        extra = (ESCAPE_HEIGHTFIELD_BYTES, ESCAPE_HEIGHTFIELD_BYTES)
    else:
        extra = _LARGER_ARENA.get(pool_name, (0, 0))
    scaled = scaled_model_bytes(pool_name, config)
    return extra[0] + pixels[0] + scaled, extra[1] + pixels[1] + scaled


def _thread_extra(pool_name: str, config: Mapping[str, Any]) -> tuple[int, int]:
    """(resident, address) bytes each stepping thread of a pixel pool holds: its
    GL context (the camera needs no scratch mjData here)."""
    if not config.get("from_pixels"):
        return 0, 0
    sizes = RenderSizes(*_core.dmc_render_sizes(str(config["model"])))
    return pixel_thread_bytes(config, sizes)


declare_family(
    Family(
        "dmc",
        renderer=_frame_drawer,
        memory=FamilyMemory(
            env_resident=184 * KiB,
            env_address=30 * MiB,
            pool_resident=_PRIVATE_MODEL_RESIDENT,
            config_extra=_env_extra,
            thread_extra=_thread_extra,
        ),
        options=DMC_OPTIONS,
        envpool_names={pool: _envpool_names(domain) for domain, _, pool, _ in DOMAINS},
    )
)

BUILD_HINT = (
    "this envpool_x was built without the DeepMind Control tasks (ENVPOOL_X_DMC=OFF or "
    "ENVPOOL_X_MUJOCO=OFF): rebuild with both on "
    "(pip: --config-settings=cmake.define.ENVPOOL_X_DMC=ON)"
)


def register_dmc_tasks() -> None:
    """Register ``<Domain><Task>-v1`` for every DeepMind Control task; in a build
    without the family (a CMake option), making one says how to get it."""
    add = register_if_built(has_dmc(), BUILD_HINT)
    for domain, prefix, pool, tasks in DOMAINS:
        for task in tasks:
            add(
                task_id(prefix, task),
                pool,
                "dmc",
                EPISODE_STEPS,
                resolve=_resolver(domain),
                task_name=task,
            )


register_dmc_tasks()
