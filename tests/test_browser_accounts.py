"""Accounts in the browser (issue 27): Debian's chromium with its DevTools virtual
authenticator (the ``WebAuthn`` domain: a platform authenticator holding discoverable
passkeys, the user present and verified), the real server as test_browser.py starts it.

Signed up in one browser context, signed in on a second (the passkey copied into its
authenticator, as a synced passkey is): the same games. A rated two-person game set up and
joined in the browsers (the moves then made over the live table's WebSocket by the test, to be
quick) updates both people's ratings, shown on their profiles; a request made with the cookie
but without the CSRF token is refused and changes nothing; export downloads the account's
JSON; delete signs out and replaces the name in the game. The pages stay clean under axe.

The pages are opened at ``localhost``: a passkey belongs to a domain, and an IP address is
none (WebAuthn refuses it as a relying party id)."""

from __future__ import annotations

import contextlib
import json
import random
import time
from typing import Any

import pytest

from test_browser import (  # noqa: F401  (server and browser are fixtures)
    MISSING,
    browser,
    server,
    tabs,
)
from test_browser_a11y import axe_check

try:
    from axe_playwright_python.sync_playwright import Axe
except ImportError:  # pragma: no cover - the test extra installs it
    Axe = None

pytestmark = [pytest.mark.skipif(MISSING is not None, reason=f"browser tests: {MISSING}")]

if MISSING is None:
    from playwright.sync_api import Page


def local(base: str) -> str:
    return base.replace("127.0.0.1", "localhost")


def authenticator(page: Page) -> tuple[Any, str]:
    """A virtual platform authenticator in the page's browser context: its CDP session and
    id."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable", {"enableUI": False})
    made = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": {
        "protocol": "ctap2", "transport": "internal", "hasResidentKey": True,
        "hasUserVerification": True, "isUserVerified": True,
        "automaticPresenceSimulation": True}})
    return cdp, str(made["authenticatorId"])


def sign_up(page: Page, base: str, name: str) -> tuple[Any, str]:
    cdp, auth = authenticator(page)
    page.goto(base + "/")
    page.fill("#account-name", name)
    page.click(".account-box button.sign-up")
    page.wait_for_selector(".account-box h2:has-text('Signed in as')")
    assert name in page.inner_text(".account-box h2")
    return cdp, auth


def api(page: Page, method: str, path: str, body: Any = None,
        csrf: bool = True) -> dict[str, Any]:
    """A fetch from the page (its cookie), with the session's CSRF token unless told not."""
    out: dict[str, Any] = page.evaluate("""async ([method, path, body, csrf]) => {
      const me = await (await fetch('/api/me')).json();
      const headers = {'Content-Type': 'application/json'};
      if (csrf && me.csrf) headers['X-Flamecraft-CSRF'] = me.csrf;
      const r = await fetch(path, {method, headers,
        body: body === null ? undefined : JSON.stringify(body)});
      return {status: r.status, body: await r.json()};
    }""", [method, path, body, csrf])
    return out


def play_out(base: str, game_id: str, tokens: dict[int, str]) -> dict[str, Any]:
    """Plays the seats whose keys are given with random legal choices to the end, over the
    live table's WebSocket (as a browser would); the last state."""
    from websockets.sync.client import connect

    rng = random.Random(3)
    ws_base = base.replace("http://", "ws://")
    acted: dict[int, int] = {}
    deadline = time.monotonic() + 240
    with contextlib.ExitStack() as stack:
        conns = {seat: stack.enter_context(connect(
            f"{ws_base}/ws/games/{game_id}?seat={seat}&token={token}"))
            for seat, token in tokens.items()}
        latest: dict[int, dict[str, Any]] = {}
        errors: list[dict[str, Any]] = []
        heard = time.monotonic()
        while time.monotonic() < deadline:
            for seat, ws in conns.items():
                try:
                    msg = json.loads(ws.recv(timeout=0.02))
                except TimeoutError:
                    continue
                heard = time.monotonic()
                if msg.get("type") == "error":
                    errors.append(msg)
                if msg.get("type") != "state":
                    continue
                latest[seat] = msg
                if msg["status"] == "finished":
                    return dict(msg)
                if msg["legal"] and msg["version"] > acted.get(seat, -1):
                    acted[seat] = msg["version"]
                    ws.send(json.dumps({"type": "act", "version": msg["version"],
                                        "index": rng.randrange(len(msg["legal"]))}))
            if time.monotonic() - heard > 2:  # a refused move: answer the latest state again
                heard = time.monotonic()
                for seat, msg in latest.items():
                    if msg["legal"]:
                        conns[seat].send(json.dumps({"type": "act", "version": msg["version"],
                                                     "index": rng.randrange(len(msg["legal"]))}))
    raise AssertionError(f"the game did not end in time: {errors[-3:]}")


