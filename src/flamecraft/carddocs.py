"""Generates ``docs/cards.md``, the card list, from the card catalog.

The list is generated, never written by hand, so that it can only say what the data files say:
an owner of the box who corrects a card in ``data/*.toml`` regenerates the list with
``python -m flamecraft.carddocs``, and ``--check`` (run by the tests) fails when the list is out
of date. Effect primitives are shown both as the data writes them and in plain words, worded
from what ``effects.py`` does, so the list is also a check that the data matches the card texts.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .core.cards import (
    ANY_SLOT,
    OP_SCHEMA,
    PROVENANCES,
    SHOP_ICONS,
    Achievement,
    ArtisanCard,
    Catalog,
    CompanionCard,
    EnchantmentCard,
    FancyCard,
    Op,
    Provenance,
    Reward,
    ShopCard,
    load_catalog,
)
from .core.goods import GOOD_KEYS, GOOD_NAMES, NUM_GOODS

DEFAULT_OUTPUT = Path(__file__).resolve().parents[2] / "docs" / "cards.md"
ICON_NAMES = (*GOOD_NAMES, "rainbow", "dragon", "coin")
PILE_NAMES = (*GOOD_NAMES, "Other icons (rainbow, dragon, coin)")


def _cell(value: str) -> str:
    """A value safe inside a Markdown table cell."""
    return value.replace("|", "\\|").replace("\n", " ")


def _goods_words(counts: Sequence[int]) -> str:
    parts = [f"{n} {GOOD_NAMES[g]}" for g, n in enumerate(counts) if n]
    if len(parts) > 1:
        return ", ".join(parts[:-1]) + " and " + parts[-1]
    return parts[0] if parts else "nothing"


def _reward_words(reward: Reward) -> str:
    """A reward in words (``Reward.text`` without its "Good(s)")."""
    parts = []
    if reward.rep:
        parts.append(f"{reward.rep} Reputation")
    if reward.coins:
        parts.append(f"{reward.coins} Coin" + ("s" if reward.coins > 1 else ""))
    if reward.good_choice:
        n = reward.good_choice
        parts.append(f"{n} Good{'s' if n > 1 else ''} of your choice")
    if reward.artisan:
        n = reward.artisan
        parts.append("an Artisan Dragon" if n == 1 else f"{n} Artisan Dragons")
    if reward.fancy:
        n = reward.fancy
        parts.append("a Fancy Dragon" if n == 1 else f"{n} Fancy Dragons")
    return " + ".join(parts) if parts else "nothing"


# --- effect primitives: as the data writes them -----------------------------------------------

def _toml_value(catalog: Catalog, kind: str, value: Any) -> str:
    if kind == "goods":
        return "{ " + ", ".join(f"{GOOD_KEYS[g]} = {n}" for g, n in enumerate(value) if n) + " }"
    if kind == "goodlist":
        return "[" + ", ".join(f'"{GOOD_KEYS[g]}"' for g in value) + "]"
    if kind == "reward":
        fields = [(k, getattr(value, k)) for k in ("rep", "coins", "artisan", "fancy",
                                                    "good_choice")]
        return "{ " + ", ".join(f"{k} = {v}" for k, v in fields if v) + " }"
    if kind == "ops":
        return ops_toml(catalog, value)
    if kind == "bool":
        return "true" if value else "false"
    if kind == "str":
        return f'"{value}"'
    return str(value)


def op_toml(catalog: Catalog, op: Op) -> str:
    """One primitive in the inline-TOML form of the data files."""
    schema = OP_SCHEMA[op.name]
    parts = [f'op = "{op.name}"']
    parts.extend(f"{name} = {_toml_value(catalog, schema[name], value)}"
                 for name, value in op.params.items())
    return "{ " + ", ".join(parts) + " }"


def ops_toml(catalog: Catalog, list_id: int) -> str:
    """An op list in the inline-TOML form of the data files."""
    return "[ " + ", ".join(op_toml(catalog, op) for op in catalog.op_lists[list_id]) + " ]"


# --- effect primitives: in words ----------------------------------------------------------------

_WHERE = {
    "hand": "in your hand",
    "park": "in the Park",
    "here": "at this Shop",
    "other_shop": "at another Shop in Town (resolved as if you were visiting that Shop)",
}
_CONDITIONS = {"lowest_rep": "no other player has less Reputation than you"}


def _gain_words(params: Any) -> str:
    parts = []
    goods = params.get("goods")
    if goods and any(goods):
        parts.append(_goods_words(goods))
    if params.get("good_choice"):
        n = params["good_choice"]
        parts.append(f"{n} Good{'s' if n > 1 else ''} of your choice")
    if params.get("coins"):
        n = params["coins"]
        parts.append(f"{n} Coin{'s' if n > 1 else ''}")
    rep = params.get("rep", 0)
    per = params.get("rep_per_enchantment_here", 0)
    if rep or per:
        text = f"{rep} Reputation" if rep else ""
        if per:
            text += (" plus " if rep else "") + f"{per} Reputation per Enchantment at this Shop"
        parts.append(text)
    words = "gain " + ", ".join(parts) if parts else ""
    draws = []
    if params.get("artisan"):
        n = params["artisan"]
        draws.append(f"draw {n} Artisan Dragon{'s' if n > 1 else ''} (from the Park or the "
                     "top of the deck)")
    if params.get("fancy"):
        n = params["fancy"]
        draws.append(f"draw {n} Fancy Dragon{'s' if n > 1 else ''}")
    return ", and ".join([w for w in (words, *draws) if w]) or "gain nothing"


def _sub(catalog: Catalog, params: Any, name: str) -> str:
    list_id = params.get(name, -1)
    return ops_words(catalog, list_id) if list_id >= 0 else ""


def op_words(catalog: Catalog, op: Op) -> str:
    """One primitive in plain words, as ``effects.py`` runs it."""
    p = op.params
    then = _sub(catalog, p, "then")
    otherwise = _sub(catalog, p, "otherwise")
    if_done = f"; if you do: {then}" if then else ""
    if_not = f"; if not: {otherwise}" if otherwise else ""
    name = op.name
    if name == "gain":
        return _gain_words(p)
    if name == "gain_same":
        return f"gain {p.get('n', 1)} Goods of one type of your choice"
    if name == "gain_distinct":
        return f"gain {p.get('n', 3)} different Goods of your choice"
    if name == "gain_from_here":
        return (f"gain {p.get('n', 2)} of one Good produced where the dragon is (the Shop's "
                "icon, any Good at a rainbow Shop, or any Artisan Dragon there)")
    if name == "trade":
        if "give" in p:
            what = f"return {_goods_words(p['give'])} (only if you have it all)"
        elif "give_any" in p:
            what = f"return {p['give_any']} Goods of any types, one at a time"
        elif "give_same" in p:
            what = f"return {p['give_same']} Goods of one type"
        else:
            n = p.get("give_coins", 0)
            what = (f"return {n} Coin{'s' if n != 1 else ''} (only if you have "
                    f"{'them' if n != 1 else 'it'})")
        return what + (f"; then {then}" if then else "")
    if name == "return_up_to":
        item = "Coins" if p.get("item", "goods") == "coins" else "Goods"
        text = f"you may return up to {p.get('max', 1)} {item}, one at a time"
        if "per" in p:
            text += f"; for each, gain {_reward_words(p['per'])}"
        if "bonus" in p:
            text += f"; if you returned {p.get('bonus_at', 0)}, gain {_reward_words(p['bonus'])}"
        return text
    if name == "reserve":
        text = "if you have no reserved Enchantment, you may reserve 1 from the face-up row"
        if p.get("exchange"):
            text += ("; if you have one, you may exchange it with 1 in the row (yours takes "
                     "its place)")
        return text
    if name == "fire_up":
        excluded = p.get("exclude", ())
        where = _WHERE[p.get("where", "here")]
        text = f"you may fire up 1 Artisan Dragon {where}"
        if excluded:
            text += " (not a " + " or ".join(GOOD_NAMES[g] for g in excluded) + " Dragon)"
        text += " that has not been fired up this turn"
        return text + (f"; if there is none: {otherwise}" if otherwise else "")
    if name == "fancy_draw":
        n = p.get("n", 1)
        keep = p.get("keep", n)
        if keep >= n:
            return f"draw {n} Fancy Dragon{'s' if n > 1 else ''}"
        return (f"draw {n} Fancy Dragons, keep {keep}, and put the others on the bottom of the "
                "Fancy deck")
    if name == "fancy_return":
        return ("you may put 1 of your unscored Fancy Dragons on the bottom of the Fancy deck"
                + if_done + if_not)
    if name == "artisan_look":
        return (f"look at the top {p.get('n', 3)} cards of the Artisan deck, put 1 in your hand "
                "and the others on the bottom of the deck")
    if name == "score_moon_now":
        return ("you may score 1 of your unscored Moon Dragons whose goal is met now (not an "
                "end-only one)" + if_done + if_not)
    if name == "gift":
        most = p.get("max", 1)
        text = ("you may gift" if p.get("optional") else "gift") + (
            f" up to {most} Goods (or Coins) to other players, one at a time" if most > 1
            else " 1 Good (or Coin) to another player")
        if "per" in p:
            each = "for each" if most > 1 else "if you do"
            text += f"; {each}, gain {_reward_words(p['per'])}"
        return text + (f"; if you gave any: {then}" if then else "")
    if name == "gift_each":
        text = "you may gift exactly 1 Good (or Coin) to each other player"
        if p.get("per_gift_rep"):
            text += f"; if you do, gain {p['per_gift_rep']} Reputation per gift"
        return text + (f", then {then}" if then else "")
    if name == "gift_artisan":
        return "you may gift 1 Artisan Dragon from your hand to another player" + if_done
    if name == "place":
        source = "your hand" if p.get("source", "hand") == "hand" else "the Park"
        scope = "at this Shop" if p.get("scope", "anywhere") == "here" else "anywhere in Town"
        cost = p.get("cost")
        head = "you may " if p.get("optional") else ""
        if cost:
            head += f"return {_goods_words(cost)} to "
        return (f"{head}place 1 Artisan Dragon from {source} on an empty matching slot {scope}, "
                "gaining the slot's reward")
    if name == "swap_two":
        return ("you may swap 2 Artisan Dragons in Town (slot icons ignored, no rewards, not a "
                "placement)")
    if name == "swap_and_fire":
        return ("swap this dragon with another Artisan Dragon in Town (slot icons ignored, no "
                "rewards), then fire up the dragon that arrived, if it has not been fired up "
                "this turn")
    if name == "park_cycle":
        return (f"you may put up to {p.get('max', 2)} Park dragons on the bottom of the Artisan "
                "deck, one at a time; if you do, refill the Park at once")
    if name == "if":
        return (f"if {_CONDITIONS[p['cond']]}: {then or 'nothing'}"
                + (f"; otherwise: {otherwise}" if otherwise else ""))
    if name == "forage":
        return (f"choose 1 Good type; gain 1 of it for each Artisan Dragon of that type in the "
                f"Park, at most {p.get('max', 3)}")
    if name == "exchange_good":
        return "return 1 Good to gain 1 Good of a different type of your choice"
    raise ValueError(f"no words for primitive {name!r}")


def ops_words(catalog: Catalog, list_id: int) -> str:
    """An op list in plain words, its steps in order."""
    return "; then ".join(op_words(catalog, op) for op in catalog.op_lists[list_id])


# --- the page ------------------------------------------------------------------------------------

def _provenance_lines(prov: Provenance) -> list[str]:
    lines = [f"- Provenance: **{prov.level}**"
             + (f"; designed parts: {', '.join(prov.designed_parts)}"
                if prov.designed_parts else "")]
    if prov.reason:
        lines.append(f"- Why designed: {prov.reason}")
    if prov.note:
        lines.append(f"- Note: {prov.note}")
    if prov.balance:
        lines.append(f"- Balance change: {prov.balance}")
    return lines


def _provenance_cell(prov: Provenance) -> str:
    text = prov.level
    if prov.designed_parts:
        text += f" (designed: {', '.join(prov.designed_parts)})"
    return _cell(text)


def _why_cell(prov: Provenance) -> str:
    parts = [prov.reason] if prov.reason else []
    if prov.note:
        parts.append(f"Note: {prov.note}")
    if prov.balance:
        parts.append(f"Balance change: {prov.balance}")
    return _cell(" ".join(parts))


def _slot_text(shop: ShopCard, k: int) -> str:
    slot = shop.slots[k]
    if slot.accepts[0] == ANY_SLOT:
        accepts = "any dragon"
    else:
        accepts = " or ".join(GOOD_NAMES[g] for g in slot.accepts)
    reward = _reward_words(slot.reward)
    return f"{accepts} → {reward}"


def _icon_text(shop: ShopCard) -> str:
    icon = ICON_NAMES[shop.icon]
    if shop.icon_amount != 1:
        icon += f" ({shop.icon_amount} Coins)" if SHOP_ICONS[shop.icon] == "COIN" else (
            f" (×{shop.icon_amount})")
    return icon


def _shop_section(catalog: Catalog, shop: ShopCard) -> list[str]:
    head = f"- id `{shop.id}`; icon: {_icon_text(shop)}"
    if shop.starter:
        dragon = catalog.artisans[catalog.artisan_by_id[shop.starter_dragon]]
        head += f"; starter dragon: {dragon.name}"
    lines = [f"#### {shop.name}", "", head]
    for k in range(3):
        lines.append(f"- Slot {k + 1}: {_slot_text(shop, k)}")
    if shop.ability >= 0:
        lines.append(f"- Ability **{shop.ability_name}**: {shop.ability_text}")
        lines.append(f"- What the engine does: {ops_words(catalog, shop.ability)}.")
        lines.append(f"- Data: `ability = {ops_toml(catalog, shop.ability)}`")
    else:
        lines.append("- No ability (starter Shop).")
    lines.extend(_provenance_lines(shop.provenance))
    lines.append("")
    return lines


def _cost_text(card: EnchantmentCard) -> str:
    parts = []
    if card.printed_coins:
        parts.append(f"{card.printed_coins} printed Coin")
    if any(card.cost):
        parts.append(_goods_words(card.cost))
    text = " + ".join(parts)
    if card.variable:
        text = f"sets of {text}, 1–{card.max_sets} sets"
    if card.no_coins:
        text += "; **no Coins**"
    return text


def _enchant_reward(card: EnchantmentCard) -> str:
    if card.variable:
        by_sets = " / ".join(str(r) for r in card.rep_by_sets)
        text = f"{by_sets} Reputation for 1 / … / {card.max_sets} sets"
        if not card.reward.is_empty():
            text += f" + {_reward_words(card.reward)}"
        return text
    return _reward_words(card.reward)


def _goal_text(card: FancyCard) -> str:
    goal = card.goal
    if goal.spend is not None:
        return f"spend {_goods_words(goal.spend)}"
    text = goal.measure + (f"({goal.arg})" if goal.arg else "")
    if goal.beyond:
        text += f" beyond {goal.beyond}"
    if goal.unit > 1:
        text += f" per {goal.unit}"
    if goal.at_least is not None:
        text += f" ≥ {goal.at_least}"
    if goal.at_most is not None:
        text += f" ≤ {goal.at_most}"
    return text


def _fancy_reward(card: FancyCard) -> str:
    if card.rep_table:
        return ", ".join(f"{k}+ → {v}" for k, v in card.rep_table) + " Reputation"
    if card.rep_per:
        unit = f"full {card.goal.unit}" if card.goal.unit > 1 else "count"
        text = f"{card.rep_per} Reputation per {unit}"
        if card.rep_max < 999:
            text += f" (max {card.rep_max})"
        return text
    return _reward_words(card.reward)


def _artisan_lines(catalog: Catalog) -> list[str]:
    lines = ["## Artisan Dragons", "",
             f"{len(catalog.artisans)} dragons, 7 of each type. All dragons of one type share "
             "one fire-up ability (`data/fire_ups.toml`); each type's starter begins on its "
             "starter Shop.", ""]
    for good in range(NUM_GOODS):
        fire = catalog.fire_ups[good]
        lines += [f"### {GOOD_NAMES[good]} Dragons", "",
                  f"Fire-up: {ops_words(catalog, fire)}.", "",
                  f"Data: `{GOOD_KEYS[good]} = {ops_toml(catalog, fire)}`", "",
                  "| name | id | starter | provenance | why designed / note |",
                  "|---|---|---|---|---|"]
        dragons: list[ArtisanCard] = [a for a in catalog.artisans if a.type == good]
        for a in dragons:
            lines.append(f"| {_cell(a.name)} | `{a.id}` | {'yes' if a.starter else ''} | "
                         f"{_provenance_cell(a.provenance)} | {_why_cell(a.provenance)} |")
        lines.append("")
    return lines


def _enchantment_lines(catalog: Catalog) -> list[str]:
    lines = ["## Enchantments", "",
             "One deck is chosen at setup. Cost: the Goods of one cast (of one set, for a "
             "variable Enchantment); a printed Coin must be paid with a Coin; **no Coins** "
             "forbids paying Goods with Coins.", ""]
    for deck_index, deck in enumerate(("Purple", "Golden")):
        cards = [e for e in catalog.enchantments if e.deck == deck_index]
        lines += [f"### {deck} deck ({len(cards)})", "",
                  "| name | id | icon | cost | reward | provenance | why designed / note |",
                  "|---|---|---|---|---|---|---|"]
        for e in cards:
            lines.append(f"| {_cell(e.name)} | `{e.id}` | {GOOD_NAMES[e.icon]} | "
                         f"{_cell(_cost_text(e))} | {_cell(_enchant_reward(e))} | "
                         f"{_provenance_cell(e.provenance)} | {_why_cell(e.provenance)} |")
        lines.append("")
    return lines


def _fancy_lines(catalog: Catalog) -> list[str]:
    lines = ["## Fancy Dragons", "",
             "Sun Dragons are revealed during their owner's turn once the goal is met; Moon "
             "Dragons are scored at the end of the game (or early at Hedges & Henges, unless "
             "end-only). Goal: the data's `spend` or measure test (measures: "
             "`docs/card-data-format.md`).", ""]
    for sun, title in ((True, "Sun Dragons"), (False, "Moon Dragons")):
        cards = [f for f in catalog.fancies if f.sun == sun]
        lines += [f"### {title} ({len(cards)})", "",
                  "| name | id | text | goal | reward | provenance | why designed / note |",
                  "|---|---|---|---|---|---|---|"]
        for f in cards:
            text = f.text + (" **End only.**" if f.end_only else "")
            lines.append(f"| {_cell(f.name)} | `{f.id}` | {_cell(text)} | "
                         f"`{_cell(_goal_text(f))}` | {_cell(_fancy_reward(f))} | "
                         f"{_provenance_cell(f.provenance)} | {_why_cell(f.provenance)} |")
        lines.append("")
    return lines


# When each Companion hook acts, as turn.py, board.py and engine.py call it.
HOOK_WORDS = {
    "after_cast": "after you cast an Enchantment: once its rewards are gained, before the "
                  "Enchant fire-up step",
    "after_gift": "after you give a gift (any gift, visiting gifts included) during your own turn",
    "gather_fire_all": "Gather step 3, offered as `use <Companion>` beside `fire up X` when at "
                       "least 2 dragons at the Shop could be fired up",
    "gather_extra_place": "after Gather step 2 (`use <Companion>` or `do not use your "
                          "Companion`), offered only when a placement anywhere in Town is "
                          "possible",
    "free_action": "a free action (`use <Companion>`) offered at the Sun Dragon reveal points "
                   "of your turn, while you hold a Good",
    "setup_fancy": "at setup, when the Fancy Dragons are dealt (after the Companion draft)",
}


def _limit_words(card: CompanionCard) -> str:
    """How often a Companion may act: its ``uses_per_game`` and ``per_turn``."""
    if card.hook == "setup_fancy":
        return "once, at setup"
    times = {1: "once", 2: "twice"}
    if card.uses_per_game:
        text = f"{times.get(card.uses_per_game, f'{card.uses_per_game} times')} per game"
        if card.per_turn and card.per_turn < card.uses_per_game:
            text += f", at most {times.get(card.per_turn, f'{card.per_turn} times')} per turn"
        return text
    if card.per_turn:
        return f"{times.get(card.per_turn, f'{card.per_turn} times')} per turn"
    return "every time"


def _companion_effect_words(catalog: Catalog, card: CompanionCard) -> str:
    if card.hook == "setup_fancy":
        return (f"you are dealt {card.fancy_dealt} Fancy Dragons instead of 2 and keep "
                f"{card.fancy_kept}; the others go to the bottom of the Fancy deck")
    if card.hook == "gather_fire_all":
        return ("fire up the Artisan Dragons at the Shop that have not been fired up this turn, "
                "one at a time in any order, as on an Enchant turn (`stop firing up` ends it)")
    return ops_words(catalog, card.effect) if card.effect >= 0 else "nothing"


def _companion_section(catalog: Catalog, card: CompanionCard) -> list[str]:
    lines = [f"#### {card.name}", "",
             f"- id `{card.id}`; hook `{card.hook}`; {_limit_words(card)}",
             f"- Text: {card.text}",
             f"- When the engine acts: {HOOK_WORDS[card.hook]}.",
             f"- What the engine does: {_companion_effect_words(catalog, card)}."]
    if card.effect >= 0:
        lines.append(f"- Data: `effect = {ops_toml(catalog, card.effect)}`")
    lines.extend(_provenance_lines(card.provenance))
    lines.append("")
    return lines


def _companion_lines(catalog: Catalog) -> list[str]:
    lines = ["## Companions (optional module)", "",
             f"{len(catalog.companions)} Companions (`data/companions.toml`), used only in a "
             "game set up with Companions (`--companions`). At setup, 1 more than the number "
             "of players are revealed and each player takes 1, the last seat first; the rest "
             "go back to the box. Companions are public. \"Every time\" means no limit; "
             "Reputation a Companion gives counts as `companions` in the score breakdown.",
             ""]
    for card in catalog.companions:
        lines += _companion_section(catalog, card)
    return lines


def _requirement_text(card: Achievement) -> str:
    return card.measure + (f"({card.arg})" if card.arg else "") + f" ≥ {card.at_least}"


def _rating_ranges(catalog: Catalog) -> list[tuple[str, str]]:
    out = []
    table = catalog.ratings
    for k, (lowest, title) in enumerate(table):
        if k + 1 < len(table):
            out.append((f"{lowest}–{table[k + 1][0] - 1}", title))
        else:
            out.append((f"{lowest}+", title))
    return out


def _solo_lines(catalog: Catalog) -> list[str]:
    total = sum(a.rep for a in catalog.achievements)
    lines = ["## Solo mode: achievements and rating", "",
             f"In a 1-player game all {len(catalog.achievements)} achievements "
             "(`data/solo.toml`) are in play. They are checked at the end of each turn (after "
             "Town Bustle and the refill) and once more after end-game scoring; each one met "
             "then is claimed once and pays its Reputation (`achievements` in the score "
             f"breakdown). {total} Reputation in all. Requirement: a goal measure "
             "(`docs/card-data-format.md`) that must reach the number shown. In solo, every "
             "gift the cards above mention goes to the general supply (an Artisan Dragon: to "
             "the bottom of the Artisan deck) and still counts as a gift given; the rules are "
             "in `docs/rules.md`.", "",
             "| # | name | id | text | requirement | reward | provenance | why designed / note |",
             "|---|---|---|---|---|---|---|---|"]
    for number, a in enumerate(catalog.achievements, 1):
        lines.append(f"| {number} | {_cell(a.name)} | `{a.id}` | {_cell(a.text)} | "
                     f"`{_cell(_requirement_text(a))}` | {a.rep} Reputation | "
                     f"{_provenance_cell(a.provenance)} | {_why_cell(a.provenance)} |")
    lines += ["", "### Rating", "",
              "The title of a solo game, by final Reputation (the highest threshold reached; "
              "the view's `rating` once the game is over):", "",
              "| final Reputation | title |", "|---|---|"]
    lines += [f"| {span} | {_cell(title)} |" for span, title in _rating_ranges(catalog)]
    lines.append("")
    if catalog.rating_note:
        lines += [catalog.rating_note, ""]
    return lines


def _card_kinds(catalog: Catalog) -> list[tuple[str, str, list[tuple[str, Provenance]]]]:
    """Each kind of card (singular and plural) with every card's name and provenance."""
    return [
        ("Shop", "Shops", [(c.name, c.provenance) for c in catalog.shops]),
        ("Artisan Dragon", "Artisan Dragons", [(c.name, c.provenance) for c in catalog.artisans]),
        ("Enchantment", "Enchantments", [(c.name, c.provenance) for c in catalog.enchantments]),
        ("Fancy Dragon", "Fancy Dragons", [(c.name, c.provenance) for c in catalog.fancies]),
        ("Companion", "Companions", [(c.name, c.provenance) for c in catalog.companions]),
    ]


