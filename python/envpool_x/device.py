"""The GPU path: envs stepped by one CUDA kernel per step (classic control, MaxCut, TSP, Tag).

``make_gymnasium(task, num_envs=N, device="cuda")`` (or ``"cuda:K"``) gives the
same front ends as the CPU engine, backed by :class:`DevicePool`: state lives on
the GPU, actions come in through DLPack (torch / JAX / CuPy tensors on the same
GPU, without a copy; numpy arrays are copied once) and results go out as tensors
of the framework named by ``array_backend``, without a host round trip.

``device="cpu-reference"`` is internal: it runs the very kernel body on the CPU
with a host loop over the kernel's thread indices (slow, single-threaded). The
tests use it to check the GPU path's logic against the thread-pool engine on
machines without a GPU.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from envpool_x import _core

ARRAY_BACKENDS = ("torch", "jax", "cupy", "dlpack", "numpy")
# DLPack device types.
_DL_CPU = 1
_DL_CUDA = 2


def parse_device(device: Any) -> tuple[str, int]:
    """``"cpu"`` / ``"cuda"`` / ``"cuda:K"`` / ``"cpu-reference"`` -> (kind, index).

    Raises:
        TypeError: not a string.
        ValueError: an unknown device string.
    """
    if not isinstance(device, str):
        raise TypeError(
            f"device must be a str such as 'cpu' or 'cuda:0', got {type(device).__name__}"
        )
    if device in ("cpu", "cpu-reference"):
        return device, 0
    m = re.fullmatch(r"cuda(?::(\d+))?", device)
    if m is None:
        raise ValueError(f"device must be 'cpu', 'cuda' or 'cuda:K', got {device!r}")
    return "cuda", int(m.group(1) or 0)


def cuda_status() -> tuple[bool, str]:
    """Whether ``device="cuda"`` can work here, and if not, why (a sentence)."""
    if not getattr(_core, "built_with_cuda", False):
        return False, (
            "this envpool_x was built without CUDA support (no nvcc was found when it was "
            "built); reinstall it on a machine with the CUDA toolkit (nvcc on PATH) to use "
            "device='cuda'"
        )
    count, why = _core.cuda_device_count()
    if count == 0:
        return False, f"device='cuda' needs a usable NVIDIA GPU, but none was found ({why})"
    return True, f"{count} GPU(s)"


def require_cuda(index: int) -> None:
    """Raise RuntimeError (no CUDA build / no GPU) or ValueError (no such GPU)."""
    ok, why = cuda_status()
    if not ok:
        raise RuntimeError(why)
    count, _ = _core.cuda_device_count()
    if index >= count:
        raise ValueError(f"device 'cuda:{index}' does not exist: {count} GPU(s) visible")


def default_backend(kind: str) -> str:
    """numpy for cpu-reference; torch on a GPU when installed, else raw DLPack."""
    if kind == "cpu-reference":
        return "numpy"
    try:
        import torch  # noqa: F401
    except ImportError:
        return "dlpack"
    return "torch"


def checked_backend(requested: str | None, kind: str) -> str:
    """``array_backend`` or the device's default, refused where it cannot apply."""
    backend = requested or default_backend(kind)
    if backend not in ARRAY_BACKENDS:
        raise ValueError(f"array_backend must be one of {ARRAY_BACKENDS}, got {backend!r}")
    if backend == "numpy" and kind == "cuda":
        raise ValueError(
            "array_backend='numpy' would copy every result to the host; on a GPU use "
            "'torch', 'jax', 'cupy' or 'dlpack'"
        )
    return backend


def dm_step_parts(backend: str, terminated: Any, truncated: Any, elapsed: Any) -> tuple[Any, Any]:
    """dm_env's step_type (int32) and discount (float32) in ``backend``."""
    if backend == "torch":
        import torch

        mid = torch.where(terminated | truncated, 2, 1)
        step_type = torch.where(elapsed == 0, 0, mid).to(torch.int32)
        return step_type, (~terminated).to(torch.float32)
    xp = _array_module(backend)
    mid = xp.where(terminated | truncated, 2, 1)
    step_type = xp.where(elapsed == 0, 0, mid).astype(np.int32)
    return step_type, (~terminated).astype(np.float32)


def caller_stream(kind: str, backend: str, index: int) -> int:
    """The caller's current CUDA stream of device ``index`` in ``backend`` (0, the
    default stream, for JAX / DLPack and on the CPU)."""
    if kind != "cuda":
        return 0
    if backend == "torch":
        import torch

        return int(torch.cuda.current_stream(index).cuda_stream)
    if backend == "cupy":
        import cupy

        with cupy.cuda.Device(index):
            return int(cupy.cuda.get_current_stream().ptr)
    return 0


