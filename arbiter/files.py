"""One safe way to put a whole file on disk, for every file arbiter writes or replaces.

A file the players rely on (a journal's header, a game record, a calibration, the simulated
board, the hint cache, an LED map) must be either the old one or the new one after a crash,
never half of each, and nobody else may steer where its bytes go. So every such write:

1. creates a temporary file *in the target's own folder* (a rename is only atomic within one file
   system) under a fresh random name, with ``O_CREAT | O_EXCL | O_NOFOLLOW``: two writers never
   share a temporary file, and a symlink planted at a guessable name cannot redirect the bytes;
2. writes the bytes and ``fsync``s the file;
3. renames it over the target (``os.replace``: readers see the old file or the new one);
4. ``fsync``s the folder, since the rename lives in the folder, not in the file.

``create_new`` is the same but refuses to replace anything: it claims the name for a new file
(a journal), so two games begun in the same second get two files.

vision/ and hardware/ may not import arbiter; they give their text (``Calibration.dumps``,
``LayoutMap.dumps``) and arbiter writes it through here.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

__all__ = ["create_new", "fsync_dir", "write_atomic"]

# O_NOFOLLOW and O_CLOEXEC are POSIX; elsewhere the flags are simply not available.
_NEW = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)


def fsync_dir(folder: str | os.PathLike[str]) -> None:
    """Make the folder's entries durable: a new or renamed file's *name* is in the folder, and the
    file's own fsync does not cover it. Platforms without directory handles are skipped."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:  # pragma: no cover - no directory handles here (Windows)
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _as_bytes(data: bytes | str) -> bytes:
    return data.encode("utf-8") if isinstance(data, str) else bytes(data)


def _temp(folder: Path, name: str, mode: int) -> tuple[Path, int]:
    """A new, unguessable temporary file beside the target, opened for writing."""
    while True:
        tmp = folder / f".{name}.{secrets.token_hex(8)}.tmp"
        try:
            return tmp, os.open(tmp, _NEW, mode)
        except FileExistsError:  # pragma: no cover - 64 random bits met another file
            continue


def _filled_temp(folder: Path, name: str, data: bytes | str, mode: int, sync: bool) -> Path:
    """A new temporary file beside the target holding ``data`` (fsynced when ``sync``), closed;
    removed again if the write fails."""
    tmp, fd = _temp(folder, name, mode)
    try:
        try:
            _write_all(fd, _as_bytes(data))
            if sync:
                os.fsync(fd)
        finally:
            os.close(fd)
    except BaseException:
        _discard(tmp)
        raise
    return tmp


def _discard(tmp: Path) -> None:
    try:
        os.unlink(tmp)
    except OSError:
        pass


def write_atomic(path: str | os.PathLike[str], data: bytes | str, *, mode: int = 0o644, sync: bool = True) -> Path:
    """Replace ``path`` with ``data`` (text is written as UTF-8) so that a crash leaves the old file
    or the new one. Raises OSError as the system reports it; the temporary file is removed then.

    ``sync=False`` leaves out both fsyncs, for files a power cut may lose without harm (a cache,
    the simulated board): a killed process still leaves the old file or the new one."""
    p = Path(path)
    folder = p.parent
    tmp = _filled_temp(folder, p.name, data, mode, sync)
    try:
        os.replace(tmp, p)
    except BaseException:
        _discard(tmp)
        raise
    if sync:
        fsync_dir(folder)
    return p


def create_new(path: str | os.PathLike[str], data: bytes | str, *, mode: int = 0o644) -> Path:
    """Make a new file at ``path`` holding ``data``, whole or not at all; FileExistsError if the
    name is taken (by a file, a folder or a symlink), so two writers never get the same file.

    The bytes go to a temporary file first and are *linked* to the name, which the system refuses
    if it exists; where hard links are not allowed (a FAT memory stick) the name is claimed with
    ``O_EXCL`` and the whole file renamed onto the claim.
    """
    p = Path(path)
    folder = p.parent
    tmp = _filled_temp(folder, p.name, data, mode, sync=True)
    try:
        try:
            os.link(tmp, p, follow_symlinks=False)
        except FileExistsError:
            raise
        except OSError:  # no hard links on this file system: claim the name, then fill it
            os.close(os.open(p, _NEW, mode))
            os.replace(tmp, p)
    finally:
        _discard(tmp)
    fsync_dir(folder)
    return p
