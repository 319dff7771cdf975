"""Pure-Python exact search: bitmask constraint propagation (naked and hidden singles) plus depth-first search,
and the generator's kernels built on it (digging, staying unique, the kinds of single).

This module is the ``python`` backend of ``solver`` as it stands: the reference implementation, and the fallback
where numba is missing. ``_search_numba`` holds the compiled twin of each public function here, under the same
name, running the same algorithm on arrays.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from .grid import ALL_CANDIDATES, PEERS, POPCOUNT, UNITS, bit

NAME = "python"  # the backend's name in ``solver.backend()``
DONE = 0x200  # flag bit: this cell's single digit has been removed from its peers
LOW = ALL_CANDIDATES


def encode(values: Sequence[int], cands: Sequence[int]) -> list[int]:
    """A position in the search's encoding: a placed digit as its bit plus DONE, an open cell as its candidates."""
    return [bit(v) | DONE if v else c for v, c in zip(values, cands)]


def decode(cand: Sequence[int]) -> tuple[list[int], list[int]]:
    """Values and candidate masks (a placed cell has none) of the search's encoding, placed cells by their flag."""
    values = [(mask & LOW).bit_length() if mask & DONE else 0 for mask in cand]
    return values, [0 if mask & DONE else mask for mask in cand]


def _eliminate_from_peers(cand: list[int], queue: list[int]) -> bool:
    """Naked singles: remove each queued cell's digit from its peers; False on a contradiction."""
    while queue:
        cell = queue.pop()
        mask = cand[cell]
        if mask & DONE:
            continue
        cand[cell] = mask | DONE
        clear = ~mask
        for peer in PEERS[cell]:
            peer_mask = cand[peer]
            if peer_mask & mask:
                peer_mask &= clear
                cand[peer] = peer_mask
                low = peer_mask & LOW
                if not low:
                    return False
                if not low & (low - 1):
                    queue.append(peer)
    return True


def _hidden_singles(cand: list[int], queue: list[int]) -> bool:
    """Hidden singles: a digit with one place left in a unit goes there; False on a contradiction."""
    for unit in UNITS:
        once = twice = 0
        for cell in unit:
            mask = cand[cell] & LOW
            twice |= once & mask
            once |= mask
        if once != LOW:
            return False
        hidden = once & ~twice
        if hidden:
            for cell in unit:
                mask = cand[cell] & LOW
                found = mask & hidden
                if found and mask != found:
                    if found & (found - 1):
                        return False
                    cand[cell] = found
                    queue.append(cell)
    return True


def propagate(cand: list[int], queue: list[int]) -> bool:
    """Apply naked and hidden singles until nothing changes; False when the position has no solution."""
    while True:
        if not _eliminate_from_peers(cand, queue):
            return False
        if not _hidden_singles(cand, queue):
            return False
        if not queue:
            return True


def _choose_cell(cand: list[int]) -> int:
    """The open cell with the fewest candidates, or -1 when every cell is decided."""
    best, best_count = -1, 10
    for cell, mask in enumerate(cand):
        if mask & DONE:
            continue
        count = POPCOUNT[mask]
        if count < best_count:
            best, best_count = cell, count
            if count == 2:
                break
    return best


def close_singles(cand: list[int]) -> bool:
    """Naked and hidden singles to a fixed point on a position in the search's encoding (``encode``), in place;
    False when the position has no solution."""
    return propagate(cand, [cell for cell, mask in enumerate(cand) if not mask & DONE and POPCOUNT[mask] == 1])


def _values(cand: list[int]) -> list[int]:
    """Digits of a fully decided candidate list."""
    return [(mask & LOW).bit_length() for mask in cand]


def _search(cand: list[int], limit: int, found: list[list[int]], rng: random.Random | None) -> int:
    """Count solutions below a propagated position, up to ``limit``; the first ones go into ``found``."""
    cell = _choose_cell(cand)
    if cell < 0:
        found.append(_values(cand))
        return 1
    digits = [d for d in range(1, 10) if cand[cell] >> (d - 1) & 1]
    if rng is not None:
        rng.shuffle(digits)
    total = 0
    for digit in digits:
        child = cand[:]
        child[cell] = bit(digit)
        if propagate(child, [cell]):
            total += _search(child, limit - total, found, rng)
            if total >= limit:
                break
    return total


def initial_candidates(values: Sequence[int]) -> tuple[list[int], list[int]]:
    """Candidate masks and the propagation queue for a list of 81 values (0 = empty)."""
    cand = [bit(v) if v else LOW for v in values]
    return cand, [c for c, v in enumerate(values) if v]


def singles_solve(values: Sequence[int]) -> bool:
    """Whether naked and hidden singles alone decide every cell (the propagation, no search)."""
    cand, queue = initial_candidates(values)
    return propagate(cand, queue) and all(POPCOUNT[m & LOW] == 1 for m in cand)


