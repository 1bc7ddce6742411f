"""What every adapter that runs games for people shares (the terminal game, the web server):
seat names, the log as each seat may read it, and how far undo may go.

Undo may go back within a player's own turn up to the moment something hidden was revealed
or chance was used; ``reveals`` says when that happens.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .core import actions as A
from .core.actions import Action
from .core.frames import D_ARTISAN_LOOK
from .core.state import GameState

BOT_NAMES = ("Ember", "Cinder", "Ash", "Blaze", "Soot")  # no card has these names


class SetupError(ValueError):
    """A game cannot be set up as asked; its message names the problem."""


def check_names(names: Sequence[str]) -> tuple[str, ...]:
    """Names as given, tidied; each must be non-empty, unique, not a number or 'spectator'."""
    tidy = tuple(" ".join(n.split()) for n in names)
    if any(not n for n in tidy):
        raise SetupError("a name is empty")
    if len({n.lower() for n in tidy}) != len(tidy):
        raise SetupError("two players have the same name")
    if any(n.isdigit() or n.lower() == "spectator" for n in tidy):
        raise SetupError("a name may not be a number or 'spectator'")
    if any(len(n) > 20 for n in tidy):
        raise SetupError("a name may have at most 20 characters")
    return tidy


@dataclass
class LogEntry:
    """One choice made: the text its maker (and a gift's receiver) reads, and what the others
    read when the choice would show a hidden card."""

    turn: int
    seat: int
    full: str
    public: str
    also: int = -1  # another seat that may read the full text (who received a gifted card)

    def for_seat(self, seat: int | None) -> str:
        return self.full if seat is not None and seat in (self.seat, self.also) else self.public


def public_text(s: GameState, action: Action, full: str) -> tuple[str, int]:
    """What the other seats may read of an action (and the one other seat that may read all
    of it): keeping, putting back, discarding or gifting a hidden card does not name it."""
    kind = action[0]
    if kind == A.KEEP_FANCY:
        return "keep a Fancy Dragon", -1
    if kind == A.PUT_BACK_FANCY:
        return "put back a Fancy Dragon", -1
    if kind == A.KEEP_ARTISAN:
        return "keep an Artisan Dragon", -1
    if kind == A.DISCARD:
        return "discard an Artisan Dragon", -1
    if kind == A.GIFT_ARTISAN:
        if action[2] < 0:  # solo: to the bottom of the Artisan deck
            return "gift an Artisan Dragon to the bottom of the Artisan deck", -1
        return f"gift an Artisan Dragon to {s.options.player_names()[action[2]]}", action[2]
    return full, -1


HIDDEN_PILES = 5  # the first marks of ``hidden_marks``: a card leaving one is shown


def hidden_marks(s: GameState) -> tuple[int, ...]:
    """The hidden piles' sizes (the four decks and the face-down Shops in Town), the
    generator, and the number of Fancy Dragons face up."""
    return (len(s.artisan_deck), len(s.fancy_deck), len(s.ench_deck), len(s.shop_deck),
            len(s.facedown), s.rng, sum(len(x) for x in s.scored))


def reveals(before: GameState, after: GameState) -> bool:
    """Whether an action showed something hidden or used chance, so it cannot be undone:
    a card drawn from a hidden pile (the pile shrank), a face-down Shop turned face up (the
    end-of-turn flip, which a discard down to 6 may follow in the same turn), a shuffle (the
    generator moved), a Fancy Dragon scored face up, or cards of the Artisan deck shown to
    choose from."""
    b, a = hidden_marks(before), hidden_marks(after)
    n = HIDDEN_PILES
    if any(x < y for x, y in zip(a[:n], b[:n], strict=True)) or a[n:] != b[n:]:
        return True
    return bool(after.stack) and after.stack[-1][0] == D_ARTISAN_LOOK


@dataclass
class Snapshot:
    """The state before one of a person's choices, to go back to (undo)."""

    state: GameState
    actions: int
    log: int
