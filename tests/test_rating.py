"""The two familiar scales: SE-style chain length bonus, HoDoKu-style levels, and rating simple puzzles."""

from __future__ import annotations

import io
import json
import math
import random
import sys

import pytest
from helpers.rating import EULER_01, singles_here

from sudoku_engine import difficulty, logic
from sudoku_engine.board import Board
from sudoku_engine.cli import main
from sudoku_engine.grid import Grid, parse_values
from sudoku_engine.isomorph import canonical, random_isomorph
from sudoku_engine.rating import NotUnique, hodoku_level, rate
from sudoku_engine.techniques import BY_ID, CATALOGUE, length_bonus

# Sudoku Exchange, SE 9.0: needs forcing chains
HARD_SE_9 = ".87.....5.15..64..93.......7..63.5.....2.8.....3.45..2.......34..94..25.5.....19."


@pytest.mark.parametrize(
    "length, bonus",
    # Thresholds 4, 6, 8, 12, 16, 24, 32: each one a chain exceeds adds 0.1.
    [
        (2, 0.0),
        (4, 0.0),
        (5, 0.1),
        (6, 0.1),
        (7, 0.2),
        (8, 0.2),
        (9, 0.3),
        (12, 0.3),
        (13, 0.4),
        (16, 0.4),
        (17, 0.5),
        (24, 0.5),
        (25, 0.6),
        (32, 0.6),
        (33, 0.7),
    ],
)
def test_chain_length_bonus(length, bonus):
    assert length_bonus(length) == bonus


@pytest.mark.parametrize(
    "score, hardest, level",
    [
        (300, "Easy", "Easy"),
        (800, "Easy", "Easy"),
        (801, "Easy", "Medium"),  # a long easy solve is rated by its score
        (1200, "Easy", "Hard"),
        (1700, "Medium", "Unfair"),
        (400, "Hard", "Hard"),  # a short solve is never rated below its hardest step
        (1900, "Hard", "Extreme"),
        (100, "Extreme", "Extreme"),
    ],
)
def test_hodoku_level_rules(score, hardest, level):
    assert hodoku_level(score, hardest) == level


def test_catalogue_is_in_solving_order_and_complete():
    ids = [t.id for t in CATALOGUE]
    assert len(ids) == len(set(ids)) and ids[0] == "full_house" and ids[-1] == "bifurcation"
    singles = ids.index("naked_single")
    assert all(BY_ID[i].tier == 1 for i in ids[: singles + 1])
    assert all(1.0 <= t.se_rating <= 12.0 and t.hodoku_score > 0 for t in CATALOGUE)
    ratings = [t.se_rating for t in CATALOGUE]
    assert ratings == sorted(ratings)  # the order in which the logic solver looks for the easiest step


def test_a_singles_puzzle_rates_easy():
    rating = rate(EULER_01)
    assert rating.se_like <= 2.3
    assert rating.hodoku_level == "Easy"
    assert set(rating.techniques) <= {"full_house", "hidden_single_box", "hidden_single_line", "naked_single"}
    assert sum(rating.techniques.values()) == rating.steps == 81 - 32
    # Score = sum of base scores: 4 for full house and naked single, 14 for hidden singles.
    scores = {"full_house": 4, "naked_single": 4, "hidden_single_box": 14, "hidden_single_line": 14}
    assert rating.hodoku_like == sum(scores[t] * n for t, n in rating.techniques.items())


@pytest.mark.parametrize("puzzle", ["." * 81, "12345678." + "........9" + "." * 63])
def test_rating_needs_a_unique_solution(puzzle):
    with pytest.raises(NotUnique):
        rate(puzzle)