def _summary_lines(catalog: Catalog) -> list[str]:
    kinds = [(plural, [prov for _, prov in cards]) for _, plural, cards in _card_kinds(catalog)]
    lines = ["## Summary by provenance", "",
             "| kind | " + " | ".join(PROVENANCES) + " | with designed parts | total |",
             "|---|" + "---|" * (len(PROVENANCES) + 2)]
    totals: Counter[str] = Counter()
    parts_total = 0
    for kind, provs in kinds:
        counts = Counter(p.level for p in provs)
        parts = sum(1 for p in provs if p.designed_parts)
        totals.update(counts)
        parts_total += parts
        lines.append(f"| {kind} | " + " | ".join(str(counts[level]) for level in PROVENANCES)
                     + f" | {parts} | {len(provs)} |")
    lines.append("| **all cards** | " + " | ".join(f"**{totals[level]}**" for level in PROVENANCES)
                 + f" | **{parts_total}** | **{sum(totals.values())}** |")
    lines += ["", "*published*: rulebook or two independent sources; *reconstructed*: one public "
              "source; *designed*: the project's own design (`shared/reference/design.md`). A "
              "card \"with designed parts\" is published or reconstructed except for the parts "
              "named.", ""]
    return lines


def _balance_lines(catalog: Catalog) -> list[str]:
    """The changes made to designed cards after the balance reports, in one place."""
    kinds = [*_card_kinds(catalog),
             ("Achievement", "Achievements",
              [(a.name, a.provenance) for a in catalog.achievements])]
    changed = [(kind, name, prov.balance) for kind, _, cards in kinds
               for name, prov in cards if prov.balance]
    lines = ["## Balance changes", "",
             "Designed cards changed because the bots' balance reports showed them standing "
             "out (the measurements, and the commands that produced them, are in "
             "`docs/balance.md`). Each card's own entry below repeats its change.", ""]
    if changed:
        lines += ["| card | kind | change and why |", "|---|---|---|"]
        lines += [f"| {_cell(name)} | {kind} | {_cell(text)} |" for kind, name, text in changed]
    else:
        lines.append("(none yet)")
    if catalog.rating_note:
        lines += ["", f"Solo rating table: {catalog.rating_note}"]
    lines.append("")
    return lines


