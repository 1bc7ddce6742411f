"""The JSON the server sends: a seat's state message, the log's lines as each reader reads
them, the lobby's entries, seats and results, and the answers that hand out seat links.

Functions of values (rows, states, events), so each is built the same wherever it is asked
for. What a reader may see is decided by the core (``view``, ``core/events.py``); this module
only writes it down, in the reader's language (which changes the words, never what is shown).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any

from ..core.describe import fancy_goals
from ..core.engine import describe_decision, to_act, winners
from ..core.events import Event
from ..core.kinds import ACTION_KINDS
from ..core.setup_game import seeded_start
from ..core.state import GameState, Options
from ..core.summary import event_line, last_turns, turn_steps
from ..core.tr import Translate, same
from ..core.view import view
from ..display.localized import rating_title, solo_intro
from ..session import compose
from .actions_json import action_json, event_things, legal_json
from .clocks import ClockSpec, runs_out
from .language import DEFAULT as DEFAULT_LANGUAGE
from .language import game_tr
from .store import RUNNING, GameRow
from .tokens import game_link, seat_link


def dumps(msg: dict[str, Any]) -> str:
    """Compact JSON, non-ASCII kept (Japanese is sent as it is)."""
    return json.dumps(msg, ensure_ascii=False, separators=(",", ":"))


# ---------------------------------------------------------------- the log

# One log line as JSON per reader: the actor's, everyone else's (None: they see nothing),
# the actor and the one other seat that reads the actor's line (the receiver of a gift).
LogLine = tuple[str | None, str | None, int, int]


def log_line(e: Event, lang: str) -> LogLine:
    """An event's log line as each reader reads it in ``lang``, with its results
    (``core/summary.event_line``: core/events.py decides who reads what; the translation
    only changes the words). The receiver of a gifted card reads the actor's line."""
    line = {"turn": e.turn, "player": e.seat, **event_things(e)}
    tr = game_tr(lang)
    actor, other = event_line(e, e.seat, tr), event_line(e, None, tr)
    return (None if actor is None else dumps({**line, "text": actor}),
            None if other is None else dumps({**line, "text": other}), e.seat, e.also)


def turns_json(events: Sequence[Event], seat: int | None, lang: str) -> list[dict[str, Any]]:
    """Every other seat's latest turn in one line as ``seat`` reads it in ``lang``
    (``core/summary.py``): its seat, turn, whether it was a last turn, and its steps with
    what they earned."""
    tr = game_tr(lang)
    names = next((e.names for e in reversed(events) if e.names), ())
    return [{"player": t.seat, "turn": t.turn, "last": t.final_round,
             "text": tr("; ").join(turn_steps(t, names, tr))}
            for t in last_turns(events, seat, tr)]


# ---------------------------------------------------------------- a seat's state message


def view_in(s: GameState, seat: int | None, lang: str) -> dict[str, Any]:
    """``view(s, seat)`` as ``lang`` reads it: the same, but for the solo rating's title,
    with a solo game's introduction (``solo_intro``), and with the seat's own Fancy Dragons'
    goals, progress and rewards (``fancy_goals``, in its entry only: the cards are hidden
    from the others)."""
    out = view(s, seat)
    if out["solo"]:
        out["solo_intro"] = solo_intro(s.options.deck, lang)  # what solo adds to the rules
    if seat is not None and "fancy" in out["players"][seat]:
        out["players"][seat]["fancy_goals"] = fancy_goals(s, seat, game_tr(lang))
    if lang != DEFAULT_LANGUAGE and "rating" in out:
        out["rating"] = rating_title(out["rating"], lang)
    return out


def state_common(row: GameRow, s: GameState | None, step: int) -> dict[str, Any]:
    """What the state message of every seat holds alike (``live``: whether the game is in
    play, which the message itself does not carry)."""
    return {
        "type": "state",
        "game_id": row.id,
        "name": row.name,
        "version": row.version,
        "step": step,
        "status": row.status,
        "seats": seats_json(row),
        "live": s is not None and row.status == RUNNING and not s.over,
        "hints": row.hints,
        "clock": ClockSpec.of(row.clock).to_json(),
        "result": row.result,
    }


def state_text(common: dict[str, Any], seat: int | None, s: GameState | None, lang: str,
               can_undo: bool, log: str, turns: list[dict[str, Any]] | None = None) -> str:
    """One seat's state message in ``lang``, as JSON text: ``common`` (``state_common``),
    then what is the seat's own (``turns``: every other seat's last turn, ``turns_json``),
    then ``log``, the log as the seat reads it (a JSON array, already encoded: it is spliced
    in)."""
    # (a seat a bot plays for its person: the bot decides, the person is not asked)
    acting = (s is not None and common["live"] and seat is not None and to_act(s) == seat
              and common["seats"][seat]["stand_in"] is None)
    tr = game_tr(lang)
    head = dumps({
        **{k: v for k, v in common.items() if k != "live"},
        "seat": seat,
        # What is being decided is told to the seat deciding only: whether another seat
        # has a decision at all can depend on its hidden cards (core/events.py).
        "choosing": describe_decision(s, tr) if acting and s is not None else "",
        "view": view_in(s, seat, lang) if s is not None else None,
        "legal": legal_json(s, tr) if acting and s is not None else [],
        "choices": choices_json(s, tr) if acting and s is not None else [],
        "can_undo": can_undo,
        "turns": turns or [],
    })
    return head[:-1] + ',"log":' + log + "}"


