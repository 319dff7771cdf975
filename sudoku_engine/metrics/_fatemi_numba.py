"""Seed 000's call count compiled by numba: the runs of ``fatemi.one_run``, drawing from the same random stream.

The random draws are those of Python's ``random.Random`` (Mersenne Twister MT19937): the kernel starts from the
generator's state (``getstate``) and makes the same calls, ``randrange(n)`` and ``choice`` by the same rejection
sampling on ``getrandbits``, so every run makes the same choices and counts the same calls as the Python search,
which stays the reference (the tests compare them). Importing this module needs numba.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..grid import PEERS

_PEERS = np.array(PEERS, dtype=np.int32)
_N = 624
_M = 397
_WORD = 0xFFFFFFFF
_STACK = 81 * 9 + 1  # depth at most 81, at most 8 siblings waiting per level, and the root


@njit(cache=True)
def _next_word(mt, position):  # type: ignore[no-untyped-def]
    """The next 32-bit output of MT19937 (state ``mt``, int64[624]; ``position[0]`` its index)."""
    if position[0] >= _N:
        for k in range(_N):
            y = (mt[k] & 0x80000000) | (mt[(k + 1) % _N] & 0x7FFFFFFF)
            mt[k] = mt[(k + _M) % _N] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
        position[0] = 0
    y = mt[position[0]]
    position[0] += 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return y & _WORD


@njit(cache=True)
def _below(n, mt, position):  # type: ignore[no-untyped-def]
    """``random.Random._randbelow(n)``: getrandbits(n.bit_length()) until below n."""
    k = 0
    while n >> k:
        k += 1
    r = _next_word(mt, position) >> (32 - k)
    while r >= n:
        r = _next_word(mt, position) >> (32 - k)
    return r


@njit(cache=True)
def _arc_consistency(domains, queue, head):  # type: ignore[no-untyped-def]
    """``fatemi._arc_consistency`` from the singletons ``queue[:head]``: new singletons, or -1 on a wipe-out."""
    made = 0
    while head > 0:
        head -= 1
        cell = queue[head]
        value = domains[cell]
        for i in range(20):
            peer = _PEERS[cell, i]
            mask = domains[peer]
            if mask & value:
                mask &= ~value
                if not mask:
                    return -1
                domains[peer] = mask
                if not mask & (mask - 1):
                    made += 1
                    queue[head] = peer
                    head += 1
    return made


@njit(cache=True)
def _choose(domains, open_count, mt, position, cells):  # type: ignore[no-untyped-def]
    """``fatemi._choose_variable``: a cell with several values, uniformly, by the same draws."""
    if open_count * 4 >= 81:
        while True:
            cell = _below(81, mt, position)
            mask = domains[cell]
            if mask & (mask - 1):
                return cell
    n = 0
    for cell in range(81):
        mask = domains[cell]
        if mask & (mask - 1):
            cells[n] = cell
            n += 1
    return cells[_below(n, mt, position)]


@njit(cache=True)
def _one_run(values, cap, mt, position):  # type: ignore[no-untyped-def]
    """``fatemi.one_run``: (calls, capped), calls -1 when the search exhausts every branch."""
    stack = np.empty((_STACK, 81), dtype=np.int32)
    assigned = np.empty(_STACK, dtype=np.int32)
    singletons = np.empty(_STACK, dtype=np.int32)
    queue = np.empty(81 * 20 + 81, dtype=np.int32)
    cells = np.empty(81, dtype=np.int32)
    domains = np.empty(81, dtype=np.int32)
    givens = 0
    for cell in range(81):
        stack[0, cell] = 1 << (values[cell] - 1) if values[cell] else 0x1FF
        if values[cell]:
            givens += 1
    assigned[0] = -1
    singletons[0] = givens
    top = 1
    calls = 0
    while top > 0:
        if calls >= cap:
            return calls, True
        top -= 1
        domains[:] = stack[top]
        calls += 1
        head = 0
        if assigned[top] < 0:
            for cell in range(81):
                if values[cell]:
                    queue[head] = cell
                    head += 1
        else:
            queue[0] = assigned[top]
            head = 1
        made = _arc_consistency(domains, queue, head)
        if made < 0:
            continue
        count = singletons[top] + made
        if count == 81:
            return calls, False
        cell = _choose(domains, 81 - count, mt, position, cells)
        mask = domains[cell]
        for digit in range(8, -1, -1):  # largest value first, so the smallest is searched first
            if mask >> digit & 1:
                stack[top] = domains
                stack[top, cell] = 1 << digit
                assigned[top] = cell
                singletons[top] = count + 1
                top += 1
    return -1, False


@njit(cache=True)
def call_counts(values, runs, cap, mt, position, counts, capped):  # type: ignore[no-untyped-def]
    """``runs`` runs in turn from one random stream into ``counts`` and ``capped``; False when there is no
    solution."""
    for run in range(runs):
        calls, stopped = _one_run(values, cap, mt, position)
        if calls < 0:
            return False
        counts[run] = calls
        capped[run] = stopped
    return True
