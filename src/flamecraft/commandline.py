"""What the command line and the terminal game share: the errors they report on one line,
and the atomic file writer behind every save, so neither imports the other.

An error made with ``of`` keeps its English message template (a msgid of the ``terminal``
catalogue) and its values, so ``cli.main`` can say it in the reader's language."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable

from .core.tr import N_, same


class CliError(Exception):
    """A problem to report on one line of stderr (exit status 1)."""

    def __init__(self, message: str, msgid: str | None = None,
                 params: dict[str, object] | None = None):
        super().__init__(message)
        self.msgid, self.params = msgid, params or {}

    @classmethod
    def of(cls, msgid: str, **params: object) -> CliError:
        """The error whose message is ``msgid`` (a marked English template) filled in."""
        return cls(msgid.format(**params), msgid, params)

    def text(self, tr: Callable[[str], str] = same) -> str:
        """The message in the language of ``tr`` (English when it has no template)."""
        return tr(self.msgid).format(**self.params) if self.msgid else str(self)


class UsageError(CliError):
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
        raise CliError.of(N_("{path}: cannot write: {error}"), path=path,
                          error=exc.strerror or exc) from None
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
            raise CliError.of(N_("{path}: cannot write: {error}"), path=path,
                              error=exc.strerror or exc) from None
        raise
