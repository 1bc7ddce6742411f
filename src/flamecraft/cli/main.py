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
from dataclasses import replace
from typing import Any, NoReturn

from ..ai.roster import random_action
from ..core.board import CATALOG
from ..core.describe import describe
from ..core.engine import (
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
from ..core.errors import FlamecraftError, StateFormatError, error_text
from ..core.serialize import (
    GameRecord,
    action_error,
    dump_record,
    dump_state,
    load_record,
    load_state,
)
from ..core.setup_game import MAX_PLAYERS, MIN_PLAYERS
from ..core.state import GameState
from ..core.tr import N_, Translate, same
from ..core.view import view
from ..display.i18n import LANGUAGES, display_width, language_from_env, pad, translator
from ..display.render import render, scores
from ..terminal.ending import decision_words
from ..terminal.screen import Style, review_screen
from .common import (
    CliError,
    UsageError,
    WideHelpFormatter,
    argparse_speaking,
    speaking,
    write_atomically,
)
from .play import add_lang_argument, add_play_arguments, chosen_language, cmd_play

PROG = "flamecraft"
MAX_DECISIONS = 100_000  # a random game that has not ended after this many choices is a bug


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage error on one line instead of printing usage and exiting,
    so ``main`` returns a status rather than raising SystemExit."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", WideHelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        raise UsageError.of(N_("{prog}: {message} (see --help)"), prog=self.prog,
                            message=message)


# ---------------------------------------------------------------- argument types


# An argument type's error is said in the language of the parser in use (``speaking``).


def _whole(value: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(speaking()("not a whole number: {value}").format(
            value=repr(value))) from None


def _players(value: str) -> int:
    n = _whole(value)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise argparse.ArgumentTypeError(
            speaking()("Flamecraft is for {low}–{high} players, not {n}").format(
                low=MIN_PLAYERS, high=MAX_PLAYERS, n=n))
    return n


def _positive(value: str) -> int:
    n = _whole(value)
    if n < 1:
        raise argparse.ArgumentTypeError(speaking()("must be at least 1, not {n}").format(n=n))
    return n


def _names(value: str) -> tuple[str, ...]:
    tr = speaking()
    parts = tuple(" ".join(part.split()) for part in value.split(","))
    if any(not part for part in parts):
        raise argparse.ArgumentTypeError(tr("an empty name in {value}").format(
            value=repr(value)))
    if len({p.lower() for p in parts}) != len(parts):
        raise argparse.ArgumentTypeError(tr("a name is given twice in {value}").format(
            value=repr(value)))
    if any(p.isdigit() or p.lower() == "spectator" for p in parts):
        raise argparse.ArgumentTypeError(tr("a name may not be a number or 'spectator'"))
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
    except StateFormatError as exc:  # said in the reader's language by ``main``
        raise CliError.of(N_("{path}: {error}"), path=_label(path), error=exc) from None


def _load_record(path: str) -> GameRecord:
    try:
        return load_record(_read(path))
    except StateFormatError as exc:
        raise CliError.of(N_("{path}: {error}"), path=_label(path), error=exc) from None


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
        raise UsageError.of(N_("{prog}: --first-player {first}: there are only {n} players "
                               "(see --help)"), prog=PROG, first=first, n=args.players)
    return first - 1


def _start(players: int, seed: int, deck: str, player_names: tuple[str, ...],
           companions: bool = False, first_player: int | None = None) -> GameState:
    """A new game; a bad option raises the engine's error, which ``main`` says in the
    reader's language."""
    return start(players, seed, deck, player_names, companions, first_player)


def _who(s: GameState, tr: Translate = same) -> str:
    p = to_act(s)
    return names(s)[p] if p >= 0 else tr("nobody")


def _speech(args: argparse.Namespace) -> tuple[str, Translate, Translate]:
    """The reader's language (``--lang`` or the environment) and its ``terminal`` and
    ``game`` translations."""
    lang = chosen_language(args)
    return lang, translator(lang, "terminal").gettext, translator(lang, "game").gettext


# ---------------------------------------------------------------- subcommands


def cmd_new(args: argparse.Namespace) -> int:
    """Writes a new game's state, waiting for its first choice."""
    s = _start(args.players, args.seed, _deck(args), args.names or (), args.companions,
               _first_player(args))
    _output(args.out, dump_state(s, _pretty(args)))
    return 0


def cmd_actions(args: argparse.Namespace) -> int:
    """Lists the legal actions of the player to act, numbered for ``apply``."""
    lang, tr, game = _speech(args)
    s = _load_state(args.state)
    actions = legal_actions(s)
    if not args.plain:
        if s.over:
            print(tr("# the game is over: no actions"))
        else:
            print(tr("# {who} to act (turn {turn}): choosing {decision}").format(
                who=_who(s, tr), turn=s.turn, decision=describe_decision(s, game)))
    for i, a in enumerate(actions):  # --plain: the stable texts, for scripts, in English
        said = text(s, a) if args.plain or lang == "en" else describe(s, a, game).words
        print(said if args.plain else f"{i}: {said}")
    return 0


def cmd_apply(args: argparse.Namespace) -> int:
    """Applies actions in order and writes the next state; nothing is written unless every
    action was legal."""
    _, tr, game = _speech(args)
    s = _load_state(args.state)
    for number, typed in enumerate(args.action, 1):
        try:
            apply_in_place(s, parse_action(s, typed))
        except FlamecraftError as exc:
            raise CliError.of(N_("action {number} ({typed}): {error}"), number=number,
                              typed=repr(typed), error=exc) from None
    _output(args.out, dump_state(s, _pretty(args)))
    if args.out not in (None, "-"):
        now = tr("the game is over") if s.over else tr("{who} to act: {decision}").format(
            who=_who(s, tr), decision=describe_decision(s, game))
        print(tr("applied {n} action(s) to {path}; {now}").format(n=len(args.action),
                                                                   path=args.out, now=now))
    return 0


def _seat_named(s: GameState, value: str, option: str, also: str = "") -> int:
    """The seat a command-line value names: its number (1-based) or its player's name."""
    seats = names(s)
    if value.isdigit() and 1 <= int(value) <= s.n:
        return int(value) - 1
    for p, name in enumerate(seats):
        if name.lower() == value.lower():
            return p
    raise CliError.of(N_("{option} {value}: no such player (give 1–{n}, one of {names}{also})"),
                      option=option, value=repr(value), n=s.n, names=", ".join(seats),
                      also=also)


def _observer(s: GameState, value: str | None, tr: Translate = same) -> int | None:
    if value is None:
        p = to_act(s)
        return p if p >= 0 else None
    if value.lower() == "spectator":
        return None
    return _seat_named(s, value, "--as", tr(", or 'spectator'"))


def cmd_show(args: argparse.Namespace) -> int:
    """Prints the board as one seat sees it (from its view only, so nothing hidden leaks)."""
    s = _load_state(args.state)
    lang = chosen_language(args)
    observer = _observer(s, args.as_, translator(lang, "terminal").gettext)
    v = view(s, observer)
    if lang != "en":  # the decision and the choices in the reader's words (same order)
        tr = translator(lang, "game").gettext
        if v.get("choosing"):
            v["choosing"] = describe_decision(s, tr)
        if v.get("legal_actions"):
            v["legal_actions"] = [describe(s, a, tr).words for a in legal_actions(s)]
    sys.stdout.write(render(v, CATALOG, lang=lang))
    return 0


def _result_lines(s: GameState, lang: str = "en") -> list[str]:
    if s.over:
        return scores(view(s, None), lang)
    tr = translator(lang, "terminal").gettext
    rep = tr(", ").join(f"{n} {r}" for n, r in zip(names(s), s.rep, strict=True))
    return [tr("The game is not over (turn {turn}, {who} to act): Reputation {rep}").format(
        turn=s.turn, who=_who(s, tr), rep=rep)]


def _turn(turn: int, tr: Translate) -> str:
    """'turn   7' (the number right-aligned in 3 columns), for a log line."""
    return tr("turn {turn}").format(turn=f"{turn:>3}")


def cmd_replay(args: argparse.Namespace) -> int:
    """Replays a game record and prints its result (and each action with --verbose; in a
    language other than English the actions in that language's words)."""
    lang, tr, game = _speech(args)
    record = _load_record(args.record)
    try:
        s = record.first_state()
    except FlamecraftError as exc:
        raise CliError.of(N_("{path}: {error}"), path=_label(args.record), error=exc) from None
    lines: list[str] = []  # printed once the whole record has replayed: a refusal prints none
    for number, typed in enumerate(record.actions, 1):
        turn, who = s.turn, _who(s, tr)
        try:
            action = record.parse(s, typed)
            said = typed if lang == "en" else describe(s, action, game).words
            apply_in_place(s, action)
        except FlamecraftError as exc:
            raise CliError.of(N_("{path}: {error}"), path=_label(args.record),
                              error=action_error(number, typed, exc)) from None
        if args.verbose:
            lines.append(f"{_turn(turn, tr)}  {who}: {said}")
    print("\n".join([*lines, *_result_lines(s, lang)]))
    stored = record.result
    if (s.over and isinstance(stored, dict) and "reputation" in stored
            and (stored["reputation"] != s.rep or stored.get("winners", winners(s)) != winners(s))):
        raise CliError.of(N_("{path}: the replayed result differs from the recorded one "
                             "(recorded Reputation {recorded}, replayed {replayed})"),
                          path=_label(args.record), recorded=stored["reputation"],
                          replayed=s.rep)
    return 0


def play_random(s: GameState, rng: random.Random,
                log: list[tuple[int, str, str]] | None = None,
                words: list[str] | None = None, tr: Translate = same) -> int:
    """Plays random legal actions to the end; returns the number of choices made. ``log``
    collects (turn, player name, action text) of each choice; ``words`` each action in the
    words of ``tr`` (the game catalogue's language)."""
    count = 0
    while not s.over:
        if count >= MAX_DECISIONS:
            raise CliError.of(N_("the game did not end after {n} decisions"), n=MAX_DECISIONS)
        action = random_action(s, rng)
        if log is not None:
            log.append((s.turn, _who(s), text(s, action)))
        if words is not None:
            words.append(describe(s, action, tr).words)
        apply_in_place(s, action)
        count += 1
    return count


def cmd_demo(args: argparse.Namespace) -> int:
    """Plays one game of random bots and prints its log and result."""
    lang, tr, game = _speech(args)
    s = _start(args.players, args.seed, _deck(args), args.names or (), args.companions,
               _first_player(args))
    log: list[tuple[int, str, str]] = []
    words: list[str] | None = None if lang == "en" else []
    first = names(s)[s.first_player]
    play_random(s, random.Random(args.seed), log, words, game)
    print(tr("Flamecraft demo: {n} random bots, seed {seed}, {deck} Enchantments, {first} "
             "plays first").format(n=s.n, seed=args.seed, deck=tr(_deck(args)), first=first))
    print(tr("(a step with a single possible choice is taken automatically and not shown)"))
    wide = max(display_width(n) for n in names(s))
    for k, (turn, who, said) in enumerate(log):
        print(f"{_turn(turn, tr)}  {pad(who, wide)}  {said if words is None else words[k]}")
    print()
    print("\n".join(_result_lines(s, lang)))
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
    from ..ai.tournament import cmd_tournament as run

    try:
        return run(args)
    except (ValueError, RuntimeError) as exc:
        raise CliError(str(exc)) from None


def cmd_balance(args: argparse.Namespace) -> int:
    """A balance report from many bot games (``ai/balance.py``)."""
    from ..ai.balance import cmd_balance as run

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
        from ..ai.ladder import cmd_ladder as run
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
    from ..ai.hints import HINT_BUDGET, hints
    from ..ai.interface import Seat

    lang = chosen_language(args)
    tr = translator(lang, "terminal").gettext
    game = translator(lang, "game").gettext
    s = _load_state(args.state)
    if s.over:
        raise CliError.of(N_("{path}: the game is over: there is nothing to hint"),
                          path=_label(args.state))
    p = to_act(s)
    budget = replace(HINT_BUDGET, samples=args.samples)  # as the terminal's and the web's
    began = time.perf_counter()
    ranked = hints(Seat(s, p), random.Random(args.seed), budget, tr=game,
                   game=game if lang != "en" else same)
    elapsed = time.perf_counter() - began
    print(tr("Hints for {who} ({decision}), from {name}'s view only: up to {samples} samples "
             "of the cards {name} cannot see, each action's turn planned to its end "
             "({seconds} s)")
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
    from ..ai.review import REVIEW_BUDGET, check_finished, format_review, plot_review, review

    lang, tr, game = _speech(args)
    record = _load_record(args.record)
    label = _label(args.record)
    try:
        final = check_finished(record)
    except FlamecraftError as exc:
        raise CliError.of(N_("{path}: {error}"), path=label, error=exc) from None
    seats = None if args.seat is None else [_seat_named(final, args.seat, "--seat")]
    budget = replace(REVIEW_BUDGET, samples=args.samples)
    done = [0]

    def progress(k: int, total: int) -> None:
        if not args.quiet and sys.stderr.isatty() and (k == total or k - done[0] >= 10):
            done[0] = k
            print("\r" + tr("reviewing: action {k}/{total}").format(k=k, total=total),
                  end="" if k < total else "\n", file=sys.stderr, flush=True)

    rv = review(record, seats, budget, progress=progress, tr=game)
    who = tr("every seat") if seats is None else names(final)[seats[0]]
    title = tr("{path}: {n} players, seed {seed}, {actions} actions, {turns} turns; decisions "
               "of {who}").format(path=label, n=final.n, seed=record.seed,
                                  actions=len(record.actions), turns=final.turn, who=who)
    if lang == "en":
        report = format_review(rv, title, args.top)
    else:  # the end screen's review (tui_screen), the mistakes' actions in the reader's words
        lines = review_screen(Style(False, lang), rv, 80, args.top,
                              decision_words(record, rv, game, args.top))
        report = "\n".join([tr("Review of {title}").format(title=title), "", *lines]) + "\n"
    os.makedirs(args.out, exist_ok=True)
    written = [os.path.join(args.out, "review.txt"), os.path.join(args.out, "review.json")]
    write_atomically(written[0], report)
    write_atomically(written[1], json.dumps(rv.to_json(), indent=1) + "\n")
    png = os.path.join(args.out, "win-chance.png")
    if plot_review(rv, png, f"Win chance, {os.path.basename(label)} ({final.n} players, "
                            f"seed {record.seed})"):
        written.append(png)
    sys.stdout.write(report)
    print(tr("wrote {files}").format(files=tr(", ").join(written)))
    return 0


# ---------------------------------------------------------------- parser and main


def build_parser(tr: Translate = same) -> argparse.ArgumentParser:
    """The argument parser of every subcommand, its help in the language of ``tr`` (the
    ``terminal`` catalogue; argparse's own words follow ``common.argparse_speaking``).
    The research commands (tournament, balance, ladder) keep their options' help in
    English (docs/i18n.md)."""
    parser = _Parser(prog=PROG, description=tr(
        "Flamecraft: play, inspect and simulate games. States and game records are JSON "
        "files; '-' reads stdin."))
    parser.add_argument("--version", action=_VersionAction, nargs=0,
                        help=tr("print the version and which form of the rules core runs"))
    parser.add_argument("--lang", dest="top_lang", choices=LANGUAGES, default=None,
                        help=tr("language of the help and the messages: en or ja (default: "
                                "from LC_ALL, LC_MESSAGES or LANG; ja_* is Japanese)"))
    sub = parser.add_subparsers(dest="command", required=True, metavar=tr("COMMAND"))

    p = sub.add_parser("play", help=tr("play in the terminal, against bots or friends at one "
                                       "keyboard (alone: you against 3 bots)"))
    add_play_arguments(p, tr)
    p.set_defaults(func=cmd_play)

    _add_game_commands(sub, tr)
    _add_bot_commands(sub, tr)
    _add_tool_commands(sub, tr)
    return parser


Subparsers = argparse._SubParsersAction  # argparse's type of ``add_subparsers()``


def _game_options(p: argparse.ArgumentParser, tr: Translate, names_too: bool = True,
                  seed_default: int | None = None) -> None:
    """The options that set up a game: players, seed, first player, deck, Companions."""
    p.add_argument("--players", type=_players, required=True,
                   help=tr("number of players ({low}–{high})").format(low=MIN_PLAYERS,
                                                                     high=MAX_PLAYERS))
    if seed_default is None:
        p.add_argument("--seed", type=int, required=True, help=tr("the game's random seed"))
    else:
        p.add_argument("--seed", type=int, default=seed_default,
                       help=tr("the first game's random seed; game i uses seed + i "
                               "(default: {seed})").format(seed=seed_default))
    p.add_argument("--first-player", type=_positive, metavar=tr("SEAT"),
                   help=tr("the seat that plays first, 1–players (default: drawn from the "
                           "seed, as the rules draw it at random)"))
    p.add_argument("--enchantments", choices=("purple", "golden"), default="purple",
                   help=tr("Enchantment deck (default: purple)"))
    p.add_argument("--companions", action="store_true",
                   help=tr("play with the Companion module (off by default)"))
    if names_too:
        p.add_argument("--names", type=_names, help=tr("player names, comma-separated"))


def _add_game_commands(sub: Subparsers[_Parser], tr: Translate) -> None:
    """new, actions, apply, show, replay, simulate, demo: a game one command at a time."""
    pretty = tr("indent the JSON for reading (default: compact, except on a terminal)")
    p = sub.add_parser("new", help=tr("write a new game's state"))
    _game_options(p, tr)
    p.add_argument("--out", metavar=tr("OUT"), help=tr("file to write (default: stdout)"))
    p.add_argument("--pretty", action="store_true", help=pretty)
    add_lang_argument(p, tr)
    p.set_defaults(func=cmd_new)

    p = sub.add_parser("actions", help=tr("list the legal actions of the player to act"))
    p.add_argument("state", metavar=tr("state"), help=tr("state file"))
    p.add_argument("--plain", action="store_true",
                   help=tr("action texts only, no numbers (the stable English texts)"))
    add_lang_argument(p, tr)
    p.set_defaults(func=cmd_actions)

    p = sub.add_parser("apply", help=tr("apply actions (by text or number) and write the "
                                        "result"))
    p.add_argument("state", metavar=tr("state"),
                   help=tr("state file (never changed unless --out names it)"))
    p.add_argument("action", nargs="+", metavar=tr("action"),
                   help=tr("action text or index, applied in order"))
    p.add_argument("--out", metavar=tr("OUT"),
                   help=tr("file to write the new state to (default: stdout)"))
    p.add_argument("--pretty", action="store_true", help=pretty)
    add_lang_argument(p, tr)
    p.set_defaults(func=cmd_apply)

    p = sub.add_parser("show", help=tr("print the board as one player sees it"))
    p.add_argument("state", metavar=tr("state"), help=tr("state file"))
    p.add_argument("--as", dest="as_", metavar=tr("PLAYER"),
                   help=tr("player number (1-based) or name, or 'spectator' "
                           "(default: the player to act)"))
    add_lang_argument(p, tr)
    p.set_defaults(func=cmd_show)

    p = sub.add_parser("replay", help=tr("replay a game record and print the result"))
    p.add_argument("record", metavar=tr("record"), help=tr("game record file"))
    p.add_argument("--verbose", action="store_true", help=tr("print every action"))
    add_lang_argument(p, tr)
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("simulate", help=tr("play random games and print statistics"))
    _game_options(p, tr, names_too=False, seed_default=1)
    p.add_argument("--games", type=_positive, required=True, help=tr("number of games"))
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("demo", help=tr("play one game of random bots and print its log"))
    _game_options(p, tr)
    p.add_argument("--record", metavar=tr("RECORD"),
                   help=tr("also write the game record (JSON) to this file"))
    p.add_argument("--pretty", action="store_true",
                   help=tr("indent the record's JSON for reading"))
    add_lang_argument(p, tr)
    p.set_defaults(func=cmd_demo)


def _add_bot_commands(sub: Subparsers[_Parser], tr: Translate) -> None:
    """tournament, balance, ladder, hint, review: the bots at work."""
    from ..ai import balance as ai_balance
    from ..ai import tournament as ai_tournament

    p = sub.add_parser("tournament", help=tr("play many games between bots and report win "
                                             "rates"))
    ai_tournament.add_arguments(p)
    p.set_defaults(func=cmd_tournament)

    p = sub.add_parser("balance", help=tr("play many bot games and write a balance report"))
    ai_balance.add_arguments(p)
    p.set_defaults(func=cmd_balance)

    p = sub.add_parser("ladder", help=tr("rate bots (Bradley–Terry, Elo scale, with "
                                         "intervals) from tournament results"))
    _ladder_arguments(p)
    p.set_defaults(func=cmd_ladder)

    from ..ai.hints import HINT_BUDGET
    from ..ai.review import REVIEW_BUDGET

    p = sub.add_parser("hint", help=tr("the best actions for the player to act, from their "
                                       "view only, with win chances and reasons"))
    p.add_argument("state", metavar=tr("STATE"),
                   help=tr("a game state (JSON; '-' for stdin)"))
    p.add_argument("--top", type=_positive, default=3, help=tr("actions shown (default 3)"))
    p.add_argument("--samples", type=_positive, default=HINT_BUDGET.samples,
                   help=tr("the most samples of the hidden cards (default {n}: under a "
                           "second)").format(
                       n=HINT_BUDGET.samples))
    p.add_argument("--seed", type=int, default=1, help=tr("seed of the samples (default 1)"))
    add_lang_argument(p, tr)
    p.set_defaults(func=cmd_hint)

    p = sub.add_parser("review", help=tr("review a finished game: each decision against the "
                                         "best, the biggest mistakes, a win-chance graph"))
    p.add_argument("record", metavar=tr("RECORD"),
                   help=tr("a finished game's record (JSON)"))
    p.add_argument("--seat", default=None, metavar=tr("SEAT"),
                   help=tr("review this seat's decisions only (1–5 or a name; default: every "
                           "seat)"))
    p.add_argument("--out", default="review", metavar=tr("OUT"),
                   help=tr("folder for review.txt, review.json and win-chance.png (default: "
                           "review)"))
    p.add_argument("--samples", type=_positive, default=REVIEW_BUDGET.samples,
                   help=tr("the most samples of the hidden cards per decision (default "
                           "{n})").format(
                       n=REVIEW_BUDGET.samples))
    p.add_argument("--top", type=_positive, default=5, help=tr("mistakes listed (default 5)"))
    p.add_argument("--quiet", action="store_true", help=tr("no progress line"))
    add_lang_argument(p, tr)
    p.set_defaults(func=cmd_review)


def _add_tool_commands(sub: Subparsers[_Parser], tr: Translate) -> None:
    """info, serve and account."""
    p = sub.add_parser("info", help=tr("the version, the Python, and which form of the rules "
                                       "core runs (compiled with mypyc, or pure Python and "
                                       "why)"))
    p.set_defaults(func=cmd_info)

    p = sub.add_parser("serve", help=tr("play in the browser: run the web server (lobby, live "
                                        "tables, bots); see docs/server.md"))
    p.add_argument("--host", default="127.0.0.1",
                   help=tr("address to listen on (default: 127.0.0.1, this machine only)"))
    p.add_argument("--port", type=int, default=8000, help=tr("port (default: 8000)"))
    p.add_argument("--database", metavar="URL", help=tr(
        "an SQLite file or postgresql://… URL (default: $FLAMECRAFT_DATABASE_URL, else "
        "flamecraft.sqlite3 here)"))
    p.set_defaults(func=cmd_serve)

    p = sub.add_parser("admin", help=tr("the server operator's commands on its store: list the "
                                        "games, end or delete one; see docs/server.md"))
    p.add_argument("--database", metavar="URL", help=tr(
        "an SQLite file or postgresql://… URL (default: $FLAMECRAFT_DATABASE_URL, else "
        "flamecraft.sqlite3 here)"))
    admin = p.add_subparsers(dest="admin_command", required=True, metavar=tr("COMMAND"))
    a = admin.add_parser("list", help=tr("list the games, newest first"))
    a.add_argument("--status", choices=("unfinished", "open", "running", "finished", "all"),
                   default="unfinished", help=tr("which games (default: unfinished)"))
    a.add_argument("--limit", type=int, default=100,
                   help=tr("at most this many (default: 100)"))
    game_id_help = tr("the game's id (one that begins with '-' goes after '--')")
    a = admin.add_parser("end", help=tr("end a running game where it stands, with no winner"))
    a.add_argument("game", metavar=tr("GAME"), help=game_id_help)
    a = admin.add_parser("delete", help=tr("delete a game that is not running, with its "
                                           "actions, chat and reviews"))
    a.add_argument("game", metavar=tr("GAME"), help=game_id_help)
    a.add_argument("--yes", action="store_true",
                   help=tr("yes, delete it (it cannot be undone)"))
    p.set_defaults(func=cmd_admin)

    p = sub.add_parser("account", help=tr("the web server's accounts: a one-time recovery "
                                          "link for a person who lost their passkeys"))
    p.add_argument("action", choices=["recover"], help=tr("recover: print a recovery link"))
    p.add_argument("name", help=tr("the account's display name"))
    p.add_argument("--database", metavar="URL", help=tr(
        "an SQLite file or postgresql://… URL (default: $FLAMECRAFT_DATABASE_URL, else "
        "flamecraft.sqlite3 here)"))
    p.add_argument("--origin", metavar="URL", help=tr(
        "the server's address, for the link (default: $FLAMECRAFT_ORIGIN, else "
        "http://127.0.0.1:8000)"))
    p.add_argument("--revoke", action="store_true", help=tr(
        "once the new passkey is added, delete the account's other passkeys (a lost or "
        "stolen device)"))
    p.set_defaults(func=cmd_account)


def cmd_account(args: argparse.Namespace) -> int:
    """``flamecraft account recover NAME``: the host's recovery path (docs/server.md,
    "Accounts"): a link, valid once for an hour, that adds a passkey to the account."""
    try:
        from ..server.accounts import RECOVERY_SECONDS, issue_recovery
        from ..server.gameerror import GameError
        from ..server.settings import Settings
        from ..server.store import open_store, require_driver
    except ImportError as exc:
        raise CliError(f"accounts need the 'web' extra ({exc.name} is missing): "
                       "pip install 'flamecraft[web]'") from None
    try:
        settings = Settings.from_env(database=args.database)
        require_driver(settings.database_url)
        store = open_store(settings.database_url)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    try:
        code = issue_recovery(store, args.name, revoke=args.revoke)
    except GameError as exc:
        raise CliError(exc.message) from None
    finally:
        store.close()
    if code is None:
        raise CliError(f"there is no account named {args.name!r}")
    origin = (args.origin or settings.public_origin or "http://127.0.0.1:8000").rstrip("/")
    print(f"{origin}/account/recover#code={code}")
    print(f"(valid once, for {int(RECOVERY_SECONDS // 60)} minutes: send it to the person "
          "by a channel you trust)", file=sys.stderr)
    return 0


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("flamecraft")
    except PackageNotFoundError:
        return "unknown"


class _VersionAction(argparse.Action):
    """``--version``: the version line as it is, on one line (argparse's own version action
    wraps it to the terminal's width), then exit 0."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> NoReturn:
        print(version_line())
        parser.exit()


def version_line() -> str:
    """``flamecraft --version``: the version and the form of the core, on one line."""
    from .. import core
    return f"{PROG} {_version()} (rules core: {core.FORM})"


def cmd_info(args: argparse.Namespace) -> int:
    """Which flamecraft runs where: the form of the rules core matters for speed, and a
    person chasing a difference between machines needs to see it."""
    import platform

    from .. import core
    from ..core import engine
    print(f"flamecraft  {_version()}")
    print(f"python      {platform.python_implementation()} {platform.python_version()} "
          f"({sys.executable})")
    package = core.NATIVE_DIR.parent
    print(f"installed   {'a source checkout' if core.CHECKOUT else 'a wheel'} ({package})")
    print(f"rules core  {core.FORM}")
    print(f"loaded from {engine.__file__}")
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    """Runs the web server (the optional ``web`` extra)."""
    try:
        from ..server import serve
    except ImportError as exc:
        raise CliError(f"the web server needs the 'web' extra ({exc.name} is missing): "
                       "pip install 'flamecraft[web]'") from None
    try:
        return serve(args.host, args.port, args.database)
    except ValueError as exc:
        raise CliError(str(exc)) from None


def cmd_admin(args: argparse.Namespace) -> int:
    """The operator's commands on the server's store (server/admin.py)."""
    try:
        from ..server.settings import Settings
        from .admin import AdminError, run
    except ImportError as exc:
        raise CliError(f"flamecraft admin needs the 'web' extra ({exc.name} is missing): "
                       "pip install 'flamecraft[web]'") from None
    tr = translator(args.top_lang or language_from_env(os.environ), "terminal").gettext
    try:
        settings = Settings.from_env(database=args.database)
        return run(args.admin_command, settings, getattr(args, "game", None),
                   getattr(args, "status", "unfinished"), getattr(args, "limit", 100),
                   getattr(args, "yes", False), tr)
    except (AdminError, ValueError) as exc:
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
    """Runs one subcommand; returns the exit status (0 ok, 1 error, 2 usage error). The help,
    the usage errors (argparse's own words too) and every error are in the reader's language
    (``--lang``, else the environment)."""
    lang = _language(argv)
    tr = translator(lang, "terminal").gettext
    game = translator(lang, "game").gettext
    try:
        with argparse_speaking(tr):  # only while parsing: a command runs with argparse as is
            args = build_parser(tr).parse_args(list(argv) if argv is not None else None)
        status: int = args.func(args)
        sys.stdout.flush()
        return status
    except UsageError as exc:
        print(exc.text(tr, game), file=sys.stderr)
        return 2
    except SystemExit as exc:  # --help
        return exc.code if isinstance(exc.code, int) else 0
    except CliError as exc:
        _error(exc.text(tr, game))
        return 1
    except FlamecraftError as exc:
        _error(error_text(exc, game))
        return 1
    except BrokenPipeError:
        with contextlib.suppress(OSError, ValueError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        return 1
    except KeyboardInterrupt:
        _error(tr("interrupted"))
        return 130
    except Exception as exc:
        if os.environ.get("FLAMECRAFT_DEBUG"):
            raise
        _error(tr("internal error: {exception}: {error} (please report it; FLAMECRAFT_DEBUG=1 "
                  "shows the traceback)").format(exception=type(exc).__name__, error=exc))
        return 1


if __name__ == "__main__":
    sys.exit(main())
