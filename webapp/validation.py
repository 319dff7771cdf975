"""Checks every request passes before its view, so no input reaches the database in a form it cannot store or
compare (PostgreSQL refuses NUL characters in text, integers past its integer columns and strings longer than their
column; SQLite refuses integers past 64 bits).

- A whole number in an address (``<int:...>``) matches only up to the integer columns' largest value, 2^31 - 1;
  a larger one matches no route (404).
- A control character (NUL and the other C0 characters, DEL) in the address or in a query or form value gets 400;
  form and query values may hold tabs and line breaks (pasted puzzles, texts).
- A form field stored in a column of limited size (``FIELD_COLUMNS``) longer than the column gets 400.
"""

from __future__ import annotations

import re
from typing import Any

from flask import Flask, abort, request
from sqlalchemy import ColumnElement
from werkzeug.routing import IntegerConverter, Map

from .models import Study, User

WHOLE_NUMBER = re.compile(r"[+-]?[0-9]{1,19}")  # ASCII digits only: str.isdigit() also takes "²", which int() refuses
INTEGER_COLUMN_MAX = 2**31 - 1  # PostgreSQL's integer; SQLite's integers reach 2^63 - 1
ADDRESS_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
FIELD_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")  # tab, line feed and carriage return are allowed
# Form fields stored as they are sent, by field name: the column that holds them.
FIELD_COLUMNS: dict[str, ColumnElement[Any]] = {"name": Study.__table__.c.name, "email": User.__table__.c.email}


class ColumnInteger(IntegerConverter):
    """``<int:...>`` in a route: a whole number from 0 that fits the integer columns (at most 2^31 - 1)."""

    def __init__(
        self, map: Map, fixed_digits: int = 0, min: int | None = None, max: int | None = None, signed: bool = False
    ) -> None:
        super().__init__(map, fixed_digits, min, INTEGER_COLUMN_MAX if max is None else max, signed)


def init_app(app: Flask) -> None:
    """Bound the routes' integers (before any route is added) and check every request's address and fields."""
    app.url_map.converters["int"] = ColumnInteger
    app.before_request(check_request)


def check_request() -> None:
    """Answer 400 with a message for a control character in the address, the query or the form, or a form field
    longer than its column."""
    if ADDRESS_CONTROL.search(request.path):
        abort(400, description="The address contains a control character (such as NUL), which no page's address has.")
    for kind, values in (("query", request.args), ("form", request.form)):
        for name, value in values.items(multi=True):
            if FIELD_CONTROL.search(value):
                abort(400, description=f"The {kind} field {shown(name)} contains a control character (such as NUL).")
    for name, column in FIELD_COLUMNS.items():
        longest = column.type.length  # type: ignore[attr-defined]
        if any(len(value) > longest for value in request.form.getlist(name)):
            abort(400, description=f"The form field {shown(name)} is longer than {longest} characters.")


def shown(name: str) -> str:
    """A field name as a message can quote it: control characters replaced, at most 40 characters."""
    return repr(ADDRESS_CONTROL.sub("?", name)[:40])


def bounded_int(text: str, low: int, high: int) -> int:
    """The whole number ``text`` writes (spaces around it allowed) when it lies from ``low`` to ``high``; else a
    ValueError whose message says which of the two it is not."""
    written = text.strip()
    if not WHOLE_NUMBER.fullmatch(written):
        raise ValueError(f"{shown(written)} is not a whole number")
    value = int(written)
    if not low <= value <= high:
        raise ValueError(f"{value} is outside {low} to {high}")
    return value
