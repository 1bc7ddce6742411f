"""What every adapter that runs games for people shares (the terminal game, the web server):
seat names and how far undo may go. The log as each seat may read it is the core's public
event stream (``core/events.py``).

Undo may go back within a player's own turn up to the moment something hidden was revealed
or chance was used; ``reveals`` says when that happens.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .core.board import CATALOG
from .core.events import Event
from .core.frames import D_ARTISAN_LOOK
from .core.state import GameState
from .core.tr import N_

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


def table_notes(before: GameState, after: GameState) -> list[Event]:
    """Public lines the log adds after an action, for everyone (the terminal's and the web
    server's logs): the end of the game triggered (and the final round that follows), and in
    solo what Town Bustle did at the end of a turn. They are events of no action (-1)."""
    out = []
    seat = before.stack[-1][1] if before.stack else 0

    def note(msgid: str, card: str = "") -> None:
        line = msgid.format(card=card)
        out.append(Event(after.turn, seat, (-1, -1, -1, -1), line, line, note=msgid,
                         note_card=card))
    if after.end_triggered and not before.end_triggered:
        note(N_("the Artisan deck is empty: the end is triggered. Final round: each player "
                "takes one more turn") if not after.artisan_deck else
             N_("the Enchantment deck is empty: the end is triggered. Final round: each "
                "player takes one more turn"))
    if after.n == 1 and len(after.ench_removed) > len(before.ench_removed):
        note(N_("Town Bustle: {card} leaves the Enchantment row and the game"),
             CATALOG.enchantments[after.ench_removed[-1]].name)
    if (after.n == 1 and after.turn > before.turn and before.park and after.artisan_deck
            and after.artisan_deck[0] in before.park):
        note(N_("Town Bustle: {card} goes from the Park to the bottom of the Artisan deck"),
             CATALOG.artisans[after.artisan_deck[0]].name)
    return out
