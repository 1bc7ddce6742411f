"""Card definitions, loaded from the TOML files in ``data/`` and validated on load.

Cards are immutable and shared by every game state; a state holds only card indices. Every
card carries its provenance (published / reconstructed / designed). Shop abilities and Artisan
fire-ups are lists of effect primitives (``Op``) that ``effects.py`` interprets; each list gets
an integer id in ``Catalog.op_lists`` so that a pending continuation is plain data.

The files are the package's own, or those of the folder that the environment variable
``FLAMECRAFT_DATA`` names (read once, when the catalog first loads): a corrected copy of the
card files, to try a correction against saved games before it goes into the package
(``docs/card-data-format.md``).
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Final

from .errors import CardDataError
from .goods import GOOD_BY_KEY, NUM_GOODS

PROVENANCES: Final = ("published", "reconstructed", "designed")
SHOP_ICONS: Final = ("BREAD", "MEAT", "IRON", "POTION", "CRYSTAL", "PLANT", "RAINBOW", "DRAGON",
                     "COIN")
ICON_RAINBOW: Final = 6
ICON_DRAGON: Final = 7
ICON_COIN: Final = 8
ANY_SLOT: Final = -1  # a rainbow slot accepts any dragon
DECKS: Final = ("purple", "golden")
_SLUG: Final = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")

# Reward keys shared by slots, Enchantments, Fancy Dragons and the ``gain`` primitive.
REWARD_KEYS: Final = ("rep", "coins", "artisan", "fancy", "good_choice")

# The vocabulary of effect primitives: op name -> {param: kind}. ``effects.py`` implements each.
OP_SCHEMA: Final[dict[str, dict[str, str]]] = {
    "gain": {"goods": "goods", "coins": "int", "rep": "int", "artisan": "int", "fancy": "int",
             "good_choice": "int", "rep_per_enchantment_here": "int"},
    "gain_same": {"n": "int"},
    "gain_distinct": {"n": "int"},
    "gain_from_here": {"n": "int"},
    "trade": {"give": "goods", "give_any": "int", "give_same": "int", "give_coins": "int",
              "then": "ops"},
    "return_up_to": {"max": "int", "item": "str", "per": "reward", "bonus_at": "int",
                     "bonus": "reward"},
    "reserve": {"exchange": "bool"},
    "fire_up": {"where": "str", "exclude": "goodlist", "otherwise": "ops"},
    "fancy_draw": {"n": "int", "keep": "int"},
    "fancy_return": {"then": "ops", "otherwise": "ops"},
    "artisan_look": {"n": "int", "keep": "int"},
    "score_moon_now": {"then": "ops", "otherwise": "ops"},
    "gift": {"max": "int", "optional": "bool", "per": "reward", "then": "ops"},
    "gift_each": {"then": "ops", "per_gift_rep": "int"},
    "gift_artisan": {"then": "ops"},
    "place": {"source": "str", "scope": "str", "optional": "bool", "cost": "goods"},
    "swap_two": {},
    "swap_and_fire": {},
    "park_cycle": {"max": "int"},
    "if": {"cond": "str", "then": "ops", "otherwise": "ops"},
    "forage": {"max": "int"},
    "exchange_good": {},
}
OP_STR_CHOICES: Final = {
    ("return_up_to", "item"): ("goods", "coins"),
    ("fire_up", "where"): ("hand", "park", "here", "other_shop"),
    ("place", "source"): ("hand", "park"),
    ("place", "scope"): ("anywhere", "here"),
    ("if", "cond"): ("lowest_rep",),
}

MEASURES: Final = (
    "max_same_type_in_a_shop", "max_distinct_types_in_a_shop", "max_enchantments_in_a_shop",
    "coins_match_empty_coin_slots", "most_of_one_good", "total_goods", "odd_good_types",
    "good_types_with_at_least", "hand_size", "fancy_held", "full_shops",
    "shops_with_enchantments_at_least", "most_dragons_of_one_type_in_town", "showpiece_shops",
    "town_shops", "enchantments_cast", "distinct_cast_icons", "max_variable_sets",
    "dragons_placed", "shops_completed", "gifts_given", "shops_visited", "sun_scored",
    "coins", "fancy_scored",
)
COMPANION_HOOKS: Final = ("after_cast", "after_gift", "gather_fire_all", "gather_extra_place",
                          "free_action", "setup_fancy")


@dataclass(frozen=True, slots=True)
class Reward:
    """What a slot, an Enchantment or a Fancy Dragon gives (in words:
    ``cardtext.reward_words``, the one source of the text in every language)."""

    rep: int = 0
    coins: int = 0
    artisan: int = 0
    fancy: int = 0
    good_choice: int = 0

    def is_empty(self) -> bool:
        return not (self.rep or self.coins or self.artisan or self.fancy or self.good_choice)


@dataclass(frozen=True, slots=True)
class Provenance:
    level: str
    reason: str = ""
    designed_parts: tuple[str, ...] = ()
    note: str = ""
    balance: str = ""  # a change made after the balance reports, and why


@dataclass(frozen=True, slots=True)
class ArtisanCard:
    index: int
    id: str
    name: str
    type: int  # the Good it produces (0-5)
    starter: bool
    provenance: Provenance


@dataclass(frozen=True, slots=True)
class Slot:
    accepts: tuple[int, ...]  # Good types, or (ANY_SLOT,)
    reward: Reward


@dataclass(frozen=True, slots=True)
class ShopCard:
    index: int
    id: str
    name: str
    icon: int  # 0-5 a Good, ICON_RAINBOW, ICON_DRAGON or ICON_COIN
    icon_amount: int
    starter: bool
    starter_dragon: str
    slots: tuple[Slot, Slot, Slot]
    ability_name: str
    ability_text: str
    ability: int  # op-list id, or -1 for none
    provenance: Provenance

    @property
    def pile(self) -> int:
        """The Shop-deck pile: its Good (0-5), or 6 for every other icon."""
        return self.icon if self.icon < NUM_GOODS else 6

    @property
    def can_enchant(self) -> bool:
        return self.icon < NUM_GOODS or self.icon == ICON_RAINBOW


@dataclass(frozen=True, slots=True)
class EnchantmentCard:
    index: int
    id: str
    name: str
    deck: int  # 0 purple, 1 golden
    icon: int  # Good 0-5
    cost: tuple[int, ...]  # per Good, for one set
    printed_coins: int  # Coins printed in the cost, paid with Coins only
    variable: bool
    rep_by_sets: tuple[int, ...]  # variable only: Reputation for 1, 2, … sets
    no_coins: bool
    reward: Reward
    provenance: Provenance

    @property
    def max_sets(self) -> int:
        return len(self.rep_by_sets) if self.variable else 1


@dataclass(frozen=True, slots=True)
class Goal:
    spend: tuple[int, ...] | None  # per Good, for spend goals
    measure: str
    arg: int
    at_least: int | None
    at_most: int | None
    beyond: int
    unit: int


@dataclass(frozen=True, slots=True)
class FancyCard:
    index: int
    id: str
    name: str
    sun: bool
    text: str
    goal: Goal
    reward: Reward
    rep_per: int
    rep_max: int
    rep_table: tuple[tuple[int, int], ...]
    end_only: bool
    provenance: Provenance


@dataclass(frozen=True, slots=True)
class CompanionCard:
    """An optional Companion: when it acts (``hook``), how often, and what it does."""

    index: int
    id: str
    name: str
    hook: str
    text: str
    effect: int  # op-list id, or -1
    uses_per_game: int  # 0: unlimited
    per_turn: int  # 0: unlimited
    fancy_dealt: int  # setup_fancy only
    fancy_kept: int
    provenance: Provenance


@dataclass(frozen=True, slots=True)
class Achievement:
    """A solo achievement: a goal measure that must reach ``at_least``, and its Reputation."""

    index: int
    id: str
    name: str
    text: str
    measure: str
    arg: int
    at_least: int
    rep: int
    provenance: Provenance


@dataclass(frozen=True, slots=True)
class Op:
    """One effect primitive: its name and parameters (sub-lists are op-list ids)."""

    name: str
    params: Mapping[str, Any]


@dataclass(slots=True)
class Catalog:
    artisans: list[ArtisanCard] = field(default_factory=list)
    shops: list[ShopCard] = field(default_factory=list)
    enchantments: list[EnchantmentCard] = field(default_factory=list)
    fancies: list[FancyCard] = field(default_factory=list)
    op_lists: list[tuple[Op, ...]] = field(default_factory=list)
    op_list_keys: list[str] = field(default_factory=list)
    fire_ups: tuple[int, ...] = ()  # op-list id per Artisan type
    artisan_types: tuple[int, ...] = ()  # fast lookup: type of artisan index
    artisan_by_id: dict[str, int] = field(default_factory=dict)
    shop_by_id: dict[str, int] = field(default_factory=dict)
    enchantment_by_id: dict[str, int] = field(default_factory=dict)
    fancy_by_id: dict[str, int] = field(default_factory=dict)
    companions: list[CompanionCard] = field(default_factory=list)
    companion_by_id: dict[str, int] = field(default_factory=dict)
    achievements: list[Achievement] = field(default_factory=list)
    # The catalog indices of each kind in the order a seed deals them (``deal_order.toml``).
    deal_shops: tuple[int, ...] = ()
    deal_artisans: tuple[int, ...] = ()
    deal_enchantments: tuple[int, ...] = ()
    deal_fancies: tuple[int, ...] = ()
    deal_companions: tuple[int, ...] = ()
    ratings: tuple[tuple[int, str], ...] = ()  # (lowest final Reputation, title), ascending
    rating_note: str = ""  # how the rating table was fitted


class _Reader:
    """Validates one card table, naming file, card and field in every error."""

    def __init__(self, file: str, card: str, table: Mapping[str, Any]):
        self.file, self.card, self.table = file, card, table

    def fail(self, field_name: str, message: str) -> CardDataError:
        return CardDataError(self.file, self.card, field_name, message)

    def get(self, name: str, kind: type, default: Any = None, required: bool = True) -> Any:
        if name not in self.table:
            if required and default is None:
                raise self.fail(name, "is missing")
            return default
        value = self.table[name]
        if (kind is int and isinstance(value, bool)) or not isinstance(value, kind):
            raise self.fail(name, f"must be a {kind.__name__}, not {type(value).__name__}")
        return value

    def good(self, name: str, value: Any) -> int:
        if value not in GOOD_BY_KEY:
            raise self.fail(name, f"unknown Good {value!r} (expected one of {list(GOOD_BY_KEY)})")
        return GOOD_BY_KEY[value]

    def goods_map(self, name: str, value: Any, allow_coin: bool = False) -> tuple[list[int], int]:
        if not isinstance(value, dict):
            raise self.fail(name, "must be a table of Goods to counts")
        counts, coins = [0] * NUM_GOODS, 0
        for key, count in value.items():
            if isinstance(count, bool) or not isinstance(count, int) or count < 0:
                raise self.fail(f"{name}.{key}", "must be a whole number ≥ 0")
            if allow_coin and key == "COIN":
                coins = count
            else:
                counts[self.good(f"{name}.{key}", key)] = count
        return counts, coins

    def reward(self, name: str, value: Any, extra: tuple[str, ...] = ()) -> Reward:
        if not isinstance(value, dict):
            raise self.fail(name, "must be a table")
        for key, count in value.items():
            if key in extra:
                continue
            if key not in REWARD_KEYS:
                raise self.fail(f"{name}.{key}", f"unknown reward (expected {REWARD_KEYS})")
            if isinstance(count, bool) or not isinstance(count, int) or count < 0:
                raise self.fail(f"{name}.{key}", "must be a whole number ≥ 0")
        return Reward(**{k: v for k, v in value.items() if k in REWARD_KEYS})

    def provenance(self) -> Provenance:
        level = self.get("provenance", str)
        if level not in PROVENANCES:
            raise self.fail("provenance", f"must be one of {PROVENANCES}, not {level!r}")
        parts = self.get("designed_parts", list, default=[], required=False)
        if any(not isinstance(p, str) or not p.strip() for p in parts):
            raise self.fail("designed_parts", "must list the designed parts as non-empty texts")
        reason = self.get("reason", str, default="", required=False)
        if (level == "designed" or parts) and not reason.strip():
            raise self.fail("reason", "a designed card or part needs a one-line reason")
        balance = self.get("balance", str, default="", required=False)
        if balance and level != "designed" and not parts:
            raise self.fail("balance", "only designed cards or parts are changed for balance")
        return Provenance(level, reason, tuple(str(p) for p in parts),
                          self.get("note", str, default="", required=False), balance)


def _cards(file: str, data: Mapping[str, Any], key: str) -> list[tuple[_Reader, str]]:
    tables = data.get(key)
    if not isinstance(tables, list) or not tables:
        raise CardDataError(file, "-", key, f"expected a list of [[{key}]] tables")
    seen: set[str] = set()
    readers = []
    for number, table in enumerate(tables, 1):
        card = str(table.get("id", f"#{number}"))
        reader = _Reader(file, card, table)
        card_id = reader.get("id", str)
        if not _SLUG.match(card_id):
            raise reader.fail("id", "must be a lower-case slug like 'fogo-de-char'")
        if card_id in seen:
            raise reader.fail("id", "is used twice")
        seen.add(card_id)
        reader.get("name", str)
        readers.append((reader, card_id))
    return readers


# Parameters an op cannot do without: a list means "exactly one of these".
OP_REQUIRED: Final[dict[str, tuple[str | tuple[str, ...], ...]]] = {
    "trade": (("give", "give_any", "give_same", "give_coins"), "then"),
    "if": ("cond",),
    "return_up_to": ("max",),
    "gift": ("max",),
}
# Parameters limited to one value because the engine supports no other yet.
OP_ONLY: Final = {("artisan_look", "keep"): 1}


def _check_required(reader: _Reader, where: str, name: str, params: dict[str, Any]) -> None:
    for need in OP_REQUIRED.get(name, ()):
        if isinstance(need, tuple):
            given = [p for p in need if p in params]
            if len(given) != 1:
                raise reader.fail(where, f"'{name}' needs exactly one of {need}, not {given}")
        elif need not in params:
            raise reader.fail(f"{where}.{need}", f"'{name}' needs '{need}'")
    for (op, param), only in OP_ONLY.items():
        if op == name and params.get(param, only) != only:
            raise reader.fail(f"{where}.{param}", f"only {only} is supported")


class _OpCompiler:
    def __init__(self, catalog: Catalog):
        self.catalog = catalog

    def compile(self, reader: _Reader, field_name: str, value: Any, key: str) -> int:
        if not isinstance(value, list):
            raise reader.fail(field_name, "must be a list of effect primitives")
        ops = []
        for position, raw in enumerate(value):
            where = f"{field_name}[{position}]"
            if not isinstance(raw, dict) or "op" not in raw:
                raise reader.fail(where, "must be a table with an 'op' key")
            name = raw["op"]
            if name not in OP_SCHEMA:
                raise reader.fail(f"{where}.op", f"unknown primitive {name!r}")
            schema = OP_SCHEMA[name]
            params: dict[str, Any] = {}
            for param, arg in raw.items():
                if param == "op":
                    continue
                if param not in schema:
                    raise reader.fail(f"{where}.{param}", f"'{name}' takes no parameter {param!r}")
                params[param] = self._param(reader, f"{where}.{param}", schema[param], arg,
                                            f"{key}.{position}.{param}", (name, param))
            _check_required(reader, where, name, params)
            ops.append(Op(name, params))
        self.catalog.op_lists.append(tuple(ops))
        self.catalog.op_list_keys.append(key)
        return len(self.catalog.op_lists) - 1

    def _param(self, reader: _Reader, where: str, kind: str, arg: Any, key: str,
               op_param: tuple[str, str]) -> Any:
        if kind == "int":
            if isinstance(arg, bool) or not isinstance(arg, int) or arg < 0:
                raise reader.fail(where, "must be a whole number ≥ 0")
            return arg
        if kind == "bool":
            if not isinstance(arg, bool):
                raise reader.fail(where, "must be true or false")
            return arg
        if kind == "str":
            choices = OP_STR_CHOICES.get(op_param, ())
            if not isinstance(arg, str) or (choices and arg not in choices):
                raise reader.fail(where, f"must be one of {choices}")
            return arg
        if kind == "goods":
            return tuple(reader.goods_map(where, arg)[0])
        if kind == "goodlist":
            if not isinstance(arg, list):
                raise reader.fail(where, "must be a list of Goods")
            return tuple(reader.good(where, g) for g in arg)
        if kind == "reward":
            return reader.reward(where, arg)
        if kind == "ops":
            return self.compile(reader, where, arg, key)
        raise AssertionError(kind)


DATA_ENV: Final = "FLAMECRAFT_DATA"


def _load_toml(name: str, folder: str = "") -> tuple[str, dict[str, Any]]:
    """One data file, parsed: from ``folder`` if given, else the package's ``data/``."""
    file = str(Path(folder) / name) if folder else f"data/{name}"
    try:
        if folder:
            text = Path(file).read_text(encoding="utf-8")
        else:
            text = resources.files("flamecraft").joinpath(file).read_text(encoding="utf-8")
    except (FileNotFoundError, NotADirectoryError) as exc:
        raise CardDataError(file, "-", "-", "file not found") from exc
    try:
        return file, tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise CardDataError(file, "-", "-", f"not valid TOML: {exc}") from exc


