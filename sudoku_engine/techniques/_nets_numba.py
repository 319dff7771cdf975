"""Contradiction nets compiled by numba: the kernel of ``nets``, which follows the same rules in the
same order in plain Python (the reference, compared with this kernel by the tests).

A fact is a candidate placed (on) or removed (off), index ``((cell * 9 + digit - 1) << 1) | on``. A trial keeps,
per fact it derives, the facts it was derived from (its parents) and, for a removal proved by a nested trial, the
size of that trial's net (its weight). Facts an enclosing trial knew before this one began are referred to as
``index + FACTS``. The arrays come per depth: 0 the outer trial, 1 a trial nested in it (``workspace``).

Importing this module needs numba.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..grid import PEERS, POPCOUNT, UNITS, UNITS_OF

FACTS = 1458
_UNITS = np.array(UNITS, dtype=np.int32)
_UNITS_OF = np.array(UNITS_OF, dtype=np.int32)
_PEERS = np.array(PEERS, dtype=np.int32)
# Box-line intersections (box, line) that meet: the box's cells off the line and the line's cells off the box.
_MEETS = [(box, line) for box in range(18, 27) for line in range(18) if set(UNITS[box]) & set(UNITS[line])]
_MEET_UNITS = np.array(_MEETS, dtype=np.int32)
_BOX_REST = np.array([[c for c in UNITS[b] if c not in UNITS[ln]] for b, ln in _MEETS], dtype=np.int32)
_LINE_REST = np.array([[c for c in UNITS[ln] if c not in UNITS[b]] for b, ln in _MEETS], dtype=np.int32)
# The meet's places as bits of the box's and of the line's cells (in their UNITS order).
_BOX_MEET = np.array([sum(1 << i for i, c in enumerate(UNITS[b]) if c in UNITS[ln]) for b, ln in _MEETS], np.int32)
_LINE_MEET = np.array([sum(1 << i for i, c in enumerate(UNITS[ln]) if c in UNITS[b]) for b, ln in _MEETS], np.int32)
_BIT_DIGIT = np.array([bit.bit_length() for bit in range(257)], dtype=np.int32)  # 1 << (k - 1) -> k
_POPCOUNT = np.array(POPCOUNT, dtype=np.int32)
_DEPTHS = 2
_BUFFER = 1 << 17  # parent references per depth
# Counters per depth.
_FILL, _HEAD, _TAIL, _CSTART, _CLEN, _STAMP = range(6)
_DONE = 99  # places of a digit already placed in the house


def workspace() -> tuple[np.ndarray, ...]:
    """Fresh arrays for the trials of one search (see the module docstring)."""
    return (
        np.zeros((_DEPTHS, 81), dtype=np.int32),  # cm: candidate masks
        np.zeros((_DEPTHS, 81), dtype=np.int32),  # val: placed digits
        np.zeros((_DEPTHS, FACTS), dtype=np.int8),  # known: 1 when derived by the trial at this depth
        np.zeros((_DEPTHS, FACTS), dtype=np.int32),  # pstart: where a fact's parents start in pbuf
        np.zeros((_DEPTHS, FACTS), dtype=np.int32),  # plen: how many parents
        np.zeros((_DEPTHS, FACTS), dtype=np.int32),  # weight
        np.zeros((_DEPTHS, _BUFFER), dtype=np.int32),  # pbuf: parent references
        np.zeros((_DEPTHS, FACTS), dtype=np.int32),  # queue of derived facts not yet applied
        np.zeros((_DEPTHS, 8), dtype=np.int32),  # counters
        np.zeros((_DEPTHS, 2 * FACTS), dtype=np.int32),  # marks of a closure (stamps)
        np.zeros((_DEPTHS, 2 * FACTS), dtype=np.int32),  # stack of a closure
        np.zeros((_DEPTHS, 243), dtype=np.int32),  # places: per (house, digit) its open cells with it, or _DONE
    )


@njit(cache=True)
def _fact(cell, digit, on):  # type: ignore[no-untyped-def]
    """The index of a fact."""
    return ((cell * 9 + digit - 1) << 1) | on


@njit(cache=True)
def _knows(known, d, f):  # type: ignore[no-untyped-def]
    """Whether the trial at depth d derived the fact or the trial enclosing it knows it."""
    return known[d, f] != 0 or (d > 0 and known[d - 1, f] != 0)


@njit(cache=True)
def _ref(known, d, f):  # type: ignore[no-untyped-def]
    """How a trial at depth d refers to a fact it knows: its index, or index + FACTS when known before it."""
    return f if known[d, f] else f + FACTS


@njit(cache=True)
def _derive(d, f, refs, n, weight, ws):  # type: ignore[no-untyped-def]
    """Add a fact with parents ``refs[:n]`` and queue it; True when its opposite is known (a contradiction, whose
    parents, the fact's and the opposite, are kept as the trial's contradiction)."""
    known, pstart, plen, pweight, pbuf, queue, cnt = ws[2], ws[3], ws[4], ws[5], ws[6], ws[7], ws[8]
    fill = cnt[d, _FILL]
    opposite = f ^ 1
    if _knows(known, d, opposite):
        cnt[d, _CSTART] = fill
        for i in range(n):
            pbuf[d, fill + i] = refs[i]
        pbuf[d, fill + n] = _ref(known, d, opposite)
        cnt[d, _CLEN] = n + 1
        cnt[d, _FILL] = fill + n + 1
        return True
    known[d, f] = 1
    pstart[d, f] = fill
    plen[d, f] = n
    pweight[d, f] = weight
    for i in range(n):
        pbuf[d, fill + i] = refs[i]
    cnt[d, _FILL] = fill + n
    queue[d, cnt[d, _TAIL]] = f
    cnt[d, _TAIL] += 1
    return False


@njit(cache=True)
def _contradiction(d, refs, n, ws):  # type: ignore[no-untyped-def]
    """Keep ``refs[:n]`` as the trial's contradiction (a cell or a house left empty); returns True."""
    pbuf, cnt = ws[6], ws[8]
    fill = cnt[d, _FILL]
    cnt[d, _CSTART] = fill
    for i in range(n):
        pbuf[d, fill + i] = refs[i]
    cnt[d, _CLEN] = n
    cnt[d, _FILL] = fill + n
    return True


