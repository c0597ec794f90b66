"""Task specs: merged config, gymnasium spaces and dm_env specs of one task."""

from __future__ import annotations

import collections
import enum
from typing import Any

import numpy as np
from gymnasium import spaces

from envpool_x import backends
from envpool_x.array_specs import ArraySpec, action_array_spec, state_array_spec
from envpool_x.backends.arrays import ARRAY_BACKENDS
from envpool_x.backends.checks import seed_list
from envpool_x.backends.contract import AutoresetMode, Backend
from envpool_x.envpool_names import EnvPoolNames
from envpool_x.nested_obs import nested_space
from envpool_x.options import check_env_types, check_options
from envpool_x.params import ParamInfo, task_params
from envpool_x.registration import TaskEntry, lookup
from envpool_x.render import check_render_mode

# Pool keys every task accepts, with EnvPool's names and defaults.
# max_episode_steps and reward_threshold come from the task.
POOL_DEFAULTS: dict[str, Any] = {
    "num_envs": 1,
    "batch_size": 0,
    "num_threads": 0,
    "seed": 42,
    "thread_affinity_offset": -1,
    "autoreset_mode": "next_step",
    "max_num_players": 1,
    "gym_reset_return_info": True,
    # Which backend steps the envs (envpool_x.backends): "cpu" is the thread pool.
    "device": "cpu",
    "array_backend": None,
    "copy_results": True,
    # None, "rgb_array" or "human" (envpool_x.render): what env.render() does.
    "render_mode": None,
    "check_memory": True,  # False: skip the memory check (envpool_x.memory)
    # True: info["params"] holds the per-env parameters each env runs with (envpool_x.params).
    "params_info": False,
}
AUTORESET_MODES = tuple(m.value for m in AutoresetMode)
# gymnasium.vector.AutoresetMode's values, for its enum and its spelling.
_GYMNASIUM_MODES = {"NextStep": "next_step", "SameStep": "same_step", "Disabled": "disabled"}


def autoreset_mode_name(mode: Any) -> str:
    """Our name of an autoreset mode: one of :data:`AUTORESET_MODES`, or
    ``gymnasium.vector.AutoresetMode`` (the enum or its value, e.g. ``"SameStep"``).

    Raises:
        ValueError: anything else.
    """
    raw = mode.value if isinstance(mode, enum.Enum) else mode
    if isinstance(raw, str):
        name = _GYMNASIUM_MODES.get(raw, raw)
        if name in AUTORESET_MODES:
            return name
    raise ValueError(
        f"autoreset_mode must be one of {AUTORESET_MODES} or a gymnasium.vector.AutoresetMode, "
        f"got {mode!r}"
    )


# The pool's sizes and counts are C++ ints.
INT32_MAX = 2**31 - 1


def _int_key(config: dict[str, Any], key: str, minimum: int, maximum: int = INT32_MAX) -> int:
    value = config[key]
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{key} must be an int, got {type(value).__name__}")
    if value < minimum:
        raise ValueError(f"{key} must be >= {minimum}, got {value}")
    if value > maximum:
        raise ValueError(f"{key} must be <= {maximum}, got {value}")
    return int(value)


def _check_backend_keys(task_id: str, entry: TaskEntry, merged: dict[str, Any]) -> Backend:
    """The backend of ``device``, and the options it must honour
    (array_backend, copy_results, batch_size)."""
    backend = backends.select(entry, merged["device"])
    array_backend = merged["array_backend"]
    if array_backend is not None and array_backend not in ARRAY_BACKENDS:
        raise ValueError(f"array_backend must be one of {ARRAY_BACKENDS}, got {array_backend!r}")
    if not isinstance(merged["copy_results"], (bool, np.bool_)):
        raise TypeError("copy_results must be a bool")
    backend.check_config(task_id, merged)
    return backend


def _box(desc: dict[str, Any]) -> spaces.Box:
    shape = tuple(desc["shape"])
    dtype = np.dtype(desc["dtype"])

    def bound(values: list[float], default: float) -> Any:
        # One value everywhere stays a scalar that Box spreads in the field's
        # dtype: float64 arrays of a large frame stack's shape took gigabytes.
        if len(values) <= 1:
            return np.float64(values[0] if values else default)
        return np.asarray(values, dtype=np.float64).reshape(shape)

    low, high = bound(desc["low"], -np.inf), bound(desc["high"], np.inf)
    if dtype == np.bool_:  # gymnasium takes bool bounds as arrays only
        lo, hi = np.broadcast_to(low, shape), np.broadcast_to(high, shape)
        return spaces.Box(lo.astype(dtype), hi.astype(dtype), shape, dtype)
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        lo, hi = np.clip(low, info.min, info.max), np.clip(high, info.min, info.max)
        return spaces.Box(lo.astype(dtype), hi.astype(dtype), shape, dtype)
    return spaces.Box(low.astype(dtype), high.astype(dtype), shape, dtype)


