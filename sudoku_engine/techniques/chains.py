"""Chains: X-Chain, XY-Chain, Nice Loop / AIC and Grouped Nice Loop, all on one alternating-inference-chain engine.

Nodes are candidates (cell, digit); grouped chains add group nodes: the two or three candidates of one digit in a
box-line intersection, true when the digit sits in one of those cells. A strong link (at least one of the two is
true) joins the only two places of a digit in a house (grouped chains: any split of a digit's places in a house
into two nodes) or the two candidates of a bivalue cell. A weak link (not both true) joins any two nodes that
exclude each other: same digit in cells that see each other, or two digits of one cell.

An AIC ``N1 = N2 - N3 = ... = Nk`` proves that N1 or Nk is true, so every candidate weakly linked to both ends
goes. That one rule covers HoDoKu's discontinuous nice loops that eliminate: ends on the same digit (the digit
leaves cells seeing both), ends in one cell (the cell's other digits go) and ends on different digits in cells
that see each other (each end's digit leaves the other end's cell). A chain that comes back to its start as true
(``N1 = ... = N1``) places N1 (a group N1 clears its digit from cells that see all its cells). When the two ends of
a reported chain are also weakly linked, the chain is a continuous loop: every link then holds both ways and also
clears the candidates weakly linked to both its nodes.

Search: breadth-first from every node over the link graph built once per call, so each conclusion is reported
with the shortest chain proving it (ties: lowest start node, cells in row-major order). Chains have 4 (XY-Chains:
6, three cells, as two cells would only be a naked pair) to ``MAX_NODES`` (12) nodes. X-Chains and XY-Chains only
eliminate; placements come from nice loops. Grouped nice loops report only chains that use a group node: a
conclusion whose shortest chain needs none is left to ``nice_loop``, which comes first. Continuous loops are
reported when the shortest chain for a conclusion closes into one; any loop elimination is also the conclusion of
a chain of the same length, so none is missed by that.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from ..board import Board, Step
from ..grid import PEERS, UNITS, UNITS_OF, cell_name, digits_of
from .common import names

MAX_NODES = 12  # longest chain searched, in nodes; a chain of 2k nodes is found at breadth-first level k
_LEVELS = MAX_NODES // 2

_PEER_BITS: tuple[int, ...] = tuple(sum(1 << p for p in PEERS[c]) for c in range(81))
_UNIT_SETS: tuple[frozenset[int], ...] = tuple(frozenset(u) for u in UNITS)
_LINES_OF_BOX: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted({u for c in UNITS[box] for u in UNITS_OF[c][:2]})) for box in range(18, 27)
)

Node = tuple[int, tuple[int, ...]]  # (digit, cells): one cell for a candidate, two or three for a group


@dataclass
class _Graph:
    """The link graph of one search: node lists plus per-node bitsets over node indices and candidates."""

    digits: list[int]
    cells: list[tuple[int, ...]]
    strong: list[int]  # node bitset: strongly linked nodes
    weak: list[int]  # node bitset: weakly linked nodes
    elim: list[int]  # candidate bitset (bit (digit - 1) * 81 + cell): board candidates weakly linked to the node
    hop: list[int]  # node bitset: nodes reached by one weak link then one strong link


@dataclass(frozen=True)
class _Found:
    """A chain conclusion before its path is rebuilt: breadth-first level, graph, start and end node."""

    level: int
    graph: int
    start: int
    end: int
    placement: int  # candidate bitset placed (a chain back to its own start)
    elimination: int  # candidate bitset removed


def _bits(mask: int) -> Iterator[int]:
    """Indices of the set bits of a mask, ascending."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _candidate_bit(cell: int, digit: int) -> int:
    """The bit of a candidate in a candidate bitset."""
    return 1 << ((digit - 1) * 81 + cell)


def _candidate_of(index: int) -> tuple[int, int]:
    """The (cell, digit) of a candidate-bitset index."""
    return index % 81, index // 81 + 1


def _group_nodes(board: Board, digits: tuple[int, ...]) -> list[Node]:
    """Every box-line intersection holding two or three candidates of a digit, as a group node."""
    groups: list[Node] = []
    for digit in digits:
        for b, lines in enumerate(_LINES_OF_BOX):
            box = _UNIT_SETS[18 + b]
            for line in lines:
                cells = tuple(c for c in UNITS[line] if c in box and board.has(c, digit))
                if len(cells) >= 2:
                    groups.append((digit, cells))
    return groups


