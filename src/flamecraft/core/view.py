"""What one seat may see: the public board, its own hidden cards, counts of the others'.

Every adapter (command line, bots, web, RL) reads a seat's view rather than the state, so no
adapter can leak a hidden card. ``observer=None`` gives the spectators' view: public
information only.
"""

from __future__ import annotations

from typing import Any, Final

from .board import CATALOG
from .engine import describe_decision, legal_actions, names, text, to_act, winners
from .goals import fancy_value
from .goods import GOOD_KEYS
from .solo import rating
from .state import EMPTY, SOURCE_NAMES, GameState

_A: Final = CATALOG.artisans
_S: Final = CATALOG.shops
_E: Final = CATALOG.enchantments
_F: Final = CATALOG.fancies
_C: Final = CATALOG.companions
_ACH: Final = CATALOG.achievements


def _shop_view(s: GameState, shop: int) -> dict[str, Any]:
    card = _S[shop]
    return {
        "id": card.id,
        "name": card.name,
        "slots": [_A[d].id if d != EMPTY else None for d in s.slots[shop * 3:shop * 3 + 3]],
        "enchantments": [_E[e].id for e in s.shop_ench[shop]],
        "visitors": [p for p in range(s.n) if s.pos[p] == shop],
    }


def view(s: GameState, observer: int | None) -> dict[str, Any]:
    """The JSON-friendly view of ``observer`` (a seat), or of a spectator when None."""
    acting = to_act(s)
    town: list[dict[str, Any] | None] = []
    for t in s.town:
        if t == EMPTY:
            town.append(None)
        elif t in s.facedown:
            town.append({"face_down": True})
        else:
            town.append(_shop_view(s, t))
    players = []
    for p in range(s.n):
        mine = observer is not None and observer == p
        entry: dict[str, Any] = {
            "name": names(s)[p],
            "goods": dict(zip(GOOD_KEYS, s.goods[p], strict=True)),
            "coins": s.coins[p],
            "reputation": s.rep[p],
            "reserved": _E[s.reserved[p]].id if s.reserved[p] != EMPTY else None,
            "position": _S[s.pos[p]].id if s.pos[p] != EMPTY else None,
            "hand_count": len(s.hand[p]),
            "fancy_count": len(s.fancy[p]),
            "scored": [_F[f].id for f in s.scored[p]],
            "companion": _C[s.companion[p]].id if s.companion[p] != EMPTY else None,
            "companion_uses": s.companion_uses[p],
        }
        if s.n == 1:
            entry["achievements"] = [_ACH[a].id for a in s.achievements[p]]
        if mine:
            entry["hand"] = [_A[a].id for a in s.hand[p]]
            entry["fancy"] = [_F[f].id for f in s.fancy[p]]
            # What each of your unscored Fancy Dragons would pay now (0: goal not met).
            entry["fancy_now"] = {_F[f].id: fancy_value(s, p, _F[f]) for f in s.fancy[p]}
        if s.over:
            entry["reputation_sources"] = dict(zip(SOURCE_NAMES, s.rep_sources[p], strict=True))
        players.append(entry)
    out: dict[str, Any] = {
        "observer": observer,
        "players": players,
        "town": town,
        "park": [_A[a].id for a in s.park],
        "enchantment_row": [_E[e].id for e in s.ench_row],
        "decks": {"artisan": len(s.artisan_deck), "fancy": len(s.fancy_deck),
                  "enchantment": len(s.ench_deck), "shop": len(s.shop_deck)},
        "turn": s.turn,
        "first_player": s.first_player,
        "current": s.current,
        "to_act": acting,
        "end_triggered": s.end_triggered,
        "over": s.over,
        "solo": s.n == 1,
        "companions": s.options.companions,
    }
    if s.companion_offer:
        out["companion_offer"] = [_C[c].id for c in s.companion_offer]
    if observer is not None and acting == observer:
        # What is being decided, to the seat deciding only: whether another seat has a
        # decision at all can depend on its hidden cards (events.py).
        out["choosing"] = describe_decision(s)
        out["legal_actions"] = [text(s, a) for a in legal_actions(s)]
    if s.over:
        out["winners"] = winners(s)
        if s.n == 1:
            out["rating"] = rating(s.rep[0])
    return out
