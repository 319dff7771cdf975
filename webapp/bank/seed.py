"""The shipped seed sets: rated puzzles where on-demand generation cannot reach (the top of the slider) or lands
rarely (the middle).

``seed_bank/hardest.jsonl`` (the top of the slider) and ``seed_bank/middle.jsonl`` (published puzzles for slider
44-66) hold one bank record per line (the columns ``pool.record_of`` makes, without ``source``, plus ``origin``: the
list and line the puzzle was taken from), written by ``benchmarks/seed_bank.py`` with the engine's ratings;
``seed_bank/SOURCE.md`` names the lists and their licences. ``flask pool seed`` adds the records to the bank without
rating them again. Every line is checked before anything is added, so a damaged file adds nothing: each record must
be a valid, uniquely solvable puzzle in canonical form with at most ``MAX_GIVENS`` givens, its solution, and figures
that agree with each other (zone of D, the rating's D).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sudoku_engine import difficulty
from sudoku_engine.generate import MAX_GIVENS
from sudoku_engine.grid import InvalidPuzzle, format_values, parse_values
from sudoku_engine.isomorph import canonical
from sudoku_engine.solver import count_solutions

from .pool import SEED_SOURCE, BankRecord

SEED_DIR = Path(__file__).resolve().parent / "seed_bank"
SEED_FILE = SEED_DIR / "hardest.jsonl"  # the hardest known puzzles, for the top of the slider
MIDDLE_FILE = SEED_DIR / "middle.jsonl"  # published puzzles where targeted generation lands rarely
SEED_FILES = (SEED_FILE, MIDDLE_FILE)
SOURCE = SEED_SOURCE  # the bank's ``source`` column for shipped records
TEXT_FIELDS = ("puzzle", "solution", "label", "hardest_technique")
NUMBER_FIELDS = ("d", "predicted_minutes", "se_like")


class SeedFileError(ValueError):
    """A seed file with lines that are not valid records: one message per bad line."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


def seed_line(record: BankRecord, origin: str) -> str:
    """One line of a seed file: the record's columns (``source`` left out) and where the puzzle came from."""
    fields = {key: value for key, value in record.items() if key != "source"}
    return json.dumps({**fields, "origin": origin}, ensure_ascii=False)


def read_seed(path: Path) -> list[BankRecord]:
    """The records of a seed file, or SeedFileError naming every bad line (``path:line: why``)."""
    records: list[BankRecord] = []
    problems: list[str] = []
    for number, text in numbered_lines(path):
        try:
            records.append(parse_record(text))
        except ValueError as error:
            problems.append(f"{path}:{number}: {error}")
    if not records and not problems:
        problems.append(f"{path}: holds no records")
    if problems:
        raise SeedFileError(problems)
    return records


def numbered_lines(path: Path) -> Iterator[tuple[int, str]]:
    """The non-blank lines of a file with their 1-based numbers (SeedFileError when it is not UTF-8 text)."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise SeedFileError([f"{path}: not UTF-8 text ({error.reason})"]) from None
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            yield number, line


def parse_record(text: str) -> BankRecord:
    """A bank record from one JSON line, or ValueError saying what is wrong with it."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"not JSON ({error.msg} at column {error.colno})") from None
    if not isinstance(data, dict):
        raise ValueError("not a JSON object")
    for key in TEXT_FIELDS:
        if not isinstance(data.get(key), str):
            raise ValueError(f"`{key}` must be a string")
    for key in NUMBER_FIELDS:
        value = data.get(key)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise ValueError(f"`{key}` must be a finite number")
    if not isinstance(data.get("rating"), dict):
        raise ValueError("`rating` must be an object")
    check_puzzle(data["puzzle"], data["solution"])
    check_figures(data)
    return BankRecord(
        puzzle=data["puzzle"],
        solution=data["solution"],
        d=float(data["d"]),
        label=data["label"],
        predicted_minutes=float(data["predicted_minutes"]),
        se_like=float(data["se_like"]),
        hardest_technique=data["hardest_technique"],
        rating=data["rating"],
        source=SOURCE,
    )


def check_puzzle(puzzle: str, solution: str) -> None:
    """ValueError unless the puzzle is canonical, bankable and uniquely solved by the complete solution given."""
    try:
        values = parse_values(puzzle)
        solved = parse_values(solution)
    except InvalidPuzzle as error:
        raise ValueError(str(error)) from None
    givens = sum(1 for v in values if v)
    if givens > MAX_GIVENS:
        raise ValueError(f"{givens} givens: the bank keeps puzzles of at most {MAX_GIVENS}")
    if puzzle != format_values(values) or solution != format_values(solved):
        raise ValueError("puzzle and solution must be written with digits and '.' only")
    if puzzle != format_values(canonical(values)):
        raise ValueError("the puzzle is not in canonical form (the bank stores that form)")
    if 0 in solved or any(v and v != s for v, s in zip(values, solved)):
        raise ValueError("the solution is not a completion of the puzzle")
    if count_solutions(values, limit=2) != 1:
        raise ValueError("the puzzle does not have exactly one solution")


def check_figures(data: dict[str, Any]) -> None:
    """ValueError when the label is not the zone of D, or the rating record is of another D or puzzle."""
    d = float(data["d"])
    if data["label"] != difficulty.zone(d):
        raise ValueError(f"label {data['label']!r} is not the zone of D {d:.3f} ({difficulty.zone(d)})")
    rated = data["rating"].get("D")
    if not isinstance(rated, (int, float)) or abs(rated - round(d, 3)) > 1e-9:
        raise ValueError(f"the rating's D {rated!r} is not D {d:.3f}")
    if data["rating"].get("puzzle", data["puzzle"]) != data["puzzle"]:
        raise ValueError("the rating is of another puzzle")
