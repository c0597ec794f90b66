"""The task registry: task id -> C++ pool class and the task's defaults, and the
families' declarations (what each family knows: renderer, memory, backends)."""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from envpool_x import _core
from envpool_x.family_memory import FamilyMemory, KiB, MiB  # noqa: F401  (families import them from here)

if TYPE_CHECKING:
    from envpool_x.envpool_names import EnvPoolNames
    from envpool_x.options import OptionTable
    from envpool_x.spec import EnvSpec


@dataclass(frozen=True)
class Family:
    """What a family declares once, for everything above the backend seam.

    Attributes:
        name: the family's name (``list_all_envs`` groups, ``envpool-x list``).
        title: how messages name its tasks ("the classic control tasks").
        renderer: the function that, given a spec, returns a function drawing
            the frame (uint8, H x W x 3) of one env from its state; called on
            the first ``render()``. None: the family draws no frames from
            states (pools that draw their own, such as Atari's, need none).
        memory: its per-env allocations (:class:`FamilyMemory`).
        backends: the backends beside the CPU pool that run some of its tasks,
            each with the C++ pool names it runs (every family runs on "cpu").
        options: the declared valid range of every env option, by pool name
            (:class:`envpool_x.options.OptionTable`), checked when a spec is made.
        envpool_names: EnvPool's config keys its tasks take beside their own
            (other names of their keys, behaviour they fix), by pool name
            (:class:`envpool_x.envpool_names.EnvPoolNames`).
        info_extras: given a host result ``(obs, reward, terminated,
            truncated, info)`` of the gymnasium front end, adds info keys
            derived from the engine's fields (EnvPool's names for them, which
            the engine's 16 info fields cannot all hold); None: none.
        info_extra_fields: given a spec's info fields (as ``EnvSpec._desc``
            lists them), the arrays ``info_extras`` adds, in the same form
            (name, dtype, shape, low, high), so that the dm_env front end
            carries them in its observation (``/`` becomes ``_``, EnvPool's dm
            names) and ``env.xla()`` returns them too. A family that declares
            them writes ``info_extras(result, xp=numpy)`` to take ``xp``
            (``jax.numpy`` inside ``env.xla()``'s traced functions). None: the
            extras are the gymnasium front end's only.
        goal_functions: given a spec, the goal task's ``compute_reward`` /
            ``compute_terminated`` / ``compute_truncated`` (an object with
            them), offered by the gymnasium front end; None: not goal tasks.
        reset_options: the family's own keys of the gymnasium front end's
            ``reset(options=...)``, and the function that applies them after
            the pool's reset: ``apply(env, ids, obs, info, options)`` (the
            front end, the env ids reset or None for all, the reset's results
            to edit in place, the family's options); None: none.
    """

    name: str
    title: str = ""
    renderer: Callable[[EnvSpec], Callable[[np.ndarray], np.ndarray]] | None = None
    memory: FamilyMemory = field(default_factory=FamilyMemory)
    backends: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    options: Mapping[str, OptionTable] = field(default_factory=dict)
    envpool_names: Mapping[str, EnvPoolNames] = field(default_factory=dict)
    info_extras: Callable[..., None] | None = None
    info_extra_fields: Callable[[list[dict[str, Any]]], list[dict[str, Any]]] | None = None
    goal_functions: Callable[[EnvSpec], Any] | None = None
    reset_options: tuple[tuple[str, ...], Callable[..., None]] | None = None

    def runs_on(self, backend: str, pool_name: str) -> bool:
        """Whether ``backend`` runs this family's ``pool_name`` tasks."""
        return backend == "cpu" or pool_name in self.backends.get(backend, ())

    def option_table(self, pool_name: str) -> OptionTable | None:
        """The declared options of ``pool_name``'s envs (None: none declared)."""
        return self.options.get(pool_name)

    def envpool_table(self, pool_name: str) -> EnvPoolNames | None:
        """EnvPool's keys that ``pool_name``'s envs take (None: none declared)."""
        return self.envpool_names.get(pool_name)


_FAMILIES: dict[str, Family] = {}


def declare_family(family: Family) -> Family:
    """Record a family's declaration (once per name) and return it.

    Raises:
        ValueError: the family was already declared.
    """
    if family.name in _FAMILIES:
        raise ValueError(f"family {family.name!r} is already declared")
    _FAMILIES[family.name] = family
    return family


