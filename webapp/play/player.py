"""The anonymous player: a random id in a long-lived cookie, set when the browser starts its first game, that
links the games it starts to one history without an account.

The cookie is HttpOnly, SameSite=Lax, and Secure when the session cookie is (``SUDOKU_SECURE_COOKIES``). It holds
nothing but the id; a value that is not one the app could have made is ignored (a new id is made at the next game).
"""

from __future__ import annotations

import secrets

from flask import Response, after_this_request, current_app, g, request
from werkzeug.wrappers import Response as BaseResponse

COOKIE = "sudoku_player"
MAX_AGE_S = 400 * 24 * 3600  # the longest a browser keeps a cookie
ID_BYTES = 16
ID_LENGTH = 22  # the length of secrets.token_urlsafe(ID_BYTES)
ID_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")


def current_player() -> str | None:
    """The id in the request's player cookie (or the one this request made), None when there is none or it is not
    a well-formed id."""
    made: str | None = g.get("player_made")
    if made is not None:
        return made
    value = request.cookies.get(COOKIE)
    if value is None or len(value) != ID_LENGTH or not set(value) <= ID_CHARS:
        return None
    return value


def player_for_new_game() -> str:
    """The player a new game belongs to: the cookie's, else a new id; the answer (re)sets the cookie either way, so
    that it lives another ``MAX_AGE_S`` from the latest game."""
    player = current_player() or secrets.token_urlsafe(ID_BYTES)
    g.player_made = player

    @after_this_request
    def remember(response: Response) -> Response:
        response.set_cookie(
            COOKIE,
            player,
            max_age=MAX_AGE_S,
            httponly=True,
            samesite="Lax",
            secure=bool(current_app.config.get("SESSION_COOKIE_SECURE")),
        )
        return response

    return player


def forget_cookie(response: BaseResponse) -> BaseResponse:
    """The answer with the player cookie removed."""
    response.delete_cookie(
        COOKIE, httponly=True, samesite="Lax", secure=bool(current_app.config.get("SESSION_COOKIE_SECURE"))
    )
    return response
