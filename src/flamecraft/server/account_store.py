"""People's accounts in the store (the tables of ``account_schema.py``): one function per
question or change, each one transaction of the store's own (``Store._transaction``), so it
runs wherever the store runs (inline for SQLite, on the store's thread for PostgreSQL:
``Database.run``). Nothing here checks a request: that is ``accounts.py``'s.

Secrets are never stored as they are: a session's token and a recovery code only by their
SHA-256 digests; a passkey by its public key."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .store import Store

_ACCOUNT_COLUMNS = "id, name, name_key, user_handle, created"


@dataclass(frozen=True, slots=True)
class AccountRow:
    id: str
    name: str
    name_key: str  # the case-folded confusable skeleton of the name: unique
    user_handle: str  # base64url of the WebAuthn user handle
    created: float


@dataclass(frozen=True, slots=True)
class CredentialRow:
    id: str  # base64url of the credential id
    account_id: str
    public_key: str  # base64url of the COSE public key
    sign_count: int
    transports: list[str]
    created: float
    used: float


@dataclass(frozen=True, slots=True)
class ChallengeRow:
    id: str
    kind: str
    challenge: str  # base64url
    account_id: str | None
    data: dict[str, Any]
    expires: float


@dataclass(frozen=True, slots=True)
class RatingRow:
    account_id: str
    mu: float
    sigma: float
    games: int


@dataclass(frozen=True, slots=True)
class HistoryRow:
    game_id: str
    mu: float
    sigma: float
    place: int
    players: int
    created: float


@dataclass(frozen=True, slots=True)
class RatingChange:
    """One person's new rating after a rated game, and where they placed (1 = first)."""

    account_id: str
    mu: float
    sigma: float
    place: int
    players: int


def _account(row: Sequence[Any]) -> AccountRow:
    return AccountRow(str(row[0]), str(row[1]), str(row[2]), str(row[3]), float(row[4]))


def create_account(store: Store, account: AccountRow, credential: CredentialRow,
                   session_hash: str, expires: float) -> bool:
    """A new account with its first passkey and a session, in one transaction; False
    (nothing stored) when the name (its key) is taken."""
    with store._transaction() as cur:
        cur.execute(store._sql(
            f"INSERT INTO flamecraft_accounts ({_ACCOUNT_COLUMNS}) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT DO NOTHING"),
            (account.id, account.name, account.name_key, account.user_handle, account.created))
        if cur.rowcount != 1:
            return False
        _insert_credential(store, cur, credential)
        _insert_session(store, cur, session_hash, account.id, account.created, expires)
    return True


def _insert_credential(store: Store, cur: Any, c: CredentialRow) -> None:
    cur.execute(store._sql(
        "INSERT INTO flamecraft_credentials (id, account_id, public_key, sign_count, "
        "transports, created, used) VALUES (?, ?, ?, ?, ?, ?, ?)"),
        (c.id, c.account_id, c.public_key, c.sign_count, json.dumps(c.transports), c.created,
         c.used))


def _insert_session(store: Store, cur: Any, token_hash: str, account_id: str, now: float,
                    expires: float) -> None:
    cur.execute(store._sql(
        "INSERT INTO flamecraft_sessions (token_hash, account_id, created, expires) "
        "VALUES (?, ?, ?, ?)"), (token_hash, account_id, now, expires))


def add_credential(store: Store, credential: CredentialRow) -> bool:
    """Another passkey for an existing account (recovery); False if the account is gone
    or the credential is already known."""
    with store._transaction() as cur:
        cur.execute(store._sql("SELECT 1 FROM flamecraft_accounts WHERE id = ?"),
                    (credential.account_id,))
        if cur.fetchone() is None:
            return False
        cur.execute(store._sql("SELECT 1 FROM flamecraft_credentials WHERE id = ?"),
                    (credential.id,))
        if cur.fetchone() is not None:
            return False
        _insert_credential(store, cur, credential)
    return True


def drop_credentials(store: Store, account_id: str, keep: str) -> int:
    """Deletes every passkey of the account but ``keep``; how many."""
    with store._transaction() as cur:
        cur.execute(store._sql("DELETE FROM flamecraft_credentials WHERE account_id = ? AND "
                               "id <> ?"), (account_id, keep))
        return int(cur.rowcount)


def account(store: Store, account_id: str) -> AccountRow | None:
    with store._transaction() as cur:
        cur.execute(store._sql(f"SELECT {_ACCOUNT_COLUMNS} FROM flamecraft_accounts "
                               "WHERE id = ?"), (account_id,))
        row = cur.fetchone()
    return None if row is None else _account(row)


def account_named(store: Store, name_key: str) -> AccountRow | None:
    with store._transaction() as cur:
        cur.execute(store._sql(f"SELECT {_ACCOUNT_COLUMNS} FROM flamecraft_accounts "
                               "WHERE name_key = ?"), (name_key,))
        row = cur.fetchone()
    return None if row is None else _account(row)


