"""The player's own pages: the history of their games (``/history``) and forgetting it, the daily puzzle
(``/daily``), and what the play templates show for the player: their predicted time, the slider value for their
next 15 minutes and a finished game's share text."""

from __future__ import annotations

from flask import abort, current_app, g, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from sudoku_engine.time_model import TimeEstimate

from ..db import get_session
from ..games import daily, history
from ..games.speed import PersonalTime, Speed
from ..games.store import Difficulty
from ..models import Game
from . import bp
from .player import current_player, forget_cookie, player_for_new_game

NEXT_MINUTES = 15.0  # the duration New puzzle offers a puzzle for, once the player's speed is known


def player_speed() -> Speed | None:
    """The requesting player's speed (fitted once per request), None without a player or before enough games."""
    if "player_speed" not in g:
        player = current_player()
        g.player_speed = history.speed_of(get_session(), player) if player else None
    speed: Speed | None = g.player_speed
    return speed


@bp.app_template_global()
def your_minutes(time: TimeEstimate) -> PersonalTime | None:
    """The requesting player's likely minutes for a puzzle of this predicted time, when their speed is known and the
    time is one the fit backs (none for an extrapolated one)."""
    speed = player_speed()
    return speed.minutes(time.minutes) if speed is not None and not time.extrapolated else None


@bp.app_template_global()
def next_puzzle_offer() -> dict[str, float] | None:
    """The slider value for a puzzle of about ``NEXT_MINUTES`` for the requesting player, and its personal minutes."""
    speed = player_speed()
    if speed is None:
        return None
    session = get_session()
    slider = history.slider_for_minutes(session, speed, NEXT_MINUTES)
    return {"minutes": NEXT_MINUTES, "slider": slider}


@bp.app_template_global()
def share_text(game: Game, hints_by_rung: list[int] | None, rating: Difficulty | None) -> str:
    """The share text of a finished game."""
    return history.share_text(game, sum(hints_by_rung or []), rating.label if rating else None)


@bp.get("/history")
def history_page() -> ResponseReturnValue:
    """The requesting player's games, times by zone, personal bests and streaks (nothing without a player cookie)."""
    player = current_player()
    found = history.history_of(get_session(), player) if player else None
    return render_template("play/played.html", history=found)


@bp.post("/history/forget")
def forget() -> ResponseReturnValue:
    """Forget the requesting player: unlink their games from them and remove the cookie (asked to confirm)."""
    if request.form.get("confirm") != "yes":
        abort(400, description="Tick the box to confirm that your history should be forgotten.")
    player = current_player()
    if player is not None:
        history.forget(get_session(), player)
    return forget_cookie(redirect(url_for("play.history_page", forgotten=1), 303))


@bp.route("/daily", methods=["GET", "POST"])
def daily_puzzle() -> ResponseReturnValue:
    """Today's puzzle (UTC): the page posts itself at once (a visit alone, such as a link preview, starts nothing);
    the post opens the player's game of the day's puzzle, the one they started already if any."""
    day = daily.today()
    if request.method == "GET":
        return render_template(
            "autostart.html",
            heading=f"Daily puzzle {day.isoformat()}",
            button="Play today's puzzle",
            button_id="play-daily",
            action=url_for("play.daily_puzzle"),
        )
    config = current_app.config
    game = daily.daily_game(
        get_session(),
        player_for_new_game(),
        day,
        tolerance=config["POOL_TOLERANCE"],
        budget_s=config["POOL_GENERATE_BUDGET_S"],
    )
    return redirect(url_for("play.game", game_id=game.id), 303)
