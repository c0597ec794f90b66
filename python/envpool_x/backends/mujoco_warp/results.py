"""The pool's inputs and outputs: actions, seeds, output buffers, and handing
results to ``array_backend`` through the one packer (envpool_x.backends.results)."""

from __future__ import annotations

from typing import Any

import numpy as np

from envpool_x.backends import results
from envpool_x.backends.arrays import DL_CPU, OneCallInFlight, caller_stream, dm_step_parts
from envpool_x.backends.checks import check_reset_seeds, seed_list
from envpool_x.backends.contract import Results
from envpool_x.backends.mujoco_warp.kernels import INFO_NAMES

_SEED_MIX = 0x9E3779B97F4A7C15  # golden-ratio constant: spreads consecutive seeds


def seeds_for(env_seeds: list[int] | None, seed: Any, n: int) -> np.ndarray:
    """One int32 seed of warp's random streams per env: from a list (one per
    env) or from one int (mixed with the env's index). The values are checked
    by the one seed rule (envpool_x.backends.checks); the streams are warp's
    own, so they differ from the CPU engine's for the same seed."""
    if env_seeds is not None:
        values, offsets = list(env_seeds), [0] * n
    elif isinstance(seed, (list, tuple, np.ndarray)):
        check_reset_seeds(seed, n)
        values, offsets = [int(s) for s in seed], [0] * n
    else:
        seed_list(seed, n)  # one int: refused as the pool option is
        values, offsets = [int(seed)] * n, list(range(n))
    mixed = [
        (((s + i * _SEED_MIX) % 2**64 * _SEED_MIX) >> 32) & 0x7FFFFFFF
        for s, i in zip(values, offsets, strict=True)
    ]
    return np.asarray(mixed, dtype=np.int32)


#: Info keys that are another key's column under the name of an older task version.
INFO_ALIASES = {
    "reward_run": "reward_forward",  # HalfCheetah-v4
    "forward_reward": "reward_forward",  # Ant-v4, Humanoid-v4
    "reward_linvel": "reward_forward",  # Humanoid-v4
    "reward_quadctrl": "reward_ctrl",
    "reward_alive": "reward_survive",
}


class Outputs:
    """One call's result arrays on the device (rows = the call's envs)."""

    def __init__(
        self, wp: Any, n: int, obs_dim: int, same_step: bool, info: list[str], ntendon: int
    ) -> None:
        self.wp, self.n, self.obs_dim, self.same_step = wp, n, obs_dim, same_step
        self.info_names, self.ntendon = info, ntendon
        known = set(INFO_NAMES) | set(INFO_ALIASES) | {"tendon_length", "tendon_velocity"}
        unknown = set(info) - known
        if unknown:
            raise NotImplementedError(f"info keys {sorted(unknown)} have no MuJoCo Warp version")
        self._columns = {
            name: INFO_NAMES.index(INFO_ALIASES.get(name, name))
            for name in info
            if INFO_ALIASES.get(name, name) in INFO_NAMES
        }
        self._fill(n)

    def _fill(self, n: int) -> None:
        wp = self.wp
        self.obs = wp.zeros((n, self.obs_dim), dtype=wp.float64)
        self.reward = wp.zeros(n, dtype=wp.float64)
        self.terminated = wp.zeros(n, dtype=wp.bool)
        self.truncated = wp.zeros(n, dtype=wp.bool)
        self.elapsed = wp.zeros(n, dtype=wp.int32)
        self.final_mask = wp.zeros(n, dtype=wp.bool)
        self.final_obs = wp.zeros((n, self.obs_dim), dtype=wp.float64) if self.same_step else None
        self.info = wp.zeros((10, n), dtype=wp.float64)  # kernels.INFO_NAMES by row
        self.final_info = wp.zeros((10, n), dtype=wp.float64) if self.same_step else None
        self.ten_length = wp.zeros((n, self.ntendon), dtype=wp.float64)
        self.ten_velocity = wp.zeros((n, self.ntendon), dtype=wp.float64)
        self.env_id: Any = None
        # same_step's final_info also holds env_id, elapsed_step and the
        # tendon vectors of the ending step, as the CPU engine's does.
        if self.same_step:
            self.final_env_id = wp.zeros(n, dtype=wp.int32)
            self.final_elapsed = wp.zeros(n, dtype=wp.int32)
            self.final_ten_length = wp.zeros((n, self.ntendon), dtype=wp.float64)
            self.final_ten_velocity = wp.zeros((n, self.ntendon), dtype=wp.float64)

    def clear_final(self) -> None:
        """No episode ends in this call (a reset): the final_* blocks are zero."""
        self.final_mask.zero_()
        if self.final_obs is not None and self.final_info is not None:  # same_step
            for a in (self.final_obs, self.final_info, self.final_env_id, self.final_elapsed):
                a.zero_()
            self.final_ten_length.zero_()
            self.final_ten_velocity.zero_()

    def take(self, n: int, fresh: bool) -> Outputs:
        """Arrays for a call of ``n`` envs: new ones (copy_results) or these."""
        if fresh:
            return Outputs(self.wp, n, self.obs_dim, self.same_step, self.info_names, self.ntendon)
        return self

    def set_ids(self, ids: Any, n: int) -> None:
        """The call's env ids (a device int32 array)."""
        self.env_id = ids if ids.shape[0] == n else ids[:n]

    def fields(self, n: int) -> dict[str, Any]:
        """The result arrays by name, ``n`` rows each."""
        names = results.NAMES
        out = {
            names["obs"]: self.obs[:n],
            names["reward"]: self.reward[:n],
            names["terminated"]: self.terminated[:n],
            names["truncated"]: self.truncated[:n],
            names["env_id"]: self.env_id,
            names["elapsed_step"]: self.elapsed[:n],
        }
        info, final_info = names["info_prefix"], names["final_info_prefix"]
        for name in self.info_names:
            if name in self._columns:
                out[info + name] = self.info[self._columns[name]][:n]
            else:
                out[info + name] = (
                    self.ten_length if name == "tendon_length" else self.ten_velocity
                )[:n]
        if self.final_info is not None:
            out[final_info + names["env_id"]] = self.final_env_id[:n]
            out[final_info + names["elapsed_step"]] = self.final_elapsed[:n]
            for name in self.info_names:
                if name in self._columns:
                    out[final_info + name] = self.final_info[self._columns[name]][:n]
                else:
                    out[final_info + name] = (
                        self.final_ten_length
                        if name == "tendon_length"
                        else self.final_ten_velocity
                    )[:n]
        if self.final_obs is not None:
            out[names["final_obs_prefix"] + names["obs"]] = self.final_obs[:n]
            out[names["final_mask"]] = self.final_mask[:n]
        return out


