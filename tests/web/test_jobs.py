"""Background jobs on the real queue: studies prepared by a consumer, bank claims all-or-nothing, the report cache.

Every test runs with the queue on its SQLite file and, when the test Redis server is there (``tests/services.py``),
on Redis. A consumer runs in threads of the test process on the app's queue (``jobs.running_in_threads``). Where a
test must see a job half done, a gate inside the job's rating holds it there until the test has looked.
"""

from __future__ import annotations

import io
import json
import threading
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers.jobs import PATIENCE_S, bank_record, canonical_form, computed_report, prepared, study_state
from helpers.play import blanks, open_game
from helpers.services import redis_url
from helpers.studies import EMAIL, PASSWORD, form_token, open_study, play_through, public_id
from helpers.web import csrf_header_of
from sqlalchemy import select

from sudoku_engine.generate import generate_puzzle
from sudoku_engine.grid import cell_name
from sudoku_engine.solver import solve
from webapp import db, jobs
from webapp.bank import pool
from webapp.models import BankPuzzle, StudyPuzzle, StudyReport
from webapp.research import report
from webapp.study import preparing, studies

SEED_BANK = Path(__file__).resolve().parents[2] / "webapp" / "bank" / "seed_bank" / "hardest.jsonl"
RACE_TARGETS = (2.0, 2.5, 3.0)  # D values far enough apart that each target has one bank row within tolerance


@pytest.fixture(params=["sqlite", "redis"])
def app(request: pytest.FixtureRequest, make_app: Callable[..., Flask]) -> Iterator[Flask]:
    """A test app whose job queue is on its SQLite file, or on the test Redis server under a queue of its own."""
    if request.param == "sqlite":
        yield make_app()
        return
    made = make_app(REDIS_URL=redis_url(), JOBS_NAME=f"test-{uuid.uuid4().hex}")
    yield made
    jobs.queue_of(made).flush()


@pytest.fixture
def researcher(app: Flask) -> FlaskClient:
    """A client logged in as a researcher made with ``flask user create``."""
    assert app.test_cli_runner().invoke(args=["user", "create", EMAIL, "--password", PASSWORD]).exit_code == 0
    client = app.test_client()
    token = form_token(client, "/research/login")
    assert (
        client.post("/research/login", data={"email": EMAIL, "password": PASSWORD, "csrf_token": token}).status_code
        == 302
    )
    return client


class Gate:
    """Holds the job's rating of its ``at``-th puzzle (1-based) until the test releases it."""

    def __init__(self, at: int) -> None:
        self.at = at
        self.calls = 0
        self.reached = threading.Event()
        self.released = threading.Event()

    def around(self, real: Callable[[str, str], studies.PuzzleEntry]) -> Callable[[str, str], studies.PuzzleEntry]:
        """The rating function with the gate in front of it."""

        def rated(puzzle: str, solution: str) -> studies.PuzzleEntry:
            self.calls += 1
            if self.calls == self.at:
                self.reached.set()
                if not self.released.wait(PATIENCE_S):
                    raise TimeoutError("the test never released the gate")
            return real(puzzle, solution)

        return rated

    def wait(self) -> None:
        """Wait until the job is held at the gate."""
        assert self.reached.wait(PATIENCE_S), "the job never reached the gate"


@pytest.fixture
def gate(monkeypatch: pytest.MonkeyPatch) -> Iterator[Gate]:
    """A gate before the job's rating of its second puzzle (released at the end of the test in any case)."""
    held = Gate(at=2)
    monkeypatch.setattr(preparing, "rated", held.around(studies.rated))
    yield held
    held.released.set()


def hard_puzzles(count: int) -> list[tuple[str, str]]:
    """The first puzzles of the shipped seed set (D 7.5 and up: among the hardest known) with their solutions."""
    rows = [json.loads(line) for line in SEED_BANK.read_text().splitlines()[:count]]
    return [(row["puzzle"], row["solution"]) for row in rows]


