"""Wings: XY-Wing, XYZ-Wing, WXYZ-Wing, VWXYZ-Wing, W-Wing and Remote Pair (short patterns of bivalue and
trivalue cells).

Each pattern shows that a digit (or a pair of digits) must sit in at least one of two cells, so the
digit leaves every cell that sees both. Definitions follow HoDoKu's; Remote Pair also finds chains whose
cells branch (a network of same-pair cells coloured in two parities), reporting for each elimination the
shortest chain of at least four cells that proves it. WXYZ- and VWXYZ-Wing, which HoDoKu does not have, follow
Sukaku Explainer: three (four) cells of one house holding four (five) digits between them, an almost locked set,
and a bivalue cell outside them, linked by one digit (or both: the doubly linked wing). Sukaku Explainer rates
them by the size of the largest set cell, three candidates highest: WXYZ-Wing 5.6 when that cell holds three
candidates and 5.5 when it holds two or four; VWXYZ-Wing 6.4 for three, 6.3 for two or four and 6.2 for five.
The catalogue has one entry per rating (``wxyz_wing``, ``wxyz_wing_trivalue``, ``vwxyz_wing_pentavalue``,
``vwxyz_wing``, ``vwxyz_wing_trivalue``), so every step carries its own rating.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from itertools import combinations

from ..board import Board, Step
from ..grid import PEERS, POPCOUNT, UNITS, UNITS_OF, bit, cell_name, digits_of, unit_name
from .common import digit_list, names

_PEER_SETS: tuple[frozenset[int], ...] = tuple(frozenset(p) for p in PEERS)


def _sees(a: int, b: int) -> bool:
    """True when two different cells share a house."""
    return b in _PEER_SETS[a]


def _shared_unit(a: int, b: int) -> int:
    """The first house two cells that see each other have in common (row, then column, then box)."""
    return next(u for u in UNITS_OF[a] if u in UNITS_OF[b])


def _common_peers(cells: tuple[int, ...]) -> list[int]:
    """Cells (outside the group) that see every cell of the group, ascending."""
    common = set(_PEER_SETS[cells[0]])
    for cell in cells[1:]:
        common &= _PEER_SETS[cell]
    return sorted(common.difference(cells))


def _removals(board: Board, targets: list[int], mask: int) -> tuple[tuple[int, int], ...]:
    """The (cell, digit) candidates of the mask's digits present in the target cells."""
    return tuple((c, d) for c in targets for d in digits_of(board.cands[c] & mask))


def _cells_with_size(board: Board, size: int) -> list[int]:
    """Unsolved cells with exactly ``size`` candidates, ascending."""
    return [c for c in range(81) if not board.values[c] and POPCOUNT[board.cands[c]] == size]


def _which_see(removed: tuple[tuple[int, int], ...], what: str) -> str:
    """The cells that lose candidates, for a sentence: ``r1c1 and r2c2, which see both``."""
    cells = list(dict.fromkeys(c for c, _ in removed))
    return f"{names(cells)}, which {'sees' if len(cells) == 1 else 'see'} {what}"


def _mask_text(board: Board, cell: int) -> str:
    """A cell and its candidates for a sentence: ``r1c1 (2/7)``."""
    return f"{cell_name(cell)} ({digit_list(digits_of(board.cands[cell]))})"


# What each wing's text says: its name, who holds Z whatever the pivot takes, and which cells lose Z.
_WING_WORDS = {
    "xy_wing": ("XY-Wing", "one of those two", "both"),
    "xyz_wing": ("XYZ-Wing", "one of the three cells", "all three"),
}


def _wing_step(
    board: Board, technique: str, cells: tuple[int, int, int], z_mask: int, removed: tuple[tuple[int, int], ...]
) -> Step:
    """The Step of an XY- or XYZ-Wing: pivot and pincers, the digit Z they force somewhere, Z removed."""
    pivot, a, b = cells
    name, holder, seen = _WING_WORDS[technique]
    z = digits_of(z_mask)[0]
    return Step(
        technique,
        eliminations=removed,
        cells=cells,
        cause=tuple((c, d) for c in cells for d in digits_of(board.cands[c])),
        units=(_shared_unit(pivot, a), _shared_unit(pivot, b)),
        text=f"{name}: pivot {_mask_text(board, pivot)} sees {_mask_text(board, a)} and "
        f"{_mask_text(board, b)}; whichever digit the pivot takes, {holder} is {z}, "
        f"so {z} leaves {_which_see(removed, seen)}.",
    )


