"""The canonical JSON forms of a state and of a game record (documented in
``docs/state-format.md``). Cards are written by id and the pending-decision stack by named
fields, and a record carries its deal by card ids, so a saved game reads clearly and survives
reordering of the card files. ``load_state(dump_state(s)) == s`` for every reachable state,
and ``load_record(dump_record(r)) == r`` for every record. Frames are written as their
kinds are declared (``kinds.FrameKind``, in ``frames.py``): a new kind needs nothing here.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from typing import Any, Final

from . import frames as F
from . import kinds as K
from .actions import Action, action_text, normalize
from .board import CATALOG
from .cards import Catalog
from .errors import FlamecraftError, StateFormatError
from .errors import action_error as action_error  # re-exported: where a record's error is
from .goods import GOOD_BY_KEY, GOOD_KEYS
from .invariants import problems
from .kinds import FRAME_KINDS, frame_named
from .setup_game import Deal, GameStart, check_start, seeded_start, started_game
from .state import (
    COUNTER_NAMES,
    EMPTY,
    NUM_COUNTERS,
    NUM_SOURCES,
    RULES,
    SOURCE_NAMES,
    GameState,
    Options,
)
from .tr import N_
from .variant import variant_of, variant_to_json

STATE_FORMAT: Final = "flamecraft-state"
RECORD_FORMAT: Final = "flamecraft-record"
STATE_VERSION: Final = 3
RECORD_VERSION: Final = 4
# The versions still read: before state 3 and record 2 the first seat always played first;
# before record 3 a record carried no deal (its seed deals it, over ``deal_order.toml``);
# before record 4 its actions were chosen under the decision points before ruling 20's
# (``upgrade.py`` reads them as today's engine asks them).
STATE_VERSIONS_READ: Final = (2, 3)
RECORD_VERSIONS_READ: Final = (1, 2, 3, 4)

_ARTISANS: Final = [a.id for a in CATALOG.artisans]
_SHOPS: Final = [s.id for s in CATALOG.shops]
_ENCH: Final = [e.id for e in CATALOG.enchantments]
_FANCY: Final = [f.id for f in CATALOG.fancies]
_COMPANIONS: Final = [c.id for c in CATALOG.companions]
_ACHIEVEMENTS: Final = [a.id for a in CATALOG.achievements]
_LISTS: Final = CATALOG.op_list_keys
_PLACES: Final = {F.NOWHERE: "nowhere", F.IN_HAND: "hand", F.IN_PARK: "park"}

def _opt_id(table: list[str], index: int) -> str | None:
    return None if index == EMPTY else table[index]


def _frame_to_json(f: tuple[int, ...]) -> dict[str, Any]:
    """A frame as its kind's declaration names it (``frames.py``): ``frame``, then each field
    by name, cards by id."""
    kind = FRAME_KINDS[f[0]]
    out: dict[str, Any] = {"frame": kind.name}
    at = 1
    for fld in kind.fields:
        key, t = fld.name, fld.type
        if t == K.FANCY_LIST:
            out[key] = [_FANCY[v] for v in f[at:]]
            break
        v = f[at]
        at += fld.width
        if t == K.EFFECT:
            out[key] = None if v < 0 else [_LISTS[v], f[at - 1]]
        elif t == K.HERE:
            out[key] = _PLACES.get(v) or _SHOPS[v]
        elif t == K.SCOPE:
            out[key] = "anywhere" if v < 0 else _SHOPS[v]
        elif t == K.ARTISAN:
            out[key] = _opt_id(_ARTISANS, v)
        elif t == K.ENCHANTMENT:
            out[key] = _ENCH[v]
        elif t == K.COMPANION:
            out[key] = _COMPANIONS[v]
        elif t == K.GOOD:
            out[key] = GOOD_KEYS[v]
        else:  # SEAT, INT
            out[key] = v
    return out


# The kinds of card or part a saved file names (msgids: an error says which is unknown).
CARD_KINDS: Final = (N_("Fancy Dragon"), N_("effect"), N_("Shop"), N_("Artisan Dragon"),
                     N_("Artisan"), N_("Enchantment"), N_("Companion"), N_("Good"),
                     N_("achievement"))


def _bad(msgid: str, **params: object) -> StateFormatError:
    """The error ``msgid`` (a marked English template) with its values as text, which
    ``errors.error_text`` says in the reader's language; ``str()`` is the English."""
    return StateFormatError(msgid, {k: str(v) for k, v in params.items()})


