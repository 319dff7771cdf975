"""A player's own history without an account: the player cookie, the history page and forgetting it, streaks, the
daily puzzle, the share text, and the player's predicted time, fitted on simulated players of known speed who
solve puzzles through the real endpoints while the server's clock is moved by their known solve times."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from datetime import date, datetime, timedelta

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers.play import blanks, game_row, open_game, show_game
from helpers.studies import EMAIL, PASSWORD, create, enter_study, form_token, public_id
from helpers.web import Clock, csrf_token_of
from sqlalchemy import select

from sudoku_engine.generate import generate_puzzle
from sudoku_engine.grid import cell_name
from sudoku_engine.slider import describe, target_for_slider
from webapp import db, jobs, models
from webapp.bank import pool
from webapp.games import daily, history, store
from webapp.games.calibration import TimeModel

COOKIE = "sudoku_player"
# Easy puzzles with many givens (few entries per solve), each with its solution.
PUZZLES = [generate_puzzle(seed=seed, givens=52) for seed in (7101, 7102, 7103, 7104, 7105)]


@pytest.fixture
def app(make_app: Callable[..., Flask]) -> Flask:
    """A test app whose rate limits do not stop the many games of one simulated player."""
    return make_app(RATELIMIT_ENABLED=False)


def cookie_of(client: FlaskClient) -> str | None:
    """The client's player cookie, if it has one."""
    found = client.get_cookie(COOKIE)
    return found.value if found else None


def solve(client: FlaskClient, game_id: str, solution: str, clock: Clock | None = None, seconds: float = 0.0) -> str:
    """Show the game, let ``seconds`` pass on the server's clock, then enter every missing digit; the last answer."""
    page = show_game(client, game_id)
    if clock is not None:
        clock.advance(seconds)
    headers = {"X-CSRFToken": csrf_token_of(page), "HX-Request": "true"}
    puzzle = game_row_puzzle(page)
    body = ""
    for cell in blanks(puzzle):
        answer = client.post(f"/g/{game_id}/cell/{cell_name(cell)}", data={"digit": solution[cell]}, headers=headers)
        assert answer.status_code == 200, answer.get_data(as_text=True)
        body = answer.get_data(as_text=True)
    return body


def game_row_puzzle(page: str) -> str:
    """The givens of a game page, read from its cells."""
    digits = []
    for name in (f"r{r}c{c}" for r in range(1, 10) for c in range(1, 10)):
        cell = page.split(f'data-cell="{name}"', 1)[1].split(">", 1)[0]
        digits.append(cell.split('data-digit="', 1)[1][0] if 'aria-readonly="true"' in cell else ".")
    return "".join(digits)


def history_page(client: FlaskClient) -> str:
    """The client's history page."""
    response = client.get("/history")
    assert response.status_code == 200
    return response.get_data(as_text=True)


def test_first_game_sets_the_player_cookie_and_games_record_their_player(app: Flask, client: FlaskClient) -> None:
    assert cookie_of(client) is None
    first = open_game(client, str(PUZZLES[0].puzzle))
    player = cookie_of(client)
    assert player is not None and len(player) == 22
    second = open_game(client, str(PUZZLES[1].puzzle))
    assert cookie_of(client) == player
    assert game_row(app, first).player == player and game_row(app, second).player == player


def test_the_cookie_is_httponly_lax_long_lived_and_secure_when_configured(make_app: Callable[..., Flask]) -> None:
    for secure in (False, True):
        client = make_app(SESSION_COOKIE_SECURE=secure).test_client()
        page = client.get(f"/p/{PUZZLES[0].puzzle}").get_data(as_text=True)
        response = client.post(f"/p/{PUZZLES[0].puzzle}", data={"csrf_token": csrf_token_of(page)})
        header = next(h for h in response.headers.getlist("Set-Cookie") if h.startswith(COOKIE + "="))
        parts = {part.strip().split("=")[0].lower() for part in header.split(";")}
        assert {"httponly", "max-age", "expires"} <= parts and "SameSite=Lax" in header
        assert ("secure" in parts) is secure
        assert int(re.search(r"Max-Age=(\d+)", header).group(1)) >= 365 * 24 * 3600  # type: ignore[union-attr]


