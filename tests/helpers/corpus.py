"""Where the puzzle corpora live, and how tests read them (skip when absent, fail in CI)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def data_dir() -> Path:
    """The corpus folder: $SUDOKU_DATA, else ../shared/data beside the repository."""
    return Path(os.environ.get("SUDOKU_DATA", REPO.parent / "shared" / "data"))


def corpus_files() -> list[Path]:
    """Every puzzle file of the corpus, or a skip (a failure in CI) when the corpus is absent."""
    folder = data_dir()
    files = sorted([*folder.glob("*.txt"), *folder.glob("*.tsv")]) if folder.is_dir() else []
    if not files:
        message = f"puzzle corpus not found in {folder} (set SUDOKU_DATA)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return files


def read_puzzles(path: Path, limit: int | None = None) -> list[str]:
    """Puzzle strings of a corpus file (``puzzle`` column of a TSV, first field of a TXT line)."""
    with path.open(encoding="utf-8") as stream:
        lines = stream.read().splitlines()
    column = 0
    if path.suffix == ".tsv":
        header = lines.pop(0).split("\t")
        column = header.index("puzzle")
    puzzles = [line.split("\t")[column] for line in lines if line.strip()]
    return puzzles[:limit]


def corpus_file(name: str) -> Path:
    """One corpus file by name, or a skip (a failure in CI) when it is absent."""
    path = data_dir() / name
    if not path.is_file():
        message = f"corpus file {path} not found (set SUDOKU_DATA)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return path