def test_rate_command_records_and_bad_lines(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"{EULER_01}\n{'.' * 81}\n123\n"))
    assert main(["rate", "--jsonl"]) == 2
    captured = capsys.readouterr()
    records = [json.loads(line) for line in captured.out.splitlines()]
    assert len(records) == 1
    assert set(records[0]) == {
        "puzzle",
        "D",
        "label",
        "predicted_minutes",
        "minutes_interval",
        "minutes_extrapolated",
        "effort",
        "hardest_technique",
        "se_like",
        "hodoku_like",
        "hodoku_level",
        "techniques",
        "steps",
        "metrics",
        "ms",
    }
    assert set(records[0]["metrics"]) == {"call_count", "findling", "hsolve", "entropy", "r_reduction", "schemes"}
    assert set(records[0]["metrics"]["schemes"]) == {
        "FC",
        "FCI",
        "BC",
        "BCI",
        "HAC",
        "HACS",
        "HACC",
        "HAC3",
        "HACSC3",
        "FCV",
        "BCV",
        "HACV",
    }
    assert records[0]["puzzle"] == EULER_01 and records[0]["hodoku_level"] == "Easy"
    assert captured.err.splitlines() == [
        "error: stdin:2: the puzzle has more than one solution",
        "error: stdin:3: wrong length: 3 cells, expected 81",
    ]


def test_rate_command_over_two_processes_keeps_input_order(capsys, tmp_path, easy50):
    """--jobs 2 gives the records of --jobs 1, in input order, and still reports the bad line in place."""
    puzzles = easy50[:6]
    path = tmp_path / "batch.txt"
    path.write_text("\n".join([*puzzles[:3], "not a puzzle", *puzzles[3:]]) + "\n")
    outputs = []
    for jobs in ("1", "2"):
        assert main(["rate", "--jsonl", "--jobs", jobs, str(path)]) == 2
        captured = capsys.readouterr()
        outputs.append([{k: v for k, v in json.loads(line).items() if k != "ms"} for line in captured.out.splitlines()])
        assert captured.err.count("\n") == 1 and f"{path}:4:" in captured.err
    assert [r["puzzle"] for r in outputs[1]] == puzzles
    assert outputs[0] == outputs[1]


def test_every_isomorph_gets_the_same_record(easy50):
    """D and every measure are taken on the canonical form: relabelled, permuted and transposed copies agree."""
    rng = random.Random(8)
    hard = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    for puzzle in [*easy50[:2], hard]:
        first = rate(puzzle).as_dict()
        for _ in range(2):
            image = "".join(str(v) for v in random_isomorph(rng).apply(parse_values(puzzle)))
            again = rate(image).as_dict()
            assert {k: v for k, v in again.items() if k not in ("puzzle", "ms")} == {
                k: v for k, v in first.items() if k not in ("puzzle", "ms")
            }


def test_d_orders_an_easy_and_a_hard_puzzle_and_predicts_more_minutes_for_the_hard_one(easy50):
    """A Project Euler easy puzzle (singles) against a forcing-chain puzzle: D, zone and minutes all rise."""
    easy = rate(easy50[0])
    hard = rate(HARD_SE_9)
    assert easy.d < hard.d
    assert easy.label in ("Easy", "Medium") and hard.label in ("Expert", "Extreme")
    assert easy.predicted_minutes < hard.predicted_minutes


def test_a_timeout_is_reported_with_what_was_measured():
    rating = rate(HARD_SE_9, timeout=0.0)
    record = rating.as_dict()
    assert record["timeout"] is True
    assert record["metrics"]["missing"]  # measures after the deadline are named
    assert rating.steps >= 1


def test_effort_adds_each_steps_score_times_the_expected_search():
    """A singles puzzle's effort, recomputed from its trace: per step, the technique's HoDoKu score times
    (empty cells + 1) / (cells a single could fill + 1), on the canonical form that ``rate`` traces."""
    form = canonical(parse_values(EULER_01))
    board = Board.from_values(form)
    expected = 0.0
    for step in logic.solve(Grid(form)).steps:
        empty = board.values.count(0)
        expected += BY_ID[step.technique].hodoku_score * (empty + 1) / (singles_here(board) + 1)
        board.apply(step)
    rating = rate(EULER_01)
    assert rating.effort == pytest.approx(expected)


