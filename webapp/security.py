"""Security headers on every response and the session cookie's flags.

The policy allows scripts from this origin and the htmx CDN only (no inline script: the CDN fallback and the print
button are files), styles from this origin plus inline ones (htmx's indicator style and the report's SVG plots),
images from this origin and data URLs, and no framing by other sites. ``SUDOKU_SECURE_COOKIES=on`` marks the
session cookie Secure, for a deployment behind HTTPS.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, Response

from . import assets
from .pool import setting_from_env

CONTENT_SECURITY_POLICY = "; ".join((
    "default-src 'self'",
    f"script-src 'self' {assets.HTMX_CDN_URL.split('/htmx.org')[0]}",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'none'",
))
HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
}


def settings() -> dict[str, Any]:
    """The session cookie's flags: HttpOnly, SameSite=Lax, and Secure when ``SUDOKU_SECURE_COOKIES`` is on (read
    as the bank's switches are, ``pool.setting_from_env``)."""
    secure = setting_from_env("SECURE_COOKIES", False)
    return {"SESSION_COOKIE_HTTPONLY": True, "SESSION_COOKIE_SAMESITE": "Lax", "SESSION_COOKIE_SECURE": secure}


def init_app(app: Flask) -> None:
    """Add the security headers to every response."""
    app.after_request(add_headers)


def add_headers(response: Response) -> Response:
    """The headers above, where the response does not set its own."""
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)
    return response
