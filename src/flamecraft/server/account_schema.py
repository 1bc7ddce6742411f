"""The tables of people's accounts (issue 27), in the same store as the games: accounts,
their passkeys, their sessions, the challenges of sign-up and sign-in, the seats bound to an
account, and ratings with their history. Plain DDL that SQLite and PostgreSQL both read (keys
and public keys as base64url text, no BLOBs), kept apart from ``store.py`` so that its schema
list only names them.

Schema 4 (``ACCOUNT_TABLES``) adds them all; the games' tables are unchanged. Rows that
belong to an account go with it (``ON DELETE CASCADE``); a seat bound to an account is
unbound, not its game."""

from __future__ import annotations

# The schema version that adds these tables (store.MIGRATIONS[ACCOUNTS_SCHEMA - 1]): 5, over
# schema 4's stored reviews (issue 24).
ACCOUNTS_SCHEMA = 5

ACCOUNT_TABLES: tuple[str, ...] = (
    # A person: a display name (``name_key``: its case-folded confusable skeleton, unique, so
    # two accounts cannot pass for each other) and the WebAuthn user handle their passkeys
    # carry (random, never their name).
    """CREATE TABLE IF NOT EXISTS flamecraft_accounts (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        name_key TEXT NOT NULL UNIQUE,
        user_handle TEXT NOT NULL UNIQUE,
        created DOUBLE PRECISION NOT NULL)""",
    # A passkey: its credential id and COSE public key (base64url), the signature counter
    # last seen (a counter that goes back is a cloned authenticator), its transports.
    """CREATE TABLE IF NOT EXISTS flamecraft_credentials (
        id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES flamecraft_accounts (id) ON DELETE CASCADE,
        public_key TEXT NOT NULL,
        sign_count BIGINT NOT NULL,
        transports TEXT NOT NULL,
        created DOUBLE PRECISION NOT NULL,
        used DOUBLE PRECISION NOT NULL)""",
    """CREATE INDEX IF NOT EXISTS flamecraft_credentials_by_account
        ON flamecraft_credentials (account_id)""",
    # A signed-in browser: only the SHA-256 digest of its cookie's token is stored.
    """CREATE TABLE IF NOT EXISTS flamecraft_sessions (
        token_hash TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES flamecraft_accounts (id) ON DELETE CASCADE,
        created DOUBLE PRECISION NOT NULL,
        expires DOUBLE PRECISION NOT NULL)""",
    """CREATE INDEX IF NOT EXISTS flamecraft_sessions_by_account
        ON flamecraft_sessions (account_id)""",
    # A challenge handed to a browser (sign-up, sign-in, a passkey added by recovery) or a
    # host's recovery code (its digest as the id): used once, before ``expires``.
    """CREATE TABLE IF NOT EXISTS flamecraft_challenges (
        id TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        challenge TEXT NOT NULL,
        account_id TEXT REFERENCES flamecraft_accounts (id) ON DELETE CASCADE,
        data TEXT NOT NULL,
        expires DOUBLE PRECISION NOT NULL)""",
    # A seat of a game taken by a signed-in person ("my games" on any device).
    """CREATE TABLE IF NOT EXISTS flamecraft_seat_accounts (
        game_id TEXT NOT NULL REFERENCES flamecraft_games (id),
        seat INTEGER NOT NULL,
        account_id TEXT NOT NULL REFERENCES flamecraft_accounts (id) ON DELETE CASCADE,
        created DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game_id, seat))""",
    """CREATE INDEX IF NOT EXISTS flamecraft_seat_accounts_by_account
        ON flamecraft_seat_accounts (account_id, created)""",
    # A rated game (chosen at creation: "people" or "bots", people and bots) and when its
    # ratings were updated (NULL until it ends; set once, whichever process is first).
    """CREATE TABLE IF NOT EXISTS flamecraft_rated_games (
        game_id TEXT PRIMARY KEY REFERENCES flamecraft_games (id),
        mode TEXT NOT NULL,
        rated DOUBLE PRECISION)""",
    # A person's rating (OpenSkill's mu and sigma) and its history, one row per rated game.
    """CREATE TABLE IF NOT EXISTS flamecraft_ratings (
        account_id TEXT PRIMARY KEY REFERENCES flamecraft_accounts (id) ON DELETE CASCADE,
        mu DOUBLE PRECISION NOT NULL,
        sigma DOUBLE PRECISION NOT NULL,
        games INTEGER NOT NULL,
        updated DOUBLE PRECISION NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS flamecraft_rating_history (
        account_id TEXT NOT NULL REFERENCES flamecraft_accounts (id) ON DELETE CASCADE,
        game_id TEXT NOT NULL,
        mu DOUBLE PRECISION NOT NULL,
        sigma DOUBLE PRECISION NOT NULL,
        place INTEGER NOT NULL,
        players INTEGER NOT NULL,
        created DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (account_id, game_id))""",
)