def test_a_forged_cookie_value_is_not_a_player(app: Flask, client: FlaskClient) -> None:
    client.set_cookie(COOKIE, "x' OR 1=1 --")
    game_id = open_game(client, str(PUZZLES[0].puzzle))
    made = cookie_of(client)
    assert made is not None and made != "x' OR 1=1 --" and game_row(app, game_id).player == made


def test_history_lists_only_the_players_own_games(app: Flask, clock: Clock) -> None:
    alice, bob = app.test_client(), app.test_client()
    solved = open_game(alice, str(PUZZLES[0].puzzle))
    solve(alice, solved, str(PUZZLES[0].solution), clock, 125.0)
    unfinished = open_game(alice, str(PUZZLES[1].puzzle))
    bobs = open_game(bob, str(PUZZLES[2].puzzle))
    page = history_page(alice)
    rows = re.findall(r'data-game="([^"]+)" data-finished="(yes|no)"', page)
    assert rows == [(unfinished, "no"), (solved, "yes")]  # newest first
    assert bobs not in page and f'href="/g/{unfinished}"' in page and f'href="/g/{solved}"' not in page
    assert "2:05" in page  # the solved game's time, in the games and as the zone's median and best
    assert bobs in history_page(bob) and solved not in history_page(bob)
    assert 'id="no-games"' in history_page(app.test_client())


def test_forgetting_needs_confirmation_and_csrf_then_unlinks_the_games(app: Flask, client: FlaskClient) -> None:
    game_id = open_game(client, str(PUZZLES[0].puzzle))
    token = csrf_token_of(history_page(client))
    assert client.post("/history/forget", data={"confirm": "yes"}).status_code == 400  # no CSRF token
    refused = client.post("/history/forget", data={"csrf_token": token})
    assert refused.status_code == 400 and "confirm" in refused.get_data(as_text=True)
    assert game_row(app, game_id).player is not None
    done = client.post("/history/forget", data={"csrf_token": token, "confirm": "yes"})
    assert done.status_code == 303 and cookie_of(client) is None
    assert game_row(app, game_id).player is None
    assert game_id not in history_page(client)


@pytest.mark.parametrize(
    ("days", "today", "current", "longest"),
    [
        ([], 10, 0, 0),
        ([10], 10, 1, 1),
        ([9], 10, 1, 1),  # yesterday's run is still current until today ends
        ([8], 10, 0, 1),
        ([1, 2, 3, 5, 6], 6, 2, 3),
        ([1, 2, 3, 5, 6, 7, 8], 9, 4, 4),
        ([28, 29, 30, 31, 32], 32, 5, 5),  # across a month's end
    ],
)
def test_streaks(days: list[int], today: int, current: int, longest: int) -> None:
    start = date(2026, 1, 1)
    as_dates = {start + timedelta(days=d) for d in days}
    assert history.streaks(as_dates, start + timedelta(days=today)) == history.Streaks(current, longest)


def test_streaks_on_the_page_count_utc_days_of_completed_games(app: Flask, client: FlaskClient, clock: Clock) -> None:
    for number, puzzle in enumerate(PUZZLES[:3]):
        game_id = open_game(client, str(puzzle.puzzle))
        solve(client, game_id, str(puzzle.solution), clock, 60.0)
        clock.advance(24 * 3600.0 if number < 1 else 2 * 24 * 3600.0)  # days 1, 2 solved; day 3 missed; day 4
    page = history_page(client)
    assert 'data-current="0" data-longest="2"' in page  # the third solve's day is two days back now
    clock.now -= timedelta(days=2)
    assert 'data-current="1" data-longest="2"' in history_page(client)


def bank_rows(app: Flask, count: int, at: datetime, start_seed: int) -> list[int]:
    """Add ``count`` bank rows at the daily target's D (created at ``at``); their ids."""
    target = target_for_slider(daily.DAILY_SLIDER)
    with app.app_context():
        session = db.get_session()
        records = []
        for seed in range(start_seed, start_seed + count):
            made = generate_puzzle(seed=seed, givens=40)
            rating = pool.rate(made.puzzle.values)
            record = pool.record_of(made.puzzle.values, made.solution.values, rating, "generated")
            records.append({**record, "d": target + 0.001 * (seed - start_seed)})
        models.clock, saved = (lambda: at), models.clock
        try:
            pool.add(session, records)
        finally:
            models.clock = saved
        return sorted(session.scalars(select(models.BankPuzzle.id).where(models.BankPuzzle.created_at == at)))