def _add_artisans(catalog: Catalog, file: str, data: Mapping[str, Any]) -> None:
    """The Artisan Dragons: name, type, starter."""
    for reader, card_id in _cards(file, data, "artisan"):
        card = ArtisanCard(len(catalog.artisans), card_id, reader.get("name", str),
                           reader.good("type", reader.get("type", str)),
                           reader.get("starter", bool, default=False, required=False),
                           reader.provenance())
        catalog.artisans.append(card)
    catalog.artisan_by_id = {a.id: a.index for a in catalog.artisans}
    catalog.artisan_types = tuple(a.type for a in catalog.artisans)


def _add_fire_ups(catalog: Catalog, file: str, data: Mapping[str, Any],
                  compiler: _OpCompiler) -> None:
    """The six fire-up abilities, one op list per Artisan type."""
    fire = data.get("fire_up")
    if not isinstance(fire, dict):
        raise CardDataError(file, "-", "fire_up", "expected a [fire_up] table")
    reader = _Reader(file, "fire_up", fire)
    ids = []
    for key in ("BREAD", "MEAT", "IRON", "POTION", "CRYSTAL", "PLANT"):
        ids.append(compiler.compile(reader, key, reader.get(key, list), f"fire_up.{key}"))
    catalog.fire_ups = tuple(ids)


