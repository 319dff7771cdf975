"""Colouring: Simple Colours and Multi Colours on the conjugate pairs of one digit (HoDoKu's definitions).

The conjugate pairs of a digit (houses with exactly two places for it) join cells into clusters; each
cluster takes two colours, alternating along its pairs, and exactly one colour of a cluster holds the digit.

- Simple Colours, trap: a cell outside the cluster that sees both colours loses the digit. Wrap: two cells
  of one colour in one house make that colour false, so every cell of it loses the digit. Clusters of a
  single pair are skipped: their eliminations are locked candidates.
- Multi Colours (two clusters A and B): if a cell of colour a1 sees a cell of colour b1, a2 or b2 holds the
  digit, so a cell outside both clusters that sees a2 and b2 loses it (type 1); if colour a1 sees both
  colours of B, a1 is false and its cells lose the digit (type 2).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import combinations

from ..board import Board, Step
from ..grid import DIGITS, cell_name
from .common import PEER_BITS, cells_of, digit_step, names
from .memo import digit_cells
from .single_digit import SEES, strong_links


@dataclass(frozen=True)
class _Cluster:
    """Cells joined by conjugate pairs of one digit, in their two colours, and the houses of the pairs."""

    colours: tuple[tuple[int, ...], tuple[int, ...]]
    units: tuple[int, ...]

    @property
    def cells(self) -> tuple[int, ...]:
        """Every cell of the cluster, ascending."""
        return tuple(sorted(self.colours[0] + self.colours[1]))


def _clusters(board: Board, digit: int) -> list[_Cluster]:
    """The clusters of a digit, each two-coloured by a walk from its lowest cell."""
    neighbours: dict[int, list[tuple[int, int]]] = {}
    for a, b, unit in strong_links(board, digit):
        neighbours.setdefault(a, []).append((b, unit))
        neighbours.setdefault(b, []).append((a, unit))
    colour: dict[int, int] = {}
    clusters = []
    for start in sorted(neighbours):
        if start in colour:
            continue
        colour[start] = 0
        members, units, queue = [start], set(), [start]
        while queue:
            cell = queue.pop()
            for other, unit in neighbours[cell]:
                units.add(unit)
                if other not in colour:
                    colour[other] = 1 - colour[cell]
                    members.append(other)
                    queue.append(other)
        parts = tuple(tuple(sorted(c for c in members if colour[c] == k)) for k in (0, 1))
        clusters.append(_Cluster((parts[0], parts[1]), tuple(sorted(units))))
    return clusters


def _seeing(group: tuple[int, ...]) -> int:
    """The cells that see at least one cell of the group, as a cell mask."""
    seen = 0
    for cell in group:
        seen |= PEER_BITS[cell]
    return seen


def _mask(cells: tuple[int, ...]) -> int:
    """A cell mask of the cells."""
    mask = 0
    for cell in cells:
        mask |= 1 << cell
    return mask


def _clash(group: tuple[int, ...]) -> tuple[int, int] | None:
    """Two cells of one colour that see each other, or None."""
    for a, b in combinations(group, 2):
        if b in SEES[a]:
            return a, b
    return None


def _colour_step(
    technique: str, digit: int, removed: tuple[int, ...], clusters: tuple[_Cluster, ...], text: str
) -> Step:
    """A colouring Step: its pattern is every cell of the clusters used."""
    cells = [c for cl in clusters for c in cl.cells]
    units = tuple(sorted({u for cl in clusters for u in cl.units}))
    return digit_step(technique, digit, removed, cells, units, text)


def _simple(board: Board, digit: int, cluster: _Cluster) -> Iterator[Step]:
    """Wrap and trap steps of one cluster."""
    for k in (0, 1):
        clash = _clash(cluster.colours[k])
        if clash is not None:
            group = cluster.colours[k]
            text = (
                f"Simple Colours (wrap): colouring the conjugate pairs of {digit} gives {cell_name(clash[0])} and "
                f"{cell_name(clash[1])}, which share a house, the same colour, so that colour is false and "
                f"{digit} is removed from {names(group)}."
            )
            yield _colour_step("simple_colours", digit, group, (cluster,), text)
    first, second = cluster.colours
    outside = digit_cells(board)[digit - 1] & ~_mask(first + second)
    removed = cells_of(outside & _seeing(first) & _seeing(second))
    if removed:
        text = (
            f"Simple Colours (trap): along the conjugate pairs of {digit}, either {names(first)} or "
            f"{names(second)} hold {digit}, so {digit} is removed from {names(removed)} (each sees both colours)."
        )
        yield _colour_step("simple_colours", digit, removed, (cluster,), text)


def simple_colours(board: Board, digits: Iterable[int] = DIGITS) -> Iterator[Step]:
    """Colour trap and colour wrap, digit by digit, cluster by cluster (clusters of three cells or more)."""
    for digit in digits:
        for cluster in _clusters(board, digit):
            if len(cluster.cells) >= 3:
                yield from _simple(board, digit, cluster)


def _contact(one: tuple[int, ...], other: tuple[int, ...]) -> tuple[int, int] | None:
    """A cell of one group that sees a cell of the other, as a pair, or None."""
    for a in one:
        for b in other:
            if b in SEES[a]:
                return a, b
    return None


def _multi_pair(board: Board, digit: int, a: _Cluster, b: _Cluster) -> Iterator[Step]:
    """Multi Colours steps of two clusters: type 2 (a colour sees both colours of the other) first, then type 1."""
    contacts = {(i, j): _contact(a.colours[i], b.colours[j]) for i in (0, 1) for j in (0, 1)}
    pair = (a, b)
    for which, mine, theirs in ((0, a, b), (1, b, a)):
        for k in (0, 1):
            seen = [contacts[(k, j) if which == 0 else (j, k)] for j in (0, 1)]
            if seen[0] is None or seen[1] is None:
                continue
            group = mine.colours[k]
            text = (
                f"Multi Colours: the colour of {names(group)} sees both colours of the cluster "
                f"{names(theirs.cells)} (one of which holds {digit}), so it is false and {digit} is removed from its "
                "cells."
            )
            yield _colour_step("multi_colours", digit, group, pair, text)
    outside = digit_cells(board)[digit - 1] & ~_mask(a.cells + b.cells)
    for (i, j), touch in contacts.items():
        if touch is None:
            continue
        a_true, b_true = a.colours[1 - i], b.colours[1 - j]
        removed = cells_of(outside & _seeing(a_true) & _seeing(b_true))
        if removed:
            text = (
                f"Multi Colours: {cell_name(touch[0])} and {cell_name(touch[1])} see each other, so their colours "
                f"cannot both hold {digit}, so the colour of {names(a_true)} or that of {names(b_true)} does, and "
                f"{digit} is removed from {names(removed)} (each sees both)."
            )
            yield _colour_step("multi_colours", digit, removed, pair, text)


def multi_colours(board: Board, digits: Iterable[int] = DIGITS) -> Iterator[Step]:
    """Multi Colours types 2 and 1 for every pair of clusters of a digit."""
    for digit in digits:
        for a, b in combinations(_clusters(board, digit), 2):
            yield from _multi_pair(board, digit, a, b)
