"""Typed errors: each names what was wrong, and none leaves a state half-changed."""

from __future__ import annotations


class FlamecraftError(Exception):
    """Base class of every error the engine raises on bad input."""


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
