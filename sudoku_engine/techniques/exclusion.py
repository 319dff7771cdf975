"""Aligned Pair Exclusion: two cells cannot take a pair of digits that would empty a bivalue cell seeing both.

Sudoku Explainer's definition (rated 6.2 there and by Sukaku Explainer): take any two open cells (they need not
see each other) and the bivalue cells that see both of them, at least two such cells. A pair of digits for the two
cells is excluded when it is the very pair of one of those bivalue cells (that cell would be left empty) or, for
two cells that see each other, when both digits are the same. A candidate of either cell that belongs to no pair
left is removed. Sudoku Explainer skips the search while a naked single is left, which only saves time: the logic
solver takes every single first.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from ..board import Board, Step
from ..grid import POPCOUNT, UNITS_OF, bit, cell_name, digits_of
from .common import PEER_BITS, cells_of, digit_list


def _sees(a: int, b: int) -> bool:
    """True when two different cells share a house."""
    return bool(PEER_BITS[a] >> b & 1)


def _pairs(board: Board, a: int, b: int, locked: set[int]) -> tuple[list[tuple[int, int]], set[int]]:
    """The digit pairs (one for each cell) that no bivalue cell's pair and no shared house rules out, and the
    bivalue pairs that rule one out."""
    aligned = _sees(a, b)
    allowed, ruling = [], set()
    for p in digits_of(board.cands[a]):
        for q in digits_of(board.cands[b]):
            if bit(p) | bit(q) in locked:
                ruling.add(bit(p) | bit(q))
            elif not (p == q and aligned):
                allowed.append((p, q))
    return allowed, ruling


def _unused(board: Board, cell: int, used: set[int]) -> tuple[tuple[int, int], ...]:
    """The cell's candidates that no allowed pair uses."""
    return tuple((cell, d) for d in digits_of(board.cands[cell]) if d not in used)


def _text(board: Board, a: int, b: int, excluders: tuple[int, ...], removed: tuple[tuple[int, int], ...]) -> str:
    """The sentence of an Aligned Pair Exclusion step."""

    def shown(cell: int) -> str:
        return f"{cell_name(cell)} ({digit_list(digits_of(board.cands[cell]))})"

    shown_excluders = [shown(e) for e in excluders]
    seen = ", ".join(shown_excluders[:-1]) + " and " + shown_excluders[-1] if len(excluders) > 1 else shown_excluders[0]
    same = ", nor the same digit, as they see each other" if _sees(a, b) else ""
    lost = " or ".join(f"{d} in {cell_name(c)}" for c, d in removed)
    return (
        f"Aligned Pair Exclusion: {shown(a)} and {shown(b)} both see {seen}, "
        f"so they cannot take the two digits of any of these{same}; no pair of digits left for them puts "
        f"{lost}, so {'that candidate goes' if len(removed) == 1 else 'those candidates go'}."
    )


def _shared_units(a: int, b: int) -> list[int]:
    """The houses two cells share."""
    return [u for u in UNITS_OF[a] if u in UNITS_OF[b]]


def aligned_pair_exclusion(board: Board) -> Iterator[Step]:
    """Two cells with two or more common bivalue peers: candidates that fit no allowed pair of digits leave."""
    bivalue = sum(1 << c for c in range(81) if not board.values[c] and POPCOUNT[board.cands[c]] == 2)
    excluders = {c: PEER_BITS[c] & bivalue for c in range(81) if not board.values[c] and POPCOUNT[board.cands[c]] >= 2}
    base = [c for c, mask in excluders.items() if mask]
    for a, b in combinations(base, 2):
        common = cells_of(excluders[a] & excluders[b])
        if len(common) < 2:
            continue
        allowed, ruling = _pairs(board, a, b, {board.cands[e] for e in common})
        removed = _unused(board, a, {p for p, _ in allowed}) + _unused(board, b, {q for _, q in allowed})
        if not removed:
            continue
        used = tuple(e for e in common if board.cands[e] in ruling)
        yield Step(
            "aligned_pair_exclusion",
            eliminations=removed,
            cells=(a, b, *used),
            cause=tuple((c, d) for c in (a, b, *used) for d in digits_of(board.cands[c])),
            units=tuple(dict.fromkeys(u for e in used for c in (a, b) for u in _shared_units(c, e)[:1])),
            text=_text(board, a, b, used, removed),
        )
