"""Ratings for people, on the same scale as the bots' (issue 27).

A person's rating is OpenSkill's Plackett–Luce model (``openskill``: a multiplayer rating for
games of 2–5, each player a mean ``mu`` and an uncertainty ``sigma``), updated when a rated
game ends. It is shown on the bots' ladder's Elo scale (docs/bots.md: Bradley–Terry, mean 0):
in Plackett–Luce two players' chance of finishing ahead of each other is a logistic of
``(mu_a - mu_b) / c``, with ``c = sqrt(2) * beta`` for two well-known players, and on the Elo
scale the same chance is a logistic of ``(elo_a - elo_b) * ln 10 / 400``, so one ``mu`` is
``ELO_PER_MU`` (about 29.5) Elo points, and ``mu = 25`` (a newcomer) is the ladder's 0. The
bots carry fixed ratings from the ladder's measurements (``BOT_ELO``), with a small sigma,
never updated: a person who beats and loses to the Casual bot as often as not reads "you play
like Casual".

Rated games are chosen at creation (``RATED_MODES``): among people only, or people and bots.
A person's seat that a bot finished for them (they conceded, timed out, walked away, or
abandoned the game) is placed last, whatever its score: never a win for them."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from ..ai.roster import LEVEL_OF, LEVELS
from ..core.tr import N_
from .account_store import RatingChange, RatingRow
from .gameerror import GameError
from .gamespec import NewGame
from .store import BOT, HUMAN, GameRow

MODEL = PlackettLuce()
MU0, SIGMA0, BETA = MODEL.mu, MODEL.sigma, MODEL.beta
ELO_PER_MU = 400.0 / (math.log(10) * math.sqrt(2) * BETA)
BOT_SIGMA = 1.0  # a bot's rating is measured, not learned: barely uncertain

# The bots' ratings on the ladder (docs/bots.md, "With the Expert"): the levels' own
# (ai/roster.py LEVELS), the plain names a level plays as that level, and random as that fit
# measured it. ismcts was not in that fit: it is placed the older fit's gap (+116) above the
# hand-set planner, an estimate on this scale, not a measurement.
BOT_ELO: dict[str, int] = {level.id: level.elo for level in LEVELS if level.elo is not None}
BOT_ELO["planner"] = BOT_ELO["casual"]  # the Casual level plays as the hand-set planner
BOT_ELO["greedy"] = BOT_ELO["beginner"]  # and the Beginner as greedy
BOT_ELO["random"] = -672
BOT_ELO["ismcts"] = BOT_ELO["planner"] + 116

PEOPLE, WITH_BOTS = "people", "bots"
RATED_MODES = (PEOPLE, WITH_BOTS)


def elo(mu: float) -> float:
    """A rating's mean on the ladder's Elo scale."""
    return (mu - MU0) * ELO_PER_MU


def mu_of(elo_value: float) -> float:
    return MU0 + elo_value / ELO_PER_MU


@dataclass(frozen=True, slots=True)
class Shown:
    """A rating as a person reads it: Elo and its uncertainty (two sigma), and the level it
    is nearest (``like``: a level's id)."""

    elo: int
    plus_minus: int
    like: str

    def to_json(self, words: Callable[[str], str] = str) -> dict[str, Any]:
        """As JSON, the level's label in ``words`` (a ``game`` catalogue's translation)."""
        return {"elo": self.elo, "plus_minus": self.plus_minus, "like": self.like,
                "like_label": words(LEVEL_OF[self.like].label)}


def shown(mu: float, sigma: float) -> Shown:
    value = elo(mu)
    like = min((level for level in LEVELS if level.elo is not None),
               key=lambda level: abs(float(level.elo or 0) - value))
    return Shown(round(value), round(2 * sigma * ELO_PER_MU), like.id)


def check_rated(mode: str | None, new: NewGame) -> None:
    """Refuses (``malformed``) a rated game that cannot be rated fairly: fewer than two
    seats, people only with a bot seat, a bot without a rating, no person, a chosen seed
    (its deal is known beforehand), or hints (a bot's advice)."""
    if mode is None:
        return
    if mode not in RATED_MODES:
        raise GameError("malformed", N_("rated must be 'people' or 'bots'"), 400)
    if len(new.seats) < 2 or HUMAN not in new.kinds:
        raise GameError("malformed", N_("a rated game needs at least two seats, one of them "
                                        "a person"), 400)
    if mode == PEOPLE and BOT in new.kinds:
        raise GameError("malformed", N_("a game rated among people has no bot seats"), 400)
    for bot in new.bots:
        if bot is not None and bot not in BOT_ELO:
            raise GameError("malformed", N_("the bot {bot} has no rating: choose a level"),
                            400, bot=repr(bot))
    if new.seed is not None:
        raise GameError("malformed", N_("a rated game cannot have a chosen seed"), 400)
    if new.hints:
        raise GameError("malformed", N_("a rated game has no hints: turn them off"), 400)


def left(row: GameRow, seat: int) -> bool:
    """Whether a bot finished the game for this person's seat (or they abandoned it)."""
    s = row.seats[seat]
    result = row.result or {}
    return s.kind == HUMAN and (s.conceded or s.stand_in is not None
                                or result.get("abandoned") == seat)


def places(row: GameRow) -> list[int]:
    """Each seat's place (1 = first; equal places tie): the winners first, then by
    Reputation; a person a bot finished for is last."""
    result = row.result or {}
    winners = set(result.get("winners", []))
    rep = list(result.get("reputation", [0] * len(row.seats)))
    n = len(row.seats)
    stayed = [i for i in range(n) if not left(row, i)]
    # a key per seat: winners above everyone, then Reputation
    key = {i: (1 if i in winners else 0, rep[i]) for i in stayed}
    out = [0] * n
    for i in stayed:
        out[i] = 1 + sum(1 for j in stayed if key[j] > key[i])
    for i in range(n):
        if i not in stayed:
            out[i] = len(stayed) + 1
    return out


def rate(row: GameRow, accounts: dict[int, str],
         held: dict[str, RatingRow]) -> list[RatingChange]:
    """The new ratings of the accounts at a finished rated game's seats (``accounts``: seat
    → account id; ``held``: their ratings now). Bots play at their fixed ratings and guests
    (a person's seat bound to no account) at a newcomer's, and neither is stored."""
    n = len(row.seats)
    ranks = places(row)
    teams = []
    for i, seat in enumerate(row.seats):
        if seat.kind == BOT:
            teams.append([MODEL.rating(mu=mu_of(BOT_ELO.get(seat.bot or "", 0)),
                                       sigma=BOT_SIGMA)])
        elif i in accounts and accounts[i] in held:
            r = held[accounts[i]]
            teams.append([MODEL.rating(mu=r.mu, sigma=r.sigma)])
        else:
            teams.append([MODEL.rating(mu=MU0, sigma=SIGMA0)])
    new = MODEL.rate(teams, ranks=[float(r) for r in ranks])
    return [RatingChange(accounts[i], float(new[i][0].mu), float(new[i][0].sigma), ranks[i], n)
            for i in range(n) if i in accounts and row.seats[i].kind == HUMAN]
