"""Full grids and dig-hole generation (seed 004, section 8, approach 3)."""

from __future__ import annotations

import random

import pytest
from helpers.corpus import corpus_file, read_puzzles

from sudoku_engine import deadline, difficulty, solver
from sudoku_engine import generate as generate_module
from sudoku_engine.generate import (
    MAX_GIVENS,
    Measured,
    dig_holes,
    dig_path,
    generate,
    generate_puzzle,
    random_full_grid,
    staged_se_like,
)
from sudoku_engine.grid import Grid, is_valid_solution, parse_values
from sudoku_engine.isomorph import canonical
from sudoku_engine.metrics import simonis
from sudoku_engine.metrics.fatemi import call_count
from sudoku_engine.rating import rate
from sudoku_engine.slider import describe, slider_for_d, target_for_slider
from sudoku_engine.slider_knots import KNOTS
from sudoku_engine.solver import count_solutions
from sudoku_engine.techniques import CATALOGUE

SINGLES = {t.id for t in CATALOGUE if t.family == "singles"}
AI_ESCARGOT = "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3.."


@pytest.mark.parametrize("seed", range(5))
def test_random_full_grids_are_valid_and_seeded(seed):
    grid = random_full_grid(random.Random(seed))
    assert is_valid_solution([0] * 81, grid.values)
    assert random_full_grid(random.Random(seed)) == grid


def test_different_seeds_give_different_grids():
    assert len({random_full_grid(random.Random(seed)) for seed in range(20)}) == 20


@pytest.mark.parametrize("seed", range(8))
def test_free_pattern_puzzles_are_unique_and_locally_minimal(seed):
    made = generate_puzzle(seed=seed, symmetric=False)
    puzzle = list(made.puzzle.values)
    assert is_valid_solution(puzzle, made.solution.values)
    assert solver.count_solutions(puzzle) == 1
    for cell in (c for c in range(81) if puzzle[c]):
        fewer = puzzle[:]
        fewer[cell] = 0
        assert solver.count_solutions(fewer) == 2, f"given at {cell} is redundant"


@pytest.mark.parametrize("seed", range(8))
def test_symmetric_puzzles_are_unique_symmetric_and_pair_minimal(seed):
    made = generate_puzzle(seed=seed, symmetric=True)
    puzzle = list(made.puzzle.values)
    assert solver.count_solutions(puzzle) == 1
    assert all(bool(puzzle[c]) == bool(puzzle[80 - c]) for c in range(81))
    for cell in (c for c in range(41) if puzzle[c]):
        fewer = puzzle[:]
        fewer[cell] = fewer[80 - cell] = 0
        assert solver.count_solutions(fewer) == 2


def test_generation_is_reproducible_from_its_seed():
    first = generate_puzzle(seed=1234)
    assert generate_puzzle(seed=first.seed) == first
    assert generate_puzzle(seed=1235) != first
    unseeded = generate_puzzle()
    assert generate_puzzle(seed=unseeded.seed) == unseeded


@pytest.mark.parametrize("givens", [17, 30, 46, 60, 81])
def test_the_dig_stops_at_the_requested_givens(givens):
    for seed in range(3):
        made = generate_puzzle(seed=seed, givens=givens, symmetric=False)
        assert solver.count_solutions(made.puzzle) == 1
        assert made.puzzle.givens >= givens
        if givens >= 30:
            assert made.puzzle.givens == givens  # far above minimality, single removals always reach it


def test_dig_holes_keeps_the_solution():
    rng = random.Random(7)
    full = random_full_grid(rng)
    puzzle = dig_holes(full, rng, symmetric=False)
    assert is_valid_solution(puzzle.values, full.values)
    assert solver.solve(puzzle) == full


@pytest.mark.parametrize("bad", [16, 82])
def test_givens_out_of_range_are_refused(bad):
    with pytest.raises(ValueError, match="givens"):
        generate_puzzle(seed=1, givens=bad)


# Search-free dig (seed 004, section 8) -------------------------------------------------------------------------


