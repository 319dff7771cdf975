"""The per-constraint filters behind seed 004 (Simonis, "Sudoku as a Constraint Problem", sections 4 and 5).

Filters of one small constraint given as bitmask rows, each a pure function of its input and memoized:

- ``perfect_filter``: n left nodes, n right nodes, ``adj[i]`` the right nodes left node i may take; every node
  must be matched (a bijection). Keeps exactly the edges that lie in some perfect matching, the Regin
  construction: one maximum matching, then an edge outside it survives only when it closes an alternating
  cycle, i.e. its two ends fall in one strongly connected component of the residual graph (matched edges
  right-to-left, the others left-to-right). With no free node the residual graph contracts to one node per
  matched pair, and SCC membership is read off a bit-parallel transitive closure. This is hyper-arc
  consistency of an alldifferent over n variables and n values (section 4), the per-value colored matrix
  (rows x columns, section 5.1) and the per-value rows/blocks matching (section 5.3).
- ``range_filter``: the alldifferent of the paper's BC, as ECLiPSe's ``ic_global`` library implements it
  (Puget-style): for each maximum value the variables lying below it are scanned by decreasing minimum and
  every prefix whose domain union is as small as its size (an exhausted set) has that union removed from all
  other variables. Stronger than textbook bounds consistency, weaker than HAC.
- ``bounds_filter``: textbook bounds(Z) consistency (Hall intervals of the interval hulls, bounds pushed out
  of them; values strictly between the bounds stay), kept to show why the paper's BC is not this.
- ``dual_range_filter`` / ``dual_bounds_filter``: the same on a unit's dual value -> position variables
  (channeling, section 4.1), mapped back to the cells.

Both bounds filters remove a fixed variable's value from the others first (forward checking); for the
textbook one that puts it above FC, as the paper's lattice has BC, which bounds reasoning alone does not.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

Rows = tuple[int, ...]

BITS: tuple[tuple[int, ...], ...] = tuple(tuple(i for i in range(9) if m >> i & 1) for m in range(512))
_MEMO_LIMIT = 20_000  # entries per memo (a few MB); cleared when full
_perfect_memo: dict[Rows, Rows | None] = {}
_bounds_memo: dict[Rows, Rows | None] = {}
_MISS: tuple[int, ...] = (-1,)
Key = TypeVar("Key", Rows, tuple[bool, Rows])


def _remember(memo: dict[Key, Rows | None], key: Key, result: Rows | None) -> Rows | None:
    """Store a filter's result in its memo (emptied first when full) and return it."""
    if len(memo) >= _MEMO_LIMIT:
        memo.clear()
    memo[key] = result
    return result


def _matching(adj: Sequence[int], rows: Sequence[int]) -> list[int] | None:
    """A matching saturating ``rows``, as the right node of each left node (-1 elsewhere), or None."""
    mate = [-1] * len(adj)
    owner = [-1] * 16
    used = 0
    for u in rows:
        free = adj[u] & ~used
        if free:
            r = (free & -free).bit_length() - 1
            mate[u] = r
            owner[r] = u
            used |= 1 << r
    for u in rows:
        if mate[u] < 0 and not _augment(u, adj, mate, owner):
            return None
    return mate


def _augment(root: int, adj: Sequence[int], mate: list[int], owner: list[int]) -> bool:
    """Extend the matching along one augmenting path from the free left node ``root`` (breadth first)."""
    parent: dict[int, int] = {}
    frontier = [root]
    seen = 0
    while frontier:
        nxt: list[int] = []
        for u in frontier:
            for r in BITS[adj[u] & ~seen]:
                seen |= 1 << r
                parent[r] = u
                w = owner[r]
                if w < 0:
                    while True:
                        u2 = parent[r]
                        previous = mate[u2]
                        mate[u2] = r
                        owner[r] = u2
                        if u2 == root:
                            return True
                        r = previous
                nxt.append(w)
        frontier = nxt
    return False


def _filter_matched(adj: Sequence[int], mate: list[int], rows: Sequence[int]) -> Rows:
    """Edges of ``adj`` from ``rows`` in some perfect matching, given one (``mate``); other rows unchanged."""
    owner = [0] * 16
    for u in rows:
        owner[mate[u]] = u
    reach = [0] * len(adj)
    for u in rows:
        step = 1 << u
        for r in BITS[adj[u] & ~(1 << mate[u])]:
            step |= 1 << owner[r]
        reach[u] = step
    for k in rows:
        bk = 1 << k
        rk = reach[k]
        for i in rows:
            if reach[i] & bk:
                reach[i] |= rk
    allowed = list(adj)
    for u in rows:
        allowed[u] = 0
    for w in rows:
        value = 1 << mate[w]
        for u in BITS[reach[w]]:
            allowed[u] |= value
    return tuple(a & b for a, b in zip(adj, allowed))