def test_singles_puzzles_are_easy_and_ordered_by_effort_per_cell():
    """D of a singles puzzle lies from 1.0 to below 2.3 and rises with the effort per empty cell."""
    values = [difficulty.singles_d(math.log(e)) for e in (1, 5, 13, 20, 40, 60, 90, 500)]
    assert all(1.0 <= v < difficulty.SINGLES_TOP for v in values)
    assert values == sorted(values) and values[0] == 1.0 and values[2] < values[5]
    rating = rate(EULER_01)
    assert rating.singles_only and 1.0 <= rating.d < difficulty.SINGLES_TOP and rating.label == "Easy"


def test_zones_rise_with_d():
    labels = [difficulty.zone(d) for d in (1.2, 2.6, 4.2, 6.6, 8.5)]
    assert difficulty.zone(2.29) == "Easy" and difficulty.zone(2.3) == "Medium"
    assert labels == ["Easy", "Medium", "Hard", "Expert", "Extreme"]


def test_rate_command_timeout_marks_the_record(capsys):
    assert main(["rate", "--jsonl", "--timeout", "0.001", HARD_SE_9]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["timeout"] is True and record["metrics"]["missing"]
    with pytest.raises(SystemExit) as stopped:
        main(["rate", "--timeout", "0", HARD_SE_9])
    assert stopped.value.code == 2
    assert "must be positive" in capsys.readouterr().err


def test_the_measures_d_reads_give_the_same_d_without_hsolve():
    """Taking only difficulty.MEASURES leaves hsolve out and D unchanged; a wrong name is refused."""
    full = rate(HARD_SE_9, measures=True)
    lean = rate(HARD_SE_9)
    assert full.metrics.hsolve is not None and lean.metrics.hsolve is None
    assert lean.d == full.d and lean.metrics.call_count == full.metrics.call_count
    with pytest.raises(ValueError, match="unknown measures: shoelace"):
        rate(HARD_SE_9, measures=("shoelace",))


def test_rate_command_measures_option(capsys):
    """By default the command takes the measures D reads; ``all`` adds hsolve; ``none`` takes none."""
    for default in ([], ["--measures", "d"]):
        assert main(["rate", "--jsonl", *default, HARD_SE_9]) == 0
        record = json.loads(capsys.readouterr().out)
        assert record["metrics"]["hsolve"] is None and record["metrics"]["call_count"] is not None
    assert main(["rate", "--jsonl", "--measures", "all", HARD_SE_9]) == 0
    assert json.loads(capsys.readouterr().out)["metrics"]["hsolve"] is not None
    assert main(["rate", "--jsonl", "--measures", "none", HARD_SE_9]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["metrics"]["call_count"] is None and record["D"] > 0


def test_the_refinement_moves_d_at_most_halfway_to_the_neighbouring_techniques():
    """Puzzles of a lower-rated technique never pass those of the next one, whatever their refinement, and across
    a gap of the scale (BUG+1 at 5.6, VWXYZ-Wing at 6.2) D spreads over it, so the slider has puzzles along it."""
    ratings = sorted({t.se_rating for t in CATALOGUE if t.family != "singles"})
    for low, high in zip(ratings, ratings[1:]):
        assert difficulty.spread(low, low, 50.0) <= difficulty.spread(high, high, -50.0)
    top_of_bug = difficulty.spread(5.6, 5.6, 50.0)
    bottom_of_vwxyz = difficulty.spread(6.2, 6.2, -50.0)
    assert top_of_bug == pytest.approx(5.9) and bottom_of_vwxyz == pytest.approx(5.9)
    assert difficulty.spread(3.2, 3.2, 50.0) == pytest.approx(3.3)  # X-Wing: halfway to Hidden Pair (3.4)
    assert difficulty.spread(4.0, 4.0, 1.0) - 4.0 == pytest.approx(0.05 * math.tanh(1.0))  # 2-String Kite at 4.1
    assert difficulty.widths(9.5, 9.5)[1] == difficulty.MAX_WIDTH  # nothing within 1.0 above nested forcing chains
