"""The compiled finders (numba) against the Python finders, which are the reference: at every point of the trace
where no single is left, over corpus puzzles from easy to the hardest (and on the published examples of the rare
uniqueness techniques), each compiled technique removes exactly the candidates the Python finder's first
application removes (or both find nothing); the traces that take their
steps on the kernel (the generator's, singles at once; the rating's, step by step) take the logic solver's steps
and end where it ends, in the catalogue's order and in the order the single-digit patterns take once rated
4.0 to 4.3; and ratings are the same on both backends.
"""

from __future__ import annotations

import csv

import pytest
from helpers.corpus import corpus_file, read_puzzles
from helpers.positions import AR2_LINE, AR101, BUG_POSITION, U5_DIAGONAL, U5_THREE, U5_THREE_MARKS, U601, U602
from helpers.techniques import changed, hodoku_board

from sudoku_engine import logic, solver
from sudoku_engine.board import Board
from sudoku_engine.difficulty import MEASURES
from sudoku_engine.grid import Grid, digits_of, parse_values
from sudoku_engine.rating import rate
from sudoku_engine.techniques import BY_ID, CATALOGUE, compiled, step_se

pytest.importorskip("numba", reason="the compiled finders need numba (the fast extra)")

# corpus file -> (every how many-th puzzle, how many of those)
SAMPLES = {
    "sudokuexchange_graded_even.tsv": (60, None),
    "magictour_top1465.txt": (15, None),
    "tdoku_17clue_even.txt": (1, 150),
}
OTHERS = [t for t in CATALOGUE if t.id not in logic.SINGLES]
SINGLE_DIGIT = ("skyscraper", "two_string_kite", "turbot_fish", "empty_rectangle")
# Rare: not in every sample (Unique Rectangle Type 6 and Avoidable Rectangle Type 1 in the first two), or in none
# (BUG+1, Unique Rectangle Type 5, Avoidable Rectangle Type 2): those have positions of their own below.
RARE = ("bug_plus_1", "unique_rectangle_5", "unique_rectangle_6", "avoidable_rectangle_1", "avoidable_rectangle_2")
# Puzzles whose traces reach a Unique Rectangle Type 5 (three from Sudoku Exchange, SE 4.4, 4.7 and 5.2, one 17-clue
# puzzle): the ones a search of the corpora's traces over the techniques up to BUG+1 found.
UR5_PUZZLES = (
    "..35627....6...4..8.......3...239...7.......5..2.5.1..2.......1...316....39...65.",
    "9.7.6.5.1...........3...2...4.....8.1..7.6..2...9.1....7.....2.2..1.5..9..52.47..",
    "83...9..6..2.4...8..5...27.4..8.3....8..2..4....9.4..3.23...4..5...3.8..9..5...37",
    "........1.......2...3.45........35.6..4.......2.7........6.......5......8..12...7",
)


@pytest.fixture(autouse=True)
def numba_backend():
    """Run on the numba backend, where the compiled finders are used."""
    previous = solver.backend()
    solver.use_backend("numba")
    yield
    solver.use_backend(previous)


def _sample(name: str) -> list[str]:
    """The sampled puzzles of a corpus file."""
    stride, count = SAMPLES[name]
    return read_puzzles(corpus_file(name))[::stride][:count]


def _stuck_points(puzzle: str) -> list[Board]:
    """The positions of the puzzle's trace where no single is left, before each of its other steps."""
    board = Board.from_grid(puzzle)
    points = []
    while True:
        closed = solver.close_singles(board.values, board.cands)
        assert closed is not None
        board = Board(*closed, board.givens)  # the trace's board knows its givens (Avoidable Rectangles)
        if board.is_solved:
            return points
        points.append(board.copy())
        step = logic.next_step(board, OTHERS)
        assert step is not None
        board.apply(step)