class OneCallInFlight:
    """send / recv over a synchronous step and reset: ``send`` runs the call at once
    (the device orders the work) and keeps its results for the next ``recv``; at
    most one call is in flight. Shared by every device pool."""

    _pending: Any = None

    def step(self, action: Any, env_id: Any = None) -> Any:
        raise NotImplementedError

    def reset(self, env_id: Any = None, seed: Any = None) -> Any:
        raise NotImplementedError

    def send_step(self, action: Any, env_id: Any = None) -> None:
        """Queue a step whose results the next :meth:`recv` returns."""
        self._check_nothing_pending()
        self._pending = self.step(action, env_id)

    def send_reset(self, env_id: Any = None, seed: Any = None) -> None:
        """Queue a reset whose results the next :meth:`recv` returns."""
        self._check_nothing_pending()
        self._pending = self.reset(env_id, seed)

    def recv(self) -> Any:
        """The results of the step or reset last sent.

        Raises:
            RuntimeError: nothing was sent since the last ``recv()``.
        """
        if self._pending is None:
            raise RuntimeError("recv() with nothing in flight: send() or async_reset() first")
        out, self._pending = self._pending, None
        return out

    def _check_nothing_pending(self) -> None:
        if self._pending is not None:
            raise RuntimeError("the envs already have work in flight; recv() its result first")


class DevicePool(OneCallInFlight):
    """The C++ pool interface (step / reset / send / recv / close) over the GPU
    stepper, returning tensors of ``array_backend``.

    Results are fresh arrays at every call unless ``copy_results=False``, in
    which case every call returns views of one buffer that the next call
    overwrites (no allocation per step).
    """

    def __init__(self, spec: Any) -> None:
        cfg = spec.config
        kind, index = parse_device(cfg.device)
        if kind == "cuda":
            require_cuda(index)
        self.kind, self.index = kind, index
        self.backend = checked_backend(cfg.array_backend, kind)
        self._convert = _converter(self.backend)
        from envpool_x import memory

        memory.check(spec)  # device arrays against cudaMemGetInfo, host ones against RAM
        seed: Any = spec.env_seeds if spec.env_seeds is not None else int(cfg.seed)
        self._pool = _core.BatchedPool(
            spec.entry.pool_name,
            spec.env_config,
            num_envs=cfg.num_envs,
            max_episode_steps=cfg.max_episode_steps,
            autoreset_mode=cfg.autoreset_mode,
            seed=seed,
            device="cpu-reference" if kind == "cpu-reference" else "cuda",
            device_id=index,
            copy_results=bool(cfg.copy_results),
        )
        self._names: list[str] = list(self._pool.field_names)
        self._pending: Any = None

    # -- streams -------------------------------------------------------------
    def stream(self) -> int:
        """The caller's current CUDA stream in ``array_backend`` (0, the default
        stream, for JAX / DLPack and on the CPU)."""
        return caller_stream(self.kind, self.backend, self.index)

    # -- the pool interface ----------------------------------------------------
    def step(self, action: Any, env_id: Any = None) -> Any:
        """Step the envs in ``env_id`` (None: all) and return their results."""
        s = self.stream()
        return self._pack(self._pool.step(action, _host_ids(env_id), s), s)

    def reset(self, env_id: Any = None, seed: Any = None) -> Any:
        """Reset the envs in ``env_id`` (None: all) and return their results."""
        s = self.stream()
        return self._pack(self._pool.reset(_host_ids(env_id), seed, s), s)

    def reset_masked(self, env_id: Any, seed: Any = None) -> Any:
        """Every env's row: envs in ``env_id`` reset, the others their current obs."""
        s = self.stream()
        return self._pack(self._pool.reset_masked(_host_ids(env_id), seed, s), s)

    def check_errors(self) -> None:
        """Raise for bad actions / steps the device recorded since the last check.

        The kernel cannot raise, and reading its flags back every step would be
        a device-to-host sync, so this is explicit (and synchronises).
        """
        self._pool.check_errors(self.stream())

    def synchronize(self) -> None:
        """Wait until every queued step has run."""
        self._pool.synchronize(self.stream())

    def get_state(self, env_id: int) -> np.ndarray:
        """The simulation state of env ``env_id`` (a float64 vector)."""
        return np.asarray(self._pool.get_state(env_id, self.stream()))

    def set_state(self, env_id: int, state: Any) -> None:
        """Overwrite the simulation state of env ``env_id`` (see :meth:`get_state`)."""
        self._pool.set_state(env_id, np.asarray(state, dtype=np.float64), self.stream())

    def close(self) -> None:
        """Drop any result not received and free the pool's device memory."""
        self._pending = None
        self._pool.close()

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return bool(self._pool.closed)

    # -- results ---------------------------------------------------------------
    def _pack(self, arrays: tuple[Any, ...], stream: int) -> Any:
        d = dict(zip(self._names, self._tensors(arrays, stream), strict=True))
        obs = _obs(d, "obs")
        info: dict[str, Any] = {"env_id": d["env_id"], "elapsed_step": d["elapsed_step"]}
        info.update(_group(d, "info/"))
        if "_final_obs" in d:
            mask = d["_final_obs"]
            info["final_obs"] = (
                d["final_obs/obs"] if "final_obs/obs" in d else _group(d, "final_obs/")
            )
            final_info = _group(d, "final_info/")
            for key in list(final_info):
                final_info[f"_{key}"] = mask
            info["final_info"] = final_info
            info["_final_obs"] = mask
            info["_final_info"] = mask
        return obs, d["reward"], d["terminated"], d["truncated"], info

    def _tensors(self, arrays: tuple[Any, ...], stream: int) -> list[Any]:
        if self.backend == "torch":
            return _torch_tensors(arrays, stream if self.kind == "cuda" else -1)
        return [self._convert(a) for a in arrays]

    def from_host(self, array: np.ndarray) -> Any:
        """A small host array as a tensor of ``array_backend`` on this env's device."""
        if self.backend == "torch":
            import torch

            dev = f"cuda:{self.index}" if self.kind == "cuda" else "cpu"
            return torch.as_tensor(array, device=dev)
        if self.backend == "cupy":
            import cupy

            with cupy.cuda.Device(self.index):
                return cupy.asarray(array)
        if self.backend == "jax" and self.kind == "cuda":
            import jax

            return jax.device_put(array, jax.devices("gpu")[self.index])
        if self.backend == "jax":
            import jax.numpy as jnp

            return jnp.asarray(array)
        return array

    def dm_parts(self, terminated: Any, truncated: Any, elapsed: Any) -> tuple[Any, Any]:
        """dm_env's step_type (int32) and discount (float32) in ``array_backend``."""
        return dm_step_parts(self.backend, terminated, truncated, elapsed)


