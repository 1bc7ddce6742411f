"""The card catalog the browser draws from (``GET /api/cards``): every card by id, with the
numbers the page shows and, in another language than English, the card texts in it."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from ..core.board import CATALOG
from ..core.goods import GOOD_KEYS
from .language import DEFAULT


def _reward(r: Any) -> dict[str, int]:
    return {k: v for k, v in (("rep", r.rep), ("coins", r.coins), ("artisan", r.artisan),
                              ("fancy", r.fancy), ("good_choice", r.good_choice)) if v}


@cache
def catalog_json(lang: str = DEFAULT) -> dict[str, Any]:
    """Every card the browser may draw, by id (GET /api/cards). In another language than
    English the card texts are ``cardtext.card_text``'s in it (names stay as printed). Each
    Artisan Dragon carries its fire-up text from the card data (``data/fire_ups.toml``), the
    one source of it in every language."""
    if lang != DEFAULT:
        return _catalog_in(lang)
    from ..core.cards import ANY_SLOT, SHOP_ICONS
    from ..display.localized import card_text

    c = CATALOG
    shops = [{
        "id": s.id, "name": s.name, "icon": SHOP_ICONS[s.icon], "icon_amount": s.icon_amount,
        "starter": s.starter,
        "slots": [{"accepts": ["ANY"] if slot.accepts[0] == ANY_SLOT
                   else [GOOD_KEYS[g] for g in slot.accepts], "reward": _reward(slot.reward)}
                  for slot in s.slots],
        "ability_name": s.ability_name, "ability_text": s.ability_text,
        "provenance": s.provenance.level,
    } for s in c.shops]
    enchantments = []
    for e in c.enchantments:
        cost = {GOOD_KEYS[g]: n for g, n in enumerate(e.cost) if n}
        if e.printed_coins:
            cost["COIN"] = e.printed_coins
        entry: dict[str, Any] = {"id": e.id, "name": e.name, "deck": ("purple", "golden")[e.deck],
                                 "icon": GOOD_KEYS[e.icon], "cost": cost, "no_coins": e.no_coins,
                                 "reward": _reward(e.reward), "provenance": e.provenance.level}
        if e.variable:
            entry["set_cost"] = True
            entry["rep_by_sets"] = list(e.rep_by_sets)
        enchantments.append(entry)
    return {
        "shops": shops,
        "artisans": [{"id": a.id, "name": a.name, "type": GOOD_KEYS[a.type],
                      "starter": a.starter, "fire_up": card_text(a.id, DEFAULT)}
                     for a in c.artisans],
        "enchantments": enchantments,
        "fancies": [{"id": f.id, "name": f.name, "sun": f.sun, "text": f.text,
                     "end_only": f.end_only, "reward": _reward(f.reward)} for f in c.fancies],
        "companions": [{"id": x.id, "name": x.name, "text": x.text} for x in c.companions],
        "achievements": [{"id": x.id, "name": x.name, "text": x.text, "rep": x.rep}
                         for x in c.achievements],
        "goods": list(GOOD_KEYS),
    }


def _catalog_in(lang: str) -> dict[str, Any]:
    """The English catalog with every card text in ``lang``."""
    from ..display.localized import card_text

    out: dict[str, Any] = json.loads(json.dumps(catalog_json()))  # a copy: English is cached
    for shop in out["shops"]:
        shop["ability_text"] = card_text(shop["id"], lang) if shop["ability_text"] else ""
    for artisan in out["artisans"]:
        artisan["fire_up"] = card_text(artisan["id"], lang)
    for kind in ("fancies", "companions", "achievements"):
        for card in out[kind]:
            card["text"] = card_text(card["id"], lang)
    return out
