"""Warming the compiled kernels: compile (or load from numba's on-disk cache) every kernel with progress, and a
stamp that tells, without importing numba, whether the cache already holds them for these sources.

The stamp is a hash of numba's and Python's versions and of the name, size and modification time of every source
file of the package (numba's own cache is keyed by the defining file's size and time); ``warm`` writes it next to
numba's cache once every kernel is compiled, and ``is_warm`` compares it, so a server can decide in milliseconds
whether its workers would compile (``webapp.gunicorn_conf``).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import sys
import threading
import time
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from typing import Any

PACKAGE = Path(__file__).resolve().parent
KERNEL_MODULES: tuple[str, ...] = (
    "sudoku_engine._search_numba",
    "sudoku_engine.techniques._finders_numba",
    "sudoku_engine.techniques._nets_numba",
    "sudoku_engine.metrics._fatemi_numba",
)
STAMP_NAME = "sudoku-engine-warm.txt"
POLL_S = 0.5  # how often progress is read while the kernels compile

Progress = Callable[[int, int, float], None]  # kernels compiled, kernels in all, seconds since the start


def numba_version() -> str | None:
    """The installed numba's version (read from its metadata, numba not imported), or None without numba."""
    if importlib.util.find_spec("numba") is None:
        return None
    try:
        return metadata.version("numba")
    except metadata.PackageNotFoundError:
        return None


def cache_dir() -> Path:
    """Where numba caches the package's kernels: ``NUMBA_CACHE_DIR`` when set, else the package's ``__pycache__``."""
    configured = os.environ.get("NUMBA_CACHE_DIR", "").strip()
    return Path(configured) if configured else PACKAGE / "__pycache__"


def stamp() -> str:
    """The hash of numba's and Python's versions and every package source file's name, size and time."""
    digest = hashlib.sha256(f"{numba_version()}\n{sys.version}\n".encode())
    for path in sorted(PACKAGE.rglob("*.py")):
        info = path.stat()
        digest.update(f"{path.relative_to(PACKAGE)}\t{info.st_size}\t{info.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def is_warm() -> bool:
    """Whether numba is installed and its cache holds every kernel for these sources (the stamp matches)."""
    if numba_version() is None:
        return False
    try:
        return (cache_dir() / STAMP_NAME).read_text(encoding="utf-8").strip() == stamp()
    except OSError:
        return False


def write_stamp() -> bool:
    """Record that the cache holds every kernel for these sources; False when the folder is not writable."""
    try:
        cache_dir().mkdir(parents=True, exist_ok=True)
        (cache_dir() / STAMP_NAME).write_text(stamp() + "\n", encoding="utf-8")
    except OSError:
        return False
    return True


def dispatchers() -> list[Any]:
    """The numba dispatchers the kernel modules define (empty without numba)."""
    if numba_version() is None:
        return []
    from numba.core.registry import CPUDispatcher

    found: list[Any] = []
    for name in KERNEL_MODULES:
        module = importlib.import_module(name)
        found.extend(
            value
            for value in vars(module).values()
            if isinstance(value, CPUDispatcher) and value.py_func.__module__ == name
        )
    return found


def _watch(kernels: list[Any], progress: Progress, start: float, done: threading.Event) -> None:
    """Report how many kernels have a compiled signature every POLL_S seconds until ``done`` is set."""
    while not done.wait(POLL_S):
        progress(sum(1 for kernel in kernels if kernel.signatures), len(kernels), time.perf_counter() - start)


def warm(progress: Progress | None = None) -> str:
    """Compile or load every kernel (``generate.warm_every_kernel``), reporting progress while it runs, and write
    the stamp; returns the solver backend's name."""
    from .generate import warm_every_kernel

    start = time.perf_counter()
    kernels = dispatchers()
    done = threading.Event()
    watcher = None
    if progress is not None and kernels:
        watcher = threading.Thread(target=_watch, args=(kernels, progress, start, done), daemon=True)
        watcher.start()
    try:
        backend = warm_every_kernel()
    finally:
        done.set()
        if watcher is not None:
            watcher.join()
    if progress is not None and kernels:  # every kernel is ready: compiled, or inside a caller loaded from the cache
        progress(len(kernels), len(kernels), time.perf_counter() - start)
    if backend == "numba":
        write_stamp()
    return backend
