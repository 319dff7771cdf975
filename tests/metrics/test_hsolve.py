"""hsolve (seed 002): the cost formula, hand-worked positions, singles-only runs re-derived, validity on a sample."""

from __future__ import annotations

import importlib.util
import math
import statistics
from itertools import combinations
from types import ModuleType

import pytest
from helpers.corpus import REPO, corpus_file

from sudoku_engine.board import Board
from sudoku_engine.grid import cell_name, parse_values
from sudoku_engine.metrics import hsolve as hs
from sudoku_engine.solver import solve
from sudoku_engine.techniques import BY_ID, CATALOGUE

# A solved grid (Project Euler 96, grid 1) and its puzzle, which singles alone solve.
EULER_1 = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
SOLVED_1 = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"


def _blank(grid: str, cells: list[int]) -> str:
    """The grid with the given cells emptied."""
    chars = list(grid)
    for cell in cells:
        chars[cell] = "."
    return "".join(chars)


def test_expected_checks_hand_values() -> None:
    # (p + 1) / (v + 1): 9 possible, 1 valid -> 10 / 2 = 5; 3 of 3 valid -> the first check succeeds.
    assert hs.expected_checks(9, 1) == 5.0
    assert hs.expected_checks(3, 3) == 1.0
    assert hs.expected_checks(4, 4) == 1.0
    # nothing valid: the whole tier is searched, p checks; an empty tier costs nothing
    assert hs.expected_checks(7, 0) == 7.0
    assert hs.expected_checks(0, 0) == 0.0


@pytest.mark.parametrize(("p", "v"), [(p, v) for p in range(1, 7) for v in range(1, p + 1)])
def test_expected_checks_is_lemma_1(p: int, v: int) -> None:
    # Lemma 1 by brute force: over all C(p, v) equally likely places of the valid applications in the search
    # order, the mean position (1-based) of the first valid one.
    firsts = [min(chosen) + 1 for chosen in combinations(range(p), v)]
    assert hs.expected_checks(p, v) == pytest.approx(sum(firsts) / len(firsts))


def test_one_naked_single_from_solved_costs_one() -> None:
    # One empty cell (r5c5): it is a possible naked single, and its row, column and box each have one open
    # digit: p = 4. All four hold (the cell has one candidate, the digit one place in each house): v = 4.
    # E = (4 + 1) / (4 + 1) = 1, and the grid is solved: every run costs exactly 1.
    position = _blank(SOLVED_1, [40])
    possible, valid = hs.singles(Board.from_values(parse_values(position)))
    assert (possible, len(valid)) == (4, 4)
    result = hs.hsolve(position, runs=5)
    assert result.per_run == (1.0,) * 5
    assert result.mean == 1.0 and result.sigma == 0.0 and not result.capped and result.solved
    # a solved grid needs no check at all
    assert hs.hsolve(SOLVED_1, runs=3).per_run == (0.0, 0.0, 0.0)


def test_three_blanks_hand_worked() -> None:
    # Blank A = r1c1 (4), B = r1c2 (8), both in box 1, and C = r8c1, the 8 of column 1 (box 7).
    # A: row 1, column 1 and box 1 all miss {4, 8}, so A holds 4/8; B (column 2 misses only 8) and C (row 8
    # misses only 8) are naked singles.
    # Tier 1: p = 3 empty cells + 9 open (house, digit) pairs (each house has as many open digits as empty
    # cells: row 1 {4,8}, row 8 {8}, column 1 {4,8}, column 2 {8}, box 1 {4,8}, box 7 {8}) = 12.
    # Valid: naked B, C (2); hidden: row 1 4->A, row 8 8->C, column 1 4->A, column 2 8->B, box 1 4->A,
    # box 7 8->C (6; 8 has two places in row 1, column 1 and box 1). v = 8, E = 13 / 9.
    # Whichever is placed, the two cells left are naked singles seen in every house: p = v = 8, E = 1,
    # and then p = v = 4, E = 1. Every run costs 13/9 + 2 = 31/9.
    a, b, c = 0, 1, 63
    assert (SOLVED_1[a], SOLVED_1[b], SOLVED_1[c]) == ("4", "8", "8")
    position = _blank(SOLVED_1, [a, b, c])
    board = Board.from_values(parse_values(position))
    possible, valid = hs.singles(board)
    assert possible == 12
    assert sorted(valid) == sorted(
        [
            (b, 8, -1),
            (c, 8, -1),  # naked
            (a, 4, 0),
            (c, 8, 7),
            (a, 4, 9),
            (b, 8, 10),
            (a, 4, 18),
            (c, 8, 24),  # rows 1, 8; cols 1, 2; boxes 1, 7
        ]
    )
    result = hs.hsolve(position, runs=8, seed=3)
    assert result.per_run == pytest.approx((31 / 9,) * 8)
    # Tier 2 there (by hand): pointing/claiming configurations are the (house, digit) pairs with 2-3 places:
    # 8 in box 1 (A, B), 8 in row 1 (A, B), 8 in column 1 (A, C) -> 3. Only A is bivalue, so no set of two or
    # three small cells exists, and no house has two digits of 2-3 places: p = 3. Nothing to eliminate: v = 0.
    assert hs.possible_applications(board, 2) == 3
    assert hs.valid_applications(board, 2) == ()


