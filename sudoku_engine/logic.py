"""Logic solver: apply the easiest applicable technique, again and again, until solved -> a trace.

Deterministic by default: the first application of the first applicable technique in catalogue order.
With ``rng`` a random application among those of the easiest applicable technique is taken instead
(seed 002's hsolve needs that). The bifurcation step at the end of the catalogue guarantees that every
puzzle with a unique solution is solved; ``allow`` restricts the techniques to measure what logic alone
can do.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

from . import deadline
from .board import Board, Step
from .grid import Grid
from .solver import close_singles
from .techniques import BY_ID, CATALOGUE, Technique, compiled, step_se
from .techniques.singles import single_cells


@dataclass
class Trace:
    """The steps a logic solve took, and where it ended."""

    puzzle: Grid
    steps: list[Step] = field(default_factory=list)
    final: Board | None = None

    @property
    def solved(self) -> bool:
        """True when the trace ends with every cell filled."""
        return self.final is not None and self.final.is_solved

    def counts(self) -> dict[str, int]:
        """How many times each technique was applied, in catalogue order."""
        return counts(step.technique for step in self.steps)


def counts(technique_ids: Iterable[str]) -> dict[str, int]:
    """How many times each technique id occurs, in catalogue order."""
    order = {t.id: i for i, t in enumerate(CATALOGUE)}
    tally: dict[str, int] = {}
    for technique_id in technique_ids:
        tally[technique_id] = tally.get(technique_id, 0) + 1
    return dict(sorted(tally.items(), key=lambda item: order.get(item[0], len(order))))


def _techniques(allow: Collection[str] | None) -> list[Technique]:
    """The catalogue, or the part of it whose ids are allowed."""
    if allow is None:
        return list(CATALOGUE)
    unknown = set(allow) - {t.id for t in CATALOGUE}
    if unknown:
        raise ValueError(f"unknown technique ids: {', '.join(sorted(unknown))}")
    return [t for t in CATALOGUE if t.id in allow]


def _first_progress(tech: Technique, board: Board) -> list[Step]:
    """The first application of a technique that changes the board (the shortest, for chains), or none."""
    return next(([step] for step in tech.find(board) if step.is_progress), [])


def every_progress(tech: Technique, board: Board) -> list[Step]:
    """Every application of a technique that changes the board."""
    return [step for step in tech.find(board) if step.is_progress]


class StepTooLong(deadline.TimeUp):
    """The easiest step was not found within the time limit: every technique before ``reached`` was tried."""

    def __init__(self, reached: Technique) -> None:
        super().__init__(f"no step found before {reached.name} within the time limit")
        self.reached = reached


def easiest(
    board: Board,
    techniques: Iterable[Technique] = CATALOGUE,
    applications: Callable[[Technique, Board], list[Step]] = _first_progress,
) -> list[Step]:
    """The applicable steps with the lowest SE-like rating (Sudoku Explainer's rule), all of one technique: the
    easiest step is one of them (none when nothing applies). StepTooLong when a time limit (``deadline``) passes.

    Techniques come in order of their base rating, and a chain's step is rated its base plus its length bonus, so
    the search stops at the first technique whose base rating reaches the best step found; ties go to the
    technique that comes first. ``applications`` gives the steps of a technique that count: by default its first
    (a chain's finder gives its shortest first), ``every_progress`` for all of them.
    """
    best: list[Step] = []
    for tech in techniques:
        if best and tech.se_rating >= step_se(best[0]):
            break
        try:
            deadline.check()
            steps = applications(tech, board)
        except deadline.TimeUp:
            raise StepTooLong(tech) from None
        if steps:
            lowest = min(step_se(step) for step in steps)
            if not best or lowest < step_se(best[0]):
                best = [step for step in steps if step_se(step) == lowest]
    return best


def next_step(
    board: Board, techniques: Iterable[Technique] = CATALOGUE, rng: random.Random | None = None
) -> Step | None:
    """The logic solver's next step: the first of the ``easiest``, or None when none applies. With ``rng`` a random
    application of the first applicable technique is taken instead (seed 002's hsolve needs that)."""
    if rng is None:
        return next(iter(easiest(board, techniques)), None)
    for tech in techniques:
        deadline.check()
        found = every_progress(tech, board)
        if found:
            return rng.choice(found)
    return None


def solve(
    position: Grid | Board | str,
    *,
    rng: random.Random | None = None,
    allow: Collection[str] | None = None,
    max_steps: int = 2000,
    deadline: float | None = None,
) -> Trace:
    """Solve by logic, easiest step first; the trace ends solved, or stuck when ``allow`` is too narrow.

    ``deadline`` (a ``time.perf_counter()`` value) stops the solve at it, inside a step's search if need be (the
    board is left as the last whole step made it).
    """
    board = position.copy() if isinstance(position, Board) else Board.from_grid(position)
    trace = Trace(puzzle=board.grid())
    techniques = _techniques(allow)
    with limit(deadline):
        while not board.is_solved and len(trace.steps) < max_steps:
            step = next_step(board, techniques, rng)
            if step is None:
                break
            board.apply(step)
            trace.steps.append(step)
    trace.final = board
    return trace


SINGLES = frozenset(t.id for t in CATALOGUE if t.family == "singles")


def _place_singles(board: Board) -> bool:
    """Place every single of the board at once (their fixed point); False, board unchanged, on a contradiction."""
    closed = close_singles(board.values, board.cands)
    if closed is None:
        return False
    board.values, board.cands = closed
    return True


def steps_past_singles(board: Board, techniques: Sequence[Technique] = CATALOGUE) -> Iterator[Step]:
    """The steps of the trace other than singles, each yielded after it is applied to ``board`` (changed in place).

    The trace takes a single whenever one is left, so before each other step it has placed all of them, and
    their fixed point does not depend on the order they are placed in: placing them at once reaches the same
    position, from which the trace takes the same next step. Stops when solved, stuck on ``techniques``
    (singles among them are skipped) or, with the board left as it was, on a contradiction.
    """
    others = [t for t in techniques if t.id not in SINGLES]
    while _place_singles(board) and not board.is_solved:
        step = next_step(board, others)
        if step is None:
            return
        board.apply(step)
        yield step


Taken = tuple[Technique, Step | None]
Options = tuple[int, int]  # ``options`` of a position: its empty cells, and how many a single could fill
NOT_COUNTED: Options = (-1, -1)  # the options of a step taken where they are not counted
# A kernel entry: the trace's next technique step on a board without singles, taken in place (none: empty).
_Kernel = Callable[[Board, Sequence[Technique]], list[Technique]]
# The kernel's run of steps from a board: how it ended (``compiled.STUCK`` and the like), the techniques taken and
# the options before each.
_Head = Callable[[Board], tuple[int, list[Technique], list[Options]]]


def _later_step(board: Board, segments: Sequence[compiled.Segment], kernel: _Kernel) -> Taken | None:
    """The next step of the trace from techniques after the first segment, on a board with no single left.

    Segments come in order of rating. A compiled technique's step is rated its technique's rating, so the first
    one found is taken at once, by the kernel, in place; a Python segment gives its easiest step, which only a
    chain's length bonus can leave open to a later technique rated below it.
    """
    best: Step | None = None
    for is_compiled, techniques in segments:
        if best is not None:
            techniques = [t for t in techniques if t.se_rating < step_se(best)]
            if not techniques:
                break
        if is_compiled:
            taken = kernel(board, techniques)
            if taken:
                return taken[0], None
            continue
        step = next_step(board, techniques)
        if step is not None and (best is None or step_se(step) < step_se(best)):
            best = step
    if best is None:
        return None
    board.apply(best)
    return BY_ID[best.technique], best


def _kernel_walk(
    board: Board, later: Sequence[compiled.Segment], head: _Head, kernel: _Kernel, counted: bool = True
) -> Iterator[tuple[Taken, Options]]:
    """The trace on the numba backend, each step with the options before it (``NOT_COUNTED`` for a later step
    unless ``counted``): the kernel runs the leading compiled techniques (and the singles) free, then the later
    techniques give one step, again, until it is solved or stuck. ``board`` is changed in place."""
    while True:
        status, techniques, opened = head(board)
        yield from (((tech, None), before) for tech, before in zip(techniques, opened, strict=True))
        if status != compiled.STUCK:
            return
        before = options(board) if counted else NOT_COUNTED
        found = _later_step(board, later, kernel)
        if found is None:
            return
        yield found, before


def techniques_past_singles(board: Board, techniques: Sequence[Technique] = CATALOGUE) -> Iterator[Taken]:
    """The technique of each step of the trace other than singles, with its Step when a Python finder took it.

    Stops as ``steps_past_singles`` does, on the same board. On the numba backend the steps of techniques with
    compiled finders (``techniques.compiled``) are taken on the kernel and come without a Step (None): the leading
    ones run free between the singles, placed at once; the later ones are tried one step at a time, in their
    place in the order.
    """
    others = [t for t in techniques if t.id not in SINGLES]
    segments = compiled.segments(others)
    if not segments or not segments[0][0]:
        yield from ((BY_ID[step.technique], step) for step in steps_past_singles(board, others))
        return
    head = segments[0][1]

    def run_head(on: Board) -> tuple[int, list[Technique], list[Options]]:
        status, taken = compiled.run(on, head)
        return status, taken, [NOT_COUNTED] * len(taken)

    walk = _kernel_walk(board, segments[1:], run_head, lambda b, ts: compiled.run(b, ts, limit=1)[1], counted=False)
    yield from (taken for taken, _ in walk)


def options(board: Board) -> tuple[int, int]:
    """How many cells are empty, and how many of them a naked or hidden single could fill right now: the places a
    player looks at and the ones that pay off (p and v of ``difficulty.effort`` and ``time_model.work``)."""
    return board.values.count(0), len(single_cells(board))


@dataclass
class TakenTrace:
    """A trace as its techniques (each with its Step when a Python finder took it), the final board, and the
    ``options`` of the position before each step."""

    steps: list[Taken]
    final: Board
    options: list[Options]


def technique_trace(position: Grid, *, deadline: float | None = None) -> TakenTrace:
    """The steps of ``solve``'s trace as their techniques, each with its Step when a Python finder took it, the
    final board and each step's options. On the numba backend the singles and the techniques with compiled
    finders are taken on the kernel, step by step in the same order (no Step: None). ``deadline`` as in
    ``solve``."""
    board = Board.from_grid(position)
    segments = compiled.segments([t for t in CATALOGUE if t.id not in SINGLES])
    if not segments or not segments[0][0]:
        return _replayed(board, solve(board, deadline=deadline))
    head = segments[0][1]
    traced = TakenTrace([], board, [])
    walk = _kernel_walk(
        board, segments[1:], lambda on: compiled.trace(on, head), lambda b, ts: compiled.trace(b, ts, limit=1)[1]
    )
    with limit(deadline):
        for taken, before in walk:
            traced.steps.append(taken)
            traced.options.append(before)
    return traced


@contextmanager
def limit(at: float | None) -> Iterator[None]:
    """The block runs under the deadline ``at`` (``deadline.until``); a search it stops ends the block quietly (a
    trace stopped there is what the steps before it made). Without a deadline of its own nothing is caught: an
    outer limit's TimeUp goes on to whoever set it."""
    if at is None:
        yield
        return
    try:
        with deadline.until(at):
            yield
    except deadline.TimeUp:
        return


def _replayed(board: Board, trace: Trace) -> TakenTrace:
    """A trace of Steps as a TakenTrace, with the options of each position it passes (``board``: its start)."""
    assert trace.final is not None
    opened = []
    for step in trace.steps:
        opened.append(options(board))
        board.apply(step)
    return TakenTrace([(BY_ID[step.technique], step) for step in trace.steps], trace.final, opened)