def _place(values: list[int], cand: list[int], cell: int, digit: int) -> None:
    """Place a digit and remove it from the peers' candidates."""
    values[cell] = digit
    cand[cell] = 0
    clear = ~bit(digit)
    for peer in PEERS[cell]:
        cand[peer] &= clear


def _fill_house(values: list[int], cand: list[int], house: int, hidden: bool) -> bool:
    """A full house in a house, or (``hidden``) its hidden singles; True when a digit was placed."""
    empty = [c for c in UNITS[house] if not values[c]]
    if len(empty) == 1:
        _place(values, cand, empty[0], cand[empty[0]].bit_length())
        return True
    if not hidden or not empty:
        return False
    once = twice = 0
    for cell in empty:
        twice |= once & cand[cell]
        once |= cand[cell]
    placed = False
    for digit in range(1, 10):
        if (once & ~twice) >> (digit - 1) & 1:
            for cell in empty:
                if not values[cell] and cand[cell] & bit(digit):
                    _place(values, cand, cell, digit)
                    placed = True
    return placed


def single_kind(values: Sequence[int]) -> int:
    """The hardest kind of single a puzzle the singles solve needs: 0 full houses, 1 hidden singles in boxes,
    2 hidden singles in any house, 3 naked singles; -1 when the singles do not solve it.

    Each kind only places digits and stays available until used, so the trace needs no kind past K exactly
    when the kinds up to K alone solve the puzzle; their closures grow with K, so each goes on from the last.
    """
    if not singles_solve(values):
        return -1
    board = list(values)
    cand = [0 if v else LOW for v in board]
    for cell, digit in enumerate(board):
        if digit:
            for peer in PEERS[cell]:
                cand[peer] &= ~bit(digit)
    for level in range(3):
        progress = True
        while progress:
            progress = False
            for house in range(27):
                progress |= _fill_house(board, cand, house, level == 2 or (level == 1 and house >= 18))
        if all(board):
            return level
    return 3


def count(values: Sequence[int], limit: int, rng: random.Random | None = None) -> tuple[int, list[int] | None]:
    """Number of solutions (capped at ``limit``) and the first solution found, or None."""
    cand, queue = initial_candidates(values)
    if not propagate(cand, queue):
        return 0, None
    found: list[list[int]] = []
    total = _search(cand, limit, found, rng)
    return total, (found[0] if found else None)


def count_many(
    rows: Sequence[Sequence[int]], limit: int, solutions: bool
) -> tuple[list[int], list[list[int] | None] | None]:
    """``count`` of every row, in order: the counts, and the first solutions when asked for."""
    done = [count(values, limit) for values in rows]
    return [n for n, _ in done], ([s for _, s in done] if solutions else None)


def stays_unique(values: Sequence[int], solution: Sequence[int], removed: Sequence[int]) -> bool:
    """Whether a puzzle made from a unique one (whose solution is given) by removing the givens of the cells
    ``removed`` and adding some of the solution's digits has one solution still.

    A second solution would differ from the first in a removed cell (else it would solve the first puzzle), so
    only such a solution is looked for: for each removed cell in turn, one with another digit there and the
    solution's digits in the removed cells before it (a solution differing there was looked for already).
    """
    for i, cell in enumerate(removed):
        cand, queue = initial_candidates(values)
        for before in removed[:i]:
            cand[before] = bit(solution[before])
            queue.append(before)
        cand[cell] = LOW & ~bit(solution[cell])
        if propagate(cand, queue) and _search(cand, 1, [], None):
            return False
    return True


def dig_while(
    values: Sequence[int], groups: Sequence[Sequence[int]], min_givens: int, holds: Callable[[list[int]], bool]
) -> list[bool]:
    """Remove the groups of givens in order, each kept out while ``holds`` of the puzzle and at least
    ``min_givens`` givens remain; which removals were kept."""
    current = list(values)
    givens = sum(1 for v in current if v)
    kept = []
    for group in groups:
        saved = [current[c] for c in group]
        keep = givens - len(group) >= min_givens
        if keep:
            for c in group:
                current[c] = 0
            keep = holds(current)
            if keep:
                givens -= len(group)
            else:
                for c, v in zip(group, saved):
                    current[c] = v
        kept.append(keep)
    return kept


def dig(values: Sequence[int], groups: Sequence[Sequence[int]], min_givens: int) -> list[bool]:
    """Remove the groups of givens in order from a unique puzzle, each kept out while the puzzle stays unique and
    at least ``min_givens`` givens remain; which removals were kept."""
    return dig_while(values, groups, min_givens, lambda puzzle: count(puzzle, 2)[0] == 1)
