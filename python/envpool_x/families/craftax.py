"""Craftax (craftax 1.6.1's JAX games) in C++: ``Craftax-Classic-Symbolic-v1`` so far.

The game is our own C++ (cpp/envs/craftax/); worlds come from each env's seed
stream, so they differ from Craftax's for the same seed, while a step given the
same state and the same random draws matches Craftax's step exactly
(tests/families/test_craftax_classic.py). The ids exist only in builds with
``ENVPOOL_X_CRAFTAX`` on (the default).
"""

from __future__ import annotations

from envpool_x import _core
from envpool_x.options import BOOL, Float, Int, OptionTable
from envpool_x.registration import Family, declare_family, note_not_built, register, register_alias

_INT30 = 2**30

CRAFTAX_OPTIONS: dict[str, OptionTable] = {
    "CraftaxClassic": OptionTable(
        {
            "day_length": Int(1, _INT30),
            "always_diamond": BOOL,
            "zombie_health": Int(1, _INT30),
            "cow_health": Int(1, _INT30),
            "skeleton_health": Int(1, _INT30),
            "mob_despawn_distance": Int(1, _INT30),
            "spawn_cow_chance": Float(0.0, 1.0),
            "spawn_zombie_base_chance": Float(0.0, 1.0),
            "spawn_zombie_night_chance": Float(0.0, 1.0),
            "spawn_skeleton_chance": Float(0.0, 1.0),
        }
    )
}

FAMILY = declare_family(Family("craftax", options=CRAFTAX_OPTIONS)).name

BUILD_HINT = (
    "this envpool_x was built without the Craftax family (ENVPOOL_X_CRAFTAX=OFF): rebuild "
    "with -DENVPOOL_X_CRAFTAX=ON"
)
#: Craftax's episode length (EnvParams.max_timesteps).
MAX_TIMESTEPS = 10000
TASK_IDS = ("Craftax-Classic-Symbolic-v1",)


def has_craftax() -> bool:
    """Return True if this build of envpool_x includes the Craftax family."""
    return hasattr(_core, "CraftaxClassic")


if has_craftax():
    register("Craftax-Classic-Symbolic-v1", "CraftaxClassic", FAMILY, MAX_TIMESTEPS)
    register_alias("Craftax/Classic-Symbolic-v1", "Craftax-Classic-Symbolic-v1")
else:
    note_not_built(TASK_IDS, BUILD_HINT)