def post_study(client: FlaskClient, **fields: Any) -> int:
    """Send the new-study form (303 expected); the new study's id."""
    data = {"name": "Queued", "order_scheme": "fixed", "hint_rungs": "4", "abandon_minutes": "60", **fields}
    data["csrf_token"] = form_token(client, "/research/studies/new")
    response = client.post("/research/studies/new", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    return int(response.headers["Location"].rsplit("/", 1)[1])


def test_uploaded_hard_puzzles_are_prepared_by_the_consumer_while_the_page_shows_progress(
    app: Flask, researcher: FlaskClient, gate: Gate
) -> None:
    chosen = hard_puzzles(3)
    upload = "# three of the hardest\n" + "\n".join(p for p, _s in chosen) + "\n"
    with jobs.running_in_threads(app):
        study_id = post_study(researcher, puzzles="", puzzle_file=(io.BytesIO(upload.encode()), "hard.txt"))
        gate.wait()  # the first puzzle is rated, the second is being rated
        page = researcher.get(f"/research/studies/{study_id}").get_data(as_text=True)
        assert "Preparing the puzzles: rated 1 of 3." in page and 'id="entry-link"' not in page
        fragment = researcher.post(f"/research/studies/{study_id}/preparing", headers=csrf_header_of(researcher))
        assert fragment.status_code == 200 and 'hx-trigger="every 1s"' in fragment.get_data(as_text=True)
        closed = app.test_client().get(f"/s/{public_id(app, study_id)}?participant_label=early")
        assert closed.status_code == 409 and "not open yet" in closed.get_data(as_text=True)
        gate.released.set()
        assert prepared(app, study_id).state == "ready"
    done = researcher.post(f"/research/studies/{study_id}/preparing", headers=csrf_header_of(researcher))
    assert done.status_code == 204 and done.headers["HX-Refresh"] == "true"
    page = researcher.get(f"/research/studies/{study_id}").get_data(as_text=True)
    assert 'id="entry-link"' in page and "Preparing" not in page
    with db.sessions_of(app)() as session:
        rows = list(
            session.scalars(select(StudyPuzzle).where(StudyPuzzle.study_id == study_id).order_by(StudyPuzzle.position))
        )
    assert [(row.puzzle, row.solution) for row in rows] == chosen
    assert all(row.rating is not None and row.d is not None and row.d >= 7.0 for row in rows)
    open_study(researcher, study_id)  # a draft until its owner opens it
    opened = app.test_client().get(f"/s/{public_id(app, study_id)}?participant_label=now")
    assert opened.status_code == 200 and "data-autostart" in opened.get_data(as_text=True)  # enrols by its post


@pytest.fixture(scope="module")
def race_records() -> list[pool.BankRecord]:
    """One bank row near each race target."""
    return [bank_record(target, 4100 + index) for index, target in enumerate(RACE_TARGETS)]


def bank_rows(app: Flask) -> dict[str, BankPuzzle]:
    """The bank's rows by puzzle."""
    with db.sessions_of(app)() as session:
        return {row.puzzle: row for row in session.scalars(select(BankPuzzle))}


def study_puzzles(app: Flask, study_id: int) -> list[str]:
    """The bank forms of a study's puzzles, in order."""
    with db.sessions_of(app)() as session:
        found = session.scalars(
            select(StudyPuzzle.puzzle).where(StudyPuzzle.study_id == study_id).order_by(StudyPuzzle.position)
        )
        return [canonical_form(puzzle) for puzzle in found]


def test_a_study_from_target_values_claims_its_bank_rows(
    app: Flask, researcher: FlaskClient, race_records: list[pool.BankRecord]
) -> None:
    with db.sessions_of(app)() as session:
        assert pool.add(session, race_records) == 3
    with jobs.running_in_threads(app):
        study_id = post_study(researcher, targets=", ".join(str(t) for t in RACE_TARGETS[:2]))
        assert prepared(app, study_id).state == "ready"
    rows = bank_rows(app)
    assert study_puzzles(app, study_id) == [r["puzzle"] for r in race_records[:2]]  # isomorphs of these rows
    assert [rows[r["puzzle"]].used for r in race_records] == [True, True, False]


def test_racing_studies_take_all_their_rows_or_none_and_never_another_requests(
    app: Flask, researcher: FlaskClient, race_records: list[pool.BankRecord], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two studies want three of four scarce rows at once (nothing can be generated); after both have picked the
    row nearest D 2.0, a player's New puzzle claims it. The player keeps it; one study gets the other three rows,
    the other fails with the reason and holds none."""
    spare = bank_record(RACE_TARGETS[0], 4200)  # a second row near D 2.0
    with db.sessions_of(app)() as session:
        assert pool.add(session, [*race_records, spare]) == 4
    monkeypatch.setattr(preparing, "generated_for", lambda *_args: None)
    picked = threading.Barrier(3, timeout=PATIENCE_S)  # both jobs and this test
    player_done = threading.Event()
    seen = threading.local()

    def rated_after_the_players_claim(puzzle: str, solution: str) -> studies.PuzzleEntry:
        if not getattr(seen, "first", False):  # each job's first rating: it has picked its row near D 2.0
            seen.first = True
            picked.wait()
            if not player_done.wait(PATIENCE_S):
                raise TimeoutError("the player never claimed")
        return studies.rated(puzzle, solution)

    monkeypatch.setattr(preparing, "rated", rated_after_the_players_claim)
    targets = ", ".join(str(t) for t in RACE_TARGETS)
    with jobs.running_in_threads(app, workers=2):
        ids = [post_study(researcher, targets=targets, name=f"Race {n}") for n in (1, 2)]
        picked.wait()
        with db.sessions_of(app)() as session:  # the player's draw, as New puzzle makes it
            players_row = pool.draw(session, RACE_TARGETS[0])
            assert players_row is not None
            session.commit()
        player_done.set()
        ended = [prepared(app, study_id) for study_id in ids]
    assert sorted(s.state for s in ended) == ["failed", "ready"]
    winner, loser = (ids[0], ids[1]) if ended[0].state == "ready" else (ids[1], ids[0])
    rows = bank_rows(app)
    players = players_row.puzzle
    others = sorted(r["puzzle"] for r in [*race_records, spare] if r["puzzle"] != players)
    assert rows[players].used and len(others) == 3  # the player's claim was neither taken nor undone
    assert sorted(study_puzzles(app, winner)) == others and all(rows[p].used for p in others)
    assert study_puzzles(app, loser) == []
    failed = study_state(app, loser)
    assert failed.problem is not None and "No puzzle could be found for the target D" in failed.problem
    page = researcher.get(f"/research/studies/{loser}").get_data(as_text=True)
    assert 'id="study-problem"' in page and "No puzzle could be found" in page
    assert app.test_client().get(f"/s/{public_id(app, loser)}").status_code == 410


def test_unplayable_puzzles_are_refused_each_by_its_line_and_nothing_is_queued(
    app: Flask, researcher: FlaskClient
) -> None:
    good = generate_puzzle(seed=3100, givens=40)
    solved = str(good.solution)
    conflict_free_unsolvable = "12345678." + "." * 71 + "9"  # r1c9 can only be 9, which r9c9 forbids
    assert solve(conflict_free_unsolvable) is None
    pasted = "\n".join([str(good.puzzle), solved, "." * 81, "12345", "# a comment", conflict_free_unsolvable])
    data = {"name": "Bad lines", "puzzles": pasted, "csrf_token": form_token(researcher, "/research/studies/new")}
    response = researcher.post("/research/studies/new", data=data)
    text = response.get_data(as_text=True)
    assert response.status_code == 400
    for expected in (
        "Line 2: the puzzle is already solved",
        "Line 3: the puzzle has more than one solution",
        "Line 4: this is not a valid puzzle",
        "Line 6: the puzzle has no solution",
    ):
        assert expected in text
    assert "Line 1" not in text
    assert jobs.queue_of(app).pending_count() == 0
    with db.sessions_of(app)() as session:
        assert session.scalar(select(StudyPuzzle.id)) is None


def test_a_players_entries_go_through_while_a_study_is_rated(app: Flask, researcher: FlaskClient, gate: Gate) -> None:
    """The job is held in the middle of its rating; a player's requests all succeed meanwhile (a write transaction
    left open by the job would make them wait and fail with "database is locked")."""
    player = app.test_client()
    easy = generate_puzzle(seed=3200, givens=50)
    game_url = f"/g/{open_game(player, str(easy.puzzle))}"
    assert player.get(game_url).status_code == 200
    headers = {"X-CSRFToken": form_token(player, "/"), "HX-Request": "true"}
    solution = str(easy.solution)
    with jobs.running_in_threads(app):
        study_id = post_study(researcher, puzzles="\n".join(p for p, _s in hard_puzzles(2)))
        gate.wait()
        statuses = [
            player.post(
                f"{game_url}/cell/{cell_name(cell)}", data={"digit": solution[cell]}, headers=headers
            ).status_code
            for cell in blanks(str(easy.puzzle))
        ]
        gate.released.set()
        assert prepared(app, study_id).state == "ready"
    assert statuses == [200] * len(statuses)
    assert "Solved" in player.get(game_url).get_data(as_text=True)


def test_the_report_is_computed_once_per_change_of_its_data(
    app: Flask, researcher: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    builds: list[str] = []
    real_build = report.build

    def counted(*args: Any, **kwargs: Any) -> report.Report:
        builds.append(threading.current_thread().name)
        return real_build(*args, **kwargs)

    monkeypatch.setattr(report, "build", counted)
    easy = [generate_puzzle(seed=3300 + i, givens=60) for i in range(2)]
    with jobs.running_in_threads(app):
        study_id = post_study(researcher, puzzles="\n".join(str(m.puzzle) for m in easy))
        assert prepared(app, study_id).state == "ready"
        open_study(researcher, study_id)  # a draft until its owner opens it
        entry = f"/s/{public_id(app, study_id)}"
        assert len(play_through(app, app.test_client(), f"{entry}?participant_label=a")) == 2
        first = computed_report(researcher, study_id)
        again = researcher.get(f"/research/studies/{study_id}/report").get_data(as_text=True)
        assert len(builds) == 1
        for page in (first, again):
            assert "Participants with a solved puzzle: 1." in page and 'id="report-computing"' not in page
        assert len(play_through(app, app.test_client(), f"{entry}?participant_label=b")) == 2
        updating = researcher.get(f"/research/studies/{study_id}/report").get_data(as_text=True)
        assert "Participants with a solved puzzle: 1." in updating and 'id="report-computing"' in updating
        latest = computed_report(researcher, study_id)
        assert "Participants with a solved puzzle: 2." in latest and len(builds) == 2
    assert all(name.startswith("Worker") for name in builds)  # built by the consumer, never in a request
    with db.sessions_of(app)() as session:
        assert len(session.scalars(select(StudyReport).where(StudyReport.study_id == study_id)).all()) == 1
    printed = app.test_cli_runner().invoke(args=["study", "report", str(study_id)])
    assert printed.exit_code == 0 and "2 participants solved puzzles" in printed.output


def test_a_study_whose_job_could_not_be_queued_is_queued_again_from_its_page(
    app: Flask, researcher: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    with monkeypatch.context() as patched:
        patched.setattr(jobs, "enqueue", lambda *_args: False)
        study_id = post_study(researcher, puzzles=str(generate_puzzle(seed=3400, givens=60).puzzle))
    waiting = study_state(app, study_id)
    assert waiting.state == "preparing" and waiting.heartbeat_at is None
    with jobs.running_in_threads(app):
        assert researcher.get(f"/research/studies/{study_id}").status_code == 200
        assert study_state(app, study_id).heartbeat_at is None  # a GET changes nothing
        poll = researcher.post(f"/research/studies/{study_id}/preparing", headers=csrf_header_of(researcher))
        assert poll.status_code == 200  # the page's poll queues it again
        assert prepared(app, study_id).state == "ready"


def test_a_queue_server_that_is_down_does_not_fail_the_request(make_app: Callable[..., Flask]) -> None:
    down = make_app(REDIS_URL="redis://127.0.0.1:9/0")  # the discard port: nothing answers there
    assert down.test_cli_runner().invoke(args=["user", "create", EMAIL, "--password", PASSWORD]).exit_code == 0
    client = down.test_client()
    token = form_token(client, "/research/login")
    client.post("/research/login", data={"email": EMAIL, "password": PASSWORD, "csrf_token": token})
    study_id = post_study(client, puzzles=str(generate_puzzle(seed=3500, givens=60).puzzle))
    page = client.get(f"/research/studies/{study_id}")
    assert page.status_code == 200 and "rated 0 of 1" in page.get_data(as_text=True)
    assert study_state(down, study_id).state == "preparing"
