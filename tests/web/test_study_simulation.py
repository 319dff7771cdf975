"""A simulated study through the real HTTP endpoints: bots with known skills, times from a known model.

Each bot (skill theta_j) solves each puzzle in its assigned Latin-square order; its solve time is drawn from
log t = b_p - theta_j + e with b_p = 5 + 0.4 D_p (log seconds), e ~ N(0, 0.25). The server's clock is
replaced by a simulated one that the bot moves forward by t between opening a puzzle and entering its last
digit, so the server measures exactly the drawn times through its own path (page view, entries, verified
completion). The report must then recover the ordering of the b values, a strong D-time correlation whose
interval holds the truth, and the exports must hold exactly the events sent. Size: 12 participants x 6
puzzles by default; ``SUDOKU_STUDY_SIM=full`` runs 30 x 8 and writes the report to test-artifacts/.
"""

from __future__ import annotations

import csv
import io
import math
import os
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers.jobs import computed_report, prepared
from helpers.play import blanks, show_game
from helpers.studies import EMAIL, PASSWORD, enter_study, form_token, open_study
from helpers.web import csrf_token_of
from markupsafe import escape
from sqlalchemy import func, select

from sudoku_engine.generate import generate_puzzle
from sudoku_engine.grid import cell_name
from sudoku_engine.solver import solve
from webapp import db, jobs, models
from webapp.games import calibration
from webapp.models import Event, Study
from webapp.research import analysis, report

FULL = os.environ.get("SUDOKU_STUDY_SIM") == "full"
PARTICIPANTS, PUZZLES = (30, 8) if FULL else (10, 6)
# Puzzles of spread difficulty with many givens (few entries for the bots): the Sudoku Exchange puzzles with the
# most givens at SE 2.6, 3.0, 4.0, 5.4, 6.6, 7.1 and 7.8 (sudokuexchange_graded_even.tsv), after an easy one.
FIXTURES = (
    "..3.6.7.....8..3..62.3.7..5..793842.2..6.4..7.467259..9..2.3.78..4..6.....2.7.6..",
    "58.94...3..9637..2.......4..5.....2696..1..5732.....1..9.......4..2587..2...93.65",
    "95.38...1.8..1..63..1..97....34.1..617.....986..9.83....91..8..51..9..3.7...54.29",
    ".286..9...94.78.366..3...82.8....7.9.6..1..2.9.7....1.71...6..824.18.69...6..724.",
    "..7.96....427...5....5...763...5.68.7..428..5.85.6...791...5....7...953....67.1..",
    "5.24....3..1.6......38.5492..6.3.7.1.2.1.9.4.1.4.2.9..4389.12......4.3..2....31.4",
    "4..8.5.373..9..8...18..64..6.9....48.........18....6.3..16..98...3..1..496.4.2..1",
)
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


class SimulatedClock:
    """A clock that only moves when told to."""

    def __init__(self) -> None:
        self.now = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        """Move the clock forward."""
        self.now += timedelta(seconds=seconds)


@pytest.fixture(autouse=True)
def consumer(app: Flask) -> Iterator[None]:
    """A real consumer of the app's job queue: it prepares the study and computes its report."""
    with jobs.running_in_threads(app):
        yield


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[SimulatedClock]:
    """The simulated clock in place of the server's."""
    simulated = SimulatedClock()
    monkeypatch.setattr(models, "clock", simulated)
    yield simulated


def true_b(d: float) -> float:
    """The model's puzzle difficulty (log seconds) for a puzzle of difficulty D."""
    return 5.0 + 0.4 * d


def run_bot(
    client: FlaskClient,
    entry: str,
    theta: float,
    rng: np.random.Generator,
    clock: SimulatedClock,
    d_of: dict[str, float],
) -> int:
    """One participant: consent, start, solve every puzzle in its order at the drawn times; requests sent."""
    sent = 0
    enter_study(client, entry)
    base = entry.split("?")[0]
    token = form_token(client, f"{base}/go")
    client.post(f"{base}/consent", data={"answer": "agree", "csrf_token": token})
    client.post(f"{base}/start", data={"csrf_token": token})
    headers = {"X-CSRFToken": token, "HX-Request": "true"}
    while True:
        step = client.get(f"{base}/go")
        if step.status_code != 303 or "/g/" not in step.headers["Location"]:
            return sent
        game_url = step.headers["Location"]
        page = show_game(client, game_url.rsplit("/", 1)[1])  # the page's first showing starts the server's clock
        puzzle = page_puzzle(page)
        seconds = math.exp(true_b(d_of[puzzle]) - theta + rng.normal(0.0, 0.25))
        clock.advance(seconds)
        solution = SOLUTIONS[puzzle]
        for number, cell in enumerate(blanks(puzzle)):
            key = f"{game_url.rsplit('/', 1)[1]}-{cell}"
            data = {"digit": solution[cell], "key": key, "client_ms": str(number * 1000.0)}
            assert client.post(f"{game_url}/cell/{cell_name(cell)}", data=data, headers=headers).status_code == 200
            sent += 1
        client.post(f"{base}/next", data={"csrf_token": token})
        clock.advance(30.0)