def accounts_named(store: Store, account_ids: Sequence[str]) -> dict[str, str]:
    """The names of the accounts among ``account_ids`` that still exist."""
    if not account_ids:
        return {}
    marks = ", ".join("?" for _ in account_ids)
    with store._transaction() as cur:
        cur.execute(store._sql(f"SELECT id, name FROM flamecraft_accounts WHERE id IN "
                               f"({marks})"), tuple(account_ids))
        return {str(r[0]): str(r[1]) for r in cur.fetchall()}


def session_account(store: Store, token_hash: str, now: float) -> AccountRow | None:
    """The account a session's token digest signs in, if the session exists and has not
    expired (an expired one is deleted)."""
    with store._transaction() as cur:
        cur.execute(store._sql(
            "SELECT a.id, a.name, a.name_key, a.user_handle, a.created, s.expires "
            "FROM flamecraft_sessions s JOIN flamecraft_accounts a ON a.id = s.account_id "
            "WHERE s.token_hash = ?"), (token_hash,))
        row = cur.fetchone()
        if row is None:
            return None
        if float(row[5]) <= now:
            cur.execute(store._sql("DELETE FROM flamecraft_sessions WHERE token_hash = ?"),
                        (token_hash,))
            return None
    return _account(row)


def start_session(store: Store, token_hash: str, account_id: str, now: float, expires: float,
                  replaces: str | None = None) -> None:
    """A new session (sign-in), the one it replaces (the browser's previous cookie) ended in
    the same transaction: a session's token is never reused across a sign-in."""
    with store._transaction() as cur:
        if replaces is not None:
            cur.execute(store._sql("DELETE FROM flamecraft_sessions WHERE token_hash = ?"),
                        (replaces,))
        cur.execute(store._sql("DELETE FROM flamecraft_sessions WHERE expires <= ?"), (now,))
        _insert_session(store, cur, token_hash, account_id, now, expires)


def end_session(store: Store, token_hash: str) -> None:
    with store._transaction() as cur:
        cur.execute(store._sql("DELETE FROM flamecraft_sessions WHERE token_hash = ?"),
                    (token_hash,))


def end_sessions(store: Store, account_id: str) -> int:
    """Signs the account out everywhere; how many sessions ended."""
    with store._transaction() as cur:
        cur.execute(store._sql("DELETE FROM flamecraft_sessions WHERE account_id = ?"),
                    (account_id,))
        return int(cur.rowcount)


def credential(store: Store, credential_id: str) -> CredentialRow | None:
    with store._transaction() as cur:
        cur.execute(store._sql(
            "SELECT id, account_id, public_key, sign_count, transports, created, used "
            "FROM flamecraft_credentials WHERE id = ?"), (credential_id,))
        r = cur.fetchone()
    if r is None:
        return None
    return CredentialRow(str(r[0]), str(r[1]), str(r[2]), int(r[3]), list(json.loads(r[4])),
                         float(r[5]), float(r[6]))


def credentials_of(store: Store, account_id: str) -> list[CredentialRow]:
    with store._transaction() as cur:
        cur.execute(store._sql(
            "SELECT id, account_id, public_key, sign_count, transports, created, used "
            "FROM flamecraft_credentials WHERE account_id = ? ORDER BY created"),
            (account_id,))
        rows = cur.fetchall()
    return [CredentialRow(str(r[0]), str(r[1]), str(r[2]), int(r[3]), list(json.loads(r[4])),
                          float(r[5]), float(r[6])) for r in rows]


def use_credential(store: Store, credential_id: str, seen_count: int, new_count: int,
                   now: float) -> bool:
    """Records a sign-in's signature counter, if the stored one is still ``seen_count`` (two
    sign-ins racing with one assertion: one wins)."""
    with store._transaction() as cur:
        cur.execute(store._sql(
            "UPDATE flamecraft_credentials SET sign_count = ?, used = ? WHERE id = ? AND "
            "sign_count = ?"), (new_count, now, credential_id, seen_count))
        return bool(cur.rowcount == 1)


def put_challenge(store: Store, challenge: ChallengeRow, now: float) -> None:
    """Stores a challenge (and forgets the expired ones)."""
    with store._transaction() as cur:
        cur.execute(store._sql("DELETE FROM flamecraft_challenges WHERE expires <= ?"), (now,))
        cur.execute(store._sql(
            "INSERT INTO flamecraft_challenges (id, kind, challenge, account_id, data, "
            "expires) VALUES (?, ?, ?, ?, ?, ?)"),
            (challenge.id, challenge.kind, challenge.challenge, challenge.account_id,
             json.dumps(challenge.data), challenge.expires))


