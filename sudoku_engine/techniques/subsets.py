"""Subsets: naked and hidden pairs, triples and quads (each house searched on its own: the finders take houses)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import combinations

from ..board import Board, Step
from ..grid import POPCOUNT, UNITS, bit, digits_of, unit_name
from .common import digit_list, names

ALL_UNITS = range(27)

_SIZE_NAMES = {2: "pair", 3: "triple", 4: "quad"}


def _naked(board: Board, size: int, units: Iterable[int]) -> Iterator[Step]:
    """n cells of a house with n candidates between them: those digits leave the house's other cells."""
    label = f"Naked {_SIZE_NAMES[size]}"
    for unit in units:
        cells = UNITS[unit]
        open_cells = [c for c in cells if not board.values[c]]
        if len(open_cells) <= size:
            continue
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


def _hidden(board: Board, size: int, units: Iterable[int]) -> Iterator[Step]:
    """n digits confined to n cells of a house: those cells lose every other candidate."""
    label = f"Hidden {_SIZE_NAMES[size]}"
    for unit in units:
        cells = UNITS[unit]
        open_cells = [c for c in cells if not board.values[c]]
        if len(open_cells) <= size:
            continue
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


def naked_pair(board: Board, units: Iterable[int] = ALL_UNITS) -> Iterator[Step]:
    """Naked pair."""
    return _naked(board, 2, units)


def naked_triple(board: Board, units: Iterable[int] = ALL_UNITS) -> Iterator[Step]:
    """Naked triple."""
    return _naked(board, 3, units)


def naked_quad(board: Board, units: Iterable[int] = ALL_UNITS) -> Iterator[Step]:
    """Naked quad."""
    return _naked(board, 4, units)


def hidden_pair(board: Board, units: Iterable[int] = ALL_UNITS) -> Iterator[Step]:
    """Hidden pair."""
    return _hidden(board, 2, units)


def hidden_triple(board: Board, units: Iterable[int] = ALL_UNITS) -> Iterator[Step]:
    """Hidden triple."""
    return _hidden(board, 3, units)


def hidden_quad(board: Board, units: Iterable[int] = ALL_UNITS) -> Iterator[Step]:
    """Hidden quad."""
    return _hidden(board, 4, units)
