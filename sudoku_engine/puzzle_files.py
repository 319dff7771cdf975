"""Puzzle lines from arguments, files and stdin, for the command line and the web app's ``flask pool import``.

An argument is puzzle text, a file path, or ``-`` for stdin; no argument means stdin. Files ending in ``.tsv``
have a header line; the ``puzzle`` column is read (the first column when no header names it). Files and stdin are
read as UTF-8 (a leading byte order mark is dropped; undecodable bytes make their line a bad line). Blank lines and
``#`` comments are skipped; a file or stdin without a puzzle is an error.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from .grid import InvalidPuzzle, parse_values


@dataclass(frozen=True)
class InputLine:
    """One puzzle line to process, with where it came from for error messages."""

    source: str
    line: int
    text: str


def _tsv_column(header: str) -> int:
    """Index of the ``puzzle`` column of a TSV header, or 0 when none is named so."""
    names = [name.strip().lower() for name in header.split("\t")]
    return names.index("puzzle") if "puzzle" in names else 0


def _lines_of(source: str, stream: Iterable[str], has_header: bool) -> Iterator[InputLine]:
    """Puzzle lines of a stream, skipping blanks, ``#`` comments and a header line."""
    column = 0
    for number, raw in enumerate(stream, start=1):
        text = raw.rstrip("\r\n")
        if number == 1 and (has_header or text.split("\t")[0].strip().lower() == "puzzle"):
            column = _tsv_column(text)
            continue
        if not text.strip() or text.lstrip().startswith("#"):
            continue
        fields = text.split("\t")
        yield InputLine(source, number, fields[column] if column < len(fields) else "")


def _lines_or_none(source: str, stream: Iterable[str], has_header: bool) -> Iterator[InputLine | str]:
    """The puzzle lines of a file or stdin, or an error message when it holds none."""
    found = False
    for item in _lines_of(source, stream, has_header):
        found = True
        yield item
    if not found:
        yield f"{source}: no puzzles"


def read_inputs(args: Sequence[str], stdin: TextIO) -> Iterator[InputLine | str]:
    """Puzzle lines from arguments (text, files, ``-`` for stdin) or stdin; a str item is an error message."""
    for index, arg in enumerate(args or ["-"], start=1):
        path = Path(arg)
        if arg == "-":
            yield from _lines_or_none("stdin", stdin, has_header=False)
        elif path.suffix in (".txt", ".tsv") or path.is_file():
            if not path.is_file():
                yield f"{arg}: no such file"
                continue
            try:
                text = path.read_text(encoding="utf-8-sig", errors="replace")
            except OSError as exc:
                yield f"{arg}: cannot read: {exc.strerror or exc}"
                continue
            yield from _lines_or_none(arg, text.splitlines(), has_header=path.suffix == ".tsv")
        else:
            yield InputLine("argument", index, arg)


def parsed_inputs(args: Sequence[str], stdin: TextIO) -> Iterator[tuple[InputLine, tuple[int, ...]] | str]:
    """The inputs' puzzles with their lines, in order; a str item is an error message (``source:line: why`` for a
    line that is not a puzzle)."""
    for item in read_inputs(args, stdin):
        if isinstance(item, str):
            yield item
            continue
        try:
            yield item, parse_values(item.text)
        except InvalidPuzzle as exc:
            yield f"{item.source}:{item.line}: {exc}"