def _add_shops(catalog: Catalog, file: str, data: Mapping[str, Any], compiler: _OpCompiler) -> None:
    """The Shops: icon, three slots with their rewards, ability."""
    for reader, card_id in _cards(file, data, "shop"):
        icon_key = reader.get("icon", str)
        if icon_key not in SHOP_ICONS:
            raise reader.fail("icon", f"must be one of {SHOP_ICONS}")
        raw_slots = reader.get("slots", list)
        if len(raw_slots) != 3:
            raise reader.fail("slots", "a Shop has exactly 3 slots")
        slots = []
        for position, raw in enumerate(raw_slots):
            where = f"slots[{position}]"
            if not isinstance(raw, dict) or "accepts" not in raw or "reward" not in raw:
                raise reader.fail(where, "needs 'accepts' and 'reward'")
            accepts = raw["accepts"]
            if accepts == ["ANY"]:
                icons: tuple[int, ...] = (ANY_SLOT,)
            elif isinstance(accepts, list) and accepts:
                icons = tuple(reader.good(f"{where}.accepts", g) for g in accepts)
            else:
                raise reader.fail(f"{where}.accepts", "must be a list of Goods or [\"ANY\"]")
            slots.append(Slot(icons, reader.reward(f"{where}.reward", raw["reward"])))
        starter = reader.get("starter", bool, default=False, required=False)
        starter_dragon = reader.get("starter_dragon", str, default="", required=starter)
        if starter and starter_dragon not in catalog.artisan_by_id:
            raise reader.fail("starter_dragon", f"unknown Artisan Dragon {starter_dragon!r}")
        ability = -1
        if "ability" in reader.table:
            ability = compiler.compile(reader, "ability", reader.table["ability"],
                                       f"shop.{card_id}")
            reader.get("ability_name", str)
            reader.get("ability_text", str)
        elif not starter:
            raise reader.fail("ability", "every non-starter Shop has an ability")
        catalog.shops.append(ShopCard(
            len(catalog.shops), card_id, reader.get("name", str), SHOP_ICONS.index(icon_key),
            reader.get("icon_amount", int, default=1, required=False), starter, starter_dragon,
            (slots[0], slots[1], slots[2]),
            reader.get("ability_name", str, default="", required=False),
            reader.get("ability_text", str, default="", required=False), ability,
            reader.provenance()))
    catalog.shop_by_id = {s.id: s.index for s in catalog.shops}


