"""Consistency checks of a state: every card in exactly one place, no negative counts, every
stack frame shaped as its kind is declared.

Used by the fuzz tests after every action and by the state loader, so that a hand-edited or
corrupted save is refused with a message naming what is wrong.
"""

from __future__ import annotations

from collections import Counter

from .board import CATALOG
from .kinds import FRAME_KINDS
from .setup_game import artisan_pool, enchantment_deck, fancy_pool, starter_dragons
from .state import EMPTY, RULES, GameState


def problems(s: GameState) -> list[str]:
    """Everything inconsistent in ``s`` (empty when the state is sound)."""
    out: list[str] = []

    def exactly_once(kind: str, places: list[int], expected: set[int]) -> None:
        counts = Counter(places)
        for card, count in counts.items():
            if count > 1:
                out.append(f"{kind} {card} is in {count} places")
        missing = expected - counts.keys()
        extra = counts.keys() - expected
        if missing:
            out.append(f"{kind}s missing: {sorted(missing)}")
        if extra:
            out.append(f"{kind}s that do not belong: {sorted(extra)}")

    artisans = [*s.artisan_deck, *s.park, *s.removed, *(d for d in s.slots if d != EMPTY)]
    for hand in s.hand:
        artisans.extend(hand)
    options = s.options
    variant = options.variant is not RULES  # a research variant keeps fewer cards
    expected_artisans = ({*starter_dragons(options),
                          *(c for cards in artisan_pool(options) for c in cards)}
                         if variant else set(range(len(CATALOG.artisans))))
    exactly_once("Artisan Dragon", artisans, expected_artisans)

    fancies = list(s.fancy_deck)
    for p in range(s.n):
        fancies.extend(s.fancy[p])
        fancies.extend(s.scored[p])
    exactly_once("Fancy Dragon", fancies, set(fancy_pool(options)) if variant
                 else set(range(len(CATALOG.fancies))))

    deck = 0 if s.options.deck == "purple" else 1
    enchantments = [*s.ench_deck, *s.ench_row, *(e for e in s.reserved if e != EMPTY),
                    *s.ench_removed]
    for tucked in s.shop_ench:
        enchantments.extend(tucked)
    exactly_once("Enchantment", enchantments,
                 set(enchantment_deck(options)) if variant
                 else {e.index for e in CATALOG.enchantments if e.deck == deck})

    shops = [*(t for t in s.town if t != EMPTY), *s.shop_deck, *s.shops_unused]
    exactly_once("Shop", shops, set(range(len(CATALOG.shops))))

    companions = [*s.companion_offer, *s.companion_box, *(c for c in s.companion if c != EMPTY)]
    expected = set(range(len(CATALOG.companions))) if s.options.companions else set()
    exactly_once("Companion", companions, expected)
    if s.n > 1 and any(s.achievements):
        out.append("achievements are claimed only in a solo game")

    in_town = set(s.town)
    for index, dragon in enumerate(s.slots):
        if dragon != EMPTY and index // 3 not in in_town:
            out.append(f"dragon {dragon} on Shop {index // 3}, which is not in Town")
    for shop, tucked in enumerate(s.shop_ench):
        if tucked and shop not in in_town:
            out.append(f"Enchantments on Shop {shop}, which is not in Town")
        if len(tucked) > 3:
            out.append(f"Shop {shop} holds {len(tucked)} Enchantments (at most 3)")
    if not set(s.facedown) <= in_town:
        out.append("a face-down Shop is not in Town")
    for p in range(s.n):
        if min(s.goods[p]) < 0:
            out.append(f"player {p} has negative Goods {s.goods[p]}")
        if s.coins[p] < 0:
            out.append(f"player {p} has negative Coins")
        if s.pos[p] != EMPTY and s.pos[p] not in in_town:
            out.append(f"player {p} stands on Shop {s.pos[p]}, not in Town")
        if sum(s.rep_sources[p]) != s.rep[p]:
            out.append(f"player {p}'s Reputation {s.rep[p]} ≠ the sum of its sources")
    if len(s.park) > 5 or len(s.ench_row) > 5:
        out.append("the Park or the Enchantment row holds more than 5 cards")
    for frame in s.stack:
        kind = FRAME_KINDS.get(frame[0]) if frame else None
        if kind is None:
            out.append(f"stack frame {frame} is of no declared kind")
        elif len(frame) != kind.size and not (kind.open_ended and len(frame) >= kind.size):
            out.append(f"stack frame {frame} does not have the fields of {kind.name}")
    return out
