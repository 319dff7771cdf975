"""Fish: basic X-Wing, Swordfish and Jellyfish, and their finned and sashimi forms (HoDoKu's definitions).

A fish of size n on one digit takes n base lines (rows, or columns) whose candidates lie in n cover lines
of the other direction. Basic fish: every base candidate is covered, so the digit leaves the rest of the
cover lines. Finned fish: the uncovered base candidates (the fins) all lie in one box; either a fin is
true or the fish is, so only cover cells in the fin box outside the base lines lose the digit. Sashimi
fish: a finned fish in which some base line keeps a single covered candidate, so without its fins the
fish would be degenerate. Every base line holds two candidates at least (a line with one is a hidden
single, not a fish line), every base line keeps a covered candidate (a line of fins alone would only
restate locked candidates) and every cover line holds a covered base candidate. Search bounds: a finned
fish of size n has at most n + 3 columns among its base candidates (its fins lie in one box), which
prunes the base combinations as they grow; at most C(9, 4) = 126 base sets per digit and direction.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations

from ..board import Board, Step
from ..grid import POPCOUNT, digits_of
from .common import names

_NAMES = {2: "X-Wing", 3: "Swordfish", 4: "Jellyfish"}
_STACKS = (0b000000111, 0b000111000, 0b111000000)


@dataclass(frozen=True)
class _Fish:
    """One fish found on a board: its lines, body, fins and eliminations."""

    digit: int
    rows_base: bool
    base: tuple[int, ...]
    cover: tuple[int, ...]
    body: tuple[int, ...]
    fins: tuple[int, ...]
    fin_box: int
    eliminations: tuple[int, ...]
    sashimi: bool


def _cell(rows_base: bool, line: int, cross: int) -> int:
    """The cell at a base line and a cross position, in either direction."""
    return line * 9 + cross if rows_base else cross * 9 + line


def _positions(board: Board) -> dict[tuple[int, bool], list[int]]:
    """Per digit and direction, per base line, the mask of cross positions where the digit is a candidate."""
    pos = {(d, rows): [0] * 9 for d in range(1, 10) for rows in (True, False)}
    for cell in range(81):
        mask = board.cands[cell]
        if mask:
            r, c = divmod(cell, 9)
            for d in digits_of(mask):
                pos[d, True][r] |= 1 << c
                pos[d, False][c] |= 1 << r
    return pos


def _crosses(mask: int) -> tuple[int, ...]:
    """Cross positions 0..8 set in a mask."""
    return tuple(i for i in range(9) if mask >> i & 1)


def _make(
    pos: list[int], digit: int, rows_base: bool, base: tuple[int, ...], cover: int, fin_stack: int, band: int
) -> _Fish | None:
    """The fish of a base set and cover mask (fins in box band/stack, or none), or None without eliminations."""
    body = tuple(sorted(_cell(rows_base, line, x) for line in base for x in _crosses(pos[line] & cover)))
    fins = tuple(sorted(_cell(rows_base, line, x) for line in base for x in _crosses(pos[line] & ~cover)))
    if fins:
        targets = [(line, x) for line in range(band * 3, band * 3 + 3) if line not in base
                   for x in _crosses(cover & _STACKS[fin_stack] & pos[line])]
        fin_box = 18 + (band * 3 + fin_stack if rows_base else fin_stack * 3 + band)
    else:
        targets = [(line, x) for line in range(9) if line not in base for x in _crosses(cover & pos[line])]
        fin_box = -1
    if not targets:
        return None
    eliminations = tuple(sorted(_cell(rows_base, line, x) for line, x in targets))
    sashimi = bool(fins) and any(POPCOUNT[pos[line] & cover] == 1 for line in base)
    return _Fish(digit, rows_base, base, _crosses(cover), body, fins, fin_box, eliminations, sashimi)


def _bases(pos: list[int], lines: list[int], size: int, limit: int) -> list[tuple[tuple[int, ...], int]]:
    """Sets of ``size`` base lines (with their union of cross positions) whose union spans at most ``limit``."""
    found: list[tuple[tuple[int, ...], int]] = []

    def grow(start: int, base: tuple[int, ...], union: int) -> None:
        """Extend a partial base set, pruning as soon as its union is too wide."""
        if len(base) == size:
            found.append((base, union))
            return
        for i in range(start, len(lines) - (size - len(base)) + 1):
            wider = union | pos[lines[i]]
            if POPCOUNT[wider] <= limit:
                grow(i + 1, (*base, lines[i]), wider)

    grow(0, (), 0)
    return found


def _basic(pos: list[int], digit: int, rows_base: bool, size: int) -> Iterator[_Fish]:
    """Basic fish: n base lines whose candidates lie in exactly n cover lines."""
    lines = [line for line in range(9) if 2 <= POPCOUNT[pos[line]] <= size]
    for base, cover in _bases(pos, lines, size, size):
        fish = _make(pos, digit, rows_base, base, cover, 0, 0)
        if fish is not None:
            yield fish


def _finned(pos: list[int], digit: int, rows_base: bool, size: int) -> Iterator[_Fish]:
    """Finned and sashimi fish: n base lines covered by n cover lines except for fins inside one box."""
    lines = [line for line in range(9) if 2 <= POPCOUNT[pos[line]] <= size + 3]
    for base, union in _bases(pos, lines, size, size + 3):
        if POPCOUNT[union] <= size:
            continue
        by_band = [0, 0, 0]
        for line in base:
            by_band[line // 3] |= pos[line]
        for band in range(3):
            outside = by_band[band - 1] | by_band[band - 2]  # the two other bands
            for stack, stack_mask in enumerate(_STACKS):
                in_box = by_band[band] & stack_mask
                required = outside | (by_band[band] & ~stack_mask)
                # Every base candidate outside the fin box must be covered.
                if in_box and POPCOUNT[required] <= size:
                    yield from _finned_in_box(pos, digit, rows_base, size, base, band, stack, required, in_box)


def _finned_in_box(
    pos: list[int], digit: int, rows_base: bool, size: int, base: tuple[int, ...], band: int, stack: int,
    required: int, in_box: int,
) -> Iterator[_Fish]:
    """Finned fish of one base set whose fins lie in the box of one band and stack."""
    for extra in combinations(_crosses(in_box & ~required), size - POPCOUNT[required]):
        cover = required | sum(1 << x for x in extra)
        has_fins = any(pos[line] & ~cover for line in base)
        if not has_fins or not cover & _STACKS[stack] or any(not pos[line] & cover for line in base):
            continue
        fish = _make(pos, digit, rows_base, base, cover, stack, band)
        if fish is not None:
            yield fish


def _search(board: Board, size: int, finned: bool) -> Iterator[_Fish]:
    """Every basic (or finned) fish of a size, digit by digit, rows as base first."""
    positions = _positions(board)
    for digit in range(1, 10):
        for rows_base in (True, False):
            yield from (_finned if finned else _basic)(positions[digit, rows_base], digit, rows_base, size)


def _lines(rows: bool, indices: tuple[int, ...]) -> str:
    """House names for a sentence: ``rows 2, 5 and 7``."""
    listed = [str(i + 1) for i in indices]
    return ("rows " if rows else "columns ") + ", ".join(listed[:-1]) + " and " + listed[-1]


def _step(fish: _Fish, technique: str) -> Step:
    """The Step of a fish, with a sentence naming its lines, fins and eliminations."""
    d = fish.digit
    label = ("Sashimi " if fish.sashimi else "Finned " if fish.fins else "") + _NAMES[len(fish.base)]
    base_units = tuple(line if fish.rows_base else 9 + line for line in fish.base)
    cover_units = tuple(9 + x if fish.rows_base else x for x in fish.cover)
    base_text = _lines(fish.rows_base, fish.base)
    cover_text = _lines(not fish.rows_base, fish.cover)
    removed = names(fish.eliminations)
    if fish.fins:
        fin_word = "fin" if len(fish.fins) == 1 else "fins"
        text = (
            f"{label}: in {base_text}, {d} lies in {cover_text} apart from the {fin_word} {names(fish.fins)} "
            f"in box {fish.fin_box - 17}; either a fin is {d} or the fish holds, so {d} is removed from {removed} "
            f"(each lies in a cover line and sees every fin)."
        )
        units = base_units + cover_units + (fish.fin_box,)
    else:
        text = (
            f"{label}: in {base_text}, {d} can only go in {cover_text}, so {d} is removed from the rest of "
            f"{cover_text}: {removed}."
        )
        units = base_units + cover_units
    cells = tuple(sorted(fish.body + fish.fins))
    return Step(
        technique, eliminations=tuple((c, d) for c in fish.eliminations), cause=tuple((c, d) for c in cells),
        units=units, cells=cells, text=text,
    )


def _basic_steps(board: Board, size: int, technique: str) -> Iterator[Step]:
    """Steps of the basic fish of a size."""
    for fish in _search(board, size, finned=False):
        yield _step(fish, technique)


def _finned_steps(board: Board, size: int, sashimi: bool, technique: str) -> Iterator[Step]:
    """Steps of the finned (or sashimi) fish of a size."""
    for fish in _search(board, size, finned=True):
        if fish.sashimi == sashimi:
            yield _step(fish, technique)


def x_wing(board: Board) -> Iterator[Step]:
    """X-Wing: two base lines, two cover lines."""
    return _basic_steps(board, 2, "x_wing")


def swordfish(board: Board) -> Iterator[Step]:
    """Swordfish: three base lines, three cover lines."""
    return _basic_steps(board, 3, "swordfish")


def jellyfish(board: Board) -> Iterator[Step]:
    """Jellyfish: four base lines, four cover lines."""
    return _basic_steps(board, 4, "jellyfish")


def finned_x_wing(board: Board) -> Iterator[Step]:
    """Finned X-Wing (not sashimi)."""
    return _finned_steps(board, 2, False, "finned_x_wing")


def sashimi_x_wing(board: Board) -> Iterator[Step]:
    """Sashimi X-Wing."""
    return _finned_steps(board, 2, True, "sashimi_x_wing")


def finned_swordfish(board: Board) -> Iterator[Step]:
    """Finned Swordfish (not sashimi)."""
    return _finned_steps(board, 3, False, "finned_swordfish")


def sashimi_swordfish(board: Board) -> Iterator[Step]:
    """Sashimi Swordfish."""
    return _finned_steps(board, 3, True, "sashimi_swordfish")


def finned_jellyfish(board: Board) -> Iterator[Step]:
    """Finned Jellyfish (not sashimi)."""
    return _finned_steps(board, 4, False, "finned_jellyfish")


def sashimi_jellyfish(board: Board) -> Iterator[Step]:
    """Sashimi Jellyfish."""
    return _finned_steps(board, 4, True, "sashimi_jellyfish")
