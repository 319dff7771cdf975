"""Hints that teach: the player's choice of notation, the words the hint panel shows, the technique pages.

The notation (plain words or the compact ``r2c2``) is a cookie the player sets from the hint panel or a technique
page (``POST /notation``); every play page and fragment reads it through the template helpers registered here.
"""

from __future__ import annotations

from typing import Any

from flask import abort, current_app, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from sudoku_engine.grid import UNITS, digits_of, parse_values

from ..games import guide, wording
from ..games.boardview import CellView
from ..games.hints import GameHint
from . import bp

COOKIE_DAYS = 365


def notation() -> str:
    """The notation this browser chose (plain words unless its cookie says compact)."""
    return wording.notation_of(request.cookies.get(wording.NOTATION_COOKIE))


def words(text: str) -> str:
    """A sentence of the engine (or one naming cells as it does) in the chosen notation."""
    return wording.plain_text(text) if notation() == wording.PLAIN else text


def example_words(example: guide.Example) -> str:
    """A worked example's step in the chosen notation (a chain as its plain summary first)."""
    return wording.step_in(example.text, notation(), example.placements, example.eliminations)


def hint_words(hint: GameHint) -> list[str]:
    """The hint's four rungs in the chosen notation."""
    return wording.rungs_in(hint.rungs, notation(), hint.placements, hint.eliminations)


def spoken(announce: str, hint: GameHint | None) -> str:
    """An action's announcement in the chosen notation (a revealed rung as the panel shows it)."""
    if hint is not None and hint.rung and announce == "Hint: " + hint.rungs[hint.rung - 1]:
        return "Hint: " + hint_words(hint)[hint.rung - 1]
    return words(announce)


@bp.context_processor
def teaching_helpers() -> dict[str, Any]:
    """The notation and the wording helpers, for every play template."""
    return {
        "notation": notation(),
        "words": words,
        "hint_words": hint_words,
        "example_words": example_words,
        "spoken": spoken,
        "technique_family": guide.family_of,
        "family_named": guide.family_named,
    }


def parse_notation(text: str | None) -> str:
    """A notation the player may choose: ``plain`` or ``compact``."""
    if text not in wording.NOTATIONS:
        raise ValueError(f"{text!r} is not a notation: send plain or compact.")
    return text


def local_path(text: str | None) -> str:
    """Where to go back to: a path of this site (``/g/...``), else the start page. Whitespace, control characters
    and backslashes are refused: browsers drop or turn them into slashes, so "/\t/host" would lead to another site."""
    if not text or not text.startswith("/") or text.startswith("//") or "\\" in text:
        return url_for("play.index")
    if not all(ch.isprintable() and not ch.isspace() for ch in text):
        return url_for("play.index")
    return text


@bp.post("/notation")
def set_notation() -> ResponseReturnValue:
    """Keep the player's choice of notation in a cookie and go back to the page it was made on."""
    try:
        chosen = parse_notation(request.form.get("notation"))
    except ValueError as error:
        abort(400, description=str(error))
    response = redirect(local_path(request.form.get("back")), 303)
    response.set_cookie(
        wording.NOTATION_COOKIE,
        chosen,
        max_age=COOKIE_DAYS * 24 * 3600,
        secure=bool(current_app.config.get("SESSION_COOKIE_SECURE")),
        httponly=True,
        samesite="Lax",
    )
    return response


def example_board(example: guide.Example) -> list[CellView]:
    """The example's position as the game draws a board: candidates as centre marks, the step highlighted."""
    values = parse_values(example.position)
    givens = parse_values(example.puzzle)
    effect = {c for c, _ in (*example.placements, *example.eliminations)}
    cause = {c for c, _ in example.cause} | set(example.cells)
    area = {c for unit in example.units for c in UNITS[unit]}
    roles = {c: "area" for c in area} | {c: "cause" for c in cause} | {c: "effect" for c in effect}
    return [
        CellView(
            cell=cell,
            digit=values[cell],
            given=bool(givens[cell]),
            centre=() if values[cell] else digits_of(example.candidates[cell]),
            hint=roles.get(cell, ""),
            cause_digits=tuple(d for c, d in example.cause if c == cell),
            effect_digits=tuple(d for c, d in (*example.eliminations, *example.placements) if c == cell),
        )
        for cell in range(81)
    ]


@bp.get("/techniques")
def techniques_guide() -> ResponseReturnValue:
    """Every family of techniques with its paragraph and a link to its page."""
    return render_template("play/techniques.html", families=list(guide.FAMILIES.values()))


@bp.get("/techniques/<family>")
def technique_family(family: str) -> ResponseReturnValue:
    """A family's page: what it is, its techniques, and a worked example drawn as a board."""
    found = guide.FAMILIES.get(family)
    if found is None:
        abort(404, description="There is no such family of techniques. The guide lists them all.")
    example = guide.examples().get(family)
    board = example_board(example) if example else None
    outcome = wording.outcome_words(example.placements, example.eliminations, False) if example else ""
    return render_template("play/technique.html", family=found, example=example, board=board, outcome=outcome)
