"""The ``flamecraft`` command line: start, inspect, advance, show, replay and simulate games.

Every subcommand reads and writes the canonical JSON of ``serialize.py``, so a game can be
played one action at a time from a shell, a script or a test. Bad input never shows a
traceback: one line on stderr names the problem, the exit status is 2 for a usage error and 1
for anything else, and no input file is ever changed (outputs are written whole, atomically).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Sequence
from typing import NoReturn

from .bots import random_action
from .commandline import CliError, UsageError, write_atomically
from .core.board import CATALOG
from .core.describe import describe
from .core.engine import (
    apply_in_place,
    describe_decision,
    legal_actions,
    names,
    parse_action,
    start,
    text,
    to_act,
    winners,
)
from .core.errors import FlamecraftError, StateFormatError
from .core.serialize import GameRecord, dump_record, dump_state, load_record, load_state
from .core.setup_game import MAX_PLAYERS, MIN_PLAYERS
from .core.state import GameState
from .core.tr import N_, same
from .core.view import view
from .i18n import LANGUAGES, language_from_env, translator
from .render import render, scores
from .tui import add_lang_argument, add_play_arguments, chosen_language, cmd_play

PROG = "flamecraft"
MAX_DECISIONS = 100_000  # a random game that has not ended after this many choices is a bug


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage error on one line instead of printing usage and exiting,
    so ``main`` returns a status rather than raising SystemExit."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message} (see --help)")


# ---------------------------------------------------------------- argument types


def _players(value: str) -> int:
    try:
        n = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {value!r}") from None
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise argparse.ArgumentTypeError(
            f"Flamecraft is for {MIN_PLAYERS}–{MAX_PLAYERS} players, not {n}")
    return n


def _positive(value: str) -> int:
    try:
        n = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {value!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {n}")
    return n


def _names(value: str) -> tuple[str, ...]:
    parts = tuple(" ".join(part.split()) for part in value.split(","))
    if any(not part for part in parts):
        raise argparse.ArgumentTypeError(f"an empty name in {value!r}")
    if len({p.lower() for p in parts}) != len(parts):
        raise argparse.ArgumentTypeError(f"a name is given twice in {value!r}")
    if any(p.isdigit() or p.lower() == "spectator" for p in parts):
        raise argparse.ArgumentTypeError("a name may not be a number or 'spectator'")
    return parts


# ---------------------------------------------------------------- files


def _label(path: str) -> str:
    return "<stdin>" if path == "-" else path


def _read(path: str) -> str:
    """The text of a file ('-' for stdin), or a CliError naming why it cannot be read."""
    try:
        if path == "-":
            return sys.stdin.read()
        with open(path, encoding="utf-8") as fh:
            return fh.read()
    except FileNotFoundError:
        raise CliError.of(N_("{path}: no such file"), path=path) from None
    except IsADirectoryError:
        raise CliError.of(N_("{path}: is a directory, not a file"), path=path) from None
    except UnicodeDecodeError:
        raise CliError.of(N_("{path}: not a text file (not UTF-8)"), path=_label(path)) from None
    except OSError as exc:
        raise CliError.of(N_("{path}: cannot read: {error}"), path=_label(path),
                          error=exc.strerror or exc) from None


def _load_state(path: str) -> GameState:
    try:
        return load_state(_read(path))
    except StateFormatError as exc:
        raise CliError(f"{_label(path)}: {exc}") from None


def _load_record(path: str) -> GameRecord:
    try:
        return load_record(_read(path))
    except StateFormatError as exc:
        raise CliError(f"{_label(path)}: {exc}") from None


def _output(path: str | None, content: str) -> None:
    if path is None or path == "-":
        sys.stdout.write(content)
    else:
        write_atomically(path, content)


def _pretty(args: argparse.Namespace) -> bool:
    """Indented JSON only where a person reads it: asked for with ``--pretty``, or printed on
    a terminal; compact (and several times faster to write) for files and pipes."""
    to_terminal = getattr(args, "out", None) in (None, "-") and sys.stdout.isatty()
    return bool(args.pretty) or to_terminal


def _deck(args: argparse.Namespace) -> str:
    return str(args.enchantments)


def _first_player(args: argparse.Namespace) -> int | None:
    """``--first-player`` as a 0-based seat (None: drawn from the seed)."""
    first: int | None = args.first_player
    if first is None:
        return None
    if first > args.players:
        raise UsageError(f"{PROG}: --first-player {first}: there are only {args.players} "
                         "players (see --help)")
    return first - 1


def _start(players: int, seed: int, deck: str, player_names: tuple[str, ...],
           companions: bool = False, first_player: int | None = None) -> GameState:
    try:
        return start(players, seed, deck, player_names, companions, first_player)
    except FlamecraftError as exc:
        raise CliError(str(exc)) from None


def _who(s: GameState) -> str:
    p = to_act(s)
    return names(s)[p] if p >= 0 else "nobody"


# ---------------------------------------------------------------- subcommands


def cmd_new(args: argparse.Namespace) -> int:
    """Writes a new game's state, waiting for its first choice."""
    s = _start(args.players, args.seed, _deck(args), args.names or (), args.companions,
               _first_player(args))
    _output(args.out, dump_state(s, _pretty(args)))
    return 0


