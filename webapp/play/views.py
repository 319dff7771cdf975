"""Play routes: each view validates its input, acts through webapp.games, and renders a page or fragment."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any, NoReturn, TypeVar

from flask import abort, current_app, g, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from sqlalchemy.orm import Session

from sudoku_engine.grid import Grid, InvalidPuzzle

from ..bank import fill, pool
from ..db import get_session
from ..games import boardview, calibration, hints, store
from ..games.access import StudyPlace, may_play, study_context, study_ended
from ..games.boardview import CellView
from ..games.calibration import slider_description
from ..games.hints import GameHint
from ..games.playstate import COLOURS, ActionRefused, PlayState
from ..games.store import Action, Difficulty, Outcome
from ..models import Game
from . import bp
from .inputs import (
    parse_cell_name,
    parse_cells,
    parse_client_ms,
    parse_digit,
    parse_key,
    parse_mode,
    parse_pause_reason,
    parse_selection_mode,
    parse_slider,
    parse_switch,
    parse_view,
)
from .player import player_for_new_game

DEFAULT_SLIDER = 30.0
# Past the generation budget a New puzzle request still measures one candidate and rates the puzzle found (a few
# seconds at the top of the slider): the page's request gives up only this long after the budget.
NEW_REQUEST_MARGIN_S = 30.0
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
    """The game with this id, or a 404 response; a study game only for its own participant (else 403)."""
    found = store.get_game(get_session(), game_id) or unknown_game()
    if not may_play(found):
        abort(403, description="This game belongs to another participant of a study.")
    ended = study_ended(found)
    if ended is not None:
        abort(410, description=ended)
    return found


def is_htmx() -> bool:
    """True when htmx sent the request, so a fragment is the answer."""
    return request.headers.get("HX-Request") == "true"


@bp.get("/")
def index() -> ResponseReturnValue:
    """The start page: the difficulty slider, what it asks for, and the New puzzle button."""
    budget_s = float(current_app.config["POOL_GENERATE_BUDGET_S"])
    return render_template(
        "play/index.html",
        slider=DEFAULT_SLIDER,
        info=slider_description(get_session(), DEFAULT_SLIDER),
        request_timeout_ms=round(1000 * (budget_s + NEW_REQUEST_MARGIN_S)),
        bank=fill.state(current_app, get_session()),
    )


@bp.get("/slider")
def slider_info() -> ResponseReturnValue:
    """The zone, target D and predicted minutes of a slider value, as the fragment the start page swaps in."""
    slider = parsed(parse_slider, request.args.get("slider"))
    return render_template("play/_slider_info.html", info=slider_description(get_session(), slider))


@bp.post("/new")
def new_game() -> ResponseReturnValue:
    """Serve a puzzle for the slider value (bank first, else generated) and open its game.

    An htmx request gets 204 with ``HX-Redirect``, so that the page itself goes to the game (following a 303
    inside the request would open the game, and start its clock, out of sight); a plain form post gets the 303.
    """
    slider = parsed(parse_slider, request.form.get("slider"))
    session = get_session()
    config = current_app.config
    game = store.new_game_from_slider(
        session,
        slider,
        tolerance=config["POOL_TOLERANCE"],
        budget_s=config["POOL_GENERATE_BUDGET_S"],
        player=player_for_new_game(),
        refill=functools.partial(pool.refill_if_low, current_app),
    )
    address = url_for("play.game", game_id=game.id)
    if is_htmx():
        return "", 204, {"HX-Redirect": address}
    return redirect(address, 303)


@bp.route("/p/<puzzle>", methods=["GET", "POST"])
def puzzle_link(puzzle: str) -> ResponseReturnValue:
    """A puzzle written in the address: the page checks it and posts itself back (its script does so at once);
    the post opens a new game on it (a visit alone, such as a link preview, starts nothing)."""
    try:
        if request.method == "GET":
            store.playable(puzzle)
            return render_template(
                "autostart.html",
                heading="Play this puzzle",
                button="Start playing",
                button_id="play-puzzle",
                action=url_for("play.puzzle_link", puzzle=puzzle),
            )
        game = store.new_game_from_text(get_session(), puzzle, player=player_for_new_game())
    except InvalidPuzzle as error:
        abort(400, description=f"This is not a valid puzzle: {error}.")
    except store.PuzzleRejected as error:
        abort(422, description=str(error))
    return redirect(url_for("play.game", game_id=game.id), 303)


@bp.get("/print/<puzzle>")
def print_view(puzzle: str) -> ResponseReturnValue:
    """A puzzle's givens on a page made for printing."""
    try:
        grid = Grid.parse(puzzle)
    except InvalidPuzzle as error:
        abort(400, description=f"This is not a valid puzzle: {error}.")
    return render_template("play/print.html", puzzle=str(grid))


