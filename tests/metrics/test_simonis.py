"""Seed 004 (Simonis): propagation schemes, shaving, the scheme lattice, well-posedness, minimality, reduction.

Hand-worked positions are 81 candidate masks, every cell open to all nine digits except where a comment says
otherwise; the expected masks were derived by reasoning about the constraints named beside each case. Corpus
checks compare every fixpoint with the exact solver's solution and with the other schemes' fixpoints.
"""

from __future__ import annotations

import random
from itertools import permutations

import pytest
from helpers.corpus import corpus_file, read_puzzles

from sudoku_engine.grid import ALL_CANDIDATES, BOXES, COLS, ROWS, Grid, bit, parse_cell
from sudoku_engine.metrics import _matching, simonis
from sudoku_engine.metrics.simonis import SCHEMES, Outcome, propagate
from sudoku_engine.solver import count_solutions, solve

EVERY = SCHEMES + simonis.EXTRA_SCHEMES


def open_grid(**cells: set[int]) -> list[int]:
    """81 masks, all digits everywhere except the named cells (``r1c2={1, 2}``), which get the given digits."""
    masks = [ALL_CANDIDATES] * 81
    for name, digits in cells.items():
        masks[parse_cell(name)] = sum(bit(d) for d in digits)
    return masks


def without(masks: list[int], cells: list[int], digits: set[int]) -> list[int]:
    """A copy of ``masks`` with the digits removed from the cells."""
    out = list(masks)
    clear = ~sum(bit(d) for d in digits)
    for c in cells:
        out[c] &= clear
    return out


def cells_of(*names: str) -> list[int]:
    """Cell numbers of r?c? names."""
    return [parse_cell(n) for n in names]


# ---- hand-worked cases ---------------------------------------------------------------------------------------
def test_naked_pair_in_the_middle_of_the_values_needs_hac() -> None:
    # Row 1: r1c1 and r1c2 hold {3, 7}, r1c3 holds {5, 6}, the rest all digits. No cell has one value, so FC
    # does nothing. HAC: {r1c1, r1c2} is a Hall set of size 2 in row 1 and in box 1, so 3 and 7 leave the other
    # cells of both units; nothing else follows. The paper's BC scans, for each maximum, the cells below it by
    # decreasing minimum: below 7 come r1c3 (min 5) then the pair, whose unions {5,6}, {3,5,6,7} are never as
    # small as the count, and below 9 every prefix starts with r1c3 too, so BC finds no exhausted set.
    start = open_grid(r1c1={3, 7}, r1c2={3, 7}, r1c3={5, 6})
    assert propagate(start, "FC").masks == tuple(start)
    assert propagate(start, "BC").masks == tuple(start)
    expected = without(start, [c for c in ROWS[0] + BOXES[0] if c not in cells_of("r1c1", "r1c2")], {3, 7})
    assert propagate(start, "HAC").masks == tuple(expected)


def test_low_pair_is_an_exhausted_set_for_bc_but_not_for_fc() -> None:
    # r1c1 and r1c2 hold {1, 2}: below the maximum 2 they are the only cells, and together they use exactly 2
    # values, so BC removes 1 and 2 from row 1 and box 1 (textbook bounds consistency agrees: [1, 2] is a Hall
    # interval). FC needs a fixed cell and finds none.
    start = open_grid(r1c1={1, 2}, r1c2={1, 2})
    assert propagate(start, "FC").masks == tuple(start)
    expected = without(start, [c for c in ROWS[0] + BOXES[0] if c not in cells_of("r1c1", "r1c2")], {1, 2})
    assert propagate(start, "BC").masks == tuple(expected)
    assert propagate(start, "BCZ").masks == tuple(expected)


