"""What the benchmark scripts share: where the corpora are, reading them, and rank statistics.

``DATA`` is ``$SUDOKU_DATA`` or ``../shared/data`` beside the repository. Spearman's rho is the Pearson
correlation of average ranks; Goodman-Kruskal gamma counts concordant and discordant pairs, leaving out pairs
tied in either variable. Scripts in ``benchmarks/papers/`` put this folder on ``sys.path`` to import it.
"""

from __future__ import annotations

import hashlib
import math
import os
import statistics
from collections.abc import Sequence
from pathlib import Path

import numpy as np

DATA = Path(os.environ.get("SUDOKU_DATA", Path(__file__).resolve().parent.parent.parent / "shared" / "data"))
ENGINE = Path(__file__).resolve().parent.parent / "sudoku_engine"


def engine_fingerprint() -> str:
    """A digest of the engine's source (the generated slider knots aside: they do not change a rating), so that
    ratings kept under another digest, which may be stale, are never reused."""
    digest = hashlib.sha256()
    for path in sorted(ENGINE.rglob("*.py")):
        if path.name != "slider_knots.py":
            digest.update(path.relative_to(ENGINE).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]


def read_tsv(name: str) -> list[dict[str, str]]:
    """Rows of a corpus TSV file as dicts keyed by the header."""
    lines = (DATA / name).read_text(encoding="utf-8").splitlines()
    header = lines[0].split("\t")
    return [dict(zip(header, line.split("\t"))) for line in lines[1:] if line.strip()]


def read_txt(name: str, limit: int | None = None) -> list[str]:
    """Puzzles of a corpus TXT file (the first ``limit`` of them)."""
    return [line.strip() for line in (DATA / name).read_text(encoding="utf-8").splitlines() if line.strip()][:limit]


def spread(items: Sequence[str], count: int) -> list[str]:
    """``count`` items taken evenly across a list (all of it when count is 0 or too large)."""
    if count <= 0 or count >= len(items):
        return list(items)
    step = len(items) / count
    return [items[int(i * step)] for i in range(count)]


def average_ranks(values: Sequence[float]) -> list[float]:
    """Ranks 1..n, ties sharing their average rank."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for k in range(start, end + 1):
            ranks[order[k]] = (start + end) / 2 + 1
        start = end + 1
    return ranks


def spearman(x: Sequence[float], y: Sequence[float]) -> float:
    """Spearman's rho: the Pearson correlation of the average ranks (nan when one side is constant)."""
    rx, ry = average_ranks(x), average_ranks(y)
    mx, my = statistics.fmean(rx), statistics.fmean(ry)
    sxy = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    sxx = sum((a - mx) ** 2 for a in rx)
    syy = sum((b - my) ** 2 for b in ry)
    return sxy / math.sqrt(sxx * syy) if sxx and syy else math.nan


def goodman_kruskal_gamma(x: Sequence[float], y: Sequence[float]) -> float:
    """(concordant - discordant) / (concordant + discordant) over all pairs; pairs tied in x or y are left out."""
    if len(x) != len(y):
        raise ValueError("x and y differ in length")
    x, y = [float(v) for v in x], [float(v) for v in y]  # numpy scalars compare to numpy booleans
    concordant = discordant = 0
    for i in range(len(x)):
        xi, yi = x[i], y[i]
        for j in range(i + 1, len(x)):
            sign = (x[j] > xi) - (x[j] < xi)
            sign *= (y[j] > yi) - (y[j] < yi)
            if sign > 0:
                concordant += 1
            elif sign < 0:
                discordant += 1
    if concordant + discordant == 0:
        return math.nan
    return (concordant - discordant) / (concordant + discordant)


def p95(values: Sequence[float]) -> float:
    """95th percentile (linear interpolation, as numpy's percentile)."""
    return float(np.percentile(values, 95))
