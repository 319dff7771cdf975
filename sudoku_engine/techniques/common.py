"""Small helpers shared by the technique families: naming cells and digits in step texts, cell masks, and the
Steps of the two simplest shapes (one candidate placed or removed; one digit removed because of its places in a
pattern)."""

from __future__ import annotations

from collections.abc import Iterable, Sized

from ..board import Candidate, Step
from ..grid import PEERS, cell_name

PEER_BITS: tuple[int, ...] = tuple(sum(1 << p for p in PEERS[c]) for c in range(81))  # per cell, its peers as bits


def cells_of(mask: int) -> tuple[int, ...]:
    """The cells of a cell mask (bit = cell index), ascending."""
    cells = []
    while mask:
        low = mask & -mask
        cells.append(low.bit_length() - 1)
        mask ^= low
    return tuple(cells)


def names(cells: Iterable[int]) -> str:
    """Cell names joined for a sentence: ``r1c1, r1c5 and r2c3``."""
    listed = [cell_name(c) for c in cells]
    if len(listed) <= 1:
        return "".join(listed)
    return ", ".join(listed[:-1]) + " and " + listed[-1]


def plural(items: Sized, one: str, many: str) -> str:
    """``one`` for a single item, else ``many``: the word a sentence needs for the items."""
    return one if len(items) == 1 else many


def digit_list(digits: Iterable[int]) -> str:
    """Digits joined by slashes: ``1/4/7``."""
    return "/".join(str(d) for d in digits)


def candidate_step(
    technique: str, candidate: Candidate, text: str, *, place: bool, units: tuple[int, ...] = ()
) -> Step:
    """The Step that places one candidate (``place``) or removes it; the candidate is its own cause."""
    chosen = (candidate,)
    return Step(
        technique,
        placements=chosen if place else (),
        eliminations=() if place else chosen,
        cause=chosen,
        units=units,
        cells=(candidate[0],),
        text=text,
    )


def digit_step(
    technique: str,
    digit: int,
    removed: Iterable[int],
    pattern: Iterable[int],
    units: tuple[int, ...],
    text: str,
    length: int = 0,
) -> Step:
    """The Step of a pattern on one digit: the digit leaves the ``removed`` cells because of where it stands in
    the ``pattern`` cells (the cause, and the cells shown)."""
    cells = tuple(pattern)
    return Step(
        technique,
        eliminations=tuple((c, digit) for c in removed),
        cause=tuple((c, digit) for c in cells),
        units=units,
        cells=cells,
        length=length,
        text=text,
    )