def _house_links(board: Board, digits: tuple[int, ...], groups: list[Node]) -> set[tuple[Node, Node]]:
    """Strong links inside houses: the digit's places in the house split into exactly two nodes."""
    group_sets = {(d, frozenset(cells)) for d, cells in groups}
    links: set[tuple[Node, Node]] = set()
    for unit in range(27):
        for digit in digits:
            places = board.places(unit, digit)
            if len(places) < 2:
                continue
            whole = frozenset(places)
            parts = [frozenset((c,)) for c in places]
            parts += [frozenset(cells) for d, cells in groups if d == digit and whole.issuperset(cells)]
            for part in parts:
                rest = whole - part
                if len(rest) == 1 or (digit, rest) in group_sets:
                    a, b = sorted((tuple(sorted(part)), tuple(sorted(rest))))
                    links.add(((digit, a), (digit, b)))
    return links


def _cell_links(board: Board) -> set[tuple[Node, Node]]:
    """Strong links inside bivalue cells."""
    links: set[tuple[Node, Node]] = set()
    for cell in range(81):
        pair = digits_of(board.cands[cell])
        if len(pair) == 2:
            links.add(((pair[0], (cell,)), (pair[1], (cell,))))
    return links


def _build(board: Board, links: set[tuple[Node, Node]], same_cell_weak: bool) -> _Graph:
    """The graph over the nodes that have a strong link (no other node can be in an AIC)."""
    nodes = sorted({n for link in links for n in link}, key=lambda n: (len(n[1]), n[1], n[0]))
    index = {n: i for i, n in enumerate(nodes)}
    strong = [0] * len(nodes)
    for a, b in links:
        strong[index[a]] |= 1 << index[b]
        strong[index[b]] |= 1 << index[a]
    positions = [0] * 10
    for cell in range(81):
        for d in digits_of(board.cands[cell]):
            positions[d] |= 1 << cell
    seen_all, cell_bits = [], []
    for _, cells in nodes:
        seen = _PEER_BITS[cells[0]]
        for c in cells[1:]:
            seen &= _PEER_BITS[c]
        seen_all.append(seen)
        cell_bits.append(sum(1 << c for c in cells))
    by_digit: dict[int, list[int]] = {}
    by_cell: dict[int, int] = {}
    for i, (digit, cells) in enumerate(nodes):
        by_digit.setdefault(digit, []).append(i)
        if len(cells) == 1:
            by_cell[cells[0]] = by_cell.get(cells[0], 0) | 1 << i
    weak, elim = [], []
    for i, (digit, cells) in enumerate(nodes):
        seen = seen_all[i]
        links_i = sum(1 << j for j in by_digit[digit] if cell_bits[j] & ~seen == 0)
        if same_cell_weak and len(cells) == 1:
            links_i |= by_cell[cells[0]] & ~(1 << i)
        weak.append(links_i)
        mask = (positions[digit] & seen) << ((digit - 1) * 81)
        if len(cells) == 1:
            for d in digits_of(board.cands[cells[0]]):
                if d != digit:
                    mask |= _candidate_bit(cells[0], d)
        elim.append(mask)
    hop = []
    for i in range(len(nodes)):
        reach = 0
        for j in _bits(weak[i]):
            reach |= strong[j]
        hop.append(reach)
    return _Graph([n[0] for n in nodes], [n[1] for n in nodes], strong, weak, elim, hop)


def _search(graph: _Graph, number: int, shortest: int, same_digit_ends: bool, placements: bool) -> list[_Found]:
    """Breadth-first from every start: each (start, end) pair once, at its shortest level, with its conclusion."""
    found: list[_Found] = []
    strong, hop, elim, digits = graph.strong, graph.hop, graph.elim, graph.digits
    for s in range(len(strong)):
        frontier = seen = strong[s]
        start_elim, start_digit = elim[s], digits[s]
        for level in range(1, _LEVELS + 1):
            if 2 * level >= shortest:
                for j in _bits(frontier >> s << s):  # the pair (j, s) with j < s was met from j
                    if j == s:
                        if placements:
                            place = _candidate_bit(graph.cells[s][0], start_digit) if len(graph.cells[s]) == 1 else 0
                            found.append(_Found(level, number, s, s, place, 0 if place else start_elim))
                    elif not same_digit_ends or digits[j] == start_digit:
                        common = start_elim & elim[j]
                        if common:
                            found.append(_Found(level, number, s, j, 0, common))
            if level == _LEVELS:
                break
            reach = 0
            for j in _bits(frontier):
                reach |= hop[j]
            frontier = reach & ~seen
            if not frontier:
                break
            seen |= frontier
    return found