#: The family of users' own envs (register_cpp_env, register_numba_env): the
#: CPU pool only, what one env allocates reported by its pool.
USER_FAMILY = declare_family(Family("user", title="users' own envs")).name


def family(name: str) -> Family:
    """The declaration of family ``name``; a family nobody declared (a user's
    own) has the defaults: no renderer, no extra memory, the CPU pool only."""
    return _FAMILIES.get(name) or Family(name)


def families() -> list[Family]:
    """Every declared family, in declaration order."""
    return list(_FAMILIES.values())


@dataclass(frozen=True)
class TaskEntry:
    """One registered task: which C++ pool steps it and with which defaults."""

    task_id: str
    pool_name: str
    family: str
    # None: set per instance by `resolve` (see PER_INSTANCE_TIME_LIMIT).
    max_episode_steps: int | None
    reward_threshold: float | None = None
    env_defaults: dict[str, Any] = field(default_factory=dict)
    # Fills derived env keys of a merged config at spec time (Atari: rom_path).
    resolve: Callable[[dict[str, Any]], None] | None = None
    # The gymnasium front end shows the observation as a Tuple (Blackjack).
    obs_tuple: bool = False
    # A pool class that is not in _core (a user env); else looked up by name.
    custom_pool_class: Any = None
    # Heap bytes one env allocates that grow with its env config (a numba env's
    # state and random buffers), for the memory check; None: nothing beyond
    # what the family declares.
    env_memory: Callable[[Mapping[str, Any]], int] | None = None
    # Pool keys this id sets otherwise than POOL_DEFAULTS (EnvPool's Craftax
    # -AutoReset ids: autoreset_mode="same_step"); the user's values win.
    pool_defaults: dict[str, Any] = field(default_factory=dict)

    @property
    def pool_class(self) -> type[_core._EnvPool]:
        """The pybind11 pool class of this task."""
        if self.custom_pool_class is not None:
            return self.custom_pool_class  # type: ignore[no-any-return]
        pool_class: type[_core._EnvPool] = getattr(_core, self.pool_name)
        return pool_class

    @property
    def declaration(self) -> Family:
        """What the task's family declares (:class:`Family`)."""
        return family(self.family)


# gymnasium registers some tasks (CliffWalking, Blackjack) without a time limit;
# EnvPool's equivalent is INT32_MAX steps.
NO_TIME_LIMIT = 2**31 - 1
# A task whose default time limit depends on the instance (MaxCut: twice the
# graph's node count) registers this; its `resolve` sets max_episode_steps when
# the user gave none. A user's explicit value, whatever it is, is kept.
PER_INSTANCE_TIME_LIMIT = None

#: The longest task id accepted.
MAX_TASK_ID_LENGTH = 128
# gymnasium's `name[-vN]` without a namespace (every id is mirrored there as
# envpool_x/<id>, and ':' would read as gymnasium's `module:id`), ASCII only.
_TASK_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")
_VERSION = re.compile(r"-v(\d+)$")
TASK_ID_RULE = (
    "ASCII letters, digits, '_', '.' and '-', starting with a letter or digit, at most "
    f"{MAX_TASK_ID_LENGTH} characters, optionally ending in a version '-vN' (e.g. 'MyEnv-v0')"
)

_REGISTRY: dict[str, TaskEntry] = {}
# Called with each entry registered after them (gymnasium's registry mirrors ours).
_LISTENERS: list[Callable[[TaskEntry], None]] = []
# Ids of families this build left out, with what to do about it (lookup's error).
_NOT_BUILT: dict[str, str] = {}
# Other names of registered ids (EnvPool's aliases, such as gymnasium's
# functional "phys2d/CartPole-v1"): alias -> registered id.
_ALIASES: dict[str, str] = {}
# Ids another library registers that envpool_x has not ported, with why not.
_NOT_PORTED: dict[str, str] = {}


class TaskNotPortedError(KeyError, NotImplementedError):
    """An id another library registers (minigrid's WFC mazes) that envpool_x
    knows of and has not ported: both a KeyError (an id :func:`lookup` has no
    entry for) and a NotImplementedError (what it is); the message says why."""

    def __str__(self) -> str:  # KeyError's own str() would quote the message
        return str(self.args[0]) if self.args else ""


