"""PettingZoo's ``ParallelEnv`` view of one env of a multi-agent task
(:func:`envpool_x.make_pettingzoo`; docs/multi_agent.md).

A thin layer over a one-env pool: dicts keyed by agent name in, rows of the
pool's ``(1, num_agents, ...)`` arrays out. An agent that leaves the game (a
tagged runner, with ``runner_exits_game_after_tagged``) is terminated in the
step it leaves and is not in ``agents`` afterwards; every agent ends with the
episode.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

from envpool_x.gymnasium_env import GymnasiumEnvPool
from envpool_x.spec import make_spec


def agent_names(env_config: dict[str, Any], num_agents: int) -> list[str]:
    """Agent k's name: ``tagger_<k>`` for the first ``num_taggers`` agents,
    then ``runner_<j>`` (WarpDrive's order: taggers, then runners), or
    ``agent_<k>`` for a task without taggers."""
    if "num_taggers" not in env_config:
        return [f"agent_{k}" for k in range(num_agents)]
    taggers = int(env_config["num_taggers"])
    return [f"tagger_{k}" for k in range(taggers)] + [
        f"runner_{j}" for j in range(num_agents - taggers)
    ]


class ParallelPoolEnv(ParallelEnv):  # type: ignore[misc]
    """One env of a multi-agent task as a PettingZoo ``ParallelEnv``."""

    metadata: dict[str, Any] = {"render_modes": [], "is_parallelizable": True}

    def __init__(self, task_id: str, **config: Any) -> None:
        for key in ("num_envs", "batch_size", "autoreset_mode"):
            if key in config:
                raise ValueError(f"make_pettingzoo makes one env: {key!r} is not a key here")
        spec = make_spec(task_id, num_envs=1, autoreset_mode="disabled", **config)
        if spec.num_agents < 2:  # before any pool is built
            raise ValueError(
                f"make_pettingzoo needs a multi-agent task, but {task_id} has one agent per "
                f"env: use envpool_x.make_gymnasium({task_id!r}, ...)"
            )
        self._pool = GymnasiumEnvPool(spec)
        self.metadata = dict(self.metadata, name=task_id)
        self.possible_agents: list[str] = agent_names(spec.env_config, spec.num_agents)
        self.agents: list[str] = []
        self._index = {name: k for k, name in enumerate(self.possible_agents)}
        self.observation_spaces: dict[str, spaces.Space[Any]] = dict.fromkeys(
            self.possible_agents, spec.agent_observation_space
        )
        self.action_spaces: dict[str, spaces.Space[Any]] = dict.fromkeys(
            self.possible_agents, spec.agent_action_space
        )
        shape = spec.action_space.shape or ()
        self._action = np.zeros((1, *shape), dtype=np.int32)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """One agent's observation space (the same for every agent)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """One agent's action space (the same for every agent)."""
        return self.action_spaces[agent]

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        """Start an episode (re-seeded with ``seed`` when given).

        Returns:
            ``(observations, infos)`` keyed by agent name.
        """
        obs, _ = self._pool.reset(seed=seed)
        self.agents = list(self.possible_agents)
        return (
            {a: obs[0, k] for k, a in enumerate(self.agents)},
            {a: {} for a in self.agents},
        )

    def step(self, actions: dict[str, Any]) -> tuple[dict[str, Any], ...]:
        """Step with one action per live agent (missing agents take action 0).

        Returns:
            ``(observations, rewards, terminations, truncations, infos)`` for
            the agents live before this step.

        Raises:
            KeyError: an action for an agent that is not live.
            ValueError: an action out of range (named by env and agent).
        """
        if not self.agents:
            raise RuntimeError("the episode is over: call reset() first")
        self._action[...] = 0
        for name, value in actions.items():
            if name not in self.agents:
                raise KeyError(f"{name!r} is not a live agent of this env: {self.agents}")
            self._action[0, self._index[name]] = value
        obs, rew, term, trunc, info = self._pool.step(self._action)
        active = info["active"][0]
        live = self.agents
        out_obs = {a: obs[0, self._index[a]] for a in live}
        rewards = {a: float(rew[0, self._index[a]]) for a in live}
        terminations = {a: bool(term[0]) or not active[self._index[a]] for a in live}
        truncations = {a: bool(trunc[0]) for a in live}
        infos: dict[str, dict[str, Any]] = {a: {} for a in live}
        self.agents = [a for a in live if not (terminations[a] or truncations[a])]
        return out_obs, rewards, terminations, truncations, infos

    def close(self) -> None:
        """Close the underlying pool."""
        self._pool.close()


def make_pettingzoo(task_id: str, **config: Any) -> ParallelPoolEnv:
    """One env of a multi-agent task as a PettingZoo ``ParallelEnv``, agents
    named as WarpDrive orders them (``tagger_0``..., then ``runner_0``...).

    Raises:
        KeyError / ValueError / TypeError: as :func:`envpool_x.make_gymnasium`;
            ValueError too for a single-agent task (at once, before any pool).
    """
    return ParallelPoolEnv(task_id, **config)