def json_error(exc: json.JSONDecodeError) -> StateFormatError:
    """'not valid JSON: …', worded as ``str(exc)`` words it, with json's reason kept apart
    (a msgid too when json has one of its usual reasons)."""
    return _bad(N_("not valid JSON: {json_problem}: line {line} column {column} (char {char})"),
                json_problem=exc.msg, line=exc.lineno, column=exc.colno, char=exc.pos)


# json's own reasons, so that a Japanese reader sees them in Japanese.
JSON_PROBLEMS: Final = (
    N_("Expecting value"), N_("Expecting ',' delimiter"), N_("Expecting ':' delimiter"),
    N_("Expecting property name enclosed in double quotes"), N_("Extra data"),
    N_("Unterminated string starting at"), N_("Invalid \\uXXXX escape"),
)


def _index(table: list[str], value: Any, what: str) -> int:
    try:
        return table.index(value)
    except ValueError:
        raise _bad(N_("unknown {card_kind} {value}"), card_kind=what, value=repr(value)) from None


def _frame_from_json(obj: Any) -> tuple[int, ...]:
    name = obj.get("frame") if isinstance(obj, dict) else None
    kind = frame_named(name) if isinstance(name, str) else None
    if kind is None:
        raise _bad(N_("malformed stack frame {frame}"), frame=repr(obj))
    values: list[int] = [kind.code]
    for fld in kind.fields:
        key, t = fld.name, fld.type
        if t == K.FANCY_LIST:
            values.extend(_index(_FANCY, v, "Fancy Dragon") for v in obj.get(key, []))
            break
        if key not in obj:
            raise _bad(N_("stack frame {frame} lacks {field}"), frame=repr(obj["frame"]),
                       field=repr(key))
        v = obj[key]
        if t == K.EFFECT:
            if v is None:
                values.extend((-1, -1))
            else:
                values.extend((_index(_LISTS, v[0], "effect"), int(v[1])))
        elif t == K.HERE:
            places = {name: code for code, name in _PLACES.items()}
            values.append(places[v] if v in places else _index(_SHOPS, v, "Shop"))
        elif t == K.SCOPE:
            values.append(-1 if v == "anywhere" else _index(_SHOPS, v, "Shop"))
        elif t == K.ARTISAN:
            values.append(EMPTY if v is None else _index(_ARTISANS, v, "Artisan Dragon"))
        elif t == K.ENCHANTMENT:
            values.append(_index(_ENCH, v, "Enchantment"))
        elif t == K.COMPANION:
            values.append(_index(_COMPANIONS, v, "Companion"))
        elif t == K.GOOD:
            values.append(_index(list(GOOD_KEYS), v, "Good"))
        elif isinstance(v, int) and not isinstance(v, bool):
            values.append(v)
        else:
            raise _bad(N_("stack frame field {field} must be a whole number"), field=repr(key))
    return tuple(values)


def options_to_json(options: Options) -> dict[str, Any]:
    """The options as JSON; a research variant's parameters only when there is one, so a
    normal game's options (and saves) are written exactly as before variants existed."""
    out: dict[str, Any] = {"players": options.players, "deck": options.deck,
                           "names": list(options.names), "companions": options.companions,
                           "first_player": options.first_player}
    if options.variant != RULES:
        out["variant"] = variant_to_json(options.variant)
    return out


