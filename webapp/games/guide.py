"""The technique guide: each family of the catalogue in plain words, and a worked example from a real position.

A hint names its technique; the hint panel shows the family's paragraph and links to the family's page
(``/techniques/<family>``), which draws the example's position as a board. The examples are written by
``scripts/technique_examples.py`` into ``technique_examples.json`` beside this module (one real position per
family, taken along the logic solver's path through the seed set, with the step found there).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from sudoku_engine.board import Board
from sudoku_engine.grid import parse_values
from sudoku_engine.techniques import BY_ID, CATALOGUE

EXAMPLES_FILE = Path(__file__).with_name("technique_examples.json")
Pair = tuple[int, int]  # a cell and a digit


@dataclass(frozen=True)
class Family:
    """A family of techniques as the guide shows it: its id, title and one paragraph in plain words."""

    id: str
    title: str
    about: str

    @property
    def techniques(self) -> tuple[str, ...]:
        """The names of the catalogue's techniques of this family, in catalogue order."""
        return tuple(t.name for t in CATALOGUE if t.family == self.id)


_FAMILIES = (
    Family(
        "singles",
        "Singles",
        "Singles place a digit. A full house is the last empty cell of a row, column or box: it takes the one digit "
        "that house still lacks. A hidden single is a digit that has only one place left in a row, column or box, "
        "so it goes there even when that cell has other candidates. A naked single is a cell whose row, column "
        "and box already hold every digit but one, so it takes that last digit.",
    ),
    Family(
        "intersections",
        "Locked candidates",
        "Locked candidates work where a box meets a row or a column. Pointing: when all the places of a digit "
        "inside a box lie in one row (or column), the box's digit must be in that row, so the digit leaves the "
        "rest of the row outside the box. Claiming: when all the places of a digit in a row or column lie in one "
        "box, the digit leaves the other cells of that box. A locked pair or triple is a naked pair or triple whose "
        "cells lie in both one box and one line: its digits leave the rest of both.",
    ),
    Family(
        "subsets",
        "Naked and hidden subsets",
        "Subsets are groups of cells and digits of the same size inside one row, column or box. Naked: when two "
        "cells of a house hold only the same two digits (three cells only three digits between them, four cells "
        "four), those digits must fill those cells, so they leave every other cell of the house. Hidden: when two "
        "digits can only go in the same two cells of a house (three in three, four in four), those cells must hold "
        "them, so every other candidate leaves those cells.",
    ),
    Family(
        "fish",
        "Fish (X-Wing, Swordfish, Jellyfish)",
        "Fish follow one digit across several rows and columns. X-Wing: when in two rows a digit can only go in "
        "the same two columns, those two rows put the digit in both columns, so it leaves every other cell of "
        "those columns (and the same with rows and columns swapped). A Swordfish does this with three lines, a "
        "Jellyfish with four. A finned fish has extra places (fins) in one box: either a fin holds the digit or "
        "the fish holds, so only cells that the fish would clear and that also see every fin lose it. Sashimi "
        "fish are finned fish with a cell of the pattern missing; Franken fish use boxes as some of their lines.",
    ),
    Family(
        "single_digit",
        "Single-digit patterns",
        "These patterns follow one digit through conjugate pairs: houses where the digit has exactly two places, "
        "so one of the two holds it. A Skyscraper joins two such pairs in parallel lines, a 2-String Kite a row "
        "pair and a column pair that meet in a box, a Turbot Fish two pairs whose near ends see each other. In "
        "each, one of the two far ends holds the digit, so a cell that sees both far ends cannot. An Empty "
        "Rectangle uses a box where the digit's places all lie in one row and one column, together with a pair "
        "outside the box, to rule out the cell where both would need the digit.",
    ),
    Family(
        "wings",
        "Wings",
        "Wings combine a few cells with few candidates. XY-Wing: a pivot cell holding X and Y sees one cell "
        "holding X and Z and another holding Y and Z; whichever digit the pivot takes, one of those two cells is "
        "Z, so Z leaves every cell that sees both. An XYZ-Wing's pivot also holds Z, so Z leaves the cells that "
        "see all three; WXYZ- and VWXYZ-Wings extend this to four and five digits. A W-Wing joins two cells "
        "holding the same two digits through a conjugate pair of one of them, so the other digit leaves the cells "
        "that see both. A Remote Pair is a chain of cells with the same two digits, each seeing the next: cells an "
        "odd number of links apart hold different digits, so a cell seeing two of them can hold neither.",
    ),
    Family(
        "uniqueness",
        "Uniqueness",
        "These rely on the puzzle having exactly one solution, as every puzzle here does. Four cells at the "
        "corners of a rectangle in two rows, two columns and two boxes that could hold only the same two digits "
        "would let those digits swap, giving two solutions (a deadly pattern). A Unique Rectangle uses the extra "
        "candidates of some corners: one of them must be true to avoid the deadly pattern, which removes "
        "candidates. Avoidable Rectangles do the same with digits you placed, Hidden Rectangles with conjugate "
        "pairs. BUG+1: when every open cell but one has exactly two candidates, the one with three must take the "
        "digit that appears three times in its row, column or box.",
    ),
    Family(
        "exclusion",
        "Aligned Pair Exclusion",
        "Aligned Pair Exclusion looks at two open cells and the cells with exactly two candidates that see both of "
        "them. It lists the pairs of digits the two cells could take together: a pair is impossible when it is "
        "exactly the two candidates of one of those cells (that cell would be left with none), or when both digits "
        "are the same and the two cells see each other. A candidate of either cell that appears in no possible "
        "pair is removed.",
    ),
    Family(
        "colouring",
        "Colouring",
        "Colouring follows one digit through its conjugate pairs (houses where it has exactly two places) and "
        "paints the cells of each connected group in two alternating colours: all the cells of one colour hold "
        "the digit, and none of the other. When two cells of the same colour share a house, that colour cannot "
        "hold the digit (a wrap); a cell that sees both colours cannot hold it either (a trap). Multi Colours "
        "links two groups: when a colour of one group sees both colours of another, it is false.",
    ),
    Family(
        "chains",
        "Chains and loops",
        "Chains follow candidates through links. A strong link joins two candidates of which at least one is true "
        "(a cell with two candidates, or a digit with two places in a house); a weak link joins two that cannot "
        "both be true (they are in one cell, or the same digit in cells that see each other). A chain that "
        "alternates strong and weak links proves that one of its two ends is true, so a candidate that is false "
        "whenever either end is true can go. X-Chains use one digit, XY-Chains cells with two candidates; Nice "
        "Loops and AICs mix both, and their grouped forms treat several cells of a box and line as one.",
    ),
    Family(
        "als",
        "Almost locked sets",
        "An almost locked set is a group of cells in one house holding one digit more than it has cells: take any "
        "one of its digits away and the rest are locked in. ALS-XZ: two such sets share a digit X whose places in "
        "both sets all see each other, so at most one set holds X and the other is locked; then for another digit "
        "Z of both sets, one of them holds Z, and Z leaves every cell that sees all the Z places of both. ALS-XY-"
        "Wings and ALS chains link three or more sets the same way; Sue de Coq splits the cells where a box meets a "
        "line between the digits the line needs and those the box needs.",
    ),
    Family(
        "forcing",
        "Forcing chains",
        "Forcing chains try each possibility in turn (each candidate of a cell, or each place of a digit in a "
        "house) and follow what it forces, mostly singles. When every possibility leads to the same result, that "
        "result is true; when one assumption leads to a contradiction (a cell with no candidate left, a digit with "
        "no place in a house), that assumption is false. Forcing nets let a deduction rest on several earlier "
        "ones, and nested forcing chains use forcing chains inside their steps.",
    ),
    Family(
        "last_resort",
        "Bifurcation",
        "Bifurcation is trial and error: assume a candidate, follow what it forces, and when that ends in a "
        "contradiction the candidate is removed. It is the last resort, used only when no other technique here "
        "applies, so that every puzzle has a complete solving path.",
    ),
)

