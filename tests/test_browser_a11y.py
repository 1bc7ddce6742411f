"""The browser client's accessibility, checked by axe-core (the axe-playwright-python package,
which ships axe-core's JavaScript: no network at test time) in Debian's chromium, as
test_browser.py drives it: the real server, whole pages reached by clicking.

What is checked: no axe violation of impact "serious" or "critical" on the lobby, the waiting
room, a table at a decision in the middle of a game (a laptop's 1366×768 and a phone's
390×844, English and Japanese), the replay and the review. Besides axe's default rules the
check runs "label-content-name-mismatch" (off by default in axe): a control's accessible name
includes its visible text. And the keyboard rule: after a move, the focus is on the first
choice, never on a decline (Enter must not skip a step).

Each axe run prints its violations by impact (and every violation's id, impact and nodes), so
``pytest -s`` shows the numbers; FLAMECRAFT_AXE_REPORT=file.jsonl appends them to a file.
"""

from __future__ import annotations

import json
import os
import random
from collections import Counter
from typing import Any

import pytest

from test_browser import (  # noqa: F401  (server and browser are fixtures)
    MISSING,
    PHONE,
    browser,
    click_once,
    create_in_lobby,
    data,
    open_review_of_a_bot_game,
    post,
    server,
    tabs,
    wait_my_turn_or_end,
)

try:
    from axe_playwright_python.sync_playwright import Axe
except ImportError:  # pragma: no cover - the test extra installs it
    Axe = None

pytestmark = [
    pytest.mark.skipif(MISSING is not None, reason=f"browser tests: {MISSING}"),
    pytest.mark.skipif(Axe is None, reason="axe-playwright-python is not installed "
                       "(pip install 'flamecraft[test]')"),
]

if MISSING is None:
    from playwright.sync_api import Page

DESKTOP = {"width": 1366, "height": 768}
JA = "ja-JP"
BAD = ("serious", "critical")
# axe's defaults, and the visible text in the accessible name (an experimental rule in axe)
OPTIONS = {"resultTypes": ["violations"],
           "rules": {"label-content-name-mismatch": {"enabled": True}}}


def axe_check(page: Page, where: str, found: list[str] | None = None) -> None:
    """Runs axe on the page as it is; prints the violations by impact and each one in full;
    fails on any serious or critical one (or, given ``found``, adds them to it, for a test
    that checks several pages to fail once all of them are checked)."""
    assert Axe is not None
    results = Axe().run(page, options=OPTIONS)
    violations: list[dict[str, Any]] = results.response["violations"]
    counts = Counter(str(v.get("impact")) for v in violations)
    print(f"\naxe {where}: {dict(counts) or 'no violations'}")
    report = os.environ.get("FLAMECRAFT_AXE_REPORT")
    if report:
        with open(report, "a") as out:
            out.write(json.dumps({"page": where, "counts": dict(counts),
                                  "ids": sorted(f"{v['id']}:{v.get('impact')}:{len(v['nodes'])}"
                                                for v in violations)}) + "\n")
    lines = []
    for v in violations:
        nodes = "; ".join(f"{' '.join(map(str, n.get('target', [])))} "
                          f"({n.get('failureSummary', '').strip().splitlines()[-1:]})"
                          for n in v["nodes"][:12])
        line = f"  {v['id']} [{v.get('impact')}] {len(v['nodes'])} node(s): {nodes}"
        print(line)
        if v.get("impact") in BAD:
            lines.append(line)
    if found is not None:
        found.extend(f"{where}: {line}" for line in lines)
    else:
        assert not lines, f"axe on {where}: serious or critical violations\n" + "\n".join(lines)


def mid_game(page: Page, base: str, seed: int, clicks: int = 10) -> None:
    """A game against a bot created in the lobby, played by clicking to a decision of this
    seat in the middle of it."""
    create_in_lobby(page, base, [("human", "Ada"), ("bot", "Robo")], seed=seed)
    rng = random.Random(seed)
    for _ in range(clicks):
        assert wait_my_turn_or_end(page)
        click_once(page, rng)
    assert wait_my_turn_or_end(page)
    page.wait_for_selector(".conn-open")


def test_axe_lobby_and_waiting_room(server: str, tabs: Any) -> None:  # noqa: F811
    tab = tabs(DESKTOP)
    page = tab.page
    page.goto(server + "/")
    page.wait_for_selector("form.create")
    found: list[str] = []
    axe_check(page, "lobby", found)
    create_in_lobby(page, server, [("human", "Ada"), ("human", "Bea")], seed=None, name="Duo")
    page.wait_for_selector(".seat-list")
    axe_check(page, "waiting room", found)
    assert not found, "serious or critical violations\n" + "\n".join(found)


def test_axe_table_desktop(server: str, tabs: Any) -> None:  # noqa: F811
    page = tabs(DESKTOP).page
    mid_game(page, server, seed=11)
    axe_check(page, "table 1366x768")