def _fills_by_singles(values: list[int], hidden: bool) -> bool:
    """Naked singles (and hidden singles when ``hidden``) until stuck, written apart from the schemes' code: True
    when the grid fills."""
    values = list(values)
    houses = [[9 * r + c for c in range(9)] for r in range(9)] + [[9 * r + c for r in range(9)] for c in range(9)]
    houses += [[9 * (3 * (b // 3) + i) + 3 * (b % 3) + j for i in range(3) for j in range(3)] for b in range(9)]
    while not all(values):
        options = [
            set(range(1, 10)) - {values[p] for h in houses if c in h for p in h} if not values[c] else set()
            for c in range(81)
        ]
        moves = {c: min(options[c]) for c in range(81) if len(options[c]) == 1}
        for house in houses if hidden else []:
            for d in set(range(1, 10)) - {values[c] for c in house}:
                places = [c for c in house if d in options[c]]
                if len(places) == 1:
                    moves.setdefault(places[0], d)
        if not moves:
            return False
        for c, d in moves.items():
            values[c] = d
    return True


def _removals(puzzle: list[int], symmetric: bool) -> list[list[int]]:
    """The puzzle with each given (each mirrored pair when symmetric) removed in turn."""
    out = []
    for cell in (c for c in range(41 if symmetric else 81) if puzzle[c]):
        fewer = list(puzzle)
        fewer[cell] = 0
        if symmetric:
            fewer[80 - cell] = 0
        out.append(fewer)
    return out


@pytest.mark.parametrize(
    "scheme, seed, symmetric",
    [
        ("FC", 0, False),
        ("FC", 1, True),
        ("FCI", 2, False),
        ("BC", 3, False),
        ("BCI", 4, False),
        ("HAC", 5, False),
        ("HACS", 6, True),
        ("HAC3", 7, False),
        ("FCV", 8, False),
        ("BCV", 9, False),
    ],
)
def test_search_free_dig_is_solved_by_its_scheme_unique_and_minimal_for_it(scheme, seed, symmetric):
    made = generate_puzzle(seed=seed, symmetric=symmetric, scheme=scheme)
    puzzle = list(made.puzzle.values)
    assert is_valid_solution(puzzle, made.solution.values)
    assert solver.count_solutions(puzzle) == 1
    assert simonis.run_scheme(puzzle, scheme).solved
    for fewer in _removals(puzzle, symmetric):
        assert not simonis.run_scheme(fewer, scheme).solved, "a further given could go, search-free still"


@pytest.mark.parametrize("seed", range(3))
def test_forward_checking_digs_are_naked_singles_puzzles_checked_by_a_separate_solver(seed):
    """FC is naked singles, FCI adds hidden singles: the dug puzzles fill by those singles, and with any one given
    less they do not (by a solver written here)."""
    for scheme, hidden in (("FC", False), ("FCI", True)):
        puzzle = list(generate_puzzle(seed=seed, symmetric=False, scheme=scheme).puzzle.values)
        assert _fills_by_singles(puzzle, hidden)
        assert not any(_fills_by_singles(fewer, hidden) for fewer in _removals(puzzle, symmetric=False))


def test_search_free_dig_stops_at_the_requested_givens_and_keeps_the_grid():
    rng_seed = 12
    plain = generate_puzzle(seed=rng_seed, symmetric=False)
    made = generate_puzzle(seed=rng_seed, givens=40, symmetric=False, scheme="HAC")
    assert made.solution == plain.solution  # the same seeded grid and removal order
    assert made.puzzle.givens == 40 and simonis.hac(made.puzzle).solved


def test_search_free_dig_refuses_an_unknown_scheme():
    with pytest.raises(ValueError, match="unknown scheme 'XYZ'"):
        generate_puzzle(seed=1, scheme="XYZ")
    with pytest.raises(ValueError, match="unknown scheme"):
        dig_holes(random_full_grid(random.Random(1)), random.Random(2), scheme="hac")


# Targeted generation -----------------------------------------------------------------------------------------


def test_staged_se_like_agrees_with_the_full_rating(se_sample):
    """Exact at or below the ceiling (and equal to the full trace's se_like whenever exact), else a lower bound
    above the ceiling."""
    for puzzle in se_sample:
        full = rate(puzzle, measures=False).se_like
        for ceiling in (1.5, 2.6, 4.4, 6.7, 7.3, 8.2):
            staged = staged_se_like(parse_values(puzzle), ceiling)
            assert staged.exact or full > ceiling, (puzzle, ceiling)
            if staged.exact:
                assert staged.value == full, (puzzle, ceiling)
            else:
                assert ceiling < staged.value <= full, (puzzle, ceiling)
            # Traced as given, the canonical form is the same trace.
            assert staged_se_like(canonical(parse_values(puzzle)), ceiling, as_given=True) == staged


def test_staged_se_like_rates_singles_puzzles_as_the_trace_does():
    """Puzzles the singles solve are rated by closures, not a trace: every kind of single must come out as the
    logic solver's trace says (points of dig paths cover all four)."""
    levels = set()
    for seed in range(6):
        rng = random.Random(seed)
        path = dig_path(random_full_grid(rng), rng, symmetric=False)
        for values in path[::3]:
            full = rate(values, measures=False)
            if set(full.techniques) <= SINGLES:
                assert staged_se_like(values, 9.0) == Measured(full.se_like, True), values
                levels.add(full.se_like)
    assert levels == {1.0, 1.2, 1.5, 2.3}


def test_exactly_measured_puzzles_cost_less_than_puzzles_known_to_be_harder():
    search = generate_module._Search("D", 4.76, 0.2, deadline=0.0)
    exact_far = search.cost(Measured(1.2, True))
    harder_near = search.cost(Measured(5.0, False))
    assert exact_far < harder_near
    assert search.cost(Measured(4.6, True)) < exact_far
    assert search.cost(Measured(5.2, False)) < search.cost(Measured(6.6, False))


@pytest.mark.parametrize("target", [1.5, 2.6, 4.2, 7.2])
def test_generate_hits_a_target_d_checked_by_an_independent_rating(target):
    found = generate(target, seed=7, budget_s=20)
    assert found.hit and found.rating is not None
    assert count_solutions(found.puzzle.values) == 1
    assert is_valid_solution(found.puzzle.values, found.solution.values)
    rating = rate(found.puzzle, measures=difficulty.MEASURES)
    assert rating.d == found.value and abs(rating.d - target) <= found.tolerance
    assert generate(target, seed=7, budget_s=20).puzzle == found.puzzle  # a hit is reproducible


def test_generate_reaches_the_unique_rectangle_levels():
    """D 4.76 (slider 55) needs a Unique Rectangle type 2-4 or a Hidden Rectangle as the hardest step."""
    found = generate(4.76, seed=14, budget_s=30)
    assert found.hit
    rating = rate(found.puzzle, measures=difficulty.MEASURES)
    assert count_solutions(found.puzzle.values) == 1
    assert rating.d == found.value and abs(rating.d - 4.76) <= 0.2
    assert rating.hardest_technique in {
        "unique_rectangle_2",
        "unique_rectangle_3",
        "unique_rectangle_4",
        "hidden_rectangle",
        "naked_quad",
    }


def test_generate_symmetric_pattern_and_se_like_metric():
    found = generate(4.2, seed=3, budget_s=20, metric="se_like", symmetric=True)
    assert found.hit and found.rating is None
    assert rate(found.puzzle, measures=False).se_like == found.value
    values = found.puzzle.values
    assert all(bool(values[c]) == bool(values[80 - c]) for c in range(81))


def test_an_unreachable_target_returns_the_closest_found_flagged():
    found = generate(0.5, seed=1, budget_s=0.3)
    assert not found.hit and found.rating is not None and found.value == found.rating.d
    assert count_solutions(found.puzzle.values) == 1
    assert found.value < 1.5  # the easiest puzzles on the way are the closest


def test_generate_for_seed_000s_call_count():
    found = generate(29.2, seed=4, budget_s=20, metric="call_count")
    assert found.hit and found.tolerance == pytest.approx(0.05 * 29.2)
    assert call_count(canonical(found.puzzle.values)).mean == found.value


def test_targeted_puzzles_keep_to_the_givens_limit():
    """At most MAX_GIVENS (40) givens by default, at most the limit given, and the easiest targets still hit."""
    easy = generate(target_for_slider(2), seed=5, budget_s=20)
    assert easy.hit and 81 - easy.puzzle.values.count(0) <= MAX_GIVENS == 40
    tight = generate(target_for_slider(10), seed=6, budget_s=20, max_givens=32)
    assert 81 - tight.puzzle.values.count(0) <= 32 and count_solutions(tight.puzzle.values) == 1
    loose = generate(1.0, seed=2, budget_s=0.5, max_givens=None)
    assert 81 - loose.puzzle.values.count(0) > MAX_GIVENS  # unlimited, the lowest D is a nearly full grid


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"metric": "hardness"}, "unknown metric"),
        ({"tolerance": 0}, "must be positive"),
        ({"budget_s": 0}, "must be positive"),
    ],
)
def test_generate_rejects_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        generate(3.0, **kwargs)


