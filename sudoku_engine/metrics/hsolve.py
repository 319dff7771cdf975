"""hsolve: the human-solver simulation of seed 002 (MCM 2008, team #2858), sections 3.1 and 3.2.

The paper models an expert who applies strategies from the least to the most difficult and, within the easiest
group (tier) of strategies not yet searched in the current position, checks the possible applications in a
random order until one is valid. A run of the simulation (hsolve, section 3.2):

1. d = 0.
2. Until the board is solved or nothing applies: take the easiest tier S not yet searched in the current
   position; count the p possible applications of S and the set V of its valid ones (v = |V|); add to d the
   expected number of checks before the first valid one, E(p, v) = (p + 1) / (v + 1) (Lemma 1; the standard
   check time t is 1 here and the same for every tier: the paper gives no per-tier weight); if v > 0 apply one
   element of V chosen at random and start again from the easiest tier in the new position, else go on to the
   next tier.

m(B) is the mean of d over 20 runs (the paper finds sigma/mean of about 1/10 with 20 runs). Each run draws from
its own generator seeded by (seed, run number), so a result is a function of the puzzle, ``runs`` and ``seed``.

Tiers: the catalogue's techniques (``sudoku_engine.techniques``) grouped by their ``tier``.

    1  full house, hidden single (box, line), naked single                  singles
    2  pointing, claiming, locked pair/triple, naked/hidden pair/triple      intersections and subsets
    3  X-Wing, Swordfish, Jellyfish, Skyscraper, 2-String Kite, Turbot       basic fish, single-digit
       Fish, Empty Rectangle, XY-Wing, XYZ-Wing, WXYZ-Wing, VWXYZ-Wing,      patterns, wings, quads,
       unique rectangles 1-6, hidden rectangle, avoidable rectangles 1-2,    uniqueness
       naked/hidden quad, BUG+1
    4  Aligned Pair Exclusion, finned and sashimi fish, (finned) Franken     exclusion, finned and Franken
       X-Wing and Swordfish, Simple/Multi Colours, Remote Pair, W-Wing       fish, colouring
    5  X-Chain, XY-Chain, Nice Loop/AIC, grouped Nice Loop, Sue de Coq,      chains and almost locked sets
       ALS-XZ, ALS-XY-Wing, ALS chain
    6  forcing chain, forcing net, nested forcing chain, bifurcation         trial and error

The paper ranks its strategies and lists the configurations checked for each in its Appendix A, which is not
part of the seed text held with this project: the catalogue's six tiers (ordered like the Sudoku Explainer
scale) stand in for that ranking, and the table below is this module's reading of "a configuration on the board
that is checked by a human to determine if the given strategy can be applied".

Possible applications. Techniques that a person checks on the same configurations form a family and share them
(one look at a rectangle tells which unique-rectangle type, if any, applies). One function per family counts:

    naked single                    an empty cell
    hidden single, full house       a (house, digit) with the digit not yet placed there (a full house is the
                                    hidden single of a house with one empty cell: no configurations of its own)
    pointing, claiming              a (box, digit) with 2-3 places in the box; a (line, digit) with 2-3 places
    naked subsets of n cells        n cells of one house, each with 2..n candidates (pair and triple with the
                                    locked pair and triple, which are such sets in a box; quad)
    hidden subsets of n digits      n digits of one house, each with 2..n places there (pair, triple; quad)
    basic fish of size n            per digit and direction, n base lines each with 2..n places
    XY-Wing                         a bivalue pivot with two bivalue peers each sharing one digit with it
    XYZ-Wing                        a trivalue pivot with two bivalue peers whose digits are among its own
    WXYZ-Wing                       three cells of one house, 2-4 candidates each, with four digits between
                                    them, and a bivalue cell outside them whose digits are among the four and
                                    which sees one of them
    VWXYZ-Wing                      the same with four cells of one house, 2-5 candidates each, and five digits
    Aligned Pair Exclusion          two cells with two or more bivalue cells seeing both
    rectangles (UR 1-6, hidden)     rows r1 r2, columns c1 c2 in exactly two boxes, four empty corners, and a
                                    digit pair that all four corners hold
    avoidable rectangles 1, 2       rows r1 r2, columns c1 c2 in exactly two boxes, two or three corners solved
                                    (not givens), the others empty
    BUG+1                           the whole grid, once
    Skyscraper, Kite, Turbot Fish   per digit, two conjugate pairs (houses with two places; distinct pairs)
    Empty Rectangle                 per digit, a box with 3+ places and a line conjugate pair outside the box
    finned/sashimi fish of size n   per digit and direction, n base lines each with 2..n+3 places
    (finned) Franken fish of size n per digit and direction, n base houses (rows and boxes, or columns and boxes,
                                    a line among them) each with 2 places or more
    Simple Colours                  per digit, a cluster of conjugate pairs with three cells or more
    Multi Colours                   per digit, two clusters
    Remote Pair                     two cells of one same-pair network of 4+ cells that do not see each other
    W-Wing                          two same-pair cells that do not see each other, with a link digit (2 each)
    X-Chain                         per digit, a cell of a conjugate pair (a chain start)
    XY-Chain                        a bivalue cell with a start digit
    Nice Loop / AIC                 a candidate (a start)
    grouped Nice Loop               a candidate, or a group node: (box, line, digit) with 2-3 places in their
                                    intersection
    Sue de Coq                      a box-line intersection with 2-3 empty cells
    ALS-XZ, ALS-XY-Wing, ALS chain  each: an almost locked set (n <= 6 cells of a house, n + 1 candidates), the
                                    anchor of the search
    forcing chain, net, bifurcation each: a candidate (one trial)

Valid applications: in tier 1 the configurations above that hold (a cell with one candidate, a (house, digit)
with one place), so a placement that shows in several ways counts once for each; in tiers 2-6 the distinct steps
that change the board found by the tier's techniques. Where one configuration can give several steps (a pair of
strong links chains up to four ways; a trial proves several conclusions) p is raised to v when it falls short.

Departures from the paper, and why:

- A tier searched without a valid application adds p (the search was complete); Lemma 1 is stated for v >= 1 and
  would give p + 1. A tier with no configuration at all costs nothing.
- Work shared between runs: a position's tier searches (p and the valid steps) are kept, keyed by the position,
  and reused by every run that reaches it (singles commute, so runs meet again wherever singles run out before
  their harder steps differ). Results are the same as searching afresh; only the time changes.
- Work cap: tiers 5 and 6 enumerate every chain, set and trial, and on the hardest puzzles 20 runs need
  thousands of such searches. ``cap`` bounds the work of fresh searches over all runs, in units of about one
  tier 2-4 search (``WORK``: tier 5 counts 20, tier 6 counts 80). When it is reached the run under way stops; the
  result keeps the runs that finished and says ``capped`` (when none finished, the unfinished run's cost so
  far, a lower bound, stands in).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cached_property
from itertools import combinations
from math import comb

from .. import deadline
from ..board import Board, Step
from ..grid import PEERS, POPCOUNT, UNITS, bit, box_of
from ..solver import PuzzleLike, as_values
from ..techniques import CATALOGUE, Technique
from ..techniques.singles import hidden_single_step, naked_single_step

DEFAULT_RUNS = 20
DEFAULT_CAP = 10_000
# Work units of a fresh search per tier, about its relative time (tiers 5 and 6 enumerate chains, sets and trials).
WORK: dict[int, int] = {2: 1, 3: 1, 4: 1, 5: 20, 6: 80}
TIERS: tuple[int, ...] = tuple(sorted({t.tier for t in CATALOGUE}))

_PEER_SETS: tuple[frozenset[int], ...] = tuple(frozenset(p) for p in PEERS)
_BOX_LINES = tuple((box, line) for box in range(18, 27) for line in range(18) if set(UNITS[box]) & set(UNITS[line]))
_MAX_ALS_CELLS = 6
# The rectangles of cells in two rows and two columns that span exactly two boxes (not one, not four), as
# (r1c1, r1c2, r2c1, r2c2) corners, rows then columns in order.
_RECTANGLES: tuple[tuple[int, int, int, int], ...] = tuple(
    (r1 * 9 + c1, r1 * 9 + c2, r2 * 9 + c1, r2 * 9 + c2)
    for r1, r2 in combinations(range(9), 2)
    for c1, c2 in combinations(range(9), 2)
    if (r1 // 3 == r2 // 3) != (c1 // 3 == c2 // 3)
)


def expected_checks(possible: int, valid: int) -> float:
    """E(p, v) = (p + 1) / (v + 1) checks before the first valid application (p when none is valid)."""
    if valid <= 0:
        return float(possible)
    return (possible + 1) / (valid + 1)


# ---------------------------------------------------------------------------------------------------------------
# What a person would look at: a lazily built view of one position.


class View:
    """Per-position facts the families count from, each computed once on first use."""

    def __init__(self, board: Board) -> None:
        self.values = board.values
        self.cands = board.cands
        self.givens = board.givens

    @cached_property
    def positions(self) -> list[list[int]]:
        """Per house, per digit (index d - 1), the 9-bit mask of places the digit still has."""
        found = []
        for cells in UNITS:
            masks = [0] * 9
            for index, cell in enumerate(cells):
                mask = self.cands[cell]
                while mask:
                    low = mask & -mask
                    masks[low.bit_length() - 1] |= 1 << index
                    mask ^= low
            found.append(masks)
        return found

    @cached_property
    def placed(self) -> list[int]:
        """Per house, the digit mask of what is already placed in it."""
        return [sum(bit(self.values[c]) for c in cells if self.values[c]) for cells in UNITS]

    @cached_property
    def empty(self) -> list[int]:
        """The empty cells, ascending."""
        return [c for c in range(81) if not self.values[c]]

    def with_size(self, size: int) -> list[int]:
        """Empty cells with exactly ``size`` candidates."""
        return [c for c in self.empty if POPCOUNT[self.cands[c]] == size]

    @cached_property
    def bivalue(self) -> list[int]:
        """Empty cells with two candidates."""
        return self.with_size(2)

    @cached_property
    def candidates(self) -> int:
        """Number of candidates on the board."""
        return sum(POPCOUNT[self.cands[c]] for c in self.empty)

    @cached_property
    def links(self) -> list[list[tuple[int, int, int]]]:
        """Per digit (index d - 1), its conjugate pairs (cell, cell, first house), one per cell pair."""
        found = []
        for d in range(9):
            seen: dict[tuple[int, int], int] = {}
            for unit, cells in enumerate(UNITS):
                mask = self.positions[unit][d]
                if POPCOUNT[mask] == 2:
                    first, second = (cells[i] for i in range(9) if mask >> i & 1)
                    seen.setdefault((first, second), unit)
            found.append([(a, b, u) for (a, b), u in seen.items()])
        return found

    @cached_property
    def clusters(self) -> list[list[int]]:
        """Per digit, the sizes (cells) of the clusters its conjugate pairs join."""
        sizes = []
        for d in range(9):
            neighbours: dict[int, list[int]] = {}
            for a, b, _ in self.links[d]:
                neighbours.setdefault(a, []).append(b)
                neighbours.setdefault(b, []).append(a)
            done: set[int] = set()
            found = []
            for start in neighbours:
                if start in done:
                    continue
                done.add(start)
                stack, count = [start], 0
                while stack:
                    cell = stack.pop()
                    count += 1
                    for other in neighbours[cell]:
                        if other not in done:
                            done.add(other)
                            stack.append(other)
                found.append(count)
            sizes.append(found)
        return sizes

    def line_places(self, digit_index: int, rows: bool) -> list[int]:
        """Per row (or column), how many places the digit has."""
        offset = 0 if rows else 9
        return [POPCOUNT[self.positions[offset + line][digit_index]] for line in range(9)]

    @cached_property
    def almost_locked_sets(self) -> int:
        """Distinct almost locked sets: n cells of one house (n <= 6) with n + 1 candidates between them."""
        found: set[int] = set()
        for cells in UNITS:
            open_cells = [(1 << c, self.cands[c]) for c in cells if not self.values[c]]
            _grow_als(open_cells, 0, 0, 0, 0, found)
        return len(found)


def _grow_als(cells: list[tuple[int, int]], start: int, chosen: int, union: int, size: int, found: set[int]) -> None:
    """Add to ``found`` every ALS extending the chosen cells with cells at or after ``start``."""
    for i in range(start, len(cells)):
        cell_bit, mask = cells[i]
        grown = union | mask
        if POPCOUNT[grown] > _MAX_ALS_CELLS + 1:
            continue
        now = chosen | cell_bit
        if POPCOUNT[grown] == size + 2:
            found.add(now)
        if size + 1 < _MAX_ALS_CELLS:
            _grow_als(cells, i + 1, now, grown, size + 1, found)


# ---------------------------------------------------------------------------------------------------------------
# One counting function per family: the possible applications a person checks.


def naked_single_checks(view: View) -> int:
    """Naked single: every empty cell."""
    return len(view.empty)


def hidden_single_checks(view: View) -> int:
    """Hidden single and full house: every (house, digit) with the digit not yet placed in the house."""
    return sum(9 - POPCOUNT[placed] for placed in view.placed)


def intersection_checks(view: View) -> int:
    """Pointing and claiming: every (house, digit) with two or three places (box for pointing, line for claiming)."""
    return sum(1 for masks in view.positions for m in masks if 2 <= POPCOUNT[m] <= 3)


def naked_subset_checks(view: View, size: int) -> int:
    """Naked subsets of ``size`` cells: every such set of one house's cells, each with 2..size candidates."""
    total = 0
    for cells in UNITS:
        small = sum(1 for c in cells if not view.values[c] and 2 <= POPCOUNT[view.cands[c]] <= size)
        total += comb(small, size)
    return total


