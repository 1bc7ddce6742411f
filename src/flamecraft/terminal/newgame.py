"""How a terminal game is set up: who sits where (a person or a bot by name), their names, the
deck and the seed, from the command line's flags or from the set-up questions asked when
``flamecraft play`` runs without them."""

from __future__ import annotations

import argparse
import secrets
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..ai.roster import BOTS, DEFAULT_OPPONENT, LEVEL_OF, LEVELS
from ..core.errors import error_text
from ..core.setup_game import MAX_PLAYERS, MIN_PLAYERS
from ..core.tr import same
from ..display.wrap import wrap_line
from ..session.seats import BOT_NAMES, SetupError, check_names
from .console import Terminal

HUMAN = "human"
SEAT_ALIASES = {"human": HUMAN, "h": HUMAN, "person": HUMAN, "me": HUMAN,
                "bot": DEFAULT_OPPONENT, "b": DEFAULT_OPPONENT}
DEFAULT_PLAYERS = 4
SETUP_FLAGS = ("players", "seats", "names", "enchantments", "seed", "first_player", "load")


@dataclass(frozen=True)
class PlayerSeat:
    """Who plays a seat: ``kind`` is "human" or the name of a bot in ``bots.BOTS``."""

    kind: str
    name: str

    @property
    def human(self) -> bool:
        return self.kind == HUMAN

    def label(self, tr: Callable[[str], str] = same,
              game: Callable[[str], str] = same) -> str:
        """"human", or "{bot} bot" with a level's plain name (``game``: the game catalogue's
        words) or the bot's own name."""
        if self.human:
            return tr("human")
        level = LEVEL_OF.get(self.kind)
        return tr("{bot} bot").format(bot=game(level.label) if level else self.kind)


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


def seat_kind_in(tr: Callable[[str], str],
                 labels: dict[str, str] | None = None) -> Callable[[str], str]:
    """``seat_kind`` answering in the language of ``tr`` (at the setup questions); a level's
    plain name as shown (``labels``: its words, lower case → its id) is taken too."""
    def convert(word: str) -> str:
        level = (labels or {}).get(word.strip().lower())
        if level is not None:
            return level
        try:
            return seat_kind(word)
        except SetupError:
            kinds = ", ".join(["human", "bot", *sorted(BOTS)])
            raise SetupError(tr("unknown seat kind {word} (use {kinds})").format(
                word=repr(word.strip()), kinds=kinds)) from None
    return convert


def default_names(kinds: Sequence[str], tr: Callable[[str], str] = same) -> tuple[str, ...]:
    """"Player N" for each person (N its seat), in the language of ``tr``; bots get dragon
    names. Never "You": a name is read in the third person by everyone else ("You wins",
    "You are You"), and the seat's own screens already say which seat is theirs."""
    out, bots = [], 0
    for p, kind in enumerate(kinds):
        if kind == HUMAN:
            out.append(tr("Player {n}").format(n=p + 1))
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

    def seats(self) -> list[PlayerSeat]:
        return [PlayerSeat(k, n) for k, n in zip(self.kinds, self.names, strict=True)]


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
        words = term.style.cards.bot_note  # (the game catalogue's words)
        notes: list[str] = []
        for level in LEVELS:  # the names in a column, the words wrapped beside them
            head = f"  {level.id:<9} "
            lines = wrap_line(" " * len(head) + f"{words(level.label)} — {words(level.note)}",
                              term.width, indent=len(head))
            notes += [head + lines[0][len(head):], *lines[1:]]
        term.show([tr("Opponents, strongest first:"), *notes])
        labels = {words(level.label).lower(): level.id for level in LEVELS}
        bot = _ask_until(term, tr("Opponents"), DEFAULT_OPPONENT, seat_kind_in(tr, labels))
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