FAMILIES: dict[str, Family] = {family.id: family for family in _FAMILIES}


def family_of(technique: str) -> Family | None:
    """The guide's family of a technique id (None for the hints that are no technique: a wrong digit, a mark)."""
    entry = BY_ID.get(technique)
    return FAMILIES[entry.family] if entry else None


_FAMILY_OF_NAME = {t.name: t.family for t in CATALOGUE}


def family_named(name: str) -> Family | None:
    """The guide's family of a technique's name as the catalogue writes it (None for an unknown name)."""
    family = _FAMILY_OF_NAME.get(name)
    return FAMILIES[family] if family else None


@dataclass(frozen=True)
class Example:
    """A worked example: a real position (digits and candidates) of a puzzle and the step found there."""

    family: str
    technique: str
    puzzle: str
    position: str
    candidates: tuple[int, ...]
    placements: tuple[Pair, ...]
    eliminations: tuple[Pair, ...]
    cause: tuple[Pair, ...]
    cells: tuple[int, ...]
    units: tuple[int, ...]
    text: str

    def board(self) -> Board:
        """The position as the finders see it: the puzzle's givens, the digits placed and the candidates."""
        board = Board.from_values(parse_values(self.position), parse_values(self.puzzle))
        board.cands = list(self.candidates)
        return board


def _pairs(rows: list[list[int]]) -> tuple[Pair, ...]:
    """(cell, digit) pairs from the lists JSON keeps them in."""
    return tuple((int(cell), int(digit)) for cell, digit in rows)


@cache
def examples() -> dict[str, Example]:
    """The stored worked examples by family."""
    records = json.loads(EXAMPLES_FILE.read_text())
    return {
        record["family"]: Example(
            family=record["family"],
            technique=record["technique"],
            puzzle=record["puzzle"],
            position=record["position"],
            candidates=tuple(record["candidates"]),
            placements=_pairs(record["placements"]),
            eliminations=_pairs(record["eliminations"]),
            cause=_pairs(record["cause"]),
            cells=tuple(record["cells"]),
            units=tuple(record["units"]),
            text=record["text"],
        )
        for record in records
    }
