"""The screens of ``flamecraft play``, drawn from one seat's screen view (a dict), never the state.

A screen view is ``view.view(s, seat)`` plus a few facts that seat may know (its own Fancy
Dragons' values now, the log as that seat may read it, the pending decision's public name), put
together by ``local_table.py``. Everything here reads only that dict and the card catalog, so
a hidden card of another seat cannot reach the screen. Colour is ANSI and optional; every Good
also has a letter icon ([Br] [Me] [Ir] [Po] [Cr] [Pl], ★ for rainbow), so nothing depends on
colour.

Every word is in the player's language: ``Style`` carries it, ``style.tr`` translates this
module's texts (the ``terminal`` catalogue) and ``style.game`` the game's own words (Goods, card
texts; the ``game`` catalogue). Widths are display widths (``display/wrap.py``): a Japanese
screen fits 80×24 as an English one does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..core.cards import (
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
from ..core.describe import good_icon
from ..core.goods import GOOD_KEYS, GOOD_NAMES
from ..core.tr import N_
from ..display.i18n import translator
from ..display.localized import CardTexts
from ..display.wrap import (
    columns,
    flow,
    pad,
    pad_left,
    per_row,
    strip_ansi,
    truncate,
    visible_len,
    wrap,
    wrap_line,
)

__all__ = ["strip_ansi", "visible_len", "wrap"]  # what the tests and the game loop use from here

# ANSI foreground colours: Bread yellow, Meat red, Iron blue (white vanishes on a light
# background), Potion magenta, Crystal cyan, Plant green.
GOOD_COLORS = ("33", "31", "34", "35", "36", "32")
RAINBOW = "★"
# Short column labels of the Reputation sources (state.SOURCE_NAMES); a source without a label
# here is shown under the first 7 letters of its name.
SOURCE_LABELS = {"slots": N_("slots"), "enchantments": N_("enchant"), "sun_dragons": N_("sun"),
                 "moon_dragons": N_("moon"), "gifts": N_("gifts"), "abilities": N_("ability"),
                 "coins": N_("coins"), "companions": N_("compan"),
                 "achievements": N_("achieve")}
ALWAYS_SHOWN = ("slots", "enchantments", "sun_dragons", "moon_dragons", "gifts", "abilities",
                "coins")

HELP = N_("""\
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
  log [N]       the last N turns, one line each with what they earned
  log all [N]   the last N steps, each with its results (default 30)
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
  +1$ a coin Shop  $ Coin  Rep Reputation  -- an empty slot  ✦ Enchantments""")


class Style:
    """ANSI colours when ``color`` is on; the same text without them when it is off. Also
    the player's language ``lang``: ``tr`` translates the terminal's texts, ``game`` the
    game's words, ``cards`` gives card texts in that language."""

    def __init__(self, color: bool, lang: str = "en"):
        self.color = color
        self.lang = lang
        self.tr = translator(lang, "terminal").gettext
        self.game = translator(lang, "game").gettext
        self.cards = CardTexts(lang)
        self.icons = tuple(good_icon(g, self.game) for g in range(len(GOOD_NAMES)))

    def count(self, n: int, one: str, many: str) -> str:
        """``one`` or ``many`` (already translated, with ``{n}``) for ``n`` things."""
        return (one if n == 1 else many).format(n=n)

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
        return self.paint(GOOD_COLORS[g], self.icons[g])

    def good_abbr(self, g: int) -> str:
        """The icon of Good ``g`` without brackets (two columns), coloured by type."""
        return self.paint(GOOD_COLORS[g], self.icons[g][1:-1])

    def good_name(self, g: int) -> str:
        return self.game(GOOD_NAMES[g])

    def shop_icon(self, card: ShopCard) -> str:
        if card.icon == ICON_RAINBOW:
            return self.paint("1;35", RAINBOW)
        if card.icon == ICON_DRAGON:
            return (self.tr("+{n}Dr").format(n=card.icon_amount) if card.icon_amount > 1
                    else self.tr("+Dr"))
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


def coins(style: Style, n: int) -> str:
    tr = style.tr
    return style.count(n, tr("{n} Coin"), tr("{n} Coins"))


def reward_short(style: Style, reward: Any) -> str:
    """A reward in a few characters: ``2Rep +1$ +Dragon +Fancy +★``."""
    tr = style.tr
    parts = []
    if reward.rep:
        parts.append(tr("{n}Rep").format(n=reward.rep))
    if reward.coins:
        parts.append(f"{reward.coins}$")
    if reward.artisan:
        parts.append(style.count(reward.artisan, tr("Dragon"), tr("{n} Dragons")))
    if reward.fancy:
        parts.append(style.count(reward.fancy, tr("Fancy"), tr("{n} Fancy")))
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
    tr = style.tr
    if card.variable:
        table = "/".join(str(r) for r in card.rep_by_sets)
        text = (f"{card.name}{style.good(card.icon)} ({cost_short(style, card)})×1–"
                f"{card.max_sets} → " + tr("{n}Rep").format(n=table))
        if not card.reward.is_empty():
            text += "+" + reward_short(style, card.reward)
        if card.no_coins:
            text += " " + tr("no $")
        return text
    return (f"{card.name}{style.good(card.icon)} {cost_short(style, card)} → "
            f"{reward_short(style, card.reward)}")


