"""A plain-text board, drawn from one seat's view.

It reads only the view dict (``view.view(s, observer)``) and the card catalog, never the state:
whatever the view hides (the other seats' hands and Fancy Dragons) cannot appear here.
"""

from __future__ import annotations

import textwrap
from typing import Any

from .core.cards import ANY_SLOT, ICON_COIN, ICON_DRAGON, ICON_RAINBOW, Catalog, EnchantmentCard
from .core.goods import GOOD_KEYS, GOOD_NAMES

WIDTH = 100
SOURCE_LABELS = {
    "slots": "slots", "enchantments": "enchant", "sun_dragons": "sun", "moon_dragons": "moon",
    "gifts": "gifts", "abilities": "ability", "coins": "coins", "companions": "compan",
    "achievements": "achieve",
}


class _Cards:
    """Looks cards up by the ids a view uses."""

    def __init__(self, catalog: Catalog):
        self.c = catalog

    def artisan(self, card_id: str) -> str:
        card = self.c.artisans[self.c.artisan_by_id[card_id]]
        return f"{card.name} ({GOOD_NAMES[card.type]})"

    def shop_name(self, card_id: str) -> str:
        return self.c.shops[self.c.shop_by_id[card_id]].name

    def ench(self, card_id: str) -> EnchantmentCard:
        return self.c.enchantments[self.c.enchantment_by_id[card_id]]

    def fancy_name(self, card_id: str) -> str:
        return self.c.fancies[self.c.fancy_by_id[card_id]].name


