"""A plain-text board, drawn from one seat's view.

It reads only the view dict (``view.view(s, observer)``) and the card catalog, never the state:
whatever the view hides (the other seats' hands and Fancy Dragons) cannot appear here.
"""

from __future__ import annotations

from typing import Any

from ..core.cards import ANY_SLOT, ICON_COIN, ICON_DRAGON, ICON_RAINBOW, Catalog, EnchantmentCard
from ..core.cardtext import rating_title
from ..core.goods import GOOD_KEYS, GOOD_NAMES
from ..core.tr import N_, Translate
from .i18n import display_width, pad, translator
from .localized import CardTexts
from .wrap import wrap_line

WIDTH = 100
SOURCE_LABELS = {
    "slots": N_("slots"), "enchantments": N_("enchant"), "sun_dragons": N_("sun"),
    "moon_dragons": N_("moon"), "gifts": N_("gifts"), "abilities": N_("ability"),
    "coins": N_("coins"), "companions": N_("compan"), "achievements": N_("achieve"),
}


class _Cards:
    """Looks cards up by the ids a view uses, and says things in the reader's language
    (``tr`` the board's words, ``game`` the game's: Goods, card texts)."""

    def __init__(self, catalog: Catalog, lang: str = "en"):
        self.c = catalog
        self.tr: Translate = translator(lang, "terminal").gettext
        self.game: Translate = translator(lang, "game").gettext
        self.texts = CardTexts(lang)

    def good(self, g: int) -> str:
        return self.game(GOOD_NAMES[g])

    def count(self, n: int, one: str, many: str) -> str:
        return (one if n == 1 else many).format(n=n)

    def artisan(self, card_id: str) -> str:
        card = self.c.artisans[self.c.artisan_by_id[card_id]]
        return f"{card.name} ({self.good(card.type)})"

    def shop_name(self, card_id: str) -> str:
        return self.c.shops[self.c.shop_by_id[card_id]].name

    def ench(self, card_id: str) -> EnchantmentCard:
        return self.c.enchantments[self.c.enchantment_by_id[card_id]]

    def fancy_name(self, card_id: str) -> str:
        return self.c.fancies[self.c.fancy_by_id[card_id]].name


def _coins(cards: _Cards, n: int) -> str:
    return cards.count(n, cards.tr("{n} Coin"), cards.tr("{n} Coins"))


def _dragons(cards: _Cards, n: int) -> str:
    return cards.count(n, cards.tr("{n} Artisan Dragon"), cards.tr("{n} Artisan Dragons"))


def _shop_icon(cards: _Cards, icon: int, amount: int) -> str:
    if icon == ICON_RAINBOW:
        return cards.tr("Rainbow")
    if icon == ICON_DRAGON:
        return _dragons(cards, amount)
    if icon == ICON_COIN:
        return _coins(cards, amount)
    return cards.good(icon) if amount == 1 else cards.tr("{n} {good}").format(
        n=amount, good=cards.good(icon))


def _cost_text(cards: _Cards, card: EnchantmentCard) -> str:
    tr = cards.tr
    parts = [tr("{n} {good}").format(n=n, good=cards.good(g))
             for g, n in enumerate(card.cost) if n]
    if card.printed_coins:
        parts.append(_coins(cards, card.printed_coins))
    return tr(" + ").join(parts) if parts else tr("nothing")


def enchantment_line(card: EnchantmentCard, cards: _Cards) -> str:
    """One Enchantment: the Shop icon it is cast on, its cost and what it gives."""
    tr = cards.tr
    where = tr("on {good} Shops").format(good=cards.good(card.icon))
    reward = cards.texts.reward(card.reward)
    if card.variable:
        table = "/".join(str(r) for r in card.rep_by_sets)
        text = tr("{name} ({where}): per set {cost}, 1–{sets} sets → {table} Reputation").format(
            name=card.name, where=where, cost=_cost_text(cards, card), sets=card.max_sets,
            table=table)
        if not card.reward.is_empty():
            text += f" + {reward}"
    else:
        text = f"{card.name} ({where}): {_cost_text(cards, card)} → {reward}"
    if card.no_coins:
        text += tr("; Coins may not stand in for Goods")
    return text


def _fit(lines: list[str], width: int) -> list[str]:
    """Wraps every line wider than ``width`` columns, continuing under its own indent (at
    spaces, or between Japanese characters)."""
    out: list[str] = []
    for line in lines:
        indent = len(line) - len(line.lstrip(" "))
        out.extend(wrap_line(line, width, indent + 4))
    return out


