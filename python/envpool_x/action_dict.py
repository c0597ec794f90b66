"""EnvPool's dict form of an action batch, ``{"env_id": ids, "players.env_id": ids,
"action": actions}``, as ``step`` / ``send`` of every front end accept it.

In EnvPool, ``players.env_id`` names the env of each row of ``action``: one row
per player, the players of all envs flattened. Our multi-agent tasks keep the
agents on their own axis (``(n, num_agents, ...)``), so EnvPool's flat rows are
accepted where ``players.env_id`` says they are every agent of each env, in
order, and reshaped to that axis (docs/multi_agent.md).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from envpool_x.backends.arrays import host_ids

_KEYS = ("env_id", "players.env_id", "action")


def unpack_action(
    actions: Any, env_id: Any, num_agents: int = 1, num_envs: int | None = None
) -> tuple[Any, Any]:
    """``(actions, env_id)`` from EnvPool's dict form; anything else unchanged.

    ``players.env_id`` (when given) must name each env's players in env order:
    with one agent per env it repeats the env ids row for row; with
    ``num_agents > 1`` it lists each env id ``num_agents`` times, flat (EnvPool's
    layout) or as ``(n, num_agents)``. Then an action of ``n * num_agents``
    player rows (EnvPool's layout) is reshaped to ``(n, num_agents, ...)``.
    Without env ids the action is for all ``num_envs`` envs.

    Raises:
        ValueError: no ``action`` key, an unknown key, env ids given both in
            the dict and as ``env_id``, or ``players.env_id`` that does not
            name every agent of each env in order.
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
    action = actions["action"]
    players = actions.get("players.env_id")
    if players is None:
        return action, ids
    players = np.asarray(host_ids(players))
    if num_agents == 1:
        if ids is not None:
            expected = np.asarray(host_ids(ids))
        else:
            expected = np.arange(num_envs if num_envs is not None else len(players))
        if players.shape != expected.shape or not np.array_equal(players, expected):
            raise ValueError(
                "players.env_id must equal env_id row for row: this task has one agent per env"
            )
        return action, ids
    flat = players.reshape(-1)
    if ids is not None:
        env_ids = np.asarray(host_ids(ids)).reshape(-1)
    else:
        env_ids = np.arange(num_envs if num_envs is not None else flat.size // num_agents)
    expected = np.repeat(env_ids, num_agents)
    if flat.shape != expected.shape or not np.array_equal(flat, expected):
        raise ValueError(
            f"players.env_id must list each env id {num_agents} times (this task has "
            f"{num_agents} agents per env, all stepped together), in env order: expected "
            f"{expected.tolist()[:12]}{' ...' if expected.size > 12 else ''}, got "
            f"{flat.tolist()[:12]}{' ...' if flat.size > 12 else ''}"
        )
    shape = tuple(getattr(action, "shape", np.shape(action)))
    n = env_ids.size
    if shape and n > 0 and shape[0] == n * num_agents:
        action = _reshape(action, (n, num_agents, *shape[1:]))
    return action, ids


def _reshape(action: Any, shape: tuple[int, ...]) -> Any:
    """``action`` reshaped: an array of any array library (numpy, torch, JAX,
    CuPy) keeps its type; anything else becomes a numpy array."""
    if hasattr(action, "reshape") and hasattr(action, "shape"):
        return action.reshape(shape)
    return np.asarray(action).reshape(shape)
