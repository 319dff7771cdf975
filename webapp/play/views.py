"""Play routes: each view validates its input, acts through webapp.games, and renders a page or fragment."""

from __future__ import annotations

from collections.abc import Callable
from typing import NoReturn, TypeVar

from flask import abort, current_app, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from sudoku_engine.grid import InvalidPuzzle
from sudoku_engine.slider import describe

from .. import games, pool
from ..db import get_session
from ..models import Game
from . import bp
from .inputs import parse_cell_name, parse_client_ms, parse_digit, parse_slider

DEFAULT_SLIDER = 30.0
T = TypeVar("T")


def parsed(parse: Callable[[str | None], T], text: str | None) -> T:
    """The parsed input, or a 400 response carrying the parser's message."""
    try:
        return parse(text)
    except ValueError as error:
        abort(400, description=str(error))


def unknown_game() -> NoReturn:
    """Answer 404 for a game id that does not exist."""
    abort(404, description="There is no game at this address. Check the link, or start a new puzzle.")


def load_game(game_id: str) -> Game:
    """The game with this id, or a 404 response."""
    return games.get_game(get_session(), game_id) or unknown_game()


def is_htmx() -> bool:
    """True when htmx sent the request, so a fragment is the answer."""
    return request.headers.get("HX-Request") == "true"


@bp.get("/")
def index() -> ResponseReturnValue:
    """The start page: the difficulty slider, what it asks for, and the New puzzle button."""
    return render_template("play/index.html", slider=DEFAULT_SLIDER, info=describe(DEFAULT_SLIDER))


@bp.get("/slider")
def slider_info() -> ResponseReturnValue:
    """The zone, target D and predicted minutes of a slider value, as the fragment the start page swaps in."""
    slider = parsed(parse_slider, request.args.get("slider"))
    return render_template("play/_slider_info.html", info=describe(slider))


@bp.post("/new")
def new_game() -> ResponseReturnValue:
    """Serve a puzzle for the slider value (bank first, else generated) and open its game."""
    slider = parsed(parse_slider, request.form.get("slider"))
    session = get_session()
    config = current_app.config
    game = games.new_game_from_slider(
        session, slider, tolerance=config["POOL_TOLERANCE"], budget_s=config["POOL_GENERATE_BUDGET_S"]
    )
    if game.target_d is not None:
        pool.refill_if_low(current_app, session, game.target_d)
    return redirect(url_for("play.game", game_id=game.id), 303)


@bp.get("/p/<puzzle>")
def puzzle_link(puzzle: str) -> ResponseReturnValue:
    """Open a new game on the puzzle written in the address."""
    try:
        game = games.new_game_from_text(get_session(), puzzle)
    except InvalidPuzzle as error:
        abort(400, description=f"This is not a valid puzzle: {error}.")
    except games.PuzzleRejected as error:
        abort(422, description=str(error))
    return redirect(url_for("play.game", game_id=game.id), 303)


@bp.get("/g/<game_id>")
def game(game_id: str) -> ResponseReturnValue:
    """The game page; the first visit starts the clock, later visits resume."""
    current = load_game(game_id)
    games.record_show(get_session(), current)
    return render_template(
        "play/game.html", game=current, board=games.board(current), rating=games.difficulty_of(current)
    )


@bp.post("/g/<game_id>/cell/<name>")
def cell(game_id: str, name: str) -> ResponseReturnValue:
    """Enter or clear a digit; answer with the changed cell and, once solved, the completion view."""
    index = parsed(parse_cell_name, name)
    digit = parsed(parse_digit, request.form.get("digit"))
    client_ms = parsed(parse_client_ms, request.form.get("client_ms"))
    current = load_game(game_id)
    try:
        solved = games.enter(get_session(), current, index, digit, client_ms)
    except games.GivenCell as error:
        abort(400, description=str(error))
    except games.GameFinished as error:
        abort(409, description=str(error))
    if not is_htmx():
        return redirect(url_for("play.game", game_id=current.id), 303)
    return render_template("play/_cell_update.html", game=current, cell=games.cell_view(current, index), solved=solved)