def enchantment_long(style: Style, card: EnchantmentCard) -> str:
    tr = style.tr
    where = tr("cast on {good} Shops (or a {rainbow} Shop)").format(
        good=style.good_name(card.icon), rainbow=RAINBOW)
    cost = tr(" + ").join(
        [tr("{n} {good}").format(n=n, good=style.good_name(g))
         for g, n in enumerate(card.cost) if n]
        + ([coins(style, card.printed_coins)] if card.printed_coins else []))
    reward = style.cards.reward(card.reward)
    if card.variable:
        table = tr(", ").join((tr("{n} set: {rep}") if k == 1 else tr("{n} sets: {rep}"))
                              .format(n=k, rep=r) for k, r in enumerate(card.rep_by_sets, 1))
        text = tr("{name} {icon} — {where}. Cost per set: {cost}; 1–{sets} sets. Reputation "
                  "by sets: {table}.").format(name=card.name, icon=style.good(card.icon),
                                              where=where, cost=cost, sets=card.max_sets,
                                              table=table)
        if not card.reward.is_empty():
            text += tr(" Also: {reward}.").format(reward=reward)
    else:
        text = tr("{name} {icon} — {where}. Cost: {cost}. Reward: {reward}.").format(
            name=card.name, icon=style.good(card.icon), where=where, cost=cost, reward=reward)
    if card.no_coins:
        text += tr(" Coins may not stand in for Goods.")
    else:
        text += tr(" Coins may stand in for missing Goods, 1 for 1.")
    return text


def slot_text(style: Style, card: ShopCard, k: int) -> str:
    tr = style.tr
    slot = card.slots[k]
    accepts = (tr("any {rainbow}").format(rainbow=RAINBOW) if slot.accepts[0] == ANY_SLOT
               else "/".join(style.good(g) for g in slot.accepts))
    reward = tr("no reward") if slot.reward.is_empty() else reward_short(style, slot.reward)
    return tr("takes {accepts} → {reward}").format(accepts=accepts, reward=reward)


def shop_long(style: Style, card: ShopCard) -> list[str]:
    """A Shop's full text: icon, slots (what each takes and gives), ability."""
    tr = style.tr
    if card.icon < len(GOOD_NAMES):
        icon = f"{style.good_name(card.icon)} {style.good(card.icon)}"
    elif card.icon == ICON_RAINBOW:
        icon = tr("rainbow {rainbow} (gather: 1 Good of your choice; any Enchantment may be "
                  "cast)").format(rainbow=RAINBOW)
    elif card.icon == ICON_DRAGON:
        icon = tr("dragon (gather: draw {dragons})").format(dragons=style.count(
            card.icon_amount, tr("{n} Artisan Dragon"), tr("{n} Artisan Dragons")))
    else:
        icon = tr("coin (gather: {coins}; no Enchantments)").format(
            coins=coins(style, card.icon_amount))
    lines = [tr("{name} — Shop, icon: {icon}").format(name=card.name, icon=icon)]
    for k in range(3):
        lines.append(tr("  slot {k}: {text}").format(k=k + 1, text=slot_text(style, card, k)))
    if card.ability_name:
        lines.append(tr("  ability {name}: {text}").format(
            name=card.ability_name, text=style.cards.ability(card)))
    elif card.starter:
        lines.append(tr("  (a starting Shop: no ability)"))
    return lines


def fancy_long(style: Style, card: FancyCard) -> str:
    tr = style.tr
    kind = (tr("Sun Dragon (reveal on your turn when its goal is met)") if card.sun
            else tr("Moon Dragon (scored at the end of the game)"))
    return f"{card.name} — {kind}: {style.cards.fancy(card)}"


def artisan_long(style: Style, card: ArtisanCard) -> str:
    return style.tr("{name} {icon} — {good} Artisan Dragon. Fire up: {text}").format(
        name=card.name, icon=style.good(card.type), good=style.good_name(card.type),
        text=style.cards.fire_up(card.type))


