"""Seat keys, game ids and links: how a link lets its bearer into one seat and no other.

A key (192 random bits) is shown once, in the answer that creates its game; only SHA-256
digests are stored and they are compared in constant time, so neither the store nor the
time an answer takes gives a key away. Links carry the key in the fragment, which browsers
never send to a server."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence

from ..core.tr import N_
from .gameerror import GameError
from .store import GameRow

KEPT_TOKENS = 8  # a seat's older tokens (from the games it rematched) that still let it in


def new_token() -> str:
    """An unguessable seat token (192 random bits)."""
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def seat_digests(token: str | None, older: Sequence[str] = ()) -> list[str]:
    """What a seat's row stores: its new key's digest (if it got one), then the first
    ``KEPT_TOKENS - 1`` of ``older`` (the same seat's digests in the game this one is a
    rematch of, newest first), which still let it in."""
    return ([hash_token(token)] if token else []) + list(older[:KEPT_TOKENS - 1])


def new_game_id() -> str:
    """A new game's id: 72 random bits, URL-safe, never beginning with "-" (one in 64 would,
    and a command line takes such an id for an option: ``flamecraft admin end -x…``)."""
    while True:
        game_id = secrets.token_urlsafe(9)
        if not game_id.startswith("-"):
            return game_id


def valid_game_id(game_id: str) -> bool:
    return 0 < len(game_id) <= 32 and all(c.isalnum() or c in "-_" for c in game_id)


def game_link(game_id: str) -> str:
    """A game's page for anyone: the spectators' table (a replay once it is finished)."""
    return f"/play/{game_id}"


def seat_link(game_id: str, seat: int, token: str) -> str:
    """A seat's link: the key rides in the fragment, which browsers never send to a server,
    so it appears in no request line, log or Referer header."""
    return f"{game_link(game_id)}#seat={seat}&token={token}"


def token_ok(row: GameRow, seat: int, token: str | None) -> bool:
    """Whether ``token`` lets its bearer play ``seat`` (compared in constant time)."""
    if token is None or not 0 <= seat < len(row.seats) or len(token) > 100:
        return False
    digest = hash_token(token)
    return any(hmac.compare_digest(digest, h) for h in row.seats[seat].token_hashes)


def check_token(row: GameRow, seat: int, token: str) -> None:
    """Refuses (``bad_token``) a key that does not open ``seat``."""
    if not token_ok(row, seat, token):
        raise GameError("bad_token", N_("this link does not let you play seat {seat}"), 403,
                        seat=seat)
