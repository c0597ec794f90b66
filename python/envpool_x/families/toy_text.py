"""Toy text: gymnasium 1.4's ids (FrozenLake, Taxi, CliffWalking, Blackjack) and
EnvPool's Taxi-v3, CliffWalking-v0, Catch-v0 and NChain-v0.

gymnasium registers CliffWalking and Blackjack without a time limit, EnvPool
Catch likewise: they get NO_TIME_LIMIT; Blackjack and Catch episodes end by
themselves within a few steps.
"""

from __future__ import annotations

from typing import Any

from envpool_x.registration import NO_TIME_LIMIT, Family, declare_family, register
from envpool_x.render.toy_text import toy_text_drawer

declare_family(Family("toy_text", renderer=toy_text_drawer))


def _frozen_lake_random_map(config: dict[str, Any]) -> None:
    """gymnasium's ``map_name=None`` (without desc): a random 8x8 map from
    gymnasium's own generator, seeded by the pool's seed so that a config
    reproduces its map. One map serves the whole pool."""
    if config.get("desc") is None:
        config["desc"] = []
    if config.get("map_name") is not None:
        return
    if len(config["desc"]) == 0:
        from gymnasium.envs.toy_text.frozen_lake import generate_random_map

        seed = config["seed"] if isinstance(config["seed"], int) else int(config["seed"][0])
        config["desc"] = generate_random_map(size=8, seed=seed % 2**32)
    config["map_name"] = "8x8"  # unused when desc is given


register(
    "FrozenLake-v1",
    "FrozenLake",
    "toy_text",
    100,
    0.70,
    resolve=_frozen_lake_random_map,
    map_name="4x4",
)
register(
    "FrozenLake8x8-v1",
    "FrozenLake",
    "toy_text",
    200,
    0.85,
    resolve=_frozen_lake_random_map,
    map_name="8x8",
)
register("Taxi-v4", "Taxi", "toy_text", 200, 8.0)
register("Taxi-v3", "Taxi", "toy_text", 200, 8.0)
register("CliffWalking-v1", "CliffWalking", "toy_text", NO_TIME_LIMIT)
register("CliffWalkingSlippery-v1", "CliffWalking", "toy_text", NO_TIME_LIMIT, is_slippery=True)
register("CliffWalking-v0", "CliffWalking", "toy_text", NO_TIME_LIMIT)
register(
    "Blackjack-v1",
    "Blackjack",
    "toy_text",
    NO_TIME_LIMIT,
    obs_tuple=True,  # gymnasium's Tuple(Discrete(32), Discrete(11), Discrete(2))
    sab=True,
    natural=False,
)
register("Catch-v0", "Catch", "toy_text", NO_TIME_LIMIT)
register("NChain-v0", "NChain", "toy_text", 1000)