def test_accounts_in_the_browser(server: str, tabs: Any) -> None:  # noqa: F811
    base = local(server)
    ann = tabs()
    cdp, auth = sign_up(ann.page, base, "Ann")
    if Axe is not None:
        axe_check(ann.page, "lobby, signed in")
    # CSRF: the cookie without the token changes nothing
    refused = api(ann.page, "POST", "/api/me/name", {"name": "Eve"}, csrf=False)
    assert refused["status"] == 403 and refused["body"]["code"] == "csrf"
    assert set(refused["body"]) >= {"code", "message", "detail"}
    assert api(ann.page, "GET", "/api/me")["body"]["account"]["name"] == "Ann"

    # a rated game of two people, set up in the lobby
    page = ann.page
    page.select_option("#players", "2")
    rows = page.locator(".seat-row")
    rows.nth(0).locator(".seat-name").fill("Ann")
    rows.nth(1).locator(".seat-name").fill("Bob")
    rows.nth(1).locator(".seat-kind").select_option("human")
    page.fill("#game-name", "Rated duel")
    page.select_option("select[name=rated]", "people")
    page.click("button[type=submit]")
    page.wait_for_url("**/play/*#seat=0&token=*")
    game_id = page.url.split("/play/")[1].split("#")[0]
    ann_token = page.url.split("token=")[1]
    invite = page.locator(".invites .link-input").nth(1).input_value()
    assert "#seat=1&token=" in invite

    # Ann on a second device: her passkey synced there, signed in, the same game listed
    other = tabs()
    cdp2, auth2 = authenticator(other.page)
    for cred in cdp.send("WebAuthn.getCredentials", {"authenticatorId": auth})["credentials"]:
        cdp2.send("WebAuthn.addCredential", {"authenticatorId": auth2, "credential": cred})
    other.page.goto(base + "/")
    other.page.click(".account-box button.sign-in")
    other.page.wait_for_selector(".account-box h2:has-text('Signed in as Ann')")
    entry = other.page.locator(".account-games li", has_text="Rated duel")
    entry.wait_for()
    assert other.page.context.cookies()[0]["value"] != page.context.cookies()[0]["value"]

    # Bob signs up and joins through his invite link
    bob = tabs()
    sign_up(bob.page, base, "Bob")
    bob.page.goto(invite.replace("127.0.0.1", "localhost"))
    bob.page.click(".join button.primary")
    bob.page.wait_for_selector(".seat-list li:has-text('joined')")
    bob_token = invite.split("token=")[1]
    # Ann starts it; the moves are made over the WebSocket, quickly
    page.click("button.start")
    end = play_out(base, game_id, {0: ann_token, 1: bob_token})
    assert end["status"] == "finished"

    # both ratings moved, on both profiles
    for tab, name in ((ann, "Ann"), (bob, "Bob")):
        deadline = time.monotonic() + 20
        while True:
            tab.page.goto(base + "/profile")
            line = tab.page.locator(".rating-line").inner_text()
            if "after 1 rated game:" in line or time.monotonic() > deadline:
                break
            time.sleep(0.3)
        assert "after 1 rated game:" in line, line
        assert tab.page.locator(".profile-name").inner_text() == name
        assert tab.page.locator("svg.rating-plot circle").count() == 2
        assert tab.page.locator(".profile-game", has_text="Rated duel").count() == 1
    ann.shot("web-profile")
    if Axe is not None:
        axe_check(ann.page, "profile")
    ann.page.goto(base + "/leaderboard")
    ann.page.wait_for_selector(".leaderboard tbody td a")
    names = ann.page.locator(".leaderboard tbody td a").all_inner_texts()
    assert sorted(names) == ["Ann", "Bob"]
    if Axe is not None:
        axe_check(ann.page, "leaderboard")

    # export: the account's JSON
    ann.page.goto(base + "/profile")
    with ann.page.expect_download() as download:
        ann.page.click("a.export")
    data = json.loads(download.value.path().read_text(encoding="utf-8"))
    assert data["account"]["name"] == "Ann" and data["profile"]["games"][0]["game_id"] == game_id

    # in Japanese: the profile's words and the level's name, still clean under axe
    ann.page.evaluate("() => localStorage.setItem('flamecraft-lang', 'ja')")
    ann.page.goto(base + "/profile")
    line = ann.page.locator(".rating-line").inner_text()
    assert "レーティング対戦1回" in line and any(
        level in line for level in ("初級", "中級", "上級", "エキスパート")), line
    if Axe is not None:
        axe_check(ann.page, "profile, Japanese")
    ann.page.evaluate("() => localStorage.setItem('flamecraft-lang', 'en')")

    # delete: Bob is signed out, the game keeps his seat with his name replaced
    bob.page.goto(base + "/profile")
    bob.page.once("dialog", lambda dialog: dialog.accept())
    bob.page.click("button.delete-account")
    bob.page.wait_for_url(base + "/")
    bob.page.wait_for_selector(".account-box h2:has-text('Sign in / Sign up')")
    seats = api(ann.page, "GET", f"/api/games/{game_id}")["body"]["seats"]
    assert [s["name"] for s in seats] == ["Ann", "Former player 2"]
    if Axe is not None:
        axe_check(bob.page, "lobby, signed out")


def test_passkeys_without_the_browsers_json_helpers(server: str, tabs: Any) -> None:  # noqa: F811
    """A browser without WebAuthn's JSON helpers (PublicKeyCredential.parse…FromJSON,
    credential.toJSON(): older Safari and Firefox) signs up and in the same way, through the
    page's own conversion (account.js)."""
    base = local(server)
    tab = tabs()
    tab.page.add_init_script("""
      delete PublicKeyCredential.parseCreationOptionsFromJSON;
      delete PublicKeyCredential.parseRequestOptionsFromJSON;
      delete PublicKeyCredential.prototype.toJSON;""")
    sign_up(tab.page, base, "Cleo")
    assert tab.page.evaluate("() => typeof PublicKeyCredential.parseCreationOptionsFromJSON"
                             " + typeof PublicKeyCredential.prototype.toJSON") == (
        "undefinedundefined")
    tab.page.click(".account-box button.sign-out")
    tab.page.wait_for_selector(".account-box button.sign-in")
    tab.page.click(".account-box button.sign-in")
    tab.page.wait_for_selector(".account-box h2:has-text('Signed in as Cleo')")
    # signed in, the first seat of a new game is hers by default
    assert tab.page.locator(".seat-row .seat-name").first.input_value() == "Cleo"
