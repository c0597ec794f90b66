"""The CUDA backend: classic control, MaxCut, TSP and the Tag envs stepped by one
CUDA kernel per call (cpp/cuda; ``_core.CudaPool``).

``make_gymnasium(task, num_envs=N, device="cuda")`` (or ``"cuda:K"``) gives the
same front ends as the CPU engine: state lives on the GPU, actions come in
through DLPack (torch / JAX / CuPy tensors on the same GPU, without a copy;
numpy arrays are copied once) and results go out as tensors of the framework
named by ``array_backend`` (envpool_x.backends.arrays), without a host round
trip. ``device="cpu-reference"`` runs the very kernel body on the CPU with a
host loop over the kernel's thread indices (slow, single-threaded): the tests
check the kernels that way on machines without a GPU.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from envpool_x import _core, memory
from envpool_x.backends import parse_device, results
from envpool_x.backends.arrays import (
    OneCallInFlight,
    caller_stream,
    checked_backend,
    converter,
    dm_step_parts,
    host_ids,
    torch_tensors,
)
from envpool_x.backends.contract import DevicePool, Estimate, Results

if TYPE_CHECKING:
    from envpool_x.spec import EnvSpec


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


class CudaPool(OneCallInFlight):
    """The pool interface (step / reset / send / recv / close) over the CUDA
    stepper, returning tensors of ``array_backend``.

    Results are fresh arrays at every call unless ``copy_results=False``, in
    which case every call returns views of one buffer that the next call
    overwrites (no allocation per step).
    """

    def __init__(self, spec: EnvSpec) -> None:
        cfg = spec.config
        kind, index = parse_device(cfg.device)
        if kind == "cuda":
            require_cuda(index)
        self.kind, self.index = kind, index
        self.backend = checked_backend(cfg.array_backend, kind)
        self._convert = converter(self.backend)
        memory.check(spec)  # device arrays against cudaMemGetInfo, host ones against RAM
        seed: Any = spec.env_seeds if spec.env_seeds is not None else int(cfg.seed)
        self._pool = _core.CudaPool(
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
    def step(self, action: Any, env_id: Any = None) -> Results:
        """Step the envs in ``env_id`` (None: all) and return their results."""
        s = self.stream()
        return self._pack(self._pool.step(action, host_ids(env_id), s), s)

    def reset(self, env_id: Any = None, seed: Any = None) -> Results:
        """Reset the envs in ``env_id`` (None: all) and return their results."""
        s = self.stream()
        return self._pack(self._pool.reset(host_ids(env_id), seed, s), s)

    def reset_masked(self, env_id: Any, seed: Any = None) -> Results:
        """Every env's row: envs in ``env_id`` reset, the others their current obs."""
        s = self.stream()
        return self._pack(self._pool.reset_masked(host_ids(env_id), seed, s), s)

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

    # -- per-env parameters (docs/params.md) -----------------------------------
    def set_params(
        self, env_ids: Any, settings: Mapping[str, Any], immediate: bool, require_idle: bool = False
    ) -> None:
        """Settings ``{name: (draw, a, b, choices)}`` (envpool_x.params.encode) for
        ``env_ids`` (None: all), applied at each env's next reset, on the device
        too (autoresets draw there); ``immediate`` applies plain values now (a
        synchronisation). A device pool has no work in flight between calls, so
        ``require_idle`` holds by construction."""
        del require_idle
        self._pool.set_params(host_ids(env_ids), dict(settings), immediate, self.stream())

    def get_params(self, env_ids: Any = None) -> np.ndarray:
        """``(len(env_ids), parameters)`` float64: what each env runs with now
        (read back from the device: a synchronisation)."""
        return np.asarray(self._pool.get_params(host_ids(env_ids), self.stream()))

    def check_param_tables(self, spec: EnvSpec) -> None:
        """MemoryError (nothing changed) if the tables a first ``set_params``
        makes would not fit: device bytes against the GPU's free memory, host
        bytes (and on ``cpu-reference`` the device ones too) against RAM."""
        if memory.skipped(spec):
            return
        sizes = _core.CudaPool.memory_sizes(
            spec.entry.pool_name,
            spec.env_config,
            num_envs=int(spec.config.num_envs),
            autoreset_mode=str(spec.config.autoreset_mode),
        )
        n = int(spec.config.num_envs)
        device = n * int(sizes["params_device_per_env"])
        host = n * int(sizes["params_host_per_env"])
        free = cuda_mem_free(str(spec.config.device))
        checks = [("GPU memory", device, free)] if self.kind == "cuda" else []
        host += 0 if self.kind == "cuda" else device
        checks.append(("memory", host, memory.available(spec).resident))
        for what, need, have in checks:
            if have is not None and need > have:
                raise MemoryError(
                    f"set_params on a {spec.config.device} pool of num_envs={n} {spec.id} envs "
                    f"makes its per-env parameter tables, about {memory.fmt_bytes(need)} of "
                    f"{what}, but {memory.fmt_bytes(have)} is free; nothing was changed. Use "
                    f"fewer envs, or pass check_memory=False or set {memory.SKIP_ENV_VAR}=1 "
                    "if you know better"
                )

    def close(self) -> None:
        """Drop any result not received and free the pool's device memory."""
        self._pending = None
        self._pool.close()

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return bool(self._pool.closed)

    # -- results ---------------------------------------------------------------
    def _pack(self, arrays: tuple[Any, ...], stream: int) -> Results:
        return results.pack(dict(zip(self._names, self._tensors(arrays, stream), strict=True)))

    def _tensors(self, arrays: tuple[Any, ...], stream: int) -> list[Any]:
        if self.backend == "torch":
            return torch_tensors(arrays, stream if self.kind == "cuda" else -1)
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


