"""The words a hint is shown in: the engine's compact names (``r2c2``, ``1/4/7``) or plain words a player reads.

The engine's step texts name cells ``rXcY`` and digit sets ``1/4/7`` (the CLI's ``hint`` record keeps them so).
A player reads them in plain words by default: one cell as "row 2, column 2", cells of one row as "row 1, columns
1 and 5", of one column as "column 4, rows 2 and 7", other lists as "row 1 column 1, row 3 column 5 and row 9
column 2"; digit sets as "1, 4 and 7"; a set of cells and digits (an almost locked set, ``{r1c1, r1c5} (1/4)``) as
"the cells row 1, columns 1 and 5 (holding 1 and 4)". Chains written in Eureka notation (``(3)r8c1 = (8)r8c1 -
...``) are read as sentences ("Suppose row 8, column 1 is not 3. Then row 8, column 1 is 8, so ..."), followed by
what the chain proves and changes; the notation is shown only in the compact form, after those sentences.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from sudoku_engine.grid import cell_name

PLAIN = "plain"
COMPACT = "compact"
NOTATIONS = (PLAIN, COMPACT)
NOTATION_COOKIE = "notation"

Pair = tuple[int, int]  # a cell and a digit

_CELL = r"\br[1-9]c[1-9]\b"
_CELL_LIST = re.compile(rf"{_CELL}(?:(?:, | and ){_CELL})*")
_CELL_PARTS = re.compile(r"r([1-9])c([1-9])")
_SET = re.compile(r"\{((?:r[1-9]c[1-9](?:, )?)+)\} \(([1-9](?:/[1-9])*)\)")
_DIGITS = re.compile(r"(?<![\w/])[1-9](?:/[1-9])+(?![\w/])")
_FOCUS = re.compile(r"^Focus on (.+) and (digits? [1-9/]+)\.$")
_CHAIN = re.compile(r"\([1-9](?:=[1-9])?\)r[1-9]+c[1-9]+|\br[1-9]+c[1-9]+ [=-] ")


def and_list(items: Sequence[str]) -> str:
    """Words joined for a sentence: ``a``, ``a and b``, ``a, b and c``."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def plain_cells(cells: Sequence[int]) -> str:
    """Cells (0..80) in plain words, grouped by their row or column when they share one."""
    rows = [c // 9 + 1 for c in cells]
    cols = [c % 9 + 1 for c in cells]
    if len(cells) == 1:
        return f"row {rows[0]}, column {cols[0]}"
    if len(set(rows)) == 1:
        return f"row {rows[0]}, columns {and_list([str(c) for c in cols])}"
    if len(set(cols)) == 1:
        return f"column {cols[0]}, rows {and_list([str(r) for r in rows])}"
    return and_list([f"row {r} column {c}" for r, c in zip(rows, cols)])


def _cells_in(text: str) -> list[int]:
    """The cells a run of ``rXcY`` names holds, in order."""
    return [(int(r) - 1) * 9 + int(c) - 1 for r, c in _CELL_PARTS.findall(text)]


def _digits_in_words(match: re.Match[str]) -> str:
    """``1/4/7`` as ``1, 4 and 7``."""
    return and_list(match.group(0).split("/"))


def _set_in_words(match: re.Match[str]) -> str:
    """``{r1c1, r1c5} (1/4)`` as ``the cells row 1, columns 1 and 5 (holding 1 and 4)``."""
    return f"the cells {plain_cells(_cells_in(match.group(1)))} (holding {and_list(match.group(2).split('/'))})"


def plain_text(text: str) -> str:
    """An engine sentence with its cell names and digit sets in plain words (a capital letter kept at the start);
    rung 3's "Focus on <cells> and digit 5." reads "Focus on digit 5 in <cells>."."""
    focus = _FOCUS.match(text)
    if focus:
        text = f"Focus on {focus.group(2)} in {focus.group(1)}."
    words = _SET.sub(_set_in_words, text)
    words = _CELL_LIST.sub(lambda m: plain_cells(_cells_in(m.group(0))), words)
    words = _DIGITS.sub(_digits_in_words, words)
    if _CELL_LIST.match(text):
        words = words[:1].upper() + words[1:]
    return words


def has_chain_notation(text: str) -> bool:
    """True when a sentence writes a chain in Eureka notation (nodes joined by ``=`` and ``-``)."""
    return bool(_CHAIN.search(text))


def _by_digit(pairs: Iterable[Pair]) -> dict[int, list[int]]:
    """Cells grouped by digit, digits ascending, cells in order."""
    grouped: dict[int, list[int]] = {}
    for cell, digit in sorted(pairs, key=lambda pair: (pair[1], pair[0])):
        grouped.setdefault(digit, []).append(cell)
    return grouped


def outcome_words(placements: Iterable[Pair], eliminations: Iterable[Pair], plain: bool = True) -> str:
    """What a step does, as a clause: ``5 goes in row 2, column 3; 7 leaves row 1, columns 1 and 4``."""
    name = plain_cells if plain else (lambda cells: and_list([cell_name(c) for c in cells]))
    placed = [f"{digit} goes in {name(cells)}" for digit, cells in _by_digit(placements).items()]
    removed = [f"{digit} leaves {name(cells)}" for digit, cells in _by_digit(eliminations).items()]
    return "; ".join(placed + removed)


_NODE = re.compile(r"(?:\(([1-9])(?:=([1-9]))?\))?r([1-9]+)c([1-9]+)")
_LINK = re.compile(r" ([=-]) ")
_X_DIGIT = re.compile(r"^X-Chain on ([1-9])")
Node = tuple[int, tuple[int, ...]]  # a digit and its cells (several for a group)


def _node_cells(rows: str, cols: str) -> tuple[int, ...]:
    """The cells of a Eureka node name: ``r8c1``, or a group ``r8c12`` / ``r78c1``."""
    return tuple((int(r) - 1) * 9 + int(c) - 1 for r in rows for c in cols)


def chain_nodes(text: str) -> tuple[list[Node], list[str]] | None:
    """The nodes and links (``=`` strong, ``-`` weak) of the chain a step sentence writes in Eureka notation; an
    XY-Chain's cells ``(2=7)r1c1`` are two nodes joined by a strong link. None when the sentence has no chain."""
    head, _, rest = text.partition(": ")
    chain = re.split(r", so |; ", rest, maxsplit=1)[0].removesuffix(" - back to the start")
    x_digit = _X_DIGIT.match(head)
    parts = _LINK.split(chain)
    nodes: list[Node] = []
    links: list[str] = []
    for k, part in enumerate(parts):
        if k % 2:
            links.append(part)
            continue
        match = _NODE.fullmatch(part.strip())
        if match is None:
            return None
        first, second, rows, cols = match.groups()
        digit = int(first) if first else int(x_digit.group(1)) if x_digit else 0
        if not digit:
            return None
        cells = _node_cells(rows, cols)
        nodes.append((digit, cells))
        if second:
            links.append("=")
            nodes.append((int(second), cells))
    return (nodes, links) if len(nodes) >= 2 and len(links) == len(nodes) - 1 else None


def _node_words(node: Node, true: bool) -> str:
    """A node as a statement: ``row 8, column 1 is 3`` / ``3 is not in row 8, columns 1 and 2``."""
    digit, cells = node
    if len(cells) == 1:
        return f"{plain_cells(cells)} is {'' if true else 'not '}{digit}"
    return f"{digit} is {'' if true else 'not '}in {plain_cells(cells)}"


def chain_walk(nodes: Sequence[Node], links: Sequence[str]) -> str:
    """The chain read from its first node assumed false: each strong link makes the next node true, each weak
    link makes it false."""
    sentence = [f"Suppose {_node_words(nodes[0], False)}. Then {_node_words(nodes[1], links[0] == '=')}"]
    for node, link in zip(nodes[2:], links[1:]):
        sentence.append(f"so {_node_words(node, link == '=')}")
    return ", ".join(sentence) + "."


def chain_summary(text: str, placements: Iterable[Pair], eliminations: Iterable[Pair]) -> str:
    """A chain step in plain sentences: the chain walked from its first node, what that proves, what it changes."""
    outcome = outcome_words(placements, eliminations)
    parsed = chain_nodes(text)
    if parsed is None:
        return (
            "The highlighted candidates form a chain of links: a strong link means that if one candidate is false "
            "the other is true, a weak link that if one is true the other is false. Following the chain proves: "
            f"{outcome}."
        )
    nodes, links = parsed
    walk = chain_walk(nodes, links)
    if "every link holds both ways" in text:
        return f"{walk} The chain closes on itself, so every link holds both ways: {outcome}."
    if nodes[0] == nodes[-1]:
        return f"{walk} So the assumption fails: {_node_words(nodes[0], True)}, and {outcome}."
    ends = f"{_node_words(nodes[0], True)} or {_node_words(nodes[-1], True)}"
    return f"{walk} So either {ends}; either way {outcome}."


def rungs_in(
    rungs: Sequence[str], notation: str, placements: Sequence[Pair] = (), eliminations: Sequence[Pair] = ()
) -> list[str]:
    """The rungs as a player reads them in the chosen notation; a chain's last rung gets a plain summary first
    (plain: the summary only; compact: the summary, then the chain as the engine writes it)."""
    return [step_in(text, notation, placements, eliminations) for text in rungs]


def step_in(text: str, notation: str, placements: Sequence[Pair] = (), eliminations: Sequence[Pair] = ()) -> str:
    """One engine sentence in the chosen notation; a chain's gets its plain summary first (plain: only that)."""
    if has_chain_notation(text):
        summary = chain_summary(text, placements, eliminations)
        return summary if notation == PLAIN else f"{summary} In notation: {text}"
    return plain_text(text) if notation == PLAIN else text


def notation_of(value: str | None) -> str:
    """The notation a cookie's value chooses; plain words unless it says compact."""
    return COMPACT if value == COMPACT else PLAIN
