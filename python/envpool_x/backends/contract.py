"""The written contract of a backend (one way of stepping a task) and of the pool it creates.

Every backend (the CPU thread pool, the CUDA stepper, MuJoCo Warp) is an object
of :class:`Backend` in the registry (``envpool_x.backends``); the pools they
create all satisfy :class:`Pool`. Everything above the seam (spec, memory
check, front ends, render, CLI) speaks only these two types; the shared
contract test suite (``tests/backends/test_contract.py``) checks every backend
against them.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias, runtime_checkable

from envpool_x import _core

if TYPE_CHECKING:
    from envpool_x.spec import EnvSpec

#: ``(obs, reward, terminated, truncated, info)`` of the envs of one call, in
#: the call's env order; arrays of the pool's array backend (numpy on the CPU).
Results: TypeAlias = tuple[Any, Any, Any, Any, dict[str, Any]]


class AutoresetMode(str, enum.Enum):
    """What happens after an episode ends; the one enum of every backend.

    The values are the names users pass (``autoreset_mode="same_step"``);
    :attr:`code` is the integer the C++ engine and the device kernels use, read
    from the C++ enum (``cpp/core/autoreset.h``) so that no backend numbers the
    modes on its own.
    """

    NEXT_STEP = "next_step"  # the step after the last one resets (its action ignored)
    SAME_STEP = "same_step"  # reset at once; the last obs / info as final_obs / final_info
    DISABLED = "disabled"  # never reset automatically: reset finished envs by hand

    @property
    def code(self) -> int:
        """The integer of this mode in C++ and in the device kernels."""
        return int(_core.autoreset_modes()[self.value])


@dataclass(frozen=True)
class Estimate:
    """Bytes a pool of ``num_envs`` envs will take (see :mod:`envpool_x.memory`)."""

    num_envs: int
    resident: int  # RAM the pool touches (its RSS growth)
    address_space: int  # address space it reserves (what RLIMIT_AS counts)
    device: int  # GPU memory (0 off the GPU)
    per_env: dict[str, float]  # the same three, per env: how each grows with num_envs
    parts: dict[str, int] = field(default_factory=dict)  # resident bytes by part


@runtime_checkable
class Pool(Protocol):
    """What a backend's pool does; every front end drives pools only through this.

    Ids are checked by one rule (``envpool_x.backends.checks`` and its C++
    twin): integers in ``[0, num_envs)``, no repeats, not empty. Errors are
    typed: ``ValueError`` for bad ids, seeds and action values, ``TypeError``
    for wrong kinds, ``RuntimeError`` for a closed pool or work in flight.
    """

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        ...

    def step(self, action: Any, env_id: Any = None) -> Results:
        """Step the envs in ``env_id`` (None: all) with ``action`` (one row each)."""
        ...

    def reset(self, env_id: Any = None, seed: Any = None) -> Results:
        """Reset the envs in ``env_id`` (None: all); ``seed`` reseeds them first."""
        ...

    def send_step(self, action: Any, env_id: Any = None) -> None:
        """Queue a step; :meth:`recv` returns its results."""
        ...

    def send_reset(self, env_id: Any = None, seed: Any = None) -> None:
        """Queue a reset; :meth:`recv` returns its results."""
        ...

    def recv(self) -> Results:
        """The results of the envs that finished (async: the first batch_size)."""
        ...

    def close(self) -> None:
        """Stop the pool and free what it holds; later calls raise RuntimeError."""
        ...

    def get_state(self, env_id: int) -> Any:
        """The simulation state of one env (for render, parity tests)."""
        ...

    def set_state(self, env_id: int, state: Any) -> None:
        """Overwrite the simulation state of one env."""
        ...


@runtime_checkable
class DevicePool(Pool, Protocol):
    """A pool whose results live in device memory, in ``array_backend`` tensors.

    Work is queued on the device without a read back, so errors the kernels
    record surface at :meth:`check_errors`; a reset with a mask returns every
    env's row (:meth:`reset_masked`).
    """

    backend: str  # the array backend: "torch", "jax", "cupy", "dlpack" or "numpy"

    def reset_masked(self, env_id: Any, seed: Any = None) -> Results:
        """Every env's row: envs in ``env_id`` reset, the others their current obs."""
        ...

    def check_errors(self) -> None:
        """Raise for what the device recorded (bad actions, finished envs)."""
        ...

    def synchronize(self) -> None:
        """Wait until every queued call has run."""
        ...

    def from_host(self, array: Any) -> Any:
        """A small host array as a tensor of the pool's array backend and device."""
        ...

    def dm_parts(self, terminated: Any, truncated: Any, elapsed: Any) -> tuple[Any, Any]:
        """dm_env's step_type (int32) and discount (float32) as tensors."""
        ...


@runtime_checkable
class FramePool(Protocol):
    """A pool whose envs draw their own frames (ALE's screen, Box2D's raster);
    other pools' frames come from their states and the family's renderer."""

    @property
    def render_shape(self) -> tuple[int, int]:
        """(height, width) of a frame; (0, 0) when the env draws none itself."""
        ...

    def render(self, env_id: Any = None) -> Any:
        """uint8 frames (k, H, W, 3) of the envs in ``env_id``."""
        ...


class Backend(Protocol):
    """One way of stepping tasks: creates pools and says what they will cost.

    A family declares which backends run its tasks (``Family.backends``); the
    registry picks the backend of a spec from its ``device`` and that
    declaration, so that nothing above the seam names a backend or a family.
    """

    #: The registry's name of the backend ("cpu", "cuda", "mujoco_warp").
    name: str
    #: The ``device`` kinds it serves ("cpu"; "cuda" and "cpu-reference").
    devices: tuple[str, ...]
    #: Whether its results are numpy arrays the next call never overwrites
    #: (the CPU engine); else tensors of ``array_backend`` (:class:`DevicePool`).
    host_results: bool

    def create(self, spec: EnvSpec, chunk_size: int = 0) -> Pool:
        """A pool of ``spec`` (its memory checked first, unless switched off).

        Raises:
            MemoryError: the pool would not fit (envpool_x.memory).
            RuntimeError: the backend cannot run here (no GPU, no CUDA build).
        """
        ...

    def estimate(self, spec: EnvSpec, num_envs: int) -> Estimate:
        """What a pool of ``spec`` with ``num_envs`` envs will take."""
        ...

    def device_free(self, spec: EnvSpec) -> int | None:
        """Free bytes of the device the pool would run on (None: host memory only)."""
        ...

    def check_config(self, task_id: str, config: Mapping[str, Any]) -> None:
        """Refuse pool options this backend cannot honour (ValueError / TypeError)."""
        ...
