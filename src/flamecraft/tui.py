"""``flamecraft play``: Flamecraft in the terminal, against bots or friends at one keyboard.

The game is one engine state plus who sits where (a person, or a bot by its name in
``bots.BOTS``). Every screen is drawn by ``tui_screen`` from the view of the seat to act
(``view.view``) and never from the state, and a hand-over screen stands between two people's
turns, so nobody sees another's cards. People choose by number or by a prefix of a choice's
text; commands show more of the board, undo a choice, save and load. Bad input is answered with
one short message and the same question; the game never crashes on it and is saved to an
autosave file if the input ends.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import secrets
import shutil
import signal
import sys
import time
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from .bots import BOTS, DEFAULT_OPPONENT, bot_notes
from .commandline import CliError, UsageError, write_atomically
from .core import actions as A
from .core.actions import Action, normalize
from .core.board import CATALOG
from .core.cardtext import rating_title
from .core.describe import describe
from .core.engine import (
    apply,
    describe_decision,
    legal_actions,
    parse_action,
    start,
    text,
    to_act,
)
from .core.engine import winners as engine_winners
from .core.errors import FlamecraftError, error_text
from .core.events import Event, log_text
from .core.goals import MEASURE_FUNCTIONS, fancy_value
from .core.serialize import (
    STATE_FORMAT,
    GameRecord,
    action_error,
    json_error,
    state_from_json,
    state_to_json,
)
from .core.setup_game import MAX_PLAYERS, MIN_PLAYERS, GameStart
from .core.solo import rating
from .core.state import EMPTY, SOURCE_NAMES, GameState
from .core.tr import N_, Translate, same
from .core.view import view
from .i18n import LANGUAGES, language_from_env
from .render import render
from .sessions import (
    BOT_NAMES,
    SetupError,
    Snapshot,
    check_names,
    reveals,
    table_notes,
)
from .tui_screen import (
    HELP,
    Cards,
    Style,
    card_text,
    choice_lines,
    hand_detail,
    handover,
    log_lines,
    park_lines,
    players_detail,
    review_screen,
    row_detail,
    score_screen,
    summary,
    town_detail,
    wrap,
)

HUMAN = "human"
SEAT_ALIASES = {"human": HUMAN, "h": HUMAN, "person": HUMAN, "me": HUMAN,
                "bot": DEFAULT_OPPONENT, "b": DEFAULT_OPPONENT}
DEFAULT_PLAYERS = 4
AUTOSAVE = "flamecraft-autosave-{started}.json"  # one file per game: {started} is its start
COMMANDS = ("help", "?", "town", "hand", "row", "park", "players", "board", "card", "log",
            "undo", "save", "load", "quit", "exit", "choices", "achievements", "hint")
# The command words in the player's language (each translates a command above, e.g. 町 for
# "town"); the English words work in every language. ``Words.command`` reads both.
COMMAND_WORDS = {"help": N_("help"), "town": N_("town"), "hand": N_("hand"), "row": N_("row"),
                 "park": N_("park"), "players": N_("players"), "board": N_("board"),
                 "card": N_("card"), "log": N_("log"), "undo": N_("undo"), "save": N_("save"),
                 "load": N_("load"), "quit": N_("quit"), "choices": N_("choices"),
                 "achievements": N_("achievements"), "hint": N_("hint"),
                 "review": N_("review")}
REVIEW_TOP = 3  # the mistakes the end screen's review lists
ECHO = 40  # the most of a bad input an error message repeats
# Choices that decline (skip, end the turn): listed after the others, so that a quick "1"
# never skips something (a Sun Dragon's reveal before "end turn").
DECLINES = (A.SKIP, A.END_TURN)


class Hangup(Exception):
    """The terminal was closed (SIGHUP): the game is saved before the program ends."""


def display_order(actions: Sequence[Action]) -> list[Action]:
    """The legal actions as the numbered list shows them: declines last, otherwise in the
    engine's order."""
    return sorted(actions, key=lambda a: a[0] in DECLINES)


def _echo(typed: str) -> str:
    """A bad input as a message repeats it: at most ``ECHO`` characters."""
    typed = typed.strip()
    return repr(typed if len(typed) <= ECHO else typed[:ECHO - 1] + "…")


def fold(name: str) -> str:
    """A name for matching: no accents, plain apostrophes, lower case (``Maître D’rake``
    → ``maitre d'rake``)."""
    plain = unicodedata.normalize("NFKD", name.replace("’", "'").replace("‘", "'"))
    return normalize("".join(c for c in plain if not unicodedata.combining(c)))
SETUP_FLAGS = ("players", "seats", "names", "enchantments", "seed", "first_player", "load")


class ChoiceError(ValueError):
    """Typed input that picks no single choice; its message is shown to the player."""


class Leave(Exception):
    """Ends the program with ``status`` once the player has quit."""

    def __init__(self, status: int):
        super().__init__(status)
        self.status = status


# ---------------------------------------------------------------- typed input


def _words_match(typed: list[str], words: list[str]) -> bool:
    """Whether each typed word begins some word of the text, in order ("dra bell" fits
    "visit draco bell")."""
    k = 0
    for word in words:
        if k < len(typed) and word.startswith(typed[k]):
            k += 1
    return k == len(typed)


def match_text(typed: str, texts: Sequence[str], what: str = "choice",
               numbered: bool = True, tr: Callable[[str], str] = same) -> int:
    """The index of the one text that ``typed`` picks: its 1-based number (when
    ``numbered``), the text itself, a unique prefix of it, or (failing that) words that each
    begin a word of exactly one text. Raises ChoiceError with a short message (in the
    language of ``tr``; ``what`` is "choice" or "card") otherwise."""
    key = normalize(typed)
    if what == "card":
        thing, things = tr("card"), tr("cards")
    else:
        thing, things = tr("choice"), tr("choices")
    if not key:
        raise ChoiceError(tr("type a number or the start of a {what}").format(what=thing))
    if numbered and (key.isdigit() or (key[0] in "+-" and key[1:].isdigit())):
        n = int(key)
        if 1 <= n <= len(texts):
            return n - 1
        raise ChoiceError(tr("there is no {what} {n}: type a number from 1 to {last}").format(
            what=thing, n=n, last=len(texts)))
    norm = [normalize(t) for t in texts]
    if key in norm:
        return norm.index(key)
    hits = [i for i, t in enumerate(norm) if t.startswith(key)]
    if not hits:
        hits = [i for i, t in enumerate(norm) if _words_match(key.split(), t.split())]
    if len(hits) == 1:
        return hits[0]
    if hits:
        shown = "; ".join(f"{i + 1} {texts[i]}" if numbered else texts[i] for i in hits[:4])
        more = "; …" if len(hits) > 4 else ""
        hint = tr("type more of it, or its number") if numbered else tr("type more of it")
        raise ChoiceError(tr("{typed} fits {n} {what} ({shown}): {hint}").format(
            typed=_echo(typed), n=len(hits), what=things, shown=shown + more, hint=hint))
    if not numbered:
        raise ChoiceError(tr("no {what} is called {typed}").format(what=thing,
                                                                   typed=_echo(typed)))
    raise ChoiceError(tr("no {what} matches {typed}: type a number from 1 to {last}, the start "
                         "of a {what}, or 'help'").format(what=thing, typed=_echo(typed),
                                                          last=len(texts)))


