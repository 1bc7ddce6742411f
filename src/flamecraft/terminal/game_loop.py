"""The game loop at a terminal: bots move by themselves, people are asked (with a hand-over
screen between two people's turns, so nobody sees another's cards) and answer with a choice
or a command (help, town, hand, board, card, log, hint, undo, save, load, quit); bad input
is answered with one short message and the same question, and the game is saved to an
autosave file if the input ends or the terminal closes."""

from __future__ import annotations

import contextlib
import os
import random
import time
import unicodedata
from collections.abc import Callable
from typing import Any

from ..ai.roster import BOTS
from ..core.actions import GAIN_SET
from ..core.board import CATALOG
from ..core.engine import (
    describe_decision,
    to_act,
)
from ..core.tr import N_, same
from ..core.view import view
from ..display.localized import solo_intro
from ..display.render import render
from ..session.compose import Composite
from ..session.seats import SetupError
from .console import Hangup, Terminal
from .ending import achievement_lines, decision_words, end_summary
from .local_table import LocalTable
from .saves import AUTOSAVE, load_table, save_text, write_file
from .screen import (
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
    summary_log_lines,
    town_detail,
    wrap,
)
from .typed_input import ChoiceError, find_card, goods_typed, match_text

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


class Leave(Exception):
    """Ends the program with ``status`` once the player has quit."""

    def __init__(self, status: int):
        super().__init__(status)
        self.status = status




