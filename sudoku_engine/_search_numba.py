"""The exact search of ``_search_py`` compiled by numba: same propagation (naked and hidden singles), same
minimum-remaining-values branching, on int32 arrays with an explicit stack instead of recursion; and the twins of
``_search_py``'s generator kernels under the same names (``count``, ``singles_solve``, ``single_kind``,
``close_singles``, ``stays_unique``, ``dig``), on numpy arrays (``solver`` converts plain values to them).

Importing this module needs numba; ``solver`` falls back to the pure-Python search when it is missing.
Compiled code is cached next to this file (``cache=True``), so only the first run on a machine compiles.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .grid import PEERS, POPCOUNT, UNITS

_PEERS = np.array(PEERS, dtype=np.int32)
_UNITS = np.array(UNITS, dtype=np.int32)
_POPCOUNT = np.array(POPCOUNT, dtype=np.int32)
_LOW = 0x1FF
_DONE = 0x200


@njit(cache=True)
def _eliminate_from_peers(cand, queue, head):  # type: ignore[no-untyped-def]
    """Naked singles over the queue ``queue[:head]``; returns -1 on a contradiction, else 0."""
    while head > 0:
        head -= 1
        cell = queue[head]
        mask = cand[cell]
        if mask & _DONE:
            continue
        cand[cell] = mask | _DONE
        for i in range(20):
            peer = _PEERS[cell, i]
            peer_mask = cand[peer]
            if peer_mask & mask:
                peer_mask &= ~mask
                cand[peer] = peer_mask
                low = peer_mask & _LOW
                if low == 0:
                    return -1
                if low & (low - 1) == 0:
                    queue[head] = peer
                    head += 1
    return 0


@njit(cache=True)
def _hidden_singles(cand, queue):  # type: ignore[no-untyped-def]
    """Hidden singles in all 27 units; returns -1 on a contradiction, else how many cells it queued."""
    head = 0
    for u in range(27):
        once = 0
        twice = 0
        for i in range(9):
            mask = cand[_UNITS[u, i]] & _LOW
            twice |= once & mask
            once |= mask
        if once != _LOW:
            return -1
        hidden = once & ~twice
        if hidden:
            for i in range(9):
                cell = _UNITS[u, i]
                mask = cand[cell] & _LOW
                found = mask & hidden
                if found and mask != found:
                    if found & (found - 1):
                        return -1
                    cand[cell] = found
                    queue[head] = cell
                    head += 1
    return head


@njit(cache=True)
def _propagate(cand, queue, head):  # type: ignore[no-untyped-def]
    """Naked and hidden singles to a fixed point; False when the position has no solution."""
    while True:
        if _eliminate_from_peers(cand, queue, head) < 0:
            return False
        head = _hidden_singles(cand, queue)
        if head < 0:
            return False
        if head == 0:
            return True


@njit(cache=True)
def _choose_cell(cand):  # type: ignore[no-untyped-def]
    """The open cell with the fewest candidates, or -1 when every cell is decided."""
    best = -1
    best_count = 10
    for cell in range(81):
        mask = cand[cell]
        if mask & _DONE:
            continue
        n = _POPCOUNT[mask]
        if n < best_count:
            best = cell
            best_count = n
            if n == 2:
                break
    return best


@njit(cache=True)
def _start(values, cand, queue):  # type: ignore[no-untyped-def]
    """Fill ``cand`` from ``values`` (a given is its one candidate) and queue the givens; returns the queue length."""
    head = 0
    for cell in range(81):
        v = values[cell]
        if v:
            cand[cell] = 1 << (v - 1)
            queue[head] = cell
            head += 1
        else:
            cand[cell] = _LOW
    return head


@njit(cache=True)
def singles_solve(values):  # type: ignore[no-untyped-def]
    """Whether naked and hidden singles alone decide every cell of ``values`` (int8[81], 0 = empty)."""
    cand = np.empty(81, dtype=np.int32)
    queue = np.empty(81, dtype=np.int32)
    if not _propagate(cand, queue, _start(values, cand, queue)):
        return False
    for cell in range(81):
        low = cand[cell] & _LOW
        if low & (low - 1):
            return False
    return True


@njit(cache=True)
def close_singles(cand):  # type: ignore[no-untyped-def]
    """Naked and hidden singles to a fixed point on ``cand`` (int32[81]: a decided cell is its digit's bit plus
    the done flag, an open cell its candidates); False when the position has no solution."""
    queue = np.empty(81, dtype=np.int32)
    head = 0
    for cell in range(81):
        mask = cand[cell]
        if not mask & _DONE and mask and not mask & (mask - 1):
            queue[head] = cell
            head += 1
    return _propagate(cand, queue, head)


@njit(cache=True)
def place(values, cand, cell, digit):  # type: ignore[no-untyped-def]
    """Place a digit and remove it from the peers' candidates."""
    values[cell] = digit
    cand[cell] = 0
    for i in range(20):
        cand[_PEERS[cell, i]] &= ~(1 << (digit - 1))


@njit(cache=True)
def _fill_house(values, cand, house, hidden):  # type: ignore[no-untyped-def]
    """A full house in a house, or (``hidden``) its hidden singles; True when a digit was placed."""
    empty = 0
    last = -1
    once = 0
    twice = 0
    for i in range(9):
        cell = _UNITS[house, i]
        if values[cell] == 0:
            empty += 1
            last = cell
            twice |= once & cand[cell]
            once |= cand[cell]
    if empty == 1:
        mask = cand[last]
        digit = 0
        while mask:
            mask >>= 1
            digit += 1
        place(values, cand, last, digit)
        return True
    if not hidden or empty == 0:
        return False
    single = once & ~twice
    placed = False
    for digit in range(1, 10):
        if single >> (digit - 1) & 1:
            for i in range(9):
                cell = _UNITS[house, i]
                if values[cell] == 0 and cand[cell] >> (digit - 1) & 1:
                    place(values, cand, cell, digit)
                    placed = True
    return placed


