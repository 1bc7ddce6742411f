"""The screens of ``flamecraft play``, drawn from one seat's screen view (a dict), never the state.

A screen view is ``view.view(s, seat)`` plus a few facts that seat may know (its own Fancy
Dragons' values now, the log as that seat may read it, the pending decision's public name), put
together by ``tui.py``. Everything here reads only that dict and the card catalog, so a hidden
card of another seat cannot reach the screen. Colour is ANSI and optional; every Good also has
a letter icon ([Br] [Me] [Ir] [Po] [Cr] [Pl], ★ for rainbow), so nothing depends on colour.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from .core.cards import (
    ANY_SLOT,
    ICON_COIN,
    ICON_DRAGON,
    ICON_RAINBOW,
    Achievement,
    ArtisanCard,
    Catalog,
    CompanionCard,
    EnchantmentCard,
    FancyCard,
    ShopCard,
)
from .core.goods import GOOD_KEYS, GOOD_NAMES

GOOD_ABBR = ("Br", "Me", "Ir", "Po", "Cr", "Pl")
# ANSI foreground colours: Bread yellow, Meat red, Iron blue (white vanishes on a light
# background), Potion magenta, Crystal cyan, Plant green.
GOOD_COLORS = ("33", "31", "34", "35", "36", "32")
RAINBOW = "★"
# Short column labels of the Reputation sources (state.SOURCE_NAMES); a source without a label
# here is shown under the first 7 letters of its name.
SOURCE_LABELS = {"slots": "slots", "enchantments": "enchant", "sun_dragons": "sun",
                 "moon_dragons": "moon", "gifts": "gifts", "abilities": "ability",
                 "coins": "coins", "companions": "compan", "achievements": "achieve"}
ALWAYS_SHOWN = ("slots", "enchantments", "sun_dragons", "moon_dragons", "gifts", "abilities",
                "coins")
# What each Artisan type does when fired up (the published player aid; data/fire_ups.toml).
FIRE_UP_TEXT = (
    "Draw 1 Artisan Dragon (from the Park or the top of the deck).",
    "Place an Artisan Dragon from your hand on any empty matching slot in Town, gaining its "
    "reward.",
    "Gain 2 of one Good produced by this Shop or by an Artisan Dragon here.",
    "Swap this dragon with another Artisan Dragon in Town, then fire up the dragon that "
    "arrived here.",
    "Gain any 3 different Goods.",
    "Gift 1 Good to another player, then gain 2 Reputation.",
)

HELP = """\
HOW TO PLAY IN THE TERMINAL
  Each decision lists numbered choices. Type a number, or the start of a
  choice's text: "visit sm" picks "visit Smith Mart" when no other choice
  starts that way. Words that begin words of just one choice work too:
  "smith", "pl cook 2".
COMMANDS (type at any prompt)
  town          every Shop: slots, what empty slots take and give, Enchantments
  hand          your Artisan and Fancy Dragons (goals), reserved Enchantment
  row           the Enchantment row (costs, rewards) and the Park
  players       every player's public side
  board         the whole board on one page
  choices       every choice of this decision, with its facts
  card NAME     the full text of any card (Shop, Artisan, Enchantment, Fancy…)
  log [N]       the last N actions (default 30)
  achievements  solo: each achievement and how far you are
  hint          the three best choices now, from your view, with why
  undo          take back your last choice this turn (not past a card drawn
                from a hidden deck, a Fancy Dragon revealed, or a shuffle)
  save FILE     save the game; `flamecraft play --load FILE` resumes it
  load FILE     load a saved game
  quit          leave the game (you are offered to save it first)
  Enter         show the summary screen again