def options_from_json(obj: Any) -> Options:
    """Options from JSON; a missing ``first_player`` is seat 0, as every game written before
    the first player was drawn began there (``null`` means drawn from the seed)."""
    if not isinstance(obj, dict):
        raise StateFormatError(N_("'options' must be an object"))
    first = obj.get("first_player", 0)
    if first is not None and (not isinstance(first, int) or isinstance(first, bool)):
        raise StateFormatError(N_("'first_player' must be a seat number or null"))
    variant = RULES
    if "variant" in obj:  # a research variant (absent from every normal game's options)
        if not isinstance(obj["variant"], dict):
            raise StateFormatError(N_("'variant' must be an object"))
        try:
            variant = variant_of(obj["variant"])
        except FlamecraftError as exc:
            raise StateFormatError(exc.msgid, exc.params) from None
    try:
        options = Options(int(obj["players"]), str(obj.get("deck", "purple")),
                          tuple(str(n) for n in obj.get("names", [])),
                          bool(obj.get("companions", False)), first, variant)
    except (KeyError, TypeError, ValueError) as exc:
        raise _bad(N_("malformed options: {error}"), error=exc) from None
    if first is not None and not 0 <= first < options.players:
        raise _bad(N_("'first_player' must be a seat from 0 to {last} or null, not {first}"),
                   last=options.players - 1, first=first)
    return options


def state_to_json(s: GameState) -> dict[str, Any]:
    """The canonical JSON object of a state."""
    players = []
    for p in range(s.n):
        c = s.counters[p]
        counters: dict[str, Any] = dict(zip(COUNTER_NAMES, c, strict=True))
        counters["shops_visited"] = [_SHOPS[i] for i in range(len(_SHOPS)) if c[6] >> i & 1]
        counters["cast_icons"] = [GOOD_KEYS[g] for g in range(6) if c[7] >> g & 1]
        del counters["visited_mask"], counters["cast_icons_mask"]
        players.append({
            "goods": dict(zip(GOOD_KEYS, s.goods[p], strict=True)),
            "coins": s.coins[p],
            "reputation": s.rep[p],
            "reputation_sources": dict(zip(SOURCE_NAMES, s.rep_sources[p], strict=True)),
            "hand": [_ARTISANS[a] for a in s.hand[p]],
            "fancy": [_FANCY[f] for f in s.fancy[p]],
            "scored": [_FANCY[f] for f in s.scored[p]],
            "reserved": _opt_id(_ENCH, s.reserved[p]),
            "position": _opt_id(_SHOPS, s.pos[p]),
            "counters": counters,
            "companion": _opt_id(_COMPANIONS, s.companion[p]),
            "companion_uses": s.companion_uses[p],
            "companion_uses_this_turn": s.companion_turn[p],
            "achievements": [_ACHIEVEMENTS[a] for a in s.achievements[p]],
        })
    return {
        "format": STATE_FORMAT,
        "version": STATE_VERSION,
        "options": options_to_json(s.options),
        "rng": f"{s.rng:016x}",
        "town": [_opt_id(_SHOPS, t) for t in s.town],
        "face_down": [_SHOPS[t] for t in s.facedown],
        "slots": {_SHOPS[shop]: [_opt_id(_ARTISANS, a) for a in s.slots[shop * 3:shop * 3 + 3]]
                  for shop in range(len(_SHOPS)) if any(
                      a != EMPTY for a in s.slots[shop * 3:shop * 3 + 3])},
        "shop_enchantments": {_SHOPS[shop]: [_ENCH[e] for e in tucked]
                              for shop, tucked in enumerate(s.shop_ench) if tucked},
        "shop_deck": [_SHOPS[t] for t in s.shop_deck],
        "shops_unused": [_SHOPS[t] for t in s.shops_unused],
        "artisan_deck": [_ARTISANS[a] for a in s.artisan_deck],
        "artisans_removed": [_ARTISANS[a] for a in s.removed],
        "park": [_ARTISANS[a] for a in s.park],
        "fancy_deck": [_FANCY[f] for f in s.fancy_deck],
        "enchantment_deck": [_ENCH[e] for e in s.ench_deck],
        "enchantment_row": [_ENCH[e] for e in s.ench_row],
        "enchantments_removed": [_ENCH[e] for e in s.ench_removed],
        "companion_offer": [_COMPANIONS[c] for c in s.companion_offer],
        "companion_box": [_COMPANIONS[c] for c in s.companion_box],
        "players": players,
        "first_player": s.first_player,
        "current": s.current,
        "turn": s.turn,
        "fired": [_ARTISANS[a] for a in range(len(_ARTISANS)) if s.fired >> a & 1],
        "end_triggered": s.end_triggered,
        "final_turns": s.final_turns,
        "over": s.over,
        "stack": [_frame_to_json(f) for f in s.stack],
    }