def page_puzzle(page: str) -> str:
    """The givens of a game page, read from its cells."""
    digits = []
    for name in (f"r{r}c{c}" for r in range(1, 10) for c in range(1, 10)):
        cell = page.split(f'data-cell="{name}"', 1)[1].split(">", 1)[0]
        given = 'aria-readonly="true"' in cell
        digits.append(cell.split('data-digit="', 1)[1][0] if given else ".")
    return "".join(digits)


SOLUTIONS: dict[str, str] = {}


def test_simulated_study_recovers_the_model(app: Flask, client: FlaskClient, clock: SimulatedClock) -> None:
    easy = generate_puzzle(seed=4200, givens=50)
    chosen = [str(easy.puzzle), *(FIXTURES if FULL else FIXTURES[:2] + FIXTURES[3:6])]
    assert len(chosen) == PUZZLES
    for puzzle in chosen:
        found = solve(puzzle)
        assert found is not None
        SOLUTIONS[puzzle] = str(found)
    app.test_cli_runner().invoke(args=["user", "create", EMAIL, "--password", PASSWORD])
    token = csrf_token_of(client.get("/research/login").get_data(as_text=True))
    client.post("/research/login", data={"email": EMAIL, "password": PASSWORD, "csrf_token": token})
    data = {
        "name": "Simulated",
        "puzzles": "\n".join(chosen),
        "order_scheme": "latin",
        "hint_rungs": "4",
        "autofill": "on",
        "checking": "on",
        "abandon_minutes": "600",
        "csrf_token": form_token(client, "/research/studies/new"),
    }
    created = client.post("/research/studies/new", data=data)
    study_id = int(created.headers["Location"].rsplit("/", 1)[1])
    assert prepared(app, study_id).state == "ready"
    open_study(client, study_id)  # a draft until its owner opens it
    with app.app_context():
        study = db.get_session().get(Study, study_id)
        assert study is not None
        public_id = study.public_id
        d_of = {p.puzzle: float(p.d or 0.0) for p in study.puzzles}
    rng = np.random.default_rng(7)
    thetas = rng.normal(0.0, 0.4, PARTICIPANTS)
    sent = sum(
        run_bot(app.test_client(), f"/s/{public_id}?participant_label=bot{j}", float(theta), rng, clock, d_of)
        for j, theta in enumerate(thetas)
    )
    with app.app_context():
        session = db.get_session()
        study = session.get(Study, study_id)
        assert study is not None
        built = report.build(session, study, plots=False)
        entered = session.scalar(select(func.count()).select_from(Event).where(Event.kind == "enter"))
    assert entered == sent  # every entry stored exactly once
    assert all(row.completions == PARTICIPANTS for row in built.puzzles)
    truth = np.array([true_b(d_of[p.puzzle]) for p in sorted(study.puzzles, key=lambda p: p.position)])
    fitted = np.array([row.b for row in built.puzzles], dtype=float)
    assert analysis.spearman(fitted, truth) > 0.9  # the ordering of b (puzzles of equal D may swap)
    # theta averages out of b: b recovers the truth up to the noise of a mean over the participants.
    assert np.abs(fitted - truth).max() < 0.25
    by_name = {row.rating: row for row in built.correlations}
    d_row = by_name["D"]
    true_rho = analysis.spearman(np.array(sorted(d_of.values())), np.array(sorted(truth)))  # b is monotone in D
    assert d_row.spearman.low <= true_rho <= d_row.spearman.high and d_row.spearman.value > 0.8
    long = client.get(f"/research/studies/{study_id}/export/long.csv").text
    assert sum(1 for row in csv.DictReader(io.StringIO(long)) if row["kind"] == "enter") == sent
    page = computed_report(client, study_id)
    assert 'id="correlation-table"' in page and 'id="table-two"' in page and "<svg" in page
    assert set(by_name) <= set(report.MEANINGS) and "seed 00" not in page  # each rating says what it measures
    for name in by_name:
        assert f'<td class="rating-meaning">{escape(report.MEANINGS[name])}</td>' in page
    refit = client.post(f"/research/studies/{study_id}/calibrate", data={"csrf_token": form_token(client, "/")})
    assert refit.status_code == 303
    with app.app_context():
        model = calibration.in_force(db.get_session())
        assert model.version is not None and model.version.model == calibration.STUDY_MODEL and model.slope > 0
    if FULL:
        ARTIFACTS.mkdir(exist_ok=True)
        (ARTIFACTS / "simulated_study_report.txt").write_text("\n".join(report.text_lines(built)) + "\n")
