"""RLlib (new API stack) with envpool_x pools as the env runners' vector envs.

RLlib's ``SingleAgentEnvRunner`` builds its env with ``gymnasium.make_vec(env,
num_envs=num_envs_per_env_runner, vectorization_mode=gym_env_vectorize_mode,
**env_config)``. With ``env="envpool_x:envpool_x/<id>"`` (gymnasium's
``module:id`` form imports envpool_x in the runner's process, which registers
the ids) and ``gym_env_vectorize_mode="vector_entry_point"``, each env runner
steps one envpool_x pool of ``num_envs_per_env_runner`` envs; ``env_config``
takes any envpool_x config key. :func:`configure_env_runners` sets exactly that.

Atari observations are channel-first ``(stack, H, W)`` (EnvPool's layout);
RLlib's CNN encoders read float images channel-last, so Atari runs add the
:class:`ChannelsLastObservation` env-to-module connector (transpose, and uint8 to
float32 in [0, 1]).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from ray.rllib.connectors.env_to_module.observation_preprocessor import (
    SingleAgentObservationPreprocessor,
)

from envpool_x.gymnasium_registry import NAMESPACE
from envpool_x.registration import lookup


def rllib_env_id(task_id: str) -> str:
    """The ``config.environment(env=...)`` string of an envpool_x task.

    Raises:
        KeyError: unknown task id.
    """
    lookup(task_id)
    return f"envpool_x:{NAMESPACE}/{task_id}"


def configure_env_runners(
    config: Any,
    task_id: str,
    num_envs_per_env_runner: int,
    env_config: dict[str, Any] | None = None,
    **env_runners: Any,
) -> Any:
    """Point an RLlib ``AlgorithmConfig`` at envpool_x pools of ``task_id``.

    Sets ``environment(env="envpool_x:envpool_x/<task_id>", env_config=...)``
    and ``env_runners(num_envs_per_env_runner=..., gym_env_vectorize_mode=
    "vector_entry_point", **env_runners)``; for an Atari task (channel-first
    image observations) also the :class:`ChannelsLastObservation` connector.

    Args:
        config: an ``AlgorithmConfig`` (e.g. ``PPOConfig()``); changed in place.
        task_id: an envpool_x id, such as ``"CartPole-v1"`` or ``"Pong-v5"``.
        num_envs_per_env_runner: envs in each runner's pool.
        env_config: envpool_x config keys (``num_threads``, ``seed``, env keys);
            ``num_threads`` defaults to the runner's ``num_cpus_per_env_runner``.
        **env_runners: more ``config.env_runners(...)`` arguments
            (``num_env_runners``, ``rollout_fragment_length``, ...).

    Returns:
        ``config``, for chaining.

    Raises:
        KeyError: unknown task id.
    """
    env_config = dict(env_config or {})
    cpus = env_runners.get("num_cpus_per_env_runner", config.num_cpus_per_env_runner)
    env_config.setdefault("num_threads", max(1, int(cpus)))
    config.environment(env=rllib_env_id(task_id), env_config=env_config)
    if lookup(task_id).family == "atari":
        env_runners.setdefault("env_to_module_connector", _channels_last_connector)
    config.env_runners(
        num_envs_per_env_runner=num_envs_per_env_runner,
        gym_env_vectorize_mode="vector_entry_point",
        **env_runners,
    )
    return config


class ChannelsLastObservation(SingleAgentObservationPreprocessor):  # type: ignore[misc]
    """Env-to-module connector: a channel-first uint8 image ``(C, H, W)`` becomes
    a float32 ``(H, W, C)`` image scaled to [0, 1], what RLlib's CNN encoders
    take (a uint8 tensor would reach torch's conv layers as is and fail)."""

    def recompute_output_observation_space(
        self, input_observation_space: gymnasium.Space, input_action_space: gymnasium.Space
    ) -> gymnasium.Space:
        """The ``(H, W, C)`` float32 Box in [0, 1] of a ``(C, H, W)`` Box.

        Raises:
            ValueError: the observation space is not a 3-d Box.
        """
        space = input_observation_space
        if not isinstance(space, gymnasium.spaces.Box) or len(space.shape) != 3:
            raise ValueError(
                f"ChannelsLastObservation needs a (C, H, W) Box observation space, got {space}"
            )
        channels, height, width = space.shape
        return gymnasium.spaces.Box(0.0, 1.0, (height, width, channels), dtype=np.float32)

    def preprocess(self, observation: Any, episode: Any) -> Any:
        """One observation, channel-first uint8 to channel-last float32 in [0, 1]."""
        return np.transpose(observation, (1, 2, 0)).astype(np.float32) / np.float32(255.0)


def _channels_last_connector(env: Any, spaces: Any = None, device: Any = None) -> Any:
    return ChannelsLastObservation()