@njit(cache=True)
def _removals_of_cell(d, cell, keep, root_cm, refs, n, ws):  # type: ignore[no-untyped-def]
    """References to the removals of the cell's candidates in the root position but the digits of ``keep`` (a
    mask), into ``refs`` from ``n`` on; the count then."""
    known = ws[2]
    for digit in range(1, 10):
        if root_cm[cell] >> (digit - 1) & 1 and not keep >> (digit - 1) & 1:
            refs[n] = _ref(known, d, _fact(cell, digit, 0))
            n += 1
    return n


@njit(cache=True)
def _removals_in(d, cells, digit, except_cell, root_cm, refs, ws):  # type: ignore[no-untyped-def]
    """References to the removals of a digit from the cells that had it in the root position, but one; count."""
    known = ws[2]
    n = 0
    for i in range(cells.shape[0]):
        cell = cells[i]
        if cell != except_cell and root_cm[cell] >> (digit - 1) & 1:
            refs[n] = _ref(known, d, _fact(cell, digit, 0))
            n += 1
    return n


@njit(cache=True)
def _apply(d, f, root_cm, refs, ws):  # type: ignore[no-untyped-def]
    """Apply a queued fact and derive what the singles make of it; True on a contradiction."""
    cm, val, known, places = ws[0], ws[1], ws[2], ws[11]
    cell = f >> 1
    digit = cell % 9 + 1
    cell //= 9
    bit = 1 << (digit - 1)
    if f & 1:  # placed: the cell's other digits go, and the digit leaves its peers
        val[d, cell] = digit
        for k in range(3):  # the cell is no longer a place for any digit in its houses; this one is placed there
            unit = _UNITS_OF[cell, k] * 9
            for other in range(1, 10):
                if cm[d, cell] >> (other - 1) & 1 and places[d, unit + other - 1] != _DONE:
                    places[d, unit + other - 1] -= 1
            places[d, unit + digit - 1] = _DONE
        refs[0] = f
        for other in range(1, 10):
            off = _fact(cell, other, 0)
            if (
                other != digit
                and cm[d, cell] >> (other - 1) & 1
                and not _knows(known, d, off)
                and _derive(d, off, refs, 1, 0, ws)
            ):
                return True
        for i in range(20):
            peer = _PEERS[cell, i]
            off = _fact(peer, digit, 0)
            if cm[d, peer] & bit and not _knows(known, d, off) and _derive(d, off, refs, 1, 0, ws):
                return True
        return False
    cm[d, cell] &= ~bit
    open_cell = not val[d, cell]
    if open_cell:
        mask = cm[d, cell]
        if mask == 0:
            return _contradiction(d, refs, _removals_of_cell(d, cell, 0, root_cm, refs, 0, ws), ws)
        if mask & (mask - 1) == 0:
            last = 1
            while not mask >> (last - 1) & 1:
                last += 1
            if not _knows(known, d, _fact(cell, last, 1)):
                n = _removals_of_cell(d, cell, mask, root_cm, refs, 0, ws)
                if _derive(d, _fact(cell, last, 1), refs, n, 0, ws):
                    return True
    for k in range(3):
        unit = _UNITS_OF[cell, k]
        key = unit * 9 + digit - 1
        left = places[d, key]
        if left == _DONE:
            continue
        if open_cell:  # a placed cell left its houses' places when it was placed
            left -= 1
            places[d, key] = left
        cells = _UNITS[unit]
        if left == 0:
            return _contradiction(d, refs, _removals_in(d, cells, digit, -1, root_cm, refs, ws), ws)
        if left == 1:
            place = -1
            for i in range(9):
                c = cells[i]
                if not val[d, c] and cm[d, c] & bit:
                    place = c
            if not _knows(known, d, _fact(place, digit, 1)):
                n = _removals_in(d, cells, digit, place, root_cm, refs, ws)
                if _derive(d, _fact(place, digit, 1), refs, n, 0, ws):
                    return True
    return False


