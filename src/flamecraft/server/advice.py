"""What the bots' search tells people: a hint for the seat to act (``ai/hints.py``, from that
seat's view only: the hidden cards re-dealt, never the true ones) and the review of a
finished game (``ai/review.py``, which names every hidden card, so never before the end).
Both think as long as a search bot, so they run in the search lane (``botpool.py``), off the
event loop, and are kept once computed."""

from __future__ import annotations

import asyncio
import random
from dataclasses import asdict, replace
from typing import TYPE_CHECKING, Any

from ..core.describe import describe
from ..core.engine import apply, to_act
from ..core.serialize import GameRecord
from ..core.state import GameState
from ..core.tr import N_, Translate
from .botpool import BotLanes
from .connections import Session
from .gameerror import GameError
from .language import DEFAULT as DEFAULT_LANGUAGE
from .language import game_tr
from .settings import Settings
from .store import FINISHED
from .tokens import check_token

if TYPE_CHECKING:
    from ..ai.review import Decision


def hint_json(s: GameState, seat: int, seed: str, samples: int,
              lang: str = DEFAULT_LANGUAGE) -> list[dict[str, Any]]:
    """The top three hints as JSON, their reasons in ``lang`` (run in a worker thread or
    process). ``action`` stays the stable text: the client matches it with a legal action."""
    from ..ai.hints import HINT_BUDGET, hints
    from ..ai.interface import Seat

    budget = replace(HINT_BUDGET, samples=samples)
    tr = game_tr(lang)
    found = hints(Seat(s, seat), random.Random(seed), budget, tr=tr, game=tr)
    return [h.to_json() for h in found[:3]]


def review_json(record: GameRecord, samples: int,
                lang: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
    """A finished game's review as JSON, with each seat's biggest mistakes (worst first),
    its reasons and its choices in ``lang``."""
    from ..ai.review import REVIEW_BUDGET, review

    rv = review(record, None, replace(REVIEW_BUDGET, samples=samples), tr=game_tr(lang))
    if lang != DEFAULT_LANGUAGE:
        rv.decisions = said_decisions(record, rv.decisions, game_tr(lang))
    out = rv.to_json()
    bad = rv.mistakes(top=len(rv.decisions))
    out["mistakes"] = [[asdict(d) for d in bad if d.seat == p][:3] for p in range(len(rv.names))]
    out["seconds"] = round(rv.seconds, 2)
    return out


def said_decisions(record: GameRecord, decisions: list[Decision],
                   tr: Translate) -> list[Decision]:
    """Reviewed decisions with their chosen and best actions in ``tr``'s words (a review
    keeps the stable texts, which are English)."""
    by_number = {d.number: d for d in decisions}
    s = record.first_state()
    out = []
    for number, typed in enumerate(record.actions, 1):
        d = by_number.get(number)
        if d is not None:
            chosen, best = (describe(s, record.parse(s, x), tr).words or x
                            for x in (d.chosen, d.best))
            out.append(replace(d, chosen=chosen, best=best))
        s = apply(s, record.parse(s, typed))
    return out


class Advice:
    """Hints and reviews for the loaded games (each kept on its ``Session``)."""

    def __init__(self, settings: Settings, lanes: BotLanes):
        self.settings, self.lanes = settings, lanes

    async def hint(self, session: Session, seat: int, token: str,
                   lang: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
        """The three best choices for ``seat``, which must be the one to act, from its own
        view only (the hidden cards re-dealt), if the game allows hints, with reasons in
        ``lang``. Seeded like the terminal's ``hint``; computed in the search lane
        (botpool.py), one at a time per game, and kept for the version and language it
        answers (asking again costs nothing)."""
        t = session.table
        check_token(t.row, seat, token)
        if not t.row.hints:
            raise GameError("hints_off", N_("the host turned hints off for this game"), 403)
        async with session.hinting:
            t = session.table
            s = t.live_state(N_("the game is over: there is nothing to hint"))
            if to_act(s) != seat:
                raise GameError("out_of_turn", N_("hints are for the choice you are making "
                                                  "now, and it is not your turn to choose"))
            version = session.version
            if session.hinted is not None and session.hinted[:2] == (version, lang):
                return session.hinted[2]
            seed = f"{t.row.seed}:{len(t.actions)}:hint"
            found = await self.lanes.run(hint_json, s.copy(), seat, seed,
                                         self.settings.hint_samples, lang)
            answer = {"version": version, "step": len(t.actions), "seat": seat,
                      "hints": found}
            session.hinted = (version, lang, answer)
            return answer

    async def review(self, session: Session, lang: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
        """A finished game's review (every seat's decisions, from the whole record: it
        names every hidden card, so never before the game is over), in ``lang``. Computed
        once per loaded game and language, in the search lane; the asks while it is
        computed wait for it."""
        if session.table.row.status != FINISHED:
            raise GameError("not_finished", N_("a review is available once the game is "
                                               "finished (it shows every seat's cards)"))
        result = session.table.row.result or {}
        if result.get("abandoned") is not None:
            raise GameError("illegal", N_("an abandoned game has no review: it was not "
                                          "played to the end"))
        asked = session.review.get(lang)
        if asked is None or (asked.done() and asked.exception() is not None):
            record = session.table.record()
            asked = session.review[lang] = asyncio.ensure_future(self.lanes.run(
                review_json, record, self.settings.review_samples, lang))
        return await asyncio.shield(asked)