def _ids(table: list[str], values: Any, what: str) -> list[int]:
    if not isinstance(values, list):
        raise _bad(N_("{card_kind} must be a list"), card_kind=what)
    return [_index(table, v, what) for v in values]


def _check_version(obj: Any, fmt: str, versions: tuple[int, ...]) -> None:
    if not isinstance(obj, dict):
        raise _bad(N_("not a {format} file: expected a JSON object"), format=fmt)
    if obj.get("format") != fmt:
        raise _bad(N_("not a {format} file (format is {found})"), format=fmt,
                   found=repr(obj.get("format")))
    if obj.get("version") not in versions:
        found = repr(obj.get("version"))
        if len(versions) == 2:
            raise _bad(N_("unsupported {format} version {found} (this program reads versions "
                          "{low} and {high})"), format=fmt, found=found, low=versions[0],
                       high=versions[1])
        raise _bad(N_("unsupported {format} version {found} (this program reads versions "
                      "{low} to {high})"), format=fmt, found=found, low=versions[0],
                   high=versions[-1])


def state_from_json(obj: Any) -> GameState:
    """A state from its JSON object; raises StateFormatError naming what is wrong."""
    _check_version(obj, STATE_FORMAT, STATE_VERSIONS_READ)
    try:
        s = GameState.__new__(GameState)
        s.options = options_from_json(obj["options"])
        s.n = s.options.players
        s.rng = int(obj["rng"], 16)
        s.town = [EMPTY if t is None else _index(_SHOPS, t, "Shop") for t in obj["town"]]
        s.facedown = _ids(_SHOPS, obj["face_down"], "Shop")
        s.slots = [EMPTY] * (3 * len(_SHOPS))
        for shop_id, dragons in obj["slots"].items():
            shop = _index(_SHOPS, shop_id, "Shop")
            if len(dragons) != 3:
                raise _bad(N_("Shop {shop} must list 3 slots"), shop=repr(shop_id))
            for k, d in enumerate(dragons):
                s.slots[shop * 3 + k] = EMPTY if d is None else _index(_ARTISANS, d, "Artisan")
        s.shop_ench = [()] * len(_SHOPS)
        for shop_id, tucked in obj["shop_enchantments"].items():
            s.shop_ench[_index(_SHOPS, shop_id, "Shop")] = tuple(_ids(_ENCH, tucked, "Enchantment"))
        s.shop_deck = _ids(_SHOPS, obj["shop_deck"], "Shop")
        s.shops_unused = _ids(_SHOPS, obj["shops_unused"], "Shop")
        s.artisan_deck = _ids(_ARTISANS, obj["artisan_deck"], "Artisan Dragon")
        s.removed = _ids(_ARTISANS, obj["artisans_removed"], "Artisan Dragon")
        s.park = _ids(_ARTISANS, obj["park"], "Artisan Dragon")
        s.fancy_deck = _ids(_FANCY, obj["fancy_deck"], "Fancy Dragon")
        s.ench_deck = _ids(_ENCH, obj["enchantment_deck"], "Enchantment")
        s.ench_row = _ids(_ENCH, obj["enchantment_row"], "Enchantment")
        s.ench_removed = _ids(_ENCH, obj["enchantments_removed"], "Enchantment")
        s.companion_offer = _ids(_COMPANIONS, obj["companion_offer"], "Companion")
        s.companion_box = _ids(_COMPANIONS, obj["companion_box"], "Companion")
        players = obj["players"]
        if not isinstance(players, list) or len(players) != s.n:
            raise _bad(N_("'players' must list {n} players"), n=s.n)
        s.goods, s.coins, s.rep, s.rep_sources = [], [], [], []
        s.hand, s.fancy, s.scored, s.reserved, s.pos, s.counters = [], [], [], [], [], []
        s.companion, s.companion_uses, s.companion_turn, s.achievements = [], [], [], []
        for pl in players:
            s.goods.append([int(pl["goods"][k]) for k in GOOD_KEYS])
            s.coins.append(int(pl["coins"]))
            s.rep.append(int(pl["reputation"]))
            s.rep_sources.append([int(pl["reputation_sources"][k]) for k in SOURCE_NAMES])
            s.hand.append(_ids(_ARTISANS, pl["hand"], "Artisan Dragon"))
            s.fancy.append(_ids(_FANCY, pl["fancy"], "Fancy Dragon"))
            s.scored.append(_ids(_FANCY, pl["scored"], "Fancy Dragon"))
            s.reserved.append(EMPTY if pl["reserved"] is None
                              else _index(_ENCH, pl["reserved"], "Enchantment"))
            s.pos.append(EMPTY if pl["position"] is None
                         else _index(_SHOPS, pl["position"], "Shop"))
            c = pl["counters"]
            counters = [0] * NUM_COUNTERS
            for i, name in enumerate(COUNTER_NAMES):
                if name == "visited_mask":
                    counters[i] = sum(1 << _index(_SHOPS, v, "Shop") for v in c["shops_visited"])
                elif name == "cast_icons_mask":
                    counters[i] = sum(1 << GOOD_BY_KEY[g] for g in c["cast_icons"])
                else:
                    counters[i] = int(c[name])
            s.counters.append(counters)
            s.companion.append(EMPTY if pl["companion"] is None
                               else _index(_COMPANIONS, pl["companion"], "Companion"))
            s.companion_uses.append(int(pl["companion_uses"]))
            s.companion_turn.append(int(pl["companion_uses_this_turn"]))
            s.achievements.append(_ids(_ACHIEVEMENTS, pl["achievements"], "achievement"))
        s.first_player = int(obj.get("first_player", 0))  # version 2: always seat 0
        if not 0 <= s.first_player < s.n:
            raise _bad(N_("'first_player' must be a seat from 0 to {last}"), last=s.n - 1)
        s.current = int(obj["current"])
        s.turn = int(obj["turn"])
        s.fired = sum(1 << a for a in _ids(_ARTISANS, obj["fired"], "Artisan Dragon"))
        s.end_triggered = bool(obj["end_triggered"])
        s.final_turns = int(obj["final_turns"])
        s.over = bool(obj["over"])
        s.stack = [_frame_from_json(f) for f in obj["stack"]]
        s.cache = None
    except StateFormatError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        raise _bad(N_("malformed state: {exception}: {error}"), exception=type(exc).__name__,
                   error=exc) from None
    if len(s.rep_sources[0]) != NUM_SOURCES:
        raise StateFormatError(N_("malformed reputation_sources"))
    found = problems(s)
    if found:
        raise _bad(N_("inconsistent state: {problems}"), problems="; ".join(found[:5]))
    return s


