"""Security headers on every response, the session cookie's flags, the host names served and absolute links.

The policy allows scripts from this origin and the htmx CDN only (no inline script: the CDN fallback and the print
button are files), styles from this origin plus inline ones (htmx's indicator style and the report's SVG plots),
images from this origin and data URLs, and no framing by other sites. ``SUDOKU_SECURE_COOKIES=on`` marks the
session cookie Secure, for a deployment behind HTTPS.

The Host header is the client's to write, so it never decides an address the app shows: an absolute link (a
study's entry link) starts with ``SUDOKU_BASE_URL`` when that is set; else it takes the request's host only when
that host is an allowed one (``SUDOKU_ALLOWED_HOSTS``, else the local names); else the link is shown as a path.
With ``SUDOKU_ALLOWED_HOSTS`` set, a request for any other host gets 400. Behind ``SUDOKU_PROXY_HOPS`` trusted proxies
the client's address and scheme are read from their X-Forwarded-For and X-Forwarded-Proto headers (ignored
otherwise, so a client cannot pick its own address for the rate limits).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from flask import Flask, Response, abort, current_app, request, url_for
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.sansio.utils import host_is_trusted

from . import assets

CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        f"script-src 'self' {assets.HTMX_CDN_URL.split('/htmx.org')[0]}",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "object-src 'none'",
        "base-uri 'self'",
        "frame-ancestors 'none'",
    )
)
HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
}


LOCAL_HOSTS = ("localhost", "127.0.0.1")  # hosts whose links are shown when no list of allowed hosts is set


def init_app(app: Flask) -> None:
    """Check the base URL, refuse hosts not allowed (before anything else runs), add the security headers to
    every response and give templates ``public_url``."""
    app.config["BASE_URL"] = checked_base_url(app.config.get("BASE_URL"))
    hops = int(app.config.get("PROXY_HOPS", 0))
    if hops:  # the client's address (rate limits) and scheme come from the trusted proxies' headers
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops)  # type: ignore[method-assign]
    app.before_request_funcs.setdefault(None, []).insert(0, check_host)
    app.after_request(add_headers)
    app.add_template_global(public_url)


def checked_base_url(value: str | None) -> str | None:
    """The base URL without a trailing slash, or a ValueError naming the setting when it is not an http(s)
    address of a host with nothing after it."""
    if not value:
        return None
    parts = urlsplit(value.strip())
    if (
        parts.scheme not in ("http", "https")
        or not parts.hostname
        or parts.path.strip("/")
        or parts.query
        or parts.fragment
        or parts.username
        or parts.password
    ):
        raise ValueError(f"SUDOKU_BASE_URL must be an address such as https://sudoku.example.org, not {value!r}")
    return f"{parts.scheme}://{parts.netloc}"


def check_host() -> None:
    """400 for a request whose Host is not one of ``ALLOWED_HOSTS``, when that list is set."""
    allowed = current_app.config["ALLOWED_HOSTS"]
    if allowed and not host_is_trusted(request.host, allowed):
        abort(400, description="This server does not answer for the host name in the request.")


def public_url(endpoint: str, **values: Any) -> str:
    """The absolute address of a page, for people to use elsewhere: on the base URL; else on the request's host
    when it is an allowed (or local) one; else only the path (the page then says how to set the base URL)."""
    path = url_for(endpoint, **values)
    base: str = current_app.config["BASE_URL"]
    if base:
        return base + path
    if host_is_trusted(request.host, current_app.config["ALLOWED_HOSTS"] or LOCAL_HOSTS):
        return str(url_for(endpoint, _external=True, **values))
    return path


def add_headers(response: Response) -> Response:
    """The headers above, where the response does not set its own."""
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)
    return response
