"""Compiled finders for the techniques from pointing to BUG+1, the four single-digit patterns (Skyscraper,
2-String Kite, Turbot Fish, Empty Rectangle) and the uniqueness techniques among them, on the numba backend
(``_finders_numba``).

They look for the same first application as the Python finders, so a trace can take its steps of these
techniques on the kernel and report only which techniques it took (no Step, text or cause): ``run`` places the
singles at once (the generator's staged rating), ``trace`` takes them one at a time in the Python finders' order
(the rating's trace, which counts them). Hints and the logic solver keep the Python finders, which say what a
player reads. None is rated with a length bonus, so a step taken without its Step rates as its technique. A trace
runs them in segments between techniques on Python finders (``segments``): the leading run free, the later ones
one step at a time in their place in the order. The Avoidable Rectangles read the board's givens (``Board.givens``):
the kernels get them with the position, and the cells a trace fills are not givens.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache

from .. import _search_py, solver
from ..board import Board
from . import BY_ID, Technique
from .tables import COMPILED_FINDERS

# The compiled techniques, in the order of the kernel's codes (``tables.COMPILED_FINDERS``).
COMPILED: tuple[str, ...] = tuple(technique_id for technique_id, _family, _size in COMPILED_FINDERS)
CODES: dict[str, int] = {technique_id: code for code, technique_id in enumerate(COMPILED)}

STUCK, SOLVED, BROKEN = 0, 1, -1
# The singles as the kernel's trace logs them (kinds 0-3).
SINGLE_KINDS: tuple[Technique, ...] = tuple(
    BY_ID[t] for t in ("full_house", "hidden_single_box", "hidden_single_line", "naked_single")
)


def available() -> bool:
    """Whether the compiled finders run here (the numba backend is in use)."""
    return solver.backend() == "numba"


def warm_up() -> None:
    """Load the compiled finders, or compile them (about 25 s, once per machine: numba caches them on disk)."""
    if available():
        techniques = [BY_ID[t] for t in COMPILED]
        run(Board([0] * 81, [0x1FF] * 81), techniques)
        trace(Board([0] * 81, [0x1FF] * 81), techniques)


# A run of techniques in order, all with compiled finders (True) or all without (False).
Segment = tuple[bool, list[Technique]]


def segments(techniques: Sequence[Technique]) -> list[Segment]:
    """The techniques cut into runs of those with and without compiled finders (one run of Python finders where
    the compiled ones do not run)."""
    runs: list[Segment] = []
    fast = available()
    for tech in techniques:
        kind = fast and tech.id in CODES
        if runs and runs[-1][0] == kind:
            runs[-1][1].append(tech)
        else:
            runs.append((kind, [tech]))
    return runs


def run(board: Board, techniques: Sequence[Technique], limit: int = 729) -> tuple[int, list[Technique]]:
    """Follow the trace over the singles and ``techniques`` (all compiled) on ``board``, changed in place.

    Returns how it ended (SOLVED; STUCK: no single is left and none of the techniques applies, or ``limit`` steps
    other than singles were taken; BROKEN: the singles meet a contradiction, the board left as it was before them)
    and the techniques of the steps it took other than singles, in order.
    """
    codes = _codes(tuple(techniques))
    status, taken, cand = _run_kernel(_search_py.encode(board.values, board.cands), board.givens, codes, limit)
    board.values, board.cands = _search_py.decode(cand)
    return status, [techniques[k] for k in taken]


def first_eliminations(board: Board, technique: Technique) -> list[tuple[int, int]]:
    """The candidates the technique's first application removes on a board without singles (empty when none):
    what the kernel's trace applies, for comparison with the Python finder."""
    before = _search_py.encode(board.values, board.cands)
    _, _, after = _run_kernel(before, board.givens, _codes((technique,)), 1)
    return [
        (cell, d)
        for cell, (old, new) in enumerate(zip(before, after))
        for d in range(1, 10)
        if (old & ~new) >> (d - 1) & 1
    ]


def trace(
    board: Board, techniques: Sequence[Technique], limit: int = 1024
) -> tuple[int, list[Technique], list[tuple[int, int]]]:
    """The logic solver's trace, step by step, on ``board`` (changed in place) while its next step is a single or
    one of ``techniques`` (all compiled), for at most ``limit`` steps: SOLVED or STUCK (no single left and none of
    them applies, or the limit reached), the techniques of the steps taken, singles included, in order, and before
    each step the empty cells and how many of them a single could fill (``logic.options``)."""
    import numpy as np

    from . import _finders_numba  # needs numba: imported on first use

    values = np.asarray(board.values, dtype=np.int8)
    cm = np.asarray(board.cands, dtype=np.int32)
    log = np.empty(1024, dtype=np.int32)  # at most 81 placements and 729 removals
    opened = np.empty((1024, 2), dtype=np.int32)
    status, steps = _finders_numba.trace(
        values, cm, _givens(board.givens), _codes(tuple(techniques)), log, opened, limit
    )
    board.values, board.cands = values.tolist(), cm.tolist()
    taken = [SINGLE_KINDS[k] if k < 4 else techniques[k - 4] for k in log[:steps].tolist()]
    return int(status), taken, [(int(e), int(s)) for e, s in opened[:steps].tolist()]


@cache
def _codes(techniques: tuple[Technique, ...]) -> object:
    """The kernel's codes of some techniques, as the array it reads."""
    import numpy as np

    return np.asarray([CODES[t.id] for t in techniques], dtype=np.int32)


@lru_cache(maxsize=64)
def _givens(mask: int | None) -> object:
    """The kernel's givens of a board's mask (int8[81], 1 for a given). A board that does not know its givens gets
    1 everywhere: no solved cell is then known not to be a given, so no Avoidable Rectangle, as on the Python
    side."""
    import numpy as np

    if mask is None:
        return np.ones(81, dtype=np.int8)
    return np.asarray([mask >> cell & 1 for cell in range(81)], dtype=np.int8)


def _run_kernel(encoded: list[int], givens: int | None, codes: object, limit: int) -> tuple[int, list[int], list[int]]:
    """The kernel's trace on an encoded position whose givens are the mask ``givens`` (None: not known): status,
    indices of the techniques taken, final position."""
    import numpy as np

    from . import _finders_numba  # needs numba: imported on first use

    cand = np.asarray(encoded, dtype=np.int32)
    log = np.empty(729, dtype=np.int32)
    status, steps = _finders_numba.run(cand, _givens(givens), codes, log, limit)
    return int(status), log[:steps].tolist(), cand.tolist()