@njit(cache=True)
def single_kind(values):  # type: ignore[no-untyped-def]
    """The hardest kind of single a puzzle the singles solve needs: 0 full houses, 1 hidden singles in boxes,
    2 hidden singles in any house, 3 naked singles; -1 when the singles do not solve it."""
    if not singles_solve(values):
        return -1
    board = values.copy()
    cand = np.empty(81, dtype=np.int32)
    for cell in range(81):
        cand[cell] = 0 if board[cell] else _LOW
    for cell in range(81):
        if board[cell]:
            for i in range(20):
                cand[_PEERS[cell, i]] &= ~(1 << (board[cell] - 1))
    for level in range(3):
        progress = True
        while progress:
            progress = False
            for house in range(27):
                hidden = level == 2 or (level == 1 and house >= 18)
                if _fill_house(board, cand, house, hidden):
                    progress = True
        solved = True
        for cell in range(81):
            if board[cell] == 0:
                solved = False
                break
        if solved:
            return level
    return 3


@njit(cache=True)
def count(values, limit, solution):  # type: ignore[no-untyped-def]
    """Solutions of ``values`` (int8[81], 0 = empty) capped at ``limit``; the first goes into ``solution``."""
    cand = np.empty(81, dtype=np.int32)
    queue = np.empty(81, dtype=np.int32)
    if not _propagate(cand, queue, _start(values, cand, queue)):
        return 0
    return _count_below(cand, queue, limit, solution)


@njit(cache=True)
def count_many(rows, limit, counts, solutions):  # type: ignore[no-untyped-def]
    """``count`` on every row of ``rows`` (int8[n, 81]) in one call: the counts into ``counts``, each first solution
    into the same row of ``solutions``."""
    for i in range(rows.shape[0]):
        counts[i] = count(rows[i], limit, solutions[i])


@njit(cache=True)
def stays_unique(values, removed, digits):  # type: ignore[no-untyped-def]
    """Whether ``values`` (made from a unique puzzle by removing the givens of the cells ``removed``, whose digits in
    its solution are ``digits``, and adding some of the solution's digits) has one solution still: no solution has
    another digit in a removed cell while the removed cells before it hold theirs."""
    cand = np.empty(81, dtype=np.int32)
    queue = np.empty(81, dtype=np.int32)
    solution = np.empty(81, dtype=np.int8)
    for i in range(removed.shape[0]):
        head = _start(values, cand, queue)
        for j in range(i):  # a solution differing there was looked for already
            cand[removed[j]] = 1 << (digits[j] - 1)
            queue[head] = removed[j]
            head += 1
        cand[removed[i]] = _LOW & ~(1 << (digits[i] - 1))
        if _propagate(cand, queue, head) and _count_below(cand, queue, 1, solution):
            return False
    return True


@njit(cache=True)
def _count_below(cand, queue, limit, solution):  # type: ignore[no-untyped-def]
    """``count``'s search from a propagated position."""
    saved = np.empty((82, 81), dtype=np.int32)
    cells = np.empty(82, dtype=np.int32)
    remaining = np.empty(82, dtype=np.int32)
    depth = 0
    total = 0
    descend = True
    while True:
        if descend:
            cell = _choose_cell(cand)
            if cell < 0:
                if total == 0:
                    for c in range(81):
                        low = cand[c] & _LOW
                        d = 0
                        while low:
                            low >>= 1
                            d += 1
                        solution[c] = d
                total += 1
                if total >= limit:
                    return total
            else:
                saved[depth, :] = cand
                cells[depth] = cell
                remaining[depth] = cand[cell] & _LOW
                depth += 1
        descend = False
        while depth > 0 and not descend:
            top = depth - 1
            rem = remaining[top]
            if rem == 0:
                depth -= 1
                continue
            low_bit = rem & -rem
            remaining[top] = rem ^ low_bit
            cand[:] = saved[top]
            cand[cells[top]] = low_bit
            queue[0] = cells[top]
            descend = _propagate(cand, queue, 1)
        if not descend:
            return total


@njit(cache=True)
def dig(values, groups, min_givens, kept):  # type: ignore[no-untyped-def]
    """Remove the givens of each group of ``groups`` (rows of cells, -1 padded) in order from ``values`` (unique,
    changed in place), keeping a removal while the puzzle stays unique and at least ``min_givens`` givens remain;
    ``kept`` says which were kept."""
    solution = np.empty(81, dtype=np.int8)
    saved = np.empty(groups.shape[1], dtype=np.int8)
    givens = 0
    for cell in range(81):
        if values[cell]:
            givens += 1
    for g in range(groups.shape[0]):
        kept[g] = False
        size = 0
        for i in range(groups.shape[1]):
            if groups[g, i] >= 0:
                size += 1
        if givens - size < min_givens:
            continue
        for i in range(size):
            saved[i] = values[groups[g, i]]
            values[groups[g, i]] = 0
        if count(values, 2, solution) == 1:
            kept[g] = True
            givens -= size
        else:
            for i in range(size):
                values[groups[g, i]] = saved[i]