def test_axe_table_phone(server: str, tabs: Any) -> None:  # noqa: F811
    page = tabs(PHONE).page
    mid_game(page, server, seed=12)
    axe_check(page, "table 390x844")


def test_axe_table_japanese(server: str, tabs: Any) -> None:  # noqa: F811
    tab = tabs(DESKTOP, JA)
    mid_game(tab.page, server, seed=13)
    assert tab.page.evaluate("() => document.documentElement.lang") == "ja"
    found: list[str] = []
    axe_check(tab.page, "table ja 1366x768", found)
    phone = tabs(PHONE, JA)
    mid_game(phone.page, server, seed=14)
    axe_check(phone.page, "table ja 390x844", found)
    assert not found, "serious or critical violations\n" + "\n".join(found)


def test_axe_table_with_the_chat_open(server: str, tabs: Any) -> None:  # noqa: F811
    """The table chat (issue 23) open, with a line in it, on a laptop and on a phone (in
    Japanese): no serious or critical violation either."""
    found: list[str] = []
    for viewport, locale, seed in ((DESKTOP, None, 15), (PHONE, JA, 16)):
        page = tabs(viewport, locale).page
        mid_game(page, server, seed=seed, clicks=2)
        page.click(".chat-toggle")
        page.fill(".chat-input", "hello <b>there</b>")
        page.keyboard.press("Enter")
        page.wait_for_selector(".chat-line")
        page.click('.chat-canned [data-canned="wp"]')
        page.wait_for_function("() => document.querySelectorAll('.chat-line').length === 2")
        axe_check(page, f"table with the chat open {viewport['width']}x{viewport['height']}",
                  found)
    assert not found, "serious or critical violations\n" + "\n".join(found)


def test_axe_replay_and_review(server: str, tabs: Any) -> None:  # noqa: F811
    page = tabs(DESKTOP).page
    bots = open_review_of_a_bot_game(page, server)
    found: list[str] = []
    axe_check(page, "review", found)
    page.goto(server + f"/play/{bots['game_id']}?replay=1")
    page.wait_for_selector(".replay-controls")
    page.click("button[aria-label^='Next step'], button:has-text('Next')")
    page.wait_for_function("() => document.querySelector('.replay-step').textContent"
                           ".startsWith('Step 1 ')")
    axe_check(page, "replay", found)
    assert not found, "serious or critical violations\n" + "\n".join(found)


FOCUS = """() => { const a = document.activeElement;
  const first = [...document.querySelectorAll('#app .prompt .choices button')]
    .find((b) => !b.matches('.decline, .cancel'));
  return {tag: a ? a.tagName : null, decline: !!(a && a.matches('.decline, .cancel')),
          first: !!first, isFirst: !!first && a === first,
          text: a ? a.textContent.trim().slice(0, 60) : null}; }"""


def test_after_a_move_the_focus_is_on_the_first_choice_not_a_decline(
        server: str, tabs: Any) -> None:  # noqa: F811
    """Keyboard play: after each move (Enter on the focused choice) the focus is on the
    first choice of the new decision that is not a decline: the first listed button if the
    prompt lists one, else a highlighted thing; never a decline, so Enter never skips."""
    game = post(server, "/api/games", {"name": "Focus", "seed": 4, "start": True,
                                       "seats": [{"kind": "human", "name": "Kay"},
                                                 {"kind": "bot", "bot": "greedy"}]})
    page = tabs(DESKTOP).page
    page.goto(server + game["seats"][0]["link"])
    assert wait_my_turn_or_end(page)
    page.locator("#app .can, #app .prompt .choices button:not(.decline)").first.focus()
    checked = 0
    for _ in range(25):
        assert wait_my_turn_or_end(page)
        before = data(page)["version"]
        page.keyboard.press("Enter")
        page.wait_for_function("v => { const d = document.getElementById('app').dataset;"
                               " return d.busy === '0' && (d.version !== v"
                               " || d.selecting === '1'); }", arg=before)
        if data(page).get("selecting") == "1":  # a two-step choice: finish it from the list
            page.keyboard.press("Escape")
            page.wait_for_function("() => document.getElementById('app').dataset.selecting"
                                   " === '0'")
            page.keyboard.press("1")
            page.wait_for_function("v => { const d = document.getElementById('app').dataset;"
                                   " return d.busy === '0' && d.version !== v; }", arg=before)
        if not wait_my_turn_or_end(page):
            break
        page.wait_for_timeout(50)
        state = page.evaluate(FOCUS)
        assert not state["decline"], f"the focus is on a decline: {state}"
        if state["first"]:
            assert state["isFirst"], f"the focus is not on the first choice: {state}"
            checked += 1
        else:
            assert page.evaluate("() => document.activeElement.matches("
                                 "'#app .can, #app .legal-item, #app .prompt button')"), state
    assert checked > 0
