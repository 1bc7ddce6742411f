"""People's accounts (issue 27): sign-up and sign-in with a passkey, sessions, the host's
recovery codes, display names, and the seats bound to an account.

An account is optional: a seat link plays as it always did. A passkey is checked by
py_webauthn (``webauthn``): the server hands out a challenge (stored, used once, expiring
after ``CHALLENGE_SECONDS``), the browser's authenticator signs it, and the answer is checked
against the stored public key and signature counter. Whatever goes wrong with an answer (an
unknown passkey, a bad signature, another site's origin, a counter gone back) is refused with
the same words, so sign-in tells nobody which accounts exist.

A seat bound to an account (``bind``) can be opened from any device the account is signed in
on: the server gives the account a key of its own for that seat (``seat_key``), an HMAC of
the seat by a secret of the store's, whose digest the seat's row holds beside its link's.
Nothing that opens a seat or a session is ever logged."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from fastapi import Request
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import bytes_to_base64url
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from ..core.tr import N_
from ..session.seats import SetupError
from . import account_store as db
from .account_store import AccountRow, ChallengeRow, CredentialRow
from .gameerror import GameError
from .games import Games
from .guards import AddressBuckets
from .names import check_seat_names, clean, skeleton
from .sessions import SESSION_SECONDS, cookie_token, new_session_token, session_hash
from .settings import Settings
from .store import GameRow, Store
from .tokens import hash_token, token_ok

log = logging.getLogger("flamecraft.server")

CHALLENGE_SECONDS = 300.0  # a sign-up or sign-in must be answered within 5 minutes
RECOVERY_SECONDS = 3600.0  # a host's recovery link works for an hour, once
RP_NAME = "Flamecraft"
SECRET_KEY = "account_seat_secret"  # the flamecraft_meta row of the seat keys' secret
ADDRESSES = 10000  # client address groups whose sign-in attempts are remembered

# Every way an answer can fail to prove a passkey, in one sentence (no account enumeration).
BAD_PASSKEY = N_("this passkey could not be verified: try again, or use another passkey")


def b64(data: bytes) -> str:
    return bytes_to_base64url(data)


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def check_name(name: str) -> tuple[str, str]:
    """A display name as seat names are checked (``names.clean`` and ``check_seat_names``:
    NFKC, no control or invisible characters, not too wide, 1–20 characters, not a number)
    and its key: the case-folded confusable skeleton,
    which no two accounts share. Refused: ``malformed``."""
    try:
        (tidy,) = check_seat_names([clean(name)])
    except SetupError as exc:
        raise GameError("malformed", str(exc), 400, error=exc) from None
    return tidy, skeleton(tidy.casefold())


def _name_taken(name: str) -> GameError:
    return GameError("name_taken", N_("the name {name} is taken (names are compared without "
                                      "regard to case, width or look-alike letters): choose "
                                      "another"), 409, name=repr(name))


@dataclass(frozen=True, slots=True)
class SignedIn:
    """A sign-in's outcome: the account and the new session's token (for the cookie)."""

    account: AccountRow
    token: str


class Accounts:
    """The accounts of this server: the operations of the account API (``account_api.py``)."""

    def __init__(self, games: Games, settings: Settings,
                 clock: Callable[[], float] = time.monotonic,
                 now: Callable[[], float] = time.time):
        self.games, self.settings, self.now = games, settings, now
        per_minute = settings.account_attempts_per_minute
        self.attempts = AddressBuckets(per_minute / 60.0, per_minute, ADDRESSES, clock)
        self._secret: bytes | None = None

    async def run(self, fn: Callable[[Store], Any]) -> Any:
        return await self.games.database.run(fn)

    # --- where the pages are served from

    def origin(self, request: Request) -> tuple[str, str]:
        """The origin a passkey's answer must come from and the relying party id (its host
        name): the configured public origin, else the request's own."""
        configured = self.settings.public_origin
        if configured:
            return configured.rstrip("/"), urlsplit(configured).hostname or ""
        host = request.headers.get("host", "")
        origin = f"{request.url.scheme}://{host}"
        rp_id = urlsplit(origin).hostname or ""
        if not rp_id:
            raise GameError("malformed", N_("the request names no host (its Host header)"),
                            400)
        return origin, rp_id

    def limit(self, request: Request) -> None:
        """One more sign-in or sign-up attempt from this address: refused past the rate."""
        if not self.attempts.allow(request.client.host if request.client else "?"):
            raise GameError("rate_limited", N_("too many attempts to sign in or up from "
                                               "here: wait a minute"), 429)

    # --- sessions

    async def current(self, request: Request) -> AccountRow | None:
        token = cookie_token(request.headers.get("cookie"))
        if token is None:
            return None
        digest, now = session_hash(token), self.now()
        found: AccountRow | None = await self.run(
            lambda st: db.session_account(st, digest, now))
        return found

    async def require(self, request: Request) -> AccountRow:
        """The signed-in account; refused (401 ``signed_out``) without one, and when the
        cookie's session has ended or its account was deleted."""
        account = await self.current(request)
        if account is None:
            raise GameError("signed_out", N_("you are not signed in (or your session has "
                                             "ended): sign in again"), 401)
        return account

    async def _session(self, account: AccountRow, request: Request) -> SignedIn:
        """A new session for ``account``; the browser's previous one (its cookie) ended."""
        token = new_session_token()
        old = cookie_token(request.headers.get("cookie"))
        replaces = session_hash(old) if old is not None else None
        now = self.now()
        digest = session_hash(token)
        await self.run(lambda st: db.start_session(st, digest, account.id, now,
                                                   now + SESSION_SECONDS, replaces))
        return SignedIn(account, token)

    async def sign_out(self, request: Request, everywhere: bool) -> int:
        account = await self.require(request)
        if everywhere:
            ended: int = await self.run(lambda st: db.end_sessions(st, account.id))
            return ended
        token = cookie_token(request.headers.get("cookie"))
        assert token is not None
        digest = session_hash(token)
        await self.run(lambda st: db.end_session(st, digest))
        return 1

    # --- challenges

    async def _challenge(self, kind: str, account_id: str | None,
                         data: dict[str, Any]) -> tuple[str, bytes]:
        challenge_id, challenge = secrets.token_urlsafe(16), secrets.token_bytes(32)
        now = self.now()
        row = ChallengeRow(challenge_id, kind, b64(challenge), account_id, data,
                           now + CHALLENGE_SECONDS)
        await self.run(lambda st: db.put_challenge(st, row, now))
        return challenge_id, challenge

    async def _take(self, challenge_id: str, kind: str) -> ChallengeRow:
        now = self.now()
        row: ChallengeRow | None = await self.run(
            lambda st: db.take_challenge(st, challenge_id, kind, now))
        if row is None:
            raise GameError("expired", N_("this sign-in step has expired or was already "
                                          "used: start again"), 400)
        return row

    # --- sign-up

    async def signup_options(self, name: str, request: Request) -> dict[str, Any]:
        """The options of a new passkey for a new account named ``name``."""
        self.limit(request)
        tidy, key = check_name(name)
        if await self.run(lambda st: db.account_named(st, key)) is not None:
            raise _name_taken(tidy)
        handle = secrets.token_bytes(16)
        challenge_id, challenge = await self._challenge(
            "signup", None, {"name": tidy, "user_handle": b64(handle)})
        return self._creation(request, challenge_id, challenge, tidy, handle, [])

    def _creation(self, request: Request, challenge_id: str, challenge: bytes, name: str,
                  handle: bytes, exclude: list[CredentialRow]) -> dict[str, Any]:
        _, rp_id = self.origin(request)
        options = generate_registration_options(
            rp_id=rp_id, rp_name=RP_NAME, user_name=name, user_display_name=name,
            user_id=handle, challenge=challenge, timeout=int(CHALLENGE_SECONDS * 1000),
            authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.REQUIRED,
                user_verification=UserVerificationRequirement.PREFERRED),
            exclude_credentials=[PublicKeyCredentialDescriptor(id=unb64(c.id))
                                 for c in exclude])
        return {"challenge_id": challenge_id,
                "options": json.loads(options_to_json(options))}

    def _registered(self, request: Request, challenge: ChallengeRow, credential: Any,
                    account_id: str) -> CredentialRow:
        origin, rp_id = self.origin(request)
        try:
            checked = verify_registration_response(
                credential=credential, expected_challenge=unb64(challenge.challenge),
                expected_rp_id=rp_id, expected_origin=origin)
        except (WebAuthnException, ValueError, TypeError, KeyError) as exc:
            log.info("a new passkey was refused (%s)", type(exc).__name__)
            raise GameError("bad_passkey", BAD_PASSKEY, 403) from None
        transports = credential.get("response", {}).get("transports", []) if isinstance(
            credential, dict) else []
        now = self.now()
        return CredentialRow(b64(checked.credential_id), account_id,
                             b64(checked.credential_public_key), checked.sign_count,
                             [str(t) for t in transports if isinstance(t, str)][:8], now, now)

    async def signup(self, challenge_id: str, credential: Any,
                     request: Request) -> SignedIn:
        """A new account, its first passkey and a session, once the passkey is checked."""
        self.limit(request)
        challenge = await self._take(challenge_id, "signup")
        account_id = secrets.token_urlsafe(12)
        cred = self._registered(request, challenge, credential, account_id)
        name = str(challenge.data["name"])
        _, key = check_name(name)
        account = AccountRow(account_id, name, key, str(challenge.data["user_handle"]),
                             self.now())
        token = new_session_token()
        digest = session_hash(token)
        if not await self.run(lambda st: db.create_account(
                st, account, cred, digest, account.created + SESSION_SECONDS)):
            raise _name_taken(name)
        old = cookie_token(request.headers.get("cookie"))
        if old is not None:  # the browser's previous session (another account) ends
            ended = session_hash(old)
            await self.run(lambda st: db.end_session(st, ended))
        return SignedIn(account, token)

    # --- sign-in

    async def signin_options(self, request: Request) -> dict[str, Any]:
        """The options of a sign-in: any passkey of this site (discoverable credentials:
        no name is asked, so none is revealed)."""
        self.limit(request)
        challenge_id, challenge = await self._challenge("signin", None, {})
        _, rp_id = self.origin(request)
        options = generate_authentication_options(
            rp_id=rp_id, challenge=challenge, timeout=int(CHALLENGE_SECONDS * 1000),
            user_verification=UserVerificationRequirement.PREFERRED)
        return {"challenge_id": challenge_id,
                "options": json.loads(options_to_json(options))}

    async def signin(self, challenge_id: str, credential: Any, request: Request) -> SignedIn:
        """A session for the account whose passkey signed the challenge."""
        self.limit(request)
        challenge = await self._take(challenge_id, "signin")
        refused = GameError("bad_passkey", BAD_PASSKEY, 403)
        cred_id = credential.get("id") if isinstance(credential, dict) else None
        if not isinstance(cred_id, str) or not 0 < len(cred_id) <= 1400:
            raise refused
        found: CredentialRow | None = await self.run(lambda st: db.credential(st, cred_id))
        if found is None:
            raise refused
        account: AccountRow | None = await self.run(lambda st: db.account(st, found.account_id))
        if account is None:
            raise refused
        handle = credential.get("response", {}).get("userHandle")
        if handle and handle != account.user_handle:
            raise refused
        origin, rp_id = self.origin(request)
        try:
            checked = verify_authentication_response(
                credential=credential, expected_challenge=unb64(challenge.challenge),
                expected_rp_id=rp_id, expected_origin=origin,
                credential_public_key=unb64(found.public_key),
                credential_current_sign_count=found.sign_count)
        except (WebAuthnException, ValueError, TypeError, KeyError) as exc:
            log.info("a sign-in was refused (%s)", type(exc).__name__)
            raise refused from None
        now = self.now()
        if not await self.run(lambda st: db.use_credential(
                st, found.id, found.sign_count, checked.new_sign_count, now)):
            raise refused
        return await self._session(account, request)

    # --- recovery: a one-time code the host makes (``flamecraft account recover``)

    async def recovery_options(self, code: str, request: Request) -> dict[str, Any]:
        """The options of a new passkey for the account a host's recovery code names (the
        code is used up)."""
        self.limit(request)
        row = await self._take(hash_token(code), "recover")
        assert row.account_id is not None
        account_id = row.account_id
        account: AccountRow | None = await self.run(lambda st: db.account(st, account_id))
        if account is None:
            raise GameError("expired", N_("this sign-in step has expired or was already "
                                          "used: start again"), 400)
        creds = await self.run(lambda st: db.credentials_of(st, account_id))
        challenge_id, challenge = await self._challenge(
            "recover-key", account.id, {"revoke": bool(row.data.get("revoke"))})
        return self._creation(request, challenge_id, challenge, account.name,
                              unb64(account.user_handle), creds)

    async def recover(self, challenge_id: str, credential: Any, request: Request) -> SignedIn:
        """The new passkey stored, every other session ended, and a session for it."""
        self.limit(request)
        challenge = await self._take(challenge_id, "recover-key")
        assert challenge.account_id is not None
        account_id = challenge.account_id
        cred = self._registered(request, challenge, credential, account_id)
        account: AccountRow | None = await self.run(lambda st: db.account(st, account_id))
        if account is None or not await self.run(lambda st: db.add_credential(st, cred)):
            raise GameError("bad_passkey", BAD_PASSKEY, 403)
        if challenge.data.get("revoke"):  # the host said so: the lost passkeys stop working
            await self.run(lambda st: db.drop_credentials(st, account_id, keep=cred.id))
        await self.run(lambda st: db.end_sessions(st, account_id))
        return await self._session(account, request)

    # --- the account itself

    async def rename(self, account: AccountRow, name: str) -> AccountRow:
        tidy, key = check_name(name)
        if not await self.run(lambda st: db.rename(st, account.id, tidy, key)):
            raise _name_taken(tidy)
        return AccountRow(account.id, tidy, key, account.user_handle, account.created)

    # --- seats bound to the account

    async def secret(self) -> bytes:
        """The secret the accounts' seat keys are made with (made once, kept in the store)."""
        if self._secret is None:
            made = secrets.token_urlsafe(32)
            text: str = await self.run(lambda st: meta_secret(st, made))
            self._secret = text.encode()
        return self._secret

    async def seat_key(self, game_id: str, seat: int, account_id: str) -> str:
        """The account's own key to a seat bound to it: the same on every device."""
        mac = hmac.new(await self.secret(), f"seat {game_id} {seat} {account_id}".encode(),
                       hashlib.sha256).digest()
        return b64(mac[:24])

    async def bind(self, account: AccountRow, game_id: str, seat: int, token: str) -> str:
        """Binds the seat whose link (``token``) the signed-in person holds to their account;
        the account's own key to it. A seat bound to another account is refused."""
        session = await self.games.need(game_id)
        if not token_ok(session.table.row, seat, token):
            raise GameError("bad_token", N_("this link does not let you play seat {seat}"),
                            403, seat=seat)
        now = self.now()
        owner = await self.run(lambda st: db.bind_seat(st, game_id, seat, account.id, now))
        if not owner:
            raise GameError("illegal", N_("your account already has another seat in this "
                                          "game"), 409)
        if owner != account.id:
            raise GameError("bad_token", N_("seat {seat} of this game belongs to another "
                                            "account"), 403, seat=seat)
        key = await self.seat_key(game_id, seat, account.id)
        digest = hash_token(key)

        def change(row: GameRow) -> GameRow | None:
            hashes = row.seats[seat].token_hashes
            if digest in hashes:
                return None
            hashes.append(digest)  # after the link's own (a rematch carries the first)
            return row

        await self.games.tasks.detached(self.games._change(session, change))
        return key