def test_hidden_single_is_found_by_channeling_not_by_fc() -> None:
    # Digit 5 is removed from every cell of row 1 but r1c5. FC sees no fixed cell. FCI's dual variable "where
    # is 5 in row 1" has one position left, so r1c5 = 5, and then 5 leaves column 5 and box 2.
    start = without(open_grid(), [c for c in ROWS[0] if c != parse_cell("r1c5")], {5})
    assert propagate(start, "FC").masks == tuple(start)
    r1c5 = parse_cell("r1c5")
    expected = without(start, [c for c in COLS[4] + BOXES[1] if c != r1c5], {5})
    expected[r1c5] = bit(5)
    assert propagate(start, "FCI").masks == tuple(expected)


def test_same_constraint_does_pointing_that_hac_misses() -> None:
    # Digit 4 is removed from rows 2 and 3 of box 1, so in box 1 it lies in row 1. HAC sees no Hall set in any
    # unit (six cells of eight values, 4 still in three cells of the box). S for (row 1, box 1): the cells of
    # row 1 outside box 1 keep only values that box 1 holds outside row 1, which lacks 4: 4 leaves r1c4..r1c9.
    # The per-value rows/blocks matching of band 1 makes the same deduction (row 1 must take box 1 for 4).
    start = without(open_grid(), [9, 10, 11, 18, 19, 20], {4})
    assert propagate(start, "HAC").masks == tuple(start)
    expected = without(start, ROWS[0][3:], {4})
    assert propagate(start, "HACS").masks == tuple(expected)
    assert propagate(start, "HAC3").masks == tuple(expected)
    assert propagate(start, "HACC").masks == tuple(start)


def test_same_constraint_works_down_columns_too() -> None:
    # Digit 6 is removed from columns 2 and 3 of box 1, so in box 1 it lies in column 1. S for (column 1,
    # box 1): column 1 below box 1 keeps only values box 1 holds outside column 1, which lacks 6.
    start = without(open_grid(), [1, 2, 10, 11, 19, 20], {6})
    assert propagate(start, "HAC").masks == tuple(start)
    expected = without(start, COLS[0][3:], {6})
    assert propagate(start, "HACS").masks == tuple(expected)
    assert propagate(start, "HAC3").masks == tuple(expected)


def test_colored_matrix_finds_an_x_wing() -> None:
    # Digit 1 lies only in columns 1 and 5 of rows 1 and 2. For digit 1 the rows x columns matching has rows
    # 1 and 2 sharing the two columns {1, 5}, a Hall set, so 1 leaves columns 1 and 5 in rows 3..9. Each unit
    # alone still holds 1 in at least two cells, so HAC does nothing.
    keep = set(cells_of("r1c1", "r1c5", "r2c1", "r2c5"))
    start = without(open_grid(), [c for c in ROWS[0] + ROWS[1] if c not in keep], {1})
    assert propagate(start, "HAC").masks == tuple(start)
    expected = without(start, [c for c in COLS[0] + COLS[4] if c not in keep], {1})
    assert propagate(start, "HACC").masks == tuple(expected)


def test_shaving_removes_a_value_whose_trial_fails() -> None:
    # r1c1 {1, 2}, r1c2 {1, 3}, r1c3 {1, 3}; FC finds nothing fixed. The sweep runs in reading order.
    # r1c1 = 1 fixes r1c2 and r1c3 to 3, which empties one of them: 1 is shaved, r1c1 = 2, and 2 leaves row 1,
    # column 1 and box 1. Trials in r1c2 and r1c3 succeed. Then any 1 or 3 placed elsewhere in row 1 or box 1
    # (both units hold r1c2 and r1c3) leaves the pair one digit for two cells: those trials fail, so 1 and 3
    # are shaved there. Elsewhere a trial touches at most one of the pair and succeeds.
    start = open_grid(r1c1={1, 2}, r1c2={1, 3}, r1c3={1, 3})
    assert propagate(start, "FC").masks == tuple(start)
    r1c1, r1c2, r1c3 = cells_of("r1c1", "r1c2", "r1c3")
    expected = without(start, [c for c in ROWS[0] + COLS[0] + BOXES[0] if c != r1c1], {2})
    expected = without(expected, [c for c in ROWS[0] + BOXES[0] if c not in (r1c1, r1c2, r1c3)], {1, 3})
    expected[r1c1] = bit(2)
    shaved = propagate(start, "FCV")
    assert shaved.masks == tuple(expected)
    assert shaved.trials > 0 and not shaved.capped


