"""What an account shows and holds (issue 27): its public profile (name, games played and
finished, win rate by player count, past games with replay and review links, rating and its
history), the person's own "my games" (with their own keys to their seats, on any device),
the leaderboard, the export of everything stored about them, and deleting the account.

Only public facts are shown: a game's name, status, seats' names and kinds, and once it is
finished its public result (Reputation, winners). Nothing of a game in play beyond what its
lobby entry shows, and never a card.

Ratings are updated here when a rated game ends (``Rater``): the first process to see it
finished rates it, once (``account_store.apply_ratings_checked``), and a sweep at start-up rates
those a stopped process left."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import Any

from ..core.tr import N_
from . import account_store as db
from .account_store import AccountRow, RatingRow
from .accounts import Accounts
from .connections import Session
from .gameerror import GameError
from .games import Games
from .ratings import MU0, SIGMA0, elo, left, places, rate, shown
from .store import FINISHED, HUMAN, OPEN, GameRow, Store
from .tokens import game_link, seat_link

log = logging.getLogger("flamecraft.server")

PROFILE_GAMES = 200  # the latest games a profile lists and counts
LEADERBOARD = 100


Words = Callable[[str], str]


def _rating_json(r: RatingRow | None, words: Words = str) -> dict[str, Any]:
    mu, sigma, games = (MU0, SIGMA0, 0) if r is None else (r.mu, r.sigma, r.games)
    return {**shown(mu, sigma).to_json(words), "games": games, "mu": round(mu, 3),
            "sigma": round(sigma, 3)}


def game_line(row: GameRow, seat: int) -> dict[str, Any]:
    """One past or current game of a profile: public facts only."""
    out: dict[str, Any] = {
        "game_id": row.id, "name": row.name, "status": row.status, "seat": seat,
        "players": len(row.seats), "created": row.created,
        "seats": [{"name": s.name, "kind": s.kind, "bot": s.bot} for s in row.seats],
        "link": game_link(row.id)}
    if row.status == FINISHED and row.result is not None:
        result = row.result
        out["replay"] = f"{game_link(row.id)}?replay=1"
        if result.get("abandoned") is None:
            out["review"] = f"/api/games/{row.id}/review"
        out["reputation"] = list(result.get("reputation", []))
        out["winners"] = list(result.get("winners", []))
        out["place"] = places(row)[seat]
        out["won"] = seat in out["winners"] and not left(row, seat)
        out["left"] = left(row, seat)
    return out


def stats(lines: list[dict[str, Any]]) -> dict[str, Any]:
    """Games played and finished, and the win rate by player count (finished games)."""
    by: dict[int, dict[str, int]] = {}
    for line in lines:
        if line["status"] != FINISHED:
            continue
        n = by.setdefault(line["players"], {"finished": 0, "won": 0})
        n["finished"] += 1
        n["won"] += int(bool(line.get("won")))
    return {"played": sum(1 for x in lines if x["status"] != OPEN),
            "finished": sum(n["finished"] for n in by.values()),
            "by_players": [{"players": k, "finished": v["finished"], "won": v["won"],
                            "win_rate": v["won"] / v["finished"]}
                           for k, v in sorted(by.items())]}


class Profiles:
    """Profiles, "my games", the leaderboard, export and deletion, and the rating of
    finished rated games."""

    def __init__(self, games: Games, accounts: Accounts,
                 now: Callable[[], float] = time.time):
        self.games, self.accounts, self.now = games, accounts, now

    async def run(self, fn: Callable[[Store], Any]) -> Any:
        return await self.games.database.run(fn)

    async def _lines(self, account_id: str) -> list[tuple[GameRow, int]]:
        seats: list[tuple[str, int]] = await self.run(
            lambda st: db.seats_of(st, account_id, PROFILE_GAMES))
        out = []
        for game_id, seat in seats:
            session = self.games.sessions.get(game_id)
            row = session.table.row if session is not None else await self._load(game_id)
            if row is not None and 0 <= seat < len(row.seats):
                out.append((row, seat))
        return out

    async def _load(self, game_id: str) -> GameRow | None:
        row: GameRow | None = await self.run(lambda st: st.load_game(game_id))
        return row

    async def profile(self, account_id: str, words: Words = str) -> dict[str, Any]:
        """An account's public profile."""
        account: AccountRow | None = await self.run(lambda st: db.account(st, account_id))
        if account is None:
            raise GameError("not_found", N_("there is no player {player}"), 404,
                            player=repr(account_id))
        lines = [game_line(row, seat) for row, seat in await self._lines(account_id)]
        held = await self.run(lambda st: db.ratings(st, [account_id]))
        hist = await self.run(lambda st: db.history(st, account_id))
        return {"id": account.id, "name": account.name, "created": account.created,
                **stats(lines), "games": lines,
                "rating": _rating_json(held.get(account_id), words),
                "rating_start": shown(MU0, SIGMA0).to_json(words),  # a newcomer's
                "history": [{"game_id": h.game_id, "elo": round(elo(h.mu)),
                             "plus_minus": shown(h.mu, h.sigma).plus_minus,
                             "place": h.place, "players": h.players, "at": h.created}
                            for h in hist]}

    async def my_games(self, account: AccountRow) -> list[dict[str, Any]]:
        """The account's games with its own link to each seat (any device)."""
        out = []
        for row, seat in await self._lines(account.id):
            line = game_line(row, seat)
            key = await self.accounts.seat_key(row.id, seat, account.id)
            line["seat_link"] = seat_link(row.id, seat, key)
            out.append(line)
        return out

    async def leaderboard(self, words: Words = str) -> list[dict[str, Any]]:
        rows = await self.run(lambda st: db.leaderboard(st, LEADERBOARD))
        return [{"rank": i + 1, "id": account_id, "name": name, **_rating_json(r, words)}
                for i, (account_id, name, r) in enumerate(rows)]

    async def export(self, account: AccountRow) -> dict[str, Any]:
        """Everything stored about the account (no secret: sessions by count, passkeys by
        their public parts)."""
        creds = await self.run(lambda st: db.credentials_of(st, account.id))
        return {"account": {"id": account.id, "name": account.name,
                            "created": account.created, "user_handle": account.user_handle},
                "passkeys": [{"id": c.id, "public_key": c.public_key,
                              "sign_count": c.sign_count, "transports": c.transports,
                              "created": c.created, "last_used": c.used} for c in creds],
                "profile": await self.profile(account.id),
                "exported": self.now()}

    async def delete(self, account: AccountRow) -> int:
        """Deletes the account: its games stay, its seats' names replaced by "Former player
        N"; the number of games renamed."""
        renamed = 0
        for game_id, seat in await self.run(lambda st: db.seats_of(st, account.id, 100000)):
            try:
                await self._rename_seat(game_id, seat)
                renamed += 1
            except GameError as exc:
                log.warning("game %s: a deleted account's name stays: %s", game_id,
                            exc.message)
        await self.run(lambda st: db.delete_account(st, account.id))
        return renamed

    async def _rename_seat(self, game_id: str, seat: int) -> None:
        session = await self.games.need(game_id)

        def change(row: GameRow) -> GameRow:
            names = [s.name for s in row.seats]
            taken = {n.casefold() for i, n in enumerate(names) if i != seat}
            new = f"Former player {seat + 1}"
            k = 2
            while new.casefold() in taken:
                new, k = f"Former player {seat + 1}-{k}", k + 1
            row.seats[seat].name = new
            row.options = replace(row.options, names=tuple(
                new if i == seat else n for i, n in enumerate(row.options.names or names)))
            return row

        # (its stored reviews, which name the seats, go with its texts: made again if asked)
        await self.games.tasks.detached(self.games.rename(session, change))


