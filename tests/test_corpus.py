"""Corpus regression: every puzzle of ../shared/data solves, checked by the rules, with the right count.

Every file holds puzzles with exactly one solution, except the serg benchmark, where each has two or more
(SOURCES.md); solutions are checked by ``is_valid_solution``, which never calls the solver.
"""

from __future__ import annotations

import pytest
from helpers.corpus import corpus_file, corpus_files, data_dir, read_puzzles

from sudoku_engine import solver
from sudoku_engine.grid import is_valid_solution, parse_values

MULTI = "tdoku_serg_benchmark_multisolution_even.txt"
FILES = sorted(p.name for pattern in ("*.txt", "*.tsv") for p in data_dir().glob(pattern))

pytestmark = pytest.mark.corpus


def _check_file(name: str, limit: int | None) -> None:
    """Solve the puzzles of one file and check count and solution validity for each."""
    expected = 2 if name == MULTI else 1
    failures = []
    for index, text in enumerate(read_puzzles(corpus_file(name), limit)):
        values = parse_values(text)
        count, solution = solver.solve_count(values, limit=2)
        if count != expected or solution is None or not is_valid_solution(values, solution.values):
            failures.append((index, text, count))
    assert not failures, f"{len(failures)} puzzles of {name} failed, first: {failures[:3]}"


def test_corpus_is_present():
    assert len(corpus_files()) >= 17


@pytest.mark.parametrize("name", FILES or ["(corpus absent)"])
def test_every_puzzle_of_the_corpus(name):
    corpus_files()
    _check_file(name, None if solver.backend() == "numba" else 200)


@pytest.mark.parametrize("name", FILES or ["(corpus absent)"])
def test_pure_python_backend_on_a_sample(name):
    corpus_files()
    previous = solver.backend()
    solver.use_backend("python")
    try:
        _check_file(name, 25)
    finally:
        solver.use_backend(previous)
