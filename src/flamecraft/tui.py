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
from .core.describe import describe
from .core.engine import (
    advance,
    apply,
    describe_decision,
    legal_actions,
    parse_action,
    start,
    text,
    to_act,
)
from .core.engine import winners as engine_winners
from .core.errors import FlamecraftError
from .core.events import Event, log_for
from .core.goals import MEASURE_FUNCTIONS, fancy_value
from .core.serialize import STATE_FORMAT, GameRecord, state_from_json, state_to_json
from .core.setup_game import MAX_PLAYERS, MIN_PLAYERS, new_game
from .core.solo import rating
from .core.state import EMPTY, SOURCE_NAMES, GameState
from .core.view import view
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
               numbered: bool = True) -> int:
    """The index of the one text that ``typed`` picks: its 1-based number (when
    ``numbered``), the text itself, a unique prefix of it, or (failing that) words that each
    begin a word of exactly one text. Raises ChoiceError with a short message otherwise."""
    key = normalize(typed)
    if not key:
        raise ChoiceError(f"type a number or the start of a {what}")
    if numbered and (key.isdigit() or (key[0] in "+-" and key[1:].isdigit())):
        n = int(key)
        if 1 <= n <= len(texts):
            return n - 1
        raise ChoiceError(f"there is no {what} {n}: type a number from 1 to {len(texts)}")
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
        hint = "type more of it, or its number" if numbered else "type more of it"
        raise ChoiceError(f"{_echo(typed)} fits {len(hits)} {what}s ({shown}{more}): "
                          f"{hint}")
    if not numbered:
        raise ChoiceError(f"no {what} is called {_echo(typed)}")
    raise ChoiceError(f"no {what} matches {_echo(typed)}: type a number from 1 to "
                      f"{len(texts)}, the start of a {what}, or 'help'")


def find_card(typed: str) -> object:
    """The card whose name ``typed`` picks (exactly, by a unique prefix or by its words)."""
    cards = Cards(CATALOG).all_named()
    names = [fold(name) for name, _ in cards]
    if not normalize(typed):
        raise ChoiceError("which card? type 'card' and a name, e.g. 'card Draco Bell'")
    key = fold(typed)
    if key in names:  # an exact name first: "card flambe" is Flambé, not Le Flamberge
        return cards[names.index(key)][1]
    try:
        return cards[match_text(key, names, "card", numbered=False)][1]
    except ChoiceError:  # say it with the cards' real names
        return cards[match_text(typed, [name for name, _ in cards], "card", numbered=False)][1]


# ---------------------------------------------------------------- seats and setup


@dataclass(frozen=True)
class Seat:
    """Who plays a seat: ``kind`` is "human" or the name of a bot in ``bots.BOTS``."""

    kind: str
    name: str

    @property
    def human(self) -> bool:
        return self.kind == HUMAN

    def label(self) -> str:
        return "human" if self.human else f"{self.kind} bot"


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


def default_names(kinds: Sequence[str]) -> tuple[str, ...]:
    """"You" for a lone person (else "Player N"); bots get dragon names."""
    humans = sum(1 for k in kinds if k == HUMAN)
    out, bots = [], 0
    for p, kind in enumerate(kinds):
        if kind == HUMAN:
            out.append("You" if humans == 1 else f"Player {p + 1}")
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