# The slider ------------------------------------------------------------------------------------------------------


def test_the_slider_is_monotone_from_singles_to_the_hardest_known():
    values = [target_for_slider(s / 4) for s in range(401)]
    assert all(a <= b for a, b in zip(values, values[1:]))
    assert values[0] < 2.0 and difficulty.zone(values[-1]) == "Extreme"
    hardest = rate(AI_ESCARGOT, measures=difficulty.MEASURES).d
    assert values[-1] >= hardest - 0.5  # the top reaches the famous hardest puzzles


def test_the_slider_top_keeps_rising_and_its_minutes_rise_with_it():
    """Slider 95-100 rises at every unit (no flat top: the hardest puzzles get distinct D); the minutes the page
    predicts never fall along the slider and are at least 8 times as many at slider 95 as at slider 5."""
    assert all(a < b for a, b in zip(KNOTS[95:], KNOTS[96:]))
    minutes = [describe(s / 2).predicted_minutes for s in range(201)]
    assert all(a <= b for a, b in zip(minutes, minutes[1:]))
    assert minutes[190] >= 8 * minutes[10]


def test_slider_and_d_invert_each_other():
    for s in (0.0, 12.5, 40.0, 63.0, 88.0, 100.0):
        d = target_for_slider(s)
        assert target_for_slider(slider_for_d(d)) == pytest.approx(d, abs=1e-9)
    described = describe(55)
    assert round(target_for_slider(55), 3) == described.D
    assert described.label == difficulty.zone(target_for_slider(55))


