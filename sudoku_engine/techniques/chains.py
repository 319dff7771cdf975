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

Search: breadth-first from every node at once, one level at a time, over the link graph (node and candidate
bitsets, built once per call; the strong links inside houses are kept per digit while its places stay the same),
so each conclusion is reported with the shortest chain proving it (ties: lowest start node, cells in row-major
order) and the first step costs only the levels up to it. Chains have 4 (XY-Chains: 6, three cells, as two cells
would only be a naked pair) to ``MAX_NODES`` (12) nodes. X-Chains and XY-Chains only eliminate; placements come
from nice loops. Grouped nice loops report only chains that use a group node: a conclusion whose shortest chain
needs none is left to ``nice_loop``, which comes first. Continuous loops are reported when the shortest chain for
a conclusion closes into one; any loop elimination is also the conclusion of a chain of the same length, so none
is missed by that.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from ..board import Board, Step
from ..grid import DIGITS, PEERS, UNITS, UNITS_OF, cell_name, digits_of
from .common import names

MAX_NODES = 12  # longest chain searched, in nodes; a chain of 2k nodes is found at breadth-first level k
_LEVELS = MAX_NODES // 2

_PEER_BITS: tuple[int, ...] = tuple(sum(1 << p for p in PEERS[c]) for c in range(81))
_UNIT_BITS: tuple[int, ...] = tuple(sum(1 << c for c in cells) for cells in UNITS)
_CELL_CANDIDATES: tuple[int, ...] = tuple(sum(1 << (d * 81 + c) for d in range(9)) for c in range(81))
_INTERSECTIONS: tuple[int, ...] = tuple(  # box-line intersections as cell masks, by box and then line
    _UNIT_BITS[box] & _UNIT_BITS[line]
    for box in range(18, 27)
    for line in range(18)
    if _UNIT_BITS[box] & _UNIT_BITS[line]
)
_INTERSECTIONS_OF: tuple[tuple[int, ...], ...] = tuple(  # unit -> the intersections inside it
    tuple(i for i, shared in enumerate(_INTERSECTIONS) if shared & ~_UNIT_BITS[unit] == 0) for unit in range(27)
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
    eliminating: int  # node bitset: nodes with some board candidate weakly linked to them
    by_digit: list[int]  # per digit 1..9, node bitset: the nodes of that digit


_Found = tuple[int, int, int, int, int]  # graph, start node, end node, candidate bitsets placed and removed


def _bits(mask: int) -> Iterator[int]:
    """Indices of the set bits of a mask, ascending."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _cells_of(mask: int) -> tuple[int, ...]:
    """The cells of a cell mask, ascending."""
    return tuple(_bits(mask))


def _candidate_bit(cell: int, digit: int) -> int:
    """The bit of a candidate in a candidate bitset."""
    return 1 << ((digit - 1) * 81 + cell)


def _candidate_of(index: int) -> tuple[int, int]:
    """The (cell, digit) of a candidate-bitset index."""
    return index % 81, index // 81 + 1


def _positions(board: Board) -> list[int]:
    """Per digit (index 1..9), the cells where it is a candidate, as a cell mask."""
    positions = [0] * 10
    for cell, mask in enumerate(board.cands):
        while mask:
            low = mask & -mask
            positions[low.bit_length()] |= 1 << cell
            mask ^= low
    return positions


def _house_links(board: Board, positions: list[int], digits: tuple[int, ...], grouped: bool) -> set[tuple[Node, Node]]:
    """Strong links inside houses: the digit's places in the house split into exactly two nodes.

    Two places make a pair of candidates; with groups, a group in the house (the digit's two or three places in
    one of its box-line intersections) pairs with the rest of the places when that rest is one cell or a group.
    """
    links: set[tuple[Node, Node]] = set()
    for digit in digits:
        links.update(board.memo.call(_digit_links, digit, positions[digit], grouped, limit=4096))
    return links


def _digit_links(digit: int, where: int, grouped: bool) -> tuple[tuple[Node, Node], ...]:
    """The strong links of one digit inside houses, from its places (kept in the board's memo: most digits keep
    their places from one position to the next; a tuple of ints, which the garbage collector stops tracking)."""
    links: set[tuple[Node, Node]] = set()
    cells: dict[int, tuple[int, ...]] = {}  # cell mask -> its cells
    groups: dict[int, int] = {}  # intersection -> the digit's places there, when two or three
    if grouped:
        for i, shared in enumerate(_INTERSECTIONS):
            places = where & shared
            if places & (places - 1):
                groups[i] = places
    group_set = set(groups.values())
    for unit, house in enumerate(_UNIT_BITS):
        whole = where & house
        if not whole & (whole - 1):
            continue
        low = whole & -whole
        if whole == low | 1 << (whole.bit_length() - 1):  # two places
            links.add(((digit, (low.bit_length() - 1,)), (digit, (whole.bit_length() - 1,))))
            continue
        for i in _INTERSECTIONS_OF[unit] if groups else ():
            part = groups.get(i, 0)
            rest = whole & ~part
            if part and rest and (not rest & (rest - 1) or rest in group_set):
                for mask in (part, rest):
                    if mask not in cells:
                        cells[mask] = _cells_of(mask)
                a, b = sorted((cells[part], cells[rest]))
                links.add(((digit, a), (digit, b)))
    return tuple(links)


def _cell_links(board: Board) -> set[tuple[Node, Node]]:
    """Strong links inside bivalue cells."""
    links: set[tuple[Node, Node]] = set()
    for cell in range(81):
        pair = digits_of(board.cands[cell])
        if len(pair) == 2:
            links.add(((pair[0], (cell,)), (pair[1], (cell,))))
    return links


def _build(positions: list[int], links: set[tuple[Node, Node]], same_cell_weak: bool) -> _Graph:
    """The graph over the nodes that have a strong link (no other node can be in an AIC)."""
    # by number of cells, then cells, then digit
    nodes = [(d, cells) for _, cells, d in sorted({(len(n[1]), n[1], n[0]) for link in links for n in link})]
    index = {n: i for i, n in enumerate(nodes)}
    strong = [0] * len(nodes)
    for a, b in links:
        strong[index[a]] |= 1 << index[b]
        strong[index[b]] |= 1 << index[a]
    candidates = sum(positions[d] << (d - 1) * 81 for d in range(1, 10))
    single = [[0] * 81 for _ in range(10)]  # per digit and cell: the index of that candidate's node
    node_cells = [0] * 10  # per digit: the cells of its one-cell nodes
    groups: list[list[tuple[int, int]]] = [[] for _ in range(10)]  # per digit: (cell mask, index) of groups
    by_cell = [0] * 81  # per cell: the bits of its candidates' nodes
    for i, (digit, cells) in enumerate(nodes):
        if len(cells) == 1:
            single[digit][cells[0]] = i
            node_cells[digit] |= 1 << cells[0]
            by_cell[cells[0]] |= 1 << i
        else:
            groups[digit].append((sum(1 << c for c in cells), i))
    weak, elim, hop = [], [], []
    eliminating = 0
    by_digit = [0] * 10
    for i, (digit, cells) in enumerate(nodes):
        seen = _PEER_BITS[cells[0]]
        for c in cells[1:]:
            seen &= _PEER_BITS[c]
        links_i = reach = 0
        nodes_seen = single[digit]
        places = seen & node_cells[digit]
        while places:
            low = places & -places
            j = nodes_seen[low.bit_length() - 1]
            links_i |= 1 << j
            reach |= strong[j]
            places ^= low
        for mask, j in groups[digit]:
            if mask & ~seen == 0:
                links_i |= 1 << j
                reach |= strong[j]
        mask = (positions[digit] & seen) << (digit - 1) * 81
        if len(cells) == 1:
            if same_cell_weak:
                others = by_cell[cells[0]] & ~(1 << i)
                links_i |= others
                while others:
                    low = others & -others
                    reach |= strong[low.bit_length() - 1]
                    others ^= low
            mask |= _CELL_CANDIDATES[cells[0]] & candidates & ~_candidate_bit(cells[0], digit)
        weak.append(links_i)
        elim.append(mask)
        hop.append(reach)
        if mask:
            eliminating |= 1 << i
        by_digit[digit] |= 1 << i
    return _Graph([n[0] for n in nodes], [n[1] for n in nodes], strong, weak, elim, hop, eliminating, by_digit)


def _path(graph: _Graph, level: int, start: int, end: int) -> list[int]:
    """The node indices of a shortest chain from the start (false) to the end (true), lowest indices first."""
    levels = [graph.strong[start]]
    seen = levels[0]
    while len(levels) < level:
        reach = 0
        for j in _bits(levels[-1]):
            reach |= graph.hop[j]
        levels.append(reach & ~seen)
        seen |= levels[-1]
    backwards, current = [end], end
    for step in range(level - 1, 0, -1):
        previous = next(p for p in _bits(levels[step - 1]) if graph.hop[p] >> current & 1)
        middle = next(_bits(graph.weak[previous] & graph.strong[current]))
        backwards += [middle, previous]
        current = previous
    backwards.append(start)
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


def _text(
    technique: str,
    graph: _Graph,
    path: list[int],
    placed: list[tuple[int, int]],
    removed: list[tuple[int, int]],
    loop: bool,
) -> str:
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
            return (
                f"XY-Chain (a continuous loop): {_xy_text(graph, path)} - back to the start; every link holds "
                f"both ways, so {removal}."
            )
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
        technique,
        placements=tuple(placed),
        eliminations=tuple(removed),
        cause=tuple(dict.fromkeys((c, graph.digits[n]) for n in nodes for c in graph.cells[n])),
        units=_link_units(graph, path),
        cells=tuple(dict.fromkeys(c for n in nodes for c in graph.cells[n])),
        text=_text(technique, graph, path, placed, removed, loop),
        length=len(nodes),
    )


def _found(graphs: list[_Graph], searches: list[list[int]], same_digit_ends: bool, placements: bool) -> list[_Found]:
    """The conclusions met at one breadth-first level: chains back to their start first, then the others."""
    loops: list[_Found] = []
    chains: list[_Found] = []
    for number, start, frontier, _ in searches:
        ends = frontier >> start  # the pair (j, start) with j < start was met from j
        if not ends:
            continue
        graph = graphs[number]
        elim = graph.elim
        start_elim = elim[start]
        if ends & 1:
            if placements:
                cells = graph.cells[start]
                place = _candidate_bit(cells[0], graph.digits[start]) if len(cells) == 1 else 0
                loops.append((number, start, start, place, 0 if place else start_elim))
            ends ^= 1
        if not start_elim:
            continue
        # only ends with an elimination of their own can share one with the start
        ends &= graph.eliminating >> start
        if same_digit_ends:
            ends &= graph.by_digit[graph.digits[start]] >> start
        while ends:
            low = ends & -ends
            ends ^= low
            j = low.bit_length() - 1 + start
            common = start_elim & elim[j]
            if common:
                chains.append((number, start, j, 0, common))
    return loops + chains


def _chains(
    technique: str,
    graphs: list[_Graph],
    shortest: int,
    same_digit_ends: bool,
    placements: bool,
    needs_group: bool = False,
) -> Iterator[Step]:
    """Steps of the shortest chains, each kept only when it proves something no shorter chain did.

    Every start is searched breadth-first at once, one level at a time, so conclusions come in order of node
    count (a chain back to its start has one node less), then graph, start and end, and the first step costs only
    the levels up to it.
    """
    searches = [
        [number, start, strong, strong]
        for number, graph in enumerate(graphs)
        for start, strong in enumerate(graph.strong)
    ]
    placed = removed = 0
    for level in range(1, _LEVELS + 1):
        if 2 * level >= shortest:
            for number, start, end, placement, elimination in _found(graphs, searches, same_digit_ends, placements):
                if not (placement & ~placed or elimination & ~removed):
                    continue
                graph = graphs[number]
                path = _path(graph, level, start, end)
                extra = _loop_eliminations(graph, path)
                placed, removed = placed | placement, removed | elimination | extra
                if needs_group and all(len(graph.cells[n]) == 1 for n in path):
                    continue  # a chain without group nodes belongs to nice_loop
                yield _step(technique, graph, path, placement, elimination | extra, bool(extra))
        if level == _LEVELS:
            break
        advanced = []
        for search in searches:  # one weak link and one strong link further, to nodes not met before
            number, _, frontier, seen = search
            hop = graphs[number].hop
            reach = 0
            while frontier:
                low = frontier & -frontier
                reach |= hop[low.bit_length() - 1]
                frontier ^= low
            frontier = reach & ~seen
            if frontier:
                search[2], search[3] = frontier, seen | frontier
                advanced.append(search)
        searches = advanced


def x_chain(board: Board, digits: Iterable[int] = DIGITS) -> Iterator[Step]:
    """Single-digit AIC over conjugate pairs: the digit leaves cells that see both ends."""
    positions = _positions(board)
    graphs = []
    for digit in digits:
        links = _house_links(board, positions, (digit,), grouped=False)
        if links:
            graphs.append(_build(positions, links, same_cell_weak=False))
    return _chains("x_chain", graphs, 4, same_digit_ends=True, placements=False)


def xy_chain(board: Board) -> Iterator[Step]:
    """Chain of bivalue cells from digit Z back to Z: Z leaves cells that see both ends."""
    links = _cell_links(board)
    graphs = [_build(_positions(board), links, same_cell_weak=False)] if links else []
    return _chains("xy_chain", graphs, 6, same_digit_ends=True, placements=False)


def nice_loop(board: Board) -> Iterator[Step]:
    """AICs and nice loops over candidates: conjugate pairs and bivalue cells, any digits."""
    positions = _positions(board)
    links = _house_links(board, positions, tuple(range(1, 10)), grouped=False) | _cell_links(board)
    graphs = [_build(positions, links, same_cell_weak=True)] if links else []
    return _chains("nice_loop", graphs, 4, same_digit_ends=False, placements=True)


def grouped_nice_loop(board: Board) -> Iterator[Step]:
    """AICs and nice loops with group nodes; only chains that use a group node are reported."""
    positions = _positions(board)
    links = _house_links(board, positions, tuple(range(1, 10)), grouped=True) | _cell_links(board)
    graphs = [_build(positions, links, same_cell_weak=True)] if links else []
    return _chains("grouped_nice_loop", graphs, 4, same_digit_ends=False, placements=True, needs_group=True)
