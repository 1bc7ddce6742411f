"""Who sits at a table: the bots' default names, and the rules every seat name must follow
(the terminal's set-up and the web lobby alike)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..core.tr import N_

BOT_NAMES = ("Ember", "Cinder", "Ash", "Blaze", "Soot")  # no card has these names


class SetupError(ValueError):
    """A game cannot be set up as asked; its message names the problem. As the engine's
    errors, it may keep its message as a msgid and its values apart (``core/errors.py``), so
    that ``error_text(exc, tr)`` says it in the reader's language."""

    def __init__(self, message: str, params: Mapping[str, str] | None = None):
        self.msgid = message
        self.params = dict(params) if params else {}
        super().__init__(message.format(**self.params) if self.params else message)


def check_names(names: Sequence[str]) -> tuple[str, ...]:
    """Names as given, tidied; each must be non-empty, unique, not a number or 'spectator'."""
    tidy = tuple(" ".join(n.split()) for n in names)
    if any(not n for n in tidy):
        raise SetupError(N_("a name is empty"))
    if len({n.lower() for n in tidy}) != len(tidy):
        raise SetupError(N_("two players have the same name"))
    if any(n.isdigit() or n.lower() == "spectator" for n in tidy):
        raise SetupError(N_("a name may not be a number or 'spectator'"))
    if any(len(n) > 20 for n in tidy):
        raise SetupError(N_("a name may have at most 20 characters"))
    return tidy
