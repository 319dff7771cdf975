"""Time limits that hold inside the engine's long searches: a deadline set around a piece of work (``until``) and
checked inside it (``check``), in the loops of the searches that can run for seconds (the techniques' finders tried
in turn, the forcing chains' candidates, the contradiction nets' kernel, called a row of cells at a time), so a
limit is kept to within about one such unit of work whatever step is running.

The deadline is a ``time.perf_counter()`` value kept in a context variable: nested limits keep the earlier one, and
threads and tasks each see their own.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_DEADLINE: ContextVar[float | None] = ContextVar("sudoku_engine_deadline", default=None)


class TimeUp(RuntimeError):
    """The time limit around the running work has passed."""


@contextmanager
def until(deadline: float | None) -> Iterator[None]:
    """Work inside the block stops with TimeUp at its next check past ``deadline`` (a ``time.perf_counter()``
    value; None: no new limit), or past an earlier deadline already set around it."""
    current = _DEADLINE.get()
    chosen = deadline if current is None else current if deadline is None else min(current, deadline)
    token = _DEADLINE.set(chosen)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def check() -> None:
    """TimeUp when the deadline in force has passed."""
    deadline = _DEADLINE.get()
    if deadline is not None and time.perf_counter() > deadline:
        raise TimeUp("the time limit has passed")


def passed() -> bool:
    """True when the deadline in force has passed (for loops that stop quietly instead of raising)."""
    deadline = _DEADLINE.get()
    return deadline is not None and time.perf_counter() > deadline
