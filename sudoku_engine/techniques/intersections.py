"""Intersections: pointing and claiming (locked candidates 1 and 2), locked pairs and triples."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import combinations

from ..board import Board, Step
from ..grid import DIGITS, POPCOUNT, UNITS, UNITS_OF, digits_of, unit_name
from .common import digit_list, names

# Positions 0..8 of a box (row-major) that form one of its rows or columns; of a line, one box's third.
_BOX_LINES = (0b000000111, 0b000111000, 0b111000000, 0b001001001, 0b010010010, 0b100100100)
_LINE_THIRDS = (0b000000111, 0b000111000, 0b111000000)


def _line_units(cells: list[int]) -> list[int]:
    """Row and column units that contain every one of the cells."""
    return [u for u in UNITS_OF[cells[0]][:2] if all(u in UNITS_OF[c] for c in cells)]


def pointing(board: Board, digits: Iterable[int] = DIGITS) -> Iterator[Step]:
    """Locked candidates 1: a digit confined to one line inside a box leaves the rest of that line."""
    for box in range(18, 27):
        positions = board.unit_positions(box)
        for digit in digits:
            mask = positions[digit - 1]
            if POPCOUNT[mask] < 2 or not any(mask & ~line == 0 for line in _BOX_LINES):
                continue
            places = [UNITS[box][i] for i in range(9) if mask >> i & 1]
            for line in _line_units(places):
                removed = tuple((c, digit) for c in UNITS[line] if c not in places and board.has(c, digit))
                if removed:
                    yield Step(
                        "pointing", eliminations=removed, cause=tuple((c, digit) for c in places),
                        units=(box, line), cells=tuple(places),
                        text=f"Pointing: in {unit_name(box)}, {digit} can only go in {names(places)}, all in "
                        f"{unit_name(line)}, so {digit} leaves the rest of {unit_name(line)}.",
                    )


def claiming(board: Board, digits: Iterable[int] = DIGITS) -> Iterator[Step]:
    """Locked candidates 2: a digit confined to one box inside a line leaves the rest of that box."""
    for line in range(18):
        positions = board.unit_positions(line)
        for digit in digits:
            mask = positions[digit - 1]
            if POPCOUNT[mask] < 2 or not any(mask & ~third == 0 for third in _LINE_THIRDS):
                continue
            places = [UNITS[line][i] for i in range(9) if mask >> i & 1]
            box = UNITS_OF[places[0]][2]
            if any(UNITS_OF[c][2] != box for c in places):
                continue
            removed = tuple((c, digit) for c in UNITS[box] if c not in places and board.has(c, digit))
            if removed:
                yield Step(
                    "claiming", eliminations=removed, cause=tuple((c, digit) for c in places),
                    units=(line, box), cells=tuple(places),
                    text=f"Claiming: in {unit_name(line)}, {digit} can only go in {names(places)}, all in "
                    f"{unit_name(box)}, so {digit} leaves the rest of {unit_name(box)}.",
                )


def _box_line_groups(size: int) -> tuple[tuple[tuple[tuple[int, ...], int], ...], ...]:
    """Per box, its groups of ``size`` cells inside one box-line intersection, in lexicographic order, each with
    its places in the box as bits."""
    groups = []
    for box in range(18, 27):
        thirds = [[i for i in range(9) if line >> i & 1] for line in _BOX_LINES]
        places = sorted({group for third in thirds for group in combinations(third, size)})
        groups.append(tuple((tuple(UNITS[box][i] for i in g), sum(1 << i for i in g)) for g in places))
    return tuple(groups)


_GROUPS = {size: _box_line_groups(size) for size in (2, 3)}


def _locked_subsets(board: Board, size: int, technique: str, label: str) -> Iterator[Step]:
    """A naked subset inside a box-line intersection clears its digits from both houses."""
    values, cands = board.values, board.cands
    for box, groups in zip(range(18, 27), _GROUPS[size]):
        fit = 0
        for i, c in enumerate(UNITS[box]):
            if not values[c] and 2 <= POPCOUNT[cands[c]] <= size:
                fit |= 1 << i
        for group, places in groups:
            if places & ~fit:
                continue
            mask = 0
            for c in group:
                mask |= board.cands[c]
            lines = _line_units(list(group))
            if POPCOUNT[mask] != size or not lines:
                continue
            houses = (box, lines[0])
            removed = tuple(
                (c, d) for u in houses for c in UNITS[u] if c not in group
                for d in digits_of(board.cands[c] & mask)
            )
            removed = tuple(dict.fromkeys(removed))
            if removed:
                digits = digit_list(digits_of(mask))
                yield Step(
                    technique, eliminations=removed, units=houses, cells=group,
                    cause=tuple((c, d) for c in group for d in digits_of(board.cands[c])),
                    text=f"{label}: {names(group)} hold only {digits} and lie in both {unit_name(box)} and "
                    f"{unit_name(lines[0])}, so {digits} leave the rest of both.",
                )


def locked_pair(board: Board) -> Iterator[Step]:
    """Two cells of a box and a line with the same two candidates."""
    return _locked_subsets(board, 2, "locked_pair", "Locked pair")


def locked_triple(board: Board) -> Iterator[Step]:
    """Three cells of a box and a line with three candidates between them."""
    return _locked_subsets(board, 3, "locked_triple", "Locked triple")