def check_device_config(config: Mapping[str, Any]) -> None:
    """What every device backend needs of the pool options: one batch of every env."""
    if config["batch_size"] != config["num_envs"]:
        raise ValueError(
            "device='cuda' steps every env at once: batch_size must equal num_envs "
            "(async batches are a CPU-engine feature)"
        )


def cuda_mem_free(device: str) -> int | None:
    """Free bytes of GPU ``device`` (``cudaMemGetInfo``); None off the GPU."""
    kind, index = parse_device(device)
    if kind != "cuda" or not getattr(_core, "built_with_cuda", False):
        return None
    free, _ = _core.cuda_mem_info(index)
    return int(free)


class CudaBackend:
    """The CUDA stepper (and its ``cpu-reference`` host loop)."""

    name = "cuda"
    devices = ("cuda", "cpu-reference")
    host_results = False

    def create(self, spec: EnvSpec, chunk_size: int = 0) -> DevicePool:
        """A :class:`CudaPool` of ``spec`` (``chunk_size`` has no meaning here)."""
        return CudaPool(spec)

    def check_config(self, task_id: str, config: Mapping[str, Any]) -> None:
        """One batch of every env (no async batches on a device)."""
        check_device_config(config)

    def device_free(self, spec: EnvSpec) -> int | None:
        """Free memory of the GPU the pool runs on; None for ``cpu-reference``."""
        return cuda_mem_free(str(spec.config.device))

    def estimate(self, spec: EnvSpec, num_envs: int) -> Estimate:
        """Device arrays (state, RNG, flags, the slab of array state, result
        blocks: sizes from C++) and host tables; ``cpu-reference`` keeps the
        device arrays in host memory."""
        cfg = spec.config
        n = num_envs
        sizes = _core.CudaPool.memory_sizes(
            spec.entry.pool_name,
            spec.env_config,
            num_envs=int(cfg.num_envs),  # the pool's own: its instance checks need it
            autoreset_mode=str(cfg.autoreset_mode),
        )
        row = int(sizes["row_bytes"])
        # copy_results: each call makes a block; a loop holds one while the next is made.
        blocks = 2 if cfg.copy_results else 1
        per_dev = int(sizes["device_per_env"]) + int(sizes["slab_per_env"]) + row * blocks
        per_host = int(sizes["host_per_env"])
        device = n * per_dev + 64 * memory.KiB
        host = n * per_host + memory.FIXED_RESIDENT
        on_host = cfg.device == "cpu-reference"
        resident = host + (device if on_host else 0)
        per_res = per_host + (per_dev if on_host else 0)
        parts = {"device arrays (host)" if on_host else "device arrays": device, "host": host}
        return Estimate(
            n,
            resident,
            resident,
            0 if on_host else device,
            {"resident": per_res, "address_space": per_res, "device": 0.0 if on_host else per_dev},
            parts,
        )


BACKEND = CudaBackend()
