"""Typed errors: each names what was wrong, and none leaves a state half-changed.

An error a player may read keeps its message as a msgid and its values apart
(``FlamecraftError(N_("players must be {low}–{high}, not {n}"), {"low": "1", …})``), so that
``error_text(exc, tr)`` can say it in the reader's language; ``str(exc)`` is the English.
"""

from __future__ import annotations

from collections.abc import Mapping

from .tr import N_, Translate, same

# Values of an error's parameters that are msgids themselves (translated when shown): the
# decision being made, the kind of card a saved file names, json's reason for a bad file, the
# part of a deal and the Good an error about a deal names.
TRANSLATED_PARAMS = frozenset({"decision", "card_kind", "json_problem", "place", "good"})


class FlamecraftError(Exception):
    """Base class of every error the engine raises on bad input. ``message`` is the English
    text, or with ``params`` a msgid with ``{named}`` placeholders filled from them."""

    msgid: str
    params: dict[str, str]

    def __init__(self, message: str, params: Mapping[str, str] | None = None):
        self.msgid = message
        self.params = dict(params) if params else {}
        super().__init__(message.format(**self.params) if self.params else message)


class CardDataError(FlamecraftError):
    """A card data file is malformed: names the file, the card and the field."""

    def __init__(self, file: str, card: str, field: str, message: str):
        self.file, self.card, self.field = file, card, field
        super().__init__(f"{file}: card {card!r}: field {field!r}: {message}")


class IllegalActionError(FlamecraftError):
    """The action is not among the legal actions of the player to act."""


class GameOverError(IllegalActionError):
    """No action can be applied: the game has ended."""


class StateFormatError(FlamecraftError):
    """A saved state or game record is malformed or of an unknown version."""


def error_text(exc: BaseException, tr: Translate = same) -> str:
    """An error's message in ``tr``'s language (``str(exc)`` for English or for an error that
    carries no msgid); any exception with ``msgid`` and ``params`` attributes reads so
    (``sessions.SetupError`` too)."""
    msgid = getattr(exc, "msgid", None)
    params = getattr(exc, "params", None)
    if not isinstance(msgid, str) or not msgid:
        return str(exc)
    if not params:
        return tr(msgid)
    values = {k: tr(v) if k in TRANSLATED_PARAMS else v for k, v in params.items()}
    return tr(msgid).format(**values)


def action_error(number: int, typed: str, exc: FlamecraftError) -> StateFormatError:
    """Why a record's action ``number`` (its text ``typed``) does not replay, in one
    sentence: who was choosing what, and what was legal there (the cards may have changed
    since the record was made); ``exc`` is the engine's refusal."""
    where = {"number": str(number), "typed": repr(typed)}
    if isinstance(exc, GameOverError):
        return StateFormatError(N_("action {number} ({typed}) cannot be replayed: the game is "
                                   "already over"), where)
    if isinstance(exc, IllegalActionError) and {"player", "decision", "legal"} <= set(exc.params):
        return StateFormatError(N_("action {number} ({typed}) is not legal at its point of the "
                                   "game: {player} is choosing {decision}; legal: {legal}"),
                                {**where, **{k: exc.params[k]
                                             for k in ("player", "decision", "legal")}})
    return StateFormatError(N_("action {number} ({typed}) cannot be replayed: {error}"),
                            {**where, "error": str(exc)})
