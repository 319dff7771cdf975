"""Error pages: a short message for every HTTP error, as a page or, for htmx requests, a fragment; a database
that fails during a request (locked, unreachable, disconnected, read-only, out of disk) gets 503 with
``Retry-After``, not a 500."""

from __future__ import annotations

from flask import Flask, current_app, render_template, request
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from werkzeug.exceptions import HTTPException, InternalServerError, MethodNotAllowed, ServiceUnavailable

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
DATABASE_MESSAGE = "The server cannot reach its database just now. Please try again in a moment."
RETRY_AFTER_S = 5  # seconds a client is asked to wait after a database fault
READ_ONLY_STATE = "25006"  # PostgreSQL's read_only_sql_transaction
RESOURCES_CLASS = "53"  # PostgreSQL's insufficient resources: disk_full 53100, out_of_memory 53200, ...


def init_app(app: Flask) -> None:
    """Register the message page for each handled status code, and the 503 for database faults."""
    for code in HANDLED_CODES:
        app.register_error_handler(code, render_error)
    app.register_error_handler(OperationalError, database_unavailable)
    app.register_error_handler(PoolTimeout, database_unavailable)
    app.register_error_handler(DBAPIError, database_disconnected)


def database_unavailable(error: Exception) -> tuple[str, int, dict[str, str]]:
    """503 with ``Retry-After`` and a plain message for a database that is locked, unreachable or out of
    connections; one line in the log (the fault, not a traceback)."""
    cause = getattr(error, "orig", None) or error
    reason = (str(cause).strip().splitlines() or [type(cause).__name__])[0]
    current_app.logger.error("database unavailable during %s %s: %s", request.method, request.path, reason)
    body, code, headers = render_error(ServiceUnavailable(DATABASE_MESSAGE))
    return body, code, {**headers, "Retry-After": str(RETRY_AFTER_S)}


def database_disconnected(error: DBAPIError) -> tuple[str, int, dict[str, str]]:
    """A lost database connection, or a database that cannot take writes now (read-only, out of disk or other
    resources), is answered as ``database_unavailable``; any other database error is a 500."""
    if not (error.connection_invalidated or cannot_write_now(error)):
        raise error
    return database_unavailable(error)


def cannot_write_now(error: DBAPIError) -> bool:
    """Whether PostgreSQL refused for a state of the server, not the statement: a read-only transaction (a standby,
    ``default_transaction_read_only``) or insufficient resources (disk full, out of memory, too many connections)."""
    state = str(getattr(error.orig, "sqlstate", None) or "")
    return state == READ_ONLY_STATE or state.startswith(RESOURCES_CLASS)


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
