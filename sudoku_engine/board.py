"""A position with pencil marks: placed digits plus candidate masks, and the Step a technique yields.

Every human technique reads a ``Board`` and yields ``Step`` objects; the logic solver and
the hint ladder apply them. A Board's candidates are whatever the position says: computed from the placed
digits, or a player's own pencil marks. A board may also know which placed digits are the puzzle's givens
(Avoidable Rectangles need it); one that does not know (``givens is None``) makes such techniques find nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar, cast

from .grid import (
    ALL_CANDIDATES,
    PEERS,
    UNITS,
    UNITS_OF,
    Candidates,
    Cell,
    Digit,
    Grid,
    InvalidPuzzle,
    bit,
    cell_name,
    find_conflict,
)

Candidate = tuple[Cell, Digit]


@dataclass(frozen=True)
class Step:
    """One deduction: what it places and eliminates, what causes it, and a sentence a player can follow."""

    technique: str
    placements: tuple[Candidate, ...] = ()
    eliminations: tuple[Candidate, ...] = ()
    cause: tuple[Candidate, ...] = ()
    units: tuple[int, ...] = ()
    text: str = ""
    cells: tuple[Cell, ...] = field(default=())
    length: int = 0  # nodes of a chain or loop (0 for fixed patterns); raises the SE-style rating

    @property
    def is_progress(self) -> bool:
        """True when the step changes the position."""
        return bool(self.placements or self.eliminations)

    def cause_cells(self) -> tuple[Cell, ...]:
        """Cells that cause the step (its pattern), in order, without repeats."""
        return tuple(dict.fromkeys([*self.cells, *(cell for cell, _ in self.cause)]))

    def as_dict(self) -> dict[str, object]:
        """The JSON form of ARCHITECTURE.md, Contracts: cells named ``r1c1``, candidates as [name, digit]."""
        return {
            "technique": self.technique,
            "placements": [[cell_name(c), d] for c, d in self.placements],
            "eliminations": [[cell_name(c), d] for c, d in self.eliminations],
            "cause": [[cell_name(c), d] for c, d in self.cause],
            "text": self.text,
        }

    def __str__(self) -> str:
        return self.text or self.technique


def _raise_conflict(values: Sequence[int]) -> None:
    """InvalidPuzzle naming the first two equal digits that see each other, if there are any."""
    conflict = find_conflict(values)
    if conflict is not None:
        digit, first, second, _unit = conflict
        raise InvalidPuzzle(f"two {digit}s see each other: {cell_name(first)} and {cell_name(second)}")


def _givens_mask(values: Sequence[int], givens: Sequence[int]) -> int:
    """The cells of the givens as a cell mask; ValueError when a given is not the position's digit there."""
    mask = 0
    for cell, (value, given) in enumerate(zip(values, givens, strict=True)):
        if given:
            if value != given:
                raise ValueError(f"the given {given} of {cell_name(cell)} is not the position's digit there")
            mask |= 1 << cell
    return mask


_T = TypeVar("_T")


class Memo:
    """The caches technique finders keep while they look at the positions of one solve or one hint.

    Every entry is keyed by what its value is computed from (a digit's candidate cells, a house's marks, the
    whole position), so it is right for whichever position asks. A Memo belongs to the board it was made with
    and to that board's copies: the logic solver applies steps to one board, so the later positions of a solve
    reuse what the earlier ones worked out (most digits and houses do not change from one step to the next). A
    board made from a puzzle, a position or pencil marks starts with an empty Memo, so nothing is remembered
    past the solve, the hint, the request or the test that made it. Each named cache starts afresh when it grows
    past its limit.
    """

    __slots__ = ("_caches",)

    def __init__(self) -> None:
        # by name (a str) for the caches finders fill themselves, by the function for those ``call`` fills
        self._caches: dict[Hashable, dict[Hashable, object]] = {}

    def cache(self, name: Hashable, limit: int) -> dict[Hashable, object]:
        """The named cache (empty on first use, emptied when it holds more than ``limit`` entries)."""
        found = self._caches.get(name)
        if found is None or len(found) > limit:
            found = self._caches[name] = {}
        return found

    def call(self, function: Callable[..., _T], *args: Hashable, limit: int) -> _T:
        """``function(*args)``, kept in the function's own cache under ``args``."""
        entries = self.cache(function, limit)
        if args in entries:
            return cast(_T, entries[args])
        value = entries[args] = function(*args)
        return value

    def sizes(self) -> dict[str, int]:
        """How many entries each cache holds, by name (a function's cache by its module and name)."""
        return {_cache_name(key): len(entries) for key, entries in self._caches.items()}


def _cache_name(key: Hashable) -> str:
    """A cache's name: its own when it is a string, else its function's module and name."""
    if isinstance(key, str):
        return key
    return f"{getattr(key, '__module__', '')}.{getattr(key, '__qualname__', repr(key))}"


