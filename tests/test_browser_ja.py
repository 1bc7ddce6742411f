"""The browser client in Japanese (issue 16), end to end as test_browser.py plays it: the real
server, Debian's chromium, whole games by clicking.

What is checked: a browser whose language is Japanese gets the lobby and the table in Japanese
(``<html lang="ja">``) and no English word is left on the page but the proper nouns (card,
Shop ability, Companion and player names, the bots' names, the game's name "Flamecraft" and
the switch's "EN"); a whole game is played to the end, its replay and its scores read in
Japanese; the EN / 日本語 switch works and is remembered; the server's errors come back in
Japanese; on a phone the Japanese pages fit the width. Screenshots go to each test's tmp_path
(and $FLAMECRAFT_DOC_SCREENSHOTS when set).
"""

from __future__ import annotations

import json
import random
import re
import urllib.request
from typing import Any

import pytest

from test_browser import (  # noqa: F401  (server and browser are fixtures)
    LAPTOP,
    MAX_STEPS,
    MISSING,
    PHONE,
    browser,
    click_once,
    create_in_lobby,
    data,
    server,
    tabs,
    wait_my_turn_or_end,
)

pytestmark = pytest.mark.skipif(MISSING is not None, reason=f"browser tests: {MISSING}")

if MISSING is None:
    from playwright.sync_api import Page

JA = "ja-JP"
KANA = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")  # kana or kanji
# Words that are not English UI text: the game's name, the switch's "EN", a key's name.
ALLOWED = ("Flamecraft", "EN", "Ctrl+C")
WORD = re.compile(r"[A-Za-z][A-Za-z'’.-]*[A-Za-z]")


def proper_nouns(base: str, players: list[str]) -> list[str]:
    """Every name that stays as printed in a Japanese page, longest first: cards, Shop
    abilities, achievements, the bots, the players."""
    with urllib.request.urlopen(base + "/api/cards", timeout=10) as answer:
        cards = json.loads(answer.read())
    with urllib.request.urlopen(base + "/api/bots", timeout=10) as answer:
        bots = json.loads(answer.read())
    names = {c["name"] for kind in ("shops", "artisans", "enchantments", "fancies",
                                    "companions", "achievements") for c in cards[kind]}
    names |= {s["ability_name"] for s in cards["shops"] if s.get("ability_name")}
    names |= {b["name"] for b in bots["ladder"]} | set(players) | set(ALLOWED)
    return sorted(names, key=len, reverse=True)


def english_left(page: Page, nouns: list[str]) -> list[str]:
    """The English words of the page's visible text once the proper nouns are taken out,
    each with the line it stands in."""
    text = page.evaluate("() => document.body.innerText")
    for name in nouns:
        text = text.replace(name, "\u2003")
    return sorted({f"{word} (in {line.strip()[:80]!r})" for line in text.splitlines()
                   for word in WORD.findall(line)})


def assert_japanese(page: Page, nouns: list[str], where: str) -> None:
    assert page.evaluate("() => document.documentElement.lang") == "ja", where
    left = english_left(page, nouns)
    assert not left, f"{where}: English words on the Japanese page: {left}"
    assert KANA.search(page.evaluate("() => document.body.innerText")), where


def test_a_whole_game_in_japanese(server: str, tabs: Any) -> None:  # noqa: F811
    """A Japanese browser: the lobby, a whole game against a bot with a hint, the scores, the
    review and the replay, all in Japanese with nothing English left but names; a server
    error (an out-of-range choice) is shown in Japanese."""
    tab = tabs(LAPTOP, JA)
    page = tab.page
    nouns = proper_nouns(server, ["Ada", "Robo"])
    page.goto(server + "/")
    page.wait_for_selector("form.create")
    assert page.locator(".lang-switch [aria-pressed=true]").inner_text() == "日本語"
    assert_japanese(page, nouns, "lobby")
    tab.shot("ja-lobby", full=True)

    create_in_lobby(page, server, [("human", "Ada"), ("bot", "Robo")], seed=11, name=None)
    assert wait_my_turn_or_end(page)
    page.wait_for_selector(".conn-open")
    assert "あなたの手番" in page.inner_text(".prompt")
    assert_japanese(page, nouns, "table at the start")
    tab.shot("ja-table-start")

    # a choice the server refuses: its code picks the page's words, its message is Japanese
    page.evaluate("() => window.flamecraftLive.send({type: 'act', version: "
                  "Number(document.getElementById('app').dataset.version), index: 999})")
    notice = page.wait_for_selector(".notice-box.error").inner_text()
    assert "今はその手は選べません" in notice and "999番の選択肢はありません" in notice
    page.click(".notice-box.error button")

    rng = random.Random(4)
    steps = 0
    while wait_my_turn_or_end(page):
        steps += 1
        assert steps < MAX_STEPS
        if steps == 8:  # a hint: its reasons, in Japanese, and its choices as buttons
            page.click(".hint-button")
            page.wait_for_selector(".hint-item")
            assert "最善" in page.inner_text(".hint-item")
            assert_japanese(page, nouns, "hints")
            tab.shot("ja-table-hint")
        if steps % 20 == 0:
            assert_japanese(page, nouns, f"table, step {steps}")
        if steps == 30:
            page.locator("#app .card.artisan").first.hover()  # the card details, in Japanese
            assert "起動" in page.inner_text(".details")
            assert_japanese(page, nouns, "card details")
            tab.shot("ja-table-midgame")
        click_once(page, rng)
    assert "ゲーム終了" in page.inner_text(".prompt")
    assert "評判の合計" in page.inner_text(".scores")
    assert_japanese(page, nouns, "final table")
    tab.shot("ja-table-final", full=True)

    page.get_by_role("button", name="振り返り").click()
    page.wait_for_selector(".review svg.win-chart polyline", timeout=60000)
    assert "大きなミス" in page.inner_text(".review")
    assert_japanese(page, nouns, "review")
    page.locator(".review").scroll_into_view_if_needed()
    tab.shot("ja-review")

    page.get_by_role("link", name="リプレイを見る").click()
    page.wait_for_selector(".replay-controls")
    assert page.inner_text(".replay-step").startswith("ステップ 0 /")
    page.click("button[aria-label='次のステップ']")
    page.wait_for_function("() => document.querySelector('.replay-step').textContent"
                           ".startsWith('ステップ 1 ')")
    assert page.inner_text(".prompt").startswith("ステップ1: ")
    assert_japanese(page, nouns, "replay")
    tab.shot("ja-replay")


