"""The compiled finders (numba) against the Python finders, which are the reference: at every point of the trace
where no single is left, over corpus puzzles from easy to the hardest, each compiled technique removes exactly the
candidates the Python finder's first application removes (or both find nothing); the traces that take their
steps on the kernel (the generator's, singles at once; the rating's, step by step) take the logic solver's steps
and end where it ends; and ratings are the same on both backends.
"""

from __future__ import annotations

import pytest
from corpus_data import corpus_file, read_puzzles
from test_uniqueness import BUG_POSITION

from sudoku_engine import logic, solver
from sudoku_engine.board import Board
from sudoku_engine.difficulty import MEASURES
from sudoku_engine.grid import Grid, digits_of, parse_values
from sudoku_engine.rating import rate
from sudoku_engine.techniques import BY_ID, CATALOGUE, compiled

pytest.importorskip("numba", reason="the compiled finders need numba (the fast extra)")

# corpus file -> (every how many-th puzzle, how many of those)
SAMPLES = {
    "sudokuexchange_graded_even.tsv": (60, None),
    "magictour_top1465.txt": (15, None),
    "tdoku_17clue_even.txt": (1, 150),
}
OTHERS = [t for t in CATALOGUE if t.id not in logic.SINGLES]


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
    removed = set(step.eliminations)
    for cell, digit in step.placements:
        removed |= {(cell, d) for d in digits_of(board.cands[cell]) if d != digit}
    return sorted(removed)


@pytest.mark.corpus
@pytest.mark.parametrize("name", SAMPLES)
def test_compiled_finders_remove_what_the_python_finders_first_step_removes(name):
    mismatches = []
    fired = dict.fromkeys(compiled.COMPILED, 0)
    for puzzle in _sample(name):
        for board in _stuck_points(puzzle):
            for technique_id in compiled.COMPILED:
                expected = _removed(board, technique_id)
                fired[technique_id] += bool(expected)
                if compiled.first_eliminations(board, BY_ID[technique_id]) != expected:
                    mismatches.append(f"{technique_id} on {puzzle}:\n{board.pencilmarks()}")
    assert not mismatches, f"{len(mismatches)} mismatches, first: {mismatches[0]}"
    if name == "tdoku_17clue_even.txt":  # BUG+1 is rare: its own test below
        assert all(fired[t] for t in compiled.COMPILED if t != "bug_plus_1"), f"some never applied: {fired}"


def test_compiled_bug_plus_1_on_its_position():
    board = Board.from_pencilmarks(BUG_POSITION)
    expected = _removed(board, "bug_plus_1")
    assert expected and compiled.first_eliminations(board, BY_ID["bug_plus_1"]) == expected


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
        taken, final = logic.technique_trace(grid)
        assert [tech.id for tech, _ in taken] == [step.technique for step in expected.steps], puzzle
        assert expected.final is not None and (final.values, final.cands) == (
            expected.final.values, expected.final.cands), puzzle
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


def test_every_compiled_technique_is_in_the_catalogue_in_order():
    """The kernel's codes follow the catalogue, so a leading run of them is a run of the trace's order."""
    order = [t.id for t in CATALOGUE if t.id in compiled.CODES]
    assert order == list(compiled.COMPILED)
    # Avoidable Rectangle Type 1 (SE 4.5, after Unique Rectangle Type 1) has no kernel: the leading run stops there.
    lead = compiled.leading(OTHERS)
    assert [t.id for t in OTHERS[:lead]] == list(compiled.COMPILED[:lead])
    assert compiled.COMPILED[lead - 1] == "unique_rectangle_1" and OTHERS[lead].id == "avoidable_rectangle_1"