ICONS
  [Br] Bread  [Me] Meat  [Ir] Iron  [Po] Potion  [Cr] Crystal  [Pl] Plant
  ★ a rainbow Shop (any Good)  +Dr a dragon Shop (gather: draw a dragon)
  +1$ a coin Shop  $ Coin  Rep Reputation  -- an empty slot  ✦ Enchantments"""

_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def visible_len(text: str) -> int:
    """The width of ``text`` on screen (ANSI colour codes take no room)."""
    return len(_ANSI.sub("", text))


def strip_ansi(text: str) -> str:
    return _ANSI.sub("", text)


def pad(text: str, width: int) -> str:
    return text + " " * max(0, width - visible_len(text))


class Style:
    """ANSI colours when ``color`` is on; the same text without them when it is off."""

    def __init__(self, color: bool):
        self.color = color

    def paint(self, code: str, text: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if self.color and text else text

    def bold(self, text: str) -> str:
        return self.paint("1", text)

    def dim(self, text: str) -> str:
        return self.paint("2", text)

    def head(self, text: str) -> str:
        return self.paint("1;33", text)

    def ok(self, text: str) -> str:
        return self.paint("32", text)

    def bad(self, text: str) -> str:
        return self.paint("31", text)

    def good(self, g: int) -> str:
        """The icon of Good ``g``: ``[Br]`` and so on, coloured by type."""
        return self.paint(GOOD_COLORS[g], f"[{GOOD_ABBR[g]}]")

    def shop_icon(self, card: ShopCard) -> str:
        if card.icon == ICON_RAINBOW:
            return self.paint("1;35", RAINBOW)
        if card.icon == ICON_DRAGON:
            return f"+{card.icon_amount}Dr" if card.icon_amount > 1 else "+Dr"
        if card.icon == ICON_COIN:
            return self.paint("33", f"+{card.icon_amount}$")
        return self.good(card.icon)

    def artisan(self, card: ArtisanCard) -> str:
        return f"{card.name}{self.good(card.type)}"


class Cards:
    """Looks cards up by the ids a view uses, and finds any card by (part of) its name."""

    def __init__(self, catalog: Catalog):
        self.c = catalog

    def artisan(self, card_id: str) -> ArtisanCard:
        return self.c.artisans[self.c.artisan_by_id[card_id]]

    def shop(self, card_id: str) -> ShopCard:
        return self.c.shops[self.c.shop_by_id[card_id]]

    def ench(self, card_id: str) -> EnchantmentCard:
        return self.c.enchantments[self.c.enchantment_by_id[card_id]]

    def fancy(self, card_id: str) -> FancyCard:
        return self.c.fancies[self.c.fancy_by_id[card_id]]

    def all_named(self) -> list[tuple[str, object]]:
        cards: list[tuple[str, object]] = []
        for table in (self.c.shops, self.c.artisans, self.c.enchantments, self.c.fancies,
                      self.c.companions, self.c.achievements):
            cards.extend((card.name, card) for card in table)
        return cards


# ---------------------------------------------------------------- small pieces


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def reward_short(style: Style, reward: Any) -> str:
    """A reward in a few characters: ``2Rep +1$ +Dragon +Fancy +★``."""
    parts = []
    if reward.rep:
        parts.append(f"{reward.rep}Rep")
    if reward.coins:
        parts.append(f"{reward.coins}$")
    if reward.artisan:
        parts.append("Dragon" if reward.artisan == 1 else f"{reward.artisan} Dragons")
    if reward.fancy:
        parts.append("Fancy" if reward.fancy == 1 else f"{reward.fancy} Fancy")
    if reward.good_choice:
        parts.append(f"{reward.good_choice}{RAINBOW}")
    return "+".join(parts) if parts else "-"


def cost_short(style: Style, card: EnchantmentCard) -> str:
    parts = [f"{n}{style.good(g)}" for g, n in enumerate(card.cost) if n]
    if card.printed_coins:
        parts.append(f"{card.printed_coins}$")
    return " ".join(parts)


def enchantment_short(style: Style, card: EnchantmentCard) -> str:
    """One Enchantment on one line: name, the Shop icon it goes on, cost → reward."""
    if card.variable:
        table = "/".join(str(r) for r in card.rep_by_sets)
        text = (f"{card.name}{style.good(card.icon)} ({cost_short(style, card)})×1–"
                f"{card.max_sets} → {table}Rep")
        if not card.reward.is_empty():
            text += "+" + reward_short(style, card.reward)
        if card.no_coins:
            text += " no $"
        return text
    return (f"{card.name}{style.good(card.icon)} {cost_short(style, card)} → "
            f"{reward_short(style, card.reward)}")


def enchantment_long(style: Style, card: EnchantmentCard) -> str:
    where = f"cast on {GOOD_NAMES[card.icon]} Shops (or a {RAINBOW} Shop)"
    cost = " + ".join([f"{n} {GOOD_NAMES[g]}" for g, n in enumerate(card.cost) if n]
                      + ([_plural(card.printed_coins, "Coin")] if card.printed_coins else []))
    if card.variable:
        table = ", ".join(f"{k} set{'s' if k > 1 else ''}: {r}"
                          for k, r in enumerate(card.rep_by_sets, 1))
        text = (f"{card.name} {style.good(card.icon)} — {where}. Cost per set: {cost}; "
                f"1–{card.max_sets} sets. Reputation by sets: {table}.")
        if not card.reward.is_empty():
            text += f" Also: {card.reward.text()}."
    else:
        text = (f"{card.name} {style.good(card.icon)} — {where}. Cost: {cost}. "
                f"Reward: {card.reward.text()}.")
    if card.no_coins:
        text += " Coins may not stand in for Goods."
    else:
        text += " Coins may stand in for missing Goods, 1 for 1."
    return text


def slot_text(style: Style, card: ShopCard, k: int) -> str:
    slot = card.slots[k]
    accepts = (f"any {RAINBOW}" if slot.accepts[0] == ANY_SLOT
               else "/".join(style.good(g) for g in slot.accepts))
    reward = "no reward" if slot.reward.is_empty() else reward_short(style, slot.reward)
    return f"takes {accepts} → {reward}"


def shop_long(style: Style, card: ShopCard) -> list[str]:
    """A Shop's full text: icon, slots (what each takes and gives), ability."""
    if card.icon < len(GOOD_NAMES):
        icon = f"{GOOD_NAMES[card.icon]} {style.good(card.icon)}"
    elif card.icon == ICON_RAINBOW:
        icon = f"rainbow {RAINBOW} (gather: 1 Good of your choice; any Enchantment may be cast)"
    elif card.icon == ICON_DRAGON:
        icon = f"dragon (gather: draw {_plural(card.icon_amount, 'Artisan Dragon')})"
    else:
        icon = f"coin (gather: {_plural(card.icon_amount, 'Coin')}; no Enchantments)"
    lines = [f"{card.name} — Shop, icon: {icon}"]
    for k in range(3):
        lines.append(f"  slot {k + 1}: {slot_text(style, card, k)}")
    if card.ability_name:
        lines.append(f"  ability {card.ability_name}: {card.ability_text}")
    elif card.starter:
        lines.append("  (a starting Shop: no ability)")
    return lines


