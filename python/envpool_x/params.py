"""Per-env parameters and domain randomisation (docs/params.md).

A task declares, in C++, the physical constants its envs may change while the
pool runs (``ParamSpecs``: name, range, whether it may change mid-episode);
each is also a config key of the task. ``env.set_params(env_ids, **values)``
gives each named env a value, or a distribution (:class:`Uniform`,
:class:`LogUniform`, :class:`Normal`, :class:`Choice`) that the engine draws
at each of the env's resets from the env's own parameter stream (seeded from
the env's seed), so that runs depend on seeds only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from envpool_x.options import Float, Option

if TYPE_CHECKING:
    from envpool_x.spec import EnvSpec

# The C++ ParamDraw codes (cpp/core/params.h).
_FIXED, _UNIFORM, _LOG_UNIFORM, _NORMAL, _CHOICE = range(5)


@dataclass(frozen=True)
class ParamInfo:
    """One declared parameter of a task.

    Attributes:
        name: the parameter's name, also the config key that sets it at make time.
        low / high: the accepted values, both included.
        default: the value of the pool's config (what every env starts with).
        mid_episode: whether ``set_params(..., immediate=True)`` may change it
            while an episode runs.
    """

    name: str
    low: float
    high: float
    default: float
    mid_episode: bool


@dataclass(frozen=True)
class Uniform:
    """Drawn uniformly in ``[low, high)`` at each reset; ``low`` / ``high`` are
    scalars or one value per env named."""

    low: Any
    high: Any


@dataclass(frozen=True)
class LogUniform:
    """``exp`` of a uniform draw in ``[log(low), log(high))`` (``low > 0``)."""

    low: Any
    high: Any


@dataclass(frozen=True)
class Normal:
    """A normal draw (``mean``, ``std``), clipped to the parameter's range."""

    mean: Any
    std: Any


@dataclass(frozen=True)
class Choice:
    """One of ``values`` (the same list for every env named), each equally likely."""

    values: Sequence[float]


Distribution = Uniform | LogUniform | Normal | Choice

# The dict form (for reset options and config files): {"uniform": [low, high]}.
_DICT_FORMS: dict[str, type] = {
    "uniform": Uniform,
    "log_uniform": LogUniform,
    "normal": Normal,
}


def task_params(spec: EnvSpec) -> dict[str, ParamInfo]:
    """The per-env parameters ``spec``'s task declares, in declaration order,
    with the spec's config values as defaults (empty for a task without any)."""
    declared = getattr(spec.entry.pool_class, "param_specs", None)
    if declared is None:
        return {}
    config = spec.env_config
    return {
        d["name"]: ParamInfo(
            d["name"], d["low"], d["high"], float(config[d["name"]]), d["mid_episode"]
        )
        for d in declared()
    }


def with_param_options(pool_class: Any, options: Mapping[str, Option]) -> dict[str, Option]:
    """A family's ``options`` plus a ranged float option for each per-env
    parameter of ``pool_class`` it does not declare itself (each parameter is
    also a config key; its range is the one the task declares in C++)."""
    table = dict(options)
    for p in pool_class.param_specs():
        table.setdefault(p["name"], Float(p["low"], p["high"], note="a per-env parameter"))
    return table


def with_built_param_options(pool_name: str, options: Mapping[str, Option]) -> dict[str, Option]:
    """:func:`with_param_options` for the C++ pool ``pool_name``, where this
    build has it (a family's tables are declared whether or not it is built)."""
    from envpool_x import _core

    pool_class = getattr(_core, pool_name, None)
    return dict(options) if pool_class is None else with_param_options(pool_class, options)


def scaled_arrays_extra(pool_name: str, config: Mapping[str, Any]) -> tuple[int, int]:
    """A family's ``config_extra`` (:class:`envpool_x.registration.FamilyMemory`)
    for the MuJoCo-based families: what one env's model copy takes when its
    config sets a per-env parameter other than 1 (the pool class's
    ``param_copy_bytes``: the scaled arrays, and a shallow ``mjModel`` where the
    env shares its task's model otherwise); (0, 0) when all are 1."""
    from envpool_x.families.mujoco_memory import scaled_model_bytes

    extra = scaled_model_bytes(pool_name, config)
    return extra, extra