def cmd_actions(args: argparse.Namespace) -> int:
    """Lists the legal actions of the player to act, numbered for ``apply``."""
    s = _load_state(args.state)
    actions = legal_actions(s)
    if not args.plain:
        if s.over:
            print("# the game is over: no actions")
        else:
            print(f"# {_who(s)} to act (turn {s.turn}): choosing {describe_decision(s)}")
    for i, a in enumerate(actions):
        print(text(s, a) if args.plain else f"{i}: {text(s, a)}")
    return 0


def cmd_apply(args: argparse.Namespace) -> int:
    """Applies actions in order and writes the next state; nothing is written unless every
    action was legal."""
    s = _load_state(args.state)
    for number, typed in enumerate(args.action, 1):
        try:
            apply_in_place(s, parse_action(s, typed))
        except FlamecraftError as exc:
            raise CliError(f"action {number} ({typed!r}): {exc}") from None
    _output(args.out, dump_state(s, _pretty(args)))
    if args.out not in (None, "-"):
        now = "the game is over" if s.over else f"{_who(s)} to act: {describe_decision(s)}"
        print(f"applied {len(args.action)} action(s) to {args.out}; {now}")
    return 0


def _seat_named(s: GameState, value: str, option: str, also: str = "") -> int:
    """The seat a command-line value names: its number (1-based) or its player's name."""
    seats = names(s)
    if value.isdigit() and 1 <= int(value) <= s.n:
        return int(value) - 1
    for p, name in enumerate(seats):
        if name.lower() == value.lower():
            return p
    raise CliError(f"{option} {value!r}: no such player (give 1–{s.n}, one of "
                   f"{', '.join(seats)}{also})")


def _observer(s: GameState, value: str | None) -> int | None:
    if value is None:
        p = to_act(s)
        return p if p >= 0 else None
    if value.lower() == "spectator":
        return None
    return _seat_named(s, value, "--as", ", or 'spectator'")


def cmd_show(args: argparse.Namespace) -> int:
    """Prints the board as one seat sees it (from its view only, so nothing hidden leaks)."""
    s = _load_state(args.state)
    observer = _observer(s, args.as_)
    lang = chosen_language(args)
    v = view(s, observer)
    if lang != "en":  # the decision and the choices in the reader's words (same order)
        tr = translator(lang, "game").gettext
        if v.get("choosing"):
            v["choosing"] = describe_decision(s, tr)
        if v.get("legal_actions"):
            v["legal_actions"] = [describe(s, a, tr).words for a in legal_actions(s)]
    sys.stdout.write(render(v, CATALOG, lang=lang))
    return 0


def _result_lines(s: GameState) -> list[str]:
    if s.over:
        return scores(view(s, None))
    rep = ", ".join(f"{n} {r}" for n, r in zip(names(s), s.rep, strict=True))
    return [f"The game is not over (turn {s.turn}, {_who(s)} to act): Reputation {rep}"]