def _uniform_to_scalar(bound: np.ndarray) -> Any:
    """A bound with one value everywhere as that scalar (EnvPool's dm specs give
    Atari's frames ``maximum=255``, not an array of 255s), else the array."""
    if bound.size and (bound == bound.flat[0]).all():
        return bound.dtype.type(bound.flat[0])
    return bound


def _space(desc: dict[str, Any]) -> spaces.Space[Any]:
    """The gymnasium space of one field: Discrete / MultiDiscrete for a field
    the env marks discrete (categories in [low, high], with the field's own
    integer dtype, int64 like gymnasium's default), else a Box."""
    if not desc.get("discrete"):
        return _box(desc)
    box = _box(desc)
    low, high = box.low.astype(np.int64), box.high.astype(np.int64)
    if box.shape == ():
        return spaces.Discrete(int(high - low + 1), start=int(low), dtype=box.dtype)
    return spaces.MultiDiscrete(high - low + 1, dtype=box.dtype, start=low)


def _action_spaces(act: dict[str, Any]) -> tuple[spaces.Space[Any], spaces.Space[Any]]:
    """One agent's action space and one env's (with the agent axis first when
    the env has several agents): Discrete / MultiDiscrete / Box."""
    agents = int(act.get("num_agents", 1))
    nvec = [int(n) for n in act.get("nvec", [])]
    agent: spaces.Space[Any]
    if act["discrete"] and nvec:
        agent = spaces.MultiDiscrete(np.asarray(nvec, dtype=np.int64))
    elif act["discrete"]:
        agent = spaces.Discrete(int(act["n"]))
    else:
        agent = _box(act["box"])
    if agents == 1:
        return agent, agent
    if isinstance(agent, spaces.Discrete):
        return agent, spaces.MultiDiscrete(np.full(agents, int(agent.n), dtype=np.int64))
    if isinstance(agent, spaces.MultiDiscrete):
        return agent, spaces.MultiDiscrete(np.tile(agent.nvec, (agents, 1)))
    assert isinstance(agent, spaces.Box)
    low = np.broadcast_to(agent.low, (agents, *agent.shape))
    high = np.broadcast_to(agent.high, (agents, *agent.shape))
    return agent, spaces.Box(low, high, (agents, *agent.shape), agent.dtype)


def _drop_agent_axis(space: spaces.Space[Any]) -> spaces.Space[Any]:
    """The space of one agent's row of an env's (agent-axis-first) space."""
    if isinstance(space, spaces.Dict):
        return spaces.Dict(
            collections.OrderedDict((k, _drop_agent_axis(v)) for k, v in space.spaces.items())
        )
    assert isinstance(space, spaces.Box), f"no agent axis to drop from {space}"
    return spaces.Box(space.low[0], space.high[0], space.shape[1:], space.dtype)


def _check_players(task_id: str, merged: dict[str, Any], num_agents: int) -> None:
    """EnvPool's ``max_num_players``: accepted as the agent count when it is
    the task's (1 for single-agent tasks); the spec's config then reports it."""
    players = merged["max_num_players"]
    if players not in (1, num_agents):
        if num_agents == 1:
            raise ValueError(f"max_num_players must be 1: {task_id} is a single-agent task")
        raise ValueError(
            f"max_num_players={players} but {task_id} with this config has {num_agents} agents "
            "per env (set by its own keys, e.g. num_taggers / num_runners)"
        )
    merged["max_num_players"] = num_agents


