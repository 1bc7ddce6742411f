"""The account API (issue 27; docs/server.md, "Accounts"): sign-up, sign-in and recovery with
a passkey, the session (``/api/me``), sign-out, the profile and "my games", binding a seat,
export and deletion, public profiles and the leaderboard.

Every state-changing request made with the session cookie also carries its CSRF token
(``sessions.CsrfGuard``, checked before any route here runs)."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from .accounts import Accounts, SignedIn
from .language import game_tr, request_language
from .profiles import Profiles
from .sessions import cookie_token, csrf_token, set_cookie_header
from .tokens import seat_link


class NameBody(BaseModel):
    model_config = ConfigDict(extra="ignore")
    name: str = Field(max_length=100)


class AnswerBody(BaseModel):
    """A browser's answer to a challenge: its id and the WebAuthn credential as JSON
    (``PublicKeyCredential.toJSON()``)."""

    model_config = ConfigDict(extra="ignore")
    challenge_id: str = Field(max_length=100)
    credential: dict[str, Any]


class RecoveryBody(BaseModel):
    model_config = ConfigDict(extra="ignore")
    code: str = Field(max_length=100)


class BindBody(BaseModel):
    model_config = ConfigDict(extra="ignore")
    game_id: str = Field(max_length=40)
    seat: int = Field(ge=0, le=4)
    token: str = Field(max_length=100)


def _secure(request: Request, accounts: Accounts) -> bool:
    """Whether the cookie is ``Secure``: the page is served over HTTPS."""
    origin, _ = accounts.origin(request)
    return origin.startswith("https://")


def _me_json(signed: SignedIn | None, token: str | None) -> dict[str, Any]:
    if signed is None or token is None:
        return {"signed_in": False}
    a = signed.account
    return {"signed_in": True, "account": {"id": a.id, "name": a.name},
            "csrf": csrf_token(token)}


def add_account_api(app: FastAPI, accounts: Accounts, profiles: Profiles) -> None:
    def signed_in(request: Request, signed: SignedIn) -> JSONResponse:
        """The answer of a sign-up or sign-in: the new session's cookie, and its CSRF token."""
        response = JSONResponse(_me_json(signed, signed.token))
        response.headers["set-cookie"] = set_cookie_header(signed.token,
                                                           _secure(request, accounts))
        response.headers["cache-control"] = "no-store"
        return response

    def signed_out(request: Request, body: dict[str, Any]) -> JSONResponse:
        response = JSONResponse(body)
        response.headers["set-cookie"] = set_cookie_header("", _secure(request, accounts), 0)
        response.headers["cache-control"] = "no-store"
        return response

    @app.post("/api/account/signup/options")
    async def signup_options(body: NameBody, request: Request) -> dict[str, Any]:
        return await accounts.signup_options(body.name, request)

    @app.post("/api/account/signup")
    async def signup(body: AnswerBody, request: Request) -> JSONResponse:
        return signed_in(request, await accounts.signup(body.challenge_id, body.credential,
                                                        request))

    @app.post("/api/account/signin/options")
    async def signin_options(request: Request) -> dict[str, Any]:
        return await accounts.signin_options(request)

    @app.post("/api/account/signin")
    async def signin(body: AnswerBody, request: Request) -> JSONResponse:
        return signed_in(request, await accounts.signin(body.challenge_id, body.credential,
                                                        request))

    @app.post("/api/account/recover/options")
    async def recover_options(body: RecoveryBody, request: Request) -> dict[str, Any]:
        return await accounts.recovery_options(body.code, request)

    @app.post("/api/account/recover")
    async def recover(body: AnswerBody, request: Request) -> JSONResponse:
        return signed_in(request, await accounts.recover(body.challenge_id, body.credential,
                                                         request))

    @app.get("/api/me")
    async def me(request: Request) -> JSONResponse:
        """Who the cookie signs in, and the session's CSRF token; a cookie whose session has
        ended (or whose account was deleted) is cleared."""
        token = cookie_token(request.headers.get("cookie"))
        account = await accounts.current(request)
        if account is None:
            body = {"signed_in": False}
            if token is not None:
                return signed_out(request, body)
            return JSONResponse(body, headers={"cache-control": "no-store"})
        return JSONResponse(_me_json(SignedIn(account, token or ""), token),
                            headers={"cache-control": "no-store"})

    @app.post("/api/me/signout")
    async def sign_out(request: Request) -> JSONResponse:
        await accounts.sign_out(request, everywhere=False)
        return signed_out(request, {"signed_in": False, "ended": 1})

    @app.post("/api/me/signout-everywhere")
    async def sign_out_everywhere(request: Request) -> JSONResponse:
        ended = await accounts.sign_out(request, everywhere=True)
        return signed_out(request, {"signed_in": False, "ended": ended})

    @app.post("/api/me/name")
    async def rename(body: NameBody, request: Request) -> dict[str, Any]:
        account = await accounts.rename(await accounts.require(request), body.name)
        return {"id": account.id, "name": account.name}

    @app.get("/api/me/games")
    async def my_games(request: Request) -> JSONResponse:
        games = await profiles.my_games(await accounts.require(request))
        return JSONResponse({"games": games}, headers={"cache-control": "no-store"})

    @app.post("/api/me/seats")
    async def bind(body: BindBody, request: Request) -> JSONResponse:
        """Binds a seat whose link the person holds to their account: its answer is the
        account's own link to it, which works on every device they sign in on."""
        account = await accounts.require(request)
        key = await accounts.bind(account, body.game_id, body.seat, body.token)
        return JSONResponse({"game_id": body.game_id, "seat": body.seat,
                             "seat_link": seat_link(body.game_id, body.seat, key)},
                            headers={"cache-control": "no-store"})

    @app.get("/api/me/export")
    async def export(request: Request) -> JSONResponse:
        data = await profiles.export(await accounts.require(request))
        return JSONResponse(data, headers={
            "cache-control": "no-store",
            "content-disposition": 'attachment; filename="flamecraft-account.json"'})

    @app.delete("/api/me")
    async def delete(request: Request) -> JSONResponse:
        account = await accounts.require(request)
        renamed = await profiles.delete(account)
        return signed_out(request, {"signed_in": False, "deleted": True,
                                    "games_renamed": renamed})

    @app.get("/api/players/{account_id}")
    async def player(account_id: str, request: Request) -> dict[str, Any]:
        """Someone's public profile (the level they play like in the client's language)."""
        return await profiles.profile(account_id, game_tr(request_language(request)))

    @app.get("/api/leaderboard")
    async def leaderboard(request: Request) -> dict[str, Any]:
        return {"players": await profiles.leaderboard(game_tr(request_language(request)))}