def cmd_replay(args: argparse.Namespace) -> int:
    """Replays a game record and prints its result (and each action with --verbose)."""
    record = _load_record(args.record)
    opts = record.options
    s = _start(opts.players, record.seed, opts.deck, opts.names, opts.companions,
               opts.first_player)
    for number, typed in enumerate(record.actions, 1):
        turn, who = s.turn, _who(s)
        try:
            apply_in_place(s, parse_action(s, typed))
        except FlamecraftError as exc:
            raise CliError(f"{_label(args.record)}: action {number} ({typed!r}): {exc}") from None
        if args.verbose:
            print(f"turn {turn:>3}  {who}: {typed}")
    print("\n".join(_result_lines(s)))
    stored = record.result
    if (s.over and isinstance(stored, dict) and "reputation" in stored
            and (stored["reputation"] != s.rep or stored.get("winners", winners(s)) != winners(s))):
        raise CliError(f"{_label(args.record)}: the replayed result differs from the recorded "
                       f"one (recorded Reputation {stored['reputation']}, replayed {s.rep})")
    return 0


def play_random(s: GameState, rng: random.Random,
                log: list[tuple[int, str, str]] | None = None) -> int:
    """Plays random legal actions to the end; returns the number of choices made. ``log``
    collects (turn, player name, action text) of each choice."""
    count = 0
    while not s.over:
        if count >= MAX_DECISIONS:
            raise CliError(f"the game did not end after {MAX_DECISIONS} decisions")
        action = random_action(s, rng)
        if log is not None:
            log.append((s.turn, _who(s), text(s, action)))
        apply_in_place(s, action)
        count += 1
    return count


def cmd_demo(args: argparse.Namespace) -> int:
    """Plays one game of random bots and prints its log and result."""
    s = _start(args.players, args.seed, _deck(args), args.names or (), args.companions,
               _first_player(args))
    log: list[tuple[int, str, str]] = []
    first = names(s)[s.first_player]
    play_random(s, random.Random(args.seed), log)
    print(f"Flamecraft demo: {s.n} random bots, seed {args.seed}, {_deck(args)} Enchantments, "
          f"{first} plays first")
    print("(a step with a single possible choice is taken automatically and not shown)")
    wide = max(len(n) for n in names(s))
    for turn, who, said in log:
        print(f"turn {turn:>3}  {who:<{wide}}  {said}")
    print()
    print("\n".join(_result_lines(s)))
    if args.record:
        result = {"reputation": s.rep[:], "winners": winners(s), "turns": s.turn}
        record = GameRecord(s.options, args.seed, [t for _, _, t in log], result)
        write_atomically(args.record, dump_record(record, bool(args.pretty)))
    return 0


def cmd_simulate(args: argparse.Namespace) -> int:
    """Plays many random games and prints per-seat statistics (a smoke test and benchmark)."""
    n, games, seed = args.players, args.games, args.seed
    first = _first_player(args)
    seat_names = [f"P{p + 1}" for p in range(n)]
    reps: list[list[int]] = [[] for _ in range(n)]
    wins = [0.0] * n
    turns: list[int] = []
    decisions: list[int] = []
    began = time.perf_counter()
    for i in range(games):
        s = _start(n, seed + i, _deck(args), (), args.companions, first)
        decisions.append(play_random(s, random.Random(seed + i)))
        turns.append(s.turn)
        best = winners(s)
        for p in range(n):
            reps[p].append(s.rep[p])
        for p in best:
            wins[p] += 1 / len(best)
    elapsed = time.perf_counter() - began
    starts = "each game's first player drawn from its seed" if first is None else (
        f"{seat_names[first]} plays first")
    print(f"simulate: {n} players, {games} games, seeds {seed}–{seed + games - 1}, "
          f"{_deck(args)} Enchantments, random bots, {starts}")
    print(f"games: {games}")
    print(f"elapsed: {elapsed:.2f} s ({1000 * elapsed / games:.1f} ms per game)")
    print(f"turns per game: mean {statistics.fmean(turns):.1f}, min {min(turns)}, "
          f"max {max(turns)}")
    print(f"decisions per game: mean {statistics.fmean(decisions):.1f}, min {min(decisions)}, "
          f"max {max(decisions)}")
    print("seat  rep mean  rep min  rep max  win share")
    for p in range(n):
        print(f"{seat_names[p]:<4}  {statistics.fmean(reps[p]):>8.1f}  {min(reps[p]):>7}  "
              f"{max(reps[p]):>7}  {100 * wins[p] / games:>8.1f}%")
    return 0