def _per_env(name: str, what: str, value: Any, count: int) -> list[float]:
    """``value`` (a scalar or one per env named) as a list of floats: one
    value for all envs, or ``count`` values."""
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"parameter '{name}': {what} must be a number, got a bool")
    try:
        arr = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"parameter '{name}': {what} must be numbers, got {value!r}") from None
    if arr.ndim == 0:
        values = [float(arr)]
    elif arr.shape == (count,):
        values = arr.tolist()
    else:
        raise ValueError(
            f"parameter '{name}': {what} must be a scalar or have shape ({count},) (one per "
            f"env named), got shape {arr.shape}"
        )
    if not np.all(np.isfinite(values)):
        raise ValueError(f"parameter '{name}': {what} must be finite, got {value!r}")
    return values


def _from_dict(name: str, value: Mapping[str, Any]) -> Any:
    """The distribution of the dict form ``{"uniform": [low, high]}`` etc."""
    if len(value) != 1:
        raise ValueError(
            f"parameter '{name}': a distribution as a dict has one key (uniform, log_uniform, "
            f"normal or choice), got {sorted(value)}"
        )
    ((kind, args),) = value.items()
    if kind == "choice":
        return Choice(args)
    if kind not in _DICT_FORMS:
        raise ValueError(
            f"parameter '{name}': unknown distribution {kind!r}; known: uniform, log_uniform, "
            "normal, choice"
        )
    if not isinstance(args, Sequence) or len(args) != 2:
        raise ValueError(f"parameter '{name}': {kind} takes two values, got {args!r}")
    return _DICT_FORMS[kind](*args)


def encode(name: str, value: Any, count: int) -> tuple[int, list[float], list[float], list[float]]:
    """The C++ setting of one parameter for ``count`` envs: (draw code, a, b, choices).

    Raises:
        TypeError: a value that is not a number.
        ValueError: a bad shape, NaN or infinity, or an unknown distribution.
    """
    if isinstance(value, Mapping):
        value = _from_dict(name, value)
    if isinstance(value, Uniform | LogUniform):
        low = _per_env(name, "low", value.low, count)
        high = _per_env(name, "high", value.high, count)
        low, high = _same_length(low, high)
        return (_UNIFORM if isinstance(value, Uniform) else _LOG_UNIFORM, low, high, [])
    if isinstance(value, Normal):
        mean, std = _same_length(
            _per_env(name, "mean", value.mean, count), _per_env(name, "std", value.std, count)
        )
        return (_NORMAL, mean, std, [])
    if isinstance(value, Choice):
        choices = np.asarray(value.values, dtype=np.float64)
        if choices.ndim != 1 or choices.size == 0:
            raise ValueError(f"parameter '{name}': Choice takes a non-empty list of numbers")
        values = _per_env(name, "choices", choices, choices.size)
        return (_CHOICE, [0.0], [0.0], values)
    fixed = _per_env(name, "the value", value, count)
    return (_FIXED, fixed, [0.0] * len(fixed), [])


def _same_length(a: list[float], b: list[float]) -> tuple[list[float], list[float]]:
    """Broadcast one-value lists against per-env ones."""
    if len(a) == len(b):
        return a, b
    if len(a) == 1:
        return a * len(b), b
    return a, b * len(a)


def named_count(num_envs: int, env_ids: Any) -> int:
    """How many envs ``env_ids`` names (None: all)."""
    if env_ids is None:
        return num_envs
    return int(np.asarray(env_ids).size)


def set_params(
    pool: Any,
    num_envs: int,
    env_ids: Any,
    values: Mapping[str, Any],
    immediate: bool,
    require_idle: bool = False,
) -> None:
    """Check and send ``values`` to ``pool`` for ``env_ids`` (None: all envs);
    ``require_idle``: refuse (and change nothing) if an env has work in flight.

    Raises:
        NotImplementedError: a pool (backend) without per-env parameters.
        KeyError: an unknown parameter. TypeError / ValueError: a bad value,
            shape or range (nothing changes). RuntimeError: immediate=True for
            an env with work in flight or never reset.
    """
    if not hasattr(pool, "set_params"):
        raise NotImplementedError(
            "this backend has no per-env parameters yet (docs/params.md, 'Execution paths'): "
            "give the values as config keys when making the env"
        )
    if not isinstance(values, Mapping):
        raise TypeError(f"parameters must be a dict of name -> value, got {type(values).__name__}")
    if not values:
        return
    count = named_count(num_envs, env_ids)
    settings = {name: encode(name, value, count) for name, value in values.items()}
    pool.set_params(env_ids, settings, immediate, require_idle)


