"""Nested forcing chains and their nets: every net is checked as a proof (each fact follows from its parents by a
rule, and the contradiction holds), every candidate a net removes is false, and the kernel finds the same nets,
with the same sizes, as the Python reference.

The proof checker below is written apart from the trial: it reads only a trial's facts and parents, and checks
each fact against the rules stated in ``techniques.nets`` on the position the fact was derived in.
"""

from __future__ import annotations

import csv
import random

import pytest
from helpers.corpus import corpus_file

from sudoku_engine import logic, solver
from sudoku_engine.board import Board
from sudoku_engine.grid import PEERS, UNITS, UNITS_OF, digits_of
from sudoku_engine.techniques import BY_ID, CATALOGUE, length_bonus, nets, step_se

BEFORE_NESTED = [t for t in CATALOGUE if t.id not in ("nested_forcing_chain", "bifurcation")]
# forum_hardest_1106_rated.tsv, ER 10.3: forcing nets find nothing at its first stuck point.
ER_10_3 = "........7..4.2.6..8.....31......29...4..9..3...95.6....1......8..6.5.2..7......6."


def stuck_point(puzzle: str) -> Board:
    """The first position of the puzzle's trace where nothing rated below nested forcing chains applies."""
    board = Board.from_grid(puzzle)
    while True:
        step = logic.next_step(board, BEFORE_NESTED)
        if step is None:
            return board
        board.apply(step)


def forcing_positions(count: int) -> list[Board]:
    """Positions of traces of Sudoku Exchange puzzles rated 8.0 and up where a forcing chain or net is next."""
    with corpus_file("sudokuexchange_graded_even.tsv").open(encoding="utf-8") as stream:
        rows = [r for r in csv.DictReader(stream, delimiter="\t") if r["se_rating"] and float(r["se_rating"]) >= 8]
    positions = []
    for row in rows[::20]:
        board = Board.from_grid(row["puzzle"])
        while not board.is_solved:
            step = logic.next_step(board)
            assert step is not None
            if BY_ID[step.technique].family == "forcing":
                positions.append(board.copy())
                break
            board.apply(step)
        if len(positions) == count:
            break
    return positions


def _holds(trial: nets.Trial, fact: nets.Fact, parents: list[nets.Fact], root: Board) -> bool:
    """Whether a fact follows from its parents by one of the rules (nested removals are checked apart)."""
    cell, digit, on = fact
    if not parents:
        return on  # the assumption
    if not on and len(parents) == 1 and parents[0][2]:  # a placement removes its cell's others and its peers
        placed, placed_digit, _ = parents[0]
        return (placed == cell and placed_digit != digit) or (placed in PEERS[cell] and placed_digit == digit)
    removals = set(parents)
    if on:
        naked = {(cell, d, False) for d in digits_of(root.cands[cell]) if d != digit}
        hidden = [
            {(c, digit, False) for c in UNITS[u] if c != cell and root.cands[c] >> (digit - 1) & 1}
            for u in UNITS_OF[cell]
        ]
        return removals == naked or removals in hidden
    return all(not p[2] for p in parents)  # pointing, claiming or a naked pair: removals that made the pattern


def check_proof(trial: nets.Trial, root: Board) -> int:
    """Check the trial's contradiction as a proof; its size counted here (facts, each 1 plus its weight)."""
    assert trial.broken is not None
    seen: set[nets.Fact] = set()
    stack = [fact for own, fact in trial.broken if own]
    ends = [fact for _, fact in trial.broken]
    # the contradiction: a fact derived (from all refs but the last) while its opposite (the last) is known, or
    # every root candidate of a cell removed, or every root place of a digit in a house
    cell, digit, on = ends[-1]
    conflict = _holds(trial, (cell, digit, not on), ends[:-1], root)
    removed = set(ends) if all(not f[2] for f in ends) else set()
    emptied = any(removed == {(c, d, False) for d in digits_of(root.cands[c])} for c in {f[0] for f in removed})
    house = any(
        removed == {(c, d, False) for c in UNITS[u] if root.cands[c] >> (d - 1) & 1}
        for u in range(27)
        for d in {f[1] for f in removed}
    )
    assert conflict or emptied or house, trial.broken
    size = 0
    while stack:
        fact = stack.pop()
        if fact in seen:
            continue
        seen.add(fact)
        parents = [f for _, f in trial.parents[fact]]
        weight = trial.weight[fact]
        if weight:
            assert not fact[2] and weight > 0  # a nested removal: checked by re-running its nested trial below
        else:
            assert _holds(trial, fact, parents, root), (fact, parents)
        size += 1 + weight
        stack.extend(own_fact for own, own_fact in trial.parents[fact] if own)
    return size


@pytest.mark.corpus
@pytest.mark.parametrize("level", [0, 1])
def test_nets_of_forcing_positions_are_proofs_of_false_candidates(level):
    checked = 0
    for board in forcing_positions(6):
        solution = solver.solve(board.values)
        assert solution is not None
        sizes = nets.net_sizes(board, level)
        for (cell, digit), size in sizes.items():
            assert solution.values[cell] != digit
            trial = nets.Trial(board, board.values[:], board.cands[:])
            assert trial.follow(cell, digit, level)
            assert check_proof(trial, board) == size == trial.closure()[0]
            checked += 1
    assert checked >= 30


