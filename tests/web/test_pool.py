"""The puzzle bank: nearest draw, one claim per row under races, isomorphs, on-demand fallback, background refill."""

from __future__ import annotations

import io
import random
import re
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers.web import csrf_header_of
from sqlalchemy import select
from sqlalchemy.orm import Session

from sudoku_engine import difficulty
from sudoku_engine.generate import Targeted, generate_puzzle
from sudoku_engine.grid import format_values, parse_values
from sudoku_engine.isomorph import canonical, canonical_isomorph, random_isomorph
from sudoku_engine.rating import rate
from sudoku_engine.slider import describe, target_for_slider
from sudoku_engine.solver import count_solutions, solve
from webapp import config as app_config
from webapp import db
from webapp.bank import pool, refill
from webapp.games import store
from webapp.games.calibration import TimeModel
from webapp.models import BankPuzzle, Game

AI_ESCARGOT = "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3.."


@pytest.fixture(scope="module")
def records() -> list[pool.BankRecord]:
    """Eight rated easy puzzles as bank records (their D is set per test)."""
    made = [generate_puzzle(seed=seed, givens=40) for seed in range(8)]
    return [pool.record_of(m.puzzle.values, m.solution.values, rate(m.puzzle, measures=False), "import") for m in made]


def form_post(headers: dict[str, str]) -> dict[str, str]:
    """The headers of a plain form post (without HX-Request, New puzzle answers with a 303 to the game)."""
    return {key: value for key, value in headers.items() if key != "HX-Request"}


@contextmanager
def session_of(app: Flask) -> Iterator[Session]:
    """A session of the app outside any request."""
    with db.sessions_of(app)() as session:
        yield session


def bank(app: Flask, records: list[pool.BankRecord], ds: list[float]) -> list[int]:
    """Insert records with the given D values; their ids in the same order."""
    with session_of(app) as session:
        rows: list[pool.BankRecord] = [{**record, "d": d} for record, d in zip(records, ds, strict=False)]
        assert pool.add(session, rows) == len(ds)
        by_puzzle = {row.puzzle: row.id for row in session.scalars(select(BankPuzzle))}
    return [by_puzzle[record["puzzle"]] for record in records[: len(ds)]]


def row(app: Flask, bank_id: int) -> BankPuzzle:
    """A bank row as stored now."""
    with session_of(app) as session:
        found = session.get(BankPuzzle, bank_id)
        assert found is not None
        return found


def test_draw_takes_nearest_unused_within_tolerance_and_marks_it_used(
    app: Flask, records: list[pool.BankRecord]
) -> None:
    ids = bank(app, records, [2.0, 2.3, 2.4, 5.0])
    drawn = []
    with session_of(app) as session:
        for _ in range(3):
            found = pool.draw(session, 2.25, within=0.2)
            drawn.append(found.id if found else None)
            session.commit()
    assert drawn == [ids[1], ids[2], None]
    assert [row(app, i).used for i in ids] == [False, True, True, False]
    assert row(app, ids[1]).served_at is not None and row(app, ids[0]).served_at is None


def test_new_puzzle_serves_the_row_nearest_the_slider_s_minutes_and_its_page_says_them(
    app: Flask, client: FlaskClient, csrf_headers: dict[str, str], records: list[pool.BankRecord]
) -> None:
    """Of the unused rows within tolerance of the target D, New puzzle takes the one whose prior minutes are nearest
    the typical minutes the slider showed, even when another is nearer in D; the game page then says the slider's
    words."""
    slider = 40.0
    target, promised = target_for_slider(slider), describe(slider).predicted_minutes
    ds = [target, target + 0.05, target - 0.1]
    minutes = [promised * 3, promised * 1.02, promised / 4]  # the nearest in D is far in minutes
    rows = [
        {**record, "predicted_minutes": m, "rating": {**record["rating"], "predicted_minutes": round(m, 1)}}
        for record, m in zip(records, minutes, strict=False)
    ]
    ids = bank(app, rows, ds)  # type: ignore[arg-type]
    response = client.post("/new", data={"slider": str(slider)}, headers=form_post(csrf_headers))
    game = game_of(app, response.headers["Location"])
    assert game.bank_id == ids[1] and game.prior_minutes == pytest.approx(promised * 1.02)
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    said = re.search(r'<span class="minutes">([^<]+)</span>', page)
    assert said is not None and said.group(1) == describe(slider).time.words


