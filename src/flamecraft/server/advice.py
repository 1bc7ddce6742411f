"""What the bots' search tells people: a hint for the seat to act (``ai/hints.py``, from that
seat's view only: the hidden cards re-dealt, never the true ones) and the review of a
finished game (``ai/review.py``, which names every hidden card, so never before the end).
Both think as long as a search bot, so they run off the event loop: in the advice lane
(``botpool.py``), at a lower priority, within its budget (``quotas.py``); a
hint is kept for its version, a review in the store (``reviews.py``)."""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from dataclasses import asdict, replace
from typing import TYPE_CHECKING, Any

from ..core.describe import describe
from ..core.engine import apply, to_act
from ..core.serialize import GameRecord
from ..core.state import GameState
from ..core.tr import N_, Translate
from .botpool import BotLanes
from .connections import Session
from .database import Database
from .gameerror import GameError
from .language import DEFAULT as DEFAULT_LANGUAGE
from .language import game_tr
from .quotas import Budget
from .reviews import ReviewBody, Reviews
from .settings import Settings
from .store import FINISHED, HUMAN, GameRow
from .table import record_of
from .tasks import Tasks
from .tokens import check_token

if TYPE_CHECKING:
    from ..ai.review import Decision

log = logging.getLogger("flamecraft.server")


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
    """Hints and reviews: a hint kept on its loaded game (``Session.hinted``) for the version
    and language it answers, a review kept in the store (``reviews.py``); both made in the
    advice lane (``botpool.py``) within its budget (``quotas.py``: how many wait, and how
    many from one address)."""

    def __init__(self, settings: Settings, lanes: BotLanes, database: Database, tasks: Tasks):
        self.settings, self.lanes = settings, lanes
        self.budget = Budget(N_("the server is busy: {count} hints and reviews are being made "
                                "(at most {size}); try again in {retry_after} s"),
                             N_("hints and reviews: at most {limit} at once from one address, "
                                "and yours are still being made; try again in {retry_after} s"),
                             settings.advice_queue,
                             settings.advice_per_address,
                             workers=max(1, lanes.advice.processes), mean=5.0)
        self.reviews = Reviews(database, tasks, settings.review_cache_bytes)

    async def hint(self, session: Session, seat: int, token: str,
                   lang: str = DEFAULT_LANGUAGE, address: str | None = None) -> dict[str, Any]:
        """The three best choices for ``seat``, which must be the one to act, from its own
        view only (the hidden cards re-dealt), if the game allows hints, with reasons in
        ``lang``. Seeded like the terminal's ``hint``; computed in the advice lane
        (botpool.py), one at a time per game, within the lane's budget (``address``: who
        asks), and kept for the version and language it answers (asking again costs
        nothing)."""
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
            with self.budget.hold(address):
                found = await self.lanes.run(hint_json, s.copy(), seat, seed,
                                             self.settings.hint_samples, lang)
            answer = {"version": version, "step": len(t.actions), "seat": seat,
                      "hints": found}
            session.hinted = (version, lang, answer)
            return answer

    async def prepare(self, session: Session) -> None:
        """A review made ahead, once a game played by a person has just ended, in the
        languages its clients read: ready when the end screen's "Review" is pressed (issue
        26: a review while the scores show). Best effort: a busy lane, or a store that
        fails, leaves it to be made when asked."""
        t = session.table
        row, actions = t.row, list(t.actions)
        result = row.result or {}
        if (row.status != FINISHED or not any(s.kind == HUMAN for s in row.seats)
                or result.get("abandoned") is not None or result.get("ended") is not None):
            return
        for lang in sorted({c.lang for c in session.conns} or {DEFAULT_LANGUAGE}):
            try:
                await self.review(row, lambda: record_of(row, actions), lang)
            except GameError as exc:  # busy, rate-limited or unavailable
                log.info("game %s: its review was not made ahead (%s)", row.id, exc.code)
                return

    async def review(self, row: GameRow, record: Callable[[], GameRecord],
                     lang: str = DEFAULT_LANGUAGE,
                     address: str | None = None) -> ReviewBody:
        """A finished game's review (every seat's decisions, from the whole record: it
        names every hidden card, so never before the game is over), in ``lang``, as sent:
        made once per game and language and kept in the store (``reviews.py``), and its
        encoded body kept for the game's version; the asks while it is made wait for it,
        whoever goes away."""
        if row.status != FINISHED:
            raise GameError("not_finished", N_("a review is available once the game is "
                                               "finished (it shows every seat's cards)"))
        result = row.result or {}
        if result.get("abandoned") is not None or result.get("ended") is not None:
            raise GameError("illegal", N_("an abandoned game has no review: it was not "
                                          "played to the end"))
        samples = self.settings.review_samples

        async def make() -> dict[str, Any]:
            return await self.lanes.run(review_json, record(), samples, lang)

        return await self.reviews.body(row.id, row.version, lang,
                                       lambda: self.budget.hold(address), make, samples)