def card_text(style: Style, card: object) -> list[str]:
    """The full text of any card, for ``card NAME``."""
    tr = style.tr
    if isinstance(card, ShopCard):
        return shop_long(style, card)
    if isinstance(card, ArtisanCard):
        return [artisan_long(style, card)]
    if isinstance(card, EnchantmentCard):
        return [enchantment_long(style, card)]
    if isinstance(card, FancyCard):
        return [fancy_long(style, card)]
    if isinstance(card, CompanionCard):
        limits = []
        if card.uses_per_game:
            limits.append(tr("{n} per game").format(n=card.uses_per_game))
        if card.per_turn:
            limits.append(tr("{n} per turn").format(n=card.per_turn))
        return [tr("{name} (Companion, {level}{limits}): {text}").format(
            name=style.bold(card.name), level=style.game(card.provenance.level),
            limits=tr("; {limits}").format(limits=tr(", ").join(limits)) if limits else "",
            text=style.cards.companion(card))]
    if isinstance(card, Achievement):
        return [tr("{name} (solo achievement, {rep} Reputation): {text}").format(
            name=style.bold(card.name), rep=card.rep, text=style.cards.achievement(card))]
    raise TypeError(f"not a card: {card!r}")


def tokens(v: dict[str, Any]) -> list[str]:
    """Each player's token on the Town map: the first letter of the name, or the seat number
    when two names share a first letter (or a name starts with a wide character, which
    would take two columns)."""
    initials = [pl["name"][:1].upper() for pl in v["players"]]
    return [i if initials.count(i) == 1 and not i.isdigit() and visible_len(i) == 1
            else str(p + 1) for p, i in enumerate(initials)]


# ---------------------------------------------------------------- sections


def _goods_line(style: Style, goods: dict[str, int], skip_zero: bool = False) -> str:
    parts = [f"{style.good(g)}{goods[k]}" for g, k in enumerate(GOOD_KEYS)
             if goods[k] or not skip_zero]
    return " ".join(parts) if parts else style.tr("no Goods")


def header(style: Style, v: dict[str, Any], width: int = 80) -> list[str]:
    """The turn, whose turn it is, whether the last round is on, and the hidden piles."""
    tr = style.tr
    names = [pl["name"] for pl in v["players"]]
    d = v["decks"]
    if v["over"]:
        return [style.head(style.tr("FLAMECRAFT"))
                + tr(" — game over after turn {turn}").format(turn=v["turn"])]
    items = [tr("turn {turn}").format(turn=v["turn"]) if v["turn"] else tr("setup"),
             tr("playing: {name}").format(name=names[v["current"]]) if v["turn"]
             else tr("everyone chooses")]
    if v["end_triggered"]:
        items.append(style.bad(tr("LAST ROUND")))
    items.append(tr("decks: Artisan {artisan} Fancy {fancy} Ench {enchantment} Shop {shop}")
                 .format(**d))
    return flow(style.head(style.tr("FLAMECRAFT")) + " ", items, width, " · ")


def town_cells(style: Style, v: dict[str, Any], cards: Cards, width: int) -> list[str]:
    """One short cell per Shop: number, name, icon, slots, Enchantments, tokens."""
    marks = tokens(v)
    longest = max([visible_len(cards.shop(e["id"]).name) for e in v["town"]
                   if e is not None and not e.get("face_down")] + [16])
    name_w = min(longest, max(10, width - 25))
    cells = []
    for space, entry in enumerate(v["town"], 1):
        if entry is None:
            continue
        if entry.get("face_down"):
            face_down = style.tr("(face-down Shop)")
            cells.append(f"{space:>2} {pad(face_down, name_w)}")
            continue
        card = cards.shop(entry["id"])
        slots = " ".join(style.good_abbr(cards.artisan(d).type) if d else "--"
                         for d in entry["slots"])
        ench = f"✦{len(entry['enchantments'])}" if entry["enchantments"] else "  "
        here = "".join(marks[p] for p in entry["visitors"])
        cells.append(f"{space:>2} {pad(truncate(card.name, name_w), name_w)} "
                     f"{pad(style.shop_icon(card), 4)} {slots} {ench} {style.bold(here)}"
                     .rstrip())
    return cells


def town_compact(style: Style, v: dict[str, Any], cards: Cards, width: int) -> list[str]:
    cell_width = (width - 2) // 2 if width >= 76 else width
    cells = town_cells(style, v, cards, cell_width)
    marks = tokens(v)
    legend = [f"{marks[p]}={pl['name']}" for p, pl in enumerate(v["players"])]
    lines = flow(style.bold(style.tr("TOWN")) + "  ",
                 [style.dim(style.tr("(-- empty slot, ✦ Enchantments)")), *legend], width, " ")
    per_line = 2 if cell_width < width else 1
    cell_width = min(cell_width, max((visible_len(c) for c in cells), default=0))
    for i in range(0, len(cells), per_line):
        lines.append("  ".join(pad(c, cell_width) for c in cells[i:i + per_line]).rstrip())
    return lines