@pytest.mark.parametrize("bad", [-1, 100.5, float("nan"), "50"])
def test_bad_slider_values_are_refused(bad):
    with pytest.raises(ValueError, match="slider must be a number from 0 to 100"):
        target_for_slider(bad)


@pytest.fixture(scope="module")
def se_sample() -> list[str]:
    """30 puzzles spread over the Sudoku Exchange file (sorted by rating: easy to SE 9)."""
    puzzles = read_puzzles(corpus_file("sudokuexchange_graded_even.tsv"))
    return puzzles[:: len(puzzles) // 30][:30]


def test_a_dig_path_meets_the_target_with_its_fullest_hit():
    """On a path whose measure rises with each removal, the search answers with the first point inside the
    tolerance (the most givens), not the first hit its bisection lands on."""
    values = [(k,) * 81 for k in range(40)]  # stand-ins for 40 puzzles along a dig path
    search = generate_module._Search("D", 2.0, 0.25, deadline=float("inf"))
    search.measure_of = lambda puzzle, target, tolerance: Measured(0.1 * puzzle[0], True)
    solution = Grid(tuple(values[0]))
    chosen = search.nearest_on_path(values, solution)
    assert chosen == values[18]  # 1.8 is the first value within 2.0 +- 0.25; 1.7 is not
    assert search.best is not None and search.best[1] == values[18] and search.hit(search.best[3])


def test_a_budget_that_runs_out_inside_a_measure_ends_the_search_with_the_best_before(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The search's deadline is checked inside a measure (a rating's nets, the seed measures): when it passes there,
    ``generate`` answers at once with the best puzzle measured before, not after the measure would have ended."""
    module = generate_module
    real = module.METRICS["D"]
    calls: list[int] = []

    def measure(values: tuple[int, ...], target: float, tolerance: float) -> module.Measured:
        if len(calls) == 3:
            raise deadline.TimeUp("the time limit has passed")
        calls.append(1)
        return real(values, target, tolerance)

    monkeypatch.setitem(module.METRICS, "D", measure)
    made = module.generate(11.5, budget_s=600, seed=5)
    assert len(calls) == 3 and not made.hit
    assert made.rating is not None and not made.rating.timeout and made.rating.d == made.value
