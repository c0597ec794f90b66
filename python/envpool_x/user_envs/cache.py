"""The cache of compiled user env modules (:func:`envpool_x.register_cpp_env`):
where it is, and whether it may be trusted.

A cached module is loaded into this process and runs with its rights, so the
cache must be a place only this user can write: the folders are created
private (0o700), and a folder or a module that another user owns, or that
group or others can write, is refused (:class:`UntrustedCacheError`) rather
than used, whoever made it.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

#: Mode bits that let users other than the owner change a file or a folder.
SHARED_WRITE = stat.S_IWGRP | stat.S_IWOTH


class UntrustedCacheError(PermissionError):
    """A cache folder or module another user owns or may write (see the message)."""


def cache_dir() -> Path:
    """Where compiled env modules are kept: ``$ENVPOOL_X_CACHE_DIR``, else
    ``$XDG_CACHE_HOME/envpool_x``, else ``~/.cache/envpool_x``."""
    if os.environ.get("ENVPOOL_X_CACHE_DIR"):
        return Path(os.environ["ENVPOOL_X_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "envpool_x"


def _owner(uid: int) -> str:
    try:
        import pwd

        return f"{pwd.getpwuid(uid).pw_name} (uid {uid})"
    except (ImportError, KeyError):
        return f"uid {uid}"


def check_trusted(path: Path, what: str) -> None:
    """Refuse ``path`` (a cache folder or module) unless this user owns it and
    neither group nor others may write it.

    Raises:
        UntrustedCacheError: naming the path, its owner or mode, and the fix.
    """
    st = path.stat()
    if st.st_uid != os.geteuid():
        raise UntrustedCacheError(
            f"the envpool_x {what} {str(path)!r} belongs to {_owner(st.st_uid)}, not to this "
            f"user ({_owner(os.geteuid())}): code from it would run in this process. Point "
            "ENVPOOL_X_CACHE_DIR at a folder of your own"
        )
    if st.st_mode & SHARED_WRITE:
        fix = f"chmod go-w {str(path)!r}"
        raise UntrustedCacheError(
            f"the envpool_x {what} {str(path)!r} can be written by "
            f"{'group and others' if st.st_mode & stat.S_IWOTH else 'its group'} (mode "
            f"{stat.S_IMODE(st.st_mode):#o}): another user could put code there that this "
            f"process would load. Make it private ({fix}) or point ENVPOOL_X_CACHE_DIR at a "
            "folder of your own"
        )


def private_folder(path: Path, what: str = "cache folder") -> Path:
    """``path``, created private to this user (0o700) when missing, and checked
    (:func:`check_trusted`) either way."""
    if not path.exists():
        try:
            path.mkdir(mode=0o700, parents=True)
        except FileExistsError:  # another process made it meanwhile: checked below
            pass
        else:
            os.chmod(path, 0o700)  # the umask may have dropped bits of 0o700; none are added
    if not path.is_dir():
        raise NotADirectoryError(f"the envpool_x {what} {str(path)!r} is not a folder")
    check_trusted(path, what)
    return path


def module_folder(key: str) -> Path:
    """The private folder of the module with cache key ``key``; every folder
    from the cache root down is created private and checked."""
    root = private_folder(cache_dir())
    envs = private_folder(root / "cpp_envs")
    return private_folder(envs / key)


__all__ = [
    "SHARED_WRITE",
    "UntrustedCacheError",
    "cache_dir",
    "check_trusted",
    "module_folder",
    "private_folder",
]