class EnvSpec:
    """Everything about a task for a given config, without building a pool.

    Attributes:
        id: the task id.
        config: the merged config as a namedtuple (EnvPool's ``spec.config``).
        observation_space / action_space: the spaces of ONE env.
        reward_threshold: the score at which the task counts as solved, or None.
    """

    def __init__(self, task_id: str, **config: Any) -> None:
        entry = lookup(task_id)
        self.entry: TaskEntry = entry
        self.id = task_id
        pool_cls = entry.pool_class
        env_defaults: dict[str, Any] = dict(pool_cls.default_config())
        env_defaults.update(entry.env_defaults)
        defaults = dict(POOL_DEFAULTS)
        defaults.update(entry.pool_defaults)
        defaults["max_episode_steps"] = entry.max_episode_steps
        defaults["reward_threshold"] = entry.reward_threshold
        defaults.update(env_defaults)
        # EnvPool's names of this task's keys, and behaviour it fixes (envpool_names).
        names = entry.declaration.envpool_table(entry.pool_name) or EnvPoolNames()
        theirs = names.take(task_id, config, defaults)
        unknown = sorted(set(config) - set(defaults) - {"env_seed"} - set(theirs))
        if unknown:
            raise KeyError(
                f"unknown config key(s) {unknown} for {task_id}; valid keys: {sorted(defaults)}"
            )
        merged = dict(defaults)
        merged.update((k, v) for k, v in config.items() if k not in theirs)
        given = frozenset(config) | names.translate(task_id, theirs, merged, frozenset(config))
        if "env_seed" in config:  # EnvPool's name for a per-env seed list
            merged["seed"] = merged.pop("env_seed")
        num_envs = _int_key(merged, "num_envs", 1)
        batch_size = _int_key(merged, "batch_size", 0) or num_envs
        if batch_size > num_envs:
            raise ValueError(f"batch_size={batch_size} must not exceed num_envs={num_envs}")
        merged["batch_size"] = batch_size
        _int_key(merged, "num_threads", 0)
        if merged["max_episode_steps"] is not None or entry.max_episode_steps is not None:
            _int_key(merged, "max_episode_steps", 1)
        if isinstance(merged["thread_affinity_offset"], bool) or not isinstance(
            merged["thread_affinity_offset"], (int, np.integer)
        ):
            raise TypeError("thread_affinity_offset must be an int")
        _int_key(merged, "thread_affinity_offset", -(2**31))
        merged["autoreset_mode"] = autoreset_mode_name(merged["autoreset_mode"])
        check_render_mode(merged["render_mode"])
        self.env_seeds = seed_list(merged["seed"], num_envs)
        #: The backend that steps this spec's envs (envpool_x.backends).
        self.backend: Backend = _check_backend_keys(task_id, entry, merged)
        # The family's declared ranges, before its resolve and C++ read the values.
        table = entry.declaration.option_table(entry.pool_name)
        if table is not None:
            try:
                check_options(task_id, table, merged, given)
            except (TypeError, ValueError) as e:
                raise names.explain(e, theirs) from None
        names.check(task_id, theirs, merged)
        if entry.resolve is not None:
            entry.resolve(merged)
        if merged["max_episode_steps"] is None:  # a per-instance default its resolve missed
            raise ValueError(f"{task_id}: max_episode_steps was not set for this instance")
        _int_key(merged, "max_episode_steps", 1)
        self._env_config = {k: merged[k] for k in env_defaults}
        # Each value as C++ will read it, naming the key (C++'s conversion would not).
        check_env_types(task_id, env_defaults, self._env_config)
        # Validates the env's own keys (types) in C++ and gives its fields.
        try:
            self._desc = pool_cls.env_spec(self._env_config)
        except (TypeError, ValueError) as e:  # C++'s checks name the key, not the task
            if task_id in str(e):
                raise
            raise type(e)(f"{task_id}: {e}") from None
        #: Agents per env (1 for single-agent tasks); multi-agent arrays carry
        #: this axis after the env axis (docs/multi_agent.md).
        self.num_agents: int = int(self._desc["action"].get("num_agents", 1))
        _check_players(task_id, merged, self.num_agents)
        merged.update(names.read_back(merged))  # EnvPool code reads its names back
        fields = list(merged)
        config_cls = collections.namedtuple("Config", fields)  # type: ignore[misc]
        self.config: Any = config_cls(**merged)
        self.reward_threshold = merged["reward_threshold"]
        self.max_episode_steps: int = merged["max_episode_steps"]
        obs = self._desc["obs"]
        if len(obs) == 1 and obs[0]["name"] == "obs":
            self.observation_space: spaces.Space[Any] = _space(obs[0])
        else:
            # An OrderedDict keeps the env's field order (gymnasium sorts a plain dict's).
            self.observation_space = spaces.Dict(
                collections.OrderedDict((o["name"], _space(o)) for o in obs)
            )
        # The array form, as the engine returns it (dm_env keeps this one).
        self.array_observation_space = self.observation_space
        self.observation_space = nested_space(self.observation_space)  # "group.key" fields
        self.obs_tuple = entry.obs_tuple
        if entry.obs_tuple:
            md = self.observation_space
            assert isinstance(md, spaces.MultiDiscrete) and len(md.shape) == 1
            self.observation_space = spaces.Tuple(
                [
                    spaces.Discrete(int(n), start=int(s))
                    for n, s in zip(md.nvec, md.start, strict=True)
                ]
            )
        self.agent_action_space, self.action_space = _action_spaces(self._desc["action"])
        #: One agent's observation (the env's without its agent axis); for a
        #: single-agent task the same as ``observation_space``.
        self.agent_observation_space: spaces.Space[Any] = (
            _drop_agent_axis(self.observation_space)
            if self.num_agents > 1
            else self.observation_space
        )

    @property
    def params(self) -> dict[str, ParamInfo]:
        """The per-env parameters the task declares (docs/params.md), by name,
        with this config's values as defaults; empty for a task without any."""
        return task_params(self)

    @property
    def gymnasium_observation_space(self) -> spaces.Space[Any]:
        """EnvPool's name of :attr:`observation_space` (one env's)."""
        return self.observation_space

    @property
    def gymnasium_action_space(self) -> spaces.Space[Any]:
        """EnvPool's name of :attr:`action_space` (one env's)."""
        return self.action_space

    @property
    def env_config(self) -> dict[str, Any]:
        """The env's own config keys (those the C++ env reads)."""
        return dict(self._env_config)

    def config_dict(self) -> dict[str, Any]:
        """The merged config as a plain dict."""
        return dict(self.config._asdict())

    def observation_spec(self) -> Any:
        """dm_env specs of one env's observation: a namedtuple of arrays."""
        from dm_env import specs

        from envpool_x.dm_names import dm_obs_name
        from envpool_x.nested_obs import info_extra_fields

        scalar = {"dtype": "int32", "shape": (), "low": [], "high": []}
        counters = [{"name": n, **scalar} for n in ("env_id", "elapsed_step")]
        names, values = [], []
        for o in self._desc["obs"] + counters + self._desc["info"] + info_extra_fields(self):
            names.append(dm_obs_name(self._env_config, o["name"]))
            box = _box(o)
            if o.get("discrete") and box.shape == () and box.low == 0:
                values.append(specs.DiscreteArray(int(box.high) + 1, box.dtype, name=names[-1]))
            elif np.isfinite(box.low).all() and np.isfinite(box.high).all():
                low, high = _uniform_to_scalar(box.low), _uniform_to_scalar(box.high)
                values.append(specs.BoundedArray(box.shape, box.dtype, low, high, names[-1]))
            else:
                values.append(specs.Array(box.shape, box.dtype, names[-1]))
        if self.config.params_info:  # make_dm(params_info=True): observation.params
            names.append("params")
            values.append(
                {
                    p.name: specs.BoundedArray((), np.float64, p.low, p.high, p.name)
                    for p in self.params.values()
                }
            )
        return observation_tuple(tuple(names))(*values)

    def action_spec(self) -> Any:
        """dm_env spec of one env's action."""
        from dm_env import specs

        if isinstance(self.action_space, spaces.Discrete):
            return specs.DiscreteArray(int(self.action_space.n), np.int32, name="action")
        if isinstance(self.action_space, spaces.MultiDiscrete):
            space = self.action_space
            high = np.asarray(space.nvec, dtype=np.int32) - 1
            return specs.BoundedArray(space.shape, np.int32, np.zeros_like(high), high, "action")
        box = self.action_space
        assert isinstance(box, spaces.Box)
        return specs.BoundedArray(box.shape, box.dtype, box.low, box.high, "action")

    @property
    def state_array_spec(self) -> dict[str, ArraySpec]:
        """EnvPool's ``spec.state_array_spec``: one :class:`ArraySpec` per array a
        step produces for one env, under EnvPool's keys (``obs`` / ``obs:<name>``,
        ``info:<name>``, ``reward``, ``done``, ``trunc``, ...)."""
        return state_array_spec(self._desc, self.entry.family)

    @property
    def action_array_spec(self) -> dict[str, ArraySpec]:
        """EnvPool's ``spec.action_array_spec``: ``env_id``, ``players.env_id``
        and ``action`` for one env (the keys of EnvPool's dict action form)."""
        return action_array_spec(self.action_space, self.num_agents, self.entry.family)

    def __repr__(self) -> str:
        return f"EnvSpec(id={self.id!r}, config={self.config})"

    def __reduce__(self) -> tuple[Any, ...]:
        # The Config namedtuple class is built at run time; rebuild from values.
        return (_rebuild_spec, (self.id, self.config_dict()))


def _rebuild_spec(task_id: str, config: dict[str, Any]) -> EnvSpec:
    return EnvSpec(task_id, **config)


_OBS_TUPLES: dict[tuple[str, ...], type] = {}


def observation_tuple(names: tuple[str, ...]) -> type:
    """A (cached) namedtuple class for dm_env observations with these fields."""
    if names not in _OBS_TUPLES:
        fields = [n.replace("/", "_").replace(".", "_").replace(" ", "_") for n in names]
        _OBS_TUPLES[names] = collections.namedtuple("Observation", fields)  # type: ignore[misc]
    return _OBS_TUPLES[names]


def make_spec(task_id: str, **config: Any) -> EnvSpec:
    """Return the :class:`EnvSpec` of ``task_id`` with ``config`` applied.

    Raises:
        KeyError: unknown task id (with suggestions) or unknown config key
            (with the list of valid keys).
        ValueError / TypeError: a config value out of range or of the wrong type.
    """
    return EnvSpec(task_id, **config)