@njit(cache=True)
def _singles(d, root_cm, refs, ws):  # type: ignore[no-untyped-def]
    """Apply the queue until it is empty; True on a contradiction."""
    queue, cnt = ws[7], ws[8]
    while cnt[d, _HEAD] < cnt[d, _TAIL]:
        f = queue[d, cnt[d, _HEAD]]
        cnt[d, _HEAD] += 1
        if _apply(d, f, root_cm, refs, ws):
            return True
    return False


@njit(cache=True)
def _remove(d, cell, digit, refs, n, weight, ws):  # type: ignore[no-untyped-def]
    """Derive a removal unless the candidate is gone or on its way out: -1 on a contradiction, 1 when derived."""
    cm, known = ws[0], ws[2]
    if not cm[d, cell] >> (digit - 1) & 1 or _knows(known, d, _fact(cell, digit, 0)):
        return 0
    return -1 if _derive(d, _fact(cell, digit, 0), refs, n, weight, ws) else 1


@njit(cache=True)
def _remove_from(d, cells, a, b, mask, refs, n, derived, ws):  # type: ignore[no-untyped-def]
    """Derive the removals of the mask's digits from the open cells of ``cells`` but ``a`` and ``b``, with parents
    ``refs[:n]``: -1 on a contradiction, else ``derived`` plus how many were derived."""
    for i in range(cells.shape[0]):
        cell = cells[i]
        if cell == a or cell == b or ws[1][d, cell]:  # noqa: SIM109 (plain compares for numba)
            continue
        for digit in range(1, 10):
            if mask >> (digit - 1) & 1:
                found = _remove(d, cell, digit, refs, n, 0, ws)
                if found < 0:
                    return -1
                derived += found
    return derived


@njit(cache=True)
def _places_by_house(cm, val, masks):  # type: ignore[no-untyped-def]
    """Into ``masks[house * 9 + digit - 1]``: the open cells of the house with the digit, as bits of its cells."""
    masks[:] = 0
    for unit in range(27):
        for i in range(9):
            cell = _UNITS[unit, i]
            if val[cell]:
                continue
            mask = cm[cell]
            while mask:
                low = mask & -mask
                mask ^= low
                masks[unit * 9 + _BIT_DIGIT[low] - 1] |= 1 << i


