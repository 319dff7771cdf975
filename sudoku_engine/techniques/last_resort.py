"""Bifurcation: the last resort that gives every unique puzzle a complete trace.

Assume one candidate and follow the consequences. The easier kind is tried first: a candidate of a
two-candidate cell whose assumption breaks the grid under singles alone (a short trial a person can do on
paper). Otherwise the assumption is followed to the end by the exact solver: a candidate that leaves no
way to complete the grid is false. Either way the step only removes candidates that cannot be true.
"""

from __future__ import annotations

from collections.abc import Iterator

from .. import _search_py
from ..board import Board, Step
from ..grid import POPCOUNT, cell_name, digits_of
from ..solver import count_solutions
from .common import candidate_step


def _breaks_under_singles(board: Board, cell: int, digit: int) -> bool:
    """True when placing the digit makes naked and hidden singles reach a contradiction."""
    values = list(board.values)
    values[cell] = digit
    cand, queue = _search_py.initial_candidates(values)
    for c, mask in enumerate(board.cands):
        if not values[c]:
            cand[c] &= mask
    return not _search_py.propagate(cand, queue)


def _step(cell: int, digit: int, how: str) -> Step:
    """The bifurcation step that removes one candidate."""
    text = f"Bifurcation: assuming {cell_name(cell)} is {digit} {how}, so {cell_name(cell)} is not {digit}."
    return candidate_step("bifurcation", (cell, digit), text, place=False)


def bifurcation(board: Board) -> Iterator[Step]:
    """Candidates whose assumption leads to a contradiction, shortest trials first."""
    open_cells = sorted((c for c in range(81) if not board.values[c]), key=lambda c: POPCOUNT[board.cands[c]])
    found = False
    for cell in open_cells:
        for digit in digits_of(board.cands[cell]):
            if _breaks_under_singles(board, cell, digit):
                found = True
                yield _step(cell, digit, "leads to a contradiction by singles")
    if found:
        return
    for cell in open_cells:
        for digit in digits_of(board.cands[cell]):
            trial = board.values[:]
            trial[cell] = digit
            if count_solutions(trial, limit=1) == 0:
                yield _step(cell, digit, "leaves no way to complete the grid")
                return
