"""What this process may still use: the least of the cgroup's limit minus its
usage (v2 ``memory.max``, v1 ``memory.limit_in_bytes``) and ``MemAvailable`` for
resident bytes, ``RLIMIT_AS`` minus the current ``VmSize`` for address space,
and the free memory of the GPU a pool runs on. envpool_x.memory checks pools
against it."""

from __future__ import annotations

import resource
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from envpool_x.spec import EnvSpec

KiB = 1 << 10


@dataclass(frozen=True)
class Available:
    """Bytes this process may still use; None: no limit of that kind known."""

    resident: int | None
    address_space: int | None
    device: int | None
    sources: dict[str, int]  # every number looked at, by name (for messages)


def _read_int(path: str) -> int | None:
    try:
        with open(path) as f:
            text = f.read().strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None  # "max": no limit


def _cgroup_headroom() -> int | None:
    """The cgroup's memory limit minus its usage (v2, else v1); None: no limit."""
    try:
        with open("/proc/self/cgroup") as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    for line in lines:
        _, controllers, path = line.split(":", 2)
        if controllers == "":  # v2
            base = "/sys/fs/cgroup" + path.rstrip("/")
            limit = _read_int(base + "/memory.max") or _read_int("/sys/fs/cgroup/memory.max")
            usage = _read_int(base + "/memory.current") or _read_int(
                "/sys/fs/cgroup/memory.current"
            )
        elif "memory" in controllers.split(","):  # v1
            base = "/sys/fs/cgroup/memory"
            limit = _read_int(base + "/memory.limit_in_bytes")
            usage = _read_int(base + "/memory.usage_in_bytes")
            if limit is not None and limit >= 1 << 60:  # v1's "unlimited"
                limit = None
        else:
            continue
        if limit is not None:
            return max(0, limit - (usage or 0))
    return None


def _meminfo(key: str) -> int | None:
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1]) * KiB
    except OSError:
        pass
    return None


def _vm_size() -> int:
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * KiB
    except OSError:
        pass
    return 0


def available(spec: EnvSpec | None = None) -> Available:
    """What this process may still use now (``spec``: for the GPU it runs on)."""
    sources: dict[str, int] = {}
    cgroup = _cgroup_headroom()
    if cgroup is not None:
        sources["cgroup limit - usage"] = cgroup
    mem = _meminfo("MemAvailable")
    if mem is not None:
        sources["MemAvailable"] = mem
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    address = None
    if soft != resource.RLIM_INFINITY:
        address = max(0, soft - _vm_size())
        sources["RLIMIT_AS - VmSize"] = address
    resident = min([v for k, v in sources.items() if k != "RLIMIT_AS - VmSize"], default=None)
    device = spec.backend.device_free(spec) if spec is not None else None
    if device is not None:
        sources["GPU free (cudaMemGetInfo)"] = device
    return Available(resident, address, device, sources)