def _removed(board: Board, technique_id: str) -> list[tuple[int, int]]:
    """The candidates the Python finder's first application removes (a placement removes the cell's others)."""
    step = next((s for s in BY_ID[technique_id].find(board) if s.is_progress), None)
    if step is None:
        return []
    # The kernel's steps come without a Step and rate as their technique: a chain must be short enough for that.
    assert step_se(step) == BY_ID[technique_id].se_rating, step.text
    removed = set(step.eliminations)
    for cell, digit in step.placements:
        removed |= {(cell, d) for d in digits_of(board.cands[cell]) if d != digit}
    return sorted(removed)


def _compared(puzzles: list[str]) -> tuple[list[str], dict[str, int]]:
    """Every compiled technique against its Python finder at the stuck points of the puzzles' traces: the
    mismatches, and at how many points each technique applied."""
    mismatches = []
    fired = dict.fromkeys(compiled.COMPILED, 0)
    for puzzle in puzzles:
        for board in _stuck_points(puzzle):
            for technique_id in compiled.COMPILED:
                expected = _removed(board, technique_id)
                fired[technique_id] += bool(expected)
                if compiled.first_eliminations(board, BY_ID[technique_id]) != expected:
                    mismatches.append(f"{technique_id} on {puzzle}:\n{board.pencilmarks()}")
    return mismatches, fired


@pytest.mark.corpus
@pytest.mark.parametrize("name", SAMPLES)
def test_compiled_finders_remove_what_the_python_finders_first_step_removes(name):
    mismatches, fired = _compared(_sample(name))
    assert not mismatches, f"{len(mismatches)} mismatches, first: {mismatches[0]}"
    assert all(fired[t] for t in SINGLE_DIGIT), f"some never applied: {fired}"
    if name == "tdoku_17clue_even.txt":
        assert all(fired[t] for t in compiled.COMPILED if t not in RARE), f"some never applied: {fired}"
    else:
        assert fired["unique_rectangle_6"] and fired["avoidable_rectangle_1"], f"some never applied: {fired}"


def test_compiled_finders_on_traces_reaching_a_unique_rectangle_5():
    mismatches, fired = _compared(list(UR5_PUZZLES))
    assert not mismatches, f"{len(mismatches)} mismatches, first: {mismatches[0]}"
    assert fired["unique_rectangle_5"] >= len(UR5_PUZZLES), fired


def test_compiled_bug_plus_1_on_its_position():
    board = Board.from_pencilmarks(BUG_POSITION)
    expected = _removed(board, "bug_plus_1")
    assert expected and compiled.first_eliminations(board, BY_ID["bug_plus_1"]) == expected


# The published examples of test_uniqueness (HoDoKu's), where the Python finders' steps are checked by hand.
PUBLISHED = {
    "unique_rectangle_5 three corners": ("unique_rectangle_5", lambda: hodoku_board(U5_THREE)),
    "unique_rectangle_5 diagonal": ("unique_rectangle_5", lambda: Board.from_pencilmarks(U5_DIAGONAL)),
    "unique_rectangle_6 u601": ("unique_rectangle_6", lambda: Board.from_pencilmarks(U601)),
    "unique_rectangle_6 u602": ("unique_rectangle_6", lambda: Board.from_pencilmarks(U602)),
    "avoidable_rectangle_1 ar101": ("avoidable_rectangle_1", lambda: hodoku_board(AR101)),
    "avoidable_rectangle_2": ("avoidable_rectangle_2", lambda: hodoku_board(AR2_LINE)),
}


@pytest.mark.parametrize("example", PUBLISHED)
def test_compiled_uniqueness_on_published_examples(example):
    technique_id, board_of = PUBLISHED[example]
    board = board_of()
    assert logic.options(board)[1] == 0  # the kernel places singles first
    expected = _removed(board, technique_id)
    assert expected and compiled.first_eliminations(board, BY_ID[technique_id]) == expected


def test_compiled_unique_rectangles_need_their_patterns():
    """test_uniqueness's near misses without singles, where the Python finders find nothing: no corner holding only
    the two digits (Type 5), a corner without one of the digits (Type 6)."""
    for technique_id, board in (
        ("unique_rectangle_5", changed(U5_THREE_MARKS, r7c9="246")),
        ("unique_rectangle_6", changed(U601, r4c3="35")),
    ):
        assert logic.options(board)[1] == 0  # the kernel places singles first
        assert _removed(board, technique_id) == []
        assert compiled.first_eliminations(board, BY_ID[technique_id]) == []


