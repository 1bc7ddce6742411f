"""The terminal a game is played at: lines read, screens written, colour, clearing and the
bots' pacing; the hang-up (SIGHUP) that ends a game with a save, and a resize (SIGWINCH),
which draws the screen again at the new size."""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable, Sequence
from typing import TextIO

from .screen import (
    Style,
    wrap,
)


class Hangup(Exception):
    """The terminal was closed (SIGHUP): the game is saved before the program ends."""


class Resized(Exception):
    """The terminal changed size while a line was being read (SIGWINCH): the screen is drawn
    again and the question asked again."""



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
        self.redraw: Callable[[], None] | None = None  # draws the screen at hand again
        self.asking = False  # waiting for a line (a resize then interrupts it)
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
        """Lines written; what a resize would draw again is forgotten (the screen is no longer
        that one: a hand-over screen must never be redrawn as the previous person's)."""
        self.redraw = None
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

    def resize(self) -> None:
        """The terminal's new size taken (SIGWINCH): while a line is read, the read is
        interrupted so that ``ask`` draws the screen again at that size and asks again."""
        try:  # the terminal's own size: a COLUMNS set in the environment is stale after a resize
            size = os.get_terminal_size(self.out.fileno())
        except (AttributeError, OSError, ValueError):
            size = shutil.get_terminal_size((self.width, self.height))
        width, height = max(60, size.columns), max(16, size.lines)
        if (width, height) == (self.width, self.height):
            return  # a signal without a change (one sent as the terminal opens): nothing to draw
        self.width, self.height = width, height
        if self.asking:
            raise Resized

    def ask(self, prompt: str) -> str:
        """One line of input (without its newline); EOFError when the input has ended. A
        resize while waiting draws the screen again (``redraw``) and asks again."""
        while True:
            self.asking = True
            try:
                return self._read(prompt)
            except Resized:
                self.asking = False
                self.out.write("\n")
                if self.redraw is not None:
                    self.clear()
                    self.redraw()
            finally:
                self.asking = False

    def _read(self, prompt: str) -> str:
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