@njit(cache=True)
def _locked(d, root_cm, refs, ws):  # type: ignore[no-untyped-def]
    """Pointing and claiming, by digit then box-line intersection: -1 on a contradiction, else how many removals
    were derived. (Derived removals wait in the queue, so the places read first hold for the whole round.)"""
    masks = np.empty(243, dtype=np.int32)
    _places_by_house(ws[0][d], ws[1][d], masks)
    derived = 0
    for digit in range(1, 10):
        bit = 1 << (digit - 1)
        for k in range(_MEET_UNITS.shape[0]):
            in_box_places = masks[_MEET_UNITS[k, 0] * 9 + digit - 1]
            if not in_box_places & _BOX_MEET[k]:
                continue
            in_box = in_box_places & ~_BOX_MEET[k] != 0
            in_line = masks[_MEET_UNITS[k, 1] * 9 + digit - 1] & ~_LINE_MEET[k] != 0
            if in_box == in_line:
                continue
            # pointing: the box's places lie on the line; claiming: the line's places lie in the box
            box_rest, line_rest = _BOX_REST[k], _LINE_REST[k]
            source, target = (box_rest, line_rest) if in_line else (line_rest, box_rest)
            n = _removals_in(d, source, digit, -1, root_cm, refs, ws)
            derived = _remove_from(d, target, -1, -1, bit, refs, n, derived, ws)
            if derived < 0:
                return -1
    return derived


@njit(cache=True)
def _naked_pairs(d, root_cm, refs, ws):  # type: ignore[no-untyped-def]
    """Naked pairs, by house then pair of cells: -1 on a contradiction, else how many removals were derived."""
    cm, val = ws[0], ws[1]
    derived = 0
    for unit in range(27):
        cells = _UNITS[unit]
        for i in range(9):
            a = cells[i]
            mask = cm[d, a]
            if val[d, a] or mask == 0 or _POPCOUNT[mask] != 2:
                continue
            for j in range(i + 1, 9):
                b = cells[j]
                if val[d, b] or cm[d, b] != mask:
                    continue
                n = _removals_of_cell(d, a, mask, root_cm, refs, 0, ws)
                n = _removals_of_cell(d, b, mask, root_cm, refs, n, ws)
                derived = _remove_from(d, cells, a, b, mask, refs, n, derived, ws)
                if derived < 0:
                    return -1
    return derived


@njit(cache=True)
def _begin(d, cm_from, val_from, ws):  # type: ignore[no-untyped-def]
    """Start a trial at depth d from a position (depth 0: the root) or from the trial at depth d - 1."""
    cm, val, known, queue, cnt, places = ws[0], ws[1], ws[2], ws[7], ws[8], ws[11]
    for cell in range(81):
        cm[d, cell] = cm_from[cell]
        val[d, cell] = val_from[cell]
    if d > 0:  # the enclosing trial's counts hold: nested trials begin when its queue is empty
        places[d, :] = places[d - 1, :]
    else:
        for unit in range(27):
            for digit in range(1, 10):
                count = 0
                for i in range(9):
                    c = _UNITS[unit, i]
                    if val[d, c] == digit:
                        count = _DONE
                        break
                    if not val[d, c] and cm[d, c] >> (digit - 1) & 1:
                        count += 1
                places[d, unit * 9 + digit - 1] = count
    for i in range(cnt[d, _TAIL]):  # forget the facts of the last trial at this depth (each was queued once)
        known[d, queue[d, i]] = 0
    cnt[d, _FILL] = 0
    cnt[d, _HEAD] = 0
    cnt[d, _TAIL] = 0
    cnt[d, _CLEN] = 0


@njit(cache=True)
def _push(d, r, stamp, top, marks, stack):  # type: ignore[no-untyped-def]
    """Push a reference onto the closure's stack unless this closure (``stamp``) has seen it; the stack's top."""
    if marks[d, r] != stamp:
        marks[d, r] = stamp
        stack[d, top] = r
        top += 1
    return top