def town_detail(style: Style, v: dict[str, Any], cards: Cards) -> list[str]:
    """Every Shop in full: icon, each slot's dragon or what it takes and gives,
    Enchantments, ability, and whose tokens stand there."""
    tr = style.tr
    names = [pl["name"] for pl in v["players"]]
    lines = [style.bold(tr("TOWN"))]
    for space, entry in enumerate(v["town"], 1):
        if entry is None:
            continue
        if entry.get("face_down"):
            lines.append(f"{space:>2} " + tr("a face-down Shop (drawn this turn, flipped at "
                                             "its end)"))
            continue
        card = cards.shop(entry["id"])
        head = f"{space:>2} {style.bold(card.name)} {style.shop_icon(card)}"
        if entry["visitors"]:
            head += tr("  here: {names}").format(
                names=tr(", ").join(names[p] for p in entry["visitors"]))
        lines.append(head)
        for k, dragon in enumerate(entry["slots"]):
            if dragon:
                what = style.artisan(cards.artisan(dragon))
            else:
                what = f"-- {slot_text(style, card, k)}"
            lines.append("     " + tr("slot {k}: {what}").format(k=k + 1, what=what))
        if entry["enchantments"]:
            lines.append("     " + tr("Enchantments: {names}").format(names=tr(", ").join(
                f"{cards.ench(e).name}{style.good(cards.ench(e).icon)}"
                for e in entry["enchantments"])))
        if card.ability_name:
            lines.append(f"     {card.ability_name}: {style.cards.ability(card)}")
    return lines


def park_lines(style: Style, v: dict[str, Any], cards: Cards, width: int) -> list[str]:
    park = [style.artisan(cards.artisan(a)) for a in v["park"]] or [style.tr("empty")]
    return flow(style.bold(style.tr("PARK")) + " ", park, width)


def row_compact(style: Style, v: dict[str, Any], cards: Cards, width: int) -> list[str]:
    names = [f"{cards.ench(e).name}{style.good(cards.ench(e).icon)}"
             for e in v["enchantment_row"]] or [style.tr("empty")]
    return flow(style.bold(style.tr("ROW")) + " ", names, width, " · ")


def row_detail(style: Style, v: dict[str, Any], cards: Cards) -> list[str]:
    tr = style.tr
    lines = [style.bold(tr("ENCHANTMENT ROW"))
             + style.dim(tr("  (name[Shop icon] cost → reward)"))]
    lines.extend(f"  {enchantment_short(style, cards.ench(e))}" for e in v["enchantment_row"])
    if not v["enchantment_row"]:
        lines.append("  " + tr("empty"))
    return lines


def _is_you(style: Style, name: str) -> bool:
    """Whether a seat's name already says "you" (the default name of a lone person)."""
    return name.lower() == "you" or name == style.tr("You")


def me_lines(style: Style, v: dict[str, Any], sv: dict[str, Any], cards: Cards,
             width: int = 80) -> list[str]:
    """The seat's own side: Reputation, Coins, Goods, place, hand, Fancy Dragons, reserved
    (the hand and what follows it start at the line ``hand_line_index`` finds)."""
    tr = style.tr
    me = v["observer"]
    pl = v["players"][me]
    where = (tr("at {shop}").format(shop=cards.shop(pl["position"]).name) if pl["position"]
             else tr("not in Town yet"))
    you = "" if _is_you(style, pl["name"]) else tr(" (you)")
    lines = flow(f"{style.bold(pl['name'])}{you}: ",
                 [tr("{n} Rep").format(n=style.bold(str(pl["reputation"]))), f"{pl['coins']}$",
                  _goods_line(style, pl["goods"]), where], width, " · ")
    hand = [style.artisan(cards.artisan(a)) for a in pl.get("hand", [])] or [tr("empty")]
    if pl["reserved"]:
        hand.append(tr("· Reserved: {card}").format(
            card=enchantment_short(style, cards.ench(pl["reserved"]))))
    lines.extend(flow(tr("  Hand ({n}): ").format(n=len(pl.get("hand", []))), hand, width,
                      indent=4))
    values, goals = sv.get("fancy_values", {}), sv.get("fancy_goals", {})
    fancy = []
    for f in pl.get("fancy", []):
        card = cards.fancy(f)
        goal = goals.get(f, "")  # its goal, progress and reward (describe.fancy_facts)
        fancy.append(style.ok(f"{card.name} {goal}") if values.get(f, 0) > 0
                     else f"{card.name} {goal}")
    lines.extend(part for line in flow(tr("  Fancy: "), fancy or [tr("none")], width, " · ",
                                       indent=4)
                 for part in wrap_line(line, width, 6))  # a long goal wraps, never overflows
    if pl["scored"]:
        lines.extend(flow(tr("  Scored: "), [cards.fancy(f).name for f in pl["scored"]], width,
                          tr(", "), indent=4))
    if pl.get("companion"):
        companion = cards.c.companions[cards.c.companion_by_id[pl["companion"]]]
        lines.extend(flow(tr("  Companion: "), [tr("{name} (used {n})").format(
            name=companion.name, n=pl["companion_uses"])], width, indent=4))
    if "achievements" in pl:
        names = [cards.c.achievements[i].name for i, a in enumerate(
            cards.c.achievements) if a.id in pl["achievements"]]
        lines.extend(flow(tr("  Achievements: "), names or [tr("none yet")], width, tr(", "),
                          indent=4))
    return lines


