"""What one env of a family allocates beyond its C++ object, as a family
declares it for the memory check (envpool_x.memory); re-exported by
envpool_x.registration, where families declare themselves."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

KiB, MiB = 1 << 10, 1 << 20  # for the families' memory declarations


@dataclass(frozen=True)
class FamilyMemory:
    """What one env of a family allocates beyond ``sizeof(Env)`` (the CPU
    backend's memory check; measured as the RSS growth per env of large pools).

    Attributes:
        env_resident: bytes one env touches (an ALE emulator, an ``mjData``).
        env_address: address space one env reserves, when more than resident
            (MuJoCo's arena: reserved at once, touched as needed).
        env_reserved: address space one env reserves beyond what it touches,
            for families whose resident size varies by pool (Box2D's stack
            allocator inside each world).
        heap_observations: heap an env keeps that grows with its observation,
            in observations' worth (Atari's frame stack).
        pool_resident: ``env_resident`` of the envs of the family that differ,
            by pool name.
        config_extra: given a pool name and an env config, the (resident,
            address space) bytes one env takes beyond the above because of that
            config (MuJoCo: a model of the user's own, with a larger arena);
            None: the config changes nothing.
        thread_extra: given a pool name and an env config, the (resident,
            address space) bytes each thread that steps envs (every worker and
            the caller's) takes for that config (a pixel env's GL context and
            scratch ``mjData``); None: nothing.
    """

    env_resident: int = 0
    env_address: int = 0
    env_reserved: int = 0
    heap_observations: int = 0
    pool_resident: Mapping[str, int] = field(default_factory=dict)
    config_extra: Callable[[str, Mapping[str, Any]], tuple[int, int]] | None = None
    thread_extra: Callable[[str, Mapping[str, Any]], tuple[int, int]] | None = None

    def resident(self, pool_name: str) -> int:
        """Bytes one env of ``pool_name`` touches beyond sizeof(Env)."""
        return self.pool_resident.get(pool_name, self.env_resident)

    def extra(self, pool_name: str, config: Mapping[str, Any]) -> tuple[int, int]:
        """(resident, address space) bytes one env adds for ``config`` (:attr:`config_extra`)."""
        if self.config_extra is None:
            return 0, 0
        resident, address = self.config_extra(pool_name, config)
        return int(resident), int(address)

    def per_thread(self, pool_name: str, config: Mapping[str, Any]) -> tuple[int, int]:
        """(resident, address space) bytes each stepping thread adds for ``config``
        (:attr:`thread_extra`)."""
        if self.thread_extra is None:
            return 0, 0
        resident, address = self.thread_extra(pool_name, config)
        return int(resident), int(address)