def find_card(typed: str, tr: Callable[[str], str] = same) -> object:
    """The card whose name ``typed`` picks (exactly, by a unique prefix or by its words)."""
    cards = Cards(CATALOG).all_named()
    names = [fold(name) for name, _ in cards]
    if not normalize(typed):
        raise ChoiceError(tr("which card? type 'card' and a name, e.g. 'card Draco Bell'"))
    key = fold(typed)
    if key in names:  # an exact name first: "card flambe" is Flambé, not Le Flamberge
        return cards[names.index(key)][1]
    try:
        return cards[match_text(key, names, "card", numbered=False, tr=tr)][1]
    except ChoiceError:  # say it with the cards' real names
        return cards[match_text(typed, [name for name, _ in cards], "card", numbered=False,
                                tr=tr)][1]


# ---------------------------------------------------------------- seats and setup


@dataclass(frozen=True)
class Seat:
    """Who plays a seat: ``kind`` is "human" or the name of a bot in ``bots.BOTS``."""

    kind: str
    name: str

    @property
    def human(self) -> bool:
        return self.kind == HUMAN

    def label(self, tr: Callable[[str], str] = same) -> str:
        return tr("human") if self.human else tr("{bot} bot").format(bot=self.kind)


def seat_kind(word: str) -> str:
    """The seat kind a word names ("human", "bot" for the default bot, or a bot's name)."""
    key = word.strip().lower()
    if key.startswith("bot:"):
        key = key[4:]
    if key in SEAT_ALIASES:
        return SEAT_ALIASES[key]
    if key in BOTS:
        return key
    kinds = ", ".join(["human", "bot", *sorted(BOTS)])
    raise SetupError(f"unknown seat kind {word.strip()!r} (use {kinds})")


def seat_kind_in(tr: Callable[[str], str]) -> Callable[[str], str]:
    """``seat_kind`` answering in the language of ``tr`` (at the setup questions)."""
    def convert(word: str) -> str:
        try:
            return seat_kind(word)
        except SetupError:
            kinds = ", ".join(["human", "bot", *sorted(BOTS)])
            raise SetupError(tr("unknown seat kind {word} (use {kinds})").format(
                word=repr(word.strip()), kinds=kinds)) from None
    return convert


def default_names(kinds: Sequence[str], tr: Callable[[str], str] = same) -> tuple[str, ...]:
    """"You" for a lone person (else "Player N"), in the language of ``tr``; bots get dragon
    names."""
    humans = sum(1 for k in kinds if k == HUMAN)
    out, bots = [], 0
    for p, kind in enumerate(kinds):
        if kind == HUMAN:
            out.append(tr("You") if humans == 1 else tr("Player {n}").format(n=p + 1))
        else:
            out.append(BOT_NAMES[bots])
            bots += 1
    return tuple(out)


@dataclass
class Setup:
    """How a new game is set up: seats (kinds and names), the Enchantment deck, the seed,
    and the first player (a 0-based seat; None: drawn from the seed)."""

    kinds: list[str]
    names: tuple[str, ...]
    deck: str = "purple"
    seed: int = 1
    companions: bool = False
    first_player: int | None = None
    # A seed nobody chose is kept secret until the game ends: anyone who knows it can deal
    # the game again and read every hidden card (issue 11).
    secret_seed: bool = False

    def seats(self) -> list[Seat]:
        return [Seat(k, n) for k, n in zip(self.kinds, self.names, strict=True)]


def setup_from_args(args: argparse.Namespace, tr: Callable[[str], str] = same) -> Setup:
    """The setup the flags ask for, with defaults for the rest (one person against bots)."""
    kinds = [seat_kind(w) for w in args.seats.split(",")] if args.seats else None
    names = check_names(args.names.split(",")) if args.names else None
    players = args.players
    if players is None:
        players = len(kinds) if kinds else len(names) if names else DEFAULT_PLAYERS
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise SetupError(tr("Flamecraft is for {low}–{high} players, not {n}").format(
            low=MIN_PLAYERS, high=MAX_PLAYERS, n=players))
    if kinds is None:
        kinds = [HUMAN] + [DEFAULT_OPPONENT] * (players - 1)
    if len(kinds) != players:
        raise SetupError(tr("--seats lists {seats} seats for {n} players").format(
            seats=len(kinds), n=players))
    if names is None:
        names = default_names(kinds, tr)
    if len(names) != players:
        raise SetupError(tr("--names lists {names} names for {n} players").format(
            names=len(names), n=players))
    seed = args.seed if args.seed is not None else new_seed()
    first = getattr(args, "first_player", None)
    if first is not None and not 1 <= first <= players:
        raise SetupError(tr("--first-player must be a seat from 1 to {n}, not {first}").format(
            n=players, first=first))
    return Setup(kinds, names, args.enchantments or "purple", seed,
                 bool(getattr(args, "companions", False)),
                 None if first is None else first - 1, secret_seed=args.seed is None)


def new_seed() -> int:
    """A seed nobody can guess (63 bits from the system's secure source): with a small one,
    trying every seed against the cards on the table would reveal the hidden ones."""
    return secrets.randbits(63)


# ---------------------------------------------------------------- the terminal


