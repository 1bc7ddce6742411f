"""How far undo may go, the same in the terminal and on the web: back within a person's own
run of choices in one turn, up to the moment something hidden was shown or chance was used
(``reveals`` says when that happens)."""

from __future__ import annotations

from dataclasses import dataclass

from ..core.frames import D_ARTISAN_LOOK
from ..core.state import GameState
from ..core.tr import N_

# Why undo is refused, in the game catalogue: the terminal and the web say the same.
NOTHING_TO_UNDO = N_("nothing to undo: undo goes back only within your own turn, and not past "
                     "a card drawn from a hidden deck, a Shop turned face up, a Fancy Dragon "
                     "revealed or a shuffle")

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