def hidden_subset_checks(view: View, size: int) -> int:
    """Hidden subsets of ``size`` digits: every such set of one house's digits, each with 2..size places."""
    return sum(comb(sum(1 for m in masks if 2 <= POPCOUNT[m] <= size), size) for masks in view.positions)


def fish_checks(view: View, size: int, widest: int) -> int:
    """Fish of ``size`` lines: per digit and direction, every set of base lines each with 2..widest places."""
    total = 0
    for d in range(9):
        for rows in (True, False):
            lines = sum(1 for n in view.line_places(d, rows) if 2 <= n <= widest)
            total += comb(lines, size)
    return total


def xy_wing_checks(view: View) -> int:
    """XY-Wing: every bivalue pivot with a pair of bivalue peers sharing exactly one digit with it."""
    total = 0
    for pivot in view.bivalue:
        mask = view.cands[pivot]
        wings = sum(1 for c in view.bivalue if c in _PEER_SETS[pivot] and POPCOUNT[view.cands[c] & mask] == 1)
        total += comb(wings, 2)
    return total


def xyz_wing_checks(view: View) -> int:
    """XYZ-Wing: every trivalue pivot with a pair of bivalue peers whose digits are among the pivot's."""
    total = 0
    for pivot in view.with_size(3):
        mask = view.cands[pivot]
        wings = sum(1 for c in view.bivalue if c in _PEER_SETS[pivot] and not view.cands[c] & ~mask)
        total += comb(wings, 2)
    return total