@njit(cache=True)
def _closure(d, out, ws):  # type: ignore[no-untyped-def]
    """The size of the trial's contradiction net: its facts (each weighted by 1 + its weight) found from the
    contradiction through their parents; the facts known before the trial that it used go into ``out`` (as
    indices of the enclosing trial's facts). Returns (size, how many in ``out``)."""
    pstart, plen, pweight, pbuf, cnt, marks, stack = ws[3], ws[4], ws[5], ws[6], ws[8], ws[9], ws[10]
    cnt[d, _STAMP] += 1
    stamp = cnt[d, _STAMP]
    top = 0
    for i in range(cnt[d, _CLEN]):
        top = _push(d, pbuf[d, cnt[d, _CSTART] + i], stamp, top, marks, stack)
    size = 0
    used = 0
    while top:
        top -= 1
        r = stack[d, top]
        if r >= FACTS:
            out[used] = r - FACTS
            used += 1
            continue
        size += 1 + pweight[d, r]
        for i in range(plen[d, r]):
            top = _push(d, pbuf[d, pstart[d, r] + i], stamp, top, marks, stack)
    return size, used


@njit(cache=True)
def _lose(cell, digit, pending, dirty, count):  # type: ignore[no-untyped-def]
    """Note that the cell lost the digit: its three houses' places of it are to be checked; the new count."""
    for k in range(3):
        key = _UNITS_OF[cell, k] * 9 + digit - 1
        if not dirty[key]:
            dirty[key] = 1
            pending[count] = key
            count += 1
    return count


@njit(cache=True)
def _breaks(cm_from, val_from, cell, digit, fc, fv, todo, pending, dirty):  # type: ignore[no-untyped-def]
    """Whether the singles trial of the candidate from the position breaks, without keeping parents: the same
    closure as ``_follow`` at level 0 (a cell checked when it loses a digit, a house's places of a digit when one
    goes), so the same answer in far less work. The buffers: fc, fv 81; todo 2 * 400; pending, dirty 243."""
    for c in range(81):
        fv[c] = val_from[c]
        fc[c] = 1 << (fv[c] - 1) if fv[c] else cm_from[c]
    dirty[:] = 0
    todo[0], todo[1] = cell, digit
    top = 1
    count = 0
    while top:
        while top:  # placements, each taking its digit from its peers
            top -= 1
            c, placed = todo[2 * top], todo[2 * top + 1]
            bit = 1 << (placed - 1)
            if fv[c]:
                if fv[c] != placed:
                    return True
                continue
            if not fc[c] & bit:
                return True
            others = fc[c] & ~bit
            fv[c], fc[c] = placed, bit
            while others:
                low = others & -others
                others ^= low
                count = _lose(c, _BIT_DIGIT[low], pending, dirty, count)
            for i in range(20):
                peer = _PEERS[c, i]
                if fc[peer] & bit:
                    if fv[peer]:
                        return True
                    mask = fc[peer] & ~bit
                    fc[peer] = mask
                    if mask == 0:
                        return True
                    if mask & (mask - 1) == 0:
                        todo[2 * top], todo[2 * top + 1] = peer, _BIT_DIGIT[mask]
                        top += 1
                    count = _lose(peer, placed, pending, dirty, count)
        while count:  # the houses' places of the digits that went: none breaks, one places
            count -= 1
            key = pending[count]
            dirty[key] = 0
            unit, bit = key // 9, 1 << (key % 9)
            place, places = -1, 0
            for i in range(9):
                c = _UNITS[unit, i]
                if fv[c]:
                    if fc[c] == bit:
                        places = -1
                        break
                elif fc[c] & bit:
                    place = c
                    places += 1
            if places == 0:
                return True
            if places == 1:
                todo[2 * top], todo[2 * top + 1] = place, key % 9 + 1
                top += 1
    return False