class ResultMixin(OneCallInFlight):
    """Actions in and results out (send / recv from :class:`OneCallInFlight`); for the
    MuJoCo Warp pool."""

    wp: Any
    kind: str
    index: int
    backend: str
    nu: int
    wp_device: str
    _convert: Any

    def stream(self) -> int:
        """The caller's current CUDA stream in ``array_backend`` (0 for JAX /
        DLPack and on the CPU), on which the pool launches its work."""
        return caller_stream(self.kind, self.backend, self.index)

    def _scope(self) -> Any:
        """Warp's device, and on a GPU the caller's stream (torch / CuPy), so
        that results are ordered before the caller's next work without a sync.
        JAX / DLPack results are on warp's stream of the device."""
        wp = self.wp
        if self.kind != "cuda" or self.backend not in ("torch", "cupy"):
            return wp.ScopedDevice(self.wp_device)
        ptr = self.stream()
        streams: dict[int, Any] = self.__dict__.setdefault("_streams", {})
        if ptr not in streams:
            if self.backend == "torch":  # warp's converter knows torch's default stream
                import torch

                streams[ptr] = wp.stream_from_torch(torch.cuda.current_stream(self.index))
            else:
                streams[ptr] = wp.Stream(self.wp_device, cuda_stream=ptr)
        return wp.ScopedStream(streams[ptr])

    def _action(self, action: Any, n: int) -> Any:
        """The action as a float32 (n, nu) warp array on the pool's device.

        Raises:
            TypeError: not a float array. ValueError: wrong shape, a host
            tensor for a GPU pool or a tensor on another device, or (numpy)
            non-finite values.
        """
        wp = self.wp
        if isinstance(action, np.ndarray) or not hasattr(action, "__dlpack__"):
            a = np.asarray(action)
            if a.dtype.kind != "f":
                raise TypeError(f"action must be a float32/float64 array, got {a.dtype}")
            if a.shape != (n, self.nu):
                raise ValueError(f"action must have shape ({n}, {self.nu}), got {a.shape}")
            bad = np.argwhere(~np.isfinite(a))
            if bad.size:
                raise ValueError(
                    f"env_id {int(bad[0][0])}'s action is not finite (NaN or inf) at index "
                    f"{int(bad[0][1])}"
                )
            return wp.array(np.ascontiguousarray(a, dtype=np.float32), device=self.wp_device)
        dev_type, dev_index = action.__dlpack_device__()
        on_host = int(dev_type) == DL_CPU
        if self.kind == "cuda" and on_host:
            raise ValueError(
                "action is a tensor in host memory (the CPU) but this env runs on "
                f"cuda:{self.index}"
            )
        if self.kind == "cuda" and int(dev_index) != self.index:
            raise ValueError(
                f"action is on cuda:{dev_index} but this env runs on cuda:{self.index}"
            )
        if self.kind != "cuda" and not on_host:
            raise ValueError("action is a GPU tensor but this env runs on the CPU (cpu-reference)")
        if tuple(action.shape) != (n, self.nu):
            raise ValueError(f"action must have shape ({n}, {self.nu}), got {tuple(action.shape)}")
        arr = wp.from_dlpack(action)
        if arr.dtype == wp.float32:
            return arr if arr.is_contiguous else wp.clone(arr)
        if arr.dtype == wp.float64:
            out = wp.empty((n, self.nu), dtype=wp.float32, device=self.wp_device)
            wp.utils.array_cast(in_array=arr, out_array=out)
            return out
        raise TypeError(f"action must be a float32/float64 tensor, got {arr.dtype}")

    def _pack(self, out: Outputs, n: int) -> Results:
        return results.pack({k: self._to_backend(v) for k, v in out.fields(n).items()})

    def _to_backend(self, a: Any) -> Any:
        if self.backend == "numpy":
            return a.numpy()
        if self.backend == "torch":
            return self.wp.to_torch(a)
        return self._convert(a)

    def from_host(self, array: np.ndarray) -> Any:
        """A small host array as an array of ``array_backend`` on this env's device."""
        wp = self.wp
        return self._to_backend(wp.array(array, device=self.wp_device))

    def dm_parts(self, terminated: Any, truncated: Any, elapsed: Any) -> tuple[Any, Any]:
        """dm_env's step_type (int32) and discount (float32) in ``array_backend``."""
        return dm_step_parts(self.backend, terminated, truncated, elapsed)