def _dumps(obj: object, pretty: bool) -> str:
    """Compact JSON (one line) unless ``pretty``. Compact is what machines read (the server,
    search, saves): ``json.dumps`` takes its C encoder only without ``indent``, several times
    faster than the pure-Python one that indenting needs. Pretty (one space per level) is for
    a person who asked to read it (``--pretty``, a terminal)."""
    if pretty:
        return json.dumps(obj, indent=1, ensure_ascii=False) + "\n"
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False) + "\n"


def dump_state(s: GameState, pretty: bool = False) -> str:
    """The state as JSON (``docs/state-format.md``): compact, or indented if ``pretty``."""
    return _dumps(state_to_json(s), pretty)


def load_state(text: str) -> GameState:
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise json_error(exc) from None
    return state_from_json(obj)


def start_to_json(start: GameStart) -> dict[str, Any]:
    """A game's start as a record writes it (``deal``): the piles by card id, top last."""
    d = start.deal
    return {"shop_deck": [_SHOPS[c] for c in d.shop_deck],
            "artisans_removed": [_ARTISANS[c] for c in d.removed],
            "artisan_deck": [_ARTISANS[c] for c in d.artisan_deck],
            "fancy_deck": [_FANCY[c] for c in d.fancy_deck],
            "enchantment_deck": [_ENCH[c] for c in d.ench_deck],
            "companion_offer": [_COMPANIONS[c] for c in d.companion_offer],
            "first_player": start.first_player, "rng": f"{start.rng:016x}"}