@pytest.mark.parametrize("technique_id", ["avoidable_rectangle_1", "avoidable_rectangle_2"])
def test_compiled_avoidable_rectangles_need_solved_cells_that_are_not_givens(technique_id):
    """The published position with every digit a given, and without known givens (as a pencil-mark grid): no
    Avoidable Rectangle, as the Python finders."""
    board = hodoku_board(AR101 if technique_id == "avoidable_rectangle_1" else AR2_LINE)
    as_givens = Board(board.values, board.cands, Board.from_values(board.values).givens)
    unknown = Board.from_pencilmarks(board.pencilmarks())
    assert unknown.givens is None and (unknown.values, unknown.cands) == (board.values, board.cands)
    for other in (as_givens, unknown):
        assert _removed(other, technique_id) == []
        assert compiled.first_eliminations(other, BY_ID[technique_id]) == []


@pytest.mark.corpus
def test_kernel_trace_takes_the_traces_steps():
    """Techniques from the kernel, then the Python finders past them: the trace's techniques, in order, and the
    same final position (Sudoku Exchange sample from singles to its hardest, and 17-clue puzzles)."""
    puzzles = _sample("sudokuexchange_graded_even.tsv")[::2] + _sample("tdoku_17clue_even.txt")[:50]
    for puzzle in puzzles:
        reference = Board.from_grid(puzzle)
        expected = [step.technique for step in logic.steps_past_singles(reference)]
        board = Board.from_grid(puzzle)
        taken = [tech.id for tech, _ in logic.techniques_past_singles(board)]
        assert taken == expected, puzzle
        assert (board.values, board.cands) == (reference.values, reference.cands), puzzle


@pytest.mark.corpus
def test_rating_trace_on_the_kernel_is_the_logic_solvers_trace():
    """Singles one at a time and the compiled techniques on the kernel, the Python finders past them: the logic
    solver's steps, technique by technique, and its final board (easy to the hardest, and 17-clue puzzles)."""
    puzzles = _sample("sudokuexchange_graded_even.tsv")[::3] + _sample("magictour_top1465.txt")[::3]
    puzzles += _sample("tdoku_17clue_even.txt")[:40]
    for puzzle in puzzles:
        grid = Grid.parse(puzzle)
        expected = logic.solve(grid)
        traced = logic.technique_trace(grid)
        taken, final = traced.steps, traced.final
        assert [tech.id for tech, _ in taken] == [step.technique for step in expected.steps], puzzle
        assert expected.final is not None and (final.values, final.cands) == (
            expected.final.values,
            expected.final.cands,
        ), puzzle
        assert all(step is None or step.technique == tech.id for tech, step in taken)


@pytest.mark.corpus
def test_ratings_are_the_same_on_both_backends():
    """The rating read off the kernel's trace (and the call count's kernel) equals the pure-Python one."""
    puzzles = _sample("sudokuexchange_graded_even.tsv")[::12] + _sample("magictour_top1465.txt")[::25]
    fields = ("se_like", "hodoku_like", "hodoku_level", "hardest_technique", "techniques", "steps", "d", "metrics")
    kernel = [rate(p, measures=MEASURES) for p in puzzles]
    solver.use_backend("python")
    reference = [rate(p, measures=MEASURES) for p in puzzles]
    for puzzle, got, want in zip(puzzles, kernel, reference):
        assert [getattr(got, f) for f in fields] == [getattr(want, f) for f in fields], puzzle


def test_kernel_trace_stops_on_a_broken_position():
    """A position without a solution leaves the board as it was and yields nothing."""
    board = Board.from_values(parse_values("12345678." + "........9" + "." * 63))
    before = (board.values[:], board.cands[:])
    assert list(logic.techniques_past_singles(board)) == []
    assert (board.values, board.cands) == before