def wing_set_checks(view: View, size: int) -> int:
    """WXYZ-Wing (``size`` 3), VWXYZ-Wing (4): every set of ``size`` cells of one house (2 to size + 1 candidates
    each, size + 1 digits between them) with a bivalue cell outside it whose digits are among the set's and which
    sees one of its cells."""
    sets: set[tuple[int, ...]] = set()
    for cells in UNITS:
        open_cells = [c for c in cells if not view.values[c] and 2 <= POPCOUNT[view.cands[c]] <= size + 1]
        for group in combinations(open_cells, size):
            if POPCOUNT[_union(view, group)] == size + 1:
                sets.add(group)
    total = 0
    for group in sets:
        digits = _union(view, group)
        total += sum(
            1
            for c in view.bivalue
            if c not in group and not view.cands[c] & ~digits and any(c in _PEER_SETS[t] for t in group)
        )
    return total


def _union(view: View, cells: tuple[int, ...]) -> int:
    """The digits some of the cells hold."""
    union = 0
    for c in cells:
        union |= view.cands[c]
    return union


def aligned_pair_checks(view: View) -> int:
    """Aligned Pair Exclusion: every two cells of 2+ candidates with two or more bivalue cells seeing both."""
    bivalue = sum(1 << c for c in view.bivalue)
    seen_by = [_PEER_BITS[c] & ~(1 << c) & bivalue for c in view.empty if POPCOUNT[view.cands[c]] >= 2]
    return sum(1 for a, b in combinations(seen_by, 2) if (a & b).bit_count() >= 2)