class Rater:
    """Rates a rated game once it has ended (called after every change of a game)."""

    def __init__(self, games: Games, now: Callable[[], float] = time.time):
        self.games, self.now = games, now

    def changed(self, session: Session) -> None:
        if session.table.row.status == FINISHED and not self.games.tasks.closed:
            self.games.tasks.spawn(self.rate(session.id))

    async def sweep(self) -> None:
        """Rates the finished rated games a stopped process left unrated (a store that is
        down now: the next start, or the game's next change, rates them)."""
        try:
            left_over = await self.games.database.run(db.unrated_finished)
        except GameError as exc:
            log.warning("the rated games were not swept: %s", exc.message)
            return
        for game_id in left_over:
            await self.rate(game_id)

    async def rate(self, game_id: str) -> bool:
        """Updates the ratings of a finished rated game's accounts, once; whether this call
        did."""
        try:
            for _ in range(5):
                now = self.now()
                done = await self.games.database.run(partial(rate_once, game_id=game_id,
                                                             now=now))
                if done is not None:
                    return done
                await asyncio.sleep(0.01)  # another game's ratings moved meanwhile
        except GameError as exc:
            log.warning("game %s: not rated yet: %s", game_id, exc.message)
        return False


def rate_once(store: Store, game_id: str, now: float) -> bool | None:
    """One try at rating a game (``Rater.rate``): False when it is not a rated game, not
    finished, or rated already; None when a rating changed while it was computed."""
    mode = db.rated_mode(store, game_id)
    if mode is None or mode[1]:
        return False
    row = store.load_game(game_id)
    if row is None or row.status != FINISHED:
        return False
    accounts = {i: a for i, a in db.game_accounts(store, game_id).items()
                if i < len(row.seats) and row.seats[i].kind == HUMAN}
    held = db.ratings(store, list(accounts.values()))
    return db.apply_ratings_checked(store, game_id, rate(row, accounts, held), held, now)