def _path(graph: _Graph, found: _Found) -> list[int]:
    """The node indices of a shortest chain from the start (false) to the end (true), lowest indices first."""
    levels = [graph.strong[found.start]]
    seen = levels[0]
    while len(levels) < found.level:
        reach = 0
        for j in _bits(levels[-1]):
            reach |= graph.hop[j]
        levels.append(reach & ~seen)
        seen |= levels[-1]
    backwards, current = [found.end], found.end
    for level in range(found.level - 1, 0, -1):
        previous = next(p for p in _bits(levels[level - 1]) if graph.hop[p] >> current & 1)
        middle = next(_bits(graph.weak[previous] & graph.strong[current]))
        backwards += [middle, previous]
        current = previous
    backwards.append(found.start)
    return backwards[::-1]


def _loop_eliminations(graph: _Graph, path: list[int]) -> int:
    """Extra eliminations when the chain's ends are weakly linked: every link of the loop holds both ways."""
    if path[0] == path[-1] or len(set(path)) != len(path) or not graph.weak[path[0]] >> path[-1] & 1:
        return 0
    removed = 0
    for a, b in zip(path, path[1:] + path[:1]):
        removed |= graph.elim[a] & graph.elim[b]
    for node in path:
        for cell in graph.cells[node]:
            removed &= ~_candidate_bit(cell, graph.digits[node])
    return removed