def check_task_id(task_id: Any, new: bool = True) -> str:
    """Check that ``task_id`` is a valid (and, with ``new``, still free) id to
    register, and return it. Every ``register*`` function calls this before anything else
    (before compiling, before gymnasium's registry mirror sees it).

    A valid id is gymnasium's ``name[-vN]`` shape without a namespace:
    :data:`TASK_ID_RULE`.

    Raises:
        TypeError: not a str.
        ValueError: empty, too long, characters outside the rule (spaces,
            '/', ':', non-ASCII, ...), a version with leading zeros, or an id
            that is already registered.
    """
    if not isinstance(task_id, str):
        raise TypeError(f"task_id must be a str, got {type(task_id).__name__} ({task_id!r})")
    if not task_id:
        raise ValueError(f"task_id must not be empty; a task id has {TASK_ID_RULE}")
    if len(task_id) > MAX_TASK_ID_LENGTH:
        raise ValueError(
            f"task_id {task_id[:40]!r}... has {len(task_id)} characters, more than the "
            f"{MAX_TASK_ID_LENGTH} allowed"
        )
    if not _TASK_ID.fullmatch(task_id):
        bad = sorted({c for c in task_id if not re.fullmatch(r"[A-Za-z0-9_.-]", c)})
        what = f"the character(s) {bad}" if bad else "its first character"
        raise ValueError(f"task_id {task_id!r} is not valid ({what}): a task id has {TASK_ID_RULE}")
    version = _VERSION.search(task_id)
    if version and len(version.group(1)) > 1 and version.group(1).startswith("0"):
        raise ValueError(
            f"task_id {task_id!r}: the version -v{version.group(1)} has a leading zero "
            f"(gymnasium reads it as -v{int(version.group(1))})"
        )
    if new and task_id in _REGISTRY:
        raise ValueError(f"task {task_id!r} is already registered")
    return task_id


def register(
    task_id: str,
    pool_name: str,
    family: str,
    max_episode_steps: int | None,
    reward_threshold: float | None = None,
    resolve: Callable[[dict[str, Any]], None] | None = None,
    obs_tuple: bool = False,
    pool_class: Any = None,
    env_memory: Callable[[Mapping[str, Any]], int] | None = None,
    pool_defaults: Mapping[str, Any] | None = None,
    **env_defaults: Any,
) -> None:
    """Register a task.

    Args:
        task_id: the public id, such as ``"CartPole-v1"``.
        pool_name: the name of the C++ pool class in ``envpool_x._core``.
        family: the family shown by ``list_all_envs`` / ``envpool-x list``.
        max_episode_steps: default time limit (truncation) of an episode;
            ``PER_INSTANCE_TIME_LIMIT`` (None) when ``resolve`` derives it from
            the instance (it must then set it whenever the user gave none).
        reward_threshold: the score at which the task counts as solved.
        resolve: called with the merged config (a dict) when a spec is made, to
            fill env keys derived from others, such as an Atari ROM's path.
        obs_tuple: the gymnasium front end presents the (discrete, 1-d) observation
            as a Tuple of Discrete spaces, one array per element (Blackjack).
        pool_class: the pool class itself, for envs outside ``_core`` (user envs:
            :mod:`envpool_x.user_envs`); ``pool_name`` then only names it.
        env_memory: given an env config, the heap bytes one env allocates
            that grow with it (the memory check adds them per env).
        pool_defaults: this id's own defaults of pool keys (such as
            ``autoreset_mode``), in place of the common ones.
        **env_defaults: overrides of the env's own config defaults for this id.

    Raises:
        TypeError / ValueError: the id is not valid (:func:`check_task_id`) or
            is already registered.
        KeyError: if ``pool_name`` is not a pool of the extension module, or an
            env default is not a key of that pool.
    """
    check_task_id(task_id)
    if max_episode_steps is PER_INSTANCE_TIME_LIMIT and resolve is None:
        raise ValueError(f"task {task_id!r}: a per-instance time limit needs a resolve function")
    if pool_class is None and not hasattr(_core, pool_name):
        raise KeyError(f"no C++ pool named {pool_name!r} in envpool_x._core")
    valid = (pool_class or getattr(_core, pool_name)).default_config()
    for key in env_defaults:
        if key not in valid:
            raise KeyError(f"{pool_name} has no config key {key!r}; valid keys: {sorted(valid)}")
    _REGISTRY[task_id] = TaskEntry(
        task_id,
        pool_name,
        family,
        max_episode_steps,
        reward_threshold,
        dict(env_defaults),
        resolve,
        obs_tuple,
        pool_class,
        env_memory,
        dict(pool_defaults or {}),
    )
    try:
        for listener in _LISTENERS:
            listener(_REGISTRY[task_id])
    except BaseException:
        # A mirror that refused the id must not leave it registered here only.
        del _REGISTRY[task_id]
        raise