def choices_json(s: GameState, tr: Translate = same) -> list[dict[str, Any]]:
    """The person's choices (``session/compose.py``) as the page lists them: each as its
    first engine action is (``actions_json.action_json``: kind, args, facts, the card), with
    ``text`` its stable form (what an ``act`` message sends back as ``choice``), ``first``
    that action's text (what a hint names), ``steps`` its engine actions, ``say`` its words
    in the reader's language, ``default`` (a payment's split that keeps Coins) and
    ``confirm`` (the end of the turn, always asked); ``declines``: every step declines
    (what "skip the rest of my turn" may send). A payment of several steps names no
    thing to click (it is a button)."""
    out = []
    for i, c in enumerate(compose.choices(s)):
        one = action_json(s, c.first, i, tr)
        one.update(text=c.text, first=c.texts[0], steps=len(c.actions), default=c.default,
                   confirm=c.confirm,
                   declines=all(ACTION_KINDS[a[0]].decline for a in c.actions))
        said = compose.label(s, c, tr)
        if c.confirm or len(c.actions) > 1:
            one["say"], one["facts"] = said, ""
            if one["kind"] == "pay":
                one["args"] = {}
        out.append(one)
    return out


def rematch_messages(state: str, new_id: str, seat: int | None,
                     token: str | None) -> tuple[str, str]:
    """Once a rematch exists: the state message ``state`` with the new game added, and the
    "rematch" message that follows it (a seat's own link to the new game, for seats that
    came with a key; its page for everyone)."""
    extra: dict[str, Any] = {"game_id": new_id, "spectate": game_link(new_id)}
    if seat is not None and token is not None:
        extra["link"] = seat_link(new_id, seat, token)
    return state[:-1] + ',"rematch":' + dumps(extra) + "}", dumps({"type": "rematch", **extra})


# ---------------------------------------------------------------- the lobby


def result_of(s: GameState) -> dict[str, Any]:
    return {"reputation": s.rep[:], "winners": winners(s), "turns": s.turn}


def seats_json(row: GameRow) -> list[dict[str, Any]]:
    return [{"seat": i, "name": s.name, "kind": s.kind, "bot": s.bot, "joined": s.joined,
             "stand_in": s.stand_in, "conceded": s.conceded, "votes": s.votes,
             "spans": s.spans}
            for i, s in enumerate(row.seats)]


@lru_cache(maxsize=4096)
def first_player_of(options: Options, seed: int) -> int:
    """The seat that plays first in the game of these options and seed (drawn at setup from
    the seed unless the options fix it), known before the game starts."""
    return seeded_start(options, seed).first_player


def first_player_in(row: GameRow) -> int:
    """The seat that plays first in a stored game (its deal's, or its seed's)."""
    deal = row.setup.get("deal") if row.setup is not None else None
    first = deal.get("first_player") if isinstance(deal, dict) else None
    return first if isinstance(first, int) else first_player_of(row.options, row.seed)


def entry_json(row: GameRow) -> dict[str, Any]:
    """A game as the lobby lists it."""
    out: dict[str, Any] = {
        "game_id": row.id, "name": row.name, "status": row.status,
        "players": row.options.players, "deck": row.options.deck,
        "companions": row.options.companions, "hints": row.hints,
        "spectator_chat": row.spectator_chat, "seats": seats_json(row),
        "clock": ClockSpec.of(row.clock).to_json(),
        "deadline": _deadline(row),
        "first_player": first_player_in(row),
        "created": datetime.fromtimestamp(row.created, UTC).isoformat(timespec="seconds"),
        "version": row.version,
    }
    if row.result is not None:
        out["result"] = row.result
    if row.rematch is not None:
        out["rematch"] = row.rematch["game_id"]
    return out


def _deadline(row: GameRow) -> float | None:
    """When the seat to act runs out of time (Unix seconds), for "my games"; None without a
    clock or while a bot plays the seat on it."""
    clock = row.clock
    if row.status != RUNNING or not clock or clock.get("seat") is None:
        return None
    seat = row.seats[int(clock["seat"])]
    if not seat.person_plays:
        return None
    out = runs_out(clock)
    return None if out is None else round(out, 1)


def created_json(row: GameRow, tokens: Sequence[str | None]) -> dict[str, Any]:
    """The answer that creates a game (or names a rematch): every seat, with its key and
    link where ``tokens`` holds one (the only time a key is shown), and the game's entry."""
    seats = [{"seat": i, "name": s.name, "kind": s.kind, "bot": s.bot, "token": token,
              "link": seat_link(row.id, i, token) if token else None}
             for i, (s, token) in enumerate(zip(row.seats, tokens, strict=True))]
    return {"game_id": row.id, "seats": seats, "spectate": game_link(row.id),
            "game": entry_json(row)}
