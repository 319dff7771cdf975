"""The vocabulary of Sudoku: cells, units, peers, digits, candidate bitmasks, and puzzle text.

Glossary:

- Cell: an int 0..80 in row-major order, named ``r1c1``..``r9c9`` in any text a person reads.
- Digit: an int 1..9; 0 stands for an empty cell inside a list of values.
- Unit: one of the 27 houses (rows 0-8, columns 9-17, boxes 18-26); every cell lies in 3 units.
- Peers: the 20 other cells that share a unit with a cell.
- Candidates: a 9-bit int per cell; bit ``d - 1`` set means digit ``d`` is still possible.
- Puzzle text: 81 characters, ``1``-``9`` for givens and ``.`` or ``0`` for blanks. Grid pictures with
  whitespace and ``|``, ``-``, ``+`` frame characters are accepted too; anything else is ``InvalidPuzzle``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

Cell = int
Digit = int
Candidates = int
Values = tuple[int, ...]

DIGITS: tuple[Digit, ...] = tuple(range(1, 10))
CELLS: tuple[Cell, ...] = tuple(range(81))
ALL_CANDIDATES: Candidates = 0x1FF

ROWS: tuple[tuple[Cell, ...], ...] = tuple(tuple(r * 9 + c for c in range(9)) for r in range(9))
COLS: tuple[tuple[Cell, ...], ...] = tuple(tuple(r * 9 + c for r in range(9)) for c in range(9))
BOXES: tuple[tuple[Cell, ...], ...] = tuple(
    tuple((br * 3 + r) * 9 + bc * 3 + c for r in range(3) for c in range(3)) for br in range(3) for bc in range(3)
)
UNITS: tuple[tuple[Cell, ...], ...] = ROWS + COLS + BOXES
UNIT_KINDS: tuple[str, ...] = ("row",) * 9 + ("column",) * 9 + ("box",) * 9


def row_of(cell: Cell) -> int:
    """Row index 0..8 of a cell."""
    return cell // 9


def col_of(cell: Cell) -> int:
    """Column index 0..8 of a cell."""
    return cell % 9


def box_of(cell: Cell) -> int:
    """Box index 0..8 of a cell (boxes numbered left to right, top to bottom)."""
    return (cell // 27) * 3 + (cell % 9) // 3


UNITS_OF: tuple[tuple[int, int, int], ...] = tuple((row_of(c), 9 + col_of(c), 18 + box_of(c)) for c in CELLS)
PEERS: tuple[tuple[Cell, ...], ...] = tuple(
    tuple(sorted({p for u in UNITS_OF[c] for p in UNITS[u]} - {c})) for c in CELLS
)

POPCOUNT: tuple[int, ...] = tuple(bin(m).count("1") for m in range(512))
MASK_DIGITS: tuple[tuple[Digit, ...], ...] = tuple(tuple(d for d in DIGITS if m >> (d - 1) & 1) for m in range(512))
SINGLE_DIGIT: dict[Candidates, Digit] = {1 << (d - 1): d for d in DIGITS}


def bit(digit: Digit) -> Candidates:
    """The candidate bit of a digit."""
    return 1 << (digit - 1)


def digits_of(mask: Candidates) -> tuple[Digit, ...]:
    """The digits whose bits are set in a candidate mask, ascending."""
    return MASK_DIGITS[mask]


def cell_name(cell: Cell) -> str:
    """The name a person reads: ``r1c1`` for cell 0, ``r9c9`` for cell 80."""
    if not 0 <= cell < 81:
        raise ValueError(f"cell {cell} is outside 0..80")
    return f"r{cell // 9 + 1}c{cell % 9 + 1}"


def parse_cell(name: str) -> Cell:
    """The cell named ``rXcY`` (X, Y in 1..9); ValueError for any other text."""
    text = name.strip().lower()
    if len(text) != 4 or text[0] != "r" or text[2] != "c" or not ("1" <= text[1] <= "9") or not ("1" <= text[3] <= "9"):
        raise ValueError(f"not a cell name: {name!r} (expected r1c1..r9c9)")
    return (int(text[1]) - 1) * 9 + int(text[3]) - 1


def unit_name(unit: int) -> str:
    """The name a person reads for unit 0..26: ``row 3``, ``column 5``, ``box 9``."""
    return f"{UNIT_KINDS[unit]} {unit % 9 + 1}"


class InvalidPuzzle(ValueError):
    """Puzzle text that is not a valid Sudoku position; the message says what and where."""


_FRAME_CHARS = frozenset("|-+")
_BLANKS = frozenset(".0")


_PLAIN = frozenset("0123456789.")  # the one-line form: 81 of these characters, read at C speed
_TO_VALUES = bytes.maketrans(b"0123456789.", bytes(range(10)) + b"\x00")


def _cells_from_text(text: str) -> list[int]:
    """Values of the cells written in a text, frame characters and whitespace skipped."""
    if len(text) == 81 and _PLAIN.issuperset(text):
        return list(text.encode("ascii").translate(_TO_VALUES))
    values: list[int] = []
    for position, char in enumerate(text):
        if char.isspace() or char in _FRAME_CHARS:
            continue
        if char in _BLANKS:
            values.append(0)
        elif "1" <= char <= "9":
            values.append(ord(char) - 48)
        else:
            raise InvalidPuzzle(
                f"invalid character {char!r} at position {position + 1}: "
                "only digits 1-9 and '.' or '0' for blanks are allowed"
            )
    return values


def find_conflict(values: Sequence[int]) -> tuple[Digit, Cell, Cell, int] | None:
    """The first pair of equal digits in one unit, as (digit, cell, other cell, unit), or None."""
    for unit_index, unit in enumerate(UNITS):
        seen: dict[int, Cell] = {}
        for cell in unit:
            digit = values[cell]
            if digit:
                if digit in seen:
                    return digit, seen[digit], cell, unit_index
                seen[digit] = cell
    return None


def check_no_conflict(values: Sequence[int]) -> None:
    """Raise InvalidPuzzle naming the first two equal digits in one unit, if there are any."""
    conflict = find_conflict(values)
    if conflict is not None:
        digit, first, second, unit = conflict
        raise InvalidPuzzle(f"two {digit}s in {unit_name(unit)}: {cell_name(first)} and {cell_name(second)}")


def parse_values(text: str) -> Values:
    """Parse puzzle text into 81 values (0 = blank), or raise InvalidPuzzle saying what and where."""
    values = _cells_from_text(text)
    if len(values) != 81:
        raise InvalidPuzzle(f"wrong length: {len(values)} cells, expected 81")
    check_no_conflict(values)
    return tuple(values)


def parse_position(text: str) -> Values:
    """Parse a player's position: like ``parse_values`` but equal digits in a unit are allowed (player errors)."""
    values = _cells_from_text(text)
    if len(values) != 81:
        raise InvalidPuzzle(f"wrong length: {len(values)} cells, expected 81")
    return tuple(values)