def test_families_cover_the_catalogue_once_within_a_tier() -> None:
    ids = [t for family in hs.FAMILIES for t in family.techniques]
    assert sorted(ids) == sorted(t.id for t in CATALOGUE)
    for family in hs.FAMILIES:
        assert len({BY_ID[t].tier for t in family.techniques}) == 1, family.name
    assert hs.TIERS == (1, 2, 3, 4, 5, 6)


def test_tier_one_count_matches_its_families() -> None:
    # p of tier 1 from the fast path (4 x empty cells) against the two family counts on real positions.
    for puzzle in [EULER_1, "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"]:
        board = Board.from_values(parse_values(puzzle))
        assert hs.singles(board)[0] == hs.possible_applications(board, 1)
        empty = sum(1 for v in board.values if not v)
        assert hs.possible_applications(board, 1) == 4 * empty


def _finder_singles(board: Board) -> int:
    """Valid tier-1 applications counted by the catalogue's own finders (full house aside: it repeats a hidden one)."""
    return sum(1 for tid in ("naked_single", "hidden_single_box", "hidden_single_line") for _ in BY_ID[tid].find(board))


def test_singles_only_run_cost_rederived() -> None:
    # Project Euler grid 1 needs singles only. Replay each run: before every move, p = 4 x empty cells
    # (each empty cell, and as many open (house, digit) pairs as empty cells in each of its three houses),
    # v = what the catalogue's singles finders report, and the run costs the sum of (p + 1) / (v + 1).
    for run in range(3):
        record = hs.hsolve_run(EULER_1, seed=11, run=run)
        board = Board.from_values(parse_values(EULER_1))
        total = 0.0
        for move in record.moves:
            assert [s.tier for s in move.searches] == [1]
            empty = sum(1 for v in board.values if not v)
            v = _finder_singles(board)
            assert (move.searches[0].possible, move.searches[0].valid) == (4 * empty, v)
            total += (4 * empty + 1) / (v + 1)
            board.apply(move.step)
        assert record.solved and board.is_solved
        assert record.cost == pytest.approx(total)
        assert len(record.moves) == EULER_1.count(".")
    # the aggregate runs are those same runs
    assert hs.hsolve(EULER_1, runs=3, seed=11).per_run == tuple(
        hs.hsolve_run(EULER_1, seed=11, run=r).cost for r in range(3)
    )


def test_deterministic_for_a_seed_and_seeds_differ() -> None:
    first = hs.hsolve(EULER_1, runs=20, seed=5)
    assert first == hs.hsolve(EULER_1, runs=20, seed=5)
    assert first.per_run != hs.hsolve(EULER_1, runs=20, seed=6).per_run
    assert len(set(first.per_run)) > 1  # the random choices change the cost
    assert first.mean == pytest.approx(statistics.mean(first.per_run))
    assert first.sigma == pytest.approx(statistics.stdev(first.per_run))
    assert first.cv == pytest.approx(first.sigma / first.mean)
    # a Board of the puzzle is the same input
    assert hs.hsolve(Board.from_values(parse_values(EULER_1)), runs=20, seed=5) == first


def _sample() -> list[str]:
    """A few rated Sudoku Exchange puzzles across the scale (SE 3 to 8), which reach tiers 2 to 5 or 6."""
    path = corpus_file("sudokuexchange_graded_even.tsv")
    rows = [line.split("\t") for line in path.read_text().splitlines()[1:]]
    wanted = ["3.0", "4.5", "6.6", "7.2", "8.0"]
    return [next(r[0] for r in rows if r[1] == se) for se in wanted]


