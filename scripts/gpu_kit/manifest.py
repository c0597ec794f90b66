"""The kit's parts: files cut into pieces, packed into parts of at most a size, and
put back together (with sha256 checks) on the other side.

A piece of a split file is named as ``split -d -a 3`` names it (``NAME.000``,
``NAME.001``, ...), so ``cat NAME.0* > NAME`` reassembles it by hand too; an
unsplit file is its own piece. Every part folder holds a copy of the manifest
(``manifest.json``): what each file is (size, sha256, group), its pieces, and
which part carries each piece.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

MANIFEST = "manifest.json"
CHUNK = 1 << 20


class KitError(RuntimeError):
    """A kit that cannot be used as it is (a bad piece, a file that does not check out)."""


@dataclass(frozen=True)
class Item:
    """A file to put into the kit: its path, group, and whether it should ride
    in the last part (the one the `run` call carries)."""

    path: Path
    group: str
    last: bool = False


def sha256(path: Path) -> str:
    """The file's sha256, hex."""
    h = hashlib.sha256()
    with path.open("rb") as f:
        while block := f.read(CHUNK * 8):
            h.update(block)
    return h.hexdigest()


def _copy_range(src: Path, dst: Path, start: int, size: int) -> None:
    with src.open("rb") as f, dst.open("wb") as out:
        f.seek(start)
        left = size
        while left:
            block = f.read(min(CHUNK * 8, left))
            if not block:
                raise KitError(f"{src} ended early")
            out.write(block)
            left -= len(block)


def plan_parts(items: Sequence[Item], limit: int) -> list[list[tuple[int, int, int]]]:
    """Assign pieces to parts. Returns, per part (in order, the last part last),
    a list of ``(item index, start, size)``.

    The ``last`` items go whole into the final part, largest first, while they
    fit; every other item (and a ``last`` item that does not fit) is cut into
    pieces of at most ``limit`` bytes and packed first-fit-decreasing into the
    parts before it; then the smallest of those parts move into the final one while
    they fit."""
    sizes = [it.path.stat().st_size for it in items]
    last_part: list[tuple[int, int, int]] = []
    room = limit
    rest: list[tuple[int, int, int]] = []
    for i in sorted(range(len(items)), key=lambda i: -sizes[i]):
        if items[i].last and sizes[i] <= room:
            last_part.append((i, 0, sizes[i]))
            room -= sizes[i]
            continue
        for start in range(0, max(sizes[i], 1), limit):
            rest.append((i, start, min(limit, sizes[i] - start)))
    bins: list[list[tuple[int, int, int]]] = []
    free: list[int] = []
    for piece in sorted(rest, key=lambda p: -p[2]):
        for b, space in enumerate(free):
            if piece[2] <= space:
                bins[b].append(piece)
                free[b] -= piece[2]
                break
        else:
            bins.append([piece])
            free.append(limit - piece[2])
    if last_part:
        # A part whose pieces all fit beside the last one's rides with it: one staging
        # call (a transfer and a warm wait of the lent machine) fewer.
        while bins:
            small = min(range(len(bins)), key=lambda b: limit - free[b])
            if limit - free[small] > room:
                break
            room -= limit - free[small]
            last_part.extend(bins.pop(small))
            free.pop(small)
        bins.append(last_part)
    return bins


def build(items: Sequence[Item], parts_dir: Path, limit: int) -> dict[str, Any]:
    """Cut ``items`` into parts under ``parts_dir/1``, ``parts_dir/2``, ... (the
    folder is emptied first) and write the manifest into each; returns it."""
    names = [it.path.name for it in items]
    if len(set(names)) != len(names):
        raise KitError(f"two kit files share a name: {sorted(names)}")
    plan = plan_parts(items, limit)
    if parts_dir.exists():
        shutil.rmtree(parts_dir)
    files: list[dict[str, Any]] = [
        {
            "name": it.path.name,
            "group": it.group,
            "size": it.path.stat().st_size,
            "sha256": sha256(it.path),
            "pieces": [],
        }
        for it in items
    ]
    for number, part in enumerate(plan, start=1):
        folder = parts_dir / str(number)
        folder.mkdir(parents=True)
        for i, start, size in part:
            split = files[i]["size"] > limit
            name = f"{names[i]}.{start // limit:03d}" if split else names[i]
            _copy_range(items[i].path, folder / name, start, size)
            files[i]["pieces"].append(
                {
                    "name": name,
                    "part": number,
                    "start": start,
                    "size": size,
                    "sha256": sha256(folder / name),
                }
            )
    for f in files:
        f["pieces"].sort(key=lambda p: p["start"])
    manifest = {
        "version": 1,
        "part_limit": limit,
        "parts": [
            {"part": n, "size": sum(p[2] for p in part)} for n, part in enumerate(plan, start=1)
        ],
        "files": files,
    }
    text = json.dumps(manifest, indent=1)
    for number in range(1, len(plan) + 1):
        (parts_dir / str(number) / MANIFEST).write_text(text)
    return manifest