@pytest.mark.corpus
def test_kernel_and_reference_find_the_same_nets():
    """Levels 0 and 1 at forcing positions, and level 2 at a stuck point of an ER 10.3 puzzle, on both backends."""
    pytest.importorskip("numba")
    cases = [(board, level) for board in forcing_positions(4) for level in (0, 1)] + [(stuck_point(ER_10_3), 2)]
    previous = solver.backend()
    try:
        for board, level in cases:
            solver.use_backend("numba")
            kernel = nets.net_sizes(board, level)
            solver.use_backend("python")
            assert nets.net_sizes(board, level) == kernel, level
    finally:
        solver.use_backend(previous)


@pytest.mark.corpus
def test_nested_forcing_chain_cracks_a_position_forcing_nets_cannot():
    board = stuck_point(ER_10_3)
    assert not nets.net_sizes(board, 1)  # no net of level 1 breaks here
    solution = solver.solve(board.values)
    assert solution is not None
    steps = list(BY_ID["nested_forcing_chain"].find(board))
    assert steps, "level 2 finds nothing"
    first = steps[0]
    assert all(solution.values[c] != d for step in steps for c, d in step.eliminations)
    sizes = nets.net_sizes(board, 2)
    assert first.length == min(sizes.values())
    band = {candidate for candidate, size in sizes.items() if length_bonus(size) == length_bonus(first.length)}
    assert set(first.eliminations) == band
    assert step_se(first) == round(BY_ID["nested_forcing_chain"].se_rating + length_bonus(first.length), 1)
    assert [step_se(s) for s in steps] == sorted(step_se(s) for s in steps)
    cell, digit = first.eliminations[0]
    trial = nets.Trial(board, board.values[:], board.cands[:])
    assert trial.follow(cell, digit, 2)
    assert check_proof(trial, board) == sizes[(cell, digit)]
    nested = [fact for fact, weight in trial.weight.items() if weight]
    assert nested
    for fact in nested:  # the outer facts a nested removal rests on are enough for its nested trial to break
        used = [f for _, f in trial.parents[fact]]
        values, cands = board.values[:], board.cands[:]
        for c, d, on in used:
            if on:
                values[c] = d
            else:
                cands[c] &= ~(1 << (d - 1))
        inner = nets.Trial(board, values, cands, before=frozenset(used))
        assert inner.follow(fact[0], fact[1], 0), fact


def shaken(board: Board, rng: random.Random) -> Board:
    """The position with some of its solution's digits placed (singles they leave are not applied) and some
    candidates removed, now and then a true one (so that some positions have no solution)."""
    solution = solver.solve(board.values)
    assert solution is not None
    shaken = board.copy()
    for cell in rng.sample(shaken.empty_cells(), rng.randint(0, 6)):
        shaken.place(cell, solution.values[cell])
    for cell, digit in rng.sample(list(shaken.candidate_list()), rng.randint(0, 25)):
        if digit != solution.values[cell] or rng.random() < 0.05:
            shaken.eliminate(cell, digit)
    return shaken


@pytest.mark.corpus
def test_the_kernels_quick_singles_trial_breaks_exactly_when_the_reference_trial_does():
    """The bit-mask check ``_breaks`` that lets the kernel skip most nested trials, against ``Trial.follow`` at
    level 0, for every candidate of shaken positions of the hardest puzzles (pending singles included)."""
    pytest.importorskip("numba")
    import numpy as np

    from sudoku_engine.techniques import _nets_numba

    rng = random.Random(7)
    puzzles = corpus_file("tdoku_forum_hardest_1905_11plus_even.txt").read_text().split()[:12]
    buffers = (np.empty(81, np.int32), np.empty(81, np.int32), np.empty(800, np.int32))
    marks = (np.empty(243, np.int32), np.empty(243, np.int8))
    outcomes = {True: 0, False: 0}
    for puzzle in puzzles:
        for _ in range(3):
            board = shaken(Board.from_grid(puzzle), rng)
            cm, val = np.asarray(board.cands, np.int32), np.asarray(board.values, np.int32)
            for cell, digit in board.candidate_list():
                expected = nets.Trial(board, board.values[:], board.cands[:]).follow(cell, digit, 0)
                assert _nets_numba._breaks(cm, val, cell, digit, *buffers, *marks) == expected, (board, cell, digit)
                outcomes[expected] += 1
    assert min(outcomes.values()) >= 500, outcomes


def test_a_position_without_a_solution_gives_no_nets():
    board = Board.from_values([1, 2, 3, 4, 5, 6, 7, 8, 0] + [0] * 8 + [9] + [0] * 63)
    assert nets.net_sizes(board, 2) == {}
    assert list(BY_ID["nested_forcing_chain"].find(board)) == []