def xy_wing(board: Board) -> Iterator[Step]:
    """Pivot XY sees pincers XZ and YZ: one pincer is Z, so Z leaves cells seeing both pincers."""
    bivalue = _cells_with_size(board, 2)
    for pivot in bivalue:
        pm = board.cands[pivot]
        wings = [c for c in bivalue if _sees(pivot, c) and POPCOUNT[board.cands[c] & pm] == 1]
        for a, b in combinations(wings, 2):
            am, bm = board.cands[a], board.cands[b]
            z_mask = am & ~pm
            if am & pm == bm & pm or bm & ~pm != z_mask:
                continue
            removed = _removals(board, _common_peers((a, b)), z_mask)
            if not removed:
                continue
            yield _wing_step(board, "xy_wing", (pivot, a, b), z_mask, removed)


def xyz_wing(board: Board) -> Iterator[Step]:
    """Pivot XYZ sees pincers XZ and YZ: one of the three is Z, so Z leaves cells seeing all three."""
    bivalue = _cells_with_size(board, 2)
    for pivot in _cells_with_size(board, 3):
        pm = board.cands[pivot]
        wings = [c for c in bivalue if _sees(pivot, c) and board.cands[c] & ~pm == 0]
        for a, b in combinations(wings, 2):
            am, bm = board.cands[a], board.cands[b]
            if am == bm:
                continue
            z_mask = am & bm
            removed = _removals(board, _common_peers((pivot, a, b)), z_mask)
            if not removed:
                continue
            yield _wing_step(board, "xyz_wing", (pivot, a, b), z_mask, removed)


def _wing_sets(board: Board, size: int) -> Iterator[tuple[int, tuple[int, ...], int]]:
    """``size`` cells of one house, 2 to size + 1 candidates each, holding size + 1 digits between them (an almost
    locked set): (house, cells, digits).

    Cells that all see each other always share a house; a set lying in a row (or column) and a box is given once,
    with its row or column.
    """
    seen: set[tuple[int, ...]] = set()
    for unit, cells in enumerate(UNITS):
        open_cells = [c for c in cells if not board.values[c] and 2 <= POPCOUNT[board.cands[c]] <= size + 1]
        for group in combinations(open_cells, size):
            union = 0
            for c in group:
                union |= board.cands[c]
            if POPCOUNT[union] == size + 1 and group not in seen:
                seen.add(group)
                yield unit, group, union


def _holding(board: Board, cells: tuple[int, ...], digit: int) -> tuple[int, ...]:
    """The cells that hold the digit as a candidate."""
    return tuple(c for c in cells if board.cands[c] & bit(digit))


def _wing_removals(
    board: Board, group: tuple[int, ...], digits: int, yz: int, linked: tuple[int, ...]
) -> tuple[tuple[int, int], ...]:
    """What a (V)WXYZ-Wing removes, given the digits that link its bivalue cell ``yz`` to the set cells.

    Singly linked (by x): the bivalue cell is z, or it is x and the set, losing x, is locked with z among its
    digits; z leaves the cells that see the bivalue cell and every z of the set. Doubly linked: whichever digit the
    bivalue cell takes, the set loses it and locks the others, so each digit the bivalue cell lacks leaves the
    cells that see all its places in the set, and each of its own two digits the cells that also see the bivalue
    cell.
    """
    pattern = (*group, yz)
    removed: list[tuple[int, int]] = []
    own = digits_of(board.cands[yz])
    if len(linked) == 2:
        for w in digits_of(digits & ~board.cands[yz]):
            removed += _removals(board, _common_peers(_holding(board, group, w)), bit(w))
    for z in own if len(linked) == 2 else [d for d in own if d not in linked]:
        targets = [c for c in _common_peers((*_holding(board, group, z), yz)) if c not in pattern]
        removed += _removals(board, targets, bit(z))
    return tuple(sorted(e for e in removed if e[0] not in pattern))


_COUNT_WORDS = {3: "three", 4: "four", 5: "five"}


def _wing_text(
    board: Board,
    name: str,
    unit: int,
    group: tuple[int, ...],
    digits: int,
    yz: int,
    linked: tuple[int, ...],
    removed: tuple[tuple[int, int], ...],
) -> str:
    """The sentence of a WXYZ- or VWXYZ-Wing step."""
    n, digit_count = _COUNT_WORDS[len(group)], _COUNT_WORDS[len(group) + 1]
    cells = ", ".join(_mask_text(board, c) for c in group[:-1]) + f" and {_mask_text(board, group[-1])}"
    start = (
        f"{name}: {cells} hold only {digit_list(digits_of(digits))} between them in {unit_name(unit)}, "
        f"and {_mask_text(board, yz)}"
    )
    if len(linked) == 1:
        x = linked[0]
        z = next(d for d in digits_of(board.cands[yz]) if d != x)
        return (
            f"{start} sees each of them that holds {x}: if {cell_name(yz)} is {x} the {n} cells are left "
            f"{n} digits, {z} among them, else it is {z}, so {z} leaves "
            f"{_which_see(removed, f'{cell_name(yz)} and every {z} of the {n}')}."
        )
    x, z = linked
    return (
        f"{start} sees each of them that holds {x} or {z}: whichever of the two {cell_name(yz)} takes, the "
        f"{n} cells hold the other {n} digits, so each of the {digit_count} digits lies in these "
        f"{digit_count} cells and leaves {_which_see(removed, 'all its places there')}."
    )