@njit(cache=True)
def _nested(d, level, root_cm, refs, ws):  # type: ignore[no-untyped-def]
    """One pass of nested trials over the candidates of the trial at depth d, in board order: one whose trial at
    depth d + 1 (level 0: singles) breaks is removed at once, its parents the facts of depth d the nested net used
    and its weight that net's size, and the rules of level 1 follow it before the pass goes on. -1 on a
    contradiction, else how many removals the nested trials derived. (Most nested trials do not break: the
    parents are kept only for those ``_breaks`` says break.)"""
    cm, val = ws[0], ws[1]
    used_refs = np.empty(2 * FACTS, dtype=np.int32)
    fc, fv, todo = np.empty(81, np.int32), np.empty(81, np.int32), np.empty(800, np.int32)
    pending, dirty = np.empty(243, np.int32), np.empty(243, np.int8)
    derived = 0
    for cell in range(81):
        for digit in range(1, 10):
            if val[d, cell] or not cm[d, cell] >> (digit - 1) & 1:
                continue
            if level == 2 and not _breaks(cm[d], val[d], cell, digit, fc, fv, todo, pending, dirty):
                continue
            _begin(d + 1, cm[d], val[d], ws)
            if not _follow(d + 1, cell, digit, level - 2, root_cm, refs, ws):
                continue
            size, used = _closure(d + 1, used_refs, ws)
            for i in range(used):
                refs[i] = _ref(ws[2], d, used_refs[i])
            found = _remove(d, cell, digit, refs, used, size, ws)
            if found < 0:
                return -1
            derived += found
            while found > 0:
                found = _rules(d, 1, root_cm, refs, ws)
            if found < 0:
                return -1
    return derived


@njit(cache=True)
def _rules(d, level, root_cm, refs, ws):  # type: ignore[no-untyped-def]
    """Singles until none is left, then (from level 1) one round of pointing and claiming, or else of naked pairs:
    -1 on a contradiction, else how many removals the round derived (0: nothing more to follow at this level)."""
    if _singles(d, root_cm, refs, ws):
        return -1
    if level < 1:
        return 0
    found = _locked(d, root_cm, refs, ws)
    return found if found != 0 else _naked_pairs(d, root_cm, refs, ws)


@njit(cache=True)
def _follow(d, cell, digit, level, root_cm, refs, ws):  # type: ignore[no-untyped-def]
    """Assume the candidate at depth d (begun) and follow it at level 0 (singles) or 1 (also pointing, claiming
    and naked pairs when no single is left); True when it breaks."""
    if _derive(d, _fact(cell, digit, 1), refs, 0, 0, ws):
        return True
    while True:
        found = _rules(d, level, root_cm, refs, ws)
        if found <= 0:
            return found < 0


@njit(cache=True)
def _trial(d, cell, digit, level, root_cm, refs, ws):  # type: ignore[no-untyped-def]
    """Assume the candidate at depth d (begun) and follow it at ``level``: from level 2, a round of nested trials
    whenever the rules of level 1 have nothing more. True when it breaks."""
    if level < 2:
        return _follow(d, cell, digit, level, root_cm, refs, ws)
    if _derive(d, _fact(cell, digit, 1), refs, 0, 0, ws):
        return True
    while True:
        found = _rules(d, 1, root_cm, refs, ws)
        if found == 0:
            found = _nested(d, level, root_cm, refs, ws)
        if found < 0:
            return True
        if found == 0:
            return False


@njit(cache=True)
def smallest(root_cm, root_val, solution, level, sizes, ws, first, last):  # type: ignore[no-untyped-def]
    """The trial at ``level`` from the position of every candidate of the cells ``first`` to ``last - 1``: its net's
    size when it breaks, else 0, into ``sizes`` (index cell * 9 + digit - 1). ``solution``: the position's
    solution, whose digits never break (their trials are skipped). The caller goes through the cells in parts, so
    that a time limit is checked between them (``deadline``)."""
    refs = np.empty(4 * FACTS, dtype=np.int32)
    for cell in range(first, last):
        for digit in range(1, 10):
            sizes[cell * 9 + digit - 1] = 0
            if root_val[cell] or not root_cm[cell] >> (digit - 1) & 1 or digit == solution[cell]:
                continue
            _begin(0, root_cm, root_val, ws)
            if _trial(0, cell, digit, level, root_cm, refs, ws):
                size, _ = _closure(0, refs, ws)
                sizes[cell * 9 + digit - 1] = size
