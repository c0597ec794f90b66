"""The kit's non-wheel files: EnvPool's trimmed asset tree, the benchmark data,
RLSolver's env modules (from a checkout or a bare git mirror) and glvnd's GL
loaders, each a tarball built byte-for-byte the same from the same input (so reruns
keep the parts); and the trimmed wheels (config.TRIM)."""

from __future__ import annotations

import ast
import gzip
import io
import shutil
import subprocess
import tarfile
import tempfile
import zipfile
from collections.abc import Iterable, Sequence
from pathlib import Path

from gpu_kit import config, wheels


def write_tar(out: Path, members: Iterable[tuple[str, bytes | None]]) -> Path:
    """A .tar.gz of ``(name, content)`` pairs (None: an empty folder), sorted,
    with fixed times and owners."""
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as gz:
        with tarfile.open(fileobj=gz, mode="w", format=tarfile.PAX_FORMAT) as tar:
            for name, content in sorted(members, key=lambda m: m[0]):
                info = tarfile.TarInfo(name)
                info.mtime = 0
                if content is None:
                    info.type, info.mode = tarfile.DIRTYPE, 0o755
                    tar.addfile(info)
                else:
                    info.size, info.mode = len(content), 0o644
                    tar.addfile(info, io.BytesIO(content))
    return out


def envpool_assets(kit: Path, files: Path, pip: Sequence[str]) -> Path:
    """envpool_assets.tar.gz: one tree (envpool_assets/) of the folders of the
    envpool-assets wheels that the kit needs (config.ENVPOOL_ASSETS; the wheels
    are kept in kit/cache after the first download)."""
    members: list[tuple[str, bytes | None]] = []
    for req, top, folders in config.ENVPOOL_ASSETS:
        (wheel,) = wheels.download([config.Pin(req, "envpool")], kit / "cache", pip)
        prefixes = tuple(f"{top}/{d}/" for d in folders)
        names = {f"{top}/{d}" for d in folders}  # the entries that are files
        with zipfile.ZipFile(wheel) as z:
            found = [
                n
                for n in z.namelist()
                if (n.startswith(prefixes) or n in names) and not n.endswith("/")
            ]
            if not found:
                raise RuntimeError(f"{wheel.name} has none of {folders}")
            members += [(f"envpool_assets/{n[len(top) + 1 :]}", z.read(n)) for n in found]
    members += [(f"envpool_assets/{d}", None) for d in config.ENVPOOL_EMPTY_DIRS]
    return write_tar(files / "envpool_assets.tar.gz", members)


def trim_wheel(wheel: Path, drop: Sequence[str], dest: Path) -> Path:
    """A copy of ``wheel`` (same file name, in ``dest``) without the files whose
    names start with one of ``drop``, its RECORD without their lines."""
    dest.mkdir(parents=True, exist_ok=True)
    out = dest / wheel.name
    with zipfile.ZipFile(wheel) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            name = info.filename
            if name.startswith(tuple(drop)):
                continue
            data = src.read(name)
            if name.endswith(".dist-info/RECORD"):
                keep = [ln for ln in data.decode().splitlines() if not ln.startswith(tuple(drop))]
                data = ("\n".join(keep) + "\n").encode()
            dst.writestr(info, data)
    return out