def rectangle_checks(view: View) -> int:
    """Unique and hidden rectangles: every two-box rectangle of empty cells with a digit pair all corners hold."""
    total = 0
    values, cands = view.values, view.cands
    for corners in _RECTANGLES:
        if any(values[c] for c in corners):
            continue
        common = cands[corners[0]] & cands[corners[1]] & cands[corners[2]] & cands[corners[3]]
        total += comb(POPCOUNT[common], 2)
    return total


def avoidable_rectangle_checks(view: View) -> int:
    """Avoidable rectangles: every two-box rectangle with two or three corners solved (not givens), the rest empty
    (none where the givens are not known)."""
    givens = view.givens
    if givens is None:
        return 0
    return sum(
        1
        for corners in _RECTANGLES
        if not any(givens >> c & 1 for c in corners) and 2 <= sum(1 for c in corners if view.values[c]) <= 3
    )


def franken_fish_checks(view: View, size: int) -> int:
    """Franken fish of ``size`` houses: per digit and direction, every set of base houses (lines of the direction
    and boxes) each with 2+ places, with a line among them."""
    total = 0
    for d in range(9):
        boxes = sum(1 for box in range(18, 27) if POPCOUNT[view.positions[box][d]] >= 2)
        for rows in (True, False):
            lines = sum(1 for n in view.line_places(d, rows) if n >= 2)
            total += comb(lines + boxes, size) - comb(boxes, size)
    return total


def bug_checks(view: View) -> int:
    """BUG+1: one look at the whole grid."""
    return 1