def test_served_isomorph_is_the_bank_puzzle_transformed_with_its_solution(
    app: Flask, records: list[pool.BankRecord]
) -> None:
    (bank_id,) = bank(app, records[:1], [3.0])
    with session_of(app) as session:
        served = pool.serve(session, 3.1, budget_s=0.1)
        session.commit()
    stored = row(app, bank_id)
    assert (served.bank_id, served.d, stored.used) == (bank_id, 3.0, True)
    transform = random_isomorph(random.Random(served.seed))
    assert served.puzzle == format_values(transform.apply(parse_values(stored.puzzle)))
    assert served.solution == format_values(transform.apply(parse_values(stored.solution)))
    assert count_solutions(served.puzzle) == 1 and str(solve(served.puzzle)) == served.solution
    assert format_values(canonical(parse_values(served.puzzle))) == stored.puzzle
    assert format_values(canonical_isomorph(parse_values(served.puzzle)).apply(parse_values(served.solution))) == (
        stored.solution
    )


def test_bank_keeps_one_row_per_puzzle_up_to_isomorphism(app: Flask, records: list[pool.BankRecord]) -> None:
    bank(app, records[:1], [1.5])
    values = parse_values(records[0]["puzzle"])
    twin = random_isomorph(random.Random(7))
    rating = rate(twin.apply(values), measures=False)
    solution = twin.apply(parse_values(records[0]["solution"]))
    with session_of(app) as session:
        assert pool.add(session, [pool.record_of(twin.apply(values), solution, rating, "import")]) == 0
        assert pool.known_d(session, twin.apply(values)) == 1.5


def test_a_row_is_claimed_by_one_session_only(app: Flask, records: list[pool.BankRecord]) -> None:
    first, second = bank(app, records[:2], [4.0, 4.1])
    with session_of(app) as one, session_of(app) as two:
        assert [row.id for row in pool.nearest_unused(one, 4.0)] == [first, second]
        assert pool.claim(two, first)
        two.commit()
        assert not pool.claim(one, first)
        drawn = pool.draw(one, 4.0)
        assert drawn is not None and drawn.id == second
        one.commit()
    assert row(app, first).used and row(app, second).used


def test_an_uncommitted_claim_is_undone_with_its_transaction(app: Flask, records: list[pool.BankRecord]) -> None:
    (bank_id,) = bank(app, records[:1], [4.0])
    with session_of(app) as session:
        assert pool.draw(session, 4.0) is not None
        session.rollback()
    assert not row(app, bank_id).used