def _town(v: dict[str, Any], cards: _Cards, names: list[str]) -> list[str]:
    tr = cards.tr
    lines = [tr("TOWN")]
    for space, entry in enumerate(v["town"], 1):
        if entry is None:
            continue
        if entry.get("face_down"):
            lines.append(f"  [{space}] " + tr("a face-down Shop (drawn this turn)"))
            continue
        card = cards.c.shops[cards.c.shop_by_id[entry["id"]]]
        head = f"  [{space}] " + tr("{name} — icon: {icon}").format(
            name=card.name, icon=_shop_icon(cards, card.icon, card.icon_amount))
        if entry["visitors"]:
            head += tr(" — here: {names}").format(
                names=tr(", ").join(names[p] for p in entry["visitors"]))
        lines.append(head)
        for k, (slot, dragon) in enumerate(zip(card.slots, entry["slots"], strict=True), 1):
            if dragon is not None:
                lines.append("      " + tr("slot {k}: {dragon}").format(
                    k=k, dragon=cards.artisan(dragon)))
                continue
            accepts = (tr("any dragon") if slot.accepts[0] == ANY_SLOT
                       else "/".join(cards.good(g) for g in slot.accepts))
            reward = (tr("no reward") if slot.reward.is_empty()
                      else cards.texts.reward(slot.reward))
            lines.append("      " + tr("slot {k}: empty, takes {accepts} → {reward}").format(
                k=k, accepts=accepts, reward=reward))
        if entry["enchantments"]:
            tucked = tr(", ").join(cards.ench(e).name for e in entry["enchantments"])
            lines.append("      " + tr("Enchantments: {names}").format(names=tucked))
        if card.ability_name:
            lines.append("      " + tr("Ability {name}: {text}").format(
                name=card.ability_name, text=cards.texts.ability(card)))
    return lines


def _player(v: dict[str, Any], p: int, cards: _Cards) -> list[str]:
    tr = cards.tr
    pl = v["players"][p]
    marks = []
    if v["observer"] == p:
        marks.append(tr("you"))
    if v.get("first_player") == p:
        marks.append(tr("first player"))
    if v["current"] == p and not v["over"]:
        marks.append(tr("their turn"))
    if v["to_act"] == p:
        marks.append(tr("to act"))
    where = (tr("at {shop}").format(shop=cards.shop_name(pl["position"])) if pl["position"]
             else tr("not in Town yet"))
    head = f"  {'>' if v['to_act'] == p else ' '} {pl['name']}"
    if marks:
        head += f" ({tr(', ').join(marks)})"
    lines = [head + tr(" — Reputation {rep}, Coins {coins}, {where}").format(
        rep=pl["reputation"], coins=pl["coins"], where=where)]
    goods = tr(", ").join(f"{cards.good(g)} {pl['goods'][k]}" for g, k in enumerate(GOOD_KEYS))
    lines.append("      " + tr("Goods: {goods}").format(goods=goods))
    reserved = cards.ench(pl["reserved"]).name if pl["reserved"] else tr("none")
    lines.append("      " + tr("Hand: {dragons}; Fancy Dragons: {n} unscored; reserved "
                               "Enchantment: {reserved}").format(
        dragons=_dragons(cards, pl["hand_count"]), n=pl["fancy_count"], reserved=reserved))
    if pl["reserved"]:
        lines.append("      " + tr("Reserved: {card}").format(
            card=enchantment_line(cards.ench(pl["reserved"]), cards)))
    if pl["scored"]:
        lines.append("      " + tr("Scored: {names}").format(
            names=tr(", ").join(cards.fancy_name(f) for f in pl["scored"])))
    if pl.get("companion"):
        companion = cards.c.companions[cards.c.companion_by_id[pl["companion"]]]
        lines.append("      " + tr("Companion: {name} (used {n}): {text}").format(
            name=companion.name, n=pl["companion_uses"], text=cards.texts.companion(companion)))
    if "achievements" in pl:
        claimed = [a.name for a in cards.c.achievements if a.id in pl["achievements"]]
        lines.append("      " + tr("Achievements: {names}").format(
            names=tr(", ").join(claimed) or tr("none yet")))
    if "hand" in pl:
        shown = tr(", ").join(cards.artisan(a) for a in pl["hand"]) or tr("empty")
        lines.append("      " + tr("Your hand: {dragons}").format(dragons=shown))
    if "fancy" in pl:
        lines.append("      " + tr("Your Fancy Dragons:") + ("" if pl["fancy"]
                                                             else " " + tr("none")))
        for f in pl["fancy"]:
            card = cards.c.fancies[cards.c.fancy_by_id[f]]
            kind = tr("Sun") if card.sun else tr("Moon")
            lines.append(f"        {card.name} ({kind}): {cards.texts.fancy(card)}")
    return lines


