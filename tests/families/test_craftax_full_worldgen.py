"""The full Craftax game's world generator (ours, cpp/envs/craftax/full/
worldgen.h): the rules every world keeps over many seeds (floor by floor, as
Craftax's generator makes them: craftax_full_worldgen_helpers), the options,
and the cost of a world. The distributions against Craftax's own generator
are in test_craftax_full_worldgen_oracle.py."""

from __future__ import annotations

import functools

import numpy as np
import pytest

pytest.importorskip("craftax")
_core = pytest.importorskip("envpool_x._core")
if not hasattr(_core, "craftax_full_new_world"):
    pytest.skip("built without ENVPOOL_X_CRAFTAX", allow_module_level=True)

import craftax_full_oracle as oracle  # noqa: E402
import craftax_full_worldgen_helpers as rules  # noqa: E402

SEEDS = 200
# The rules over many more worlds: the slow suite (ENVPOOL_X_SLOW=1).
COUNTS = [SEEDS, pytest.param(3000, marks=pytest.mark.slow)]


@functools.cache
def our_worlds(count: int, first_seed: int = 0, **options: bool) -> dict[str, np.ndarray]:
    """Our worlds for seeds first_seed.. as named arrays, batch first."""
    packed = [_core.craftax_full_new_world(first_seed + i, options) for i in range(count)]
    return oracle.fields(np.array(packed))


def test_packed_size_is_craftax_state() -> None:
    assert len(_core.craftax_full_new_world(0)) == _core.craftax_full_state_size
    name, (offset, shape) = list(oracle.state_layout().items())[-1]
    assert offset + int(np.prod(shape)) == _core.craftax_full_state_size, name


@pytest.mark.parametrize("count", COUNTS)
@pytest.mark.parametrize("always_diamond", [False, True])
def test_floors_keep_craftax_rules(always_diamond: bool, count: int) -> None:
    fields = our_worlds(count, always_diamond=always_diamond)
    for i in range(count):
        w = rules.world(fields, i)
        rules.check_floors(w, always_diamond=always_diamond)
        rules.check_start(w)


def test_always_diamond() -> None:
    with_diamond = our_worlds(SEEDS, always_diamond=True)["map"][:, 0]
    without = our_worlds(SEEDS)["map"][:, 0]
    assert ((with_diamond == rules.DIAMOND).sum(axis=(1, 2)) >= 1).all()
    # Without the option a diamond is rare (0.1% of stone cells): some worlds lack one.
    assert ((without == rules.DIAMOND).sum(axis=(1, 2)) == 0).any()
    # The option adds one diamond: the rest of the floor is the same world.
    changed = (with_diamond != without).sum(axis=(1, 2))
    assert set(np.unique(changed)) <= {0, 1} and changed.sum() > 0


def test_god_mode_inventory() -> None:
    fields = our_worlds(3, god_mode=True)
    for i in range(3):
        rules.check_start(rules.world(fields, i), god_mode=True)
    assert int(fields["inventory.bow"][0]) == 1 and int(fields["inventory.sapphire"][0]) == 99


def test_every_floor_block_and_item_appears() -> None:
    """Over many worlds each floor shows the blocks of its recipe (a missing
    feature fails here as well as in the distributions)."""
    fields = our_worlds(SEEDS, always_diamond=True)
    for level in range(rules.LEVELS):
        seen = set(np.unique(fields["map"][:, level]))
        assert seen == rules.ALLOWED[level], (
            level,
            rules.ALLOWED[level] - seen,
            seen - rules.ALLOWED[level],
        )


def test_seeds_and_options() -> None:
    a = _core.craftax_full_new_world(7)
    assert a == _core.craftax_full_new_world(7)
    assert a != _core.craftax_full_new_world(8)
    with pytest.raises(ValueError, match="unknown option"):
        _core.craftax_full_new_world(0, {"always_daimond": True})
    # Potion mappings vary over seeds (a permutation each, checked above).
    mappings = {tuple(m) for m in our_worlds(SEEDS)["potion_mapping"].astype(int)}
    assert len(mappings) > SEEDS // 3


def test_worldgen_cost() -> None:
    """Microseconds per new world (printed; run with -s to see it)."""
    us = _core.craftax_full_worldgen_microseconds(300, 1)
    print(f"\ncraftax full worldgen: {us:.1f} us per world")
    assert 0 < us < 20000
