"""core/planar_rgb.h: interleaved RGB split into channel planes (Procgen's and the
MuJoCo pixel observations' channels-first frames). Both paths, the SSE2 loop and
the SSSE3 one the CPU is asked for, give numpy's transpose, at sizes around the
vector widths and at the frame sizes the envs use."""

from __future__ import annotations

import numpy as np
import pytest

from envpool_x import _core


@pytest.mark.parametrize("pixels", [0, 1, 7, 15, 16, 17, 31, 48, 84, 4096, 84 * 84])
@pytest.mark.parametrize("portable", [True, False])
def test_planes_are_the_transpose(pixels: int, portable: bool) -> None:
    rgb = np.random.default_rng(pixels).integers(0, 256, (pixels, 3), dtype=np.uint8)
    planes = _core._split_rgb_planes(rgb, portable=portable)
    assert planes.shape == (3, pixels) and planes.dtype == np.uint8
    np.testing.assert_array_equal(planes, rgb.T)


def test_a_bad_shape_is_refused() -> None:
    with pytest.raises(ValueError, match=r"shape \(pixels, 3\)"):
        _core._split_rgb_planes(np.zeros((4, 4), np.uint8))