def _perfect(adj: Rows) -> Rows | None:
    """The unmemoized ``perfect_filter``."""
    fixed = 0
    rows = []
    for i, m in enumerate(adj):
        if m & (m - 1):
            rows.append(i)
        elif not m or fixed & m:
            return None
        else:
            fixed |= m
    if not rows:
        return adj
    if any(adj[i] & fixed for i in rows):
        rows = list(range(len(adj)))
    mate = _matching(adj, rows)
    return None if mate is None else _filter_matched(adj, mate, rows)


def perfect_filter(adj: Rows) -> Rows | None:
    """The edges of a square bipartite graph that lie in some perfect matching; None when none exists.

    Rows with one edge left whose right node no other row uses are matched already and left out of the
    search: the other rows must then be matched onto exactly the remaining right nodes.
    """
    known = _perfect_memo.get(adj, _MISS)
    if known is not _MISS:
        return known
    return _remember(_perfect_memo, adj, _perfect(adj))


# ---- bounds consistency ----------------------------------------------------------------------------------
# Interval k covers values lo..hi (bits lo..hi, 0-based); lane k of a counter int is bits 5k..5k+4.
_INTERVALS: tuple[tuple[int, int], ...] = tuple((lo, hi) for lo in range(9) for hi in range(lo, 9))
_INTERVAL_MASK: tuple[int, ...] = tuple(((1 << (hi + 1)) - 1) & ~((1 << lo) - 1) for lo, hi in _INTERVALS)
_GUARD = sum(1 << (5 * k + 4) for k in range(len(_INTERVALS)))
# count >= size  <=>  count + 16 - size has bit 4 set; count > size  <=>  count + 15 - size has it.
_AT_LEAST = sum((16 - (hi - lo + 1)) << (5 * k) for k, (lo, hi) in enumerate(_INTERVALS))
_ABOVE = sum((15 - (hi - lo + 1)) << (5 * k) for k, (lo, hi) in enumerate(_INTERVALS))


def _hull(mask: int) -> int:
    """The contiguous run of bits from the lowest to the highest set bit of a mask."""
    return ((1 << mask.bit_length()) - 1) & ~((mask & -mask) - 1) if mask else 0


def _inside_lanes(mask: int) -> int:
    """One count in the lane of every interval that contains the hull of ``mask``."""
    hull = _hull(mask)
    return sum(1 << (5 * k) for k, im in enumerate(_INTERVAL_MASK) if mask and hull & ~im == 0)


def _edge_lanes(mask: int) -> int:
    """Guard bits of the intervals holding the lowest or highest value of ``mask`` but not its whole hull."""
    if not mask:
        return 0
    low = mask & -mask
    high = 1 << (mask.bit_length() - 1)
    hull = _hull(mask)
    return sum(1 << (5 * k + 4) for k, im in enumerate(_INTERVAL_MASK) if (im & low or im & high) and hull & ~im)


_INSIDE: tuple[int, ...] = tuple(_inside_lanes(m) for m in range(512))
_EDGE: tuple[int, ...] = tuple(_edge_lanes(m) for m in range(512))