class Terminal:
    """Where the game reads lines and writes screens; colour, clearing and bot pacing."""

    def __init__(self, out: TextIO, inp: TextIO, color: bool, clear: bool,
                 bot_delay: float = 0.0, width: int = 80, height: int = 24,
                 keyboard: bool = False, lang: str = "en"):
        self.out, self.inp = out, inp
        self.style = Style(color, lang)
        self.lang = lang
        self.can_clear = clear
        self.bot_delay = bot_delay
        self.width, self.height = width, height
        # At a keyboard (stdin a terminal): line editing, and keys typed while bots thought
        # are thrown away before each question (they were not answers to it).
        self.keyboard = keyboard
        if keyboard:
            try:
                import readline
                readline.parse_and_bind("set enable-bracketed-paste off")
            except ImportError:  # pragma: no cover - a Python built without readline
                pass

    def show(self, lines: Sequence[str]) -> None:
        self.out.write("\n".join(lines) + "\n")
        self.out.flush()

    def say(self, message: str, tone: str = "") -> None:
        """A message wrapped to the screen's width, then painted (``tone``: "bad", "dim")."""
        paint = {"bad": self.style.bad, "dim": self.style.dim}.get(tone)
        lines = wrap([message], self.width)
        self.show([paint(line) for line in lines] if paint else lines)

    def clear(self) -> None:
        if self.can_clear:
            self.out.write("\x1b[H\x1b[2J\x1b[3J")
            self.out.flush()

    def ask(self, prompt: str) -> str:
        """One line of input (without its newline); EOFError when the input has ended."""
        if self.keyboard:
            self.discard_typed_ahead()
            self.out.flush()
            return input(prompt)
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            raise EOFError
        return line.rstrip("\r\n")

    def discard_typed_ahead(self) -> None:
        """Drops keys typed before the question was asked (termios ``tcflush``)."""
        try:
            import termios
            termios.tcflush(self.inp.fileno(), termios.TCIFLUSH)
        except (ImportError, OSError, ValueError):
            pass

    def pause(self) -> None:
        if self.bot_delay > 0:
            time.sleep(self.bot_delay)


# ---------------------------------------------------------------- the game session


@dataclass
class Session:
    """One game in play: the state, the seats, the record of choices and the undo stack.
    A game loaded from a state file (``flamecraft new``/``apply``) has no seed to replay
    from: ``base`` is that state, and saves are states."""

    state: GameState
    seed: int | None
    seats: list[Seat]
    actions: list[str] = field(default_factory=list)
    log: list[Event] = field(default_factory=list)  # the public event stream
    undo_stack: list[Snapshot] = field(default_factory=list)
    undo_seat: int = -1
    prev: GameState | None = None  # the state before the last choice (for the end scores)
    rngs: dict[int, random.Random] = field(default_factory=dict)
    base: GameState | None = None
    secret_seed: bool = False  # shown only once the game is over
    deal: GameStart | None = None  # a loaded record's start (None: the seed's)

    @staticmethod
    def new(setup: Setup) -> Session:
        s = start(len(setup.kinds), setup.seed, setup.deck, setup.names, setup.companions,
                  setup.first_player)
        return Session(s, setup.seed, setup.seats(), secret_seed=setup.secret_seed)

    @property
    def humans(self) -> int:
        return sum(1 for seat in self.seats if seat.human)

    def bot_rng(self, p: int) -> random.Random:
        if p not in self.rngs:
            origin = self.seed if self.base is None else f"state {self.base.rng}"
            self.rngs[p] = random.Random(f"{origin}:{p}:{len(self.actions)}")
        return self.rngs[p]

    def play(self, action: Action) -> None:
        """Applies the seat to act's action, logs it, and keeps the undo stack of that seat's
        run of choices (cleared when another seat acts or something hidden is shown)."""
        s = self.state
        p = to_act(s)
        full = text(s, action)
        events: list[Event] = []
        nxt = apply(s, action, events)
        if p != self.undo_seat or not self.seats[p].human:
            self.undo_stack.clear()
        self.undo_seat = p
        if self.seats[p].human:
            self.undo_stack.append(Snapshot(s, len(self.actions), len(self.log)))
        if reveals(s, nxt):
            self.undo_stack.clear()
        self.actions.append(full)
        self.log.extend(events)
        self.log.extend(table_notes(s, nxt))
        self.prev, self.state = s, nxt

    def actions_now(self) -> list[Action]:
        """The legal actions in the order the numbered list shows them."""
        return display_order(legal_actions(self.state))

    def undo(self, seat: int, tr: Callable[[str], str] = same,
             game: Callable[[str], str] = same) -> str:
        """Takes back ``seat``'s last choice of its current run; the message says what (in
        the language of ``tr``; the choice in the game's words of ``game``)."""
        if self.undo_seat != seat or not self.undo_stack:
            return tr("nothing to undo: undo goes back only within your own turn, and not past "
                      "a card drawn from a hidden deck, a Fancy Dragon scored or a shuffle")
        snap = self.undo_stack.pop()
        undone = self.actions[snap.actions]
        self.state = snap.state
        del self.actions[snap.actions:]
        del self.log[snap.log:]
        self.prev = None
        if game is not same:
            undone = describe(self.state, parse_action(self.state, undone), game).words
        return tr("undone: {action}").format(action=undone)

    def names(self) -> list[str]:
        return [seat.name for seat in self.seats]

    def log_for(self, seat: int | None, tr: Callable[[str], str] = same,
                events: list[Event] | None = None) -> list[tuple[Event, str]]:
        """The events ``seat`` sees (None: the public side), each with its line in the
        language of ``tr`` (``events.log_text``)."""
        out = []
        for e in self.log if events is None else events:
            line = log_text(e, seat, tr)
            if line is not None:
                out.append((e, line))
        return out

    def who(self, e: Event) -> str:
        """The name a log line starts with: the actor's, or "" for the table's notes."""
        return "" if e.action[0] < 0 else self.seats[e.seat].name

    def watcher(self) -> int | None:
        """Whose eyes the screen is between turns: the one person at the keyboard, or None
        (the public side only) when several people share it."""
        people = [p for p, seat in enumerate(self.seats) if seat.human]
        return people[0] if len(people) == 1 else None

    def screen_view(self, seat: int, style: Style | None = None) -> dict[str, Any]:
        """What ``seat`` may see: its view, the log as it may read it, its own Fancy
        Dragons' values now (their goals read only public facts and its own), the kinds of
        the seats, and the name of the decision at hand; in the language of ``style``."""
        style = style or Style(False)
        s = self.state
        v = view(s, seat)
        acting = not s.over and to_act(s) == seat
        log = self.log_for(seat, style.game)
        mine = [i for i, (e, _) in enumerate(log)
                if e.seat == seat and not e.forced and e.action[0] >= 0]
        since = log[mine[-1] + 1:] if mine else []
        return {
            "view": v,
            "decision": describe_decision(s, style.game) if acting else "",
            "choices": ([describe(s, a, style.game).label for a in self.actions_now()]
                        if acting else []),
            "since": [(self.who(e), line) for e, line in since
                      if e.seat != seat or e.action[0] < 0],
            "fancy_values": {CATALOG.fancies[f].id: fancy_value(s, seat, CATALOG.fancies[f])
                             for f in s.fancy[seat]},
            "log": [(e.turn, self.who(e), line) for e, line in log],
            "seat_kinds": [seat_.label(style.tr) for seat_ in self.seats],
        }

    def record(self) -> GameRecord:
        """The game record (only for a game started from a seed)."""
        assert self.seed is not None, "a game loaded from a state has no record"
        result = None
        if self.state.over:
            result = {"reputation": self.state.rep[:], "winners": engine_winners(self.state),
                      "turns": self.state.turn}
        return GameRecord(self.state.options, self.seed, list(self.actions), result, self.deal)

    def to_json(self) -> str:
        """The game record (``serialize.GameRecord``) with one extra key, ``seats``: who
        plays each seat, so that a loaded game goes on with the same people and bots. A game
        loaded from a state is saved as its current state, with ``seats``."""
        obj = self.record().to_json() if self.base is None else state_to_json(self.state)
        obj["seats"] = [{"name": seat.name, "kind": seat.kind} for seat in self.seats]
        if self.base is None and self.undo_stack:
            # The turn's undo points (how many actions stood before each choice that can
            # be taken back), so that `undo` still works after `--load`.
            obj["undo"] = {"seat": self.undo_seat,
                           "points": [snap.actions for snap in self.undo_stack]}
        return json.dumps(obj, indent=1, ensure_ascii=False) + "\n"


