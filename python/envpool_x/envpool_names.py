"""EnvPool's config keys that a task has under another name, or as behaviour
it fixes: how ``make_spec`` takes them and reports them back.

EnvPool names some options of the tasks both projects have differently
(``healthy_z_min`` / ``healthy_z_max`` where gymnasium has ``healthy_z_range``),
or has options for behaviour that a task here fixes (a frame stack, a choice
between two versions' rules). A family declares, per C++ pool, an
:class:`EnvPoolNames` table (``Family.envpool_names``) with one entry per such
key of EnvPool's:

- :class:`Alias`: EnvPool's name of one of the task's keys, or of one end of a
  (low, high) pair. The value is translated into that key before anything is
  checked (so the task's declared range applies); giving both names with
  different values is refused.
- :class:`Fixed`: a key whose value the task fixes. That value is accepted (and
  any other that behaves the same with the given config); another is refused
  with what the task implements and what to do instead.
- :class:`Unsupported`: a key that means nothing here: a KeyError that says why
  and what to do instead.

``spec.config`` reports every alias and fixed key under EnvPool's name too,
with the value the task runs with (``spec.config.healthy_z_min`` is
``healthy_z_range[0]``), so EnvPool code reading its keys back works, and a
config read back is accepted again. An entry never shadows a key of the task:
a key the task has is the task's.

This module imports nothing of the package but :mod:`envpool_x.options`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from envpool_x.options import same_value


def _given(value: Any, current: Any) -> Any:
    return value


def _unchanged(value: Any) -> Any:
    return value


@dataclass(frozen=True)
class Alias:
    """EnvPool's name of the task's key ``target``.

    Attributes:
        target: the task's key.
        to_ours: (EnvPool's value, the target's current value) -> the target's
            new value; by default the value itself (a plain rename).
        from_ours: the target's value -> EnvPool's (what ``spec.config`` reports).
        what: what EnvPool's key is of the target, for messages (``"the low end of"``).
    """

    target: str
    to_ours: Callable[[Any, Any], Any] = _given
    from_ours: Callable[[Any], Any] = _unchanged
    what: str = ""


def low_end(target: str) -> Alias:
    """EnvPool's name of the low end of the (low, high) pair ``target``."""
    return Alias(target, lambda v, pair: [v, pair[1]], lambda pair: pair[0], "the low end of ")


def high_end(target: str) -> Alias:
    """EnvPool's name of the high end of the (low, high) pair ``target``."""
    return Alias(target, lambda v, pair: [pair[0], v], lambda pair: pair[1], "the high end of ")


@dataclass(frozen=True)
class Fixed:
    """A key of EnvPool's whose value the task fixes.

    Attributes:
        value: the value the task runs with (accepted; ``spec.config`` reports it).
        why: what the task implements, and what to do for the other behaviour.
        same_with: (a value, the merged config) -> whether that value behaves
            as ``value`` with this config (a switch nothing reads); None: never.
    """

    value: Any
    why: str
    same_with: Callable[[Any, Mapping[str, Any]], bool] | None = None

    def accepts(self, value: Any, config: Mapping[str, Any]) -> bool:
        """Whether ``value`` (with ``config``) is the task's behaviour; a bool
        is never a number here (``frame_stack=True`` is not 1)."""
        is_bool = isinstance(value, (bool, np.bool_))
        if is_bool == isinstance(self.value, bool) and same_value(value, self.value):
            return True
        return self.same_with is not None and self.same_with(value, config)


@dataclass(frozen=True)
class Unsupported:
    """A key of EnvPool's with no meaning here; ``why``: why, and what to do instead."""

    why: str


Entry = Alias | Fixed | Unsupported

#: EnvPool's keys that every task of its takes; a family's own entry wins.
COMMON_ENTRIES: Mapping[str, Entry] = {
    "base_path": Unsupported(
        "it is the folder of EnvPool's installed files (ROMs, models); envpool_x's tasks read "
        "theirs from the packages that ship them (ale-py's ROMs, gymnasium's and dm-control's "
        "models), so leave it out (a model of your own: the MuJoCo tasks' xml_file)"
    ),
}


@dataclass(frozen=True)
class EnvPoolNames:
    """EnvPool's keys one pool's tasks take beside their own (see the module docstring)."""

    entries: Mapping[str, Entry] = field(default_factory=dict)

    def take(self, task_id: str, config: Mapping[str, Any], own: Any) -> dict[str, Any]:
        """EnvPool's keys among ``config``'s that are not the task's own (``own``).

        Raises:
            KeyError: an :class:`Unsupported` key, saying why.
        """
        entries = {**COMMON_ENTRIES, **self.entries}
        theirs = {k: v for k, v in config.items() if k in entries and k not in own}
        for key in theirs:
            entry = entries[key]
            if isinstance(entry, Unsupported):
                raise KeyError(
                    f"{task_id}: {key!r} is an EnvPool config key that does not apply here: "
                    f"{entry.why}"
                )
        return theirs

    def translate(
        self, task_id: str, theirs: Mapping[str, Any], config: dict[str, Any], given: frozenset[str]
    ) -> frozenset[str]:
        """Write each alias of ``theirs`` into its target in ``config`` and
        return the targets set (``given``: the keys the user gave).

        Raises:
            ValueError: an alias contradicts its target, also given.
        """
        targets: set[str] = set()
        for key, value in theirs.items():
            entry = self.entries[key]
            if not isinstance(entry, Alias):
                continue
            before = config[entry.target]
            after = entry.to_ours(value, before)
            if entry.target in given and not same_value(after, before):
                raise ValueError(
                    f"{task_id}: {key}={value!r} (EnvPool's name of {entry.what}{entry.target}) "
                    f"contradicts {entry.target}={before!r}: give one of the two names"
                )
            config[entry.target] = after
            targets.add(entry.target)
        return frozenset(targets)

    def explain(self, error: Exception, theirs: Mapping[str, Any]) -> Exception:
        """``error`` (a refused value of a key) naming the EnvPool keys that set it."""
        names = [
            f"{key}={value!r}"
            for key, value in theirs.items()
            if isinstance(entry := self.entries[key], Alias) and entry.target in str(error)
        ]
        if not names:
            return error
        return type(error)(f"{error} (set from EnvPool's {', '.join(names)})")

    def check(self, task_id: str, theirs: Mapping[str, Any], config: Mapping[str, Any]) -> None:
        """Check the :class:`Fixed` keys of ``theirs`` against the merged ``config``.

        Raises:
            ValueError: a value other than the task's behaviour.
        """
        for key, value in theirs.items():
            entry = self.entries[key]
            if isinstance(entry, Fixed) and not entry.accepts(value, config):
                raise ValueError(
                    f"{task_id}: EnvPool's {key}={value!r} is not supported here (only "
                    f"{key}={entry.value!r}): {entry.why}"
                )

    def read_back(self, config: Mapping[str, Any]) -> dict[str, Any]:
        """EnvPool's keys with the values the task runs with, for ``spec.config``."""
        out: dict[str, Any] = {}
        for key, entry in self.entries.items():
            if key in config:  # the task's own key
                continue
            if isinstance(entry, Alias):
                out[key] = entry.from_ours(config[entry.target])
            elif isinstance(entry, Fixed):
                out[key] = entry.value
        return out


__all__ = ["Alias", "EnvPoolNames", "Fixed", "Unsupported", "high_end", "low_end"]
