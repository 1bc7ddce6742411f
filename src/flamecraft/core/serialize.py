"""The canonical JSON forms of a state and of a game record (documented in
``docs/state-format.md``). Cards are written by id and the pending-decision stack by named
fields, so a saved game reads clearly and survives reordering of the card files.
``load_state(dump_state(s)) == s`` for every reachable state. Frames are written as their
kinds are declared (``kinds.FrameKind``, in ``frames.py``): a new kind needs nothing here.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Final

from . import frames as F
from . import kinds as K
from .board import CATALOG
from .errors import FlamecraftError, StateFormatError
from .goods import GOOD_BY_KEY, GOOD_KEYS
from .invariants import problems
from .kinds import FRAME_KINDS, frame_named
from .state import (
    COUNTER_NAMES,
    EMPTY,
    NUM_COUNTERS,
    NUM_SOURCES,
    SOURCE_NAMES,
    GameState,
    Options,
)
from .tr import N_

STATE_FORMAT: Final = "flamecraft-state"
RECORD_FORMAT: Final = "flamecraft-record"
STATE_VERSION: Final = 3
RECORD_VERSION: Final = 2
# The versions still read: before state 3 and record 2 the first seat always played first.
STATE_VERSIONS_READ: Final = (2, 3)
RECORD_VERSIONS_READ: Final = (1, 2)

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
    return {"players": options.players, "deck": options.deck, "names": list(options.names),
            "companions": options.companions, "first_player": options.first_player}


def options_from_json(obj: Any) -> Options:
    """Options from JSON; a missing ``first_player`` is seat 0, as every game written before
    the first player was drawn began there (``null`` means drawn from the seed)."""
    if not isinstance(obj, dict):
        raise StateFormatError(N_("'options' must be an object"))
    first = obj.get("first_player", 0)
    if first is not None and (not isinstance(first, int) or isinstance(first, bool)):
        raise StateFormatError(N_("'first_player' must be a seat number or null"))
    try:
        options = Options(int(obj["players"]), str(obj.get("deck", "purple")),
                          tuple(str(n) for n in obj.get("names", [])),
                          bool(obj.get("companions", False)), first)
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
        readable = " and ".join(str(v) for v in versions)
        raise StateFormatError(f"unsupported {fmt} version {found} "
                               f"(this program reads versions {readable})")


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


@dataclass
class GameRecord:
    """What replays a game: its options, its seed and the actions chosen (as texts)."""

    options: Options
    seed: int
    actions: list[str] = field(default_factory=list)
    result: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"format": RECORD_FORMAT, "version": RECORD_VERSION,
                               "options": options_to_json(self.options), "seed": self.seed,
                               "actions": self.actions}
        if self.result is not None:
            out["result"] = self.result
        return out

    @staticmethod
    def from_json(obj: Any) -> GameRecord:
        _check_version(obj, RECORD_FORMAT, RECORD_VERSIONS_READ)
        seed, actions = obj.get("seed"), obj.get("actions")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise StateFormatError(N_("'seed' must be a whole number"))
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise StateFormatError(N_("'actions' must be a list of action texts"))
        result = obj.get("result")
        return GameRecord(options_from_json(obj.get("options")), seed, list(actions), result)


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
    """The final state of a record, applying its actions in order (raises on a bad one)."""
    from .engine import apply_in_place, parse_action, start

    o = record.options
    s = start(o.players, record.seed, o.deck, o.names, o.companions, o.first_player)
    for number, typed in enumerate(record.actions, 1):
        try:
            apply_in_place(s, parse_action(s, typed))
        except FlamecraftError as exc:
            raise _bad(N_("action {number} ({typed}): {error}"), number=number,
                       typed=repr(typed), error=exc) from None
    return s
