"""Relations between env options that several families declare
(:mod:`envpool_x.options`), comparing a value with the task's own default.

A value that a switch makes unused (Taxi's ``rainy_probability`` without
``is_rainy``, LunarLander's ``wind_power`` without ``enable_wind``) and a key
that the task id fixes (Atari's ``task``, the DeepMind Control ``task_name``)
are refused when given with another value than the task's: left alone, the env
would ignore it silently, or run another task under the id's name. The task's
value given again stays accepted (gymnasium's examples pass every keyword).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from envpool_x.options import Relation, same_value
from envpool_x.registration import lookup


def task_defaults(task_id: str) -> dict[str, Any]:
    """The env keys of ``task_id`` with its defaults: its pool's, then its own."""
    entry = lookup(task_id)
    return {**entry.pool_class.default_config(), **entry.env_defaults}


def unused_unless(flag: str, keys: tuple[str, ...], why: str, when: bool = True) -> Relation:
    """A relation: each of ``keys`` given with another value than the task's
    default needs ``config[flag] == when`` (otherwise the env never reads it).

    Args:
        flag: the bool key that switches ``keys`` on.
        keys: the keys read only when ``flag`` is ``when``.
        why: what ``flag`` does, for the message (``"the wind blows only with
            enable_wind=True"``).
        when: the value of ``flag`` that makes the env read ``keys``.
    """

    def check(task_id: str, config: Mapping[str, Any], given: frozenset[str]) -> None:
        if bool(config[flag]) == when:
            return
        defaults = task_defaults(task_id)
        for key in keys:
            if key in given and not same_value(config[key], defaults[key]):
                raise ValueError(
                    f"{task_id}: {key}={config[key]!r} would be ignored with "
                    f"{flag}={config[flag]!r} ({why}); give {flag}={when!r} too, or leave "
                    f"{key} at {defaults[key]!r}"
                )

    return check


def fixed_by_task_id(key: str, id_of: Callable[[Any], str | None]) -> Relation:
    """A relation: ``key`` keeps the task id's value (given again, it is accepted).

    Args:
        key: the key the id fixes (the game, the task of a domain).
        id_of: the task id of another value of ``key``, for the message (None:
            no registered id has it).
    """

    def check(task_id: str, config: Mapping[str, Any], given: frozenset[str]) -> None:
        own = task_defaults(task_id)[key]
        value = config[key]
        if key not in given or same_value(value, own):
            return
        other = id_of(value)
        hint = f"make {other} instead" if other else "no registered id has it"
        raise ValueError(
            f"{task_id}: {key}={value!r} contradicts the task id, whose {key} is {own!r}; {hint}"
        )

    return check


__all__ = ["fixed_by_task_id", "same_value", "task_defaults", "unused_unless"]