def strong_link_pair_checks(view: View) -> int:
    """Skyscraper, 2-String Kite, Turbot Fish: per digit, every pair of conjugate pairs."""
    return sum(comb(len(links), 2) for links in view.links)


def empty_rectangle_checks(view: View) -> int:
    """Empty Rectangle: per digit, every box with 3+ places with a line conjugate pair outside that box."""
    total = 0
    for d in range(9):
        line_links = [(a, b) for a, b, unit in view.links[d] if unit < 18]
        for box in range(9):
            if POPCOUNT[view.positions[18 + box][d]] >= 3:
                total += sum(1 for a, b in line_links if box_of(a) != box and box_of(b) != box)
    return total


def simple_colour_checks(view: View) -> int:
    """Simple Colours: per digit, every cluster of three cells or more."""
    return sum(1 for sizes in view.clusters for n in sizes if n >= 3)


def multi_colour_checks(view: View) -> int:
    """Multi Colours: per digit, every pair of clusters."""
    return sum(comb(len(sizes), 2) for sizes in view.clusters)


def remote_pair_checks(view: View) -> int:
    """Remote Pair: in each same-pair network of four cells or more, every two cells that do not see each other."""
    groups: dict[int, list[int]] = {}
    for cell in view.bivalue:
        groups.setdefault(view.cands[cell], []).append(cell)
    total = 0
    for cells in groups.values():
        if len(cells) < 4:
            continue
        for component in _networks(cells):
            if len(component) >= 4:
                total += sum(1 for a, b in combinations(component, 2) if b not in _PEER_SETS[a])
    return total


def _networks(cells: list[int]) -> Iterator[list[int]]:
    """The groups of cells joined by seeing each other (connected components)."""
    left = set(cells)
    while left:
        start = min(left)
        left.discard(start)
        component, stack = [start], [start]
        while stack:
            cell = stack.pop()
            joined = [c for c in left if c in _PEER_SETS[cell]]
            for other in joined:
                left.discard(other)
                component.append(other)
                stack.append(other)
        yield component


def w_wing_checks(view: View) -> int:
    """W-Wing: two same-pair cells that do not see each other, with either digit as the link digit."""
    pairs = combinations(view.bivalue, 2)
    return 2 * sum(1 for a, b in pairs if view.cands[a] == view.cands[b] and b not in _PEER_SETS[a])


def x_chain_checks(view: View) -> int:
    """X-Chain: per digit, every cell of the digit in a conjugate pair (a start)."""
    return sum(len({c for a, b, _ in links for c in (a, b)}) for links in view.links)


def xy_chain_checks(view: View) -> int:
    """XY-Chain: every (bivalue cell, digit) start."""
    return 2 * len(view.bivalue)


def candidate_checks(view: View) -> int:
    """Nice loops, forcing chains and nets, bifurcation: every candidate (a start, or one trial)."""
    return view.candidates


def grouped_loop_checks(view: View) -> int:
    """Grouped nice loop: every candidate and every group node (box-line intersection with 2-3 places of a digit)."""
    groups = 0
    for box, line in _BOX_LINES:
        shared = [c for c in UNITS[box] if c in UNITS[line]]
        for d in range(9):
            if POPCOUNT[sum(1 << i for i, c in enumerate(shared) if view.cands[c] >> d & 1)] >= 2:
                groups += 1
    return view.candidates + groups


def sue_de_coq_checks(view: View) -> int:
    """Sue de Coq: every box-line intersection with two or three empty cells."""
    return sum(
        1 for box, line in _BOX_LINES if sum(1 for c in UNITS[box] if c in UNITS[line] and not view.values[c]) >= 2
    )


def als_checks(view: View) -> int:
    """ALS-XZ, ALS-XY-Wing, ALS chain (each): every almost locked set, the anchor of the search."""
    return view.almost_locked_sets


@dataclass(frozen=True)
class Family:
    """Techniques checked on the same configurations, and how many possible applications a position holds."""

    name: str
    techniques: tuple[str, ...]
    count: Callable[[View], int]