def test_segments_cut_the_catalogue_into_alternating_runs():
    """Every compiled technique is in the catalogue; the segments are the techniques in order, in runs that
    alternate between compiled finders and Python ones, and the leading run is compiled."""
    assert set(compiled.COMPILED) <= {t.id for t in CATALOGUE}
    runs = compiled.segments(OTHERS)
    assert [t for _, techniques in runs for t in techniques] == OTHERS
    assert all(a[0] != b[0] for a, b in zip(runs, runs[1:]))
    assert all((t.id in compiled.CODES) == kind for kind, techniques in runs for t in techniques)
    assert runs[0][0]  # the leading run is compiled


def _rated(name: str, low: float, high: float) -> list[str]:
    """The puzzles of a corpus TSV whose ``se_rating`` lies between low and high (inclusive)."""
    with corpus_file(name).open(encoding="utf-8", newline="") as stream:
        rows = list(csv.DictReader(stream, delimiter="\t"))
    return [row["puzzle"] for row in rows if row["se_rating"] and low <= float(row["se_rating"]) <= high]


@pytest.mark.corpus
def test_kernel_traces_over_the_compiled_techniques_take_the_logic_solvers_steps():
    """The catalogue up to BUG+1 but WXYZ-Wing (5.5, on a Python finder), all of it compiled, the single-digit
    patterns and the uniqueness techniques among them (hidden triple, Skyscraper, 2-String Kite, Turbot Fish,
    XY-Wing, Empty Rectangle, XYZ-Wing, ...): the kernel's step-by-step trace over them takes the steps of
    ``logic.solve`` allowed the same techniques, singles included, and ends on its board, solved or stuck; the trace
    with the singles at once takes its other steps (Sudoku Exchange, SE 4.0-5.6)."""
    head = [t for t in CATALOGUE[: [t.id for t in CATALOGUE].index("bug_plus_1") + 1] if t.id != "wxyz_wing"]
    others = [t for t in head if t.id not in logic.SINGLES]
    ids = [t.id for t in others]
    triple = ids.index("hidden_triple")
    assert ids[triple : triple + 7] == [
        "hidden_triple",
        "skyscraper",
        "two_string_kite",
        "turbot_fish",
        "xy_wing",
        "empty_rectangle",
        "xyz_wing",
    ]
    assert compiled.segments(others) == [(True, others)]  # all of them compiled
    allow = {t.id for t in head}
    taken_ids: set[str] = set()
    solved = 0
    for puzzle in _rated("sudokuexchange_graded_even.tsv", 4.0, 5.6)[::16]:
        expected = logic.solve(puzzle, allow=allow)
        assert expected.final is not None
        end = (expected.final.values, expected.final.cands)
        board = Board.from_grid(puzzle)
        status, taken, _ = compiled.trace(board, others)
        assert [t.id for t in taken] == [step.technique for step in expected.steps], puzzle
        assert (board.values, board.cands) == end, puzzle
        assert status == (compiled.SOLVED if expected.solved else compiled.STUCK), puzzle
        solution = solver.solve(puzzle)
        assert solution is not None
        assert all(
            v == s if v else board.cands[c] >> (s - 1) & 1
            for c, (v, s) in enumerate(zip(board.values, solution.values))
        ), f"a step removed a true digit: {puzzle}"
        board = Board.from_grid(puzzle)
        at_once = [t.id for t, step in logic.techniques_past_singles(board, head) if step is None]
        assert at_once == [step.technique for step in expected.steps if step.technique not in logic.SINGLES], puzzle
        assert (board.values, board.cands) == end, puzzle
        taken_ids.update(t.id for t in taken)
        solved += expected.solved
    # An Avoidable Rectangle on cells the kernel filled (not givens), in both traces.
    assert {*SINGLE_DIGIT, "unique_rectangle_6", "avoidable_rectangle_1"} <= taken_ids, taken_ids
    assert solved, "no sampled puzzle is solved by these techniques"