class Game:
    """Runs a game at a terminal: bots move by themselves; people are asked."""

    def __init__(self, table: LocalTable, term: Terminal, autosave: str = AUTOSAVE):
        self.table = table
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
            origin = (tr("a saved state") if self.table.seed is None
                      else tr("a random deal") if self.table.secret_seed
                      else tr("seed {seed}").format(seed=self.table.seed))
            self.term.say(tr("Flamecraft, {origin}, {deck} Enchantments. Type 'help' at any "
                             "prompt.").format(origin=origin,
                                               deck=tr(self.table.state.options.deck)))
            self.term.say(tr("Seats: {seats}").format(seats=self._seats_line()))
            self.term.say(self._first_line())
            self._solo_intro()
            while not self.table.state.over:
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

    def _solo_intro(self) -> None:
        """A new solo game says what solo adds (Town Bustle, the turn limit, achievements,
        the titles) and, at a keyboard, waits for Enter so the first screen does not scroll
        it away."""
        s = self.table.state
        if s.n != 1 or s.turn > 1:
            return
        for line in solo_intro(s.options.deck, self.term.lang):
            self.term.say(line)
        if self.term.keyboard:
            self.term.ask(self.tr("Press Enter to start. "))

    def _seats_line(self) -> str:
        return self.tr(", ").join(f"{seat.name} ({seat.label(self.tr, self.style.game)})"
                                  for seat in self.table.seats)

    def _first_line(self) -> str:
        tr = self.tr
        s = self.table.state
        how = tr("drawn at random") if s.options.first_player is None else tr("chosen at setup")
        name = self.table.seats[s.first_player].name
        line = tr("{name} play first ({how}).") if name == "You" else tr(
            "{name} plays first ({how}).")
        return line.format(name=name, how=how)

    def step(self) -> None:
        s = self.table.state
        p = to_act(s)
        seat = self.table.seats[p]
        if not seat.human:
            policy = BOTS[seat.kind]
            action = policy(s, self.table.bot_rng(p))
            seen = len(self.table.log)
            self.table.play(action)
            lines = self.table.full_log(self.table.watcher(), self.style.game,
                                        self.table.log[seen:])
            for _turn, who, line in lines:
                self.term.say(f"  · {who}: {line}" if who else f"  · {line}", "dim")
            if lines:  # a move nobody reads (an `end turn`, a decline) is not waited for
                self.term.pause()
            return
        if self.table.humans > 1 and self.shown_to != p:
            self.term.clear()
            self.term.show(handover(self.style, seat.name))
            self.term.ask("")
            self.term.clear()
        self.shown_to = p
        self.decide(p)

    def draw(self, p: int) -> None:
        sv = self.table.screen_view(p, self.style)
        self.term.show(summary(self.style, sv, CATALOG, self.term.width, self.term.height))
        self.term.redraw = lambda: self.draw(p)  # after a resize, at the new size

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
        """Asks person ``p`` until a choice is made (commands answer and ask again). A step
        with one choice is taken without asking (``compose.automatic``), never the end of
        the turn: that is the confirm, and undo can still take the turn's choices back."""
        seen = len(self.table.log)
        if self.table.play_automatic():
            for _, line in self.table.log_for(p, self.style.game, self.table.log[seen:]):
                self.term.say(f"  · {line}", "dim")
            if self.table.state.over or to_act(self.table.state) != p:
                return
        self.draw(p)
        while True:
            line = self.typed(self.term.ask(f"{self.table.seats[p].name}> "))
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
                choice = self.match_choice(p, line)
            except ChoiceError as exc:
                self.term.say(str(exc), "bad")
                continue
            self.table.play_choice(choice)
            return

    def match_choice(self, p: int, line: str) -> Composite:
        """The choice a typed line picks: by its number as shown (numbers stay with their
        choices, ``LocalTable.choices_now``), its stable text or the start of it, the Goods
        of a set to gain (``br me pl``), or (in another language) the start of the choice
        as the screen shows it."""
        numbered = self.table.choices_now()
        listed = [c for _, c in numbered]
        number = line.strip()
        if number.isdigit():
            for n, c in numbered:
                if n == int(number):
                    return c
            raise ChoiceError(self.tr("there is no choice {n} now: type one of the numbers "
                                      "shown ({numbers})").format(
                n=int(number), numbers=self.tr(", ").join(str(n) for n, _ in numbered)))
        mask = goods_typed(line, self.style.game)
        if mask is not None:
            sets = [c for c in listed if any(a[0] == GAIN_SET and a[1] == mask
                                             for a in c.actions)]
            if len(sets) == 1:
                return sets[0]
        texts = [c.text for c in listed]
        try:
            return listed[match_text(line, texts, tr=self.tr)]
        except ChoiceError:
            firsts = [c.texts[0] for c in listed]
            try:  # an engine action's text names the choice that starts with it (a hint's)
                return listed[match_text(line, firsts, numbered=False, tr=self.tr)]
            except ChoiceError:
                pass
            if self.term.lang == "en":
                raise
            shown = self.table.screen_view(p, self.style)["choices"]
            try:
                return listed[match_text(line, shown, numbered=False, tr=self.tr)]
            except ChoiceError:
                pass
            raise

    def _hint_lines(self, p: int) -> list[str]:
        """The three best choices for person p, from its own view only (ai/hints.py: the
        rest of the turn planned on samples of what p cannot see), with win chances."""
        from ..ai.hints import hints
        from ..ai.interface import Seat as BotSeat

        tr = self.tr
        table = self.table
        if table.state.over or to_act(table.state) != p:
            return [tr("hint: only for the choice you are making now")]
        rng = random.Random(f"{table.seed}:{len(table.actions)}:hint")
        sv = table.screen_view(p, self.style)
        labels: dict[str, str] = {}
        for (_, c), label in zip(table.choices_now(), sv["choices"], strict=True):
            labels.setdefault(c.texts[0], label)
        out = [self.style.head(tr("HINTS"))
               + tr(" (from your view only; planned to your turn's end)")]
        for rank, h in enumerate(hints(BotSeat(table.state, p), rng, tr=self.style.game)[:3], 1):
            win = "" if h.win is None else tr(", {pct}% to win").format(pct=f"{100 * h.win:.0f}")
            gap = tr("best") if rank == 1 else tr("{n} Rep behind").format(n=f"{h.loss:.1f}")
            shown = h.text if self.term.lang == "en" else labels.get(h.text, h.text)
            out.append(f" {rank}. {shown} ({gap}{win})")
            out.append(f"    {h.reason}")
        return out

    def command(self, p: int, name: str, arg: str) -> bool:
        """Runs a command for person ``p``; True when the decision at hand has changed
        (undo, load), so the caller asks anew."""
        table, st, tr = self.table, self.style, self.tr
        sv = table.screen_view(p, st)
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
            choosing = describe_decision(table.state, st.game) if v.get("choosing") else ""
            self.term.show(render({**v, "legal_actions": [], "choosing": choosing}, CATALOG,
                                  width, st.lang).splitlines())
            self.term.show(choice_lines(st, v, sv, width))
        elif name == "choices":
            self.term.show(choice_lines(st, v, sv, width))
        elif name == "achievements":
            self.term.show(wrap(achievement_lines(table.state, p, st), width))
        elif name == "hint":
            self.term.show(wrap(self._hint_lines(p), width))
        elif name == "card":
            try:
                self.term.show(wrap(card_text(st, find_card(arg, tr)), width))
            except ChoiceError as exc:
                self.term.say(str(exc), "bad")
        elif name == "log":
            self._log(sv, arg, p)
        elif name == "undo":
            if table.state.over:
                self.term.say(tr("the game is over: nothing to undo"), "bad")
                return False
            before = table.state
            self.term.say(table.undo(p, tr, st.game if st.lang != "en" else same))
            return table.state is not before
        elif name == "save":
            self.save(arg)
        elif name == "load":
            return self.load(arg)
        elif name in ("quit", "exit"):
            self.quit()
        return False

    def _log(self, sv: dict[str, Any], arg: str, seat: int | None) -> None:
        """``log [N]``: the last N turns, one line each with what they earned (the summary,
        ``core/summary.py``); ``log all [N]``: the last N steps, each with its results."""
        tr = self.tr
        words = arg.split()
        every = bool(words) and words[0].lower() in ("all", tr("all").lower())
        if every:
            words = words[1:]
        count = 30 if every else max(8, self.term.height - 3)
        if words:
            if len(words) > 1 or not words[0].isdigit() or int(words[0]) < 1:
                self.term.say(tr("log takes a number from 1, e.g. 'log 10' (turns) or 'log all "
                                 "50' (steps)"), "bad")
                return
            count = int(words[0])
        if every:
            lines = wrap(log_lines(self.style, sv, count), self.term.width)
        else:
            summaries = {"summaries": self.table.turn_summaries(seat, self.style.game)}
            lines = wrap(summary_log_lines(self.style, summaries, count), self.term.width)
            if lines:
                lines.append(self.style.dim(tr("(every step with its results: 'log all')")))
        self.term.show(lines if lines else [tr("(nothing has happened yet)")])

    def save(self, path: str) -> bool:
        tr = self.tr
        path = path.strip()
        if not path:
            self.term.say(tr("save where? type 'save' and a file name, e.g. 'save game.json'"),
                          "bad")
            return False
        try:
            write_file(path, save_text(self.table), tr)
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
            table = load_table(path, tr, self.style.game)
        except SetupError as exc:
            self.term.say(str(exc), "bad")
            return False
        self.table = table
        self.shown_to = None
        self.term.say(tr("loaded {path}: {seats}. {first}").format(
            path=path, seats=self._seats_line(), first=self._first_line()))
        if table.humans > 1:
            self.term.clear()
        return True

    def quit(self) -> None:
        tr = self.tr
        while True:
            try:
                # within 80 columns, the prompt being one line that is not wrapped
                answer = self.term.ask(tr("Save the game before leaving? Type a file name, or "
                                          "Enter to leave unsaved: "))
            except EOFError:
                answer = ""
            if not answer.strip() or self.save(answer):
                self.term.say(tr("Goodbye."))
                raise Leave(0)

    def _save_quietly(self, why: str) -> bool:
        if self.table.state.over:
            return False
        try:
            write_file(self.autosave, save_text(self.table), self.tr)
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
        s = self.table.state
        self.term.clear()
        self.term.show(score_screen(self.style, end_summary(s, self.table.prev, self.style),
                                    self.term.width))
        if self.table.seed is not None and self.table.secret_seed:
            self.term.say(tr("This game's seed: {seed} (--seed deals it again).")
                          .format(seed=self.table.seed), "dim")
        reviewable = self.table.seed is not None and self.table.humans > 0
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
                                  "log": self.table.full_log(None, self.style.game)}
            if name == "review" and reviewable:
                self.term.show(self.review_lines())
            elif name == "save":
                self.save(arg)
            elif name == "log":
                self._log(sv, arg, None)
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
        from ..ai.review import review

        people = [p for p, seat in enumerate(self.table.seats) if seat.human]
        self.term.say(self.tr("Reviewing the game (a few seconds)…"), "dim")
        record = self.table.record()
        rv = review(record, people, tr=self.style.game)
        words = {} if self.term.lang == "en" else decision_words(record, rv, self.style.game)
        return review_screen(self.style, rv, self.term.width, words=words)