def cmd_tournament(args: argparse.Namespace) -> int:
    """Bots against bots over many games (``ai/tournament.py``)."""
    from .ai.tournament import cmd_tournament as run

    try:
        return run(args)
    except (ValueError, RuntimeError) as exc:
        raise CliError(str(exc)) from None


def cmd_balance(args: argparse.Namespace) -> int:
    """A balance report from many bot games (``ai/balance.py``)."""
    from .ai.balance import cmd_balance as run

    try:
        return run(args)
    except (ValueError, RuntimeError) as exc:
        raise CliError(str(exc)) from None


def _ladder_arguments(p: argparse.ArgumentParser) -> None:
    """The ``flamecraft ladder`` options (here: ``ai/ladder.py`` needs numpy and scipy, which
    the parser must not import)."""
    p.add_argument("results", nargs="+", metavar="RESULTS",
                   help="results.json files of `flamecraft tournament` (or games.jsonl)")
    p.add_argument("--bootstrap", type=int, default=1000,
                   help="bootstrap resamples of the games for the intervals (default 1000)")
    p.add_argument("--seed", type=int, default=1, help="bootstrap seed (default 1)")
    p.add_argument("--prior", type=float, default=1.0,
                   help="virtual drawn games per pair of bots that met (default 1)")
    p.add_argument("--anchor", default=None,
                   help="the bot rated 0 (default: the mean rating is 0)")
    p.add_argument("--out", default="ladder",
                   help="folder for ladder.md, ladder.json, ladder.png (default: ladder)")


def cmd_ladder(args: argparse.Namespace) -> int:
    """Bradley–Terry ratings of bots from tournament results (``ai/ladder.py``)."""
    try:
        from .ai.ladder import cmd_ladder as run
    except ImportError as exc:
        raise CliError(f"flamecraft ladder needs numpy and scipy (pip install "
                       f"'flamecraft[reports]'): {exc}") from None
    try:
        return run(args)
    except (ValueError, RuntimeError) as exc:
        raise CliError(str(exc)) from None


def cmd_hint(args: argparse.Namespace) -> int:
    """The best actions for the player to act, from that seat's view (``ai/hints.py``), in
    the language of ``--lang``."""
    from .ai.hints import HINT_BUDGET, Budget, hints
    from .ai.interface import Seat

    lang = chosen_language(args)
    tr = translator(lang, "terminal").gettext
    game = translator(lang, "game").gettext
    s = _load_state(args.state)
    if s.over:
        raise CliError.of(N_("{path}: the game is over: there is nothing to hint"),
                          path=_label(args.state))
    p = to_act(s)
    budget = Budget(samples=args.samples, beam=HINT_BUDGET.beam, depth=HINT_BUDGET.depth)
    began = time.perf_counter()
    ranked = hints(Seat(s, p), random.Random(args.seed), budget, tr=game,
                   game=game if lang != "en" else same)
    elapsed = time.perf_counter() - began
    print(tr("Hints for {who} ({decision}), from {name}'s view only: {samples} samples of the "
             "cards {name} cannot see, each action's turn planned to its end ({seconds} s)")
          .format(who=_who(s), decision=describe_decision(s, game), name=names(s)[p],
                  samples=budget.samples, seconds=f"{elapsed:.2f}"))
    words = {text(s, a): describe(s, a, game).words for a in legal_actions(s)}
    for rank, h in enumerate(ranked[:args.top], 1):
        win = "" if h.win is None else tr("{pct}% to win, ").format(pct=f"{100 * h.win:.0f}")
        gap = tr("best") if rank == 1 else tr("{loss} ± {se} behind").format(
            loss=f"{h.loss:.1f}", se=f"{h.loss_se:.1f}")
        print(f"{rank}. {words.get(h.text, h.text)}  ({win}{gap})")
        print(f"   {h.reason}")
        if h.plan:
            print("   " + tr("then: {plan}").format(plan=" / ".join(h.plan)))
    if len(ranked) > args.top:
        print(tr("({n} more; --top {all} lists them all)").format(n=len(ranked) - args.top,
                                                                  all=len(ranked)))
    return 0