def test_every_applied_step_is_true_and_runs_end_solved() -> None:
    tiers_seen: set[int] = set()
    for puzzle in _sample():
        solution = solve(puzzle)
        assert solution is not None
        record = hs.hsolve_run(puzzle, seed=2, run=1)
        board = Board.from_values(parse_values(puzzle))
        for move in record.moves:
            step = move.step
            for cell, digit in step.placements:
                assert solution.values[cell] == digit, f"{step.technique} places {digit} in {cell_name(cell)}"
            for cell, digit in step.eliminations:
                assert solution.values[cell] != digit, f"{step.technique} removes {digit} from {cell_name(cell)}"
            # tiers searched in order, the fruitless ones first, and the step from the last one
            tiers = [s.tier for s in move.searches]
            assert tiers == list(range(1, len(tiers) + 1))
            assert all(s.valid == 0 for s in move.searches[:-1]) and move.searches[-1].valid > 0
            assert all(0 <= s.valid <= s.possible for s in move.searches)
            assert all(s.cost == hs.expected_checks(s.possible, s.valid) for s in move.searches)
            assert BY_ID[step.technique].tier == tiers[-1]
            tiers_seen.add(tiers[-1])
            board.apply(step)
        assert record.solved and not record.capped
        assert board.values == list(solution.values)
        assert record.cost == pytest.approx(sum(m.cost for m in record.moves))
    assert {1, 2, 3, 4}.issubset(tiers_seen)


def test_work_cap_is_reported() -> None:
    hard = _sample()[-1]
    capped = hs.hsolve(hard, runs=3, cap=0)
    assert capped.capped and not capped.solved
    assert len(capped.per_run) == 1  # no run finished: the unfinished one's cost so far stands in
    # that lower bound is the cost of the first run up to its first tier-2 search
    full = hs.hsolve_run(hard, seed=0, run=0)
    first_hard = next(i for i, m in enumerate(full.moves) if len(m.searches) > 1)
    before = sum(m.cost for m in full.moves[:first_hard]) + full.moves[first_hard].searches[0].cost
    assert capped.mean == pytest.approx(before)
    # a singles-only puzzle needs no search of the harder tiers: the cap never bites
    assert not hs.hsolve(EULER_1, runs=2, cap=0).capped
    # with room for some runs only, the finished ones are kept
    some = hs.hsolve(hard, runs=20, cap=hs.hsolve(hard, runs=2).work)
    assert 2 <= len(some.per_run) < 20 and some.capped
    assert not hs.hsolve(hard, runs=2).capped


def test_kept_searches_equal_fresh_searches() -> None:
    # A run reuses the searches kept for positions it has seen; replaying its moves, every harder tier's
    # p and v equal a fresh count on the same position (p floored at v).
    puzzle = _sample()[3]
    record = hs.hsolve_run(puzzle, seed=0, run=0)
    board = Board.from_values(parse_values(puzzle))
    checked = 0
    for move in record.moves:
        for search in move.searches[1:]:
            fresh = len(hs.valid_applications(board, search.tier))
            assert search.valid == fresh
            assert search.possible == max(hs.possible_applications(board, search.tier), fresh)
            checked += 1
        board.apply(move.step)
    assert checked > 0


def _stats() -> ModuleType:
    """The benchmarks' shared statistics, benchmarks/corpus_stats.py, loaded by path (benchmarks is not a package)."""
    path = REPO / "benchmarks" / "corpus_stats.py"
    spec = importlib.util.spec_from_file_location("corpus_stats_under_test", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_goodman_kruskal_gamma_hand_cases() -> None:
    gamma = _stats().goodman_kruskal_gamma
    # pairs (1,2) and (1,3) concordant, (2,3) discordant: (2 - 1) / 3
    assert gamma([1, 2, 3], [1, 3, 2]) == pytest.approx(1 / 3)
    # the pair tied in x is left out; the other two are concordant
    assert gamma([1, 1, 2], [1, 2, 3]) == 1.0
    assert gamma([1, 2, 3, 4], [8, 6, 4, 2]) == -1.0
    # grades with ties against a score: 2 grades x 2 puzzles, (a1,b1) (a1,b2) (a2,b1) concordant, (a2,b2) discordant
    assert gamma([0, 0, 1, 1], [1.0, 5.0, 3.0, 9.0]) == pytest.approx((3 - 1) / 4)
    assert math.isnan(gamma([1, 1], [2, 3]))
    with pytest.raises(ValueError):
        gamma([1, 2], [1])


def test_spearman_rho_hand_case() -> None:
    stats = _stats()
    # d = (-1, 1, -1, 1, 0), sum d^2 = 4: rho = 1 - 6 * 4 / (5 * 24) = 0.8
    assert stats.spearman([1, 2, 3, 4, 5], [2, 1, 4, 3, 5]) == pytest.approx(0.8)
    assert stats.average_ranks([10, 20, 20, 30]) == [1.0, 2.5, 2.5, 4.0]