def _add_enchantments(catalog: Catalog, file: str, data: Mapping[str, Any]) -> None:
    """The Enchantments of both decks: cost, reward, set costs."""
    for reader, card_id in _cards(file, data, "enchantment"):
        deck = reader.get("deck", str)
        if deck not in DECKS:
            raise reader.fail("deck", f"must be one of {DECKS}")
        variable = "set_cost" in reader.table
        if variable == ("cost" in reader.table):
            raise reader.fail("cost", "give exactly one of 'cost' or 'set_cost'")
        cost_field = "set_cost" if variable else "cost"
        cost, coins = reader.goods_map(cost_field, reader.table[cost_field], allow_coin=True)
        rep_by_sets: tuple[int, ...] = ()
        if variable:
            raw = reader.get("rep_by_sets", list)
            if len(raw) < 2 or not all(isinstance(r, int) and r >= 0 for r in raw):
                raise reader.fail("rep_by_sets", "needs Reputation for 1, 2, … sets")
            rep_by_sets = tuple(raw)
        reward = reader.reward("reward", reader.get("reward", dict, default={}, required=False))
        if not variable and reward.is_empty():
            raise reader.fail("reward", "a fixed Enchantment needs a reward")
        catalog.enchantments.append(EnchantmentCard(
            len(catalog.enchantments), card_id, reader.get("name", str), DECKS.index(deck),
            reader.good("icon", reader.get("icon", str)), tuple(cost), coins, variable,
            rep_by_sets, reader.get("no_coins", bool, default=False, required=False), reward,
            reader.provenance()))
    catalog.enchantment_by_id = {e.id: e.index for e in catalog.enchantments}


