"""What the rating tests share: a published puzzle and the singles counted apart from the engine."""

from __future__ import annotations

from sudoku_engine.board import Board
from sudoku_engine.grid import PEERS, UNITS

EULER_01 = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."


def singles_here(board: Board) -> int:
    """Cells a naked or hidden single could fill (counted here apart from the engine: every empty cell tried
    against every digit, and every house against every digit)."""
    fillable = set()
    for cell in range(81):
        if not board.values[cell]:
            allowed = [d for d in range(1, 10) if all(board.values[p] != d for p in PEERS[cell])]
            if len(allowed) == 1:
                fillable.add(cell)
    for cells in UNITS:
        for digit in range(1, 10):
            if any(board.values[c] == digit for c in cells):
                continue
            places = [c for c in cells if not board.values[c] and all(board.values[p] != digit for p in PEERS[c])]
            if len(places) == 1:
                fillable.add(places[0])
    return len(fillable)