def hand_line_index(style: Style, me: Sequence[str]) -> int:
    """Where the hand starts in ``me_lines`` (the lines before it always show)."""
    start = style.tr("  Hand ({n}): ").split("{n}")[0]
    return next((i for i, line in enumerate(me) if line.startswith(start)), len(me))


def fancy_line_index(style: Style, me: Sequence[str], start: int) -> int:
    """Where the hand ends in ``me_lines``: the Fancy Dragons' line, after ``start``."""
    fancy = style.tr("  Fancy: ")
    return next((i for i in range(start, len(me)) if me[i].startswith(fancy)), len(me))


def other_lines(style: Style, v: dict[str, Any], p: int, cards: Cards,
                kinds: Sequence[str], width: int) -> list[str]:
    """One opponent's public side in a line or two: never the faces of hidden cards."""
    tr = style.tr
    pl = v["players"][p]
    where = cards.shop(pl["position"]).name if pl["position"] else "-"
    kind = f" ({kinds[p]})" if kinds and kinds[p] != tr("human") else ""
    turn = "▶" if v["to_act"] == p or (v["current"] == p and v["turn"]) else " "
    items = [tr("{n}Rep").format(n=pl["reputation"]), f"{pl['coins']}$",
             _goods_line(style, pl["goods"], skip_zero=True),
             tr("hand {n}").format(n=pl["hand_count"]),
             tr("fancy {n}").format(n=pl["fancy_count"])]
    if pl["scored"]:
        items.append(tr("scored {n}").format(n=len(pl["scored"])))
    if pl.get("companion"):
        items.append(cards.c.companions[cards.c.companion_by_id[
            pl["companion"]]].name.split(",")[0])
    if pl["reserved"]:
        items.append(tr("reserved {name}").format(name=cards.ench(pl["reserved"]).name))
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
    tr = style.tr
    kinds = sv.get("seat_kinds", [])
    lines = [style.bold(tr("PLAYERS"))]
    for p, pl in enumerate(v["players"]):
        kind = kinds[p] if kinds else ""
        you = tr(" (you)") if p == v["observer"] and not _is_you(style, pl["name"]) else ""
        first = tr(", first player") if p == v.get("first_player") else ""
        where = (tr("at {shop}").format(shop=cards.shop(pl["position"]).name)
                 if pl["position"] else tr("not in Town yet"))
        lines.append(tr("{name}{you} [{kind}{first}] — {rep} Rep, {coins}, {where}").format(
            name=style.bold(pl["name"]), you=you, kind=kind, first=first, rep=pl["reputation"],
            coins=coins(style, pl["coins"]), where=where))
        lines.append(tr("   Goods: {goods}").format(goods=_goods_line(style, pl["goods"])))
        lines.append(tr("   Hand: {dragons}; unscored Fancy Dragons: {n}").format(
            dragons=style.count(pl["hand_count"], tr("{n} Artisan Dragon"),
                                tr("{n} Artisan Dragons")), n=pl["fancy_count"]))
        if pl["reserved"]:
            lines.append(tr("   Reserved: {card}").format(
                card=enchantment_short(style, cards.ench(pl["reserved"]))))
        if pl["scored"]:
            lines.append(tr("   Scored: {names}").format(
                names=tr(", ").join(cards.fancy(f).name for f in pl["scored"])))
    return lines


def hand_detail(style: Style, v: dict[str, Any], sv: dict[str, Any],
                cards: Cards) -> list[str]:
    """The seat's own cards in full: Artisan Dragons with their fire-ups, Fancy Dragons with
    their goals and what they pay now, the reserved Enchantment, Goods and Coins."""
    tr = style.tr
    pl = v["players"][v["observer"]]
    lines = [style.bold(tr("YOUR ARTISAN DRAGONS"))
             + tr(" ({n}; limit 6 at turn end)").format(n=len(pl["hand"]))]
    for a in pl["hand"]:
        card = cards.artisan(a)
        lines.append(f"  {style.artisan(card)}: {style.cards.fire_up(card.type)}")
    if not pl["hand"]:
        lines.append("  " + tr("none"))
    lines.append(style.bold(tr("YOUR FANCY DRAGONS")))
    values, goals = sv.get("fancy_values", {}), sv.get("fancy_goals", {})
    for f in pl["fancy"]:
        fancy = cards.fancy(f)
        head = f"  {fancy.name} {goals.get(f, '')}"  # its goal, progress and reward
        lines.append(style.ok(head) if values.get(f, 0) > 0 else head)
        lines.append(f"    {style.cards.fancy(fancy)}")
    if not pl["fancy"]:
        lines.append("  " + tr("none"))
    if pl["scored"]:
        lines.append(tr("  scored: {names}").format(
            names=tr(", ").join(cards.fancy(f).name for f in pl["scored"])))
    reserved = (enchantment_long(style, cards.ench(pl["reserved"])) if pl["reserved"]
                else tr("none"))
    lines.append(style.bold(tr("RESERVED ENCHANTMENT")) + f" {reserved}")
    lines.append(tr("{supply} {goods} · {coins} · {rep} Reputation (limit 7 of each Good at "
                    "turn end)").format(supply=style.bold(tr("SUPPLY")),
                                        goods=_goods_line(style, pl["goods"]),
                                        coins=coins(style, pl["coins"]), rep=pl["reputation"]))
    return lines