def test_the_language_switch_is_remembered(server: str, tabs: Any) -> None:  # noqa: F811
    """An English browser gets English; 日本語 turns the page Japanese and stays so after a
    reload and on the table; EN turns it back. The table's switch works mid-game, and the
    live table then speaks the new language (its choices come from the server in it)."""
    tab = tabs(LAPTOP, "en-US")
    page = tab.page
    page.goto(server + "/")
    page.wait_for_selector("form.create")
    assert page.evaluate("() => document.documentElement.lang") == "en"
    assert "New game" in page.inner_text("form.create")
    page.click(".lang-switch button[data-lang=ja]")
    page.wait_for_function("() => document.documentElement.lang === 'ja'"
                           " && document.querySelector('form.create')")
    assert "新しいゲーム" in page.inner_text("form.create")
    page.reload()
    page.wait_for_selector("form.create")
    assert "新しいゲーム" in page.inner_text("form.create")

    create_in_lobby(page, server, [("human", "Ada"), ("bot", "Robo")], seed=2, name=None)
    assert wait_my_turn_or_end(page)
    assert "あなたの手番" in page.inner_text(".prompt")
    choices = page.locator(".legal-item").all_inner_texts()
    assert all(KANA.search(c) for c in choices), choices
    page.click(".topbar .lang-switch button[data-lang=en]")
    page.wait_for_function("() => document.documentElement.lang === 'en'"
                           " && document.getElementById('app').dataset.myturn === '1'")
    assert "Your turn" in page.inner_text(".prompt")
    choices = page.locator(".legal-item").all_inner_texts()
    assert not any(KANA.search(c) for c in choices), choices
    assert page.evaluate("() => localStorage.getItem('flamecraft-lang')") == "en"
    tab.shot("switch-back-to-english")


def test_japanese_on_a_phone(server: str, tabs: Any) -> None:  # noqa: F811
    """On a 390-px phone the Japanese lobby and table fit the width (no sideways scrolling,
    no text running out of its box)."""
    tab = tabs(PHONE, JA)
    page = tab.page
    nouns = proper_nouns(server, ["Ada", "Robo"])
    page.goto(server + "/")
    page.wait_for_selector("form.create")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    tab.shot("ja-phone-lobby", full=True)
    create_in_lobby(page, server, [("human", "Ada"), ("bot", "Robo")], seed=6, name=None)
    rng = random.Random(6)
    for _ in range(15):
        assert wait_my_turn_or_end(page)
        click_once(page, rng)
    assert wait_my_turn_or_end(page)
    assert_japanese(page, nouns, "phone table")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    # no element's text overflows its own box sideways
    over = page.evaluate("""() => [...document.querySelectorAll('#app *')]
      .filter(e => e.children.length === 0 && e.textContent.trim()
              && e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX === 'visible'
              && e.clientWidth > 0)
      .map(e => e.className + ': ' + e.textContent.slice(0, 30))""")
    assert not over, over
    tab.shot("ja-phone-table", full=True)
    assert data(page)["myturn"] == "1"


def test_the_waiting_room_in_japanese(server: str, tabs: Any) -> None:  # noqa: F811
    """Two people: the creator's waiting room (seats, invite links, start) and the guest's
    (join, leave) read in Japanese; the guest's browser is English and switches there."""
    host, guest = tabs(LAPTOP, JA), tabs(LAPTOP, "en-US")
    a, b = host.page, guest.page
    nouns = proper_nouns(server, ["Ada", "Bea"])
    create_in_lobby(a, server, [("human", "Ada"), ("human", "Bea")], seed=None, name=None)
    a.wait_for_selector(".invites")
    assert "招待リンク" in a.inner_text(".invites")
    invite = a.locator(".link-row", has_text="Bea").locator("input").input_value()
    assert_japanese(a, nouns, "waiting room (host)")
    b.goto(invite)
    b.wait_for_selector(".join-name")
    assert "Join" in b.inner_text(".controls")
    b.click(".lang-switch button[data-lang=ja]")
    b.wait_for_function("() => document.documentElement.lang === 'ja'"
                        " && document.querySelector('.join-name')")
    b.get_by_role("button", name="参加する", exact=True).click()
    a.wait_for_function("() => document.querySelector('.seat-list').textContent"
                        ".split('参加済み ✓').length === 3")
    assert_japanese(b, nouns, "waiting room (guest)")
    host.shot("ja-waiting-room")
    a.click("button.start")
    for page in (a, b):
        page.wait_for_selector(".board")
        assert_japanese(page, nouns, "table after the waiting room")
