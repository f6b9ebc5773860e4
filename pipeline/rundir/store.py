"""Durable writes: a file appears complete or not at all, and survives a crash once written.

Every file is written under a hidden temporary name in its final folder, fsynced, renamed into
place, and the folder fsynced after the rename. A failure (disk full, read-only directory)
removes the temporary file and raises :class:`RunWriteError` naming the path.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from .layout import TMP_SUFFIX


class RunWriteError(OSError):
    """Writing into the run directory failed (disk full, read-only, permissions)."""

    def __init__(self, path: Path, exc: OSError) -> None:
        reason = exc.strerror or str(exc)
        super().__init__(exc.errno, f"cannot write {path}: {reason}")
        self.path = path
        self.reason = reason

    def __str__(self) -> str:
        return str(self.args[1])


def fsync_dir(folder: Path) -> None:
    """Makes renames and new entries in ``folder`` durable."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def tmp_path(final: Path) -> Path:
    return final.parent / f".{final.name}.{os.getpid()}{TMP_SUFFIX}"


def atomic_write_bytes(final: Path, data: bytes) -> None:
    """Writes ``data`` as ``final``: temporary file, fsync, rename, fsync of the folder."""
    tmp = tmp_path(final)
    try:
        final.parent.mkdir(parents=True, exist_ok=True)
        with open(tmp, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, final)
        fsync_dir(final.parent)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise RunWriteError(final, exc) from exc


def atomic_write_text(final: Path, text: str) -> None:
    atomic_write_bytes(final, text.encode("utf-8"))


def append_line(path: Path, line: str) -> None:
    """Appends one line durably; a torn last line (a crash mid-append) is cut off first, and a
    failed append is undone, so the file always ends with a whole line."""
    data = (line.rstrip("\n") + "\n").encode("utf-8")
    created = not path.exists()
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise RunWriteError(path, exc) from exc
    try:
        size = _whole_lines_size(fd)
        try:
            os.ftruncate(fd, size)
            os.lseek(fd, size, os.SEEK_SET)
            written = 0
            while written < len(data):
                written += os.write(fd, data[written:])
            os.fsync(fd)
            if created:
                fsync_dir(path.parent)
        except OSError as exc:
            with contextlib.suppress(OSError):
                os.ftruncate(fd, size)
            raise RunWriteError(path, exc) from exc
    finally:
        os.close(fd)


def _whole_lines_size(fd: int) -> int:
    """Length of the file up to and including its last newline."""
    end = os.lseek(fd, 0, os.SEEK_END)
    pos = end
    while pos > 0:
        step = min(4096, pos)
        os.lseek(fd, pos - step, os.SEEK_SET)
        chunk = os.read(fd, step)
        i = chunk.rfind(b"\n")
        if i >= 0:
            return pos - step + i + 1
        pos -= step
    return 0
