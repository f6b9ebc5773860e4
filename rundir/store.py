"""Durable, confined file access inside a run directory.

Writes: a file appears complete or not at all, and survives a crash once written. Every file is
written under a hidden temporary name in its final folder, fsynced, renamed into place, and the
folder fsynced after the rename. A failure (disk full, read-only directory) removes the temporary
file and raises :class:`RunWriteError` naming the path.

Confinement: below the run directory itself no symbolic link is ever followed. Every folder on
the way to a file is opened with ``O_NOFOLLOW`` relative to the one above it (``openat``), files
are opened with ``O_NOFOLLOW`` and must be regular files (a FIFO or device is refused without
blocking), and reads are bounded (:func:`read_bounded`). A link where a file or folder of the run
should be is refused with an :class:`OSError` of errno ``ELOOP`` (see :func:`describe`).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import stat
from collections.abc import Iterator, Sequence
from pathlib import Path, PurePosixPath

from .layout import TMP_SUFFIX

CHUNK = 1 << 20
_LINK_ERRNOS = (errno.ELOOP, errno.EMLINK)


def describe(exc: OSError) -> str:
    """The reason of an I/O error in words (a refused symbolic link said as such)."""
    if exc.errno in _LINK_ERRNOS:
        return "a symbolic link (balancelab follows no link inside a run directory)"
    return exc.strerror or str(exc)


class RunWriteError(OSError):
    """Writing into the run directory failed (disk full, read-only, permissions, a link)."""

    def __init__(self, path: Path, exc: OSError) -> None:
        reason = describe(exc)
        super().__init__(exc.errno, f"cannot write {path}: {reason}")
        self.path = path
        self.reason = reason

    def __str__(self) -> str:
        return str(self.args[1])


class NotRegular(OSError):
    """A path of the run that is not a regular file (a FIFO, a device, a folder)."""

    def __init__(self, what: str) -> None:
        super().__init__(errno.EINVAL, f"not a regular file ({what})")


class TooLarge(OSError):
    """A file larger than the bound its reader allows."""

    def __init__(self, size: int, limit: int) -> None:
        super().__init__(errno.EFBIG, f"{size:,} bytes, more than the {limit:,} allowed")


def parts_of(rel: str | PurePosixPath) -> list[str]:
    """The components of a path relative to the run; refuses absolute paths, ``..`` and ``.``."""
    text = str(rel)
    parts = text.split("/")
    if not text or text.startswith("/") or any(p in ("", ".", "..") for p in parts):
        raise OSError(errno.EINVAL, f"not a plain path inside the run: {text!r}")
    return parts


def open_dir(root: Path, parts: Sequence[str] = (), create: bool = False) -> int:
    """A file descriptor of folder ``root/parts...``: ``root`` is opened as given, every part
    below it with ``O_NOFOLLOW`` (created first if ``create``)."""
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for part in parts:
            if create:
                with contextlib.suppress(FileExistsError):
                    os.mkdir(part, 0o777, dir_fd=fd)
            child = os.open(part, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=fd)
            os.close(fd)
            fd = child
    except BaseException:
        os.close(fd)
        raise
    return fd


def _regular(fd: int, name: str) -> int:
    """``fd`` if it is a regular file (blocking mode restored), else closed and refused."""
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        kind = "a folder" if stat.S_ISDIR(mode) else "a FIFO" if stat.S_ISFIFO(mode) else "a special file"
        raise NotRegular(f"{name} is {kind}")
    flags = fcntl.fcntl(fd, fcntl.F_GETFL)
    fcntl.fcntl(fd, fcntl.F_SETFL, flags & ~os.O_NONBLOCK)
    return fd


def open_file(name: str, flags: int, dir_fd: int | None = None, mode: int = 0o644) -> int:
    """Opens a regular file without following a link or blocking on a FIFO."""
    fd = os.open(name, flags | os.O_NOFOLLOW | os.O_NONBLOCK, mode, dir_fd=dir_fd)
    return _regular(fd, name)


@contextlib.contextmanager
def open_in(root: Path, rel: str) -> Iterator[int]:
    """A read-only descriptor of the regular file ``root/rel`` reached without following links."""
    parts = parts_of(rel)
    dfd = open_dir(root, parts[:-1])
    try:
        fd = open_file(parts[-1], os.O_RDONLY, dir_fd=dfd)
    finally:
        os.close(dfd)
    try:
        yield fd
    finally:
        os.close(fd)


def read_fd(fd: int, limit: int) -> bytes:
    """All bytes of ``fd`` (at most ``limit``: :class:`TooLarge` beyond)."""
    size = os.fstat(fd).st_size
    if size > limit:
        raise TooLarge(size, limit)
    chunks, total = [], 0
    while chunk := os.read(fd, min(CHUNK, limit + 1 - total)):
        chunks.append(chunk)
        total += len(chunk)
        if total > limit:
            raise TooLarge(total, limit)
    return b"".join(chunks)


def read_bounded(root: Path, rel: str, limit: int) -> bytes:
    """The bytes of ``root/rel`` (no link followed, a regular file, at most ``limit`` bytes)."""
    with open_in(root, rel) as fd:
        return read_fd(fd, limit)


def read_regular(path: Path, limit: int) -> bytes:
    """The bytes of a file outside any run (a study's data file): a regular file (links are
    followed: the user named it), at most ``limit`` bytes; never blocks on a FIFO."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    fd = _regular(fd, str(path))
    try:
        return read_fd(fd, limit)
    finally:
        os.close(fd)