def log_lines(style: Style, sv: dict[str, Any], count: int) -> list[str]:
    entries = sv.get("log", [])[-count:] if count > 0 else []
    turn_mark = style.tr("t{turn}")
    return [style.dim("  " + pad(turn_mark.format(turn=turn), 4))
            + (f" {who}: {said}" if who else f" {said}")
            for turn, who, said in entries]


def choice_lines(style: Style, v: dict[str, Any], sv: dict[str, Any], width: int,
                 room: int = 10_000) -> list[str]:
    """The question and its numbered choices (each with its facts, ``sv["choices"]``), in at
    most ``room`` lines: when they do not fit, the first ones and how to list them all."""
    tr = style.tr
    names = [pl["name"] for pl in v["players"]]
    decision = sv.get("decision", "")
    lines = wrap([style.bold(tr("{name}, choose {decision}:").format(
        name=names[v["observer"]], decision=decision))], width)
    labels = sv.get("choices") or v.get("legal_actions", [])
    numbers = sv.get("choice_numbers") or range(1, len(labels) + 1)  # stable (local_table)
    cells = [f"{style.bold(str(i))} {t}" for i, t in zip(numbers, labels, strict=False)]
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
            listed.append(style.dim(tr("  … {n} more: type 'choices' to list them all")
                                    .format(n=more)))
    lines.extend(listed)
    return lines


def turn_lines(style: Style, sv: dict[str, Any], width: int, rows: int = 1) -> list[str]:
    """Every other seat's latest turn (``core/summary.py``), one line each (``rows`` lines
    each when there is room), its name first: what it did and what it earned."""
    tr = style.tr
    lines = []
    for name, last, said in sv.get("turns", []):
        who = tr("{name} (last turn)").format(name=name) if last else name
        head = f"{style.bold(who)} — "
        room = width - visible_len(head)
        if rows > 1:
            flowed = wrap([strip_ansi(head) + said], width)
            if len(flowed) <= rows:
                lines.append(head + flowed[0][visible_len(head):])
                lines.extend(flowed[1:])
                continue
        lines.append(head + truncate(said, max(1, room)))
    return lines


def summary_log_lines(style: Style, sv: dict[str, Any], count: int) -> list[str]:
    """The ``log`` command: the last ``count`` seat-turns in one line each, with results."""
    entries = sv.get("summaries", [])[-count:] if count > 0 else []
    turn_mark = style.tr("t{turn}")
    return [style.dim("  " + pad(turn_mark.format(turn=turn), 4))
            + f" {style.bold(who)} — {said}" for turn, who, said in entries]


HINT = N_("help · town · hand · row · players · card NAME · log · undo · save · quit")


# The sections of the summary screen, by the command that shows each in full.
SECTION_NAMES = {"log": N_("log"), "row": N_("row"), "players": N_("players"),
                 "town": N_("town"), "park": N_("park")}