def scores(v: dict[str, Any], lang: str = "en") -> list[str]:
    """The final scores of an ended game's view: Reputation by source and the winners."""
    tr = translator(lang, "terminal").gettext
    names = [pl["name"] for pl in v["players"]]
    player = tr("player")
    wide = max(display_width(player), *(display_width(n) for n in names))
    head = (f"  {pad(player, wide)}  {pad(tr('total'), 5, '>')}  "
            + " ".join(pad(tr(lab), 7, ">") for lab in SOURCE_LABELS.values()))
    lines = [tr("FINAL SCORES (Reputation by source)"), head]
    for pl in v["players"]:
        src = pl.get("reputation_sources", {})
        row = " ".join(f"{src.get(key, 0):>7}" for key in SOURCE_LABELS)
        lines.append(f"  {pad(pl['name'], wide)}  {pl['reputation']:>5}  {row}")
    winners = [names[p] for p in v.get("winners", [])]
    if v.get("solo"):
        lines.append(tr("Solo rating: {rating}").format(
            rating=rating_title(v["rating"], translator(lang, "game").gettext)
            if v.get("rating") else "?"))
    else:
        lines.append((tr("Winner: ") if len(winners) == 1 else tr("Winners (shared): "))
                     + tr(", ").join(winners))
    return lines


def render(v: dict[str, Any], catalog: Catalog, width: int = WIDTH, lang: str = "en") -> str:
    """The board of view ``v`` as plain text at most ``width`` columns wide (what is being
    decided shows only in the view of the seat deciding, ``v["choosing"]``), in ``lang``."""
    cards = _Cards(catalog, lang)
    tr = cards.tr
    names = [pl["name"] for pl in v["players"]]
    observer = v["observer"]
    seen = (tr("seen by {name}").format(name=names[observer]) if observer is not None
            else tr("seen by a spectator"))
    lines: list[str] = []
    if v["over"]:
        lines.append(tr("FLAMECRAFT — game over after turn {turn} ({seen})").format(
            turn=v["turn"], seen=seen))
    else:
        acting = names[v["to_act"]] if v["to_act"] >= 0 else tr("nobody")
        what = tr(", choosing {what}").format(what=v["choosing"]) if v.get("choosing") else ""
        # the seat's own turn said as such (a game saved before issue 21 may name a seat "You")
        mine = v["current"] == observer or names[v["current"]] in ("You", tr("You"))
        whose = (tr("your turn") if mine
                 else tr("{name}'s turn").format(name=names[v["current"]]))
        lines.append(tr("FLAMECRAFT — turn {turn}, {whose}; {acting} to act{what} ({seen})")
                     .format(turn=v["turn"], whose=whose, acting=acting, what=what, seen=seen))
    if v["end_triggered"] and not v["over"]:
        lines.append(tr("The end of the game is triggered: the round is being finished."))
    lines.append("")
    lines.extend(_town(v, cards, names))
    lines.append("")
    park = tr(", ").join(cards.artisan(a) for a in v["park"]) or tr("empty")
    lines.append(tr("PARK: {dragons}").format(dragons=park))
    lines.append("")
    lines.append(tr("ENCHANTMENT ROW"))
    lines.extend(f"  {enchantment_line(cards.ench(e), cards)}" for e in v["enchantment_row"])
    if not v["enchantment_row"]:
        lines.append("  " + tr("empty"))
    lines.append("")
    lines.append(tr("PLAYERS"))
    for p in range(len(v["players"])):
        lines.extend(_player(v, p, cards))
    lines.append("")
    d = v["decks"]
    lines.append(tr("DECKS: Artisan {artisan}, Fancy {fancy}, Enchantment {enchantment}, Shop "
                    "{shop}; end of game triggered: {triggered}").format(
        triggered=tr("yes") if v["end_triggered"] else tr("no"), **d))
    if v.get("legal_actions"):
        lines.append("")
        lines.append(tr("YOUR CHOICES"))
        lines.extend(f"  {i}: {t}" for i, t in enumerate(v["legal_actions"]))
    if v["over"]:
        lines.append("")
        lines.extend(scores(v, lang))
    return "\n".join(_fit(lines, width)) + "\n"
