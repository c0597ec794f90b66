"""Arrays of the device backends: the array backends results come in (torch, JAX,
CuPy, raw DLPack, numpy), the caller's CUDA stream, DLPack devices of inputs, and
send / recv over synchronous calls. Shared by the CUDA stepper and MuJoCo Warp."""

from __future__ import annotations

from typing import Any

import numpy as np

from envpool_x.backends.contract import Results

ARRAY_BACKENDS = ("torch", "jax", "cupy", "dlpack", "numpy")
#: DLPack's device type of host memory (``__dlpack_device__()[0]``).
DL_CPU = 1


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
    xp = array_module(backend)
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

    _pending: Results | None = None

    def step(self, action: Any, env_id: Any = None) -> Results:
        raise NotImplementedError

    def reset(self, env_id: Any = None, seed: Any = None) -> Results:
        raise NotImplementedError

    def send_step(self, action: Any, env_id: Any = None) -> None:
        """Queue a step whose results the next :meth:`recv` returns."""
        self._check_nothing_pending()
        self._pending = self.step(action, env_id)

    def send_reset(self, env_id: Any = None, seed: Any = None) -> None:
        """Queue a reset whose results the next :meth:`recv` returns."""
        self._check_nothing_pending()
        self._pending = self.reset(env_id, seed)

    def recv(self) -> Results:
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


def torch_tensors(arrays: tuple[Any, ...], stream: int) -> list[Any]:
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


def host_ids(env_id: Any) -> Any:
    """env_id as a host array: device tensors are copied (a synchronisation)."""
    if env_id is None or isinstance(env_id, np.ndarray):
        return env_id
    if hasattr(env_id, "__dlpack_device__") and env_id.__dlpack_device__()[0] != DL_CPU:
        if hasattr(env_id, "get"):  # CuPy
            return np.asarray(env_id.get())
        if hasattr(env_id, "cpu"):  # torch
            return env_id.cpu().numpy()
        return np.asarray(env_id)  # JAX arrays convert themselves
    return env_id


def array_module(backend: str) -> Any:
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


def converter(backend: str) -> Any:
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