def _add_fancies(catalog: Catalog, file: str, data: Mapping[str, Any]) -> None:
    """The Fancy Dragons: Sun or Moon, goal, reward."""
    for reader, card_id in _cards(file, data, "fancy"):
        kind = reader.get("kind", str)
        if kind not in ("SUN", "MOON"):
            raise reader.fail("kind", "must be SUN or MOON")
        raw_goal = reader.get("goal", dict)
        goal_reader = _Reader(file, card_id, raw_goal)
        spend = None
        measure, arg = "", 0
        if "spend" in raw_goal:
            spend = tuple(goal_reader.goods_map("goal.spend", raw_goal["spend"])[0])
        else:
            measure = goal_reader.get("measure", str)
            if measure not in MEASURES:
                raise reader.fail("goal.measure", f"unknown measure {measure!r}")
            arg = goal_reader.get("arg", int, default=0, required=False)
        raw_reward = reader.get("reward", dict)
        reward = reader.reward("reward", raw_reward, extra=("rep_per", "max", "rep_table"))
        table = raw_reward.get("rep_table", {})
        rep_table = tuple(sorted((int(k), int(v)) for k, v in table.items()))
        goal = Goal(spend, measure, arg, raw_goal.get("at_least"), raw_goal.get("at_most"),
                    raw_goal.get("beyond", 0), raw_goal.get("unit", 1))
        per_item = "rep_per" in raw_reward or bool(rep_table)
        if spend is None and not per_item and goal.at_least is None and goal.at_most is None:
            raise reader.fail("goal", "a fixed goal needs at_least or at_most")
        if goal.unit < 1:
            raise reader.fail("goal.unit", "must be at least 1")
        end_only = reader.get("end_only", bool, default=False, required=False)
        catalog.fancies.append(FancyCard(
            len(catalog.fancies), card_id, reader.get("name", str), kind == "SUN",
            reader.get("text", str), goal, reward, int(raw_reward.get("rep_per", 0)),
            int(raw_reward.get("max", 999)), rep_table, end_only, reader.provenance()))
    catalog.fancy_by_id = {f.id: f.index for f in catalog.fancies}