def test_contradiction_fails_and_nothing_is_search_free() -> None:
    # Row 1 holds 1..8 and column 9 holds a 9 in row 2: r1c9 has no digit left.
    puzzle = "12345678." + "........9" + "." * 63
    assert simonis.fc(puzzle).failed
    assert simonis.schemes(puzzle) == dict.fromkeys(SCHEMES, False)


def test_naked_singles_only_puzzle_is_solved_by_every_scheme() -> None:
    # A full grid with five blanks in different rows, columns and boxes: each blank's row holds the 8 other
    # digits, so FC alone fills it, and every stronger scheme too.
    full = solve("." * 81)
    assert full is not None
    values = list(full.values)
    for cell in cells_of("r1c1", "r2c4", "r3c7", "r5c2", "r9c9"):
        values[cell] = 0
    assert simonis.schemes(values) == dict.fromkeys(SCHEMES, True)
    assert simonis.fc(values).grid == full


def test_schemes_has_exactly_the_contract_keys() -> None:
    result = simonis.schemes(read_puzzles(corpus_file("magictour_top100.txt"), 1)[0])
    assert list(result) == ["FC", "FCI", "BC", "BCI", "HAC", "HACS", "HACC", "HAC3", "HACSC3", "FCV", "BCV", "HACV"]
    assert all(isinstance(v, bool) for v in result.values())


def test_work_cap_is_reported() -> None:
    # The first top100 puzzle is not solved by HAC, so every shaving scheme needs more than one trial.
    puzzle = read_puzzles(corpus_file("magictour_top100.txt"), 1)[0]
    capped = simonis.schemes_report(puzzle, cap=1)
    assert "FCV" in capped.capped and not capped.solved["FCV"]
    assert capped.capped <= {"FCV", "BCV", "HACV"}
    assert simonis.hacv(puzzle, cap=1).capped
    full = simonis.schemes_report(puzzle)
    assert not full.capped and full.solved["HACV"]


# ---- the per-constraint filters against brute force ---------------------------------------------------------
def _supported(domains: tuple[int, ...]) -> tuple[int, ...] | None:
    """Values of each variable that occur in some assignment of distinct values (brute force); None if none."""
    n = len(domains)
    kept = [0] * n
    found = False
    for perm in permutations(range(n)):
        if all(domains[i] >> perm[i] & 1 for i in range(n)):
            found = True
            for i in range(n):
                kept[i] |= 1 << perm[i]
    return tuple(kept) if found else None


def _random_domains(rng: random.Random, n: int) -> tuple[int, ...]:
    """n random non-empty masks over n values, of random sizes."""
    return tuple(sum(1 << v for v in rng.sample(range(n), rng.randint(1, n))) for _ in range(n))


def test_perfect_filter_keeps_exactly_the_supported_values() -> None:
    rng = random.Random(4)
    for _ in range(400):
        domains = _random_domains(rng, rng.choice([3, 5, 6]))
        assert _matching.perfect_filter(domains) == _supported(domains), domains


def test_bounds_filters_are_sound_and_ordered() -> None:
    # Neither bounds filter may remove a supported value or fail on a satisfiable unit; the paper's BC finds at
    # least what textbook bounds consistency finds, and HAC at least what BC finds.
    rng = random.Random(5)
    for _ in range(400):
        domains = _random_domains(rng, 6)
        exact = _supported(domains)
        paper = _matching.range_filter(domains)
        textbook = _matching.bounds_filter(domains)
        if exact is None:
            continue
        assert paper is not None and textbook is not None, domains
        assert all(e & ~p == 0 and p & ~t == 0 for e, p, t in zip(exact, paper, textbook)), domains