def fancy_long(card: FancyCard) -> str:
    kind = ("Sun Dragon (reveal on your turn when its goal is met)" if card.sun
            else "Moon Dragon (scored at the end of the game)")
    return f"{card.name} — {kind}: {card.text}"


def artisan_long(style: Style, card: ArtisanCard) -> str:
    return (f"{card.name} {style.good(card.type)} — {GOOD_NAMES[card.type]} Artisan Dragon. "
            f"Fire up: {FIRE_UP_TEXT[card.type]}")


def card_text(style: Style, card: object) -> list[str]:
    """The full text of any card, for ``card NAME``."""
    if isinstance(card, ShopCard):
        return shop_long(style, card)
    if isinstance(card, ArtisanCard):
        return [artisan_long(style, card)]
    if isinstance(card, EnchantmentCard):
        return [enchantment_long(style, card)]
    if isinstance(card, FancyCard):
        return [fancy_long(card)]
    if isinstance(card, CompanionCard):
        limits = []
        if card.uses_per_game:
            limits.append(f"{card.uses_per_game} per game")
        if card.per_turn:
            limits.append(f"{card.per_turn} per turn")
        return [f"{style.bold(card.name)} (Companion, {card.provenance.level}"
                + (f"; {', '.join(limits)}" if limits else "") + f"): {card.text}"]
    if isinstance(card, Achievement):
        return [f"{style.bold(card.name)} (solo achievement, {card.rep} Reputation): "
                f"{card.text}"]
    raise TypeError(f"not a card: {card!r}")


def wrap(lines: Sequence[str], width: int) -> list[str]:
    """Wraps lines longer than ``width`` (measured without colour codes) at spaces,
    continuing under their own indent plus two."""
    out: list[str] = []
    for line in lines:
        if visible_len(line) <= width:
            out.append(line)
            continue
        indent = len(line) - len(line.lstrip(" "))
        words = line.split()
        out.extend(part.rstrip() for part in flow(" " * indent + words[0] + " ", words[1:],
                                                  width, " ", indent + 2))
    return out


def flow(head: str, items: Sequence[str], width: int, sep: str = " ",
         indent: int = 2) -> list[str]:
    """``head`` then the items, packed into lines of at most ``width`` visible columns (an
    item never splits; continuation lines are indented)."""
    lines = [head]
    for item in items:
        line = lines[-1]
        joint = "" if line == head or not line.strip() else sep
        if visible_len(line) + len(joint) + visible_len(item) <= width or not line.strip():
            lines[-1] = line + joint + item
        else:
            lines.append(" " * indent + item)
    return lines