def start_from_json(obj: Any, options: Options) -> GameStart:
    """A record's ``deal``; a StateFormatError names an unknown card, a malformed field, or
    the first card that does not fit these cards and options (``setup_game.check_start``)."""
    if not isinstance(obj, dict):
        raise StateFormatError(N_("'deal' must be an object"))
    try:
        deal = Deal(tuple(_ids(_SHOPS, obj["shop_deck"], "Shop")),
                    tuple(_ids(_ARTISANS, obj["artisans_removed"], "Artisan Dragon")),
                    tuple(_ids(_ARTISANS, obj["artisan_deck"], "Artisan Dragon")),
                    tuple(_ids(_FANCY, obj["fancy_deck"], "Fancy Dragon")),
                    tuple(_ids(_ENCH, obj["enchantment_deck"], "Enchantment")),
                    tuple(_ids(_COMPANIONS, obj["companion_offer"], "Companion")))
        first, rng = obj["first_player"], obj["rng"]
        if not isinstance(first, int) or isinstance(first, bool):
            raise StateFormatError(N_("the deal's 'first_player' must be a seat number"))
        if not isinstance(rng, str) or len(rng) != 16:
            raise StateFormatError(N_("the deal's 'rng' must be 16 hexadecimal digits"))
        start = GameStart(deal, first, int(rng, 16))
    except KeyError as exc:
        raise _bad(N_("the deal lacks {field}"), field=repr(exc.args[0])) from None
    except ValueError:
        raise StateFormatError(N_("the deal's 'rng' must be 16 hexadecimal digits")) from None
    try:
        check_start(options, start)
    except FlamecraftError as exc:
        raise StateFormatError(exc.msgid, exc.params) from None
    return start


# The card names an action text can hold, by kind and card id (``actions.action_text``).
NAME_KINDS: Final = ("shops", "abilities", "artisans", "enchantments", "fancy", "companions")
Names = dict[str, dict[str, str]]


def card_names(catalog: Catalog = CATALOG) -> Names:
    """The names the action texts of these cards are written with, by kind and id."""
    return {"shops": {c.id: c.name for c in catalog.shops},
            "abilities": {c.id: c.ability_name for c in catalog.shops if c.ability_name},
            "artisans": {c.id: c.name for c in catalog.artisans},
            "enchantments": {c.id: c.name for c in catalog.enchantments},
            "fancy": {c.id: c.name for c in catalog.fancies},
            "companions": {c.id: c.name for c in catalog.companions}}


CARD_NAMES: Final = card_names()