def _wing_steps(board: Board, technique_id: str, size: int, largest: tuple[int, ...]) -> Iterator[Step]:
    """The wings of an almost locked set of ``size`` cells and a bivalue cell, whose largest set cell holds one of
    the ``largest`` numbers of candidates (Sukaku Explainer's rating depends on it)."""
    name = "WXYZ-Wing" if size == 3 else "VWXYZ-Wing"
    bivalue = _cells_with_size(board, 2)
    for unit, group, digits in _wing_sets(board, size):
        if max(POPCOUNT[board.cands[c]] for c in group) not in largest:
            continue
        for yz in bivalue:
            if yz in group or board.cands[yz] & ~digits:
                continue
            # A digit links the bivalue cell to the set when every set cell holding it sees the bivalue cell.
            linked = tuple(
                d for d in digits_of(board.cands[yz]) if all(_sees(yz, c) for c in _holding(board, group, d))
            )
            if not linked:
                continue
            removed = _wing_removals(board, group, digits, yz, linked)
            if not removed:
                continue
            pattern = (*group, yz)
            yield Step(
                technique_id,
                eliminations=removed,
                cells=pattern,
                cause=tuple((c, d) for c in pattern for d in digits_of(board.cands[c])),
                units=tuple(dict.fromkeys([unit, *(_shared_unit(yz, c) for c in group if _sees(yz, c))])),
                text=_wing_text(board, name, unit, group, digits, yz, linked, removed),
            )


def wxyz_wing(board: Board) -> Iterator[Step]:
    """WXYZ-Wing (SE 5.5): the largest cell of the three holds two or four candidates."""
    return _wing_steps(board, "wxyz_wing", 3, largest=(2, 4))


def wxyz_wing_trivalue(board: Board) -> Iterator[Step]:
    """WXYZ-Wing (SE 5.6): the largest cell of the three holds three candidates."""
    return _wing_steps(board, "wxyz_wing_trivalue", 3, largest=(3,))


def vwxyz_wing_pentavalue(board: Board) -> Iterator[Step]:
    """VWXYZ-Wing (SE 6.2): one cell of the four holds all five digits."""
    return _wing_steps(board, "vwxyz_wing_pentavalue", 4, largest=(5,))


def vwxyz_wing(board: Board) -> Iterator[Step]:
    """VWXYZ-Wing (SE 6.3): the largest cell of the four holds two or four candidates."""
    return _wing_steps(board, "vwxyz_wing", 4, largest=(2, 4))


def vwxyz_wing_trivalue(board: Board) -> Iterator[Step]:
    """VWXYZ-Wing (SE 6.4): the largest cell of the four holds three candidates."""
    return _wing_steps(board, "vwxyz_wing_trivalue", 4, largest=(3,))


def _conjugate_pairs(board: Board, digit: int) -> list[tuple[int, int, int]]:
    """Every house where the digit has exactly two places: (house, first cell, second cell)."""
    b = bit(digit)
    pairs = []
    for unit, cells in enumerate(UNITS):
        places = [c for c in cells if board.cands[c] & b]
        if len(places) == 2:
            pairs.append((unit, places[0], places[1]))
    return pairs


def _w_link(links: list[tuple[int, int, int]], first: int, second: int) -> tuple[int, int, int] | None:
    """A strong link (house, end seeing ``first``, end seeing ``second``) joining the two cells, or None."""
    for unit, p, q in links:
        if p in (first, second) or q in (first, second):
            continue
        if _sees(p, first) and _sees(q, second):
            return unit, p, q
        if _sees(q, first) and _sees(p, second):
            return unit, q, p
    return None