FAMILIES: tuple[Family, ...] = (
    Family("naked single", ("naked_single",), naked_single_checks),
    Family("hidden single", ("full_house", "hidden_single_box", "hidden_single_line"), hidden_single_checks),
    Family("intersections", ("pointing", "claiming"), intersection_checks),
    Family("naked pairs", ("naked_pair", "locked_pair"), lambda v: naked_subset_checks(v, 2)),
    Family("naked triples", ("naked_triple", "locked_triple"), lambda v: naked_subset_checks(v, 3)),
    Family("hidden pairs", ("hidden_pair",), lambda v: hidden_subset_checks(v, 2)),
    Family("hidden triples", ("hidden_triple",), lambda v: hidden_subset_checks(v, 3)),
    Family("X-Wing", ("x_wing",), lambda v: fish_checks(v, 2, 2)),
    Family("Swordfish", ("swordfish",), lambda v: fish_checks(v, 3, 3)),
    Family("Jellyfish", ("jellyfish",), lambda v: fish_checks(v, 4, 4)),
    Family("XY-Wing", ("xy_wing",), xy_wing_checks),
    Family("XYZ-Wing", ("xyz_wing",), xyz_wing_checks),
    Family("WXYZ-Wing", ("wxyz_wing", "wxyz_wing_trivalue"), lambda v: wing_set_checks(v, 3)),
    Family(
        "VWXYZ-Wing", ("vwxyz_wing_pentavalue", "vwxyz_wing", "vwxyz_wing_trivalue"), lambda v: wing_set_checks(v, 4)
    ),
    Family(
        "rectangles",
        (
            "unique_rectangle_1",
            "unique_rectangle_2",
            "unique_rectangle_3",
            "unique_rectangle_4",
            "unique_rectangle_5",
            "unique_rectangle_6",
            "hidden_rectangle",
        ),
        rectangle_checks,
    ),
    Family("avoidable rectangles", ("avoidable_rectangle_1", "avoidable_rectangle_2"), avoidable_rectangle_checks),
    Family("naked quads", ("naked_quad",), lambda v: naked_subset_checks(v, 4)),
    Family("hidden quads", ("hidden_quad",), lambda v: hidden_subset_checks(v, 4)),
    Family("BUG+1", ("bug_plus_1",), bug_checks),
    Family("two strong links", ("skyscraper", "two_string_kite", "turbot_fish"), strong_link_pair_checks),
    Family("Empty Rectangle", ("empty_rectangle",), empty_rectangle_checks),
    Family("Aligned Pair Exclusion", ("aligned_pair_exclusion",), aligned_pair_checks),
    Family("finned X-Wing", ("finned_x_wing", "sashimi_x_wing"), lambda v: fish_checks(v, 2, 5)),
    Family("finned Swordfish", ("finned_swordfish", "sashimi_swordfish"), lambda v: fish_checks(v, 3, 6)),
    Family("finned Jellyfish", ("finned_jellyfish", "sashimi_jellyfish"), lambda v: fish_checks(v, 4, 7)),
    Family("Franken X-Wing", ("franken_x_wing", "finned_franken_x_wing"), lambda v: franken_fish_checks(v, 2)),
    Family("Franken Swordfish", ("franken_swordfish", "finned_franken_swordfish"), lambda v: franken_fish_checks(v, 3)),
    Family("Simple Colours", ("simple_colours",), simple_colour_checks),
    Family("Multi Colours", ("multi_colours",), multi_colour_checks),
    Family("Remote Pair", ("remote_pair",), remote_pair_checks),
    Family("W-Wing", ("w_wing",), w_wing_checks),
    Family("X-Chain", ("x_chain",), x_chain_checks),
    Family("XY-Chain", ("xy_chain",), xy_chain_checks),
    Family("Nice Loop", ("nice_loop",), candidate_checks),
    Family("grouped Nice Loop", ("grouped_nice_loop",), grouped_loop_checks),
    Family("Sue de Coq", ("sue_de_coq",), sue_de_coq_checks),
    Family("ALS-XZ", ("als_xz",), als_checks),
    Family("ALS-XY-Wing", ("als_xy_wing",), als_checks),
    Family("ALS chain", ("als_chain",), als_checks),
    Family("forcing chain", ("forcing_chain",), candidate_checks),
    Family("forcing net", ("forcing_net",), candidate_checks),
    Family("nested forcing chain", ("nested_forcing_chain",), candidate_checks),
    Family("bifurcation", ("bifurcation",), candidate_checks),
)

_TIER_OF: dict[str, int] = {t.id: t.tier for t in CATALOGUE}
TECHNIQUES: dict[int, tuple[Technique, ...]] = {tier: tuple(t for t in CATALOGUE if t.tier == tier) for tier in TIERS}
TIER_FAMILIES: dict[int, tuple[Family, ...]] = {
    tier: tuple(f for f in FAMILIES if _TIER_OF[f.techniques[0]] == tier) for tier in TIERS
}


def possible_applications(board: Board, tier: int) -> int:
    """p: the possible applications of a tier's strategies in the position (sum over its families)."""
    view = View(board)
    return sum(family.count(view) for family in TIER_FAMILIES[tier])


# ---------------------------------------------------------------------------------------------------------------
# Valid applications.

# A tier-1 configuration that holds: (cell, digit, house), house -1 for a naked single.
_Single = tuple[int, int, int]