def test_concurrent_draws_never_serve_a_row_twice(app: Flask, records: list[pool.BankRecord]) -> None:
    ids = bank(app, records[:5], [5.0, 5.01, 5.02, 5.03, 5.04])
    start = threading.Barrier(10)
    drawn: list[int | None] = []
    lock = threading.Lock()

    def draw_one() -> None:
        with session_of(app) as session:
            start.wait()
            found = pool.draw(session, 5.02)
            session.commit()
            with lock:
                drawn.append(found.id if found else None)

    threads = [threading.Thread(target=draw_one) for _ in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    served = [bank_id for bank_id in drawn if bank_id is not None]
    assert len(drawn) == 10 and sorted(served) == sorted(ids)
    assert all(row(app, bank_id).used for bank_id in ids)


def game_of(app: Flask, location: str) -> Game:
    """The game a /new redirect points at."""
    with session_of(app) as session:
        game = session.get(Game, location.rsplit("/", 1)[1])
        assert game is not None
        return game


def test_new_game_is_drawn_from_the_bank(
    app: Flask, client: FlaskClient, csrf_headers: dict[str, str], records: list[pool.BankRecord]
) -> None:
    target = target_for_slider(40)
    near, far = bank(app, records[:2], [target + 0.05, target + 1.0])
    response = client.post("/new", data={"slider": "40"}, headers=form_post(csrf_headers))
    game = game_of(app, response.headers["Location"])
    assert (game.bank_id, game.d, game.target_d, game.slider) == (near, target + 0.05, target, 40.0)
    assert format_values(canonical(parse_values(game.puzzle))) == row(app, near).puzzle
    assert row(app, near).used and not row(app, far).used
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert f'<span class="puzzle-d">{target + 0.05:.2f}</span>' in page
    assert f'data-zone="{difficulty.zone(target + 0.05)}"' in page


def test_new_game_is_generated_when_no_bank_puzzle_is_close(
    app: Flask, client: FlaskClient, csrf_headers: dict[str, str], records: list[pool.BankRecord]
) -> None:
    (far,) = bank(app, records[:1], [9.0])
    response = client.post("/new", data={"slider": "0"}, headers=form_post(csrf_headers))
    game = game_of(app, response.headers["Location"])
    assert game.bank_id is None and game.target_d == target_for_slider(0)
    assert game.d == rate(game.puzzle, measures=difficulty.MEASURES).d
    assert count_solutions(game.puzzle) == 1 and not row(app, far).used
    with session_of(app) as session:
        banked = session.scalars(select(BankPuzzle).where(BankPuzzle.id != far)).one()
    assert banked.used and banked.puzzle == format_values(canonical(parse_values(game.puzzle)))


def test_a_closer_bank_puzzle_beats_a_generated_miss(
    app: Flask, records: list[pool.BankRecord], monkeypatch: pytest.MonkeyPatch
) -> None:
    easy = generate_puzzle(seed=99, givens=40)
    rating = rate(easy.puzzle, measures=difficulty.MEASURES)
    miss = Targeted(easy.puzzle, easy.solution, "D", 6.0, 0.2, rating.d, False, rating, 1, 1, 0, 0.1)
    monkeypatch.setattr(pool, "generate", lambda *args, **kwargs: miss)
    (closer,) = bank(app, records[:1], [5.0])
    with session_of(app) as session:
        served = pool.serve(session, 6.0, budget_s=0.1)
        assert served.bank_id == closer
        assert pool.unused_count(session) == 1 and pool.known_d(session, easy.puzzle.values) == rating.d


def test_link_games_take_d_from_the_bank_or_a_bounded_rating(app: Flask, records: list[pool.BankRecord]) -> None:
    bank(app, records[:1], [6.5])
    twin = random_isomorph(random.Random(3)).apply(parse_values(records[0]["puzzle"]))
    easy = generate_puzzle(seed=5, givens=40)
    with app.app_context():
        session = db.get_session()
        assert store.new_game_from_text(session, format_values(twin)).d == 6.5
        rated = store.new_game_from_text(session, str(easy.puzzle))
        assert rated.d == rate(easy.puzzle, measures=difficulty.MEASURES).d
        unrated = store.new_game_from_text(session, AI_ESCARGOT, rating_timeout=0.001)
        assert unrated.d is None and store.difficulty_of(unrated, TimeModel()) is None


def test_game_page_without_d_shows_no_rating(app: Flask, client: FlaskClient) -> None:
    with app.app_context():
        game = store.new_game_from_text(db.get_session(), AI_ESCARGOT, rating_timeout=0.001)
    page = client.get(f"/g/{game.id}").get_data(as_text=True)
    assert 'id="puzzle-rating"' not in page and 'data-cell="r1c1"' in page


def test_refill_runs_in_a_child_process_after_a_draw(
    make_app: Callable[..., Flask], records: list[pool.BankRecord]
) -> None:
    app = make_app(POOL_REFILL=True, POOL_REFILL_BELOW=1, POOL_REFILL_UPTO=1, POOL_REFILL_BUDGET_S=0.5)
    target = target_for_slider(0)
    (bank_id,) = bank(app, records[:1], [target])
    client = app.test_client()
    response = client.post("/new", data={"slider": "0"}, headers=csrf_header_of(client))
    assert game_of(app, response.headers["Location"]).bank_id == bank_id
    assert not pool.refiller(app).idle, "the request left the refill running"
    assert pool.refiller(app).wait(timeout=60)
    with session_of(app) as session:
        assert pool.unused_count(session) >= 1
        assert not pool.refill_if_low(make_app(POOL_REFILL=False), session, target)


def test_refiller_runs_one_thread_and_skips_targets_already_queued(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    release = threading.Event()
    done: list[float] = []

    def slow_top_up(job: pool.TopUp) -> int:
        release.wait(timeout=30)
        done.append(job.target)
        return 0

    monkeypatch.setattr(pool, "top_up_in_child", slow_top_up)
    refiller = pool.refiller(app)
    assert refiller.request(2.0) and not refiller.request(2.05) and refiller.request(4.0)
    assert not refiller.idle and threading.active_count() >= 2
    release.set()
    assert refiller.wait(timeout=30) and done == [2.0, 4.0]


def test_refill_process_refuses_a_bad_job(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO('{"target": 1.0}'))
    assert refill.main() == 2
    assert "not a refill job" in capsys.readouterr().err


def test_refiller_is_renewed_in_a_forked_process(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    first = pool.refiller(app)
    assert pool.refiller(app) is first
    monkeypatch.setattr(pool.os, "getpid", lambda: first.pid + 1)
    renewed = pool.refiller(app)
    assert renewed is not first and renewed.pid == first.pid + 1


def test_zone_counts(app: Flask, records: list[pool.BankRecord]) -> None:
    labelled = [replace_label(record, label) for record, label in zip(records, ["Hard", "Easy", "Hard"], strict=False)]
    ids = bank(app, labelled, [4.0, 1.5, 5.0])
    with session_of(app) as session:
        pool.claim(session, ids[0])
        session.commit()
        counts = pool.zone_counts(session)
    assert [(c.label, c.unused, c.used, c.total, c.d_min, c.d_max) for c in counts] == [
        ("Easy", 1, 0, 1, 1.5, 1.5),
        ("Hard", 1, 1, 2, 4.0, 5.0),
    ]


def replace_label(record: pool.BankRecord, label: str) -> pool.BankRecord:
    """A record with another zone label."""
    return {**record, "label": label}


def test_bank_settings_come_from_config_then_environment(
    make_app: Callable[..., Flask], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SUDOKU_POOL_REFILL_BUDGET_S", "1.5")
    monkeypatch.setenv("SUDOKU_POOL_REFILL_UPTO", "3")
    monkeypatch.setenv("SUDOKU_POOL_REFILL", "off")
    monkeypatch.setenv("SUDOKU_POOL_GENERATE_BUDGET_S", "9")
    app = make_app(POOL_GENERATE_BUDGET_S=0.25)
    config = {key: app.config[key] for key in app_config.BY_KEY if key.startswith("POOL_")}
    assert config["POOL_REFILL_BUDGET_S"] == 1.5 and config["POOL_REFILL_UPTO"] == 3
    assert config["POOL_GENERATE_BUDGET_S"] == 0.25 and config["POOL_REFILL"] is False
    assert config["POOL_TOLERANCE"] == pool.DEFAULT_TOLERANCE


@pytest.mark.parametrize(
    ("key", "text", "message"),
    [
        ("POOL_REFILL", "maybe", "must be 1 or 0"),
        ("POOL_REFILL_UPTO", "2.5", "must be a whole number"),
        ("POOL_GENERATE_BUDGET_S", "-2", "must be a positive number"),
        ("POOL_GENERATE_BUDGET_S", "inf", "must be a positive number"),
    ],
)
def test_bad_bank_setting_in_environment_is_refused(
    monkeypatch: pytest.MonkeyPatch, key: str, text: str, message: str
) -> None:
    monkeypatch.setenv(f"SUDOKU_{key}", text)
    with pytest.raises(ValueError, match=message):
        app_config.read(app_config.BY_KEY[key])


@pytest.mark.parametrize("slider", [0, 6, 14])
def test_easy_puzzles_served_keep_to_the_givens_limit(
    app: Flask, client: FlaskClient, csrf_headers: dict[str, str], slider: int
) -> None:
    """Generated on demand for the Easy zone (no bank row near), a served puzzle has at most 40 givens, and the
    game keeps its effort and its prior minutes, which the page shows."""
    response = client.post("/new", data={"slider": str(slider)}, headers=form_post(csrf_headers))
    game = game_of(app, response.headers["Location"])
    assert 81 - game.puzzle.count(".") <= 40
    rating = rate(game.puzzle, measures=difficulty.MEASURES)
    assert game.effort == pytest.approx(rating.effort, abs=0.05) and game.d == rating.d
    assert game.prior_minutes == pytest.approx(rating.predicted_minutes, rel=1e-9)
    shown = store.difficulty_of(game, TimeModel())
    assert shown is not None and shown.time.minutes == pytest.approx(rating.predicted_minutes, rel=1e-9)


def test_the_bank_refuses_puzzles_over_the_givens_limit() -> None:
    full = solve("." * 81)
    assert full is not None
    crowded = list(full.values)
    for cell in range(0, 81, 2)[:40]:
        crowded[cell] = 0  # 41 givens left, still one solution (a nearly full grid)
    assert count_solutions(crowded) == 1
    assert pool.try_rate(crowded) == "41 givens: the bank keeps puzzles of at most 40"


def test_rows_are_served_again_when_the_unused_ones_run_out(app: Flask, records: list[pool.BankRecord]) -> None:
    """When no unused row is near the target, a row served before is served again as a fresh isomorph (the one served
    longest ago first; a shipped seed row counts even unused) before anything is generated."""
    seeds = [{**record, "source": pool.SEED_SOURCE} for record in records[:2]]
    with session_of(app) as session:
        assert pool.add(session, [{**seeds[0], "d": 10.0}, {**seeds[1], "d": 10.1}]) == 2
        assert pool.add(session, [{**records[2], "d": 10.05}]) == 1
        served = []
        for _ in range(6):
            served.append(pool.serve(session, 10.0, budget_s=0.1).bank_id)
            session.commit()  # as the game that serves it would be
        first, again = served[:3], served[3:]
    ids = {row.puzzle: row.id for row in _rows(app)}
    every = {ids[s["puzzle"]] for s in seeds} | {ids[records[2]["puzzle"]]}
    assert set(first) == every  # each unused row once, nearest first
    assert again == first  # then all again, the longest unserved first


def test_no_player_is_served_a_puzzle_they_played_while_another_is_near(
    app: Flask, records: list[pool.BankRecord], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Recycling leaves out the rows the requesting player's games came from; with every near row played by them,
    the player gets a puzzle generated on demand, and another player still gets the recycled rows."""
    generated: list[float] = []

    def fresh(session: object, target: float, tolerance: float, budget_s: float) -> pool.Served:
        generated.append(target)
        return pool.Served(puzzle=records[5]["puzzle"], solution=records[5]["solution"], d=target, seed=1, bank_id=None)

    monkeypatch.setattr(pool, "_serve_generated", fresh)
    bank(app, records[:3], [3.0, 3.05, 3.1])
    with session_of(app) as session:
        mine = []
        for _ in range(4):
            served = pool.serve(session, 3.05, budget_s=0.1, player="p1")
            if served.bank_id is not None:
                session.add(
                    Game(
                        puzzle=served.puzzle,
                        solution=served.solution,
                        source="slider",
                        player="p1",
                        bank_id=served.bank_id,
                        entries="." * 81,
                    )
                )
            session.commit()
            mine.append(served.bank_id)
        assert len(set(mine[:3])) == 3 and mine[3] is None and generated == [3.05]
        other = pool.serve(session, 3.05, budget_s=0.1, player="p2")
        assert other.bank_id in mine[:3] and generated == [3.05]


def test_a_target_past_the_hardest_seed_row_gets_the_hardest_at_once(
    app: Flask, records: list[pool.BankRecord], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Above every shipped seed row (the slider's last steps) nothing is generated: the hardest seed row is
    served; a target below it but far from any row still goes to generation."""
    seeds = [{**record, "source": pool.SEED_SOURCE} for record in records[:2]]
    generated: list[float] = []

    def no_generation(session: object, target: float, tolerance: float, budget_s: float) -> pool.Served:
        generated.append(target)
        raise LookupError("generation is not expected here")

    monkeypatch.setattr(pool, "_serve_generated", no_generation)
    with session_of(app) as session:
        assert pool.add(session, [{**seeds[0], "d": 10.0}, {**seeds[1], "d": 11.0}]) == 2
        hardest = pool.serve(session, 12.5, budget_s=0.1)
        assert hardest.d == 11.0 and hardest.bank_id is not None and generated == []
        with pytest.raises(LookupError):
            pool.serve(session, 10.5, tolerance=0.2, budget_s=0.1)
    assert generated == [10.5]


def _rows(app: Flask) -> list[BankPuzzle]:
    """Every bank row."""
    with session_of(app) as session:
        return list(session.scalars(select(BankPuzzle)))
