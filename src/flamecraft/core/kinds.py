"""What a kind of frame or of action is: its declaration, and the registries every reader reads.

Why: a kind of decision used to be spread over a dozen tables (the saved form's fields, the
question the engine names, the if-chain of action texts, the research catalogue's blocks, the
browser's arguments…), so one new primitive touched every one of them. A declaration says, in
one place, everything about a kind that is not its rules: its name, its fields or arguments
(named, each with the type of value it holds), its words, and its blocks in the research
catalogue. The readers derive their part from the registries here: ``serialize`` the frame
JSON both ways, ``engine`` the question, ``actions`` the text, ``describe`` the default facts,
``events`` what the table reads, the research encoding its blocks, the server its JSON
arguments. The rules stay in the handlers (``frames.register``) and the effect runners.

Frames and actions stay plain tuples of ints, for speed and for the saved form: the playout
path uses the literal kind codes and the field indices that a declaration derives
(``FrameKind.at``), never the declaration itself. The built-in kinds are declared in
``frames.py`` and ``actions.py``; a kind declared later (a test's) is appended, and whatever
caches something derived (the research catalogue) registers ``on_change`` to hear of it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from string import Formatter
from typing import Final

# The types of value an action argument or a frame field holds: each reader knows how to name
# one (a card by its name or id, a Good by its key, a seat by its player's name…).
SHOP: Final = "shop"  # a Shop (catalog index)
ABILITY: Final = "ability"  # a Shop, worded by its ability's name
ARTISAN: Final = "artisan"  # an Artisan Dragon (catalog index)
ENCHANTMENT: Final = "enchantment"
FANCY: Final = "fancy"  # a Fancy Dragon
COMPANION: Final = "companion"
GOOD: Final = "good"  # one of the six Goods (0–5)
ITEM: Final = "item"  # a Good or the Coin (goods.COIN)
SEAT: Final = "seat"  # a seat, or -1: nobody (the supply, the deck: ``Arg.nobody`` says which)
SLOT: Final = "slot"  # a slot of the Shop named by the argument before it (0–2, said 1–3)
COUNT: Final = "count"  # a small whole number
SETS: Final = "sets"  # sets of an Enchantment: counted only for a variable one
MASK: Final = "mask"  # a set of Goods as a bit mask
SKIP: Final = "skip"  # what a decline declines (a ``Skip`` code)
# Frame fields only.
HERE: Final = "here"  # a Shop, or frames.NOWHERE / IN_HAND / IN_PARK
SCOPE: Final = "scope"  # a Shop, or -1: anywhere
INT: Final = "int"  # a small int, written as it is
EFFECT: Final = "effect"  # an effect primitive: two ints (op list, index), (-1, -1) for none
FANCY_LIST: Final = "fancy_list"  # Fancy Dragons: the rest of the tuple (the last field only)

ARG_TYPES: Final = (SHOP, ABILITY, ARTISAN, ENCHANTMENT, FANCY, COMPANION, GOOD, ITEM, SEAT,
                    SLOT, COUNT, SETS, MASK, SKIP)
FIELD_TYPES: Final = (SEAT, HERE, SCOPE, INT, EFFECT, ARTISAN, ENCHANTMENT, COMPANION, GOOD,
                      FANCY_LIST)
PHASE_BASE: Final = 100  # decision kinds are 0, 1, 2… (in order: the observation's one-hot)
PLAYER_AT: Final = 1  # every frame with fields starts (kind, player, here, …)
HERE_AT: Final = 2


# --- frames -------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Field:
    """One named field of a frame kind."""

    name: str  # its key in the saved form
    type: str = INT  # one of FIELD_TYPES
    optional: bool = False  # may hold "none" (-1; written null): said in the docs

    @property
    def width(self) -> int:
        """How many ints of the tuple it takes (a list of Fancy Dragons: the rest of it)."""
        return 2 if self.type == EFFECT else 0 if self.type == FANCY_LIST else 1


PLAYER: Final = Field("player", SEAT)
WHERE: Final = Field("here", HERE)


@dataclass(frozen=True, slots=True)
class FrameKind:
    """A kind of frame: a decision (code below PHASE_BASE) or a phase, its saved name
    (``decide_visit``, ``phase_run``: what saved games hold), its fields after the kind, what
    a decision asks (a msgid) and whether Sun Dragons may be revealed at it."""

    code: int
    name: str
    fields: tuple[Field, ...] = ()
    asks: str = ""
    sun_reveals: bool = False

    @property
    def decision(self) -> bool:
        return self.code < PHASE_BASE

    def at(self, name: str) -> int:
        """Where a field starts in the frame tuple (an effect's list; its index is next)."""
        at = 1
        for f in self.fields:
            if f.name == name:
                return at
            at += f.width
        raise KeyError(f"frame {self.name} has no field {name!r}")

    @property
    def size(self) -> int:
        """The length of its tuples (with a list of Fancy Dragons, the least length)."""
        return 1 + sum(f.width for f in self.fields)

    @property
    def open_ended(self) -> bool:
        """Whether its last field takes the rest of the tuple."""
        return bool(self.fields) and self.fields[-1].type == FANCY_LIST


# --- actions ------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Arg:
    """One argument of an action kind, in tuple order (a, b, c)."""

    key: str  # its name in the browser's JSON and in the catalogue's block spec
    type: str  # one of ARG_TYPES
    word: str = ""  # its placeholder in the text templates ("" = key)
    nobody: str = ""  # a SEAT: the JSON value for -1 ("supply", "deck")
    plural: bool = False  # a COUNT or SETS whose value other than 1 takes ``plural``

    @property
    def placeholder(self) -> str:
        return self.word or self.key


@dataclass(frozen=True, slots=True)
class Block:
    """A block of the research catalogue: its name (``""``: the kind's), the argument
    dimensions it multiplies out (row-major), and what one index stands for (docs/rl.md).

    A dimension is an argument's key, numbered by its type (a Good 0–5, a seat by its offset
    from the actor, a slot with its Shop as shop * 3 + slot…), or ``key:how`` for another
    numbering the research layer knows (an Artisan Dragon ``:type``, ``:town`` slot, ``:hand``
    type, ``:park`` position; Enchantment ``:sets`` pairs; ``:paid`` Coins). No dimension: a
    block of one. An action goes to the first of its kind's blocks that takes it."""

    dims: tuple[str, ...]
    meaning: str
    name: str = ""


@dataclass(frozen=True, slots=True)
class ActionKind:
    """A kind of action: its name (the browser's ``kind`` and the catalogue's block), its
    arguments, its stable text and the text's variants, and its catalogue blocks.

    The text is ``text`` unless: an argument of type SETS does not count (a fixed-cost
    Enchantment) → ``plain``; else a SEAT argument is -1 → ``nobody``; else the ``plural``
    argument is not 1 → ``plural``. An empty ``text`` is the words of its one argument (what
    a decline declines). ``public`` is what the rest of the table reads of a choice about
    hidden cards (``nobody`` and a receiver as for the text: the receiver reads it all);
    ``decline`` marks a choice the rest of the table never reads."""

    code: int
    name: str
    text: str
    args: tuple[Arg, ...] = ()
    blocks: tuple[Block, ...] = ()
    plural: str = ""
    nobody: str = ""
    plain: str = ""
    public: str = ""
    public_nobody: str = ""
    decline: bool = False
    constants: tuple[tuple[str, str], ...] = ()  # JSON arguments that are always the same

    def arg_at(self, key: str) -> int:
        """Where an argument is in the action tuple (1 for a…)."""
        for i, arg in enumerate(self.args):
            if arg.key == key:
                return i + 1
        raise KeyError(f"action {self.name} has no argument {key!r}")

    def seat_at(self) -> int:
        """Where its SEAT argument is in the tuple, or -1."""
        for i, arg in enumerate(self.args):
            if arg.type == SEAT:
                return i + 1
        return -1


@dataclass(frozen=True, slots=True)
class Skip:
    """A variant of the decline action: its name in the browser's JSON and its text."""

    code: int
    name: str
    text: str


# --- the registries -----------------------------------------------------------------------------

FRAME_KINDS: Final[dict[int, FrameKind]] = {}
ACTION_KINDS: Final[dict[int, ActionKind]] = {}  # in declaration order: the catalogue's
SKIPS: Final[dict[int, Skip]] = {}
_FRAME_BY_NAME: Final[dict[str, FrameKind]] = {}
_LISTENERS: Final[list[Callable[[], None]]] = []


def on_change(listener: Callable[[], None]) -> None:
    """Calls ``listener`` after every later declaration or withdrawal (a cache's clear)."""
    _LISTENERS.append(listener)


def _changed() -> None:
    for listener in _LISTENERS:
        listener()


def _placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in Formatter().parse(template) if name}