def _add_companions(catalog: Catalog, file: str, data: Mapping[str, Any],
                    compiler: _OpCompiler) -> None:
    """The Companions: hook, effect, use limits."""
    for reader, card_id in _cards(file, data, "companion"):
        hook = reader.get("hook", str)
        if hook not in COMPANION_HOOKS:
            raise reader.fail("hook", f"must be one of {COMPANION_HOOKS}")
        effect = -1
        if "effect" in reader.table:
            effect = compiler.compile(reader, "effect", reader.table["effect"],
                                      f"companion.{card_id}")
        elif hook not in ("gather_fire_all", "setup_fancy"):
            raise reader.fail("effect", f"a '{hook}' Companion needs an effect")
        dealt = reader.get("fancy_dealt", int, default=2, required=False)
        kept = reader.get("fancy_kept", int, default=1, required=False)
        if not 1 <= kept < dealt:
            raise reader.fail("fancy_kept", "must be at least 1 and less than fancy_dealt")
        catalog.companions.append(CompanionCard(
            len(catalog.companions), card_id, reader.get("name", str), hook,
            reader.get("text", str), effect,
            reader.get("uses_per_game", int, default=0, required=False),
            reader.get("per_turn", int, default=0, required=False), dealt, kept,
            reader.provenance()))
    catalog.companion_by_id = {c.id: c.index for c in catalog.companions}