def w_wing(board: Board) -> Iterator[Step]:
    """Two unconnected XY cells joined by a strong link on X: one of them is Y, so Y leaves their common peers."""
    links: dict[int, list[tuple[int, int, int]]] = {}
    for first, second in combinations(_cells_with_size(board, 2), 2):
        mask = board.cands[first]
        if board.cands[second] != mask or _sees(first, second):
            continue
        targets = _common_peers((first, second))
        for x in digits_of(mask):
            y_mask = mask & ~bit(x)
            removed = _removals(board, targets, y_mask)
            if not removed:
                continue
            if x not in links:
                links[x] = _conjugate_pairs(board, x)
            link = _w_link(links[x], first, second)
            if link is None:
                continue
            unit, p, q = link
            y = digits_of(y_mask)[0]
            pair = digit_list(digits_of(mask))
            yield Step(
                "w_wing",
                eliminations=removed,
                cells=(first, p, q, second),
                length=4,
                cause=((first, x), (first, y), (p, x), (q, x), (second, x), (second, y)),
                units=(_shared_unit(first, p), unit, _shared_unit(q, second)),
                text=f"W-Wing: {cell_name(first)} and {cell_name(second)} both hold only {pair}, "
                f"and {x} must go in {cell_name(p)} (which sees {cell_name(first)}) or {cell_name(q)} (which sees "
                f"{cell_name(second)}) within {unit_name(unit)}, so the two cells cannot both be {x}: one is {y}, "
                f"and {y} leaves {_which_see(removed, 'both')}.",
            )


def _colour_component(start: int, adjacent: dict[int, list[int]], colour: dict[int, int]) -> list[int] | None:
    """Two-colour the cells linked to ``start``; their list, or None when an odd loop makes it impossible."""
    colour[start] = 0
    component, queue = [start], deque([start])
    bipartite = True
    while queue:
        cell = queue.popleft()
        for other in adjacent[cell]:
            if other not in colour:
                colour[other] = 1 - colour[cell]
                component.append(other)
                queue.append(other)
            elif colour[other] == colour[cell]:
                bipartite = False
    return sorted(component) if bipartite else None


def _shortest_path(start: int, end: int, adjacent: dict[int, list[int]]) -> list[int]:
    """The shortest chain of linked cells from start to end (breadth first, lowest cells first)."""
    previous = {start: start}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        if cell == end:
            break
        for other in adjacent[cell]:
            if other not in previous:
                previous[other] = cell
                queue.append(other)
    path = [end]
    while path[-1] != start:
        path.append(previous[path[-1]])
    return path[::-1]


def _remote_pair_steps(board: Board, component: list[int], adjacent: dict[int, list[int]]) -> Iterator[Step]:
    """Eliminations of one same-pair network: cells seeing two unlinked cells of opposite colour lose both digits."""
    mask = board.cands[component[0]]
    x, y = digits_of(mask)
    chains = []
    for a, b in combinations(component, 2):
        if not _sees(a, b):
            path = _shortest_path(a, b, adjacent)
            if len(path) % 2 == 0:
                chains.append(path)
    chains.sort(key=len)
    done: set[tuple[int, int]] = set()
    for path in chains:
        removed = tuple(e for e in _removals(board, _common_peers((path[0], path[-1])), mask) if e not in done)
        if not removed:
            continue
        done.update(removed)
        targets = list(dict.fromkeys(c for c, _ in removed))
        yield Step(
            "remote_pair",
            eliminations=removed,
            cells=tuple(path),
            length=len(path),
            cause=tuple((c, d) for c in path for d in digits_of(mask)),
            units=tuple(_shared_unit(p, q) for p, q in zip(path, path[1:])),
            text=f"Remote Pair: {names(path)} all hold only {x}/{y} and each sees the next, so the digits alternate "
            f"along the chain and its ends {cell_name(path[0])} and {cell_name(path[-1])} hold one {x} and one {y}; "
            f"{names(targets)} {'sees' if len(targets) == 1 else 'see'} both ends and so can hold neither.",
        )


def remote_pair(board: Board) -> Iterator[Step]:
    """A chain of at least four same-pair cells, each seeing the next: cells seeing both parities lose the pair."""
    groups: dict[int, list[int]] = {}
    for cell in _cells_with_size(board, 2):
        groups.setdefault(board.cands[cell], []).append(cell)
    for mask in sorted(groups):
        cells = groups[mask]
        # At most two same-pair cells per house in a solvable position (18 in all), so trying every pair of
        # network cells below stays small.
        if len(cells) < 4:
            continue
        adjacent = {c: [o for o in cells if _sees(c, o)] for c in cells}
        colour: dict[int, int] = {}
        for start in cells:
            if start in colour:
                continue
            # An odd loop of same-pair cells means the position has no solution: no chain logic applies there.
            component = _colour_component(start, adjacent, colour)
            if component is not None and len(component) >= 4:
                yield from _remote_pair_steps(board, component, adjacent)