def render(catalog: Catalog | None = None) -> str:
    """The whole of ``docs/cards.md`` for a catalog (the shipped one by default)."""
    catalog = catalog or load_catalog()
    lines = ["# Cards", "",
             "<!-- Generated by `python -m flamecraft.carddocs` from src/flamecraft/data/*.toml."
             " Do not edit by hand: edit the data and regenerate. -->", "",
             "**Generated file.** Every card of the catalog, as the engine loads it from "
             "`src/flamecraft/data/*.toml`. To change a card, edit its data file (see "
             "`docs/adding-a-card.md`), then run `python -m flamecraft.carddocs`; "
             "`python -m flamecraft.carddocs --check` (and the test suite) fails while this "
             "file is out of date.", ""]
    lines += _summary_lines(catalog)
    lines += _balance_lines(catalog)
    lines += ["## Shops", "",
              f"{len(catalog.shops)} Shops: 6 starters, then the Shop-deck piles (each game "
              "uses 1 Shop of each Good pile and 4 of the other icons). Slots read "
              "\"accepted dragons → reward\".", ""]
    starters = [s for s in catalog.shops if s.starter]
    lines += ["### Starter Shops", ""]
    for shop in starters:
        lines += _shop_section(catalog, shop)
    for pile, title in enumerate(PILE_NAMES):
        shops = [s for s in catalog.shops if not s.starter and s.pile == pile]
        if shops:
            lines += [f"### {title} pile" if pile < NUM_GOODS else f"### {title}", ""]
            for shop in shops:
                lines += _shop_section(catalog, shop)
    lines += _artisan_lines(catalog)
    lines += _enchantment_lines(catalog)
    lines += _fancy_lines(catalog)
    lines += _companion_lines(catalog)
    lines += _solo_lines(catalog)
    return "\n".join(lines).rstrip("\n") + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    """Writes the card list, or with ``--check`` reports whether it is current (exit 1 if not)."""
    parser = argparse.ArgumentParser(prog="python -m flamecraft.carddocs",
                                     description="Generate docs/cards.md from the card data.")
    parser.add_argument("--check", action="store_true",
                        help="do not write; exit 1 if the file is missing or out of date")
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT,
                        help=f"the file to write or check (default: {DEFAULT_OUTPUT})")
    args = parser.parse_args(argv)
    text = render()
    path: Path = args.output
    if args.check:
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current != text:
            print(f"{path} is out of date: run `python -m flamecraft.carddocs`", file=sys.stderr)
            return 1
        print(f"{path} is up to date")
        return 0
    path.write_text(text, encoding="utf-8")
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