def _node_name(graph: _Graph, node: int) -> str:
    """A node's cells in Eureka style: ``r1c2``, or ``r1c23`` / ``r12c3`` for a group."""
    cells = graph.cells[node]
    if len(cells) == 1:
        return cell_name(cells[0])
    rows = "".join(str(r) for r in sorted({c // 9 + 1 for c in cells}))
    cols = "".join(str(k) for k in sorted({c % 9 + 1 for c in cells}))
    return f"r{rows}c{cols}"


def _chain_text(graph: _Graph, path: list[int], digits_shown: bool) -> str:
    """The chain in Eureka-like notation, strong links ``=`` and weak links ``-``."""
    parts = []
    for k, node in enumerate(path):
        label = _node_name(graph, node)
        parts.append(f"({graph.digits[node]}){label}" if digits_shown else label)
        if k + 1 < len(path):
            parts.append("=" if k % 2 == 0 else "-")
    return " ".join(parts)


def _xy_text(graph: _Graph, path: list[int]) -> str:
    """An XY-chain as its cells: ``(2=7)r1c1 - (7=3)r1c5``."""
    return " - ".join(
        f"({graph.digits[a]}={graph.digits[b]}){cell_name(graph.cells[a][0])}" for a, b in zip(path[::2], path[1::2])
    )


def _removal_text(removed: list[tuple[int, int]]) -> str:
    """Eliminations grouped by digit: ``5 leaves r2c3 and r3c3; 7 leaves r1c1``."""
    by_digit: dict[int, list[int]] = {}
    for cell, digit in sorted(removed, key=lambda cd: (cd[1], cd[0])):
        by_digit.setdefault(digit, []).append(cell)
    return "; ".join(f"{digit} leaves {names(cells)}" for digit, cells in by_digit.items())


def _link_units(graph: _Graph, path: list[int]) -> tuple[int, ...]:
    """Houses that carry the chain's links between different cells."""
    units: list[int] = []
    for a, b in zip(path, path[1:]):
        cells = graph.cells[a] + graph.cells[b]
        if graph.digits[a] == graph.digits[b]:
            shared = set(UNITS_OF[cells[0]]).intersection(*(UNITS_OF[c] for c in cells[1:]))
            units.extend(sorted(shared)[:1])
    return tuple(dict.fromkeys(units))


_KINDS = {
    "nice_loop": ("AIC", "Discontinuous nice loop", "Continuous nice loop"),
    "grouped_nice_loop": ("Grouped AIC", "Grouped discontinuous nice loop", "Grouped continuous nice loop"),
}


def _text(technique: str, graph: _Graph, path: list[int], placed: list[tuple[int, int]],
          removed: list[tuple[int, int]], loop: bool) -> str:
    """The sentence of a chain step: the chain, then what it proves and removes or places."""
    first, last = (f"({graph.digits[n]}){_node_name(graph, n)}" for n in (path[0], path[-1]))
    removal = _removal_text(removed)
    if technique == "x_chain":
        digit = graph.digits[path[0]]
        if loop:
            chain = f"{_chain_text(graph, path, False)} - {_node_name(graph, path[0])}"
            return f"X-Chain on {digit} (a continuous loop): {chain}; every link holds both ways, so {removal}."
        return f"X-Chain on {digit}: {_chain_text(graph, path, False)}, so one end is {digit} and {removal}."
    if technique == "xy_chain":
        if loop:
            return f"XY-Chain (a continuous loop): {_xy_text(graph, path)} - back to the start; every link holds " \
                f"both ways, so {removal}."
        return f"XY-Chain: {_xy_text(graph, path)}, so one end is {graph.digits[path[0]]} and {removal}."
    aic, discontinuous, continuous = _KINDS[technique]
    chain = _chain_text(graph, path, True)
    if path[0] == path[-1]:
        conclusion = f"{cell_name(placed[0][0])} is {placed[0][1]}" if placed else removal
        return f"{discontinuous}: {chain}; if {first} were false it would be true, so {conclusion}."
    if loop:
        return f"{continuous}: {chain} - {first}; every link holds both ways, so {removal}."
    return f"{aic}: {chain}, so {first} or {last} is true and {removal}."


def _step(technique: str, graph: _Graph, path: list[int], placement: int, removed_bits: int, loop: bool) -> Step:
    """The Step of one chain with its conclusion."""
    removed = [_candidate_of(i) for i in _bits(removed_bits)]
    placed = [_candidate_of(i) for i in _bits(placement)]
    nodes = path[:-1] if path[0] == path[-1] else path
    return Step(
        technique, placements=tuple(placed), eliminations=tuple(removed),
        cause=tuple(dict.fromkeys((c, graph.digits[n]) for n in nodes for c in graph.cells[n])),
        units=_link_units(graph, path), cells=tuple(dict.fromkeys(c for n in nodes for c in graph.cells[n])),
        text=_text(technique, graph, path, placed, removed, loop), length=len(nodes),
    )


def _chains(technique: str, graphs: list[_Graph], shortest: int, same_digit_ends: bool, placements: bool,
            needs_group: bool = False) -> Iterator[Step]:
    """Steps of the shortest chains, each kept only when it proves something no shorter chain did."""
    found = [
        f for number, graph in enumerate(graphs) for f in _search(graph, number, shortest, same_digit_ends, placements)
    ]
    found.sort(key=lambda f: (2 * f.level - (f.start == f.end), f.graph, f.start, f.end))  # by node count
    placed = removed = 0
    for f in found:
        if not (f.placement & ~placed or f.elimination & ~removed):
            continue
        graph = graphs[f.graph]
        path = _path(graph, f)
        extra = _loop_eliminations(graph, path)
        placed, removed = placed | f.placement, removed | f.elimination | extra
        if needs_group and all(len(graph.cells[n]) == 1 for n in path):
            continue  # a chain without group nodes belongs to nice_loop
        yield _step(technique, graph, path, f.placement, f.elimination | extra, bool(extra))


def x_chain(board: Board) -> Iterator[Step]:
    """Single-digit AIC over conjugate pairs: the digit leaves cells that see both ends."""
    graphs = []
    for digit in range(1, 10):
        links = _house_links(board, (digit,), [])
        if links:
            graphs.append(_build(board, links, same_cell_weak=False))
    return _chains("x_chain", graphs, 4, same_digit_ends=True, placements=False)


def xy_chain(board: Board) -> Iterator[Step]:
    """Chain of bivalue cells from digit Z back to Z: Z leaves cells that see both ends."""
    links = _cell_links(board)
    graphs = [_build(board, links, same_cell_weak=False)] if links else []
    return _chains("xy_chain", graphs, 6, same_digit_ends=True, placements=False)


def nice_loop(board: Board) -> Iterator[Step]:
    """AICs and nice loops over candidates: conjugate pairs and bivalue cells, any digits."""
    links = _house_links(board, tuple(range(1, 10)), []) | _cell_links(board)
    graphs = [_build(board, links, same_cell_weak=True)] if links else []
    return _chains("nice_loop", graphs, 4, same_digit_ends=False, placements=True)


def grouped_nice_loop(board: Board) -> Iterator[Step]:
    """AICs and nice loops with group nodes; only chains that use a group node are reported."""
    digits = tuple(range(1, 10))
    links = _house_links(board, digits, _group_nodes(board, digits)) | _cell_links(board)
    graphs = [_build(board, links, same_cell_weak=True)] if links else []
    return _chains("grouped_nice_loop", graphs, 4, same_digit_ends=False, placements=True, needs_group=True)