@bp.get("/g/<game_id>")
def game(game_id: str) -> ResponseReturnValue:
    """The game page, with a new view id; its script reports it shown (``shown``), which starts the clock."""
    current = load_game(game_id)
    g.study_game = current.participant_id is not None  # a study's page: every asset from the app itself
    page = page_context(get_session(), current)
    return render_template("play/game.html", view=store.new_view_id(), colours=COLOURS, **page.context())


@bp.post("/g/<game_id>/shown")
def shown(game_id: str) -> ResponseReturnValue:
    """The game page's view shows the game: the first showing starts the clock, a pause made by hiding ends."""
    view = parsed(parse_view, request.form.get("view"))
    return board_action(load_game(game_id), lambda s, g, ms, key: store.open_view(s, g, view, ms, key))


@dataclass(frozen=True)
class GamePage:
    """Everything the game page and the action answers render."""

    game: Game
    board: list[CellView]
    rating: Difficulty | None
    hint: GameHint | None
    state: PlayState
    elapsed: float
    hints_by_rung: list[int] | None
    settings: dict[str, Any]
    time_up: bool
    study: StudyPlace | None

    def context(self) -> dict[str, object]:
        """The parts as the templates' variables, one per field."""
        return {field.name: getattr(self, field.name) for field in fields(self)}


def page_context(session: Session, current: Game, rated: bool = True) -> GamePage:
    """The game page's parts for the game as it is now (its rating only when ``rated``: an action's answer needs it
    only when the action solved the puzzle)."""
    study = study_context(current)
    rated = rated and (study is None or study.shows_rating)  # a participant sees none unless the study allows it
    return GamePage(
        game=current,
        board=boardview.board(current),
        rating=store.game_difficulty(session, current, calibration.in_force(session)) if rated else None,
        hint=hints.current(current),
        state=store.state_of(current),
        elapsed=store.solve_seconds(current),
        hints_by_rung=store.hints_by_rung(session, current) if current.completed_at else None,
        settings={key: store.setting(current, key) for key in store.PLAY_DEFAULTS},
        time_up=store.time_is_up(current),
        study=study,
    )


Run = Callable[[Session, Game, float | None, str | None], Outcome]


def board_action(current: Game, run: Run) -> ResponseReturnValue:
    """Run one action on a game and answer with what changed: cells, history buttons, hint, timer, message."""
    client_ms = parsed(parse_client_ms, request.form.get("client_ms"))
    key = parsed(parse_key, request.form.get("key"))
    session = get_session()
    before = boardview.board(current)
    try:
        outcome = run(session, current, client_ms, key)
    except (store.GameFinished, store.GamePaused, ActionRefused) as error:
        abort(409, description=str(error))
    except store.GameBusy as error:
        abort(503, description=str(error))
    if not is_htmx():
        return redirect(url_for("play.game", game_id=current.id), 303)
    page = page_context(session, current, rated=outcome.solved)
    cells = boardview.changed(before, page.board)
    return render_template("play/_update.html", cells=cells, outcome=outcome, **page.context())


