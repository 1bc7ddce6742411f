"""A solo game says what solo adds to the rules when it starts (issue 21, item 7): Town
Bustle, the turn limit it makes, the achievements and the rating titles, in the terminal and
on the web alike (``display/localized.solo_intro``, one text for both)."""

from __future__ import annotations

import random

import pytest

from flamecraft import apply_in_place, legal_actions, start
from flamecraft.core.board import CATALOG
from flamecraft.display.localized import rating_title, solo_intro, solo_turns
from flamecraft.server.wire import view_in


@pytest.mark.parametrize("deck", ["purple", "golden"])
def test_the_turn_limit_said_is_the_one_games_keep(deck: str) -> None:
    """No solo game lasts longer than the limit the introduction gives, and some reach it."""
    limit = solo_turns(deck)
    assert f"at most {limit} turns" in " ".join(solo_intro(deck, "en"))
    longest = 0
    for seed in range(12):
        s = start(1, seed, deck)
        rng = random.Random(seed)
        while not s.over:
            apply_in_place(s, rng.choice(legal_actions(s)))
        longest = max(longest, s.turn)
    assert longest == limit


def test_the_introduction_names_town_bustle_the_achievements_and_every_title() -> None:
    for lang in ("en", "ja"):
        text = " ".join(solo_intro("purple", lang))
        assert str(len(CATALOG.achievements)) in text
        for least, title in CATALOG.ratings:
            assert rating_title(title, lang) in text and str(least) in text
    assert "Town Bustle" in " ".join(solo_intro("purple", "en"))
    assert "町のにぎわい" in " ".join(solo_intro("purple", "ja"))


def test_the_web_sends_it_with_a_solo_game_only() -> None:
    solo = view_in(start(1, 3), 0, "ja")
    assert solo["solo_intro"] == solo_intro("purple", "ja")
    assert "solo_intro" not in view_in(start(2, 3), 0, "en")
