"""The C++ sources stay laid out by concern: small files, each saying what it owns."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# A file past this holds two concerns (ARCHITECTURE.md). The GPU stepper's
# host side and kernel body are still over it and get a looser bound until
# they are split.
MAX_LINES = 420
MAX_LINES_BY_FOLDER = {"cpp/cuda": 500}
FOLDERS = ["cpp/core", "cpp/bindings", "cpp/cuda", "cpp/envs"]


def sources() -> list[Path]:
    out: list[Path] = []
    for folder in FOLDERS:
        for ext in ("*.h", "*.cpp", "*.cu"):
            out.extend(sorted((ROOT / folder).rglob(ext)))
    return out


@pytest.mark.parametrize("path", sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_source_is_small_and_says_what_it_owns(path: Path) -> None:
    lines = path.read_text().splitlines()
    folder = str(path.relative_to(ROOT).parent)
    limit = MAX_LINES_BY_FOLDER.get(folder, MAX_LINES)
    assert len(lines) <= limit, f"{len(lines)} lines: split it by concern"
    assert lines and lines[0].startswith("//"), "open with a comment saying what the file owns"


def test_envs_write_outputs_by_name() -> None:
    """No env reaches an output field by its position in the spec."""
    for path in (ROOT / "cpp/envs").rglob("*.h"):
        text = path.read_text()
        for positional in (".Obs<", ".Info<", "out.obs[", "out.info[", "slots["):
            assert positional not in text, f"{path.relative_to(ROOT)} uses {positional}"


def test_generic_binding_has_no_xla() -> None:
    """XLA's headers stay in the XLA binding: the generic binding builds without them."""
    generic = [p for p in (ROOT / "cpp/bindings").iterdir() if "xla" not in p.name]
    for path in generic:
        assert "xla/ffi" not in path.read_text(), path.name
        assert '#include "bindings/xla' not in path.read_text(), path.name


def test_shipped_headers_include_only_shipped_headers() -> None:
    """cpp/core and cpp/extern are what a wheel ships for user envs
    (register_cpp_env): a lower layer never includes the bindings above it,
    and nothing they include may be missing from an installed wheel."""
    shipped = ("core/", "extern/")
    for folder in ("cpp/core", "cpp/extern"):
        for path in (ROOT / folder).glob("*.h"):
            for line in path.read_text().splitlines():
                if not line.startswith('#include "'):
                    continue
                header = line.split('"')[1]
                name = path.relative_to(ROOT)
                assert not header.startswith("bindings/"), f"{name} includes {header}"
                assert header.startswith(shipped), f"{name} includes {header} (not shipped)"