def setup_from_args(args: argparse.Namespace) -> Setup:
    """The setup the flags ask for, with defaults for the rest (one person against bots)."""
    kinds = [seat_kind(w) for w in args.seats.split(",")] if args.seats else None
    names = check_names(args.names.split(",")) if args.names else None
    players = args.players
    if players is None:
        players = len(kinds) if kinds else len(names) if names else DEFAULT_PLAYERS
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise SetupError(f"Flamecraft is for {MIN_PLAYERS}–{MAX_PLAYERS} players, not {players}")
    if kinds is None:
        kinds = [HUMAN] + [DEFAULT_OPPONENT] * (players - 1)
    if len(kinds) != players:
        raise SetupError(f"--seats lists {len(kinds)} seats for {players} players")
    if names is None:
        names = default_names(kinds)
    if len(names) != players:
        raise SetupError(f"--names lists {len(names)} names for {players} players")
    seed = args.seed if args.seed is not None else new_seed()
    first = getattr(args, "first_player", None)
    if first is not None and not 1 <= first <= players:
        raise SetupError(f"--first-player must be a seat from 1 to {players}, not {first}")
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
                 keyboard: bool = False):
        self.out, self.inp = out, inp
        self.style = Style(color)
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

    def undo(self, seat: int) -> str:
        """Takes back ``seat``'s last choice of its current run; the message says what."""
        if self.undo_seat != seat or not self.undo_stack:
            return ("nothing to undo: undo goes back only within your own turn, and not past "
                    "a card drawn from a hidden deck, a Fancy Dragon scored or a shuffle")
        snap = self.undo_stack.pop()
        undone = self.actions[snap.actions]
        self.state = snap.state
        del self.actions[snap.actions:]
        del self.log[snap.log:]
        self.prev = None
        return f"undone: {undone}"

    def names(self) -> list[str]:
        return [seat.name for seat in self.seats]

    def who(self, e: Event) -> str:
        """The name a log line starts with: the actor's, or "" for the table's notes."""
        return "" if e.action[0] < 0 else self.seats[e.seat].name

    def watcher(self) -> int | None:
        """Whose eyes the screen is between turns: the one person at the keyboard, or None
        (the public side only) when several people share it."""
        people = [p for p, seat in enumerate(self.seats) if seat.human]
        return people[0] if len(people) == 1 else None

    def screen_view(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may see: its view, the log as it may read it, its own Fancy
        Dragons' values now (their goals read only public facts and its own), the kinds of
        the seats, and the name of the decision at hand."""
        s = self.state
        v = view(s, seat)
        acting = not s.over and to_act(s) == seat
        log = log_for(self.log, seat)
        mine = [i for i, (e, _) in enumerate(log)
                if e.seat == seat and not e.forced and e.action[0] >= 0]
        since = log[mine[-1] + 1:] if mine else []
        return {
            "view": v,
            "decision": describe_decision(s) if acting else "",
            "choices": [describe(s, a).label for a in self.actions_now()] if acting else [],
            "since": [(self.who(e), line) for e, line in since
                      if e.seat != seat or e.action[0] < 0],
            "fancy_values": {CATALOG.fancies[f].id: fancy_value(s, seat, CATALOG.fancies[f])
                             for f in s.fancy[seat]},
            "log": [(e.turn, self.who(e), line) for e, line in log],
            "seat_kinds": [seat_.label() for seat_ in self.seats],
        }

    def record(self) -> GameRecord:
        """The game record (only for a game started from a seed)."""
        assert self.seed is not None, "a game loaded from a state has no record"
        result = None
        if self.state.over:
            result = {"reputation": self.state.rep[:], "winners": engine_winners(self.state),
                      "turns": self.state.turn}
        return GameRecord(self.state.options, self.seed, list(self.actions), result)

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


def load_session(path: str) -> Session:
    """A saved game (a game record, with or without ``seats``), replayed to where it stood,
    or a state (``flamecraft new`` or ``apply``), which goes on from where it stands.
    Without ``seats`` (say, a ``demo --record`` file) seat 1 is a person, the others bots."""
    try:
        with open(path, encoding="utf-8") as fh:
            raw = fh.read()
    except FileNotFoundError:
        raise SetupError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise SetupError(f"{path}: is a directory, not a file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise SetupError(f"{path}: cannot read: {exc}") from None
    try:
        obj = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise SetupError(f"{path}: not valid JSON: {exc}") from None
    if isinstance(obj, dict) and obj.get("format") == STATE_FORMAT:
        try:
            s = state_from_json(obj)
        except FlamecraftError as exc:
            raise SetupError(f"{path}: {exc}") from None
        seats = _saved_seats(obj.get("seats"), list(s.options.player_names()), path)
        return Session(s, None, seats, base=s.copy())
    try:
        record = GameRecord.from_json(obj)
        s = new_game(record.options, record.seed)  # every option the record holds
        advance(s)
    except FlamecraftError as exc:
        raise SetupError(f"{path}: {exc}") from None
    names = list(s.options.player_names())
    seats = _saved_seats(obj.get("seats"), names, path)
    session = Session(s, record.seed, seats)
    points, undo_seat = _undo_points(obj.get("undo"), len(record.actions), len(names), path)
    kept: list[Snapshot] = []
    for number, typed in enumerate(record.actions, 1):
        if number - 1 in points:
            kept.append(Snapshot(session.state, len(session.actions), len(session.log)))
        try:
            session.play(parse_action(session.state, typed))
        except FlamecraftError as exc:
            raise SetupError(f"{path}: action {number} ({typed!r}): {exc}") from None
    session.undo_stack = kept
    session.undo_seat = undo_seat if kept else -1
    return session


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


def write_file(path: str, content: str) -> None:
    """Writes a save whole or not at all (the command line's atomic writer)."""
    try:
        write_atomically(path, content)
    except CliError as exc:
        raise SetupError(str(exc)) from None


# ---------------------------------------------------------------- the end


def end_summary(s: GameState, prev: GameState | None) -> dict[str, Any]:
    """The final scores of an ended game (everything is public now): Reputation by source,
    each Moon Dragon, the tie-break keys, the winners and how a tie was broken."""
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
        winner = f"Winner: {names[best[0]]} with {s.rep[best[0]]} Reputation"
    else:
        winner = "Winners, sharing the victory: " + ", ".join(names[p] for p in best)
    out: dict[str, Any] = {"players": players, "turns": s.turn, "winner_line": winner,
                           "tie_line": tie_break(s), "winners": best}
    for p in range(s.n):
        if s.companion[p] != EMPTY:
            players[p]["companion"] = CATALOG.companions[s.companion[p]].name
    if s.n == 1:
        out["achievements"] = [(CATALOG.achievements[a].name, CATALOG.achievements[a].rep)
                               for a in s.achievements[0]]
        out["rating"] = rating(s.rep[0])
        out["winner_line"] = f"Final Reputation {s.rep[0]}: {out['rating']}"
    return out


def tie_break(s: GameState) -> str:
    """How a tie on Reputation was broken (the rules' tiebreakers: most Artisan Dragons left
    in hand, then most Goods), or "" when nobody tied for the lead."""
    names = s.options.player_names()
    top = max(s.rep)
    tied = [p for p in range(s.n) if s.rep[p] == top]
    if len(tied) == 1:
        return ""
    who = " and ".join(names[p] for p in tied)
    line = f"{who} tied at {top} Reputation. "
    keys = (("Artisan Dragons in hand", [len(h) for h in s.hand]),
            ("Goods left", [sum(g) for g in s.goods]))
    for label, key in keys:
        counts = ", ".join(f"{names[p]} {key[p]}" for p in tied)
        most = max(key[p] for p in tied)
        still = [p for p in tied if key[p] == most]
        if len(still) == 1:
            return line + f"Most {label} breaks it ({counts}): {names[still[0]]} wins."
        line += f"Still tied on {label} ({counts}). "
        tied = still
    return line + "They share the victory."


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

    def run(self) -> int:
        """Plays to the end (or until a person quits); returns the exit status."""
        try:
            origin = ("a saved state" if self.session.seed is None
                      else "a random deal" if self.session.secret_seed
                      else f"seed {self.session.seed}")
            self.term.say(f"Flamecraft, {origin}, {self.session.state.options.deck} "
                          f"Enchantments. Type 'help' at any prompt.")
            self.term.say(f"Seats: {self._seats_line()}")
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
            self._save_quietly("Interrupted")
            return 130
        except Hangup:
            self._save_quietly("The terminal was closed")
            return 129
        except Exception:
            self._save_quietly("Something went wrong")  # keep the game, then report the bug
            raise

    def _seats_line(self) -> str:
        return ", ".join(f"{seat.name} ({seat.label()})" for seat in self.session.seats)

    def _first_line(self) -> str:
        s = self.session.state
        how = "drawn at random" if s.options.first_player is None else "chosen at setup"
        name = self.session.seats[s.first_player].name
        return f"{name} {'play' if name == 'You' else 'plays'} first ({how})."

    def step(self) -> None:
        s = self.session.state
        p = to_act(s)
        seat = self.session.seats[p]
        if not seat.human:
            policy = BOTS[seat.kind]
            action = policy(s, self.session.bot_rng(p))
            seen = len(self.session.log)
            self.session.play(action)
            for e, line in log_for(self.session.log[seen:], self.session.watcher()):
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
        sv = self.session.screen_view(p)
        self.term.show(summary(self.style, sv, CATALOG, self.term.width, self.term.height))

    def decide(self, p: int) -> None:
        """Asks person ``p`` until a choice is made (commands answer and ask again)."""
        self.draw(p)
        while True:
            texts = [text(self.session.state, a) for a in self.session.actions_now()]
            line = self.term.ask(f"{self.session.seats[p].name}> ")
            words = line.strip().split(maxsplit=1)
            if words and words[0].lower() in COMMANDS:
                if self.command(p, words[0].lower(), words[1] if len(words) > 1 else ""):
                    return
                continue
            if not words:
                self.draw(p)
                continue
            try:
                index = match_text(line, texts)
            except ChoiceError as exc:
                self.term.say(str(exc), "bad")
                continue
            self.session.play(self.session.actions_now()[index])
            return

    def _hint_lines(self, p: int) -> list[str]:
        """The three best choices for person p, from its own view only (ai/hints.py: the
        rest of the turn planned on samples of what p cannot see), with win chances."""
        from .ai.hints import hints
        from .ai.interface import Seat as BotSeat

        session = self.session
        if session.state.over or to_act(session.state) != p:
            return ["hint: only for the choice you are making now"]
        rng = random.Random(f"{session.seed}:{len(session.actions)}:hint")
        out = [self.style.head("HINTS") + " (from your view only; planned to your turn's end)"]
        for rank, h in enumerate(hints(BotSeat(session.state, p), rng)[:3], 1):
            win = "" if h.win is None else f", {100 * h.win:.0f}% to win"
            gap = "best" if rank == 1 else f"{h.loss:.1f} Rep behind"
            out.append(f" {rank}. {h.text} ({gap}{win})")
            out.append(f"    {h.reason}")
        return out

    def command(self, p: int, name: str, arg: str) -> bool:
        """Runs a command for person ``p``; True when the decision at hand has changed
        (undo, load), so the caller asks anew."""
        session, st = self.session, self.style
        sv = session.screen_view(p)
        v = sv["view"]
        cards = Cards(CATALOG)
        width = self.term.width
        if name in ("help", "?"):
            self.term.show(HELP.splitlines())
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
            self.term.show(render({**v, "legal_actions": []}, CATALOG, width).splitlines())
            self.term.show(choice_lines(st, v, sv, width))
        elif name == "choices":
            self.term.show(choice_lines(st, v, sv, width))
        elif name == "achievements":
            self.term.show(wrap(achievement_lines(session.state, p), width))
        elif name == "hint":
            self.term.show(wrap(self._hint_lines(p), width))
        elif name == "card":
            try:
                self.term.show(wrap(card_text(st, find_card(arg)), width))
            except ChoiceError as exc:
                self.term.say(str(exc), "bad")
        elif name == "log":
            self._log(sv, arg)
        elif name == "undo":
            if session.state.over:
                self.term.say("the game is over: nothing to undo", "bad")
                return False
            message = session.undo(p)
            self.term.say(message)
            return message.startswith("undone")
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
                self.term.say("log takes a number of actions from 1, e.g. 'log 50'", "bad")
                return
            count = int(arg.strip())
        lines = wrap(log_lines(self.style, sv, count), self.term.width)
        self.term.show(lines if lines else ["(nothing has happened yet)"])

    def save(self, path: str) -> bool:
        path = path.strip()
        if not path:
            self.term.say("save where? type 'save' and a file name, e.g. 'save game.json'",
                          "bad")
            return False
        try:
            write_file(path, self.session.to_json())
        except SetupError as exc:
            self.term.say(str(exc), "bad")
            return False
        self.term.say(f"saved to {path} (resume with: flamecraft play --load {path})")
        return True

    def load(self, path: str) -> bool:
        path = path.strip()
        if not path:
            self.term.say("load what? type 'load' and a file name", "bad")
            return False
        try:
            session = load_session(path)
        except SetupError as exc:
            self.term.say(str(exc), "bad")
            return False
        self.session = session
        self.shown_to = None
        self.term.say(f"loaded {path}: {self._seats_line()}. {self._first_line()}")
        if session.humans > 1:
            self.term.clear()
        return True

    def quit(self) -> None:
        while True:
            try:
                answer = self.term.ask("Save the game before leaving? Type a file name, or "
                                       "press Enter to leave without saving: ")
            except EOFError:
                answer = ""
            if not answer.strip() or self.save(answer):
                self.term.say("Goodbye.")
                raise Leave(0)

    def _save_quietly(self, why: str) -> bool:
        if self.session.state.over:
            return False
        try:
            write_file(self.autosave, self.session.to_json())
        except SetupError as exc:
            self._say_if_possible(f"\n{why}; the game could not be saved: {exc}")
            return False
        self._say_if_possible(f"\n{why}: the game is saved to {self.autosave} (resume with: "
                              f"flamecraft play --load {self.autosave})")
        return True

    def _say_if_possible(self, message: str) -> None:
        """A message, unless the terminal is gone (after a hang-up)."""
        with contextlib.suppress(OSError):
            self.term.say(message)

    def _input_ended(self) -> int:
        if not self._save_quietly("Input ended"):
            self.term.say("\nInput ended. Goodbye.")
        return 0

    def finish(self) -> None:
        """The score screen, then a last prompt (Enter leaves; save, log, board, card)."""
        s = self.session.state
        self.term.clear()
        self.term.show(score_screen(self.style, end_summary(s, self.session.prev),
                                    self.term.width))
        if self.session.seed is not None and self.session.secret_seed:
            self.term.say(f"This game's seed: {self.session.seed} (--seed deals it again).",
                          "dim")
        while True:
            line = self.term.ask("Game over. Press Enter to leave (or: save FILE, log, board, "
                                 "card NAME): ")
            words = line.strip().split(maxsplit=1)
            if not words or words[0].lower() in ("quit", "exit"):
                return
            name, arg = words[0].lower(), words[1] if len(words) > 1 else ""
            sv: dict[str, Any] = {"view": view(s, None),
                                  "log": [(e.turn, self.session.who(e), line)
                                          for e, line in log_for(self.session.log, None)]}
            if name == "save":
                self.save(arg)
            elif name == "log":
                self._log(sv, arg)
            elif name == "board":
                self.term.show(render(sv["view"], CATALOG, self.term.width).splitlines())
            elif name == "card":
                try:
                    self.term.show(wrap(card_text(self.style, find_card(arg)), self.term.width))
                except ChoiceError as exc:
                    self.term.say(str(exc), "bad")
            else:
                self.term.say("the game is over: press Enter to leave (or: save FILE, log, "
                              "board, card NAME)", "bad")


# ---------------------------------------------------------------- interactive setup


def _ask_until(term: Terminal, prompt: str, default: str,
               convert: Callable[[str], Any]) -> Any:
    while True:
        answer = term.ask(f"{prompt} [{default}]: ").strip() or default
        try:
            return convert(answer)
        except (SetupError, ValueError) as exc:
            term.say(str(exc) or "not understood", "bad")


def _int_in(low: int, high: int, what: str) -> Callable[[str], int]:
    def convert(answer: str) -> int:
        if not answer.isdigit() or not low <= int(answer) <= high:
            raise SetupError(f"{what}: give a whole number from {low} to {high}")
        return int(answer)
    return convert


def interactive_setup(term: Terminal) -> Setup:
    """A short setup at the keyboard; Enter accepts each default (you against 3 bots)."""
    term.show([term.style.head("FLAMECRAFT") + " — a new game. Press Enter to accept the "
               "value in brackets."])
    players = _ask_until(term, f"Players ({MIN_PLAYERS}–{MAX_PLAYERS})", str(DEFAULT_PLAYERS),
                         _int_in(MIN_PLAYERS, MAX_PLAYERS, "players"))
    people = _ask_until(term, f"People at this keyboard (1–{players}; the other seats are "
                              f"bots)", "1", _int_in(1, players, "people"))
    bot = DEFAULT_OPPONENT
    if people < players and len(BOTS) > 1:
        term.show(["Opponents, strongest first:"]
                  + [f"  {name:<8} {note}" for name, note in bot_notes()])
        bot = _ask_until(term, "Opponents", DEFAULT_OPPONENT, seat_kind)
    kinds = [HUMAN] * people + [bot] * (players - people)
    names = _ask_until(term, "Names, comma-separated", ", ".join(default_names(kinds)),
                       lambda a: _names_for(a, players))
    deck = _ask_until(term, "Enchantment deck (purple or golden)", "purple", _deck)
    companions = _ask_until(term, "Play with Companions (yes or no)", "no", _yes_no)
    seed = _ask_until(term, "Seed (a number; Enter: a secret random deal)", "random",
                      _seed_answer)
    if seed is None:
        return Setup(kinds, names, deck, new_seed(), companions, secret_seed=True)
    return Setup(kinds, names, deck, seed, companions)


def _seed_answer(answer: str) -> int | None:
    """A seed typed at the setup question, or None for a secret random one."""
    if answer.lower() == "random":
        return None
    return _int_in(0, 2**63 - 1, "seed")(answer)


def _yes_no(answer: str) -> bool:
    word = answer.strip().lower()
    if word in ("y", "yes"):
        return True
    if word in ("n", "no"):
        return False
    raise SetupError("answer yes or no")


def _names_for(answer: str, players: int) -> tuple[str, ...]:
    names = check_names(answer.split(","))
    if len(names) != players:
        raise SetupError(f"give {players} names, comma-separated")
    return names


def _deck(answer: str) -> str:
    key = answer.strip().lower()
    for deck in ("purple", "golden"):
        if key and deck.startswith(key):
            return deck
    raise SetupError("the Enchantment deck is 'purple' or 'golden'")


# ---------------------------------------------------------------- the subcommand


def add_play_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ``flamecraft play``."""
    p.add_argument("--players", type=int, help=f"number of players, {MIN_PLAYERS}–"
                   f"{MAX_PLAYERS} (default {DEFAULT_PLAYERS}, or as many as --seats lists)")
    p.add_argument("--seats", help="who plays each seat, comma-separated: human, bot (the "
                   f"default, {DEFAULT_OPPONENT}) or a bot by name, strongest first: "
                   f"{', '.join(name for name, _ in bot_notes())}; default: human, then bots")
    p.add_argument("--names", help="player names, comma-separated")
    p.add_argument("--enchantments", choices=("purple", "golden"),
                   help="Enchantment deck (default: purple)")
    p.add_argument("--seed", type=int, help="the game's random seed (default: a random one)")
    p.add_argument("--first-player", type=int, metavar="SEAT",
                   help="the seat that plays first, 1–players (default: drawn from the seed, "
                        "as the rules draw it at random)")
    p.add_argument("--companions", action="store_true",
                   help="play with the Companion module (off by default)")
    p.add_argument("--load", metavar="FILE",
                   help="resume a game saved with 'save FILE', or play on from a state "
                        "written by 'flamecraft new' or 'apply' (seat 1 a person, the "
                        "others bots)")
    p.add_argument("--no-color", action="store_true",
                   help="no colour (also when NO_COLOR is set or output is not a terminal)")
    p.add_argument("--bot-delay", type=float, default=None, metavar="SECONDS",
                   help="pause after each bot move (default 0.2 on a terminal, else 0)")
    p.add_argument("--autosave", default=AUTOSAVE, metavar="FILE",
                   help="where the game is saved if the input ends, the program is "
                        "interrupted or the terminal closes (default: "
                        "flamecraft-autosave-DATE-TIME.json, one per game)")


def cmd_play(args: argparse.Namespace) -> int:
    """Plays one game in the terminal; returns the exit status."""
    for stream in (sys.stdout, sys.stdin):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="replace")
    tty_out = sys.stdout.isatty()
    color = tty_out and not args.no_color and not os.environ.get("NO_COLOR")
    size = shutil.get_terminal_size((80, 24))
    delay = args.bot_delay if args.bot_delay is not None else (0.2 if tty_out else 0.0)
    if delay < 0:
        raise UsageError("play: --bot-delay must be 0 or more")
    keyboard = sys.stdin.isatty() and tty_out
    term = Terminal(sys.stdout, sys.stdin, color, tty_out, delay, max(60, size.columns),
                    max(16, size.lines), keyboard)
    if args.load:
        others = [f for f in SETUP_FLAGS if f != "load" and getattr(args, f) is not None]
        if others:
            raise UsageError(f"play: --load cannot be combined with --{others[0]}")
        try:
            session = load_session(args.load)
        except SetupError as exc:
            raise CliError(str(exc)) from None
    else:
        given = any(getattr(args, f) is not None for f in SETUP_FLAGS) or bool(
            getattr(args, "companions", False))
        if not given and sys.stdin.isatty():
            try:
                setup = interactive_setup(term)
            except EOFError:
                term.say("\nNo game started.")
                return 0
        else:
            try:
                setup = setup_from_args(args)
            except SetupError as exc:
                raise UsageError(f"play: {exc}") from None
        session = Session.new(setup)
    game = Game(session, term, args.autosave)

    def hang_up(signum: int, frame: object) -> None:
        raise Hangup

    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, hang_up)
    return game.run()


def achievement_lines(s: GameState, p: int) -> list[str]:
    """Solo: every achievement, claimed or how far the player is (its measure now)."""
    if s.n != 1:
        return ["achievements are for solo games (flamecraft play --players 1)"]
    lines = ["SOLO ACHIEVEMENTS (claimed at the end of a turn once met)"]
    for card in CATALOG.achievements:
        if card.index in s.achievements[p]:
            state = f"claimed, {card.rep} Rep"
        else:
            now = MEASURE_FUNCTIONS[card.measure](s, p, card.arg)
            state = f"{min(now, card.at_least)}/{card.at_least}, worth {card.rep} Rep"
        lines.append(f"  {card.name} ({state}): {card.text}")
    return lines