def test_dual_filter_is_sound() -> None:
    rng = random.Random(6)
    for _ in range(300):
        domains = _random_domains(rng, 6)
        exact = _supported(domains)
        dual = _matching.dual_range_filter(domains)
        if exact is not None:
            assert dual is not None and all(e & ~d == 0 for e, d in zip(exact, dual)), domains


# ---- corpus: soundness against the solution, the lattice, the combined run ---------------------------------------
@pytest.fixture(scope="module")
def sample() -> list[tuple[str, Grid]]:
    """12 spread 17-clue puzzles and 8 top100 puzzles with their solutions."""
    clue17 = read_puzzles(corpus_file("tdoku_17clue_even.txt"))
    top = read_puzzles(corpus_file("magictour_top100.txt"))
    chosen = clue17[:: len(clue17) // 12][:12] + top[::12][:8]
    out = []
    for puzzle in chosen:
        solution = solve(puzzle)
        assert solution is not None
        out.append((puzzle, solution))
    return out


@pytest.fixture(scope="module")
def outcomes(sample: list[tuple[str, Grid]]) -> list[dict[str, Outcome]]:
    """Every scheme run on its own on every sample puzzle."""
    return [{name: simonis.run_scheme(puzzle, name) for name in EVERY} for puzzle, _ in sample]


def test_propagation_never_removes_the_true_digit(
    sample: list[tuple[str, Grid]], outcomes: list[dict[str, Outcome]]
) -> None:
    for (puzzle, solution), runs in zip(sample, outcomes):
        for name, run in runs.items():
            assert not run.failed, (puzzle, name)
            assert all(m >> (v - 1) & 1 for m, v in zip(run.masks, solution.values)), (puzzle, name)


def test_fixpoints_respect_the_lattice(outcomes: list[dict[str, Outcome]]) -> None:
    # Each pair (weaker, stronger): the stronger fixpoint lies inside the weaker one, cell by cell.
    order = [
        ("FC", "FCI"),
        ("FC", "BC"),
        ("BCZ", "BC"),
        ("FCI", "BCI"),
        ("BC", "BCI"),
        ("BCIZ", "BCI"),
        ("BCI", "HAC"),
        ("HAC", "HACS"),
        ("HAC", "HACC"),
        ("HAC", "HAC3"),
        ("HACS", "HAC3"),
        ("HACS", "HACSC"),
        ("HACC", "HACSC"),
        ("HACSC", "HACSC3"),
        ("HAC3", "HACSC3"),
        ("FC", "FCV"),
        ("BC", "BCV"),
        ("HAC", "HACV"),
        ("FCV", "BCV"),
        ("BCV", "HACV"),
    ]
    for runs in outcomes:
        for weak, strong in order:
            assert all(s & ~w == 0 for w, s in zip(runs[weak].masks, runs[strong].masks)), (weak, strong)


def test_combined_run_agrees_with_separate_runs(
    sample: list[tuple[str, Grid]], outcomes: list[dict[str, Outcome]]
) -> None:
    for (puzzle, _), runs in zip(sample, outcomes):
        report = simonis.schemes_report(puzzle, extra=True)
        assert report.solved == {name: runs[name].solved for name in report.solved}, puzzle


def test_sweeping_to_the_fixpoint_shaves_at_least_one_sweep(sample: list[tuple[str, Grid]]) -> None:
    for puzzle, solution in sample[12:15]:
        once = simonis.fcv(puzzle)
        fixpoint = simonis.fcv(puzzle, sweeps=None)
        assert all(f & ~o == 0 for o, f in zip(once.masks, fixpoint.masks))
        assert all(m >> (v - 1) & 1 for m, v in zip(fixpoint.masks, solution.values))


def _singles_solve(puzzle: str) -> bool:
    """Naked and hidden singles on digit lists until stuck: True when the grid fills (written independently)."""
    values = list(Grid.parse(puzzle).values)
    units = list(ROWS) + list(COLS) + list(BOXES)
    while not all(values):
        seen = [{values[p] for u in units if c in u for p in u} for c in range(81)]
        options = [set(range(1, 10)) - seen[c] if not values[c] else set() for c in range(81)]
        if any(not values[c] and not options[c] for c in range(81)):
            return False
        moves = {c: min(options[c]) for c in range(81) if len(options[c]) == 1}
        for u in units:
            for d in range(1, 10):
                places = [c for c in u if d in options[c]]
                if len(places) == 1 and d not in (values[c] for c in u):
                    moves.setdefault(places[0], d)
        if not moves:
            return False
        for c, d in moves.items():
            values[c] = d
    return True


def test_fci_is_exactly_naked_and_hidden_singles() -> None:
    clue17 = read_puzzles(corpus_file("tdoku_17clue_even.txt"))
    for puzzle in clue17[:: len(clue17) // 40][:40]:
        assert simonis.fci(puzzle).solved == _singles_solve(puzzle), puzzle


def test_top100_figures_on_a_few_known_puzzles() -> None:
    # Among the paper's top100 results: FC and FCI solve none of them, HACV all. Checked on the first five.
    for puzzle in read_puzzles(corpus_file("magictour_top100.txt"), 5):
        result = simonis.schemes(puzzle)
        assert not result["FC"] and not result["FCI"] and result["HACV"]


# ---- well-posed, locally minimal, reduce -------------------------------------------------------------------------
def test_17_clue_puzzles_are_well_posed_and_locally_minimal() -> None:
    # No 16-clue Sudoku has a unique solution, so removing any clue of a 17-clue puzzle loses uniqueness.
    for puzzle in read_puzzles(corpus_file("tdoku_17clue_even.txt"), 3):
        assert simonis.is_well_posed(puzzle)
        assert simonis.is_locally_minimal(puzzle)


def test_extra_given_breaks_local_minimality_and_missing_one_breaks_well_posedness() -> None:
    puzzle = read_puzzles(corpus_file("tdoku_17clue_even.txt"), 1)[0]
    solution = solve(puzzle)
    assert solution is not None
    values = list(Grid.parse(puzzle).values)
    blank = values.index(0)
    with_extra = list(values)
    with_extra[blank] = solution.values[blank]
    assert simonis.is_well_posed(with_extra) and not simonis.is_locally_minimal(with_extra)
    first_given = next(i for i, v in enumerate(values) if v)
    values[first_given] = 0
    assert not simonis.is_well_posed(values) and not simonis.is_locally_minimal(values)


@pytest.mark.parametrize("seed", [None, 1, 2])
def test_reduce_gives_a_locally_minimal_subset_with_the_same_solution(seed: int | None) -> None:
    puzzle = Grid.parse(read_puzzles(corpus_file("projecteuler96_easy50.txt"), 1)[0])
    reduced = simonis.reduce(puzzle, seed=seed)
    assert all(r in (0, p) for r, p in zip(reduced.values, puzzle.values))
    assert reduced.givens < puzzle.givens
    assert count_solutions(reduced) == 1 and solve(reduced) == solve(puzzle)
    for cell, v in enumerate(reduced.values):
        if v:
            trial = list(reduced.values)
            trial[cell] = 0
            assert count_solutions(trial) == 2


def test_reduce_refuses_a_puzzle_with_several_solutions() -> None:
    with pytest.raises(ValueError):
        simonis.reduce("." * 81)


def test_candidates_of_fixes_the_givens_only() -> None:
    masks = simonis.candidates_of("1" + "." * 80)
    assert masks[0] == bit(1) and set(masks[1:]) == {ALL_CANDIDATES}
