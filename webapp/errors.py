"""Error pages: a short message for every HTTP error, as a page or, for htmx requests, a fragment."""

from __future__ import annotations

from flask import Flask, render_template, request
from werkzeug.exceptions import HTTPException, InternalServerError, MethodNotAllowed

HANDLED_CODES = (400, 401, 403, 404, 405, 409, 410, 413, 422, 429, 500, 503)
TITLES = {
    400: "Bad request",
    401: "Log in first",
    403: "Not yours",
    404: "Not found",
    405: "Method not allowed",
    409: "Conflict",
    410: "Gone",
    413: "Too large",
    422: "Cannot use this puzzle",
    429: "Too many requests",
    500: "Something went wrong",
    503: "Busy",
}
SERVER_ERROR_MESSAGE = "The server hit an unexpected error. Please try again in a moment."


def init_app(app: Flask) -> None:
    """Register the message page for each handled status code."""
    for code in HANDLED_CODES:
        app.register_error_handler(code, render_error)


def render_error(error: HTTPException) -> tuple[str, int, dict[str, str]]:
    """Render the error's message; a server error never shows its details."""
    code = error.code or 500
    message = SERVER_ERROR_MESSAGE if isinstance(error, InternalServerError) else error.description
    headers = {}
    if isinstance(error, MethodNotAllowed) and error.valid_methods:
        headers["Allow"] = ", ".join(error.valid_methods)
    template = "_error_message.html" if request.headers.get("HX-Request") else "error.html"
    return (
        render_template(template, code=code, title=TITLES.get(code, "Error"), message=message),
        code,
        headers,
    )
