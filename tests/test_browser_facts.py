"""Issue 21, item 7 in the browser (the real server and Debian's chromium, as test_browser.py
drives them): the lobby names a lone person "Player 1", never "You" (so the page reads "You
are Player 1", not "You are You"); a Fancy Dragon shows its goal, your progress and its reward
on your side of the table and in the details box, to you only; a solo game opens with what solo
adds (Town Bustle, the turn limit, the achievements, the titles)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from test_browser import (  # noqa: F401  (server and browser are fixtures)
    MISSING,
    browser,
    create_in_lobby,
    server,
    tabs,
    wait_my_turn_or_end,
)

pytestmark = pytest.mark.skipif(MISSING is not None, reason=f"browser tests: {MISSING}")

GOAL = re.compile(r"^— (Sun|Moon): .+ → \d+ Rep")


def test_the_lobby_names_a_lone_person_player_1_and_shows_fancy_goals(
        server: str, tabs: Any) -> None:  # noqa: F811
    tab = tabs()
    page = tab.page
    page.goto(server + "/")
    page.wait_for_selector("form.create")
    assert page.locator(".seat-row").nth(0).locator(".seat-name").input_value() == "Player 1"
    page.click("button[type=submit]")  # the defaults: you and one bot
    page.wait_for_url(re.compile(r"/play/[^#]+#seat=0&token="))
    assert wait_my_turn_or_end(page)
    assert "You are Player 1" in page.inner_text(".topbar")
    goals = page.locator(".me .fancy-goal").all_inner_texts()
    assert goals and all(GOAL.match(g) for g in goals), goals  # the keep-1 cards, then kept
    page.locator(".me .card.fancy").first.hover()
    page.wait_for_selector(".details .fancy-goal")
    assert GOAL.match(page.inner_text(".details .fancy-goal"))
    assert page.locator(".others .fancy-goal").count() == 0


def test_a_solo_game_opens_with_what_solo_adds(server: str, tabs: Any) -> None:  # noqa: F811
    tab = tabs()
    page = tab.page
    create_in_lobby(page, server, [("human", "Ann")], seed=3)
    assert wait_my_turn_or_end(page)
    intro = page.locator(".solo-intro")
    assert intro.get_attribute("open") is not None
    text = " ".join(intro.inner_text().split())
    for words in ("How solo works", "Town Bustle", "at most 14 turns", "11 achievements",
                  "Apprentice (0+)"):
        assert words in text, words
    tab.shot("solo-intro")
    page.click(".solo-intro summary")  # folded by the player, it stays folded
    page.wait_for_function("() => !document.querySelector('.solo-intro').open")