def lookup(task_id: str) -> TaskEntry:
    """Return the entry of ``task_id``.

    An alias (:func:`register_alias`) gives the entry of the id it names
    (whose ``task_id`` is that id).

    Raises:
        TaskNotPortedError: an id of another library that envpool_x has not
            ported (:func:`note_not_ported`); a KeyError and a NotImplementedError.
        KeyError: unknown id; the message suggests close matches.
    """
    if task_id in _ALIASES:
        return _REGISTRY[_ALIASES[task_id]]
    if task_id in _NOT_PORTED:
        raise TaskNotPortedError(_NOT_PORTED[task_id])
    try:
        return _REGISTRY[task_id]
    except KeyError:
        close = difflib.get_close_matches(task_id, list(_REGISTRY), n=3, cutoff=0.5)
        hint = f"; did you mean {', '.join(map(repr, close))}?" if close else ""
        if task_id in _NOT_BUILT:
            hint = f"; {_NOT_BUILT[task_id]}"
        if task_id.endswith("-v5") and not hasattr(_core, "Atari"):
            hint += (
                "; this envpool_x was built without the Atari family (ENVPOOL_X_ATARI=OFF): "
                "rebuild with it on"
            )
        raise KeyError(
            f"unknown task id {task_id!r}{hint} (envpool_x.list_all_envs() lists them all)"
        ) from None


def note_not_built(task_ids: Iterable[str], hint: str) -> None:
    """Name ids a family would register had this build included it: looking
    one up then raises a KeyError carrying ``hint`` (how to get the family)."""
    for task_id in task_ids:
        _NOT_BUILT[task_id] = hint


def register_alias(alias: str, task_id: str) -> None:
    """Accept ``alias`` wherever a task id is taken (``make*``, ``make_spec``)
    as another name of the registered ``task_id``: the same entry, defaults and
    time limit, while the spec's ``id`` is the alias. Aliases are not in
    :func:`list_all_envs` nor in gymnasium's ``envpool_x/`` namespace (EnvPool's
    aliases, such as ``phys2d/CartPole-v1``, hold a '/'): :func:`aliases` lists them.

    Raises:
        KeyError: ``task_id`` is not registered.
        ValueError: ``alias`` is already an id or an alias.
    """
    if task_id not in _REGISTRY:
        raise KeyError(f"cannot alias {alias!r} to {task_id!r}: no such task is registered")
    if alias in _REGISTRY or alias in _ALIASES:
        raise ValueError(f"{alias!r} is already a task id or an alias")
    _ALIASES[alias] = task_id


def aliases() -> dict[str, str]:
    """Every alias (:func:`register_alias`) with the registered id it names."""
    return dict(_ALIASES)


def note_not_ported(task_ids: Iterable[str], reason: str) -> None:
    """Name ids another library registers that envpool_x has not ported:
    looking one up raises :class:`TaskNotPortedError` with ``reason`` (why
    not, where the docs say more), instead of "unknown task id"."""
    for task_id in task_ids:
        _NOT_PORTED[task_id] = f"{task_id} is not available in envpool_x: {reason}"


def register_if_built(built: bool, hint: str) -> Callable[..., None]:
    """A family's ``register``: :func:`register` when this build includes the
    family, else a function that only notes each id as not built (looking one
    up then raises a KeyError carrying ``hint``)."""
    if built:
        return register

    def note(task_id: str, *args: Any, **kwargs: Any) -> None:
        note_not_built([task_id], hint)

    return note


def alias_if_built(built: bool, hint: str) -> Callable[[str, str], None]:
    """A family's :func:`register_alias` when this build includes the family,
    else a function that notes each alias as not built (looking one up then
    raises a KeyError carrying ``hint``, as for the family's own ids)."""
    if built:
        return register_alias

    def note(alias: str, task_id: str) -> None:
        note_not_built([alias], hint)

    return note


def list_all_envs() -> list[str]:
    """Return every registered task id, in registration order."""
    return list(_REGISTRY)


def envs_by_family() -> dict[str, list[str]]:
    """Return the registered task ids grouped by family."""
    out: dict[str, list[str]] = {}
    for entry in _REGISTRY.values():
        out.setdefault(entry.family, []).append(entry.task_id)
    return out