@bp.post("/g/<game_id>/cell/<name>")
def cell(game_id: str, name: str) -> ResponseReturnValue:
    """Enter, clear or pencil a digit (mode digit, corner or centre); 0 or nothing clears the cell."""
    index = parsed(parse_cell_name, name)
    digit = parsed(parse_digit, request.form.get("digit"))
    mode = parsed(parse_mode, request.form.get("mode"))
    if mode != "digit" and not digit:
        abort(400, description="A pencil mark needs a digit from 1 to 9.")
    current = load_game(game_id)
    if current.puzzle[index] != ".":
        abort(400, description=f"{name} is a given and cannot be changed.")
    action = Action("clear", index) if not digit else Action(mode, index, digit)
    return board_action(current, lambda s, g, ms, key: store.act(s, g, action, ms, key))


@bp.post("/g/<game_id>/cells")
def cells(game_id: str) -> ResponseReturnValue:
    """On the selected cells, as one action: a digit, a corner or centre mark, a colour (mode colour, digit the
    colour's number, 0 takes colours away), or an erase (digit 0 in the other modes)."""
    selection = parsed(parse_cells, request.form.get("cells"))
    digit = parsed(parse_digit, request.form.get("digit"))
    mode = parsed(parse_selection_mode, request.form.get("mode"))
    if mode != "colour" and not digit:
        mode = "erase"
    action = Action(mode, cells=selection, digit=digit)
    return board_action(load_game(game_id), lambda s, g, ms, key: store.act(s, g, action, ms, key))


def _simple(kind: str) -> Callable[[str], ResponseReturnValue]:
    """A route body for an action without arguments (undo, redo, autofill, clear marks, restart)."""

    def view(game_id: str) -> ResponseReturnValue:
        return board_action(load_game(game_id), lambda s, g, ms, key: store.act(s, g, Action(kind), ms, key))

    view.__name__ = kind
    view.__doc__ = f"The {kind} action."
    return view


for _kind in ("undo", "redo", "autofill", "clear_marks", "restart"):
    bp.add_url_rule(f"/g/<game_id>/{_kind.replace('_', '-')}", view_func=_simple(_kind), methods=["POST"])


@bp.post("/g/<game_id>/pause")
def pause(game_id: str) -> ResponseReturnValue:
    """Pause the game (the board hides; paused time is not solve time)."""
    reason = parsed(parse_pause_reason, request.form.get("reason"))
    view = request.form.get("view")
    return board_action(load_game(game_id), lambda s, g, ms, key: store.pause(s, g, reason, ms, key, view))


@bp.post("/g/<game_id>/resume")
def resume(game_id: str) -> ResponseReturnValue:
    """Resume a paused game."""
    return board_action(load_game(game_id), store.resume)


@bp.post("/g/<game_id>/check")
def check(game_id: str) -> ResponseReturnValue:
    """Turn mistake checking on or off."""
    on = parsed(parse_switch, request.form.get("on"))
    return board_action(load_game(game_id), lambda s, g, ms, key: store.set_checking(s, g, on, ms, key))


@bp.post("/g/<game_id>/hint")
def hint(game_id: str) -> ResponseReturnValue:
    """Reveal the next rung of the hint (searched for at most ``HINT_BUDGET_S`` seconds; past it, a digit)."""
    budget = float(current_app.config["HINT_BUDGET_S"])
    return board_action(load_game(game_id), lambda s, g, ms, key: hints.next_rung(s, g, ms, key, budget))


@bp.post("/g/<game_id>/hint/apply")
def apply_hint(game_id: str) -> ResponseReturnValue:
    """Carry out the fully revealed hint."""
    return board_action(load_game(game_id), hints.apply)


@bp.get("/g/<game_id>/techniques")
def techniques(game_id: str) -> ResponseReturnValue:
    """The techniques the puzzle needed, for the completion view (computed once, on first request)."""
    current = load_game(game_id)
    if current.completed_at is None:
        abort(409, description="The techniques are shown once the puzzle is solved.")
    study = study_context(current)
    if study is not None and not study.shows_rating:
        abort(403, description="This study does not show its puzzles' ratings.")
    return render_template("play/_techniques.html", techniques=store.techniques_needed(current))
