"""Work on an existing Dask cluster: one function over many puzzles in chunks, results in input order.

For corpus work (``rate`` and ``solve --scheduler ADDRESS``). The cluster's workers need this package installed
(``pip install 'sudoku-lab[fast,cluster]'``). A worker lost mid-chunk is the scheduler's to reschedule; a chunk the
scheduler gives up on (``KilledWorker``) is sent again, up to ``retries`` times. At most a window of chunks is in
flight, so a list of millions of puzzles streams through in bounded memory.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

_In = TypeVar("_In")
_Out = TypeVar("_Out")

RETRIES = 3  # times a chunk is sent again after the scheduler gave up on it
CONNECT_TIMEOUT_S = 10.0
CHUNKS_PER_THREAD = 2  # chunks in flight per worker thread of the cluster


class ClusterError(Exception):
    """The cluster cannot do the work: the extra is missing, the scheduler is unreachable or was lost."""


def _run_chunk(function: Callable[[_In], _Out], chunk: list[_In]) -> list[_Out]:
    """function over one chunk, on a worker."""
    return [function(item) for item in chunk]


@dataclass
class _Sent(Generic[_In]):
    """A chunk in flight: its items, its future and how many times it was sent again."""

    chunk: list[_In]
    future: Any
    retried: int = 0


def _client(address: str, timeout_s: float) -> Any:
    """A client of the scheduler at ``address``, or ClusterError saying why not."""
    try:
        from distributed import Client
    except ImportError:
        raise ClusterError("--scheduler needs the Dask extra: pip install 'sudoku-lab[cluster]'") from None
    try:
        return Client(address, timeout=f"{timeout_s}s", set_as_default=False)  # type: ignore[no-untyped-call]
    except (OSError, ValueError, TypeError) as exc:
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {exc}") from None


def chunks(items: Iterator[_In], size: int) -> Iterator[list[_In]]:
    """The items in lists of up to ``size``, in order."""
    chunk: list[_In] = []
    for item in items:
        chunk.append(item)
        if len(chunk) >= size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def cluster_mapped(
    function: Callable[[_In], _Out],
    items: Iterable[_In],
    address: str,
    *,
    chunk_size: int,
    retries: int = RETRIES,
    connect_timeout_s: float | None = None,
) -> Iterator[_Out]:
    """function over items on the Dask cluster at ``address``, in input order; ClusterError when it cannot.

    ``function`` and the items travel to the workers by pickle, so the function must be importable there.
    """
    client = _client(address, CONNECT_TIMEOUT_S if connect_timeout_s is None else connect_timeout_s)
    from distributed import KilledWorker
    from distributed.client import FutureCancelledError

    pending: deque[_Sent[_In]] = deque()

    def send(chunk: list[_In], retried: int = 0) -> _Sent[_In]:
        """Submit one chunk (never merged with an equal one: a retry must run again)."""
        return _Sent(chunk, client.submit(_run_chunk, function, chunk, pure=False), retried)

    def collect() -> list[_Out]:
        """The results of the oldest chunk in flight, sent again while the scheduler gives up on it."""
        sent = pending[0]
        while True:
            try:
                results: list[_Out] = sent.future.result()
            except KilledWorker:
                if sent.retried >= retries:
                    raise ClusterError(f"the cluster lost the workers of a chunk {retries + 1} times") from None
                sent = pending[0] = send(sent.chunk, sent.retried + 1)
                continue
            except (OSError, TimeoutError, FutureCancelledError) as exc:
                raise ClusterError(f"lost the Dask scheduler at {address}: {exc}") from None
            pending.popleft()
            return results

    try:
        window = max(4, CHUNKS_PER_THREAD * sum(client.nthreads().values()))
        for chunk in chunks(iter(items), chunk_size):
            pending.append(send(chunk))
            if len(pending) >= window:
                yield from collect()
        while pending:
            yield from collect()
    finally:
        for sent in pending:
            sent.future.cancel()
        client.close()
