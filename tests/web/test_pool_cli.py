"""``flask pool fill | ensure | import | stats`` through the Flask CLI runner."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskCliRunner
from sqlalchemy import select

from sudoku_engine import difficulty
from sudoku_engine.generate import generate_puzzle
from sudoku_engine.grid import format_values
from sudoku_engine.isomorph import canonical, random_isomorph
from sudoku_engine.rating import rate
from webapp import create_app, db, pool
from webapp.models import BankPuzzle

EULER_01 = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
EULER_02 = "200080300060070084030500209000105408000000000402706000301007040720040060004010003"
SOLVED = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
OPEN = SOLVED[:27] + "." * 54


def bank_rows(app: Flask) -> list[BankPuzzle]:
    """Every bank row, in insertion order."""
    with db.sessions_of(app)() as session:
        return list(session.scalars(select(BankPuzzle).order_by(BankPuzzle.id)))


def test_fill_generates_over_the_slider_range_and_reports(app: Flask, runner: FlaskCliRunner) -> None:
    args = ["pool", "fill", "--count", "3", "--seed", "11", "--budget", "0.3", "--high", "20"]
    result = runner.invoke(args=args)
    assert result.exit_code == 0, result.output
    assert re.search(r"generated 3 puzzles \(\d within 0.2 of their target D\), added 3 \(0 already", result.stdout)
    assert "the bank holds 3 unused puzzles" in result.stdout
    rows = bank_rows(app)
    assert len(rows) == 3 and all(row.source == "generated" and not row.used for row in rows)
    for row in rows:
        assert row.d == rate(row.puzzle, measures=difficulty.MEASURES).d
        assert row.label == difficulty.zone(row.d) and row.rating["D"] == round(row.d, 3)
        assert row.puzzle == format_values(canonical(tuple(0 if c == "." else int(c) for c in row.puzzle)))


def test_fill_over_two_processes(app: Flask, runner: FlaskCliRunner) -> None:
    args = ["pool", "fill", "--count", "2", "--jobs", "2", "--budget", "0.3", "--high", "10"]
    result = runner.invoke(args=args)
    assert result.exit_code == 0, result.output
    assert len(bank_rows(app)) == 2


def test_ensure_fills_only_below_the_minimum(app: Flask, runner: FlaskCliRunner) -> None:
    args = ["pool", "ensure", "--min", "2", "--budget", "0.3", "--high", "10"]
    first = runner.invoke(args=args)
    assert first.exit_code == 0 and "generated 2 puzzles" in first.stdout
    second = runner.invoke(args=args)
    assert second.exit_code == 0, second.output
    assert "the bank holds 2 unused puzzles (at least 2): nothing to generate" in second.stdout
    assert len(bank_rows(app)) == 2


def test_import_adds_unique_puzzles_once(app: Flask, runner: FlaskCliRunner, tmp_path: Path) -> None:
    twin = random_isomorph(random.Random(4)).apply(tuple(int(c) for c in EULER_01))
    source = tmp_path / "good.txt"
    source.write_text(f"# two puzzles and an isomorph of the first\n{EULER_01}\n\n{EULER_02}\n{format_values(twin)}\n")
    result = runner.invoke(args=["pool", "import", str(source)])
    assert result.exit_code == 0, result.output
    assert "rated 3 puzzles, added 2 (1 already in the bank), 0 bad lines" in result.stdout
    assert result.stderr == ""
    rows = bank_rows(app)
    assert [row.source for row in rows] == ["import", "import"]
    assert rows[0].d == rate(EULER_01, measures=difficulty.MEASURES).d


def test_import_reports_each_bad_line_and_exits_2(app: Flask, runner: FlaskCliRunner, tmp_path: Path) -> None:
    source = tmp_path / "mixed.tsv"
    lines = ["name\tpuzzle", f"a\t{EULER_01}", "b\tnot a puzzle", f"c\t{OPEN}", f"d\t{EULER_02}", "e\t11" + "." * 79]
    source.write_text("\n".join(lines) + "\n")
    result = runner.invoke(args=["pool", "import", "--jobs", "2", str(source)])
    assert result.exit_code == 2
    errors = result.stderr.splitlines()
    assert len(errors) == 3
    assert any(e.startswith(f"error: {source}:3: invalid character") for e in errors)
    assert f"error: {source}:4: the puzzle has more than one solution" in errors
    assert any(e.startswith(f"error: {source}:6: two 1s in row 1") for e in errors)
    assert "rated 2 puzzles, added 2 (0 already in the bank), 3 bad lines" in result.stdout
    assert len(bank_rows(app)) == 2 and "Traceback" not in result.output


def test_stats_counts_by_zone(app: Flask, runner: FlaskCliRunner, tmp_path: Path) -> None:
    empty = runner.invoke(args=["pool", "stats"])
    assert empty.exit_code == 0 and empty.stdout.splitlines()[-1].split() == ["all", "0", "0", "0"]
    source = tmp_path / "two.txt"
    source.write_text(f"{EULER_01}\n{generate_puzzle(seed=3, givens=40).puzzle}\n")
    assert runner.invoke(args=["pool", "import", str(source)]).exit_code == 0
    with db.sessions_of(app)() as session:
        pool.claim(session, bank_rows(app)[0].id)
        session.commit()
    lines = runner.invoke(args=["pool", "stats"]).stdout.splitlines()
    assert lines[0].split() == ["zone", "unused", "used", "total", "D", "range"]
    labels = [row.label for row in bank_rows(app)]
    assert lines[-1].split() == ["all", "1", "1", "2"]
    assert {line.split()[0] for line in lines[1:-1]} == set(labels)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["pool", "fill", "--count", "0"], "0 is not in the range x>=1"),
        (["pool", "fill", "--count", "2", "--jobs", "0"], "0 is not in the range x>=1"),
        (["pool", "fill", "--count", "2", "--budget", "-1"], "--budget"),
        (["pool", "fill", "--count", "2", "--low", "60", "--high", "20"], "--low 60 is above --high 20"),
        (["pool", "fill", "--count", "2", "--high", "101"], "101.0 is not in the range 0<=x<=100"),
        (["pool", "ensure"], "Missing option '--min'"),
        (["pool", "import", "no-such-file.txt"], "does not exist"),
    ],
)
def test_bad_options_are_usage_errors(runner: FlaskCliRunner, args: list[str], message: str) -> None:
    result = runner.invoke(args=args)
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output


def test_commands_ask_for_init_db_when_the_bank_is_missing(tmp_path: Path, make_app: Callable[..., Flask]) -> None:
    app = create_app({"INSTANCE_PATH": str(tmp_path / "bare"), "SECRET_KEY": "k"})
    try:
        result = app.test_cli_runner().invoke(args=["pool", "stats"])
        assert result.exit_code == 1 and "run `flask init-db` first" in result.output
        assert "Traceback" not in result.output
    finally:
        db.dispose(app)