def declare_frame(kind: FrameKind) -> FrameKind:
    """Adds a frame kind (checked: a free code and name, decisions numbered in order, fields
    starting with player and here, a list of Fancy Dragons last); returns it."""
    if kind.code in FRAME_KINDS or kind.name in _FRAME_BY_NAME:
        raise ValueError(f"frame kind {kind.code} {kind.name!r} is already declared")
    if kind.decision and kind.code != decision_count():
        raise ValueError(f"decision {kind.name} must take the next code, {decision_count()}")
    names = [f.name for f in kind.fields]
    if len(set(names)) != len(names):
        raise ValueError(f"frame {kind.name} repeats a field: {names}")
    if names[:2] != ["player", "here"][:len(names)]:
        raise ValueError(f"frame {kind.name}'s fields must start with player, here: {names}")
    for f in kind.fields:
        if f.type not in FIELD_TYPES:
            raise ValueError(f"frame {kind.name}: field {f.name} has unknown type {f.type!r}")
        if f.type == FANCY_LIST and f is not kind.fields[-1]:
            raise ValueError(f"frame {kind.name}: a {FANCY_LIST} field must be the last")
    if kind.decision != bool(kind.asks):
        raise ValueError(f"frame {kind.name}: a decision (and only one) says what it asks")
    FRAME_KINDS[kind.code] = kind
    _FRAME_BY_NAME[kind.name] = kind
    _changed()
    return kind