def gl_tar(kit: Path, files: Path) -> Path | None:
    """gl.tar.gz: the shared libraries of config.GL_DEBS under gl/lib/ (each by
    the name the loader asks for), their copyright files and the packages'
    names; None (with a line) when apt-get cannot download them here."""
    cache = kit / "cache" / "gl"
    cache.mkdir(parents=True, exist_ok=True)
    debs = {name: sorted(cache.glob(f"{name}_*.deb")) for name in config.GL_DEBS}
    todo = [name for name, found in debs.items() if not found]
    if todo:
        why = "no apt-get here"
        if shutil.which("apt-get"):
            cmd = ["apt-get", "download", *todo]
            proc = subprocess.run(cmd, cwd=cache, capture_output=True, text=True, check=False)
            why = "" if proc.returncode == 0 else proc.stderr.strip()[-300:]
        if why:
            print(f"gpu_kit: no GL loaders in the kit ({why}): EGL needs the image's own")
            return None
        debs = {name: sorted(cache.glob(f"{name}_*.deb")) for name in config.GL_DEBS}
    members: list[tuple[str, bytes | None]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, found in sorted(debs.items()):
            root = Path(tmp) / name
            subprocess.run(["dpkg-deb", "-x", str(found[-1]), str(root)], check=True)
            for lib in sorted(root.glob("usr/lib/*/lib*.so.*")):
                if lib.is_symlink():  # the soname: what dlopen and DT_NEEDED ask for
                    members.append((f"gl/lib/{lib.name}", lib.resolve().read_bytes()))
            for doc in root.glob("usr/share/doc/*/copyright"):
                members.append((f"gl/copyright/{doc.parent.name}", doc.read_bytes()))
        listing = "".join(f"{found[-1].name}\n" for _, found in sorted(debs.items()))
        members.append(("gl/PACKAGES", listing.encode()))
    return write_tar(files / "gl.tar.gz", members)


def data_tar(data: Path, files: Path) -> Path:
    """data.tar.gz: the Gset graphs and TSPLIB instances the tests and benchmarks read."""
    found = [p for pat in ("README.md", "gset/*.txt", "tsplib/*.tsp") for p in data.glob(pat)]
    if not any(p.parent.name == "gset" for p in found):
        raise RuntimeError(f"{data} holds no gset/*.txt (give --data, the shared data folder)")
    return write_tar(
        files / "data.tar.gz", ((f"data/{p.relative_to(data)}", p.read_bytes()) for p in found)
    )


class Tree:
    """Files of a repository: a checkout, or a bare git repository's HEAD."""

    def __init__(self, path: str) -> None:
        self.path = Path(path)
        self.bare = not (self.path / "rlsolver").is_dir()
        if self.bare:
            out = self._git("rev-parse", "--is-bare-repository")
            if out.strip() != b"true":
                raise RuntimeError(f"{path}: neither a checkout with rlsolver/ nor a bare repo")
            names = self._git("ls-tree", "-r", "--name-only", "HEAD").decode().splitlines()
            self.names = set(names)

    def _git(self, *args: str) -> bytes:
        return subprocess.run(
            ["git", "-C", str(self.path), *args], capture_output=True, check=True
        ).stdout

    def exists(self, name: str) -> bool:
        return name in self.names if self.bare else (self.path / name).is_file()

    def read(self, name: str) -> bytes:
        return self._git("show", f"HEAD:{name}") if self.bare else (self.path / name).read_bytes()

    def revision(self) -> str:
        try:
            return self._git("rev-parse", "HEAD").decode().strip()
        except (subprocess.CalledProcessError, OSError):
            return "unknown"


def _module_file(tree: Tree, module: str) -> str | None:
    base = module.replace(".", "/")
    for name in (f"{base}.py", f"{base}/__init__.py"):
        if tree.exists(name):
            return name
    return None


def _imports(source: bytes, module: str, is_package: bool) -> set[str]:
    """Absolute names of the modules (and maybe attributes) a module imports."""
    out: set[str] = set()
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            out.add(base)
            out.update(f"{base}.{a.name}" for a in node.names)
    return out


def rlsolver_files(tree: Tree, entry: Sequence[str] = config.RLSOLVER_ENTRY) -> list[str]:
    """The rlsolver/ files the entry modules reach through rlsolver.* imports,
    with their packages' __init__.py files."""
    todo, files = list(entry), set()
    while todo:
        module = todo.pop()
        name = _module_file(tree, module)
        if name is None or name in files:
            continue
        files.add(name)
        parts = module.split(".")
        todo += [".".join(parts[:k]) for k in range(1, len(parts))]  # the packages above
        found = _imports(tree.read(name), module, name.endswith("__init__.py"))
        todo += [m for m in found if m.split(".")[0] == "rlsolver"]
    missing = [m for m in entry if _module_file(tree, m) is None]
    if missing:
        raise RuntimeError(f"{tree.path}: no {', '.join(missing)}")
    return sorted(files)


def rlsolver_tar(path: str, files: Path) -> Path:
    """rlsolver.tar.gz: rlsolver_files() of the checkout or mirror at ``path``,
    with its LICENSE and a REVISION file, under rlsolver_src/."""
    tree = Tree(path)
    names = rlsolver_files(tree)
    members = [(f"rlsolver_src/{n}", tree.read(n)) for n in names]
    if tree.exists("LICENSE"):
        members.append(("rlsolver_src/LICENSE", tree.read("LICENSE")))
    members.append(("rlsolver_src/REVISION", f"{tree.revision()}\n".encode()))
    print(f"gpu_kit: RLSolver {tree.revision()[:12]}: {len(names)} files", flush=True)
    return write_tar(files / "rlsolver.tar.gz", members)
