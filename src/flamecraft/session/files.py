"""Saves that are whole or absent: every file the terminal, the command line and the tools
write (saves, autosaves, records, reports) goes through ``write_whole``."""

from __future__ import annotations

import contextlib
import os
import tempfile


def _new_file_mode() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def write_whole(path: str, content: str) -> None:
    """Writes ``content`` to ``path`` whole or not at all: a temporary file in the same folder,
    flushed to disk, then renamed over ``path``. A reader never sees half a file. Raises the
    ``OSError`` that stopped it, having removed the temporary file."""
    folder = os.path.dirname(os.path.abspath(path))
    try:
        mode = os.stat(path).st_mode & 0o777
    except OSError:
        mode = _new_file_mode()
    fd, tmp = tempfile.mkstemp(prefix=".flamecraft-", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(content)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