def _interval_union(lanes: int) -> int:
    """The union of the value intervals whose guard bits are set in ``lanes``."""
    union = 0
    while lanes:
        low = lanes & -lanes
        lanes ^= low
        union |= _INTERVAL_MASK[low.bit_length() // 5 - 1]
    return union


def _bounds_round(masks: list[int]) -> int:
    """One pass of Hall-interval bound pruning: -1 on failure, 1 when a bound moved, 0 at the fixpoint."""
    total = 0
    for m in masks:
        total += _INSIDE[m]
    if (total + _ABOVE) & _GUARD:
        return -1
    hall = (total + _AT_LEAST) & _GUARD
    changed = 0
    for i, m in enumerate(masks):
        lanes = hall & _EDGE[m]
        if lanes:
            m &= ~_interval_union(lanes)
            if not m:
                return -1
            masks[i] = m
            changed = 1
    return changed


def _forward_check(masks: list[int]) -> bool:
    """Remove every fixed value from the other variables until none is left to remove; False on failure."""
    done = 0
    while True:
        fixed = 0
        for m in masks:
            if m and not m & (m - 1):
                if fixed & m:
                    return False
                fixed |= m
        new = fixed & ~done
        if not new:
            return all(masks)
        for i, m in enumerate(masks):
            if m & new and m & (m - 1):
                masks[i] = m & ~new
        done = fixed


def _to_fixpoint(domains: Rows, pruning_round: Callable[[list[int]], int]) -> Rows | None:
    """Forward checking and rounds of ``pruning_round`` in turn until neither removes a value; None on failure."""
    masks = list(domains)
    while _forward_check(masks):
        step = pruning_round(masks)
        if step < 0:
            return None
        if step == 0:
            return tuple(masks)
    return None


def bounds_filter(domains: Rows) -> Rows | None:
    """Textbook bounds consistency (with forward checking) of an alldifferent of 9 variables; None on failure.

    Hall intervals of the hulls are counted for all 45 intervals at once (5-bit lanes of one int); a variable
    whose hull is not inside a Hall interval but whose lowest or highest value lies in it loses the interval.
    """
    known = _bounds_memo.get(domains, _MISS)
    if known is not _MISS:
        return known
    return _remember(_bounds_memo, domains, _to_fixpoint(domains, _bounds_round))


# ---- bounds reasoning as the paper's solver does it ----------------------------------------------------------
_HIGH = tuple(m.bit_length() - 1 for m in range(512))
_COUNT = tuple(bin(m).count("1") for m in range(512))
# Scan order of a variable: decreasing minimum, then increasing maximum, then increasing size (low 4 bits: index).
_ORDER_KEY = tuple(
    ((9 - (m & -m).bit_length()) << 12) | (_HIGH[m] << 8) | (_COUNT[m] << 4) if m else 0 for m in range(512)
)
_range_memo: dict[Rows, Rows | None] = {}


def _value_groups(masks: Sequence[int]) -> list[tuple[int, int]]:
    """The open variables grouped by shared values, as (variable bits, value bits) with disjoint values."""
    groups: list[tuple[int, int]] = []
    for i, m in enumerate(masks):
        if not m & (m - 1):
            continue
        cells = 1 << i
        values = m
        kept: list[tuple[int, int]] = []
        for other_cells, other_values in groups:
            if other_values & values:
                cells |= other_cells
                values |= other_values
            else:
                kept.append((other_cells, other_values))
        kept.append((cells, values))
        groups = kept
    return groups


def _exhausted_prefix(masks: list[int], members: tuple[int, ...]) -> int:
    """One Hall-set search over (min, max) groups of one value group: -1 failure, 1 pruned, 0 nothing found."""
    order = [key & 15 for key in sorted([_ORDER_KEY[masks[i]] | i for i in members])]
    total = len(members)
    for top in sorted({_HIGH[masks[i]] for i in members}):
        union = 0
        prefix = 0
        k = 0
        for i in order:
            m = masks[i]
            if _HIGH[m] > top:
                continue
            union |= m
            prefix |= 1 << i
            k += 1
            size = _COUNT[union]
            if size < k:
                return -1
            if size == k:
                if k == total:
                    break
                for j in members:
                    if not prefix >> j & 1:
                        masks[j] &= ~union
                return 1
            if size > total:
                break
    return 0


def _range_round(masks: list[int]) -> int:
    """One exhausted-set search in each group of open variables that share values: -1 failure, 1 pruned, 0 none."""
    for cells, values in _value_groups(masks):
        members = BITS[cells]
        if len(members) < 2:
            continue
        if _COUNT[values] < len(members):
            return -1
        step = _exhausted_prefix(masks, members)
        if step:
            return step
    return 0


def range_filter(domains: Rows) -> Rows | None:
    """The paper's BC alldifferent (ECLiPSe ``ic_global``): Hall sets found among (min, max) groups; None on failure.

    For each maximum value, the variables whose domain lies below it are taken in order of decreasing minimum
    (then increasing maximum and size) and every prefix is checked: a prefix whose domains hold fewer values
    than variables fails, one that holds exactly as many (an exhausted set) has its values removed from every
    other variable, interior values included. Fixed values leave the others first (a fixed variable is an
    exhausted set of one). The solver then splits the constraint into the exhausted part and the rest; here the
    search runs on each group of open variables that share values, which such splits produce, until no prefix
    prunes anything. This is stronger than textbook bounds consistency (``bounds_filter``).
    """
    known = _range_memo.get(domains, _MISS)
    if known is not _MISS:
        return known
    return _remember(_range_memo, domains, _to_fixpoint(domains, _range_round))


_dual_memo: dict[tuple[bool, Rows], Rows | None] = {}


def _transpose(rows: Sequence[int]) -> list[int]:
    """The square bit matrix with rows and columns exchanged (variables <-> values)."""
    out = [0] * len(rows)
    for i, m in enumerate(rows):
        bit = 1 << i
        for d in BITS[m]:
            out[d] |= bit
    return out


def _dual(domains: Rows, textbook: bool) -> Rows | None:
    """A bounds filter on the dual (value -> position) variables, mapped back to the domains; None on failure.

    The dual of a unit has one variable per value whose domain is the positions (1..9 in unit order) that
    still hold the value; the two are linked by x_i = j <=> y_j = i, arc consistent (the paper's channeling).
    """
    key = (textbook, domains)
    known = _dual_memo.get(key, _MISS)
    if known is not _MISS:
        return known
    dual = (bounds_filter if textbook else range_filter)(tuple(_transpose(domains)))
    result = None if dual is None else tuple(m & t for m, t in zip(domains, _transpose(dual)))
    return _remember(_dual_memo, key, result if result is not None and all(result) else None)


def dual_range_filter(domains: Rows) -> Rows | None:
    """``range_filter`` on the dual value -> position variables of a unit, mapped back; None on failure."""
    return _dual(domains, False)


def dual_bounds_filter(domains: Rows) -> Rows | None:
    """``bounds_filter`` on the dual value -> position variables of a unit, mapped back; None on failure."""
    return _dual(domains, True)