def meta_secret(store: Store, made: str) -> str:
    """The store's secret for seat keys: ``made`` if there was none yet, else the one kept."""
    with store._transaction() as cur:
        cur.execute(store._sql("INSERT INTO flamecraft_meta (key, value) VALUES (?, ?) "
                               "ON CONFLICT (key) DO NOTHING"), (SECRET_KEY, made))
        cur.execute(store._sql("SELECT value FROM flamecraft_meta WHERE key = ?"),
                    (SECRET_KEY,))
        return str(cur.fetchone()[0])


def issue_recovery(store: Store, name: str, now: float | None = None,
                   revoke: bool = False) -> str | None:
    """A host's one-time recovery code for the account named ``name`` (None: no such
    account): whoever opens ``/account/recover#code=…`` within ``RECOVERY_SECONDS`` adds a
    passkey to it (``revoke``: and the account's other passkeys are deleted then). Only the
    code's digest is stored."""
    _, key = check_name(name)
    account = db.account_named(store, key)
    if account is None:
        return None
    code = secrets.token_urlsafe(24)
    at = time.time() if now is None else now
    db.put_challenge(store, ChallengeRow(hash_token(code), "recover", "", account.id,
                                         {"revoke": revoke}, at + RECOVERY_SECONDS), at)
    return code