def declare_action(kind: ActionKind) -> ActionKind:
    """Adds an action kind (checked: a free code and name, at most 3 arguments of known
    types, templates naming only its arguments, blocks over its arguments); returns it."""
    if kind.code in ACTION_KINDS or any(k.name == kind.name for k in ACTION_KINDS.values()):
        raise ValueError(f"action kind {kind.code} {kind.name!r} is already declared")
    if len(kind.args) > 3:
        raise ValueError(f"action {kind.name} has more than 3 arguments")
    words = {arg.placeholder for arg in kind.args}
    keys = {arg.key for arg in kind.args}
    types = {arg.type for arg in kind.args}
    for arg in kind.args:
        if arg.type not in ARG_TYPES:
            raise ValueError(f"action {kind.name}: argument {arg.key} has type {arg.type!r}")
    for template, needs in ((kind.plural, any(arg.plural for arg in kind.args)),
                            (kind.nobody, SEAT in types), (kind.public_nobody, SEAT in types),
                            (kind.plain, SETS in types)):
        if template and not needs:
            raise ValueError(f"action {kind.name}: {template!r} has no argument to vary on")
    for template in (kind.text, kind.plural, kind.nobody, kind.plain, kind.public,
                     kind.public_nobody):
        unknown = _placeholders(template) - words
        if unknown:
            raise ValueError(f"action {kind.name}: {template!r} names no argument {unknown}")
    if not kind.text and [arg.type for arg in kind.args] != [SKIP]:
        raise ValueError(f"action {kind.name} needs a text")
    if not kind.blocks:
        raise ValueError(f"action {kind.name} needs a block in the research catalogue")
    for block in kind.blocks:
        for dim in block.dims:
            if dim.split(":")[0] not in keys:
                raise ValueError(f"action {kind.name}: block dimension {dim!r} is no argument")
    ACTION_KINDS[kind.code] = kind
    _changed()
    return kind


def declare_skip(skip: Skip) -> Skip:
    """Adds a variant of the decline (codes in order: the catalogue numbers them so)."""
    if skip.code != len(SKIPS) or any(k.name == skip.name for k in SKIPS.values()):
        raise ValueError(f"skip {skip.name!r} must take the next code, {len(SKIPS)}")
    SKIPS[skip.code] = skip
    _changed()
    return skip


def withdraw_frame(code: int) -> None:
    """Removes a frame kind declared later (a test's own); a decision only the last one."""
    kind = FRAME_KINDS[code]
    if kind.decision and code != decision_count() - 1:
        raise ValueError(f"only the last decision kind can be withdrawn, not {kind.name}")
    del FRAME_KINDS[code]
    del _FRAME_BY_NAME[kind.name]
    _changed()


def withdraw_action(code: int) -> None:
    del ACTION_KINDS[code]
    _changed()


def withdraw_skip(code: int) -> None:
    if code != len(SKIPS) - 1:
        raise ValueError("only the last skip can be withdrawn")
    del SKIPS[code]
    _changed()


def frame_named(name: str) -> FrameKind | None:
    """The frame kind saved under ``name``, or None."""
    return _FRAME_BY_NAME.get(name)


def decision_count() -> int:
    """How many decision kinds there are (they are numbered 0 … count - 1)."""
    count = 0
    while count in FRAME_KINDS:
        count += 1
    return count


def next_action_code() -> int:
    return max(ACTION_KINDS, default=-1) + 1