def summary(style: Style, sv: dict[str, Any], catalog: Catalog, width: int = 80,
            height: int = 24) -> list[str]:
    """The main screen for the seat to act, in at most ``height - 1`` lines (the last row is
    the prompt's, so the top line never scrolls away). Always: the header, its own
    Reputation, Goods and hand, every other seat's last turn in a line, and the choices; the
    Town when a Shop is to be visited and the Enchantment row (costs) when enchanting,
    whenever they fit beside a few choices; then, as room allows, the rest of its side, the
    other players, and the parts of the board that matter most for the decision at hand."""
    v = sv["view"]
    cards = Cards(catalog)
    texts = v.get("legal_actions", [])
    budget = height - 1
    head = header(style, v, width)
    me = me_lines(style, v, sv, cards, width)
    me_first = hand_line_index(style, me)
    fancy_at = fancy_line_index(style, me, me_first)
    offer: list[str] = []
    if v.get("companion_offer"):
        offer.append(style.bold(style.tr("COMPANIONS ON OFFER")))
        for cid in v["companion_offer"]:
            card = cards.c.companions[cards.c.companion_by_id[cid]]
            offer.extend(wrap([f"  {style.bold(card.name)}: {style.cards.companion(card)}"],
                              width))
    town = town_compact(style, v, cards, width)
    visiting = any(t.startswith("visit ") for t in texts)
    enchanting = any(t.split(" ")[0] in ("cast", "reserve", "exchange", "pay", "enchant")
                     for t in texts)
    row_full = row_detail(style, v, cards)
    last = turn_lines(style, sv, width)  # every other seat's last turn
    few = min(4, 1 + len(texts))  # the question and a few choices, at least
    fixed = len(head) + fancy_at + len(offer) + 1  # + the "(more: …)" line
    while last and fixed + len(last) + few > budget:  # a long draft offer, on a short screen
        last.pop()
    fixed += len(last)
    if last and fixed + 2 * len(last) + few + 4 <= budget:  # room: two lines each
        wide = turn_lines(style, sv, width, 2)
        fixed += len(wide) - len(last)
        last = wide
    if visiting and fixed + len(town) + few <= budget:
        fixed += len(town)
    else:
        visiting = False
    if enchanting and fixed + len(row_full) + few <= budget:
        fixed += len(row_full)
    else:
        enchanting = False
    choices = choice_lines(style, v, sv, width, budget - fixed)
    room = budget - fixed - len(choices)
    extra_me = me[fancy_at:]
    shown_me = me[:fancy_at]
    hidden: list[str] = []
    if len(extra_me) <= room:
        shown_me, room = me, room - len(extra_me)
    else:
        hidden.append(style.tr("hand"))
    hint = [style.dim(truncate(style.tr(HINT), width))] if room >= 1 else []
    room -= len(hint)
    others = others_lines(style, v, sv, cards, width)
    logs = log_lines(style, sv, 4) if not last else []
    log_section = wrap([style.bold(style.tr("LAST ACTIONS")), *logs] if logs else [], width)
    park = park_lines(style, v, cards, width)
    row = row_compact(style, v, cards, width)
    drawing = any(t.startswith("draw ") or t.startswith("send ") for t in texts)
    sections: list[tuple[str, list[str]]]
    if enchanting:
        sections = [("log", log_section), ("row", row_full), ("players", others),
                    ("town", town), ("park", park)]
    elif drawing:
        sections = [("log", log_section), ("park", park), ("players", others),
                    ("town", town), ("row", row)]
    else:
        sections = [("log", log_section), ("players", others), ("town", town),
                    ("park", park), ("row", row)]
    chosen: set[str] = set()
    if visiting:
        chosen.add("town")
    if enchanting:
        chosen.add("row")
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
    hidden += [style.tr(SECTION_NAMES[name]) for name, lines in sections
               if lines and name not in chosen]
    if hidden:
        middle.append(style.dim(style.tr("(more: {names})").format(
            names=style.tr(", ").join(hidden))))
    return [*head, *shown_me, *offer, *last, *middle, *choices, *hint]


def handover(style: Style, name: str) -> list[str]:
    tr = style.tr
    return ["", style.head(style.tr("FLAMECRAFT")), "",
            tr("Pass the keyboard to {name}.").format(name=style.bold(name)),
            tr("{name}, press Enter when the others cannot see the screen.").format(name=name)]


def score_screen(style: Style, end: dict[str, Any], width: int = 80) -> list[str]:
    """The end of the game: Reputation by source per player, each Moon Dragon, the winner(s)
    and how a tie was broken, wrapped at spaces to ``width``. ``end`` is built by
    ``tui.end_summary``."""
    return wrap(_score_lines(style, end, width), width)


def _score_lines(style: Style, end: dict[str, Any], width: int = 80) -> list[str]:
    tr = style.tr
    players = end["players"]
    player = tr("player")
    keys = [key for key in players[0]["sources"]
            if key in ALWAYS_SHOWN or any(p["sources"][key] for p in players)]
    # The name column as wide as the longest name, but never so wide that a row of the
    # table would wrap (a long name is cut short there: it is whole in the lines below).
    room = width - (2 + 1 + 8 * len(keys) - 1 + 8)
    wide = max(6, visible_len(player), *(visible_len(p["name"]) for p in players))
    wide = max(4, min(wide, room))
    lines = [style.head(tr("GAME OVER")) + tr(" after {n} turns").format(n=end["turns"]), "",
             style.bold(tr("REPUTATION BY SOURCE"))]
    head = f"  {pad(truncate(player, wide), wide)} " + " ".join(
        pad_left(tr(SOURCE_LABELS[key]) if key in SOURCE_LABELS else key[:7], 7)
        for key in keys)
    lines.append(head + "  " + pad_left(tr("total"), 6))
    for p in players:
        row = " ".join(f"{p['sources'][key]:>7}" for key in keys)
        lines.append(f"  {pad(truncate(p['name'], wide), wide)} {row}   "
                     f"{pad_left(style.bold(str(p['reputation'])), 5)}")
    lines.append(style.dim(tr("  (coins: 1 Reputation per Coin left at the end)")))
    lines.append("")
    lines.append(style.bold(tr("MOON DRAGONS")))
    for p in players:
        moons = [tr("{name} {n} Rep").format(name=name, n=rep) if rep > 0 else
                 tr("{name} (scored during the game)").format(name=name) if rep < 0
                 else tr("{name} not met").format(name=name)
                 for name, rep in p["moons"]]
        lines.append(f"  {p['name']}: " + (tr("; ").join(moons) if moons else tr("none")))
    if any("companion" in p for p in players):
        lines.append("")
        lines.append(style.bold(tr("COMPANIONS")))
        for p in players:
            lines.append(f"  {p['name']}: " + p.get("companion", tr("none")))
    if "achievements" in end:
        lines.append("")
        lines.append(style.bold(tr("ACHIEVEMENTS")))
        claimed = [tr("{name} {n} Rep").format(name=name, n=rep)
                   for name, rep in end["achievements"]]
        lines.append("  " + (tr("; ").join(claimed) if claimed else tr("none")))
        lines.append(tr("  Rating: {rating}").format(rating=end["rating"]))
    lines.append("")
    lines.append(style.bold(tr("TIE-BREAK KEYS"))
                 + tr("  (Reputation, then Artisan Dragons in hand, then Goods)"))
    for p in players:
        lines.append(f"  {pad(p['name'], wide)}  "
                     + tr("{rep} Rep  {hand} in hand  {goods} Goods").format(
                         rep=f"{p['reputation']:>3}", hand=f"{p['hand']:>2}",
                         goods=f"{p['goods']:>2}"))
    lines.append("")
    lines.append(style.head(end["winner_line"]))
    if end["tie_line"]:
        lines.append(end["tie_line"])
    return lines