def _add_solo(catalog: Catalog, file: str, data: Mapping[str, Any]) -> None:
    """The solo achievements and the rating table."""
    for reader, card_id in _cards(file, data, "achievement"):
        raw = reader.get("requirement", dict)
        need = _Reader(file, card_id, raw)
        measure = need.get("measure", str)
        if measure not in MEASURES:
            raise reader.fail("requirement.measure", f"unknown measure {measure!r}")
        catalog.achievements.append(Achievement(
            len(catalog.achievements), card_id, reader.get("name", str), reader.get("text", str),
            measure, need.get("arg", int, default=0, required=False), need.get("at_least", int),
            reader.get("rep", int), reader.provenance()))
    ratings = data.get("rating")
    if not isinstance(ratings, list) or not ratings:
        raise CardDataError(file, "-", "rating", "expected a list of [[rating]] tables")
    table = []
    for number, raw in enumerate(ratings, 1):
        reader = _Reader(file, f"rating #{number}", raw)
        table.append((reader.get("min", int, default=0, required=False),
                      reader.get("title", str)))
    if [t[0] for t in table] != sorted({t[0] for t in table}):
        raise CardDataError(file, "rating", "min", "ratings must rise strictly")
    catalog.ratings = tuple(table)
    note = data.get("rating_note", "")
    if not isinstance(note, str):
        raise CardDataError(file, "-", "rating_note", "must be a string")
    catalog.rating_note = note


