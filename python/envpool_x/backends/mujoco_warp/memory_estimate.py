"""Device memory of a MuJoCo Warp pool, before it allocates (for envpool_x.memory).

MuJoCo Warp's ``make_data`` sizes every array from the model and ``nworld``
(contacts and constraints per world: nconmax, njmax), so its bytes are
``fixed + per_world * nworld``. Both numbers are read off two small
``make_data`` calls (1 and 2 worlds) on warp's CPU device, once per model;
``put_model``'s arrays are counted the same way. The pool's own arrays (per
env flags, the saved state of worlds put back, the result blocks) are added
from their shapes (see pool.py and results.py).
"""

from __future__ import annotations

import dataclasses
import functools
import warnings
from typing import TYPE_CHECKING, Any

from envpool_x.backends.contract import Estimate
from envpool_x.backends.mujoco_warp import engine

if TYPE_CHECKING:
    from envpool_x.spec import EnvSpec

# Per env, besides the rows below: elapsed, done, need_reset, stepped, bad,
# errors, unstable, counters, seeds, all_ids (int32), x_before, y_before (float32).
_POOL_PER_ENV = 10 * 4 + 2 * 4
# Result columns besides obs: reward (8), terminated, truncated, final mask (1
# each), elapsed (4), the info block (10 float64 rows); same_step adds
# final_obs and final_info (the info block, env_id, elapsed_step, tendons).
_ROW_FIXED = 8 + 1 + 1 + 1 + 4 + 10 * 8


def _array_bytes(obj: Any, wp: Any, seen: set[int]) -> int:
    """Bytes of the warp arrays in ``obj`` (a dataclass of arrays and nested
    dataclasses / tuples of them), each array once."""
    if isinstance(obj, wp.array):
        if id(obj) in seen:
            return 0
        seen.add(id(obj))
        return int(obj.capacity)
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return sum(_array_bytes(getattr(obj, f.name), wp, seen) for f in dataclasses.fields(obj))
    if isinstance(obj, (list, tuple)):
        return sum(_array_bytes(v, wp, seen) for v in obj)
    return 0


@functools.lru_cache(maxsize=16)
def engine_bytes(xml_file: str) -> tuple[int, int, int, int]:
    """``(fixed, per_world, state_per_world, ntendon)`` of a model: MuJoCo Warp's
    Model and Data bytes (fixed: the model and what does not grow with
    nworld), and the bytes of the state a step saves per world (qpos, qvel,
    qacc_warmstart, ctrl, act, time)."""
    _, wp, mjw = engine.import_engine()
    model = engine.load_model(xml_file)
    sizes = []
    with wp.ScopedDevice("cpu"), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # MuJoCo Warp's notes on defaults it picks
        m_bytes = _array_bytes(mjw.put_model(model), wp, set())
        for nworld in (1, 2):
            sizes.append(_array_bytes(mjw.make_data(model, nworld=nworld), wp, set()))
    per_world = sizes[1] - sizes[0]
    state = 4 * (model.nq + 2 * model.nv + model.nu + model.na + 1)
    return m_bytes + sizes[0] - per_world, per_world, state, int(model.ntendon)


def pool_bytes(spec: EnvSpec, n: int) -> tuple[int, int]:
    """``(fixed, per_env)`` device bytes of a pool of ``spec`` with ``n`` envs."""
    cfg = spec.config
    env_cfg = dict(spec.env_config)
    fixed, per_world, state, ntendon = engine_bytes(str(env_cfg["xml_file"]))
    (obs,) = spec.observation_space.shape or (0,)
    info_names = [i["name"] for i in spec._desc["info"]]
    tendons = 2 * 8 * ntendon if "tendon_length" in info_names else 0
    row = 8 * obs + _ROW_FIXED + tendons
    if cfg.autoreset_mode == "same_step":
        row += 8 * obs + 10 * 8 + 2 * 4 + tendons
    # The pool's own block, plus with copy_results a fresh one per call while
    # the caller still holds the last.
    blocks = 3 if cfg.copy_results else 1
    per_env = per_world + state + _POOL_PER_ENV + 8 * obs + blocks * row
    return fixed, per_env


def estimate(spec: EnvSpec, n: int, fixed_host: int) -> Estimate:
    """The estimate of a MuJoCo Warp pool of
    ``n`` envs (``fixed_host``: the host bytes of any pool): device bytes on a
    GPU; on cpu-reference warp's arrays are host memory (resident)."""
    fixed, per_env = pool_bytes(spec, n)
    device = fixed + n * per_env
    host_per_env = 8 + 4  # the host copy of seeds and ids made at construction
    host = fixed_host + n * host_per_env
    if spec.config.device == "cpu-reference":
        resident, per = host + device, float(host_per_env + per_env)
        parts = {"MuJoCo Warp and pool arrays (host)": device, "host": host}
        per_kind = {"resident": per, "address_space": per, "device": 0.0}
        return Estimate(n, resident, resident, 0, per_kind, parts)
    parts = {"MuJoCo Warp and pool arrays": device, "host": host}
    per_kind = {"resident": host_per_env, "address_space": host_per_env, "device": per_env}
    return Estimate(n, host, host, device, {k: float(v) for k, v in per_kind.items()}, parts)


def device_free(device: str) -> int | None:
    """Free bytes of ``"cuda[:K]"`` as warp sees them (None: no such GPU)."""
    try:
        _, wp, _ = engine.import_engine()
        wp.init()
        index = int(device.partition(":")[2] or 0)
        if index >= wp.get_cuda_device_count():
            return None
        return int(wp.get_device(f"cuda:{index}").free_memory)
    except (ImportError, RuntimeError):
        return None
