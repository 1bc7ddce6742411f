"""What the table announces after an action, beside the actions' own log lines: the end of the
game triggered (and the final round), and Town Bustle in solo. The log as each seat may read
it is the core's public event stream (``core/events.py``); these are events of no action."""

from __future__ import annotations

from ..core.board import CATALOG
from ..core.events import Event
from ..core.state import GameState
from ..core.tr import N_


def table_notes(before: GameState, after: GameState) -> list[Event]:
    """Public lines the log adds after an action, for everyone (the terminal's and the web
    server's logs): the end of the game triggered (and the final round that follows), and in
    solo what Town Bustle did at the end of a turn. They are events of no action (-1), filed
    under the turn of the action that made them (the end triggered at the end of turn 17 is
    turn 17's, though the state after it is already at turn 18)."""
    out = []
    seat = before.stack[-1][1] if before.stack else 0

    def note(msgid: str, card: str = "") -> None:
        line = msgid.format(card=card)
        out.append(Event(before.turn, seat, (-1, -1, -1, -1), line, line, note=msgid,
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
