"""``env.xla()``: send / recv / step as JAX functions that ``jax.jit`` can compile.

The three functions lower to XLA custom calls (JAX's typed FFI) that the C++
engine registers (``cpp/bindings/xla.cpp``): inside a jitted function or a
``lax.scan`` the envs are stepped with no Python in the loop. The first value,
``handle``, is a small array naming the pool; every call takes it and returns
a new one, and passing each call the handle of the previous one keeps them in
order (a ``recv`` that takes ``send``'s handle runs after it).

Results have the pytree of the env's eager ``step`` (gymnasium 5-tuple,
classic gym 4-tuple, or a dm_env ``TimeStep``) with fixed shapes: one row per
env of a batch (``batch_size``). 64-bit fields (toy text observations,
``info["prob"]``) come back as 32-bit unless ``jax_enable_x64`` is on, as for
any JAX array. The custom calls are registered for the CPU platform: run the
jitted function on a CPU device.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from envpool_x import _core
from envpool_x.nested_obs import info_extra_fields

_INSTALL_HINT = 'pip install "envpool-x[jax]"'
_registered = False

# Which result an env's front end gives: gymnasium's 5-tuple, the classic gym
# 4-tuple (done, info["TimeLimit.truncated"]), or a dm_env TimeStep.
FLAVOURS = ("gymnasium", "gym_classic", "dm")


def _import_jax() -> Any:
    """Import jax and register the custom calls once; clear errors otherwise."""
    global _registered
    try:
        import jax
        import jax.ffi
    except ImportError as e:
        raise ImportError(
            f"env.xla() needs JAX (jax and jaxlib): {_INSTALL_HINT}, or pip install jax"
        ) from e
    if not hasattr(_core, "xla_targets"):
        raise RuntimeError(
            "this build of envpool_x has no XLA support: XLA's FFI headers were not found when "
            "it was compiled. Reinstall it where pip can fetch jaxlib, or with jax installed and "
            "--no-build-isolation, or with ENVPOOL_X_XLA_INCLUDE set to the folder that "
            "`python -c 'import jax.ffi; print(jax.ffi.include_dir())'` prints"
        )
    if not _registered:
        for name, capsule in _core.xla_targets().items():
            jax.ffi.register_ffi_target(name, capsule, platform="cpu")
        _registered = True
    return jax


class _Layout:
    """Where each part of a result sits in the pool's flat list of fields."""

    def __init__(self, fields: list[dict[str, Any]]) -> None:
        names = [f["name"] for f in fields]
        self.names = names
        self.reward = names.index("reward")
        self.terminated = names.index("terminated")
        self.truncated = names.index("truncated")
        self.obs = list(range(self.reward))
        first_info = names.index("env_id")
        end_info = next((i for i, n in enumerate(names) if n.startswith("final_")), len(names))
        self.info = list(range(first_info, end_info))
        self.final_obs = [i for i, n in enumerate(names) if n.startswith("final_obs/")]
        self.final_info = [i for i, n in enumerate(names) if n.startswith("final_info/")]
        self.final_mask = names.index("_final_obs") if "_final_obs" in names else -1

    @staticmethod
    def short(name: str) -> str:
        return name.split("/", 1)[-1]

    def obs_value(self, outs: list[Any], idx: list[int], obs_tuple: bool) -> Any:
        if len(idx) == 1 and self.short(self.names[idx[0]]) == "obs":
            obs = outs[idx[0]]
            if obs_tuple:  # gymnasium's Tuple space: one array per element
                return tuple(obs[:, k] for k in range(obs.shape[1]))
            return obs
        return {self.short(self.names[i]): outs[i] for i in idx}

    def gymnasium(self, outs: list[Any], obs_tuple: bool) -> tuple[Any, ...]:
        """The eager step's 5-tuple (the C++ RecvLocked builds the same)."""
        info: dict[str, Any] = {self.names[i]: outs[i] for i in self.info}
        if self.final_mask >= 0:
            mask = outs[self.final_mask]
            info["final_obs"] = self.obs_value(outs, self.final_obs, obs_tuple)
            final_info: dict[str, Any] = {}
            for i in self.final_info:
                key = self.short(self.names[i])
                final_info[key] = outs[i]
                final_info["_" + key] = mask
            info["final_info"] = final_info
            info["_final_obs"] = mask
            info["_final_info"] = mask
        obs = self.obs_value(outs, self.obs, obs_tuple)
        return obs, outs[self.reward], outs[self.terminated], outs[self.truncated], info


