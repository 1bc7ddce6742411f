"""What every sub-command shares: the errors reported on one line, argparse in the reader's
language, and the atomic file writer behind every output file.

An error made with ``of`` keeps its English message template (a msgid of the ``terminal``
catalogue) and its values, so ``cli.main`` can say it in the reader's language; a value that
is itself an error (a ``StateFormatError``, an engine error) is said with ``error_text`` in
the ``game`` catalogue's language.

argparse words its own messages ("usage: ", "options", "the following arguments are
required: %s") through gettext: the module calls the names ``_`` and ``ngettext`` it imported
from ``gettext``. ``argparse_speaking(tr)`` points those two names at the ``terminal``
catalogue while the parser is built and used (and puts them back after), so ``--help`` and
usage errors read in the player's language. The msgids are argparse's own, listed in
``ARGPARSE_MESSAGES`` so that Babel extracts them; a test checks the list against the
argparse of the running Python.
"""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Callable, Iterator
from typing import Final

from ..core.errors import error_text
from ..core.tr import N_, Translate, same
from ..display.i18n import display_width
from ..display.wrap import wrap_line
from ..session.files import write_whole

# The messages of Python's argparse a player can meet (help, usage and its errors), as
# argparse spells them: printf-style placeholders, kept as they are in a translation. Not
# listed: the messages of a mistake in the program's own parser (conflicting options…).
ARGPARSE_MESSAGES: Final = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("unrecognized arguments: %s"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("expected %s argument"),
    N_("expected %s arguments"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("unexpected option string: %s"),
    N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("unknown parser %(parser_name)r (choices: %(choices)s)"),
    N_("can't open '%(filename)s': %(error)s"),
)

_speaking: list[Translate] = [same]


def speaking() -> Translate:
    """The ``terminal`` translation of the parser in use (the identity outside one): what an
    argument type's error message is said with."""
    return _speaking[-1]


@contextlib.contextmanager
def argparse_speaking(tr: Translate) -> Iterator[None]:
    """argparse's own words in ``tr``'s language inside the block (see the module's note);
    English (``same``) leaves argparse exactly as it is."""
    saved = vars(argparse)["_"], vars(argparse)["ngettext"]

    def ngettext(singular: str, plural: str, n: int) -> str:
        return tr(singular if n == 1 else plural)

    if tr is not same:
        setattr(argparse, "_", tr)  # noqa: B010 (a module's private name, on purpose)
        setattr(argparse, "ngettext", ngettext)  # noqa: B010
    _speaking.append(tr)
    try:
        yield
    finally:
        _speaking.pop()
        setattr(argparse, "_", saved[0])  # noqa: B010
        setattr(argparse, "ngettext", saved[1])  # noqa: B010


class WideHelpFormatter(argparse.HelpFormatter):
    """argparse's help laid out by display width (a Japanese character takes two columns;
    argparse counts characters): help text wrapped as the terminal game wraps Japanese
    (``screen_text.wrap_line``: between characters, never before 、 or 。) and an option whose
    name or metavar is wide still lined up with the others. English is unchanged."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        if display_width(text) == len(text):
            return super()._split_lines(text, width)
        return wrap_line(" ".join(text.split()), width, 0)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if display_width(text) == len(text):
            return super()._fill_text(text, width, indent)
        return "\n".join(indent + line for line in wrap_line(" ".join(text.split()),
                                                              width - len(indent), 0))

    def _format_action(self, action: argparse.Action) -> str:
        out = super()._format_action(action)
        header = self._format_action_invocation(action)
        extra = display_width(header) - len(header)
        first, newline, rest = out.partition("\n")
        at = first.find(header)
        if extra > 0 and at >= 0:  # argparse padded by characters: take back the excess
            after = first[at + len(header):]
            spaces = len(after) - len(after.lstrip(" "))
            keep = max(2, spaces - extra) if after.strip() else 0
            first = first[:at] + header + " " * keep + after.lstrip(" ")
        return first + newline + rest


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

    def text(self, tr: Callable[[str], str] = same, game: Translate = same) -> str:
        """The message in the language of ``tr`` (English when it has no template); a value
        that is an exception is said with ``error_text`` and ``game`` (the game catalogue)."""
        if not self.msgid:
            return str(self)
        values = {k: error_text(v, game) if isinstance(v, BaseException) else v
                  for k, v in self.params.items()}
        return tr(self.msgid).format(**values)


class UsageError(CliError):
    """A command-line usage problem (exit status 2)."""


def write_atomically(path: str, content: str) -> None:
    """Writes ``content`` to ``path`` whole or not at all (``session/files.py``); a failure is
    a CliError naming the file and why."""
    try:
        write_whole(path, content)
    except OSError as exc:
        raise CliError.of(N_("{path}: cannot write: {error}"), path=path,
                          error=exc.strerror or exc) from None