def load(path: Path) -> dict[str, Any]:
    """Read a manifest (a file, or a folder holding manifest.json)."""
    if path.is_dir():
        path = path / MANIFEST
    if not path.exists():
        raise KitError(f"no manifest at {path}")
    data = json.loads(path.read_text())
    if data.get("version") != 1:
        raise KitError(f"{path}: unknown manifest version {data.get('version')}")
    return data


def pieces_of_part(manifest: dict[str, Any], part: int) -> list[dict[str, Any]]:
    """The pieces that part ``part`` carries."""
    return [p for f in manifest["files"] for p in f["pieces"] if p["part"] == part]


def check_piece(path: Path, piece: dict[str, Any]) -> None:
    """Refuse a piece whose size or sha256 is not the manifest's."""
    if not path.exists():
        raise KitError(f"{piece['name']} (part {piece['part']}) is missing")
    if path.stat().st_size != piece["size"]:
        raise KitError(
            f"{piece['name']}: {path.stat().st_size} bytes, the manifest says {piece['size']}"
        )
    if sha256(path) != piece["sha256"]:
        raise KitError(f"{piece['name']} (part {piece['part']}): sha256 mismatch")


def stage_part(part_dir: Path, stage: Path) -> dict[str, Any]:
    """Copy a carried part folder's pieces (checked) and its manifest into ``stage``."""
    manifest = load(part_dir)
    number = int(part_dir.name)
    stage.mkdir(parents=True, exist_ok=True)
    for piece in pieces_of_part(manifest, number):
        src, dst = part_dir / piece["name"], stage / piece["name"]
        check_piece(src, piece)
        shutil.copyfile(src, dst)
    shutil.copyfile(part_dir / MANIFEST, stage / MANIFEST)
    return manifest


def reassemble(
    manifest: dict[str, Any], stage: Path, out: Path
) -> tuple[list[dict[str, Any]], dict[str, list[int]]]:
    """Put the files back together into ``out`` (``cat`` of their pieces), each
    checked against its sha256. Returns (the files that are complete, missing
    file name -> the part numbers it still needs). A piece or a file that does
    not check out raises KitError: a kit is used whole or not at all."""
    out.mkdir(parents=True, exist_ok=True)
    done, missing = [], {}
    for f in manifest["files"]:
        absent = sorted({p["part"] for p in f["pieces"] if not (stage / p["name"]).exists()})
        if absent:
            missing[f["name"]] = absent
            continue
        target = out / f["name"]
        if target.exists() and target.stat().st_size == f["size"] and sha256(target) == f["sha256"]:
            done.append(f)  # put together by an earlier run
            continue
        for p in f["pieces"]:
            check_piece(stage / p["name"], p)
        with target.open("wb") as dst:
            for p in f["pieces"]:
                with (stage / p["name"]).open("rb") as src:
                    shutil.copyfileobj(src, dst, CHUNK * 8)
        if sha256(target) != f["sha256"]:
            target.unlink()
            raise KitError(f"{f['name']}: sha256 mismatch after reassembly")
        done.append(f)
    return done, missing


def describe(manifest: dict[str, Any]) -> Iterable[str]:
    """Lines saying what each part carries."""
    for part in manifest["parts"]:
        names = [p["name"] for p in pieces_of_part(manifest, part["part"])]
        yield f"part {part['part']}: {part['size'] / (1 << 20):.1f} MiB, {len(names)} pieces"
