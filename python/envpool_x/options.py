"""Declared valid ranges of env options, checked when a spec is made.

A family declares, per C++ pool, an :class:`OptionTable` (``Family.options``):
one :class:`Option` per env key (its type and valid range) and the relations
between keys (``min <= max``, a start position inside the grid, two keys that
must agree). :func:`check_options` checks a merged config against it before
the family's ``resolve`` runs and before C++ sees the values, so a bad value is
a ``TypeError`` (wrong type) or ``ValueError`` (NaN, out of range, a
contradiction) that names the task, the key, the value and the valid range,
rather than a value that C++ narrows, wraps or silently ignores.

This module imports nothing of the package: the registry and the families use it.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

#: A relation between keys: called with (task id, merged config, the keys the
#: user gave); raises ValueError naming the keys when they contradict.
Relation = Callable[[str, Mapping[str, Any], frozenset[str]], None]


def _is_int(value: Any) -> bool:
    return isinstance(value, (numbers.Integral, np.integer)) and not isinstance(
        value, (bool, np.bool_)
    )


def _is_number(value: Any) -> bool:
    return isinstance(value, (numbers.Real, np.integer, np.floating)) and not isinstance(
        value, (bool, np.bool_)
    )


def _fmt(bound: float | None, default: str) -> str:
    if bound is None:
        return default
    return str(int(bound)) if float(bound).is_integer() and abs(bound) < 2**53 else str(bound)


@dataclass(frozen=True)
class Option:
    """The type and valid range of one env option.

    Attributes:
        kind: ``"int"``, ``"float"`` (ints accepted), ``"bool"``, ``"choice"``
            (one of ``choices``), ``"text"`` (any str: a path, a spec string),
            ``"ints"`` / ``"floats"`` (a sequence of numbers, each in
            [low, high], ``"ints"`` requiring whole numbers), or ``"any"``
            (checked by the family's resolve function).
        low, high: the inclusive bounds of a number (or of each element).
        choices: the valid strings of a ``"choice"``.
        length: the inclusive range of a sequence's length.
        odd: an ``"int"`` must be odd.
        finite: a ``"float"`` (or each number of ``"floats"``) must be finite;
            NaN is never accepted.
        exclusive: whether ``low`` and ``high`` themselves are outside the
            range (``(True, True)``: the open interval).
        optional: None is also valid (the family's resolve gives it a meaning).
        note: a few words on what the option means, for messages; for an
            ``"any"`` option, what its family's relations check.
    """

    kind: str
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] = ()
    length: tuple[int, int] | None = None
    odd: bool = False
    finite: bool = True
    exclusive: tuple[bool, bool] = (False, False)
    optional: bool = False
    note: str = ""

    def describe(self) -> str:
        """The valid values in words (``"an int in [1, 46340]"``)."""
        text = self._describe_value()
        return f"{text} or None" if self.optional else text

    def summary(self) -> str:
        """:meth:`describe` with the note (what ``envpool-x info`` shows)."""
        if self.kind == "any":
            return self.describe()
        return f"{self.describe()} ({self.note})" if self.note else self.describe()

    def _describe_value(self) -> str:
        opening = "(" if self.exclusive[0] else "["
        closing = ")" if self.exclusive[1] else "]"
        span = f"{opening}{_fmt(self.low, '-inf')}, {_fmt(self.high, 'inf')}{closing}"
        if self.kind == "int":
            return f"{'an odd' if self.odd else 'an'} int in {span}"
        if self.kind == "float":
            where = "" if self.low is None and self.high is None else f" in {span}"
            return f"a {'finite ' if self.finite else ''}number{where}"
        if self.kind == "bool":
            return "a bool"
        if self.kind == "choice":
            return f"one of {list(self.choices)}"
        if self.kind == "text":
            return "a str"
        if self.kind in ("ints", "floats"):
            count = " of"
            if self.length is not None:
                lo, hi = self.length
                count = f" of {lo}" if lo == hi else f" of {lo} to {hi}"
            whole = "whole " if self.kind == "ints" else ""
            inf = "" if self.finite else " (inf allowed)"
            return f"a list{count} {whole}numbers{inf}, each in {span}"
        return self.note or "any value"

    def check(self, task_id: str, key: str, value: Any) -> None:
        """Raise TypeError / ValueError if ``value`` is not valid for ``key``."""
        if self.kind == "any" or (self.optional and value is None):
            return
        want = self.describe()
        note = f" ({self.note})" if self.note else ""

        def type_error() -> TypeError:
            return TypeError(
                f"{task_id}: {key} must be {want}{note}, got {type(value).__name__} ({value!r})"
            )

        def range_error(what: str = "") -> ValueError:
            why = f" ({what})" if what else ""
            return ValueError(f"{task_id}: {key} must be {want}{note}, got {value!r}{why}")

        if self.kind == "bool":
            if not isinstance(value, (bool, np.bool_)):
                raise type_error()
        elif self.kind in ("choice", "text"):
            if not isinstance(value, str):
                raise type_error()
            if self.kind == "choice" and value not in self.choices:
                raise range_error()
        elif self.kind == "int":
            if not _is_int(value):
                raise type_error()
            if not self._in_range(float(value)) or (self.odd and int(value) % 2 == 0):
                raise range_error()
        elif self.kind == "float":
            if not _is_number(value):
                raise type_error()
            if math.isnan(float(value)):
                raise range_error("NaN")
            if self.finite and math.isinf(float(value)):
                raise range_error("not finite")
            if not self._in_range(float(value)):
                raise range_error()
        elif self.kind in ("ints", "floats"):
            self._check_sequence(task_id, key, value, want + note, type_error)
        else:
            raise AssertionError(f"unknown option kind {self.kind!r}")

    def _in_range(self, v: float) -> bool:
        above = self.low is None or (v > self.low if self.exclusive[0] else v >= self.low)
        below = self.high is None or (v < self.high if self.exclusive[1] else v <= self.high)
        return above and below

    def _check_sequence(
        self, task_id: str, key: str, value: Any, want: str, type_error: Callable[[], TypeError]
    ) -> None:
        if isinstance(value, (str, bytes)) or not isinstance(value, (Sequence, np.ndarray)):
            raise type_error()
        items = list(np.asarray(value).ravel()) if isinstance(value, np.ndarray) else list(value)
        if self.length is not None and not self.length[0] <= len(items) <= self.length[1]:
            raise ValueError(
                f"{task_id}: {key} has {len(items)} values: it must be {want}, got {value!r}"
            )
        for i, item in enumerate(items):
            if not _is_number(item):
                raise TypeError(
                    f"{task_id}: {key}[{i}] must be a number ({key}: {want}), "
                    f"got {type(item).__name__} ({item!r})"
                )
            v = float(item)
            whole = self.kind != "ints" or v.is_integer()
            finite = math.isfinite(v) or not (self.finite or math.isnan(v))
            if not finite or not whole or not self._in_range(v):
                raise ValueError(f"{task_id}: {key}[{i}]={item!r} is not valid: {key} is {want}")


def Int(low: float | None = None, high: float | None = None, **kw: Any) -> Option:  # noqa: N802
    """An int option in [low, high]."""
    return Option("int", low, high, **kw)


def Float(low: float | None = None, high: float | None = None, **kw: Any) -> Option:  # noqa: N802
    """A number option in [low, high] (finite unless ``finite=False``; never NaN)."""
    return Option("float", low, high, **kw)


def Ints(low: float | None = None, high: float | None = None, **kw: Any) -> Option:  # noqa: N802
    """A list of whole numbers, each in [low, high] (``length``: how many)."""
    return Option("ints", low, high, **kw)


def Floats(low: float | None = None, high: float | None = None, **kw: Any) -> Option:  # noqa: N802
    """A list of numbers, each in [low, high] (``length``: how many); finite
    unless ``finite=False`` (then -inf / inf are valid too, NaN never)."""
    return Option("floats", low, high, **kw)


BOOL = Option("bool")
TEXT = Option("text")
ANY = Option("any")


def Choice(*choices: str, **kw: Any) -> Option:  # noqa: N802
    """A str option, one of ``choices``."""
    return Option("choice", choices=choices, **kw)


@dataclass(frozen=True)
class OptionTable:
    """What a pool's env options may be: one :class:`Option` per key and the
    relations between keys (functions raising ValueError on a contradiction)."""

    options: Mapping[str, Option]
    relations: tuple[Relation, ...] = field(default=())


def check_options(
    task_id: str, table: OptionTable, config: Mapping[str, Any], given: frozenset[str]
) -> None:
    """Check ``config``'s env options against ``table``: each key's type and
    range, then the relations (``given``: the keys the user set, for relations
    between a key and another's default).

    Raises:
        TypeError: a value of the wrong type.
        ValueError: NaN, out of range, or contradicting another key.
    """
    for key, option in table.options.items():
        if key in config:
            option.check(task_id, key, config[key])
    for relation in table.relations:
        relation(task_id, config, given)


def same_value(a: Any, b: Any) -> bool:
    """Whether two option values are equal, a list and a tuple (or array) of
    the same items included (``(-1.0, 1.0)`` given for the default ``[-1.0, 1.0]``)."""
    seq = (list, tuple, np.ndarray)
    if isinstance(a, seq) or isinstance(b, seq):
        if not (isinstance(a, seq) and isinstance(b, seq)) or np.ndim(a) == 0 or np.ndim(b) == 0:
            return False
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


INT64 = (-(2**63), 2**63 - 1)


def check_env_types(task_id: str, defaults: Mapping[str, Any], config: Mapping[str, Any]) -> None:
    """Check the env keys that C++'s conversion would take wrongly, for every
    task (declared ranges or not): a bool key given another int than 0 / 1
    (C++ would read 2 as True), an int key past int64, a number key given an
    array (C++'s cast fails naming no key). C++ checks the other types itself,
    with the same ``config key '<key>' expects ...`` words.

    Raises:
        TypeError: a value of the wrong type; ValueError: an int past int64.
    """
    for key, default in defaults.items():
        if key not in config:
            continue
        value = config[key]
        got = type(value).__name__
        if isinstance(value, np.ndarray):
            got += f" of shape {value.shape}"
        if isinstance(default, bool):
            if _is_int(value) and value not in (0, 1):
                raise TypeError(
                    f"{task_id}: config key '{key}' expects a bool, got {got} ({value!r})"
                )
        elif isinstance(default, int):
            if _is_int(value) and not INT64[0] <= int(value) <= INT64[1]:
                raise ValueError(
                    f"{task_id}: config key '{key}' expects an int, got {value} (outside int64)"
                )
        elif isinstance(default, float):
            if isinstance(value, np.ndarray) and value.ndim > 0:
                raise TypeError(f"{task_id}: config key '{key}' expects a number, got {got}")


def ordered(low_key: str, high_key: str) -> Relation:
    """A relation: ``config[low_key] <= config[high_key]`` (a range the user
    could give inverted)."""

    def check(task_id: str, config: Mapping[str, Any], given: frozenset[str]) -> None:
        if config[low_key] > config[high_key]:
            raise ValueError(
                f"{task_id}: {low_key}={config[low_key]!r} is above {high_key}="
                f"{config[high_key]!r}: the range is inverted ({low_key} <= {high_key} needed)"
            )

    return check


def ordered_pair(key: str) -> Relation:
    """A relation: ``config[key]`` is a (low, high) pair with ``low <= high``
    (a range given as one list, which the user could give inverted)."""

    def check(task_id: str, config: Mapping[str, Any], given: frozenset[str]) -> None:
        low, high = (float(v) for v in config[key])
        if low > high:
            raise ValueError(
                f"{task_id}: {key}={config[key]!r} is inverted: its low {low} is above its "
                f"high {high} (a (low, high) pair with low <= high needed)"
            )

    return check


__all__ = [
    "ANY",
    "BOOL",
    "TEXT",
    "Choice",
    "Float",
    "Floats",
    "Int",
    "Ints",
    "Option",
    "OptionTable",
    "Relation",
    "check_env_types",
    "check_options",
    "ordered",
    "ordered_pair",
    "same_value",
]