def take_challenge(store: Store, challenge_id: str, kind: str,
                   now: float) -> ChallengeRow | None:
    """The challenge ``challenge_id`` of ``kind``, deleted as it is read (a challenge is used
    once, whatever comes of it); None if there is none or it has expired."""
    with store._transaction() as cur:
        cur.execute(store._sql(
            "SELECT id, kind, challenge, account_id, data, expires FROM flamecraft_challenges "
            "WHERE id = ? AND kind = ?"), (challenge_id, kind))
        r = cur.fetchone()
        if r is None:
            return None
        cur.execute(store._sql("DELETE FROM flamecraft_challenges WHERE id = ?"),
                    (challenge_id,))
        if cur.rowcount != 1:
            return None  # (taken by another transaction meanwhile)
    if float(r[5]) <= now:
        return None
    return ChallengeRow(str(r[0]), str(r[1]), str(r[2]), None if r[3] is None else str(r[3]),
                        dict(json.loads(r[4])), float(r[5]))


def rename(store: Store, account_id: str, name: str, name_key: str) -> bool:
    """A new display name; False when another account holds its key."""
    with store._transaction() as cur:
        cur.execute(store._sql("SELECT id FROM flamecraft_accounts WHERE name_key = ?"),
                    (name_key,))
        other = cur.fetchone()
        if other is not None and other[0] != account_id:
            return False
        cur.execute(store._sql("UPDATE flamecraft_accounts SET name = ?, name_key = ? "
                               "WHERE id = ?"), (name, name_key, account_id))
        return bool(cur.rowcount == 1)


def delete_account(store: Store, account_id: str) -> bool:
    """Deletes the account and all that is its (passkeys, sessions, ratings, the binding of
    its seats); its games stay (their seat names are the caller's to replace first)."""
    with store._transaction() as cur:
        cur.execute(store._sql("DELETE FROM flamecraft_accounts WHERE id = ?"), (account_id,))
        return bool(cur.rowcount == 1)


# --- seats bound to accounts


def bind_seat(store: Store, game_id: str, seat: int, account_id: str, now: float) -> str:
    """Binds a game's seat to an account unless it is bound already, or the account holds
    another seat of the game (one seat per person: a rated game is not played against
    oneself); the account the seat is bound to after ("" when neither)."""
    with store._transaction() as cur:
        cur.execute(store._sql("SELECT seat FROM flamecraft_seat_accounts WHERE game_id = ? "
                               "AND account_id = ? AND seat <> ?"), (game_id, account_id, seat))
        if cur.fetchone() is not None:
            cur.execute(store._sql("SELECT account_id FROM flamecraft_seat_accounts WHERE "
                                   "game_id = ? AND seat = ?"), (game_id, seat))
            row = cur.fetchone()
            return "" if row is None else str(row[0])
        cur.execute(store._sql(
            "INSERT INTO flamecraft_seat_accounts (game_id, seat, account_id, created) "
            "VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING"), (game_id, seat, account_id, now))
        cur.execute(store._sql("SELECT account_id FROM flamecraft_seat_accounts WHERE "
                               "game_id = ? AND seat = ?"), (game_id, seat))
        return str(cur.fetchone()[0])


def seats_of(store: Store, account_id: str, limit: int = 1000) -> list[tuple[str, int]]:
    """The (game id, seat) bound to an account, newest first."""
    with store._transaction() as cur:
        cur.execute(store._sql(
            "SELECT game_id, seat FROM flamecraft_seat_accounts WHERE account_id = ? "
            "ORDER BY created DESC LIMIT ?"), (account_id, limit))
        return [(str(r[0]), int(r[1])) for r in cur.fetchall()]


def game_accounts(store: Store, game_id: str) -> dict[int, str]:
    """The seats of a game bound to an account: seat → account id."""
    with store._transaction() as cur:
        cur.execute(store._sql("SELECT seat, account_id FROM flamecraft_seat_accounts WHERE "
                               "game_id = ?"), (game_id,))
        return {int(r[0]): str(r[1]) for r in cur.fetchall()}


# --- ratings


def mark_rated(store: Store, game_id: str, mode: str) -> None:
    """A game to be rated when it ends (chosen at its creation)."""
    with store._transaction() as cur:
        cur.execute(store._sql("INSERT INTO flamecraft_rated_games (game_id, mode, rated) "
                               "VALUES (?, ?, NULL) ON CONFLICT DO NOTHING"), (game_id, mode))


def rated_mode(store: Store, game_id: str) -> tuple[str, bool] | None:
    """A rated game's mode and whether its ratings were updated; None for an unrated game."""
    with store._transaction() as cur:
        cur.execute(store._sql("SELECT mode, rated FROM flamecraft_rated_games WHERE "
                               "game_id = ?"), (game_id,))
        r = cur.fetchone()
    return None if r is None else (str(r[0]), r[1] is not None)


