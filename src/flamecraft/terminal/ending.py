"""The end of a terminal game: the final scores (Reputation by source, Moon Dragons, how a tie
was broken), solo achievements, and the words of a review's decisions."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..core.board import CATALOG
from ..core.cardtext import rating_title
from ..core.describe import describe
from ..core.engine import (
    apply,
)
from ..core.engine import winners as engine_winners
from ..core.goals import MEASURE_FUNCTIONS, fancy_value
from ..core.serialize import (
    GameRecord,
)
from ..core.solo import rating
from ..core.state import EMPTY, SOURCE_NAMES, GameState
from ..core.tr import Translate, same
from .screen import (
    Style,
)

REVIEW_TOP = 3  # the mistakes the end screen's review lists


def decision_words(record: GameRecord, rv: Any, game: Translate,
                   top: int = REVIEW_TOP) -> dict[str, str]:
    """The reviewed mistakes' actions (stable texts) in the words of ``game``: each said at
    the state where it was chosen (``describe``); the end screen's review and ``flamecraft
    review`` show them."""
    wanted = {d.number: (d.chosen, d.best) for d in rv.mistakes(top)}
    s = record.first_state()
    out: dict[str, str] = {}
    for number, typed in enumerate(record.actions, 1):
        for said in wanted.get(number, ()):
            out[said] = describe(s, record.parse(s, said), game).words
        s = apply(s, record.parse(s, typed))
    return out




def end_summary(s: GameState, prev: GameState | None,
                style: Style | None = None) -> dict[str, Any]:
    """The final scores of an ended game (everything is public now): Reputation by source,
    each Moon Dragon, the tie-break keys, the winners and how a tie was broken (in the
    language of ``style``)."""
    style = style or Style(False)
    tr = style.tr
    names = s.options.player_names()
    players = []
    for p in range(s.n):
        early = set(prev.scored[p]) if prev is not None else set()
        moons: list[tuple[str, int]] = []
        for f in s.scored[p]:
            card = CATALOG.fancies[f]
            if not card.sun and f not in early:
                moons.append((card.name, fancy_value(s, p, card)))
            elif not card.sun:  # by a Shop ability (Hedges & Henges): its value then
                moons.append((card.name, -1))
        moons.extend((CATALOG.fancies[f].name, 0) for f in s.fancy[p]
                     if not CATALOG.fancies[f].sun)
        players.append({
            "name": names[p], "reputation": s.rep[p],
            "sources": dict(zip(SOURCE_NAMES, s.rep_sources[p], strict=True)),
            "moons": moons, "hand": len(s.hand[p]), "goods": sum(s.goods[p]),
        })
    best = engine_winners(s)
    if len(best) == 1:
        winner = tr("Winner: {name} with {rep} Reputation").format(name=names[best[0]],
                                                                   rep=s.rep[best[0]])
    else:
        winner = tr("Winners, sharing the victory: {names}").format(
            names=tr(", ").join(names[p] for p in best))
    out: dict[str, Any] = {"players": players, "turns": s.turn, "winner_line": winner,
                           "tie_line": tie_break(s, tr), "winners": best}
    for p in range(s.n):
        if s.companion[p] != EMPTY:
            players[p]["companion"] = CATALOG.companions[s.companion[p]].name
    if s.n == 1:
        out["achievements"] = [(CATALOG.achievements[a].name, CATALOG.achievements[a].rep)
                               for a in s.achievements[0]]
        out["rating"] = rating_title(rating(s.rep[0]), style.game)
        out["winner_line"] = tr("Final Reputation {rep}: {rating}").format(
            rep=s.rep[0], rating=out["rating"])
    return out


def tie_break(s: GameState, tr: Callable[[str], str] = same) -> str:
    """How a tie on Reputation was broken (the rules' tiebreakers: most Artisan Dragons left
    in hand, then most Goods), or "" when nobody tied for the lead."""
    names = s.options.player_names()
    top = max(s.rep)
    tied = [p for p in range(s.n) if s.rep[p] == top]
    if len(tied) == 1:
        return ""
    who = tr(" and ").join(names[p] for p in tied)
    line = tr("{names} tied at {rep} Reputation. ").format(names=who, rep=top)
    keys = ((tr("Artisan Dragons in hand"), [len(h) for h in s.hand]),
            (tr("Goods left"), [sum(g) for g in s.goods]))
    for label, key in keys:
        counts = tr(", ").join(f"{names[p]} {key[p]}" for p in tied)
        most = max(key[p] for p in tied)
        still = [p for p in tied if key[p] == most]
        if len(still) == 1:
            return line + tr("Most {label} breaks it ({counts}): {name} wins.").format(
                label=label, counts=counts, name=names[still[0]])
        line += tr("Still tied on {label} ({counts}). ").format(label=label, counts=counts)
        tied = still
    return line + tr("They share the victory.")



def achievement_lines(s: GameState, p: int, style: Style | None = None) -> list[str]:
    """Solo: every achievement, claimed or how far the player is (its measure now)."""
    style = style or Style(False)
    tr = style.tr
    if s.n != 1:
        return [tr("achievements are for solo games (flamecraft play --players 1)")]
    lines = [tr("SOLO ACHIEVEMENTS (claimed at the end of a turn once met)")]
    for card in CATALOG.achievements:
        if card.index in s.achievements[p]:
            state = tr("claimed, {n} Rep").format(n=card.rep)
        else:
            now = MEASURE_FUNCTIONS[card.measure](s, p, card.arg)
            state = tr("{now}/{goal}, worth {n} Rep").format(
                now=min(now, card.at_least), goal=card.at_least, n=card.rep)
        lines.append(f"  {card.name} ({state}): {style.cards.achievement(card)}")
    return lines
