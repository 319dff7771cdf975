"""``flask pool fill | ensure | import | seed | stats`` through the Flask CLI runner, and the shipped seed set."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskCliRunner
from sqlalchemy import select

from sudoku_engine import difficulty
from sudoku_engine.generate import DEFAULT_TOLERANCE, generate_puzzle
from sudoku_engine.grid import format_values, parse_values
from sudoku_engine.isomorph import canonical, random_isomorph
from sudoku_engine.rating import rate
from sudoku_engine.slider import target_for_slider
from webapp import create_app, db
from webapp.bank import cli as pool_cli
from webapp.bank import pool, seed
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
    summary = r"generated 3 puzzles \(\d within 0.2 of their target D, \d of them on a second try\), added 3 \(0 "
    assert re.search(summary, result.stdout)
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


def test_ensure_fills_the_slider_values_no_bank_puzzle_is_near(app: Flask, runner: FlaskCliRunner) -> None:
    """Past the minimum, ensure aims once more at each slider value (every 0.5) that no bank row serves."""
    args = ["pool", "ensure", "--min", "0", "--budget", "0.3", "--low", "4", "--high", "5"]
    result = runner.invoke(args=args)
    assert result.exit_code == 0, result.output
    assert (
        "nothing to generate" in result.stdout and "aimed at 3 slider values no bank puzzle was near" in result.stdout
    )
    rows = bank_rows(app)
    assert len(rows) == 3
    near = [v for v in (4.0, 4.5, 5.0) if any(abs(r.d - target_for_slider(v)) <= DEFAULT_TOLERANCE for r in rows)]
    assert f"{len(near)} now are" in result.stdout
    assert len(near) == 3  # easy targets (slider 4-5): each hit within its longer budget
    again = runner.invoke(args=args)
    assert again.exit_code == 0 and "aimed at" not in again.stdout  # no hole left: nothing more to do


def test_ensure_fills_only_below_the_minimum(app: Flask, runner: FlaskCliRunner) -> None:
    args = ["pool", "ensure", "--min", "2", "--budget", "0.3", "--high", "10", "--no-holes"]
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


@pytest.fixture(scope="module")
def seed_records() -> list[pool.BankRecord]:
    """Bank records of three puzzles, rated by the engine as ``benchmarks/seed_bank.py`` rates them."""
    puzzles = [EULER_01, EULER_02, str(generate_puzzle(seed=3, givens=40).puzzle)]
    return [{**pool.rated_record(parse_values(p)), "source": seed.SOURCE} for p in puzzles]  # type: ignore[typeddict-item]


def seed_file(path: Path, records: list[pool.BankRecord], extra: str = "") -> Path:
    """A seed file of the records (their origin: a line of a made-up list), then ``extra`` as a last line."""
    lines = [seed.seed_line(record, f"list.txt:{i + 1}") for i, record in enumerate(records)]
    path.write_text("\n".join(lines + ([extra] if extra else [])) + "\n", encoding="utf-8")
    return path


def test_seed_inserts_the_records_without_rating_them(
    app: Flask,
    runner: FlaskCliRunner,
    tmp_path: Path,
    seed_records: list[pool.BankRecord],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def no_rating(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("seeding must not rate")

    monkeypatch.setattr(pool, "rate", no_rating)
    monkeypatch.setattr(pool, "rated_record", no_rating)
    path = seed_file(tmp_path / "seed.jsonl", seed_records)
    result = runner.invoke(args=["pool", "seed", str(path)])
    assert result.exit_code == 0, result.output
    assert "read 3 seed puzzles" in result.stdout and "added 3 (0 already in the bank," in result.stdout
    rows = bank_rows(app)
    assert len(rows) == 3 and all(not row.used and row.source == "seed" for row in rows)
    by_puzzle = {row.puzzle: row for row in rows}
    for record in seed_records:
        row = by_puzzle[record["puzzle"]]
        assert row.d == record["d"] and row.label == record["label"] and row.rating == record["rating"]
    assert by_puzzle[format_values(canonical(parse_values(EULER_01)))].d == rate(EULER_01).d


def test_seed_is_idempotent_and_skips_puzzles_in_the_bank(
    app: Flask, runner: FlaskCliRunner, tmp_path: Path, seed_records: list[pool.BankRecord]
) -> None:
    with db.sessions_of(app)() as session:  # one of them served already: it stays served
        pool.add(session, seed_records[:1], used=True)
    path = seed_file(tmp_path / "seed.jsonl", seed_records)
    first = runner.invoke(args=["pool", "seed", str(path)])
    assert first.exit_code == 0 and "added 2 (1 already in the bank, 0 of them" in first.stdout
    second = runner.invoke(args=["pool", "seed", str(path)])
    assert second.exit_code == 0, second.output
    assert (
        "added 0 (3 already in the bank, 0 of them given the file's newer figures); the bank holds 2" in second.stdout
    )
    assert sorted(row.used for row in bank_rows(app)) == [False, False, True]


def test_seed_gives_rows_in_the_bank_the_files_newer_figures(
    app: Flask, runner: FlaskCliRunner, tmp_path: Path, seed_records: list[pool.BankRecord]
) -> None:
    """A seed set rated again (a new time model, say): rows the bank holds take the file's figures, served or not,
    and keep whether they were served."""
    first = seed_records[0]
    older = pool.BankRecord(**{**first, "predicted_minutes": 999.0})  # type: ignore[typeddict-item]
    older["rating"] = {**first["rating"], "predicted_minutes": 999.0}
    with db.sessions_of(app)() as session:
        pool.add(session, [older], used=True)
    path = seed_file(tmp_path / "seed.jsonl", seed_records)
    result = runner.invoke(args=["pool", "seed", str(path)])
    assert result.exit_code == 0 and "added 2 (1 already in the bank, 1 of them given the file's newer" in result.stdout
    row = next(row for row in bank_rows(app) if row.puzzle == seed_records[0]["puzzle"])
    assert row.used and row.predicted_minutes == seed_records[0]["predicted_minutes"] != 999.0
    assert row.rating == seed_records[0]["rating"]


def test_seed_without_a_file_adds_the_shipped_set(
    app: Flask,
    runner: FlaskCliRunner,
    tmp_path: Path,
    seed_records: list[pool.BankRecord],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(seed, "SEED_FILES", (tmp_path / "absent.jsonl", tmp_path / "absent-too.jsonl"))
    missing = runner.invoke(args=["pool", "seed"])
    assert missing.exit_code == 0 and "no seed set in" in missing.stdout and "nothing to add" in missing.stdout
    assert bank_rows(app) == []
    top = seed_file(tmp_path / "shipped.jsonl", seed_records[:2])
    monkeypatch.setattr(seed, "SEED_FILES", (top, seed_file(tmp_path / "middle.jsonl", seed_records[2:])))
    shipped = runner.invoke(args=["pool", "seed"])
    assert shipped.exit_code == 0 and "added 3" in shipped.stdout  # both shipped files
    assert len(bank_rows(app)) == 3


def permuted_digits(grid: str) -> str:
    """The grid with digits 1 and 2 swapped (still a valid grid, but another one)."""
    return grid.translate(str.maketrans("12", "21"))


def bad_lines(record: pool.BankRecord) -> list[tuple[str, str]]:
    """Lines a seed file must refuse, each with the reason the error names."""
    good = json.loads(seed.seed_line(record, "list.txt:9"))
    solved = record["solution"]
    wrong_zone = "Extreme" if record["label"] != "Extreme" else "Easy"
    return [
        ("{not json", "not JSON"),
        ("[1, 2]", "not a JSON object"),
        (json.dumps({k: v for k, v in good.items() if k != "d"}), "`d` must be a finite number"),
        (json.dumps({**good, "d": "8.5"}), "`d` must be a finite number"),
        (json.dumps({**good, "rating": None}), "`rating` must be an object"),
        (json.dumps({**good, "puzzle": record["puzzle"][:80]}), "81"),
        (json.dumps({**good, "puzzle": EULER_01.replace("0", ".")}), "not in canonical form"),
        (json.dumps({**good, "puzzle": solved[:41] + "." * 40}), "41 givens"),
        (json.dumps({**good, "solution": permuted_digits(solved)}), "not a completion of the puzzle"),
        (json.dumps({**good, "label": wrong_zone}), "is not the zone of D"),
        (json.dumps({**good, "rating": {**good["rating"], "D": good["rating"]["D"] + 1}}), "the rating's D"),
    ]


def test_seed_refuses_a_malformed_file_and_adds_nothing(
    app: Flask, runner: FlaskCliRunner, tmp_path: Path, seed_records: list[pool.BankRecord]
) -> None:
    for number, (line, reason) in enumerate(bad_lines(seed_records[0])):
        path = seed_file(tmp_path / f"bad{number}.jsonl", seed_records[1:], extra=line)
        result = runner.invoke(args=["pool", "seed", str(path)])
        assert result.exit_code == 2, (line, result.output)
        errors = result.stderr.splitlines()
        assert len(errors) == 2 and errors[0].startswith(f"error: {path}:3: ") and reason in errors[0], errors
        assert errors[1] == f"{path} is not a valid seed file: nothing added"
        assert "Traceback" not in result.output and bank_rows(app) == []


def test_seed_refuses_an_empty_file(app: Flask, runner: FlaskCliRunner, tmp_path: Path) -> None:
    path = tmp_path / "empty.jsonl"
    path.write_text("\n", encoding="utf-8")
    result = runner.invoke(args=["pool", "seed", str(path)])
    assert result.exit_code == 2 and f"error: {path}: holds no records" in result.stderr


@pytest.mark.parametrize("shipped", seed.SEED_FILES, ids=lambda path: path.name)
def test_shipped_seed_set_rates_as_the_engine_does_now(shipped: Path) -> None:
    if not shipped.is_file():
        pytest.skip(f"no seed set shipped at {shipped}: benchmarks/seed_bank.py builds it")
    records = seed.read_seed(shipped)  # the whole file is valid
    fastest: dict[str, pool.BankRecord] = {}  # per hardest technique, the record rated fastest at build time
    for record in sorted(records, key=lambda r: float(r["rating"].get("ms", 0.0))):
        fastest.setdefault(record["hardest_technique"], record)
    chosen = sorted(fastest.values(), key=lambda r: float(r["rating"].get("ms", 0.0)))[:4]
    for record in chosen:
        again = pool.rated_record(parse_values(record["puzzle"]))
        assert (again["d"], again["label"], again["hardest_technique"], again["se_like"]) == pytest.approx(
            (record["d"], record["label"], record["hardest_technique"], record["se_like"]), abs=1e-9
        ), f"{record['puzzle']}: the shipped rating is stale; rebuild with benchmarks/seed_bank.py"


def test_a_missed_target_is_tried_again_and_the_closer_puzzle_kept(
    app: Flask, runner: FlaskCliRunner, seed_records: list[pool.BankRecord], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Generation that misses on the first try (short budget here) gets a second try with a new seed and four
    times the budget; a hit on it is banked, and a second miss banks whichever puzzle is nearer the target."""
    calls: list[pool_cli.GenerateTask] = []

    def fake(task: pool_cli.GenerateTask) -> tuple[pool_cli.GenerateTask, pool.BankRecord, bool]:
        calls.append(task)
        first_try = len(calls) <= 2
        index = len(calls) - 1
        distance = {0: 1.0, 1: 0.5, 2: 0.1, 3: 0.9}[index]  # task 1: hit on retry; task 2: the first stays nearer
        record: pool.BankRecord = {**seed_records[index % 3], "d": task.target + distance, "source": "generated"}
        return task, record, not first_try and distance <= 0.2

    monkeypatch.setattr(pool_cli, "generate_task", fake)
    result = runner.invoke(args=["pool", "fill", "--count", "2", "--seed", "5", "--budget", "0.5", "--high", "20"])
    assert result.exit_code == 0, result.output
    first, second = calls[:2], calls[2:]
    assert [t.budget_s for t in first] == [0.5, 0.5] and [t.budget_s for t in second] == [2.0, 2.0]
    assert {t.seed for t in second} == {t.seed + 2 for t in first if t.seed is not None}
    targets = [t.target for t in first]  # one worker: tasks and their retries run in order
    kept = [row.d - target for row, target in zip(bank_rows(app), targets)]
    assert "1 within 0.2 of their target D, 1 of them on a second try" in result.stdout
    assert kept == pytest.approx([0.1, 0.5])  # the retry's hit; the first try, nearer than the second miss
