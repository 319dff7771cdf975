"""Work spread over worker processes: one function over many puzzles, for the CLI and the web app's bank commands."""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

_In = TypeVar("_In")
_Out = TypeVar("_Out")


def mapped(
    function: Callable[[_In], _Out],
    items: Iterable[_In],
    jobs: int,
    *,
    ordered: bool = True,
    prepare: Callable[[], object] | None = None,
) -> Iterator[_Out]:
    """function over items; over ``jobs`` worker processes when jobs > 1, in input order or as each finishes.

    ``prepare`` runs once in this process before the workers start (with fork they inherit what it loaded).
    """
    if jobs <= 1:
        yield from map(function, items)
        return
    if prepare is not None:
        prepare()
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    with context.Pool(jobs) as pool:
        results = pool.imap if ordered else pool.imap_unordered
        yield from results(function, items, chunksize=1)