def make_xla(env: Any, flavour: str = "gymnasium") -> tuple[Any, Callable, Callable, Callable]:
    """Build ``(handle, recv, send, step)`` for ``env`` (see the module docstring).

    Args:
        env: a :class:`~envpool_x.GymnasiumEnvPool` or :class:`~envpool_x.DmEnvPool`.
        flavour: the result pytree, one of :data:`FLAVOURS`.

    Returns:
        ``handle``: a uint32 array naming the pool; ``recv(handle) -> (handle,
        result)``; ``send(handle, action, env_id=None) -> handle``;
        ``step(handle, action, env_id=None) -> (handle, result)``, which is
        ``recv(send(handle, action, env_id))`` in one custom call.

    Raises:
        ImportError: JAX is not installed.
        RuntimeError: this build has no XLA support.
        ValueError: unknown flavour.
    """
    if flavour not in FLAVOURS:
        raise ValueError(f"flavour must be one of {FLAVOURS}, got {flavour!r}")
    if not env.spec.backend.host_results:
        raise ValueError(
            "env.xla() drives the CPU engine; with device='cuda' pass JAX arrays to "
            "step() directly (array_backend='jax')"
        )
    jax = _import_jax()
    import jax.numpy as jnp

    pool = env._pool
    spec = env.spec
    num_envs = int(spec.config.num_envs)
    batch_size = int(spec.config.batch_size)
    sync = batch_size == num_envs
    action_desc = spec._desc["action"]
    obs_tuple = bool(getattr(spec, "obs_tuple", False))
    # The family's derived info (Craftax's Achievements/...), traced with jnp.
    extras = spec.entry.declaration.info_extras if info_extra_fields(spec) else None
    fields = list(pool.fields)
    layout = _Layout(fields)
    handle = np.array(pool.xla_handle(), dtype=np.uint32)
    handle_type = jax.ShapeDtypeStruct((), np.uint32)
    field_types = [
        jax.ShapeDtypeStruct(
            (batch_size, *f["shape"]), jax.dtypes.canonicalize_dtype(np.dtype(f["dtype"]))
        )
        for f in fields
    ]
    send_call = jax.ffi.ffi_call("envpool_x_send", handle_type, has_side_effect=True)
    recv_call = jax.ffi.ffi_call(
        "envpool_x_recv", [handle_type, *field_types], has_side_effect=True
    )
    step_call = jax.ffi.ffi_call(
        "envpool_x_step", [handle_type, *field_types], has_side_effect=True
    )

    def result(outs: list[Any]) -> Any:
        obs, reward, terminated, truncated, info = layout.gymnasium(outs, obs_tuple)
        if extras is not None and flavour != "dm":  # dm: env._timestep adds them
            info = dict(info)
            extras((obs, reward, terminated, truncated, info), xp=jnp)
        if flavour == "gymnasium":
            return obs, reward, terminated, truncated, info
        if flavour == "gym_classic":
            # As the eager classic API: truncated only where the time limit
            # cut an episode that had not terminated (gym's TimeLimit).
            info = dict(info)
            info["TimeLimit.truncated"] = truncated & ~terminated
            return obs, reward, terminated | truncated, info
        return env._timestep((obs, reward, terminated, truncated, info), xp=jnp)

    def operands(handle: Any, action: Any, env_id: Any) -> list[Any]:
        action = jnp.asarray(action)
        if env_id is None:
            n = num_envs
        else:
            env_id = jnp.asarray(env_id)
            if env_id.ndim != 1 or not jnp.issubdtype(env_id.dtype, jnp.integer):
                raise ValueError(
                    f"env_id must be a one-dimensional integer array, got {env_id.dtype} "
                    f"of shape {env_id.shape}"
                )
            n = env_id.shape[0]
            if sync and n != num_envs:
                raise ValueError(
                    f"with batch_size == num_envs ({num_envs}) an XLA send must cover every "
                    f"env (its results fill one batch of {num_envs}); got {n} env ids"
                )
        _check_action(action, n, action_desc)
        return [jnp.asarray(handle), action] + ([] if env_id is None else [env_id])

    def send(handle: Any, action: Any, env_id: Any = None) -> Any:
        """Send ``action`` (a row per env of ``env_id``, default all); returns the new handle."""
        return send_call(*operands(handle, action, env_id))

    def recv(handle: Any) -> tuple[Any, Any]:
        """Wait for the next batch; returns ``(handle, result)``."""
        outs = recv_call(jnp.asarray(handle))
        return outs[0], result(list(outs[1:]))

    def step(handle: Any, action: Any, env_id: Any = None) -> tuple[Any, Any]:
        """``recv(send(handle, action, env_id))`` as one custom call."""
        outs = step_call(*operands(handle, action, env_id))
        return outs[0], result(list(outs[1:]))

    return handle, recv, send, step


def _check_action(action: Any, n: int, desc: dict[str, Any]) -> None:
    """Shape and dtype checks at trace time, with the eager step's messages."""
    kind = np.dtype(action.dtype).kind
    agents = int(desc.get("num_agents", 1))
    per_env = (agents,) if agents > 1 else ()  # the agent axis (docs/multi_agent.md)
    if desc["discrete"]:
        if kind not in "iu":
            raise TypeError(f"discrete actions must be integers, got dtype {action.dtype}")
        nvec = desc.get("nvec", [])
        expected: tuple[int, ...] = (n, *per_env, *((len(nvec),) if nvec else ()))
    else:
        if kind not in "fiu":
            raise TypeError(f"continuous actions must be real numbers, got dtype {action.dtype}")
        expected = (n, *per_env, *desc["box"]["shape"])
    shape = tuple(action.shape)
    one_element_box = (
        not desc["discrete"] and agents == 1 and int(np.prod(desc["box"]["shape"])) == 1
    )
    if shape != expected and not (one_element_box and shape == (n,)):
        with_agents = f" with {agents} agents each" if agents > 1 else ""
        raise ValueError(
            f"action has shape {shape} but {n} envs{with_agents} need shape {expected}"
        )