def format_values(values: Iterable[int]) -> str:
    """The 81-character text of a list of values, ``.`` for blanks."""
    return "".join(str(v) if v else "." for v in values)


@dataclass(frozen=True)
class Grid:
    """A Sudoku position: 81 values, 0 for an empty cell. Immutable; parse with ``Grid.parse``."""

    values: Values

    def __post_init__(self) -> None:
        if len(self.values) != 81 or any(not (0 <= v <= 9) for v in self.values):
            raise InvalidPuzzle("a grid holds exactly 81 values, each 0..9")

    @classmethod
    def parse(cls, text: str) -> Grid:
        """Parse puzzle text or a grid picture; InvalidPuzzle names the problem and its position."""
        return cls(parse_values(text))

    def __str__(self) -> str:
        return format_values(self.values)

    def __repr__(self) -> str:
        return f"Grid.parse({str(self)!r})"

    def __getitem__(self, cell: Cell) -> int:
        return self.values[cell]

    @property
    def givens(self) -> int:
        """How many cells hold a digit."""
        return sum(1 for v in self.values if v)

    @property
    def is_complete(self) -> bool:
        """True when every cell holds a digit."""
        return all(self.values)

    def picture(self) -> str:
        """A nine-line picture of the grid with box borders, for people."""
        lines = []
        for r in range(9):
            if r in (3, 6):
                lines.append("------+-------+------")
            row = [str(v) if v else "." for v in self.values[r * 9 : r * 9 + 9]]
            lines.append(" | ".join(" ".join(row[i : i + 3]) for i in (0, 3, 6)))
        return "\n".join(lines)

    def candidates(self) -> list[Candidates]:
        """Candidate masks of every cell from the placed digits alone (placed cells: their own bit)."""
        masks = [ALL_CANDIDATES] * 81
        for cell, digit in enumerate(self.values):
            if digit:
                masks[cell] = bit(digit)
                clear = ~bit(digit)
                for peer in PEERS[cell]:
                    if not self.values[peer]:
                        masks[peer] &= clear
        return masks


def is_valid_solution(puzzle: Sequence[int], solution: Sequence[int]) -> bool:
    """True when ``solution`` is a full valid grid that keeps every given of ``puzzle``.

    Checked from the rules alone (each row, column and box a permutation of 1..9), never by solving.
    """
    if len(solution) != 81 or len(puzzle) != 81:
        return False
    if any(given and given != value for given, value in zip(puzzle, solution)):
        return False
    return all(sorted(solution[c] for c in unit) == list(DIGITS) for unit in UNITS)
