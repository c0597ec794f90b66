"""Procgen's own engine (its libenv.so, the gym3 libenv C API) driven through ctypes.

This is the oracle of the Procgen parity tests: the same compiled library our
envs load, stepped the way procgen's gym3 env steps it (one handle holding
``num`` games, all stepped by ``libenv_act``), with none of our code between.
"""

from __future__ import annotations

import ctypes
from pathlib import Path

import numpy as np

NAME_LEN = 128  # LIBENV_MAX_NAME_LEN of gym3's libenv.h
DTYPE_UINT8, DTYPE_INT32 = 1, 2
INFO_NAMES = ("prev_level_seed", "prev_level_complete", "level_seed")


class _Option(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char * NAME_LEN),
        ("dtype", ctypes.c_int),
        ("count", ctypes.c_int),
        ("data", ctypes.c_void_p),
    ]


class _Options(ctypes.Structure):
    _fields_ = [("items", ctypes.POINTER(_Option)), ("count", ctypes.c_int)]


class _Buffers(ctypes.Structure):
    _fields_ = [
        ("ob", ctypes.POINTER(ctypes.c_void_p)),
        ("rew", ctypes.POINTER(ctypes.c_float)),
        ("first", ctypes.POINTER(ctypes.c_uint8)),
        ("info", ctypes.POINTER(ctypes.c_void_p)),
        ("ac", ctypes.POINTER(ctypes.c_void_p)),
    ]


def load_library(path: str | Path) -> ctypes.CDLL:
    """Return procgen's libenv.so loaded with its C functions' signatures set."""
    lib = ctypes.CDLL(str(path))
    lib.libenv_make.restype = ctypes.c_void_p
    lib.libenv_make.argtypes = [ctypes.c_int, _Options]
    for name in ("libenv_observe", "libenv_act", "libenv_close"):
        getattr(lib, name).argtypes = [ctypes.c_void_p]
    lib.libenv_set_buffers.argtypes = [ctypes.c_void_p, ctypes.POINTER(_Buffers)]
    return lib


def game_level_generator_seed(rand_seed: int, game: int) -> int:
    """The seed procgen's env made with ``rand_seed`` gives game ``game``'s level
    generator: draw ``game + 1`` of an mt19937 seeded with ``rand_seed`` (numpy's
    legacy seeding of MT19937 is the C++ standard's)."""
    draws = np.random.RandomState(rand_seed).randint(0, 2**32, game + 1, dtype=np.uint64)
    return int(draws[-1])


def libenv_options(config: dict, rand_seed: int, resource_root: str | Path) -> dict:
    """procgen's libenv options for one of our env configs and procgen's ``rand_seed``,
    as procgen's Python env passes them (``resource_root``: procgen's assets folder)."""
    keys = (
        "use_sequential_levels",
        "center_agent",
        "use_backgrounds",
        "use_monochrome_assets",
        "restrict_themes",
        "use_generated_assets",
        "paint_vel_info",
        "use_easy_jump",
    )
    options: dict[str, object] = {k: bool(config[k]) for k in keys}
    options.update(
        env_name=config["env_name"],
        num_levels=int(config["num_levels"]),
        start_level=int(config["start_level"]),
        num_actions=15,
        debug_mode=0,
        rand_seed=rand_seed,
        num_threads=0,
        render_human=False,
        resource_root=str(resource_root) + "/",
        distribution_mode=int(config["distribution_mode"]),
    )
    return options


class OracleGames:
    """``num`` procgen games in one libenv handle, without procgen's threads.

    Options are procgen's libenv names; bools and ints are typed as procgen's
    Python env types them (uint8 for bools, int32 for ints, uint8 bytes for strings).
    """

    def __init__(self, lib: ctypes.CDLL, num: int, options: dict[str, object]) -> None:
        self._lib = lib
        self._keep: list[object] = []
        items = (_Option * len(options))()
        for item, (name, value) in zip(items, options.items(), strict=True):
            item.name = name.encode()
            if isinstance(value, str):
                data = ctypes.create_string_buffer(value.encode(), len(value))
                item.dtype, item.count = DTYPE_UINT8, len(value)
            elif isinstance(value, bool):
                data = ctypes.c_uint8(int(value))
                item.dtype, item.count = DTYPE_UINT8, 1
            else:
                data = ctypes.c_int32(int(value))  # type: ignore[call-overload]
                item.dtype, item.count = DTYPE_INT32, 1
            self._keep.append(data)
            item.data = ctypes.cast(ctypes.pointer(data), ctypes.c_void_p)
        self.handle = lib.libenv_make(num, _Options(items, len(options)))
        self.num = num
        self.obs = np.zeros((num, 64, 64, 3), np.uint8)
        self.action = np.zeros(num, np.int32)
        self.reward = np.zeros(num, np.float32)
        self.first = np.zeros(num, np.uint8)
        self.info = {
            "prev_level_seed": np.zeros(num, np.int32),
            "prev_level_complete": np.zeros(num, np.uint8),
            "level_seed": np.zeros(num, np.int32),
        }
        names = list(INFO_NAMES)
        if options.get("render_human"):  # procgen's 512 x 512 human view, drawn by observe
            self.info["rgb"] = np.zeros((num, 512, 512, 3), np.uint8)
            names.append("rgb")

        def pointers(arrays: list[np.ndarray]) -> ctypes.Array[ctypes.c_void_p]:
            rows = [
                a[i].ctypes.data if a.ndim > 1 else a.ctypes.data + i * a.itemsize
                for a in arrays
                for i in range(num)
            ]
            return (ctypes.c_void_p * len(rows))(*rows)

        ob = pointers([self.obs])
        ac = pointers([self.action])
        info = pointers([self.info[n] for n in names])
        self._keep += [ob, ac, info]
        buffers = _Buffers(
            ob,
            self.reward.ctypes.data_as(ctypes.POINTER(ctypes.c_float)),
            self.first.ctypes.data_as(ctypes.POINTER(ctypes.c_uint8)),
            info,
            ac,
        )
        lib.libenv_set_buffers(self.handle, ctypes.byref(buffers))
        lib.libenv_observe(self.handle)

    def step(self, actions: np.ndarray) -> None:
        """Step every game with ``actions``; results land in obs, reward, first, info.
        Action -1 is procgen's forced reset: the game starts its next level."""
        self.action[:] = actions
        self._lib.libenv_act(self.handle)
        self._lib.libenv_observe(self.handle)

    def close(self) -> None:
        """Free the handle (idempotent)."""
        if self.handle:
            self._lib.libenv_close(self.handle)
            self.handle = None