def _count(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _shop_icon(icon: int, amount: int) -> str:
    if icon == ICON_RAINBOW:
        return "Rainbow"
    if icon == ICON_DRAGON:
        return _count(amount, "Artisan Dragon")
    if icon == ICON_COIN:
        return _count(amount, "Coin")
    return GOOD_NAMES[icon] if amount == 1 else f"{amount} {GOOD_NAMES[icon]}"


def _cost_text(card: EnchantmentCard) -> str:
    parts = [f"{n} {GOOD_NAMES[g]}" for g, n in enumerate(card.cost) if n]
    if card.printed_coins:
        parts.append(_count(card.printed_coins, "Coin"))
    return " + ".join(parts) if parts else "nothing"


def enchantment_line(card: EnchantmentCard) -> str:
    """One Enchantment: the Shop icon it is cast on, its cost and what it gives."""
    where = f"on {GOOD_NAMES[card.icon]} Shops"
    if card.variable:
        table = "/".join(str(r) for r in card.rep_by_sets)
        text = (f"{card.name} ({where}): per set {_cost_text(card)}, 1–{card.max_sets} sets "
                f"→ {table} Reputation")
        if not card.reward.is_empty():
            text += f" + {card.reward.text()}"
    else:
        text = f"{card.name} ({where}): {_cost_text(card)} → {card.reward.text()}"
    if card.no_coins:
        text += "; Coins may not stand in for Goods"
    return text


def _fit(lines: list[str], width: int) -> list[str]:
    """Wraps every line longer than ``width``, continuing under its own indent."""
    out: list[str] = []
    for line in lines:
        if len(line) <= width:
            out.append(line)
            continue
        indent = " " * (len(line) - len(line.lstrip(" ")))
        out.extend(textwrap.wrap(line, width, subsequent_indent=indent + "    ",
                                 break_on_hyphens=False))
    return out


def _town(v: dict[str, Any], cards: _Cards, names: list[str]) -> list[str]:
    lines = ["TOWN"]
    for space, entry in enumerate(v["town"], 1):
        if entry is None:
            continue
        if entry.get("face_down"):
            lines.append(f"  [{space}] a face-down Shop (drawn this turn)")
            continue
        card = cards.c.shops[cards.c.shop_by_id[entry["id"]]]
        head = f"  [{space}] {card.name} — icon: {_shop_icon(card.icon, card.icon_amount)}"
        if entry["visitors"]:
            head += " — here: " + ", ".join(names[p] for p in entry["visitors"])
        lines.append(head)
        for k, (slot, dragon) in enumerate(zip(card.slots, entry["slots"], strict=True), 1):
            if dragon is not None:
                lines.append(f"      slot {k}: {cards.artisan(dragon)}")
                continue
            accepts = ("any dragon" if slot.accepts[0] == ANY_SLOT
                       else "/".join(GOOD_NAMES[g] for g in slot.accepts))
            reward = "no reward" if slot.reward.is_empty() else slot.reward.text()
            lines.append(f"      slot {k}: empty, takes {accepts} → {reward}")
        if entry["enchantments"]:
            tucked = ", ".join(cards.ench(e).name for e in entry["enchantments"])
            lines.append(f"      Enchantments: {tucked}")
        if card.ability_name:
            lines.append(f"      Ability {card.ability_name}: {card.ability_text}")
    return lines


def _player(v: dict[str, Any], p: int, cards: _Cards) -> list[str]:
    pl = v["players"][p]
    marks = []
    if v["observer"] == p:
        marks.append("you")
    if v.get("first_player") == p:
        marks.append("first player")
    if v["current"] == p and not v["over"]:
        marks.append("their turn")
    if v["to_act"] == p:
        marks.append("to act")
    where = f"at {cards.shop_name(pl['position'])}" if pl["position"] else "not in Town yet"
    head = f"  {'>' if v['to_act'] == p else ' '} {pl['name']}"
    if marks:
        head += f" ({', '.join(marks)})"
    lines = [f"{head} — Reputation {pl['reputation']}, Coins {pl['coins']}, {where}"]
    goods = ", ".join(f"{GOOD_NAMES[g]} {pl['goods'][k]}" for g, k in enumerate(GOOD_KEYS))
    lines.append(f"      Goods: {goods}")
    reserved = cards.ench(pl["reserved"]).name if pl["reserved"] else "none"
    lines.append(f"      Hand: {_count(pl['hand_count'], 'Artisan Dragon')}; Fancy Dragons: "
                 f"{pl['fancy_count']} unscored; reserved Enchantment: {reserved}")
    if pl["reserved"]:
        lines.append(f"      Reserved: {enchantment_line(cards.ench(pl['reserved']))}")
    if pl["scored"]:
        lines.append("      Scored: " + ", ".join(cards.fancy_name(f) for f in pl["scored"]))
    if pl.get("companion"):
        companion = cards.c.companions[cards.c.companion_by_id[pl["companion"]]]
        lines.append(f"      Companion: {companion.name} (used {pl['companion_uses']}): "
                     f"{companion.text}")
    if "achievements" in pl:
        claimed = [a.name for a in cards.c.achievements if a.id in pl["achievements"]]
        lines.append("      Achievements: " + (", ".join(claimed) or "none yet"))
    if "hand" in pl:
        shown = ", ".join(cards.artisan(a) for a in pl["hand"]) or "empty"
        lines.append(f"      Your hand: {shown}")
    if "fancy" in pl:
        lines.append("      Your Fancy Dragons:" + ("" if pl["fancy"] else " none"))
        for f in pl["fancy"]:
            card = cards.c.fancies[cards.c.fancy_by_id[f]]
            lines.append(f"        {card.name} ({'Sun' if card.sun else 'Moon'}): {card.text}")
    return lines


def scores(v: dict[str, Any]) -> list[str]:
    """The final scores of an ended game's view: Reputation by source and the winners."""
    names = [pl["name"] for pl in v["players"]]
    wide = max(len("player"), *(len(n) for n in names))
    head = f"  {'player':<{wide}}  total  " + " ".join(f"{lab:>7}" for lab in
                                                      SOURCE_LABELS.values())
    lines = ["FINAL SCORES (Reputation by source)", head]
    for pl in v["players"]:
        src = pl.get("reputation_sources", {})
        row = " ".join(f"{src.get(key, 0):>7}" for key in SOURCE_LABELS)
        lines.append(f"  {pl['name']:<{wide}}  {pl['reputation']:>5}  {row}")
    winners = [names[p] for p in v.get("winners", [])]
    if v.get("solo"):
        lines.append(f"Solo rating: {v.get('rating', '?')}")
    else:
        lines.append(("Winner: " if len(winners) == 1 else "Winners (shared): ")
                     + ", ".join(winners))
    return lines


def render(v: dict[str, Any], catalog: Catalog, width: int = WIDTH) -> str:
    """The board of view ``v`` as plain text at most ``width`` columns wide (what is being
    decided shows only in the view of the seat deciding, ``v["choosing"]``)."""
    cards = _Cards(catalog)
    names = [pl["name"] for pl in v["players"]]
    observer = v["observer"]
    seen = f"seen by {names[observer]}" if observer is not None else "seen by a spectator"
    lines: list[str] = []
    if v["over"]:
        lines.append(f"FLAMECRAFT — game over after turn {v['turn']} ({seen})")
    else:
        acting = names[v["to_act"]] if v["to_act"] >= 0 else "nobody"
        what = f", choosing {v['choosing']}" if v.get("choosing") else ""
        whose = "your" if names[v["current"]] == "You" else f"{names[v['current']]}'s"
        lines.append(f"FLAMECRAFT — turn {v['turn']}, {whose} turn; "
                     f"{acting} to act{what} ({seen})")
    if v["end_triggered"] and not v["over"]:
        lines.append("The end of the game is triggered: the round is being finished.")
    lines.append("")
    lines.extend(_town(v, cards, names))
    lines.append("")
    park = ", ".join(cards.artisan(a) for a in v["park"]) or "empty"
    lines.append(f"PARK: {park}")
    lines.append("")
    lines.append("ENCHANTMENT ROW")
    lines.extend(f"  {enchantment_line(cards.ench(e))}" for e in v["enchantment_row"])
    if not v["enchantment_row"]:
        lines.append("  empty")
    lines.append("")
    lines.append("PLAYERS")
    for p in range(len(v["players"])):
        lines.extend(_player(v, p, cards))
    lines.append("")
    d = v["decks"]
    lines.append(f"DECKS: Artisan {d['artisan']}, Fancy {d['fancy']}, Enchantment "
                 f"{d['enchantment']}, Shop {d['shop']}; end of game triggered: "
                 f"{'yes' if v['end_triggered'] else 'no'}")
    if v.get("legal_actions"):
        lines.append("")
        lines.append("YOUR CHOICES")
        lines.extend(f"  {i}: {t}" for i, t in enumerate(v["legal_actions"]))
    if v["over"]:
        lines.append("")
        lines.extend(scores(v))
    return "\n".join(_fit(lines, width)) + "\n"