def build_catalog(files: Mapping[str, tuple[str, Mapping[str, Any]]]) -> Catalog:
    """Builds and validates a catalog from parsed TOML documents (file name, data)."""
    catalog = Catalog()
    compiler = _OpCompiler(catalog)
    _add_artisans(catalog, *files["artisans"])
    _add_fire_ups(catalog, *files["fire_ups"], compiler)
    _add_shops(catalog, *files["shops"], compiler)
    _add_enchantments(catalog, *files["enchantments"])
    _add_fancies(catalog, *files["fancy"])
    _add_companions(catalog, *files["companions"], compiler)
    _add_solo(catalog, *files["solo"])
    _deal_order(catalog, *files["deal_order"])
    return catalog


DEAL_KINDS: Final = ("shops", "artisans", "enchantments", "fancy", "companions")


def _deal_order(catalog: Catalog, file: str, data: Mapping[str, Any]) -> None:
    """The order a seed deals each kind of card in: the ids ``deal_order.toml`` lists (the
    order of the card files when records carried no deal), then any card it does not list, in
    the order of the ids; a listed id that is no longer a card is skipped. So the deal of a
    seed never depends on the order of the card files."""
    unknown = sorted(set(data) - set(DEAL_KINDS))
    if unknown:
        raise CardDataError(file, "-", unknown[0], f"unknown kind (expected {DEAL_KINDS})")
    kinds: tuple[Any, ...] = (catalog.shops, catalog.artisans, catalog.enchantments,
                              catalog.fancies, catalog.companions)
    orders = []
    for key, cards in zip(DEAL_KINDS, kinds, strict=True):
        listed = data.get(key, [])
        if not isinstance(listed, list) or not all(isinstance(i, str) for i in listed):
            raise CardDataError(file, "-", key, "must be a list of card ids")
        if len(set(listed)) != len(listed):
            twice = next(i for i in listed if listed.count(i) > 1)
            raise CardDataError(file, "-", key, f"lists {twice!r} twice")
        rank = {card_id: k for k, card_id in enumerate(listed)}
        ordered = sorted(cards, key=lambda c: (0, rank[c.id], "") if c.id in rank
                         else (1, 0, c.id))
        orders.append(tuple(c.index for c in ordered))
    (catalog.deal_shops, catalog.deal_artisans, catalog.deal_enchantments,
     catalog.deal_fancies, catalog.deal_companions) = orders


DATA_FILES: Final = {
    "artisans": "artisans.toml",
    "fire_ups": "fire_ups.toml",
    "shops": "shops.toml",
    "enchantments": "enchantments.toml",
    "fancy": "fancy.toml",
    "companions": "companions.toml",
    "solo": "solo.toml",
    "deal_order": "deal_order.toml",
}


@cache
def load_catalog() -> Catalog:
    """The card catalog (loaded once, shared by every game): the package's data files, or
    those of the folder ``FLAMECRAFT_DATA`` names."""
    folder = os.environ.get(DATA_ENV, "")
    return build_catalog({key: _load_toml(name, folder) for key, name in DATA_FILES.items()})