def fsync_dir(folder: Path) -> None:
    """Makes renames and new entries in ``folder`` durable."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def tmp_name(name: str) -> str:
    return f".{name}.{os.getpid()}{TMP_SUFFIX}"


def tmp_path(final: Path) -> Path:
    return final.parent / tmp_name(final.name)


def _split(final: Path, root: Path | None) -> tuple[Path, list[str]]:
    """(root, folders below it) of ``final``'s folder; ``root`` defaults to that folder."""
    if root is None:
        return final.parent, []
    return root, parts_of(final.parent.relative_to(root).as_posix()) if final.parent != root else []


def write_new(dfd: int, name: str, data: bytes) -> None:
    """Creates ``name`` in folder ``dfd`` (never through a link: an old temporary is removed
    first, then ``O_EXCL``), writes ``data`` and fsyncs it."""
    with contextlib.suppress(FileNotFoundError):
        os.unlink(name, dir_fd=dfd)
    fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644, dir_fd=dfd)
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())


def atomic_write_bytes(final: Path, data: bytes, root: Path | None = None) -> None:
    """Writes ``data`` as ``final``: temporary file, fsync, rename, fsync of the folder. Folders
    between ``root`` (the run directory) and ``final`` are created and opened without following
    links; a link at ``final`` is replaced, never written through."""
    base, parts = _split(final, root)
    tmp = tmp_name(final.name)
    try:
        base.mkdir(parents=True, exist_ok=True)
        dfd = open_dir(base, parts, create=True)
    except OSError as exc:
        raise RunWriteError(final, exc) from exc
    try:
        write_new(dfd, tmp, data)
        os.replace(tmp, final.name, src_dir_fd=dfd, dst_dir_fd=dfd)
        os.fsync(dfd)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp, dir_fd=dfd)
        raise RunWriteError(final, exc) from exc
    finally:
        os.close(dfd)


def atomic_write_text(final: Path, text: str, root: Path | None = None) -> None:
    atomic_write_bytes(final, text.encode("utf-8"), root)


def append_line(path: Path, line: str) -> None:
    """Appends one line durably; a torn last line (a crash mid-append) is cut off first, and a
    failed append is undone, so the file always ends with a whole line. A link or a file that is
    not regular at ``path`` is refused."""
    data = (line.rstrip("\n") + "\n").encode("utf-8")
    try:
        fd = open_file(str(path), os.O_RDWR | os.O_CREAT)
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
            if size == 0:
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


def unlink_in(root: Path, rel: str) -> None:
    """Removes ``root/rel`` (a link itself, never its target; no folder on the way followed)."""
    parts = parts_of(rel)
    dfd = open_dir(root, parts[:-1])
    try:
        os.unlink(parts[-1], dir_fd=dfd)
    finally:
        os.close(dfd)