_HOUSE_BITS: tuple[int, ...] = tuple(sum(1 << c for c in cells) for cells in UNITS)
_PEER_BITS: tuple[int, ...] = tuple(sum(1 << p for p in PEERS[c]) | 1 << c for c in range(81))


def planes_of(board: Board) -> list[int]:
    """Per digit (index d - 1), the 81-bit mask of the cells where it is a candidate."""
    planes = [0] * 9
    for cell, mask in enumerate(board.cands):
        while mask:
            low = mask & -mask
            planes[low.bit_length() - 1] |= 1 << cell
            mask ^= low
    return planes


def _singles(planes: list[int], empty: int) -> tuple[int, list[_Single]]:
    """Tier 1 from the digit planes: p and the configurations that hold, in the order a run draws from (naked
    singles by cell, then hidden singles by digit and house; the rules of ``techniques.singles``, read off the
    planes the run keeps up to date)."""
    # p = 4 x empty cells: each empty cell, and as many open (house, digit) pairs in each of its three houses
    # (a house has as many open digits as empty cells).
    valid: list[_Single] = []
    once = twice = 0
    for plane in planes:
        twice |= once & plane
        once |= plane
    lone = once & ~twice
    while lone:
        low = lone & -lone
        lone ^= low
        digit = next(d for d in range(9) if planes[d] & low) + 1
        valid.append((low.bit_length() - 1, digit, -1))
    for index, plane in enumerate(planes):
        if not plane:
            continue
        for unit, house in enumerate(_HOUSE_BITS):
            here = plane & house
            if here and not here & (here - 1):
                valid.append((here.bit_length() - 1, index + 1, unit))
    return 4 * empty, valid


def singles(board: Board) -> tuple[int, list[_Single]]:
    """Tier 1: p (empty cells + open (house, digit) pairs) and the configurations that hold, (cell, digit, house)."""
    return _singles(planes_of(board), sum(1 for v in board.values if not v))


def _fill(planes: list[int], cell: int, digit: int) -> None:
    """Place a digit in the digit planes: it leaves the cell's peers, and the cell loses every digit."""
    planes[digit - 1] &= ~_PEER_BITS[cell]
    clear = ~(1 << cell)
    for index in range(9):
        planes[index] &= clear


def _update(planes: list[int], step: Step) -> int:
    """Apply a step to the digit planes; the number of cells it fills."""
    for cell, digit in step.placements:
        _fill(planes, cell, digit)
    for cell, digit in step.eliminations:
        planes[digit - 1] &= ~(1 << cell)
    return len(step.placements)


def single_step(single: _Single) -> Step:
    """The Step of a tier-1 configuration."""
    cell, digit, unit = single
    if unit < 0:
        return naked_single_step(cell, digit)
    return hidden_single_step(cell, digit, unit)


def valid_applications(board: Board, tier: int) -> tuple[Step, ...]:
    """V for a tier of 2 or more: the distinct steps that change the board, in catalogue order."""
    found: dict[Step, None] = {}
    for tech in TECHNIQUES[tier]:
        for step in tech.find(board):
            if step.is_progress:
                found[step] = None
    return tuple(found)


# ---------------------------------------------------------------------------------------------------------------
# Runs.


@dataclass(frozen=True)
class Search:
    """One tier searched in one position: p, v and the expected checks it adds."""

    tier: int
    possible: int
    valid: int
    cost: float


@dataclass(frozen=True)
class Move:
    """The tiers searched in one position (fruitless ones first) and the step then applied."""

    searches: tuple[Search, ...]
    step: Step

    @property
    def cost(self) -> float:
        """Expected checks spent in this position."""
        return sum(s.cost for s in self.searches)


@dataclass(frozen=True)
class Run:
    """One run of hsolve: its difficulty d and the moves it made."""

    cost: float
    moves: tuple[Move, ...]
    solved: bool
    capped: bool


@dataclass(frozen=True)
class Hsolve:
    """hsolve over several runs: each finished run's d (when none finished, the unfinished run's cost so far),
    whether work ran out, whether every finished run solved the puzzle, and the work spent."""

    per_run: tuple[float, ...]
    capped: bool
    solved: bool
    work: int

    @property
    def mean(self) -> float:
        """m(B): the mean of the runs' d."""
        return sum(self.per_run) / len(self.per_run)

    @property
    def sigma(self) -> float:
        """The sample standard deviation of the runs' d (0 for a single run)."""
        if len(self.per_run) < 2:
            return 0.0
        mean = self.mean
        return math.sqrt(sum((d - mean) ** 2 for d in self.per_run) / (len(self.per_run) - 1))

    @property
    def cv(self) -> float:
        """sigma / mean of the runs (0 for a solved grid)."""
        return self.sigma / self.mean if self.mean else 0.0

    def as_dict(self) -> dict[str, object]:
        """The JSON form: mean (rounded), sigma, runs, capped."""
        return {
            "mean": round(self.mean, 2),
            "sigma": round(self.sigma, 2),
            "runs": len(self.per_run),
            "capped": self.capped,
        }


