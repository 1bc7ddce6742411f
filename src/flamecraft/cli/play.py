"""``flamecraft play``: its options, and the set-up of a terminal game from them (or from the
set-up questions, or a saved game) before the terminal's game loop takes over."""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import sys

from ..ai.roster import DEFAULT_OPPONENT, LEVELS, bot_notes
from ..core.errors import error_text
from ..core.setup_game import MAX_PLAYERS, MIN_PLAYERS
from ..core.tr import Translate, same
from ..display.i18n import LANGUAGES, language_from_env
from ..session.seats import SetupError
from ..terminal.console import Hangup, Terminal
from ..terminal.game_loop import Game
from ..terminal.local_table import LocalTable
from ..terminal.newgame import DEFAULT_PLAYERS, SETUP_FLAGS, interactive_setup, setup_from_args
from ..terminal.saves import AUTOSAVE, load_table
from ..terminal.screen import Style
from .common import CliError, UsageError


def add_play_arguments(p: argparse.ArgumentParser, tr: Translate = same) -> None:
    """The options of ``flamecraft play``, their help in the language of ``tr``."""
    p.add_argument("--players", type=int, help=tr(
        "number of players, {low}–{high} (default {n}, or as many as --seats lists)").format(
        low=MIN_PLAYERS, high=MAX_PLAYERS, n=DEFAULT_PLAYERS))
    p.add_argument("--seats", help=tr(
        "who plays each seat, comma-separated: human, bot (the default, {bot}), a level "
        "({levels}) or a bot by name ({bots}); default: human, then bots").format(
        bot=DEFAULT_OPPONENT, levels=", ".join(level.id for level in LEVELS),
        bots=", ".join(name for name, _ in bot_notes())))
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
            session = load_table(args.load, tr, term.style.game)
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
        session = LocalTable.new(setup)
    game = Game(session, term, args.autosave)

    def hang_up(signum: int, frame: object) -> None:
        raise Hangup

    def resized(signum: int, frame: object) -> None:
        term.resize()

    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, hang_up)
    if hasattr(signal, "SIGWINCH"):
        signal.signal(signal.SIGWINCH, resized)
    return game.run()