def cmd_review(args: argparse.Namespace) -> int:
    """Reviews a finished game: each decision against the best, the biggest mistakes, and a
    win-chance graph (``ai/review.py``)."""
    from .ai.hints import Budget
    from .ai.review import REVIEW_BUDGET, check_finished, format_review, plot_review, review

    record = _load_record(args.record)
    label = _label(args.record)
    try:
        final = check_finished(record)
    except FlamecraftError as exc:
        raise CliError(f"{label}: {exc}") from None
    seats = None if args.seat is None else [_seat_named(final, args.seat, "--seat")]
    budget = Budget(samples=args.samples, beam=REVIEW_BUDGET.beam, depth=REVIEW_BUDGET.depth)
    done = [0]

    def progress(k: int, total: int) -> None:
        if not args.quiet and sys.stderr.isatty() and (k == total or k - done[0] >= 10):
            done[0] = k
            print(f"\rreviewing: action {k}/{total}", end="" if k < total else "\n",
                  file=sys.stderr, flush=True)

    rv = review(record, seats, budget, progress=progress)
    who = "every seat" if seats is None else names(final)[seats[0]]
    title = (f"{label}: {final.n} players, seed {record.seed}, {len(record.actions)} actions, "
             f"{final.turn} turns; decisions of {who}")
    report = format_review(rv, title, args.top)
    os.makedirs(args.out, exist_ok=True)
    written = [os.path.join(args.out, "review.txt"), os.path.join(args.out, "review.json")]
    write_atomically(written[0], report)
    write_atomically(written[1], json.dumps(rv.to_json(), indent=1) + "\n")
    png = os.path.join(args.out, "win-chance.png")
    if plot_review(rv, png, f"Win chance, {os.path.basename(label)} ({final.n} players, "
                            f"seed {record.seed})"):
        written.append(png)
    sys.stdout.write(report)
    print(f"wrote {', '.join(written)}")
    return 0