def _obs(d: dict[str, Any], name: str) -> Any:
    """The observation (``name``: "obs" or "final_obs"): one array ("obs",
    "final_obs/obs"), or a dict of the fields named ``name/key``."""
    if name in d:
        return d[name]
    if f"{name}/obs" in d:
        return d[f"{name}/obs"]
    return _group(d, f"{name}/")


def _group(d: dict[str, Any], prefix: str) -> dict[str, Any]:
    """The entries of ``d`` named ``prefix + key``, by key (in field order)."""
    return {k[len(prefix) :]: v for k, v in d.items() if k.startswith(prefix)}


def _torch_tensors(arrays: tuple[Any, ...], stream: int) -> list[Any]:
    """One call's outputs as torch tensors. torch.from_dlpack looks up the
    current stream again for every array (tens of microseconds per call on a
    GPU); the stream is known here, so each array is exported for it and the
    capsule handed to torch's importer directly."""
    import torch

    take = getattr(torch._C, "_from_dlpack", None)
    if take is None:  # a torch without the private importer
        return [torch.from_dlpack(a) for a in arrays]
    # DLPack: 1 is the legacy default stream; a CPU array takes none.
    kw = {"stream": stream or 1} if stream >= 0 else {}
    return [take(a.__dlpack__(**kw)) for a in arrays]


def _host_ids(env_id: Any) -> Any:
    """env_id as a host array: device tensors are copied (a synchronisation)."""
    if env_id is None or isinstance(env_id, np.ndarray):
        return env_id
    if hasattr(env_id, "__dlpack_device__") and env_id.__dlpack_device__()[0] != _DL_CPU:
        if hasattr(env_id, "get"):  # CuPy
            return np.asarray(env_id.get())
        if hasattr(env_id, "cpu"):  # torch
            return env_id.cpu().numpy()
        return np.asarray(env_id)  # JAX arrays convert themselves
    return env_id


def _array_module(backend: str) -> Any:
    if backend == "jax":
        import jax.numpy as jnp

        return jnp
    if backend == "cupy":
        import cupy

        return cupy
    if backend == "numpy":
        return np
    raise ValueError(
        f"array_backend={backend!r} returns raw DLPack arrays; make_dm needs 'torch', 'jax', "
        "'cupy' (or 'numpy' on the CPU)"
    )


def _converter(backend: str) -> Any:
    """A function taking a DeviceArray to the backend's tensor, zero-copy."""
    if backend == "dlpack":
        return lambda a: a
    if backend == "numpy":
        return np.from_dlpack
    if backend == "torch":
        try:
            import torch
        except ImportError as e:
            raise ImportError("array_backend='torch' needs torch installed") from e
        return torch.from_dlpack
    if backend == "jax":
        try:
            import jax.dlpack
        except ImportError as e:
            raise ImportError("array_backend='jax' needs jax installed") from e
        return jax.dlpack.from_dlpack
    try:
        import cupy
    except ImportError as e:
        raise ImportError("array_backend='cupy' needs cupy installed") from e
    return cupy.from_dlpack