def daily_game_of(client: FlaskClient) -> str:
    """Open today's puzzle as the start page's button does; the game id."""
    page = client.get("/").get_data(as_text=True)
    response = client.post("/daily", data={"csrf_token": csrf_token_of(page)})
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"].rsplit("/", 1)[1]


def test_the_daily_puzzle_is_the_same_for_everyone_and_marked_in_the_history(app: Flask, clock: Clock) -> None:
    bank_rows(app, 4, clock.now - timedelta(days=1), 8800)
    alice, bob = app.test_client(), app.test_client()
    first = daily_game_of(alice)
    assert daily_game_of(alice) == first  # playing it twice opens the same game
    other = daily_game_of(bob)
    assert other != first and game_row(app, other).puzzle == game_row(app, first).puzzle
    assert game_row(app, first).daily == clock.now.date()
    assert f'data-daily="{clock.now.date().isoformat()}"' in history_page(alice)
    clock.advance(24 * 3600.0)
    tomorrow = daily_game_of(alice)
    assert tomorrow != first and game_row(app, tomorrow).daily == clock.now.date()


def test_the_days_choice_ignores_rows_added_that_day(app: Flask, clock: Clock) -> None:
    """Without any game pinning it, the day's puzzle is the same before and after the bank grows."""
    bank_rows(app, 3, clock.now - timedelta(days=3), 8900)
    today = clock.now.date()
    with app.app_context():
        before = daily.chosen(db.get_session(), today)
        db.get_session().rollback()
    bank_rows(app, 3, clock.now, 8950)
    with app.app_context():
        after = daily.chosen(db.get_session(), today)
    assert before is not None and after is not None and before.puzzle == after.puzzle


def test_share_text_has_the_result_and_no_digit_of_the_grid(app: Flask, client: FlaskClient, clock: Clock) -> None:
    made = PUZZLES[0]
    game_id = open_game(client, str(made.puzzle))
    answer = solve(client, game_id, str(made.solution), clock, 754.0)
    text = re.search(r'<textarea id="share-text"[^>]*>([^<]*)</textarea>', answer)
    assert text is not None
    share = text.group(1)
    assert share.startswith(f"Sudoku {clock.now.date().isoformat()}") and "12:34" in share and "no hints" in share
    rest = share.replace(clock.now.date().isoformat(), "").replace("12:34", "")
    assert not re.search(r"\d", rest), share  # only the date and the time carry digits
    assert 'data-copy="share-text"' in answer


def population_minutes(app: Flask, game_id: str) -> float:
    """The minutes the time model predicts for a game's puzzle (the population's b, as a time)."""
    rating = store.difficulty_of(game_row(app, game_id), TimeModel())
    assert rating is not None
    return rating.time.minutes


def expected_theta(readings: list[float]) -> tuple[float, float]:
    """The documented estimate (docs/webapp.md): theta and its standard error from readings r = ln P - ln t."""
    n = len(readings)
    mean = sum(readings) / n
    variance = (sum((r - mean) ** 2 for r in readings) + 2 * 0.5**2) / (n - 1 + 2)
    weight = n + variance / 0.7**2
    return n * mean / weight, math.sqrt(variance / weight)


def play_as(app: Flask, client: FlaskClient, clock: Clock, theta: float, noise: list[float]) -> list[float]:
    """Solve one game per noise value in ``exp(-theta + e)`` times the predicted time; the readings ln P - ln t."""
    readings = []
    for made, e in zip(PUZZLES, noise, strict=False):
        game_id = open_game(client, str(made.puzzle))
        seconds = 60.0 * population_minutes(app, game_id) * math.exp(-theta + e)
        solve(client, game_id, str(made.solution), clock, seconds)
        solved = game_row(app, game_id)
        assert solved.completed_at is not None and solved.solve_seconds is not None
        readings.append(math.log(60.0 * population_minutes(app, game_id)) - math.log(solved.solve_seconds))
        clock.advance(600.0)
    return readings