def get_params(pool: Any, names: Sequence[str], env_ids: Any = None) -> dict[str, np.ndarray]:
    """``{name: float64 array}``, one value per env of ``env_ids`` (None: all):
    the values each env runs with now."""
    if not hasattr(pool, "get_params"):
        raise NotImplementedError(
            "this backend has no per-env parameters yet (docs/params.md, 'Execution paths')"
        )
    table = pool.get_params(env_ids)
    return {name: table[:, k].copy() for k, name in enumerate(names)}


class ParamsMixin:
    """``set_params`` / ``get_params`` of the front ends (gymnasium, dm_env),
    over their ``_pool``, ``num_envs`` and ``spec``."""

    _pool: Any
    num_envs: int
    spec: Any
    _param_tables_made: bool = False  # by a first set_params (envpool_x.memory)

    @property
    def params(self) -> dict[str, ParamInfo]:
        """The task's per-env parameters (:class:`ParamInfo` by name)."""
        return dict(self.spec.params)

    def set_params(self, env_ids: Any = None, *, immediate: bool = False, **values: Any) -> None:
        """Give the envs in ``env_ids`` (None: all) new parameter values.

        Each value is a scalar (every env named), an array with one entry per
        env named, or a distribution (:class:`Uniform`, :class:`LogUniform`,
        :class:`Normal`, :class:`Choice`, or the dict form
        ``{"uniform": [low, high]}``) drawn at each of the env's resets from
        its own parameter stream. Values apply at each env's next reset (an
        env with work in flight: the first reset sent after its result is
        received); ``immediate=True`` applies plain values now, mid-episode,
        to envs that have no work in flight.

        Raises:
            KeyError: an unknown parameter. TypeError / ValueError: a value of
                the wrong type or shape, NaN, out of its range (the call then
                changes nothing). RuntimeError: ``immediate=True`` for an env
                with work in flight or not reset yet.
            NotImplementedError: a backend without per-env parameters.
            MemoryError: the first call, whose tables would not fit.
        """
        self._check_param_tables()
        set_params(self._pool, self.num_envs, env_ids, values, immediate)
        self._param_tables_made = True

    def _check_param_tables(self) -> None:
        """Before the first call that makes the parameter tables: MemoryError
        (changing nothing) if they would not fit (envpool_x.memory)."""
        if self._param_tables_made or not hasattr(self._pool, "set_params"):
            return
        if hasattr(self._pool, "check_param_tables"):  # a device pool's own tables
            self._pool.check_param_tables(self.spec)
            return
        from envpool_x import memory

        memory.check_param_tables(self.spec)

    def get_params(self, env_ids: Any = None) -> dict[str, np.ndarray]:
        """``{name: float64 array}``: the values each env of ``env_ids`` (None:
        all) runs with now. A value set for the next reset shows once that
        reset has happened; an env with work in flight may show the values its
        reset in progress has just drawn.

        Raises:
            NotImplementedError: a backend without per-env parameters.
        """
        return get_params(self._pool, list(self.spec.params), env_ids)


def params_info_names(spec: EnvSpec, pool: Any) -> list[str] | None:
    """The parameter names ``params_info=True`` reports, or None when it is off.

    Raises NotImplementedError (after closing ``pool``) on a device pool: its
    values live on the device, and reading them back at every step would be a
    synchronisation (``env.get_params()`` reads them when asked)."""
    if not spec.config.params_info:
        return None
    if not spec.backend.host_results or not hasattr(pool, "get_params"):
        pool.close()
        raise NotImplementedError(
            "params_info=True is for device='cpu' pools (a device pool would synchronise at "
            "every step to fill it); read env.get_params() when needed"
        )
    return list(spec.params)


def add_params_info(pool: Any, names: Sequence[str], result: Any) -> Any:
    """``result`` (a gymnasium 5-tuple) with ``info["params"]``: the values
    the returned envs run with (what ``params_info=True`` asks for)."""
    info = result[-1]
    info["params"] = get_params(pool, names, info["env_id"])
    return result


__all__ = [
    "Choice",
    "Distribution",
    "LogUniform",
    "Normal",
    "ParamInfo",
    "ParamsMixin",
    "Uniform",
    "get_params",
    "set_params",
    "task_params",
]
