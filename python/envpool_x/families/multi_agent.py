"""Multi-agent tasks: WarpDrive's Tag envs (docs/multi_agent.md).

``TagGridworld-v0`` and ``TagContinuous-v0`` carry an agent axis after the env
axis in every batched array. Their episodes end by their own
``episode_length`` key (WarpDrive's), so the pool's time limit is off by
default.

Every key has a declared valid range (:data:`OPTIONS`), checked when a spec is
made: WarpDrive's own assertions (reward signs, tagging_distance in [0, 1]),
the engine's (agent counts, int32 sizes), and what keeps observations inside
their Box (start positions on the grid) and the physics meaningful (finite
numbers, ranges not inverted).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from envpool_x.options import BOOL, Float, Floats, Int, Ints, OptionTable, ordered
from envpool_x.registration import NO_TIME_LIMIT, Family, declare_family, register

#: The largest episode_length (the envs count steps in int32).
MAX_EPISODE_LENGTH = 2**31 - 1
#: The largest magnitude of a reward or penalty (float32 sums stay finite).
MAX_REWARD = 1e9
#: The most action levels per axis of TagContinuous (the action space's nvec).
MAX_LEVELS = 1 << 16
#: The largest side of TagContinuous's square, and of its speeds and accelerations.
MAX_LENGTH = 1e6


def _start_cells(task_id: str, config: Mapping[str, Any], given: frozenset[str]) -> None:
    """Start lists: one entry per agent, each cell inside the grid."""
    agents = _num_agents(config)
    keys: tuple[str, ...] = ("starting_location_x", "starting_location_y")
    if "num_runners" in config:  # TagContinuous: a position in [0, grid_length], a direction
        keys += ("starting_directions",)
    length = config["grid_length"]
    for key in keys:
        values = list(config[key])
        if values and len(values) != agents:
            raise ValueError(
                f"{task_id}: {key} must list one value per agent ({agents} with this config, "
                f"taggers first), got {len(values)} (or none, for the default start)"
            )
        if key == "starting_directions":
            continue
        for i, v in enumerate(values):
            if not 0 <= float(v) <= float(length):
                raise ValueError(
                    f"{task_id}: {key}[{i}]={v!r} is outside the grid: start positions must "
                    f"be in [0, grid_length={length!r}]"
                )


def _num_agents(config: Mapping[str, Any]) -> int:
    if "num_runners" in config:
        return int(config["num_taggers"]) + int(config["num_runners"])
    return int(config["num_taggers"]) + 1


def _agent_counts(task_id: str, config: Mapping[str, Any], given: frozenset[str]) -> None:
    """TagContinuous: at most 65536 agents, and no more observed than exist."""
    agents = _num_agents(config)
    if agents > 65536:
        raise ValueError(
            f"{task_id}: num_taggers + num_runners = {agents} is above the 65536 agents an "
            "env may have"
        )
    observed = int(config["num_other_agents_observed"])
    # The default (10, WarpDrive's run config) shrinks to a small team (_observed_default).
    if observed > agents and "num_other_agents_observed" in given:
        raise ValueError(
            f"{task_id}: num_other_agents_observed={observed} is more than the {agents} agents "
            "(num_taggers + num_runners)"
        )


def _reward(low: float = -MAX_REWARD, high: float = MAX_REWARD) -> Any:
    return Float(low, high)


_GRIDWORLD = OptionTable(
    {
        "num_taggers": Int(1, 4095),
        "grid_length": Int(1, 46340, note="the grid's cells are 0..grid_length"),
        "episode_length": Int(1, MAX_EPISODE_LENGTH),
        "wall_hit_penalty": _reward(),
        "tag_reward_for_tagger": _reward(),
        "tag_penalty_for_runner": _reward(),
        "step_cost_for_tagger": _reward(),
        "use_full_observation": BOOL,
        "starting_location_x": Ints(0, 46340),
        "starting_location_y": Ints(0, 46340),
    },
    relations=(_start_cells,),
)
_CONTINUOUS = OptionTable(
    {
        "num_taggers": Int(1, 65535),
        "num_runners": Int(1, 65535),
        "episode_length": Int(1, MAX_EPISODE_LENGTH),
        "grid_length": Float(1e-6, MAX_LENGTH, note="the side of the square"),
        "max_acceleration": Float(-MAX_LENGTH, MAX_LENGTH),
        "min_acceleration": Float(-MAX_LENGTH, MAX_LENGTH),
        "max_turn": Float(-MAX_LENGTH, MAX_LENGTH, note="radians"),
        "min_turn": Float(-MAX_LENGTH, MAX_LENGTH, note="radians"),
        "num_acceleration_levels": Int(0, MAX_LEVELS),
        "num_turn_levels": Int(0, MAX_LEVELS),
        "skill_level_runner": Float(0.0, MAX_LENGTH, note="a factor of max_speed"),
        "skill_level_tagger": Float(0.0, MAX_LENGTH, note="a factor of max_speed"),
        "max_speed": Float(0.0, MAX_LENGTH),
        "use_full_observation": BOOL,
        "runner_exits_game_after_tagged": BOOL,
        "num_other_agents_observed": Int(0, 65536),
        # WarpDrive's signs: rewards >= 0, penalties <= 0.
        "tag_reward_for_tagger": _reward(0.0),
        "tag_penalty_for_runner": _reward(high=0.0),
        "step_penalty_for_tagger": _reward(high=0.0),
        "step_reward_for_runner": _reward(0.0),
        "edge_hit_penalty": _reward(high=0.0),
        "end_of_game_reward_for_runner": _reward(0.0),
        "tagging_distance": Float(0.0, 1.0, note="a fraction of grid_length"),
        "starting_location_x": Floats(0.0, MAX_LENGTH),
        "starting_location_y": Floats(0.0, MAX_LENGTH),
        "starting_directions": Floats(-MAX_LENGTH, MAX_LENGTH, note="radians"),
    },
    relations=(
        _agent_counts,
        ordered("min_acceleration", "max_acceleration"),
        ordered("min_turn", "max_turn"),
        _start_cells,
    ),
)


def _observed_default(config: dict[str, Any]) -> None:
    """TagContinuous's resolve: a team smaller than the default neighbour count
    observes every agent (WarpDrive accepts such a team; only a value the user
    gives must fit it, checked by :func:`_agent_counts`)."""
    agents = _num_agents(config)
    config["num_other_agents_observed"] = min(int(config["num_other_agents_observed"]), agents)


#: The declared options of each Tag pool.
OPTIONS = {"TagGridworld": _GRIDWORLD, "TagContinuous": _CONTINUOUS}

declare_family(
    Family(
        "multi_agent",
        title="the Tag envs",
        backends={"cuda": ("TagGridworld", "TagContinuous")},
        options=OPTIONS,
    )
)

register("TagGridworld-v0", "TagGridworld", "multi_agent", NO_TIME_LIMIT)
register(
    "TagContinuous-v0", "TagContinuous", "multi_agent", NO_TIME_LIMIT, resolve=_observed_default
)