def names_in(names: Names, actions: list[str]) -> Names:
    """The entries of ``names`` whose name occurs, as whole words, in one of the texts: all
    that reading them needs (a record writes these; kinds with none are left out)."""
    said = "\n".join(normalize(a) for a in actions)
    out: Names = {}
    for kind, table in names.items():
        found = {i: n for i, n in table.items()
                 if n and re.search(rf"(?<!\w){re.escape(normalize(n))}(?!\w)", said)}
        if found:
            out[kind] = found
    return out


def names_from_json(obj: Any) -> Names:
    if not isinstance(obj, dict) or not set(obj) <= set(NAME_KINDS) or not all(
            isinstance(table, dict) and all(isinstance(k, str) and isinstance(v, str)
                                            for k, v in table.items())
            for table in obj.values()):
        raise StateFormatError(N_("'names' must map each kind of card to names by card id"))
    return {kind: dict(table) for kind, table in obj.items()}


class TextReader:
    """Reads the action texts of a record written with the card names ``names``: a card
    renamed since (a corrected name, its id unchanged) is read by the name the record used,
    and a text matching no old name is read with the cards' names of now (``parse_action``:
    what a game continued since writes). A card the record does not name keeps its name,
    unless that is a name the record gives another card."""

    def __init__(self, names: Names):
        self.renamed = _renamed(names)

    def parse(self, s: GameState, typed: str) -> Action:
        from .engine import legal_actions, names, parse_action

        if self.renamed is not None:
            key, who = normalize(typed), names(s)
            for action in legal_actions(s):
                if normalize(action_text(action, self.renamed, who)) == key:
                    return action
        return parse_action(s, typed)


def _pick(names: Names, kind: str, card_id: str, now: str) -> str:
    """The name ``names`` gives a card; else its name of now, unless ``names`` gives that
    name to another card (then a name that matches no text)."""
    table = names.get(kind, {})
    if card_id in table:
        return table[card_id]
    return f"\0{card_id}" if now in table.values() else now


def _renamed(names: Names) -> Catalog | None:
    """The catalog for ``action_text`` with the cards named as ``names`` names them; None if
    that renames nothing."""
    shops = [replace(c, name=_pick(names, "shops", c.id, c.name),
                     ability_name=_pick(names, "abilities", c.id, c.ability_name))
             for c in CATALOG.shops]
    artisans = [replace(c, name=_pick(names, "artisans", c.id, c.name))
                for c in CATALOG.artisans]
    enchantments = [replace(c, name=_pick(names, "enchantments", c.id, c.name))
                    for c in CATALOG.enchantments]
    fancies = [replace(c, name=_pick(names, "fancy", c.id, c.name)) for c in CATALOG.fancies]
    companions = [replace(c, name=_pick(names, "companions", c.id, c.name))
                  for c in CATALOG.companions]
    renamed = Catalog(artisans=artisans, shops=shops, enchantments=enchantments,
                      fancies=fancies, companions=companions)
    return None if card_names(renamed) == CARD_NAMES else renamed


