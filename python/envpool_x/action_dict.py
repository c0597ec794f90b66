"""EnvPool's dict form of an action batch, ``{"env_id": ids, "players.env_id": ids,
"action": actions}``, as ``step`` / ``send`` of every front end accept it."""

from __future__ import annotations

from typing import Any

import numpy as np

_KEYS = ("env_id", "players.env_id", "action")


def unpack_action(actions: Any, env_id: Any) -> tuple[Any, Any]:
    """``(actions, env_id)`` from EnvPool's dict form; anything else unchanged.

    Every registered task has one agent per env, so ``players.env_id`` (when
    given) must repeat the env ids row for row.

    Raises:
        ValueError: no ``action`` key, an unknown key, env ids given both in
            the dict and as ``env_id``, or ``players.env_id`` that differs
            from the env ids.
    """
    if not isinstance(actions, dict):
        return actions, env_id
    unknown = sorted(set(actions) - set(_KEYS))
    if unknown or "action" not in actions:
        raise ValueError(
            f"an action dict takes the keys {list(_KEYS)} ('action' required, EnvPool's form), "
            f"got {sorted(actions)}"
        )
    ids = actions.get("env_id")
    if ids is not None and env_id is not None:
        raise ValueError("env ids given twice: in the action dict and as env_id")
    ids = env_id if ids is None else ids
    players = actions.get("players.env_id")
    if players is not None:
        players = np.asarray(players)
        expected = np.arange(len(players)) if ids is None else np.asarray(ids)
        if players.shape != expected.shape or not np.array_equal(players, expected):
            raise ValueError(
                "players.env_id must equal env_id row for row: every envpool_x task has one "
                "agent per env"
            )
    return actions["action"], ids