# ---------------------------------------------------------------- parser and main


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every subcommand."""
    parser = _Parser(prog=PROG, description="Flamecraft: play, inspect and simulate games. "
                     "States and game records are JSON files; '-' reads stdin.")
    parser.add_argument("--version", action="version", version=version_line(),
                        help="print the version and which form of the rules core runs")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("play", help="play in the terminal, against bots or friends at one "
                       "keyboard (alone: you against 3 bots)")
    add_play_arguments(p)
    p.set_defaults(func=cmd_play)

    def game_options(p: argparse.ArgumentParser, names_too: bool = True,
                     seed_default: int | None = None) -> None:
        p.add_argument("--players", type=_players, required=True,
                       help=f"number of players ({MIN_PLAYERS}–{MAX_PLAYERS})")
        if seed_default is None:
            p.add_argument("--seed", type=int, required=True, help="the game's random seed")
        else:
            p.add_argument("--seed", type=int, default=seed_default,
                           help=f"the first game's random seed; game i uses seed + i "
                                f"(default: {seed_default})")
        p.add_argument("--first-player", type=_positive, metavar="SEAT",
                       help="the seat that plays first, 1–players (default: drawn from the "
                            "seed, as the rules draw it at random)")
        p.add_argument("--enchantments", choices=("purple", "golden"), default="purple",
                       help="Enchantment deck (default: purple)")
        p.add_argument("--companions", action="store_true",
                       help="play with the Companion module (off by default)")
        if names_too:
            p.add_argument("--names", type=_names, help="player names, comma-separated")

    p = sub.add_parser("new", help="write a new game's state")
    game_options(p)
    p.add_argument("--out", help="file to write (default: stdout)")
    p.add_argument("--pretty", action="store_true",
                   help="indent the JSON for reading (default: compact, except on a terminal)")
    p.set_defaults(func=cmd_new)

    p = sub.add_parser("actions", help="list the legal actions of the player to act")
    p.add_argument("state", help="state file")
    p.add_argument("--plain", action="store_true", help="action texts only, no numbers")
    p.set_defaults(func=cmd_actions)

    p = sub.add_parser("apply", help="apply actions (by text or number) and write the result")
    p.add_argument("state", help="state file (never changed unless --out names it)")
    p.add_argument("action", nargs="+", help="action text or index, applied in order")
    p.add_argument("--out", help="file to write the new state to (default: stdout)")
    p.add_argument("--pretty", action="store_true",
                   help="indent the JSON for reading (default: compact, except on a terminal)")
    p.set_defaults(func=cmd_apply)

    p = sub.add_parser("show", help="print the board as one player sees it")
    p.add_argument("state", help="state file")
    p.add_argument("--as", dest="as_", metavar="PLAYER",
                   help="player number (1-based) or name, or 'spectator' "
                        "(default: the player to act)")
    add_lang_argument(p)
    p.set_defaults(func=cmd_show)

    p = sub.add_parser("replay", help="replay a game record and print the result")
    p.add_argument("record", help="game record file")
    p.add_argument("--verbose", action="store_true", help="print every action")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("simulate", help="play random games and print statistics")
    game_options(p, names_too=False, seed_default=1)
    p.add_argument("--games", type=_positive, required=True, help="number of games")
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("demo", help="play one game of random bots and print its log")
    game_options(p)
    p.add_argument("--record", help="also write the game record (JSON) to this file")
    p.add_argument("--pretty", action="store_true", help="indent the record's JSON for reading")
    p.set_defaults(func=cmd_demo)

    from .ai import balance as ai_balance
    from .ai import tournament as ai_tournament

    p = sub.add_parser("tournament", help="play many games between bots and report win rates")
    ai_tournament.add_arguments(p)
    p.set_defaults(func=cmd_tournament)

    p = sub.add_parser("balance", help="play many bot games and write a balance report")
    ai_balance.add_arguments(p)
    p.set_defaults(func=cmd_balance)

    p = sub.add_parser("ladder", help="rate bots (Bradley–Terry, Elo scale, with intervals) "
                                      "from tournament results")
    _ladder_arguments(p)
    p.set_defaults(func=cmd_ladder)

    from .ai.hints import HINT_BUDGET
    from .ai.review import REVIEW_BUDGET

    p = sub.add_parser("hint", help="the best actions for the player to act, from their view "
                       "only, with win chances and reasons")
    p.add_argument("state", metavar="STATE", help="a game state (JSON; '-' for stdin)")
    p.add_argument("--top", type=_positive, default=3, help="actions shown (default 3)")
    p.add_argument("--samples", type=_positive, default=HINT_BUDGET.samples,
                   help=f"samples of the hidden cards (default {HINT_BUDGET.samples}: under a "
                        "second)")
    p.add_argument("--seed", type=int, default=1, help="seed of the samples (default 1)")
    add_lang_argument(p)
    p.set_defaults(func=cmd_hint)

    p = sub.add_parser("review", help="review a finished game: each decision against the "
                       "best, the biggest mistakes, a win-chance graph")
    p.add_argument("record", metavar="RECORD", help="a finished game's record (JSON)")
    p.add_argument("--seat", default=None, help="review this seat's decisions only (1–5 or "
                   "a name; default: every seat)")
    p.add_argument("--out", default="review", help="folder for review.txt, review.json and "
                   "win-chance.png (default: review)")
    p.add_argument("--samples", type=_positive, default=REVIEW_BUDGET.samples,
                   help=f"samples of the hidden cards per decision (default "
                        f"{REVIEW_BUDGET.samples})")
    p.add_argument("--top", type=_positive, default=5, help="mistakes listed (default 5)")
    p.add_argument("--quiet", action="store_true", help="no progress line")
    p.set_defaults(func=cmd_review)

    p = sub.add_parser("info", help="the version, the Python, and which form of the rules "
                       "core runs (compiled with mypyc, or pure Python and why)")
    p.set_defaults(func=cmd_info)

    p = sub.add_parser("serve", help="play in the browser: run the web server (lobby, live "
                       "tables, bots); see docs/server.md")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default: "
                   "127.0.0.1, this machine only)")
    p.add_argument("--port", type=int, default=8000, help="port (default: 8000)")
    p.add_argument("--database", metavar="URL", help="an SQLite file or postgresql://… URL "
                   "(default: $FLAMECRAFT_DATABASE_URL, else flamecraft.sqlite3 here)")
    p.set_defaults(func=cmd_serve)
    return parser


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("flamecraft")
    except PackageNotFoundError:
        return "unknown"


def version_line() -> str:
    """``flamecraft --version``: the version and the form of the core, on one line."""
    from . import core
    return f"{PROG} {_version()} (rules core: {core.FORM})"


def cmd_info(args: argparse.Namespace) -> int:
    """Which flamecraft runs where: the form of the rules core matters for speed, and a
    person chasing a difference between machines needs to see it."""
    import platform

    from . import core
    from .core import engine
    print(f"flamecraft  {_version()}")
    print(f"python      {platform.python_implementation()} {platform.python_version()} "
          f"({sys.executable})")
    print(f"rules core  {core.FORM}")
    print(f"loaded from {engine.__file__}")
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    """Runs the web server (the optional ``web`` extra)."""
    try:
        from .server import serve
    except ImportError as exc:
        raise CliError(f"the web server needs the 'web' extra ({exc.name} is missing): "
                       "pip install 'flamecraft[web]'") from None
    try:
        return serve(args.host, args.port, args.database)
    except ValueError as exc:
        raise CliError(str(exc)) from None


def _error(message: str) -> None:
    print(f"{PROG}: {message}", file=sys.stderr)


def _language(argv: Sequence[str] | None) -> str:
    """The language errors are reported in: ``--lang`` if the command line has it (even
    when the rest of it is wrong), else the environment's."""
    words = list(sys.argv[1:] if argv is None else argv)
    for k, word in enumerate(words):
        value = word[len("--lang="):] if word.startswith("--lang=") else (
            words[k + 1] if word == "--lang" and k + 1 < len(words) else "")
        if value in LANGUAGES:
            return value
    return language_from_env(os.environ)


def main(argv: Sequence[str] | None = None) -> int:
    """Runs one subcommand; returns the exit status (0 ok, 1 error, 2 usage error)."""
    parser = build_parser()
    tr = translator(_language(argv), "terminal").gettext
    try:
        args = parser.parse_args(list(argv) if argv is not None else None)
        status: int = args.func(args)
        sys.stdout.flush()
        return status
    except UsageError as exc:
        print(exc.text(tr), file=sys.stderr)
        return 2
    except SystemExit as exc:  # --help
        return exc.code if isinstance(exc.code, int) else 0
    except CliError as exc:
        _error(exc.text(tr))
        return 1
    except FlamecraftError as exc:
        _error(str(exc))
        return 1
    except BrokenPipeError:
        with contextlib.suppress(OSError, ValueError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        return 1
    except KeyboardInterrupt:
        _error("interrupted")
        return 130
    except Exception as exc:
        if os.environ.get("FLAMECRAFT_DEBUG"):
            raise
        _error(f"internal error: {type(exc).__name__}: {exc} "
               "(please report it; FLAMECRAFT_DEBUG=1 shows the traceback)")
        return 1


if __name__ == "__main__":
    sys.exit(main())
