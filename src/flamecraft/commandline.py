"""What the command line and the terminal game share: the errors they report on one line,
and the atomic file writer behind every save, so neither imports the other."""

from __future__ import annotations

import contextlib
import os
import tempfile


class CliError(Exception):
    """A problem to report on one line of stderr (exit status 1)."""


class UsageError(Exception):
    """A command-line usage problem (exit status 2)."""


def _new_file_mode() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def write_atomically(path: str, content: str) -> None:
    """Writes ``content`` to ``path`` whole or not at all: a temporary file in the same folder,
    flushed to disk, then renamed over ``path``. A reader never sees half a file."""
    folder = os.path.dirname(os.path.abspath(path))
    try:
        mode = os.stat(path).st_mode & 0o777
    except OSError:
        mode = _new_file_mode()
    try:
        fd, tmp = tempfile.mkstemp(prefix=".flamecraft-", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise CliError(f"{path}: cannot write: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(content)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise CliError(f"{path}: cannot write: {exc.strerror or exc}") from None
        raise
