"""The default name of a person's seat is a name, not a pronoun (issue 21, item 7): everyone
reads a seat's name in the third person ("{name} wins", "You are {name}", "{name}'s game"), so
a lone person called "You" read "You wins" and "You are You". Each person's default is
"Player N" (N its seat), in the terminal and on the web, in English and in Japanese; the
seat's own screens say which seat is theirs."""

from __future__ import annotations

import random

from flamecraft import apply_in_place, legal_actions, start, view
from flamecraft.core.board import CATALOG
from flamecraft.display.i18n import translator
from flamecraft.display.render import render
from flamecraft.server.gamespec import NewGame, NewSeat
from flamecraft.server.store import BOT, HUMAN
from flamecraft.terminal.ending import end_summary
from flamecraft.terminal.newgame import default_names

PRONOUNS = {"You", "you", "あなた"}


def test_the_terminal_names_a_lone_person_player_n_in_each_language() -> None:
    assert default_names(["human", "planner", "planner"]) == ("Player 1", "Ember", "Cinder")
    assert default_names(["planner", "human"]) == ("Ember", "Player 2")
    assert default_names(["human", "human"]) == ("Player 1", "Player 2")
    ja = translator("ja", "terminal").gettext
    assert default_names(["human", "planner"], ja) == ("プレイヤー1", "Ember")


def test_the_web_names_a_lone_person_player_n_and_the_game_after_them() -> None:
    game = NewGame(seats=(NewSeat(HUMAN), NewSeat(BOT)))
    assert game.names == ("Player 1", "Ember")
    assert game.game_name == "Player 1's game"  # not "You's game"
    late = NewGame(seats=(NewSeat(BOT), NewSeat(HUMAN)))
    assert late.names[1] == "Player 2"


def test_the_end_of_a_game_with_the_default_names_reads_as_a_sentence() -> None:
    """The winner line and every other line of the end summary name the person's seat."""
    names = default_names(["human", "planner"])
    s = start(2, 5, "purple", names)
    rng = random.Random(5)
    while not s.over:
        apply_in_place(s, rng.choice(legal_actions(s)))
    text = repr(end_summary(s, None))
    assert "Player 1" in text
    assert not any(f"'{word}'" in text or f"{word} wins" in text for word in PRONOUNS)


def test_the_board_says_your_turn_to_the_seat_whose_turn_it_is() -> None:
    """The plain board (``flamecraft show --as``) says "your turn" by the seat it is drawn
    for, not by a seat named "You"."""
    s = start(2, 5, "purple", default_names(["human", "planner"]))
    while s.turn < 1:
        apply_in_place(s, legal_actions(s)[0])
    me, other = s.current, 1 - s.current
    assert "your turn" in render(view(s, me), CATALOG).splitlines()[0]
    head = render(view(s, other), CATALOG).splitlines()[0]
    assert f"{s.options.names[me]}'s turn" in head and "your turn" not in head