class Board:
    """Placed digits and candidate masks of a position (a placed cell has no candidates).

    ``givens`` is the cell mask (bit = cell index) of the placed digits that are the puzzle's givens, or None
    when the board does not know them (a pencil-mark grid); copies keep it and placing digits leaves it alone.
    ``memo`` holds what the finders remember about this board's positions (see ``Memo``); copies share it.
    """

    __slots__ = ("values", "cands", "givens", "memo")

    def __init__(
        self, values: Sequence[int], cands: Sequence[Candidates], givens: int | None = None, memo: Memo | None = None
    ) -> None:
        self.values: list[int] = list(values)
        self.cands: list[Candidates] = list(cands)
        self.givens: int | None = givens
        self.memo: Memo = Memo() if memo is None else memo

    @classmethod
    def from_values(cls, values: Sequence[int], givens: Sequence[int] | None = None) -> Board:
        """The board of a position with every candidate the placed digits allow.

        ``givens``: the puzzle's clues (81 digits, 0 for blank) when the position holds more digits than them
        (a game in progress); by default every placed digit is a given (the position is a puzzle's start).
        """
        used = [0] * 27  # per unit, the bits of its placed digits
        for cell, digit in enumerate(values):
            if digit:
                b = bit(digit)
                for unit in UNITS_OF[cell]:
                    if used[unit] & b:
                        _raise_conflict(values)
                    used[unit] |= b
        cands = [
            0 if v else ALL_CANDIDATES & ~(used[row] | used[col] | used[box])
            for v, (row, col, box) in zip(values, UNITS_OF)
        ]
        return cls(values, cands, _givens_mask(values, values if givens is None else givens))

    @classmethod
    def from_pencilmarks(cls, text: str) -> Board:
        """A board from 81 whitespace-separated tokens of candidate digits; a one-digit token is a placed digit.

        Frame characters ``| - + * .`` and blank lines are ignored, so forum-style candidate grids paste as is.
        The grid does not say which placed digits are givens, so the board's ``givens`` is None.
        """
        tokens = [t for t in text.translate(str.maketrans("|-+*.", "     ")).split() if t]
        if len(tokens) != 81:
            raise InvalidPuzzle(f"wrong length: {len(tokens)} cells of candidates, expected 81")
        values, cands = [], []
        for position, token in enumerate(tokens):
            if not token.isdigit() or "0" in token or len(set(token)) != len(token):
                raise InvalidPuzzle(f"bad candidates {token!r} for {cell_name(position)}")
            digits = [int(ch) for ch in token]
            values.append(digits[0] if len(digits) == 1 else 0)
            cands.append(0 if len(digits) == 1 else sum(bit(d) for d in digits))
        _raise_conflict(values)
        return cls(values, cands)

    def pencilmarks(self) -> str:
        """Nine lines of candidate tokens; a placed digit as itself (so a one-candidate open cell reads back placed)."""
        tokens = [
            str(v) if v else "".join(str(d) for d in range(1, 10) if self.cands[c] >> (d - 1) & 1)
            for c, v in enumerate(self.values)
        ]
        width = max(len(t) for t in tokens)
        return "\n".join(" ".join(t.ljust(width) for t in tokens[r * 9 : r * 9 + 9]).rstrip() for r in range(9))

    @classmethod
    def from_grid(cls, grid: Grid | str) -> Board:
        """The board of a Grid or puzzle text, its digits the givens."""
        return cls.from_values((grid if isinstance(grid, Grid) else Grid.parse(grid)).values)

    def copy(self) -> Board:
        """A copy with its own digits and candidates (the same givens, the same memo)."""
        return Board(self.values, self.cands, self.givens, self.memo)

    def place(self, cell: Cell, digit: Digit) -> None:
        """Place a digit and remove it from the candidates of the cell's peers."""
        self.values[cell] = digit
        self.cands[cell] = 0
        clear = ~bit(digit)
        for peer in PEERS[cell]:
            self.cands[peer] &= clear

    def eliminate(self, cell: Cell, digit: Digit) -> None:
        """Remove one candidate."""
        self.cands[cell] &= ~bit(digit)

    def apply(self, step: Step) -> None:
        """Apply a step's placements and eliminations."""
        for cell, digit in step.placements:
            self.place(cell, digit)
        for cell, digit in step.eliminations:
            self.eliminate(cell, digit)

    def has(self, cell: Cell, digit: Digit) -> bool:
        """True when the digit is a candidate of the cell."""
        return bool(self.cands[cell] >> (digit - 1) & 1)

    def places(self, unit: int, digit: Digit) -> list[Cell]:
        """Cells of a unit where the digit is still a candidate."""
        b = bit(digit)
        return [cell for cell in UNITS[unit] if self.cands[cell] & b]

    def unit_positions(self, unit: int) -> list[int]:
        """For each digit 1..9 (index d - 1), the 9-bit mask of the unit's positions where it is a candidate."""
        positions = [0] * 9
        for index, cell in enumerate(UNITS[unit]):
            mask = self.cands[cell]
            while mask:
                low = mask & -mask
                positions[low.bit_length() - 1] |= 1 << index
                mask ^= low
        return positions

    def cells_with(self, digit: Digit) -> list[Cell]:
        """Every cell where the digit is a candidate."""
        b = bit(digit)
        return [cell for cell in range(81) if self.cands[cell] & b]

    def empty_cells(self) -> list[Cell]:
        """Cells without a digit."""
        return [cell for cell in range(81) if not self.values[cell]]

    @property
    def is_solved(self) -> bool:
        """True when every cell holds a digit."""
        return all(self.values)

    def grid(self) -> Grid:
        """The placed digits as a Grid."""
        return Grid(tuple(self.values))

    def candidate_list(self) -> Iterable[Candidate]:
        """Every (cell, digit) candidate on the board."""
        for cell in range(81):
            mask = self.cands[cell]
            while mask:
                low = mask & -mask
                yield cell, low.bit_length()
                mask ^= low