class _OutOfWork(Exception):
    """The work cap was reached."""


Key = tuple[int, ...]


class _Searches:
    """Tier searches of tiers 2+ keyed by position, shared by the runs of one puzzle, with the work cap."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.work = 0
        self.kept: dict[tuple[Key, int], tuple[int, tuple[Step, ...]]] = {}

    def search(self, board: Board, key: Key, tier: int) -> tuple[int, tuple[Step, ...]]:
        """p and V of a tier in the position, from the store or searched afresh (counted against the cap)."""
        kept = self.kept.get((key, tier))
        if kept is not None:
            return kept
        if self.work >= self.cap:
            raise _OutOfWork
        deadline.check()
        self.work += WORK.get(tier, 1)
        steps = valid_applications(board, tier)
        result = (max(possible_applications(board, tier), len(steps)), steps)
        self.kept[(key, tier)] = result
        return result


def _run(start: Board, rng: random.Random, searches: _Searches, record: bool) -> Run:
    """One run from the start position: easiest tier first, a random valid application, until solved or stuck."""
    board = start.copy()
    planes = planes_of(board)
    empty = sum(1 for v in board.values if not v)
    cost = 0.0
    moves: list[Move] = []
    capped = False
    while empty:
        possible, valid = _singles(planes, empty)
        cost += expected_checks(possible, len(valid))
        if valid:
            cell, digit, unit = rng.choice(valid)
            board.place(cell, digit)
            _fill(planes, cell, digit)
            empty -= 1
            if record:
                search = Search(1, possible, len(valid), expected_checks(possible, len(valid)))
                moves.append(Move((search,), single_step((cell, digit, unit))))
            continue
        done = [Search(1, possible, 0, float(possible))]
        step: Step | None = None
        try:
            step = _harder(board, (*board.values, *board.cands), rng, searches, done)
        except _OutOfWork:
            capped = True
        cost += sum(s.cost for s in done[1:])
        if step is None:
            break
        board.apply(step)
        empty -= _update(planes, step)
        if record:
            moves.append(Move(tuple(done), step))
    return Run(cost, tuple(moves), board.is_solved, capped)


def _harder(board: Board, key: Key, rng: random.Random, searches: _Searches, done: list[Search]) -> Step | None:
    """Search tiers 2+ in order (appending to ``done``) and pick a valid application of the first that has one."""
    for tier in TIERS[1:]:
        possible, steps = searches.search(board, key, tier)
        done.append(Search(tier, possible, len(steps), expected_checks(possible, len(steps))))
        if steps:
            return rng.choice(steps)
    return None


def _start(puzzle: PuzzleLike | Board) -> Board:
    """The starting board of a puzzle (a Board is copied)."""
    if isinstance(puzzle, Board):
        return puzzle.copy()
    return Board.from_values(as_values(puzzle))


def run_rng(seed: int, run: int) -> random.Random:
    """The generator of one run: seeded by the pair (seed, run), the same on every platform."""
    return random.Random(f"hsolve/{seed}/{run}")


def hsolve_run(puzzle: PuzzleLike | Board, seed: int = 0, run: int = 0, cap: int = DEFAULT_CAP) -> Run:
    """One run of hsolve with its moves recorded (the run ``run`` of ``hsolve(puzzle, seed=seed)``)."""
    return _run(_start(puzzle), run_rng(seed, run), _Searches(cap), record=True)


def hsolve(puzzle: PuzzleLike | Board, runs: int = DEFAULT_RUNS, seed: int = 0, cap: int = DEFAULT_CAP) -> Hsolve:
    """m(B): the mean of hsolve's difficulty over ``runs`` seeded runs, with a cap on fresh tier searches."""
    if runs < 1:
        raise ValueError("runs must be at least 1")
    start = _start(puzzle)
    searches = _Searches(cap)
    costs: list[float] = []
    capped = False
    solved = True
    partial = 0.0
    for index in range(runs):
        result = _run(start, run_rng(seed, index), searches, record=False)
        if result.capped:
            capped, partial = True, result.cost
            break
        costs.append(result.cost)
        solved = solved and result.solved
    if not costs:
        return Hsolve((partial,), True, False, searches.work)
    return Hsolve(tuple(costs), capped, solved, searches.work)
