"""Small helpers shared by the technique families: naming cells and digits in step texts, cell masks."""

from __future__ import annotations

from collections.abc import Iterable

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


def digit_list(digits: Iterable[int]) -> str:
    """Digits joined by slashes: ``1/4/7``."""
    return "/".join(str(d) for d in digits)
