"""Subsets: naked and hidden pairs, triples and quads (each house searched on its own: the finders take houses)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import partial
from itertools import combinations

from ..board import Board, Step
from ..grid import POPCOUNT, UNITS, bit, digits_of, unit_name
from .common import digit_list, names

ALL_UNITS = range(27)

_SIZE_NAMES = {2: "pair", 3: "triple", 4: "quad"}


def _houses_with_room(board: Board, size: int, units: Iterable[int]) -> Iterator[tuple[int, list[int]]]:
    """The houses with more than ``size`` open cells, each with its open cells (a subset that fills every open
    cell of its house leaves nothing to remove)."""
    for unit in units:
        open_cells = [c for c in UNITS[unit] if not board.values[c]]
        if len(open_cells) > size:
            yield unit, open_cells


def _naked(size: int, board: Board, units: Iterable[int] = ALL_UNITS) -> Iterator[Step]:
    """n cells of a house with n candidates between them: those digits leave the house's other cells."""
    label = f"Naked {_SIZE_NAMES[size]}"
    for unit, open_cells in _houses_with_room(board, size, units):
        small = [c for c in open_cells if 2 <= POPCOUNT[board.cands[c]] <= size]
        for group in combinations(small, size):
            mask = 0
            for c in group:
                mask |= board.cands[c]
            if POPCOUNT[mask] != size:
                continue
            removed = tuple((c, d) for c in open_cells if c not in group for d in digits_of(board.cands[c] & mask))
            if removed:
                yield Step(
                    f"naked_{_SIZE_NAMES[size]}",
                    eliminations=removed,
                    units=(unit,),
                    cells=group,
                    cause=tuple((c, d) for c in group for d in digits_of(board.cands[c])),
                    text=f"{label}: in {unit_name(unit)}, {names(group)} hold only {digit_list(digits_of(mask))}, "
                    f"so those digits leave the other cells of {unit_name(unit)}.",
                )


def _hidden(size: int, board: Board, units: Iterable[int] = ALL_UNITS) -> Iterator[Step]:
    """n digits confined to n cells of a house: those cells lose every other candidate."""
    label = f"Hidden {_SIZE_NAMES[size]}"
    for unit, _ in _houses_with_room(board, size, units):
        cells = UNITS[unit]
        positions = board.unit_positions(unit)
        digits = [d for d in range(1, 10) if 2 <= POPCOUNT[positions[d - 1]] <= size]
        for group in combinations(digits, size):
            union = 0
            for d in group:
                union |= positions[d - 1]
            if POPCOUNT[union] != size:
                continue
            where = [cells[i] for i in range(9) if union >> i & 1]
            keep = sum(bit(d) for d in group)
            removed = tuple((c, d) for c in where for d in digits_of(board.cands[c] & ~keep))
            if removed:
                yield Step(
                    f"hidden_{_SIZE_NAMES[size]}",
                    eliminations=removed,
                    units=(unit,),
                    cells=tuple(where),
                    cause=tuple((c, d) for c in where for d in group if board.cands[c] & bit(d)),
                    text=f"{label}: in {unit_name(unit)}, {digit_list(group)} can only go in {names(where)}, "
                    "so those cells hold nothing else.",
                )


# The finders of the catalogue, each over the houses it is given (every house by default).
naked_pair = partial(_naked, 2)
naked_triple = partial(_naked, 3)
naked_quad = partial(_naked, 4)
hidden_pair = partial(_hidden, 2)
hidden_triple = partial(_hidden, 3)
hidden_quad = partial(_hidden, 4)