def unrated_finished(store: Store) -> list[str]:
    """The rated games that have finished but whose ratings were not updated (a process
    that stopped between the two): the start-up sweep rates them."""
    with store._transaction() as cur:
        cur.execute(store._sql(
            "SELECT r.game_id FROM flamecraft_rated_games r JOIN flamecraft_games g "
            "ON g.id = r.game_id WHERE r.rated IS NULL AND g.status = ?"), ("finished",))
        return [str(r[0]) for r in cur.fetchall()]


def ratings(store: Store, account_ids: Sequence[str]) -> dict[str, RatingRow]:
    if not account_ids:
        return {}
    marks = ", ".join("?" for _ in account_ids)
    with store._transaction() as cur:
        cur.execute(store._sql(f"SELECT account_id, mu, sigma, games FROM flamecraft_ratings "
                               f"WHERE account_id IN ({marks})"), tuple(account_ids))
        return {str(r[0]): RatingRow(str(r[0]), float(r[1]), float(r[2]), int(r[3]))
                for r in cur.fetchall()}


def _apply_ratings(store: Store, game_id: str, changes: Sequence[RatingChange],
                  expected: dict[str, RatingRow], now: float) -> bool:
    """Stores a rated game's new ratings and their history, and marks the game rated, in one
    transaction: only if it was not rated yet and every rating is still the one it was
    computed from (``expected``; another game ending meanwhile: the caller computes again).
    False: nothing written."""
    with store._transaction() as cur:
        cur.execute(store._sql("UPDATE flamecraft_rated_games SET rated = ? WHERE "
                               "game_id = ? AND rated IS NULL"), (now, game_id))
        if cur.rowcount != 1:
            return False
        ids = [c.account_id for c in changes]
        if ids:
            marks = ", ".join("?" for _ in ids)
            cur.execute(store._sql(f"SELECT account_id, mu, sigma FROM flamecraft_ratings "
                                   f"WHERE account_id IN ({marks})"), tuple(ids))
            now_held = {str(r[0]): (float(r[1]), float(r[2])) for r in cur.fetchall()}
            was = {k: (v.mu, v.sigma) for k, v in expected.items()}
            if now_held != was:
                raise _Stale
        for c in changes:
            cur.execute(store._sql(
                "INSERT INTO flamecraft_ratings (account_id, mu, sigma, games, updated) "
                "VALUES (?, ?, ?, 1, ?) ON CONFLICT (account_id) DO UPDATE SET mu = "
                "excluded.mu, sigma = excluded.sigma, games = flamecraft_ratings.games + 1, "
                "updated = excluded.updated"), (c.account_id, c.mu, c.sigma, now))
            cur.execute(store._sql(
                "INSERT INTO flamecraft_rating_history (account_id, game_id, mu, sigma, place, "
                "players, created) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING"),
                (c.account_id, game_id, c.mu, c.sigma, c.place, c.players, now))
    return True


class _Stale(Exception):
    """Raised inside ``_apply_ratings``'s transaction to roll it back."""


def apply_ratings_checked(store: Store, game_id: str, changes: Sequence[RatingChange],
                          expected: dict[str, RatingRow], now: float) -> bool | None:
    """Stores a rated game's new ratings and their history, and marks the game rated, in one
    transaction (``_apply_ratings``): True; False when it was rated already; None when a
    rating changed meanwhile (nothing written: compute again)."""
    try:
        return _apply_ratings(store, game_id, changes, expected, now)
    except _Stale:
        return None


def history(store: Store, account_id: str) -> list[HistoryRow]:
    with store._transaction() as cur:
        cur.execute(store._sql(
            "SELECT game_id, mu, sigma, place, players, created FROM flamecraft_rating_history "
            "WHERE account_id = ? ORDER BY created, game_id"), (account_id,))
        return [HistoryRow(str(r[0]), float(r[1]), float(r[2]), int(r[3]), int(r[4]),
                           float(r[5])) for r in cur.fetchall()]


def leaderboard(store: Store, limit: int) -> list[tuple[str, str, RatingRow]]:
    """The rated accounts, best conservative rating (mu - 3 sigma) first: id, name, rating."""
    with store._transaction() as cur:
        cur.execute(store._sql(
            "SELECT a.id, a.name, r.mu, r.sigma, r.games FROM flamecraft_ratings r JOIN "
            "flamecraft_accounts a ON a.id = r.account_id ORDER BY r.mu - 3 * r.sigma DESC, "
            "a.name LIMIT ?"), (limit,))
        return [(str(r[0]), str(r[1]), RatingRow(str(r[0]), float(r[2]), float(r[3]),
                                                 int(r[4]))) for r in cur.fetchall()]
