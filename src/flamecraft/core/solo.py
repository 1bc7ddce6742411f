"""Solo mode (design §7): the Town Bustle end-of-turn step, achievements and the rating.

The rest of solo play needs no special case: with one player there is nobody to visit,
gifts go to the supply (``board.recipients``), Reputation comparisons are never met, and the
final round ("every player takes one more turn") is one more turn.
"""

from __future__ import annotations

from typing import Final

from .board import CATALOG, ROW_SIZE, add_rep
from .goals import MEASURE_FUNCTIONS
from .state import SRC_ACHIEVEMENT, GameState

ACHIEVEMENTS: Final = CATALOG.achievements


def town_bustle(s: GameState) -> None:
    """Between the limits and the refill: (a) if nothing left the Enchantment row this turn,
    the oldest Enchantment there leaves the game; (b) the oldest Park dragon goes to the
    bottom of the Artisan deck."""
    if len(s.ench_row) == ROW_SIZE:
        s.ench_removed.append(s.ench_row.pop(0))
    if s.park:
        s.artisan_deck.insert(0, s.park.pop(0))


def check_achievements(s: GameState, p: int) -> None:
    """Claims every achievement whose requirement is met now (each at most once)."""
    for card in ACHIEVEMENTS:
        if card.index in s.achievements[p]:
            continue
        if MEASURE_FUNCTIONS[card.measure](s, p, card.arg) >= card.at_least:
            s.achievements[p].append(card.index)
            add_rep(s, p, card.rep, SRC_ACHIEVEMENT)


def rating(reputation: int) -> str:
    """The solo title for a final Reputation (the data's rating table)."""
    title = CATALOG.ratings[0][1]
    for lowest, name in CATALOG.ratings:
        if reputation >= lowest:
            title = name
    return title