@pytest.mark.parametrize(
    ("theta", "noise"), [(0.6, [0.0, 0.0, 0.0, 0.0, 0.0]), (-0.5, [0.2, -0.1, 0.0, -0.2]), (0.0, [0.1, -0.1, 0.0])]
)
def test_predicted_time_of_simulated_players(
    app: Flask, client: FlaskClient, clock: Clock, theta: float, noise: list[float]
) -> None:
    readings = play_as(app, client, clock, theta, noise[:2])
    assert "for you" not in client.get("/").get_data(as_text=True)  # two solved games are not enough
    readings += play_as(app, client, clock, theta, noise[2:])
    for reading, e in zip(readings, noise, strict=True):
        assert reading == pytest.approx(theta - e, abs=1e-6)  # the server measured the simulated times
    want, se = expected_theta([theta - e for e in noise])
    if not any(noise):
        assert abs(want - theta) < 0.05 * len(noise)  # exact times: only the prior's shrinkage is left
    with app.app_context():
        found = history.speed_of(db.get_session(), cookie_of(client) or "")
    assert (
        found is not None and found.theta == pytest.approx(want, abs=1e-6) and found.se == pytest.approx(se, abs=1e-6)
    )
    start = client.get("/").get_data(as_text=True)
    info = describe(30.0)
    mine = re.search(
        r'class="your-minutes" data-minutes="([\d.]+)"\s+data-low="([\d.]+)"\s+data-high="([\d.]+)"', start
    )
    assert mine is not None, "the start page shows the player's time once they solved 3 games"
    assert float(mine.group(1)) == pytest.approx(info.predicted_minutes * math.exp(-want), abs=0.01)
    assert float(mine.group(2)) == pytest.approx(info.predicted_minutes * math.exp(-want - 1.6449 * se), abs=0.01)
    assert float(mine.group(3)) == pytest.approx(info.predicted_minutes * math.exp(-want + 1.6449 * se), abs=0.01)
    # The next 15 minutes: the slider step whose personal minutes are nearest 15, computed here from describe, among
    # the steps below the first whose time is extrapolated (no figure is promised there).
    backed = [s for s in range(101) if not describe(float(s)).time.extrapolated]
    assert backed == list(range(len(backed))) and len(backed) > 50
    gaps = [abs(describe(float(s)).predicted_minutes * math.exp(-want) - 15.0) for s in backed]
    offer = re.search(r'id="next-minutes"\s+data-slider="([\d.]+)"', start)
    assert offer is not None and float(offer.group(1)) == float(gaps.index(min(gaps)))
    game_id = open_game(client, str(PUZZLES[0].puzzle))
    assert "for you" in client.get(f"/g/{game_id}").get_data(as_text=True)


def test_faster_and_slower_players_get_different_puzzles_for_their_next_15_minutes(app: Flask, clock: Clock) -> None:
    offers = []
    for theta in (0.8, -0.8):
        client = app.test_client()
        play_as(app, client, clock, theta, [0.0, 0.0, 0.0])
        start = client.get("/").get_data(as_text=True)
        offer = re.search(r'id="next-minutes"\s+data-slider="([\d.]+)"', start)
        assert offer is not None
        offers.append(float(offer.group(1)))
    assert offers[0] > offers[1]  # the faster player is offered the harder puzzle


def test_study_games_keep_to_their_participant_and_have_no_player(app: Flask, client: FlaskClient) -> None:
    """A browser with a player cookie that takes a study: its study game belongs to the participant, not the player,
    and stays out of the player's history."""
    free = open_game(client, str(PUZZLES[0].puzzle))
    assert cookie_of(client) is not None
    researcher = app.test_client()
    assert app.test_cli_runner().invoke(args=["user", "create", EMAIL, "--password", PASSWORD]).exit_code == 0
    login = {"email": EMAIL, "password": PASSWORD, "csrf_token": form_token(researcher, "/research/login")}
    assert researcher.post("/research/login", data=login).status_code == 302
    with jobs.running_in_threads(app):
        study_id = create(researcher, [(str(PUZZLES[1].puzzle), str(PUZZLES[1].solution))], order_scheme="fixed")
    entry = f"/s/{public_id(app, study_id)}"
    enter_study(client, f"{entry}?participant_label=p1")
    token = form_token(client, f"{entry}/go")
    client.post(f"{entry}/consent", data={"answer": "agree", "csrf_token": token})
    client.post(f"{entry}/start", data={"csrf_token": token})
    location = client.get(f"{entry}/go").headers["Location"]
    study_game = game_row(app, location.rsplit("/", 1)[1])
    assert study_game.participant_id is not None and study_game.player is None
    page = history_page(client)
    assert free in page and study_game.id not in page