# The review's names for a decision's loss (ai/review.py LABELS).
REVIEW_LABELS = {"blunder": N_("blunder"), "mistake": N_("mistake"),
                 "inaccuracy": N_("inaccuracy")}


def review_screen(style: Style, rv: Any, width: int = 80, top: int = 3,
                  words: dict[str, str] | None = None) -> list[str]:
    """The end screen's review of a finished game (``ai/review.Review`` of the people's
    seats): how often each found the best choice, its biggest mistakes with what was better
    and why, and every seat's win chance at the start of some turns, within ``width``.
    ``words`` says the mistakes' actions (stable texts) in the player's language."""
    tr = style.tr
    said = words or {}
    lines = [style.head(tr("REVIEW")) + tr(" (each of your decisions against the best the hint "
                                          "finds, from what you could see then)")]
    for p in rv.seats:
        mine = [d for d in rv.decisions if d.seat == p]
        if not mine:
            continue
        found = sum(d.rank == 1 for d in mine)
        count = {name: sum(d.label == name for d in mine) for name in REVIEW_LABELS}
        lines.append(tr("  {name}: best choice {found} of {n} times; {inaccuracy} inaccuracies, "
                        "{mistake} mistakes, {blunder} blunders").format(
            name=rv.names[p], found=found, n=len(mine), **count))
    worst = rv.mistakes(top)
    lines.append(style.bold(tr("BIGGEST MISTAKES")))
    if not worst:
        lines.append(tr("  none: no decision lost 1.5 Reputation or more against the best"))

    def pct(x: float | None) -> str:
        return "-" if x is None else f"{100 * x:.0f}%"

    for rank, d in enumerate(worst, 1):
        chosen, best = pct(d.chosen_win), pct(d.best_win)
        # (a lost game's "0% instead of 0%" says nothing: the same chance is said once)
        said_chance = (tr(" {rank}. turn {turn}, {name}: {label}, {loss} Rep lost (win chance "
                          "{chosen} instead of {best})") if chosen != best else
                       tr(" {rank}. turn {turn}, {name}: {label}, {loss} Rep lost (win chance "
                          "{chosen} either way)"))
        lines.append(said_chance.format(
            rank=rank, turn=d.turn, name=rv.names[d.seat], label=tr(REVIEW_LABELS[d.label]),
            loss=f"{d.loss:.1f}", chosen=chosen, best=best))
        lines.append(tr("    played: {action}").format(action=said.get(d.chosen, d.chosen)))
        lines.append(tr("    better: {action} — {why}").format(
            action=said.get(d.best, d.best), why=d.best_reason))
    if rv.chances:
        lines.append(style.bold(tr("WIN CHANCE OVER THE GAME"))
                     + tr(" (at the start of turns; every seat's cards known)"))
        cell = max(6, *(visible_len(name) for name in rv.names))
        lines.append("  " + pad(tr("turn"), 5) + " ".join(pad_left(n, cell) for n in rv.names))
        step = max(1, len(rv.turns) // 8)
        picks = sorted(set(range(0, len(rv.turns), step)) | {len(rv.turns) - 1})
        for i in picks:
            turn = tr("end") if i == len(rv.turns) - 1 else str(rv.turns[i])
            lines.append("  " + pad(turn, 5) + " ".join(pad_left(pct(c), cell)
                                                        for c in rv.chances[i]))
    return wrap(lines, width)