def load_session(path: str, tr: Callable[[str], str] = same,
                 game: Callable[[str], str] = same) -> Session:
    """A saved game (a game record, with or without ``seats``), replayed to where it stood,
    or a state (``flamecraft new`` or ``apply``), which goes on from where it stands.
    Without ``seats`` (say, a ``demo --record`` file) seat 1 is a person, the others bots."""
    try:
        with open(path, encoding="utf-8") as fh:
            raw = fh.read()
    except FileNotFoundError:
        raise SetupError(tr("{path}: no such file").format(path=path)) from None
    except IsADirectoryError:
        raise SetupError(tr("{path}: is a directory, not a file").format(path=path)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise SetupError(tr("{path}: cannot read: {error}").format(path=path,
                                                                   error=exc)) from None
    try:
        obj = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise SetupError(f"{path}: {error_text(json_error(exc), game)}") from None
    if isinstance(obj, dict) and obj.get("format") == STATE_FORMAT:
        try:
            s = state_from_json(obj)
        except FlamecraftError as exc:
            raise SetupError(f"{path}: {error_text(exc, game)}") from None
        seats = _saved_seats(obj.get("seats"), list(s.options.player_names()), path)
        return Session(s, None, seats, base=s.copy())
    try:
        record = GameRecord.from_json(obj)
        s = record.first_state()  # every option the record holds, dealt from its deal
    except FlamecraftError as exc:
        raise SetupError(f"{path}: {error_text(exc, game)}") from None
    names = list(s.options.player_names())
    seats = _saved_seats(obj.get("seats"), names, path)
    session = Session(s, record.seed, seats, deal=record.deal)
    points, undo_seat = _undo_points(obj.get("undo"), len(record.actions), len(names), path)
    kept: list[Snapshot] = []
    for number, typed in enumerate(record.actions, 1):
        if number - 1 in points:
            kept.append(Snapshot(session.state, len(session.actions), len(session.log)))
        try:
            session.play(record.parse(session.state, typed))
        except FlamecraftError as exc:
            raise SetupError(f"{path}: {error_text(action_error(number, typed, exc), game)}"
                             ) from None
    session.undo_stack = kept
    session.undo_seat = undo_seat if kept else -1
    return session


def decision_words(record: GameRecord, rv: Any, game: Translate,
                   top: int = REVIEW_TOP) -> dict[str, str]:
    """The reviewed mistakes' actions (stable texts) in the words of ``game``: each said at
    the state where it was chosen (``describe``); the end screen's review and ``flamecraft
    review`` show them."""
    wanted = {d.number: (d.chosen, d.best) for d in rv.mistakes(top)}
    s = record.first_state()
    out: dict[str, str] = {}
    for number, typed in enumerate(record.actions, 1):
        for said in wanted.get(number, ()):
            out[said] = describe(s, record.parse(s, said), game).words
        s = apply(s, record.parse(s, typed))
    return out


def _undo_points(raw: Any, count: int, players: int, path: str) -> tuple[set[int], int]:
    """The saved undo points (``undo``: the seat, and the number of actions before each of
    its choices that can be taken back); none when the save has no ``undo``."""
    if raw is None:
        return set(), -1
    points = raw.get("points") if isinstance(raw, dict) else None
    seat = raw.get("seat") if isinstance(raw, dict) else None
    if (not isinstance(seat, int) or not 0 <= seat < players or not isinstance(points, list)
            or not all(isinstance(n, int) and 0 <= n < count for n in points)):
        raise SetupError(f"{path}: 'undo' must name a seat and action counts below {count}")
    return set(points), seat


def _saved_seats(raw: Any, names: list[str], path: str) -> list[Seat]:
    if raw is None:
        kinds = [HUMAN] + [DEFAULT_OPPONENT] * (len(names) - 1)
        return [Seat(k, n) for k, n in zip(kinds, names, strict=True)]
    if not isinstance(raw, list) or len(raw) != len(names):
        raise SetupError(f"{path}: 'seats' must list {len(names)} seats")
    seats = []
    for entry, name in zip(raw, names, strict=True):
        if not isinstance(entry, dict) or not isinstance(entry.get("kind"), str):
            raise SetupError(f"{path}: each seat needs a 'kind'")
        seats.append(Seat(seat_kind(entry["kind"]), name))
    return seats


def write_file(path: str, content: str, tr: Callable[[str], str] = same) -> None:
    """Writes a save whole or not at all (the command line's atomic writer)."""
    try:
        write_atomically(path, content)
    except CliError as exc:
        raise SetupError(exc.text(tr)) from None


# ---------------------------------------------------------------- the end


def end_summary(s: GameState, prev: GameState | None,
                style: Style | None = None) -> dict[str, Any]:
    """The final scores of an ended game (everything is public now): Reputation by source,
    each Moon Dragon, the tie-break keys, the winners and how a tie was broken (in the
    language of ``style``)."""
    style = style or Style(False)
    tr = style.tr
    names = s.options.player_names()
    players = []
    for p in range(s.n):
        early = set(prev.scored[p]) if prev is not None else set()
        moons: list[tuple[str, int]] = []
        for f in s.scored[p]:
            card = CATALOG.fancies[f]
            if not card.sun and f not in early:
                moons.append((card.name, fancy_value(s, p, card)))
            elif not card.sun:  # by a Shop ability (Hedges & Henges): its value then
                moons.append((card.name, -1))
        moons.extend((CATALOG.fancies[f].name, 0) for f in s.fancy[p]
                     if not CATALOG.fancies[f].sun)
        players.append({
            "name": names[p], "reputation": s.rep[p],
            "sources": dict(zip(SOURCE_NAMES, s.rep_sources[p], strict=True)),
            "moons": moons, "hand": len(s.hand[p]), "goods": sum(s.goods[p]),
        })
    best = engine_winners(s)
    if len(best) == 1:
        winner = tr("Winner: {name} with {rep} Reputation").format(name=names[best[0]],
                                                                   rep=s.rep[best[0]])
    else:
        winner = tr("Winners, sharing the victory: {names}").format(
            names=tr(", ").join(names[p] for p in best))
    out: dict[str, Any] = {"players": players, "turns": s.turn, "winner_line": winner,
                           "tie_line": tie_break(s, tr), "winners": best}
    for p in range(s.n):
        if s.companion[p] != EMPTY:
            players[p]["companion"] = CATALOG.companions[s.companion[p]].name
    if s.n == 1:
        out["achievements"] = [(CATALOG.achievements[a].name, CATALOG.achievements[a].rep)
                               for a in s.achievements[0]]
        out["rating"] = rating_title(rating(s.rep[0]), style.game)
        out["winner_line"] = tr("Final Reputation {rep}: {rating}").format(
            rep=s.rep[0], rating=out["rating"])
    return out


def tie_break(s: GameState, tr: Callable[[str], str] = same) -> str:
    """How a tie on Reputation was broken (the rules' tiebreakers: most Artisan Dragons left
    in hand, then most Goods), or "" when nobody tied for the lead."""
    names = s.options.player_names()
    top = max(s.rep)
    tied = [p for p in range(s.n) if s.rep[p] == top]
    if len(tied) == 1:
        return ""
    who = tr(" and ").join(names[p] for p in tied)
    line = tr("{names} tied at {rep} Reputation. ").format(names=who, rep=top)
    keys = ((tr("Artisan Dragons in hand"), [len(h) for h in s.hand]),
            (tr("Goods left"), [sum(g) for g in s.goods]))
    for label, key in keys:
        counts = tr(", ").join(f"{names[p]} {key[p]}" for p in tied)
        most = max(key[p] for p in tied)
        still = [p for p in tied if key[p] == most]
        if len(still) == 1:
            return line + tr("Most {label} breaks it ({counts}): {name} wins.").format(
                label=label, counts=counts, name=names[still[0]])
        line += tr("Still tied on {label} ({counts}). ").format(label=label, counts=counts)
        tied = still
    return line + tr("They share the victory.")


# ---------------------------------------------------------------- playing


class Game:
    """Runs a session at a terminal: bots move by themselves; people are asked."""

    def __init__(self, session: Session, term: Terminal, autosave: str = AUTOSAVE):
        self.session = session
        self.term = term
        self.autosave = autosave.replace("{started}", time.strftime("%Y%m%d-%H%M%S")
                                         + f"-{os.getpid()}")
        self.shown_to: int | None = None  # the person whose cards are on the screen

    @property
    def style(self) -> Style:
        return self.term.style

    @property
    def tr(self) -> Callable[[str], str]:
        return self.term.style.tr

    def run(self) -> int:
        """Plays to the end (or until a person quits); returns the exit status."""
        tr = self.tr
        try:
            origin = (tr("a saved state") if self.session.seed is None
                      else tr("a random deal") if self.session.secret_seed
                      else tr("seed {seed}").format(seed=self.session.seed))
            self.term.say(tr("Flamecraft, {origin}, {deck} Enchantments. Type 'help' at any "
                             "prompt.").format(origin=origin,
                                               deck=tr(self.session.state.options.deck)))
            self.term.say(tr("Seats: {seats}").format(seats=self._seats_line()))
            self.term.say(self._first_line())
            while not self.session.state.over:
                self.step()
            self.finish()
            return 0
        except Leave as leave:
            return leave.status
        except EOFError:
            return self._input_ended()
        except KeyboardInterrupt:
            self._save_quietly(tr("Interrupted"))
            return 130
        except Hangup:
            self._save_quietly(tr("The terminal was closed"))
            return 129
        except Exception:
            self._save_quietly(tr("Something went wrong"))  # keep the game, then report it
            raise

    def _seats_line(self) -> str:
        return self.tr(", ").join(f"{seat.name} ({seat.label(self.tr)})"
                                  for seat in self.session.seats)

    def _first_line(self) -> str:
        tr = self.tr
        s = self.session.state
        how = tr("drawn at random") if s.options.first_player is None else tr("chosen at setup")
        name = self.session.seats[s.first_player].name
        line = tr("{name} play first ({how}).") if name == "You" else tr(
            "{name} plays first ({how}).")
        return line.format(name=name, how=how)

    def step(self) -> None:
        s = self.session.state
        p = to_act(s)
        seat = self.session.seats[p]
        if not seat.human:
            policy = BOTS[seat.kind]
            action = policy(s, self.session.bot_rng(p))
            seen = len(self.session.log)
            self.session.play(action)
            for e, line in self.session.log_for(self.session.watcher(), self.style.game,
                                                self.session.log[seen:]):
                who = self.session.who(e)
                self.term.say(f"  · {who}: {line}" if who else f"  · {line}", "dim")
            self.term.pause()
            return
        if self.session.humans > 1 and self.shown_to != p:
            self.term.clear()
            self.term.show(handover(self.style, seat.name))
            self.term.ask("")
            self.term.clear()
        self.shown_to = p
        self.decide(p)

    def draw(self, p: int) -> None:
        sv = self.session.screen_view(p, self.style)
        self.term.show(summary(self.style, sv, CATALOG, self.term.width, self.term.height))

    def typed(self, line: str) -> str:
        """A typed line as the game reads it: in Japanese, full-width letters and digits
        (what an input method gives) read as the ASCII ones."""
        return unicodedata.normalize("NFKC", line) if self.term.lang != "en" else line

    def command_name(self, word: str) -> str | None:
        """The command a typed word names: an English command word, or its translation."""
        key = word.lower()
        if key in COMMANDS:
            return key
        for name, msgid in COMMAND_WORDS.items():
            if key == self.tr(msgid).lower():
                return name
        return None

    def decide(self, p: int) -> None:
        """Asks person ``p`` until a choice is made (commands answer and ask again)."""
        self.draw(p)
        while True:
            texts = [text(self.session.state, a) for a in self.session.actions_now()]
            line = self.typed(self.term.ask(f"{self.session.seats[p].name}> "))
            words = line.strip().split(maxsplit=1)
            name = self.command_name(words[0]) if words else None
            if name is not None and name != "review":
                if self.command(p, name, words[1] if len(words) > 1 else ""):
                    return
                continue
            if not words:
                self.draw(p)
                continue
            try:
                index = self.match_choice(p, line, texts)
            except ChoiceError as exc:
                self.term.say(str(exc), "bad")
                continue
            self.session.play(self.session.actions_now()[index])
            return

    def match_choice(self, p: int, line: str, texts: list[str]) -> int:
        """The choice a typed line picks: by number or the action's text; failing that (in
        another language) by the start of the choice as the screen shows it."""
        try:
            return match_text(line, texts, tr=self.tr)
        except ChoiceError:
            if self.term.lang == "en":
                raise
            shown = self.session.screen_view(p, self.style)["choices"]
            try:
                return match_text(line, shown, tr=self.tr)
            except ChoiceError:
                pass
            raise

    def _hint_lines(self, p: int) -> list[str]:
        """The three best choices for person p, from its own view only (ai/hints.py: the
        rest of the turn planned on samples of what p cannot see), with win chances."""
        from .ai.hints import hints
        from .ai.interface import Seat as BotSeat

        tr = self.tr
        session = self.session
        if session.state.over or to_act(session.state) != p:
            return [tr("hint: only for the choice you are making now")]
        rng = random.Random(f"{session.seed}:{len(session.actions)}:hint")
        labels = {text(session.state, a): label for a, label in zip(
            session.actions_now(), session.screen_view(p, self.style)["choices"], strict=True)}
        out = [self.style.head(tr("HINTS"))
               + tr(" (from your view only; planned to your turn's end)")]
        for rank, h in enumerate(hints(BotSeat(session.state, p), rng, tr=self.style.game)[:3], 1):
            win = "" if h.win is None else tr(", {pct}% to win").format(pct=f"{100 * h.win:.0f}")
            gap = tr("best") if rank == 1 else tr("{n} Rep behind").format(n=f"{h.loss:.1f}")
            shown = h.text if self.term.lang == "en" else labels.get(h.text, h.text)
            out.append(f" {rank}. {shown} ({gap}{win})")
            out.append(f"    {h.reason}")
        return out

    def command(self, p: int, name: str, arg: str) -> bool:
        """Runs a command for person ``p``; True when the decision at hand has changed
        (undo, load), so the caller asks anew."""
        session, st, tr = self.session, self.style, self.tr
        sv = session.screen_view(p, st)
        v = sv["view"]
        cards = Cards(CATALOG)
        width = self.term.width
        if name in ("help", "?"):
            self.term.show(wrap(tr(HELP).splitlines(), width))
        elif name == "town":
            self.term.show(wrap(town_detail(st, v, cards), width))
        elif name == "hand":
            self.term.show(wrap(hand_detail(st, v, sv, cards), width))
        elif name in ("row", "park"):
            self.term.show(wrap([*row_detail(st, v, cards),
                                 *park_lines(st, v, cards, width)], width))
        elif name == "players":
            self.term.show(wrap(players_detail(st, v, sv, cards), width))
        elif name == "board":
            # The choices numbered as at the prompt (from 1, declines last), with their facts.
            choosing = describe_decision(session.state, st.game) if v.get("choosing") else ""
            self.term.show(render({**v, "legal_actions": [], "choosing": choosing}, CATALOG,
                                  width, st.lang).splitlines())
            self.term.show(choice_lines(st, v, sv, width))
        elif name == "choices":
            self.term.show(choice_lines(st, v, sv, width))
        elif name == "achievements":
            self.term.show(wrap(achievement_lines(session.state, p, st), width))
        elif name == "hint":
            self.term.show(wrap(self._hint_lines(p), width))
        elif name == "card":
            try:
                self.term.show(wrap(card_text(st, find_card(arg, tr)), width))
            except ChoiceError as exc:
                self.term.say(str(exc), "bad")
        elif name == "log":
            self._log(sv, arg)
        elif name == "undo":
            if session.state.over:
                self.term.say(tr("the game is over: nothing to undo"), "bad")
                return False
            before = session.state
            self.term.say(session.undo(p, tr, st.game if st.lang != "en" else same))
            return session.state is not before
        elif name == "save":
            self.save(arg)
        elif name == "load":
            return self.load(arg)
        elif name in ("quit", "exit"):
            self.quit()
        return False

    def _log(self, sv: dict[str, Any], arg: str) -> None:
        count = 30
        if arg.strip():
            if not arg.strip().isdigit() or int(arg.strip()) < 1:
                self.term.say(self.tr("log takes a number of actions from 1, e.g. 'log 50'"),
                              "bad")
                return
            count = int(arg.strip())
        lines = wrap(log_lines(self.style, sv, count), self.term.width)
        self.term.show(lines if lines else [self.tr("(nothing has happened yet)")])

    def save(self, path: str) -> bool:
        tr = self.tr
        path = path.strip()
        if not path:
            self.term.say(tr("save where? type 'save' and a file name, e.g. 'save game.json'"),
                          "bad")
            return False
        try:
            write_file(path, self.session.to_json(), tr)
        except SetupError as exc:
            self.term.say(str(exc), "bad")
            return False
        self.term.say(tr("saved to {path} (resume with: flamecraft play --load {path})")
                      .format(path=path))
        return True

    def load(self, path: str) -> bool:
        tr = self.tr
        path = path.strip()
        if not path:
            self.term.say(tr("load what? type 'load' and a file name"), "bad")
            return False
        try:
            session = load_session(path, tr, self.style.game)
        except SetupError as exc:
            self.term.say(str(exc), "bad")
            return False
        self.session = session
        self.shown_to = None
        self.term.say(tr("loaded {path}: {seats}. {first}").format(
            path=path, seats=self._seats_line(), first=self._first_line()))
        if session.humans > 1:
            self.term.clear()
        return True

    def quit(self) -> None:
        tr = self.tr
        while True:
            try:
                answer = self.term.ask(tr("Save the game before leaving? Type a file name, or "
                                          "press Enter to leave without saving: "))
            except EOFError:
                answer = ""
            if not answer.strip() or self.save(answer):
                self.term.say(tr("Goodbye."))
                raise Leave(0)

    def _save_quietly(self, why: str) -> bool:
        if self.session.state.over:
            return False
        try:
            write_file(self.autosave, self.session.to_json(), self.tr)
        except SetupError as exc:
            self._say_if_possible("\n" + self.tr("{why}; the game could not be saved: {error}")
                                  .format(why=why, error=exc))
            return False
        self._say_if_possible("\n" + self.tr("{why}: the game is saved to {path} (resume with: "
                                             "flamecraft play --load {path})")
                              .format(why=why, path=self.autosave))
        return True

    def _say_if_possible(self, message: str) -> None:
        """A message, unless the terminal is gone (after a hang-up)."""
        with contextlib.suppress(OSError):
            self.term.say(message)

    def _input_ended(self) -> int:
        if not self._save_quietly(self.tr("Input ended")):
            self.term.say("\n" + self.tr("Input ended. Goodbye."))
        return 0

    def finish(self) -> None:
        """The score screen, then a last prompt (Enter leaves; review, save, log, board,
        card)."""
        tr = self.tr
        s = self.session.state
        self.term.clear()
        self.term.show(score_screen(self.style, end_summary(s, self.session.prev, self.style),
                                    self.term.width))
        if self.session.seed is not None and self.session.secret_seed:
            self.term.say(tr("This game's seed: {seed} (--seed deals it again).")
                          .format(seed=self.session.seed), "dim")
        reviewable = self.session.seed is not None and self.session.humans > 0
        if reviewable:
            self.term.say(tr("Type 'review' to see your biggest mistakes and your win chance "
                             "over the game."))
        prompt = (tr("Game over. Press Enter to leave (or: review, save, log, board, card): ")
                  if reviewable else
                  tr("Game over. Press Enter to leave (or: save FILE, log, board, card NAME): "))
        while True:
            line = self.typed(self.term.ask(prompt))
            words = line.strip().split(maxsplit=1)
            name = self.command_name(words[0]) if words else None
            if not words or name in ("quit", "exit"):
                return
            arg = words[1] if len(words) > 1 else ""
            sv: dict[str, Any] = {"view": view(s, None),
                                  "log": [(e.turn, self.session.who(e), said)
                                          for e, said in self.session.log_for(
                                              None, self.style.game)]}
            if name == "review" and reviewable:
                self.term.show(self.review_lines())
            elif name == "save":
                self.save(arg)
            elif name == "log":
                self._log(sv, arg)
            elif name == "board":
                self.term.show(render(sv["view"], CATALOG, self.term.width,
                                      self.style.lang).splitlines())
            elif name == "card":
                try:
                    self.term.show(wrap(card_text(self.style, find_card(arg, tr)),
                                        self.term.width))
                except ChoiceError as exc:
                    self.term.say(str(exc), "bad")
            elif reviewable:
                self.term.say(tr("the game is over: press Enter to leave (or: review, save "
                                 "FILE, log, board, card NAME)"), "bad")
            else:
                self.term.say(tr("the game is over: press Enter to leave (or: save FILE, log, "
                                 "board, card NAME)"), "bad")

    def review_lines(self) -> list[str]:
        """The review of the game just ended for the people at the keyboard
        (``ai/review.py``, with the budget ``flamecraft review`` uses): their biggest
        mistakes and every seat's win chance over the game."""
        from .ai.review import review

        people = [p for p, seat in enumerate(self.session.seats) if seat.human]
        self.term.say(self.tr("Reviewing the game (a few seconds)…"), "dim")
        record = self.session.record()
        rv = review(record, people, tr=self.style.game)
        words = {} if self.term.lang == "en" else decision_words(record, rv, self.style.game)
        return review_screen(self.style, rv, self.term.width, words=words)


# ---------------------------------------------------------------- interactive setup


def _ask_until(term: Terminal, prompt: str, default: str,
               convert: Callable[[str], Any]) -> Any:
    while True:
        answer = term.ask(f"{prompt} [{default}]: ").strip() or default
        try:
            return convert(answer)
        except (SetupError, ValueError) as exc:
            term.say(error_text(exc, term.style.game) or term.style.tr("not understood"), "bad")


def _int_in(low: int, high: int, what: str,
            tr: Callable[[str], str] = same) -> Callable[[str], int]:
    def convert(answer: str) -> int:
        answer = unicodedata.normalize("NFKC", answer)
        if not answer.isdigit() or not low <= int(answer) <= high:
            raise SetupError(tr("{what}: give a whole number from {low} to {high}").format(
                what=what, low=low, high=high))
        return int(answer)
    return convert


def interactive_setup(term: Terminal) -> Setup:
    """A short setup at the keyboard; Enter accepts each default (you against 3 bots)."""
    tr = term.style.tr
    term.show([term.style.head(tr("FLAMECRAFT")) + tr(" — a new game. Press Enter to accept the "
                                                  "value in brackets.")])
    players = _ask_until(term, tr("Players ({low}–{high})").format(low=MIN_PLAYERS,
                                                                   high=MAX_PLAYERS),
                         str(DEFAULT_PLAYERS),
                         _int_in(MIN_PLAYERS, MAX_PLAYERS, tr("players"), tr))
    people = _ask_until(term, tr("People at this keyboard (1–{n}; the other seats are bots)")
                        .format(n=players), "1", _int_in(1, players, tr("people"), tr))
    bot = DEFAULT_OPPONENT
    if people < players and len(BOTS) > 1:
        notes = [f"  {name:<8} {term.style.cards.bot_note(note)}" for name, note in bot_notes()]
        term.show([tr("Opponents, strongest first:"), *wrap(notes, term.width)])
        bot = _ask_until(term, tr("Opponents"), DEFAULT_OPPONENT, seat_kind_in(tr))
    kinds = [HUMAN] * people + [bot] * (players - people)
    names = _ask_until(term, tr("Names, comma-separated"), tr(", ").join(default_names(kinds,
                                                                                      tr)),
                       lambda a: _names_for(a, players, tr))
    deck_words = (tr("purple"), tr("golden"))
    deck = _ask_until(term, tr("Enchantment deck (purple or golden)"), deck_words[0],
                      lambda a: _deck(a, tr))
    companions = _ask_until(term, tr("Play with Companions (yes or no)"), tr("no"),
                            lambda a: _yes_no(a, tr))
    seed = _ask_until(term, tr("Seed (a number; Enter: a secret random deal)"), tr("random"),
                      lambda a: _seed_answer(a, tr))
    if seed is None:
        return Setup(kinds, names, deck, new_seed(), companions, secret_seed=True)
    return Setup(kinds, names, deck, seed, companions)


def _seed_answer(answer: str, tr: Callable[[str], str] = same) -> int | None:
    """A seed typed at the setup question, or None for a secret random one."""
    if answer.lower() in ("random", tr("random")):
        return None
    return _int_in(0, 2**63 - 1, tr("seed"), tr)(answer)


def _yes_no(answer: str, tr: Callable[[str], str] = same) -> bool:
    word = answer.strip().lower()
    if word in ("y", "yes", tr("yes")):
        return True
    if word in ("n", "no", tr("no")):
        return False
    raise SetupError(tr("answer yes or no"))


def _names_for(answer: str, players: int, tr: Callable[[str], str] = same) -> tuple[str, ...]:
    names = check_names(answer.replace("、", ",").split(","))
    if len(names) != players:
        raise SetupError(tr("give {n} names, comma-separated").format(n=players))
    return names


def _deck(answer: str, tr: Callable[[str], str] = same) -> str:
    key = answer.strip().lower()
    for deck in ("purple", "golden"):
        if key and (deck.startswith(key) or tr(deck).startswith(key)):
            return deck
    raise SetupError(tr("the Enchantment deck is 'purple' or 'golden'"))


# ---------------------------------------------------------------- the subcommand


def add_play_arguments(p: argparse.ArgumentParser, tr: Translate = same) -> None:
    """The options of ``flamecraft play``, their help in the language of ``tr``."""
    p.add_argument("--players", type=int, help=tr(
        "number of players, {low}–{high} (default {n}, or as many as --seats lists)").format(
        low=MIN_PLAYERS, high=MAX_PLAYERS, n=DEFAULT_PLAYERS))
    p.add_argument("--seats", help=tr(
        "who plays each seat, comma-separated: human, bot (the default, {bot}) or a bot by "
        "name, strongest first: {bots}; default: human, then bots").format(
        bot=DEFAULT_OPPONENT, bots=", ".join(name for name, _ in bot_notes())))
    p.add_argument("--names", help=tr("player names, comma-separated"))
    p.add_argument("--enchantments", choices=("purple", "golden"),
                   help=tr("Enchantment deck (default: purple)"))
    p.add_argument("--seed", type=int, help=tr("the game's random seed (default: a random "
                                               "one)"))
    p.add_argument("--first-player", type=int, metavar=tr("SEAT"),
                   help=tr("the seat that plays first, 1–players (default: drawn from the "
                           "seed, as the rules draw it at random)"))
    p.add_argument("--companions", action="store_true",
                   help=tr("play with the Companion module (off by default)"))
    p.add_argument("--load", metavar=tr("FILE"),
                   help=tr("resume a game saved with 'save FILE', or play on from a state "
                           "written by 'flamecraft new' or 'apply' (seat 1 a person, the "
                           "others bots)"))
    p.add_argument("--no-color", action="store_true",
                   help=tr("no colour (also when NO_COLOR is set or output is not a "
                           "terminal)"))
    p.add_argument("--bot-delay", type=float, default=None, metavar=tr("SECONDS"),
                   help=tr("pause after each bot move (default 0.2 on a terminal, else 0)"))
    p.add_argument("--autosave", default=AUTOSAVE, metavar=tr("FILE"),
                   help=tr("where the game is saved if the input ends, the program is "
                           "interrupted or the terminal closes (default: "
                           "flamecraft-autosave-DATE-TIME.json, one per game)"))
    add_lang_argument(p, tr)


def add_lang_argument(p: argparse.ArgumentParser, tr: Translate = same) -> None:
    """``--lang``: the language of what a command shows people."""
    p.add_argument("--lang", choices=LANGUAGES, default=None,
                   help=tr("language of the screens and messages: en or ja (default: from "
                           "LC_ALL, LC_MESSAGES or LANG; ja_* is Japanese)"))


def chosen_language(args: argparse.Namespace) -> str:
    """``--lang`` if given (after the command, or before it: ``flamecraft --lang ja demo``),
    else the one the environment asks for."""
    lang = getattr(args, "lang", None) or getattr(args, "top_lang", None)
    return str(lang) if lang else language_from_env(os.environ)


def cmd_play(args: argparse.Namespace) -> int:
    """Plays one game in the terminal; returns the exit status."""
    for stream in (sys.stdout, sys.stdin):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="replace")
    lang = chosen_language(args)
    tr = Style(False, lang).tr
    tty_out = sys.stdout.isatty()
    color = tty_out and not args.no_color and not os.environ.get("NO_COLOR")
    size = shutil.get_terminal_size((80, 24))
    delay = args.bot_delay if args.bot_delay is not None else (0.2 if tty_out else 0.0)
    if delay < 0:
        raise UsageError(tr("play: --bot-delay must be 0 or more"))
    keyboard = sys.stdin.isatty() and tty_out
    term = Terminal(sys.stdout, sys.stdin, color, tty_out, delay, max(60, size.columns),
                    max(16, size.lines), keyboard, lang)
    if args.load:
        others = [f for f in SETUP_FLAGS if f != "load" and getattr(args, f) is not None]
        if others:
            raise UsageError(tr("play: --load cannot be combined with --{option}").format(
                option=others[0]))
        try:
            session = load_session(args.load, tr, term.style.game)
        except SetupError as exc:
            raise CliError(str(exc)) from None
    else:
        given = any(getattr(args, f) is not None for f in SETUP_FLAGS) or bool(
            getattr(args, "companions", False))
        if not given and sys.stdin.isatty():
            try:
                setup = interactive_setup(term)
            except EOFError:
                term.say("\n" + tr("No game started."))
                return 0
        else:
            try:
                setup = setup_from_args(args, tr)
            except SetupError as exc:
                raise UsageError(tr("play: {error}").format(
                    error=error_text(exc, term.style.game))) from None
        session = Session.new(setup)
    game = Game(session, term, args.autosave)

    def hang_up(signum: int, frame: object) -> None:
        raise Hangup

    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, hang_up)
    return game.run()


def achievement_lines(s: GameState, p: int, style: Style | None = None) -> list[str]:
    """Solo: every achievement, claimed or how far the player is (its measure now)."""
    style = style or Style(False)
    tr = style.tr
    if s.n != 1:
        return [tr("achievements are for solo games (flamecraft play --players 1)")]
    lines = [tr("SOLO ACHIEVEMENTS (claimed at the end of a turn once met)")]
    for card in CATALOG.achievements:
        if card.index in s.achievements[p]:
            state = tr("claimed, {n} Rep").format(n=card.rep)
        else:
            now = MEASURE_FUNCTIONS[card.measure](s, p, card.arg)
            state = tr("{now}/{goal}, worth {n} Rep").format(
                now=min(now, card.at_least), goal=card.at_least, n=card.rep)
        lines.append(f"  {card.name} ({state}): {style.cards.achievement(card)}")
    return lines