@dataclass
class GameRecord:
    """What replays a game: its options, its seed, its start (``deal``: the deal by card ids,
    the first player, the generator) and the actions chosen (as texts). A record made from
    a seed without a ``deal`` is dealt at once, from the seed (``setup_game.seeded_start``):
    every record carries the cards it was dealt, so it replays whatever the order of the
    card files."""

    options: Options
    seed: int
    actions: list[str] = field(default_factory=list)
    result: dict[str, Any] | None = None
    deal: GameStart | None = None  # None: the seed's, filled in at once
    # The card names the texts were written with (None: these cards'). Only how the texts
    # read, not the game: left out of comparisons (a record writes only the names it uses).
    names: Names | None = field(default=None, compare=False)
    _reader: TextReader | None = field(default=None, init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        self._reader = None  # (set here: compiled, a field of init=False gets no default)
        if self.deal is None:
            self.deal = seeded_start(self.options, self.seed)

    def parse(self, s: GameState, typed: str) -> Action:
        """The legal action of ``s`` that a text of this record names (``TextReader``)."""
        if self.names is None:
            from .engine import parse_action

            return parse_action(s, typed)
        if self._reader is None:
            self._reader = TextReader(self.names)
        return self._reader.parse(s, typed)

    def write(self, s: GameState, action: Action) -> str:
        """``action``'s text at ``s`` as this record writes its texts: in the card names they
        use (``names``), so that a record's texts written anew (a seat renamed: a gift's
        text names its receiver) read as the others do."""
        from .engine import names as seat_names
        from .engine import text

        if self.names is None:
            return text(s, action)
        if self._reader is None:
            self._reader = TextReader(self.names)
        renamed = self._reader.renamed
        return text(s, action) if renamed is None else action_text(action, renamed,
                                                                   seat_names(s))

    @property
    def start(self) -> GameStart:
        """The record's start (its ``deal``)."""
        assert self.deal is not None  # filled in by __post_init__
        return self.deal

    def first_state(self) -> GameState:
        """The game before its first action, at its first decision (dealt from ``deal``)."""
        from .engine import advance

        s = started_game(self.options, self.start)
        advance(s)
        return s

    def to_json(self) -> dict[str, Any]:
        names = names_in(CARD_NAMES if self.names is None else self.names, self.actions)
        out: dict[str, Any] = {"format": RECORD_FORMAT, "version": RECORD_VERSION,
                               "options": options_to_json(self.options), "seed": self.seed,
                               "deal": start_to_json(self.start), "names": names,
                               "actions": self.actions}
        if self.result is not None:
            out["result"] = self.result
        return out

    @staticmethod
    def from_json(obj: Any) -> GameRecord:
        """A record from JSON. Versions 1 and 2 carry no deal: theirs is the seed's, as it
        always was (``deal_order.toml`` keeps it whatever the order of the card files).
        Versions 1–3 were played under the decision points before ruling 20's: their actions
        are read as today's engine asks them (``upgrade``)."""
        _check_version(obj, RECORD_FORMAT, RECORD_VERSIONS_READ)
        seed, actions = obj.get("seed"), obj.get("actions")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise StateFormatError(N_("'seed' must be a whole number"))
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise StateFormatError(N_("'actions' must be a list of action texts"))
        result = obj.get("result")
        options = options_from_json(obj.get("options"))
        names: Names | None = None  # versions 1 and 2: written with these names
        if obj["version"] >= 3:
            if "deal" not in obj or "names" not in obj:
                raise _bad(N_("a record of version 3 needs its {field}"),
                           field="'deal'" if "deal" not in obj else "'names'")
            start = start_from_json(obj["deal"], options)
            names = names_from_json(obj["names"])
        else:
            try:
                start = seeded_start(options, seed)
            except FlamecraftError as exc:
                raise StateFormatError(exc.msgid, exc.params) from None
        record = GameRecord(options, seed, list(actions), result, start, names)
        if obj["version"] < 4:  # written under the decision points before ruling 20's
            from .upgrade import upgrade

            record.actions = upgrade(record.first_state(), record.actions, record.parse)
        return record


def dump_record(record: GameRecord, pretty: bool = False) -> str:
    """The game record as JSON: compact, or indented if ``pretty``."""
    return _dumps(record.to_json(), pretty)


def load_record(text: str) -> GameRecord:
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise json_error(exc) from None
    return GameRecord.from_json(obj)


def replay(record: GameRecord) -> GameState:
    """The final state of a record, applying its actions in order to its dealt start; a
    StateFormatError (``action_error``) names the first action that does not replay."""
    from .engine import apply_in_place

    s = record.first_state()
    for number, typed in enumerate(record.actions, 1):
        try:
            apply_in_place(s, record.parse(s, typed))
        except FlamecraftError as exc:
            raise action_error(number, typed, exc) from None
    return s