def columns(cells: Sequence[str], width: int, min_gap: int = 2) -> list[str]:
    """Lays cells out in as many equal columns as fit in ``width`` (column by row)."""
    if not cells:
        return []
    per_line = per_row(cells, width, min_gap)
    cell = max(visible_len(c) for c in cells) + min_gap
    return ["".join(pad(c, cell) for c in cells[i:i + per_line]).rstrip()
            for i in range(0, len(cells), per_line)]


def per_row(cells: Sequence[str], width: int, min_gap: int = 2) -> int:
    """How many cells ``columns`` puts on one line."""
    cell = max(visible_len(c) for c in cells) + min_gap
    return max(1, min(len(cells), (width + min_gap) // cell))


def tokens(v: dict[str, Any]) -> list[str]:
    """Each player's token on the Town map: the first letter of the name, or the seat number
    when two names share a first letter."""
    initials = [pl["name"][:1].upper() for pl in v["players"]]
    return [i if initials.count(i) == 1 and not i.isdigit() else str(p + 1)
            for p, i in enumerate(initials)]


# ---------------------------------------------------------------- sections


def _goods_line(style: Style, goods: dict[str, int], skip_zero: bool = False) -> str:
    parts = [f"{style.good(g)}{goods[k]}" for g, k in enumerate(GOOD_KEYS)
             if goods[k] or not skip_zero]
    return " ".join(parts) if parts else "no Goods"


def header(style: Style, v: dict[str, Any], width: int = 80) -> list[str]:
    """The turn, whose turn it is, whether the last round is on, and the hidden piles."""
    names = [pl["name"] for pl in v["players"]]
    d = v["decks"]
    if v["over"]:
        return [style.head("FLAMECRAFT") + f" — game over after turn {v['turn']}"]
    items = [f"turn {v['turn']}" if v["turn"] else "setup",
             f"playing: {names[v['current']]}" if v["turn"] else "everyone chooses"]
    if v["end_triggered"]:
        items.append(style.bad("LAST ROUND"))
    items.append(f"decks: Artisan {d['artisan']} Fancy {d['fancy']} Ench {d['enchantment']} "
                 f"Shop {d['shop']}")
    return flow(style.head("FLAMECRAFT") + " ", items, width, " · ")


def town_cells(style: Style, v: dict[str, Any], cards: Cards, width: int) -> list[str]:
    """One short cell per Shop: number, name, icon, slots, Enchantments, tokens."""
    marks = tokens(v)
    longest = max([len(cards.shop(e["id"]).name) for e in v["town"]
                   if e is not None and not e.get("face_down")] + [16])
    name_w = min(longest, max(10, width - 25))
    cells = []
    for space, entry in enumerate(v["town"], 1):
        if entry is None:
            continue
        if entry.get("face_down"):
            cells.append(f"{space:>2} {'(face-down Shop)':<{name_w}}")
            continue
        card = cards.shop(entry["id"])
        name = card.name if len(card.name) <= name_w else card.name[:name_w - 1] + "…"
        slots = " ".join(style.paint(GOOD_COLORS[cards.artisan(d).type],
                                     GOOD_ABBR[cards.artisan(d).type]) if d else "--"
                         for d in entry["slots"])
        ench = f"✦{len(entry['enchantments'])}" if entry["enchantments"] else "  "
        here = "".join(marks[p] for p in entry["visitors"])
        cells.append(f"{space:>2} {pad(name, name_w)} {pad(style.shop_icon(card), 4)} "
                     f"{slots} {ench} {style.bold(here)}".rstrip())
    return cells


def town_compact(style: Style, v: dict[str, Any], cards: Cards, width: int) -> list[str]:
    cell_width = (width - 2) // 2 if width >= 76 else width
    cells = town_cells(style, v, cards, cell_width)
    marks = tokens(v)
    legend = [f"{marks[p]}={pl['name']}" for p, pl in enumerate(v["players"])]
    lines = flow(style.bold("TOWN") + "  ", [style.dim("(-- empty slot, ✦ Enchantments)"),
                                             *legend], width, " ")
    per_line = 2 if cell_width < width else 1
    cell_width = min(cell_width, max((visible_len(c) for c in cells), default=0))
    for i in range(0, len(cells), per_line):
        lines.append("  ".join(pad(c, cell_width) for c in cells[i:i + per_line]).rstrip())
    return lines


def town_detail(style: Style, v: dict[str, Any], cards: Cards) -> list[str]:
    """Every Shop in full: icon, each slot's dragon or what it takes and gives,
    Enchantments, ability, and whose tokens stand there."""
    names = [pl["name"] for pl in v["players"]]
    lines = [style.bold("TOWN")]
    for space, entry in enumerate(v["town"], 1):
        if entry is None:
            continue
        if entry.get("face_down"):
            lines.append(f"{space:>2} a face-down Shop (drawn this turn, flipped at its end)")
            continue
        card = cards.shop(entry["id"])
        head = f"{space:>2} {style.bold(card.name)} {style.shop_icon(card)}"
        if entry["visitors"]:
            head += "  here: " + ", ".join(names[p] for p in entry["visitors"])
        lines.append(head)
        for k, dragon in enumerate(entry["slots"]):
            if dragon:
                lines.append(f"     slot {k + 1}: {style.artisan(cards.artisan(dragon))}")
            else:
                lines.append(f"     slot {k + 1}: -- {slot_text(style, card, k)}")
        if entry["enchantments"]:
            lines.append("     Enchantments: " + ", ".join(
                f"{cards.ench(e).name}{style.good(cards.ench(e).icon)}"
                for e in entry["enchantments"]))
        if card.ability_name:
            lines.append(f"     {card.ability_name}: {card.ability_text}")
    return lines


def park_lines(style: Style, v: dict[str, Any], cards: Cards, width: int) -> list[str]:
    park = [style.artisan(cards.artisan(a)) for a in v["park"]] or ["empty"]
    return flow(style.bold("PARK") + " ", park, width)


def row_compact(style: Style, v: dict[str, Any], cards: Cards, width: int) -> list[str]:
    names = [f"{cards.ench(e).name}{style.good(cards.ench(e).icon)}"
             for e in v["enchantment_row"]] or ["empty"]
    return flow(style.bold("ROW") + " ", names, width, " · ")


def row_detail(style: Style, v: dict[str, Any], cards: Cards) -> list[str]:
    lines = [style.bold("ENCHANTMENT ROW") + style.dim("  (name[Shop icon] cost → reward)")]
    lines.extend(f"  {enchantment_short(style, cards.ench(e))}" for e in v["enchantment_row"])
    if not v["enchantment_row"]:
        lines.append("  empty")
    return lines


def me_lines(style: Style, v: dict[str, Any], sv: dict[str, Any], cards: Cards,
             width: int = 80) -> list[str]:
    """The seat's own side: Reputation, Coins, Goods, place, hand, Fancy Dragons, reserved."""
    me = v["observer"]
    pl = v["players"][me]
    where = f"at {cards.shop(pl['position']).name}" if pl["position"] else "not in Town yet"
    you = "" if pl["name"].lower() == "you" else " (you)"
    lines = flow(f"{style.bold(pl['name'])}{you}: ",
                 [f"{style.bold(str(pl['reputation']))} Rep", f"{pl['coins']}$",
                  _goods_line(style, pl["goods"]), where], width, " · ")
    hand = [style.artisan(cards.artisan(a)) for a in pl.get("hand", [])] or ["empty"]
    if pl["reserved"]:
        hand.append(f"· Reserved: {enchantment_short(style, cards.ench(pl['reserved']))}")
    lines.extend(flow(f"  Hand ({len(pl.get('hand', []))}): ", hand, width, indent=4))
    values = sv.get("fancy_values", {})
    fancy = []
    for f in pl.get("fancy", []):
        card = cards.fancy(f)
        value = values.get(f, 0)
        mark = style.ok(f"✓ {value} Rep now") if value > 0 else style.bad("✗ not met")
        fancy.append(f"{card.name} ({'Sun' if card.sun else 'Moon'} {mark})")
    lines.extend(flow("  Fancy: ", fancy or ["none"], width, " · ", indent=4))
    if pl["scored"]:
        lines.extend(flow("  Scored: ", [cards.fancy(f).name for f in pl["scored"]], width,
                          ", ", indent=4))
    if pl.get("companion"):
        companion = cards.c.companions[cards.c.companion_by_id[pl["companion"]]]
        lines.extend(flow("  Companion: ", [f"{companion.name} (used {pl['companion_uses']})"],
                          width, indent=4))
    if "achievements" in pl:
        names = [cards.c.achievements[i].name for i, a in enumerate(
            cards.c.achievements) if a.id in pl["achievements"]]
        lines.extend(flow("  Achievements: ", names or ["none yet"], width, ", ", indent=4))
    return lines


def other_lines(style: Style, v: dict[str, Any], p: int, cards: Cards,
                kinds: Sequence[str], width: int) -> list[str]:
    """One opponent's public side in a line or two: never the faces of hidden cards."""
    pl = v["players"][p]
    where = cards.shop(pl["position"]).name if pl["position"] else "-"
    kind = f" ({kinds[p]})" if kinds and kinds[p] != "human" else ""
    turn = "▶" if v["to_act"] == p or (v["current"] == p and v["turn"]) else " "
    items = [f"{pl['reputation']}Rep", f"{pl['coins']}$",
             _goods_line(style, pl["goods"], skip_zero=True),
             f"hand {pl['hand_count']}", f"fancy {pl['fancy_count']}"]
    if pl["scored"]:
        items.append(f"scored {len(pl['scored'])}")
    if pl.get("companion"):
        items.append(cards.c.companions[cards.c.companion_by_id[
            pl["companion"]]].name.split(",")[0])
    if pl["reserved"]:
        items.append(f"reserved {cards.ench(pl['reserved']).name}")
    items.append(f"@{where}")
    return flow(f"{turn}{style.bold(pl['name'])}{kind} ", items, width, " ", indent=4)


def others_lines(style: Style, v: dict[str, Any], sv: dict[str, Any],
                 cards: Cards, width: int = 80) -> list[str]:
    kinds = sv.get("seat_kinds", [])
    return [line for p in range(len(v["players"])) if p != v["observer"]
            for line in other_lines(style, v, p, cards, kinds, width)]


def players_detail(style: Style, v: dict[str, Any], sv: dict[str, Any],
                   cards: Cards) -> list[str]:
    """Every player's public side (and the seat's own hidden cards)."""
    kinds = sv.get("seat_kinds", [])
    lines = [style.bold("PLAYERS")]
    for p, pl in enumerate(v["players"]):
        kind = kinds[p] if kinds else ""
        you = " (you)" if p == v["observer"] and pl["name"].lower() != "you" else ""
        first = ", first player" if p == v.get("first_player") else ""
        where = f"at {cards.shop(pl['position']).name}" if pl["position"] else "not in Town yet"
        lines.append(f"{style.bold(pl['name'])}{you} [{kind}{first}] — {pl['reputation']} Rep, "
                     f"{_plural(pl['coins'], 'Coin')}, {where}")
        lines.append(f"   Goods: {_goods_line(style, pl['goods'])}")
        lines.append(f"   Hand: {_plural(pl['hand_count'], 'Artisan Dragon')}; unscored Fancy "
                     f"Dragons: {pl['fancy_count']}")
        if pl["reserved"]:
            lines.append(f"   Reserved: {enchantment_short(style, cards.ench(pl['reserved']))}")
        if pl["scored"]:
            lines.append("   Scored: " + ", ".join(cards.fancy(f).name for f in pl["scored"]))
    return lines


def hand_detail(style: Style, v: dict[str, Any], sv: dict[str, Any],
                cards: Cards) -> list[str]:
    """The seat's own cards in full: Artisan Dragons with their fire-ups, Fancy Dragons with
    their goals and what they pay now, the reserved Enchantment, Goods and Coins."""
    pl = v["players"][v["observer"]]
    lines = [style.bold("YOUR ARTISAN DRAGONS") + f" ({len(pl['hand'])}; limit 6 at turn end)"]
    for a in pl["hand"]:
        card = cards.artisan(a)
        lines.append(f"  {style.artisan(card)}: {FIRE_UP_TEXT[card.type]}")
    if not pl["hand"]:
        lines.append("  none")
    lines.append(style.bold("YOUR FANCY DRAGONS"))
    values = sv.get("fancy_values", {})
    for f in pl["fancy"]:
        fancy = cards.fancy(f)
        value = values.get(f, 0)
        mark = style.ok(f"goal met: {value} Rep now") if value > 0 else style.bad("not met")
        lines.append(f"  {fancy.name} ({'Sun' if fancy.sun else 'Moon'}, {mark}): "
                     f"{fancy.text}")
    if not pl["fancy"]:
        lines.append("  none")
    if pl["scored"]:
        lines.append("  scored: " + ", ".join(cards.fancy(f).name for f in pl["scored"]))
    reserved = (enchantment_long(style, cards.ench(pl["reserved"])) if pl["reserved"]
                else "none")
    lines.append(f"{style.bold('RESERVED ENCHANTMENT')} {reserved}")
    lines.append(f"{style.bold('SUPPLY')} {_goods_line(style, pl['goods'])} · "
                 f"{_plural(pl['coins'], 'Coin')} · {pl['reputation']} Reputation (limit 7 "
                 "of each Good at turn end)")
    return lines


def log_lines(style: Style, sv: dict[str, Any], count: int) -> list[str]:
    entries = sv.get("log", [])[-count:] if count > 0 else []
    return [style.dim(f"  t{turn:<3}") + (f" {who}: {said}" if who else f" {said}")
            for turn, who, said in entries]


def choice_lines(style: Style, v: dict[str, Any], sv: dict[str, Any], width: int,
                 room: int = 10_000) -> list[str]:
    """The question and its numbered choices (each with its facts, ``sv["choices"]``), in at
    most ``room`` lines: when they do not fit, the first ones and how to list them all."""
    names = [pl["name"] for pl in v["players"]]
    decision = sv.get("decision", "")
    lines = [style.bold(f"{names[v['observer']]}, choose {decision}:")]
    labels = sv.get("choices") or v.get("legal_actions", [])
    cells = [f"{style.bold(str(i))} {t}" for i, t in enumerate(labels, 1)]
    if cells and max(visible_len(c) for c in cells) > width - 2:  # one a line, wrapped
        listed = wrap(["  " + c for c in cells], width)
        per_line = 1
    else:
        listed = ["  " + line for line in columns(cells, width - 2, 3)]
        per_line = per_row(cells, width - 2, 3) if cells else 1
    if len(listed) > max(1, room - 1):
        keep = max(1, room - 2)
        listed = listed[:keep]
        more = len(cells) - (keep * per_line if per_line > 1 else sum(
            1 for line in listed if not line.startswith("    ")))
        if more > 0:
            listed.append(style.dim(f"  … {more} more: type 'choices' to list them all"))
    lines.extend(listed)
    return lines


def since_lines(style: Style, sv: dict[str, Any], width: int) -> list[str]:
    """What happened since the seat's own last turn, one short line per player's run."""
    entries = sv.get("since", [])
    if not entries:
        return []
    lines = [style.bold("SINCE YOUR LAST TURN")]
    runs: list[tuple[str, list[str]]] = []
    for who, said in entries:
        if runs and runs[-1][0] == who:
            runs[-1][1].append(said)
        else:
            runs.append((who, [said]))
    for who, said in runs:
        lines.extend(flow(f"  {who}: " if who else "  ", [f"{x};" for x in said[:-1]]
                          + said[-1:], width, indent=4))
    return wrap(lines, width)


HINT = "help · town · hand · row · players · card NAME · log · undo · save · quit"


def summary(style: Style, sv: dict[str, Any], catalog: Catalog, width: int = 80,
            height: int = 24) -> list[str]:
    """The main screen for the seat to act, in at most ``height - 1`` lines (the last row is
    the prompt's, so the top line never scrolls away): the header and its own Reputation and
    Goods always, then what happened since its last turn, the choices, and, as room allows,
    the parts of the board that matter most for the decision at hand (the Town whenever a
    Shop is to be visited)."""
    v = sv["view"]
    cards = Cards(catalog)
    texts = v.get("legal_actions", [])
    budget = height - 1
    head = header(style, v, width)
    me = me_lines(style, v, sv, cards, width)
    me_first = next((i for i, line in enumerate(me) if line.startswith("  Hand (")), len(me))
    offer: list[str] = []
    if v.get("companion_offer"):
        offer.append(style.bold("COMPANIONS ON OFFER"))
        for cid in v["companion_offer"]:
            card = cards.c.companions[cards.c.companion_by_id[cid]]
            offer.extend(wrap([f"  {style.bold(card.name)}: {card.text}"], width))
    town = town_compact(style, v, cards, width)
    visiting = any(t.startswith("visit ") for t in texts)
    fixed = len(head) + me_first + len(offer) + 1  # + the "(more: …)" line
    if visiting and fixed + len(town) + 4 <= budget:
        fixed += len(town)
    else:
        visiting = False
    choices = choice_lines(style, v, sv, width, budget - fixed)
    room = budget - fixed - len(choices)
    extra_me = me[me_first:]
    shown_me = me[:me_first]
    hidden: list[str] = []
    if len(extra_me) <= room:
        shown_me, room = me, room - len(extra_me)
    else:
        hidden.append("hand")
    hint = [style.dim(HINT)] if room >= 1 else []
    room -= len(hint)
    others = others_lines(style, v, sv, cards, width)
    since = since_lines(style, sv, width)
    most = max(3, room // 2)  # the rest of the room for the board
    if len(since) > most:  # the latest moves, under the heading
        since = [f"{since[0]} {style.dim('(earlier: log)')}", *since[len(since) - most + 1:]]
    logs = log_lines(style, sv, 4)
    log_section = since or wrap([style.bold("LAST ACTIONS"), *logs] if logs else [], width)
    park = park_lines(style, v, cards, width)
    row = row_compact(style, v, cards, width)
    enchanting = any(t.split(" ")[0] in ("cast", "reserve", "exchange", "pay", "enchant")
                     for t in texts)
    drawing = any(t.startswith("draw ") or t.startswith("send ") for t in texts)
    sections: list[tuple[str, list[str]]]
    if enchanting:
        sections = [("log", log_section), ("row", row_detail(style, v, cards)),
                    ("players", others), ("town", town), ("park", park)]
    elif drawing:
        sections = [("log", log_section), ("park", park), ("players", others),
                    ("town", town), ("row", row)]
    else:
        sections = [("log", log_section), ("players", others), ("town", town),
                    ("park", park), ("row", row)]
    chosen: set[str] = {"town"} if visiting else set()
    for name, lines in sections:
        if name not in chosen and lines and len(lines) <= room:
            chosen.add(name)
            room -= len(lines)
    order = ["town", "park", "row", "players", "log"]
    middle: list[str] = []
    for name in order:
        for section_name, lines in sections:
            if section_name == name and name in chosen:
                middle.extend(lines)
    hidden += [name for name, lines in sections if lines and name not in chosen]
    if hidden:
        middle.append(style.dim("(more: " + ", ".join(hidden) + ")"))
    return [*head, *shown_me, *offer, *middle, *choices, *hint]


def handover(style: Style, name: str) -> list[str]:
    return ["", style.head("FLAMECRAFT"), "",
            f"Pass the keyboard to {style.bold(name)}.",
            f"{name}, press Enter when the others cannot see the screen."]


def score_screen(style: Style, end: dict[str, Any], width: int = 80) -> list[str]:
    """The end of the game: Reputation by source per player, each Moon Dragon, the winner(s)
    and how a tie was broken, wrapped at spaces to ``width``. ``end`` is built by
    ``tui.end_summary``."""
    return wrap(_score_lines(style, end), width)


def _score_lines(style: Style, end: dict[str, Any]) -> list[str]:
    players = end["players"]
    wide = max(6, *(len(p["name"]) for p in players))
    lines = [style.head("GAME OVER") + f" after {end['turns']} turns", "",
             style.bold("REPUTATION BY SOURCE")]
    keys = [key for key in players[0]["sources"]
            if key in ALWAYS_SHOWN or any(p["sources"][key] for p in players)]
    head = f"  {'player':<{wide}} " + " ".join(
        f"{SOURCE_LABELS.get(key, key[:7]):>7}" for key in keys)
    lines.append(head + "   total")
    for p in players:
        row = " ".join(f"{p['sources'][key]:>7}" for key in keys)
        lines.append(f"  {p['name']:<{wide}} {row}   {style.bold(str(p['reputation'])):>5}")
    lines.append(style.dim("  (coins: 1 Reputation per Coin left at the end)"))
    lines.append("")
    lines.append(style.bold("MOON DRAGONS"))
    for p in players:
        moons = [f"{name} {rep} Rep" if rep > 0 else
                 f"{name} (scored during the game)" if rep < 0 else f"{name} not met"
                 for name, rep in p["moons"]]
        lines.append(f"  {p['name']}: " + ("; ".join(moons) if moons else "none"))
    if any("companion" in p for p in players):
        lines.append("")
        lines.append(style.bold("COMPANIONS"))
        for p in players:
            lines.append(f"  {p['name']}: {p.get('companion', 'none')}")
    if "achievements" in end:
        lines.append("")
        lines.append(style.bold("ACHIEVEMENTS"))
        claimed = [f"{name} {rep} Rep" for name, rep in end["achievements"]]
        lines.append("  " + ("; ".join(claimed) if claimed else "none"))
        lines.append(f"  Rating: {end['rating']}")
    lines.append("")
    lines.append(style.bold("TIE-BREAK KEYS") + "  (Reputation, then Artisan Dragons in hand, "
                 "then Goods)")
    for p in players:
        lines.append(f"  {p['name']:<{wide}}  {p['reputation']:>3} Rep  {p['hand']:>2} in hand"
                     f"  {p['goods']:>2} Goods")
    lines.append("")
    lines.append(style.head(end["winner_line"]))
    if end["tie_line"]:
        lines.append(end["tie_line"])
    return lines
