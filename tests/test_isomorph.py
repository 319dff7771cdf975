"""Isomorphs: transforms keep a puzzle valid and its solution count; the canonical form is the same for all of them."""

from __future__ import annotations

import random

import pytest
from helpers.corpus import corpus_file, read_puzzles

from sudoku_engine import solver
from sudoku_engine.grid import PEERS, parse_values
from sudoku_engine.isomorph import Isomorph, canonical, canonical_isomorph, random_isomorph

IDENTITY = tuple(range(9))


def _sample() -> list[tuple[int, ...]]:
    """A few sparse and a few easy puzzles."""
    puzzles = read_puzzles(corpus_file("tdoku_17clue_even.txt"), 25) + read_puzzles(
        corpus_file("projecteuler96_easy50.txt"), 15
    )
    return [parse_values(p) for p in puzzles]


def _conflict_free(values: tuple[int, ...]) -> bool:
    """No digit sees an equal digit."""
    return all(not v or all(values[p] != v for p in PEERS[c]) for c, v in enumerate(values))


def test_a_hand_made_transform():
    """Transposing moves r1c2 to r2c1; relabelling 1 -> 9 changes the digit; swapping bands 1 and 2 moves row 1 to 4."""
    values = [0] * 81
    values[1] = 1  # r1c2
    transposed = Isomorph(True, IDENTITY, IDENTITY, (0, 9, 2, 3, 4, 5, 6, 7, 8, 1)).apply(values)
    assert transposed[9] == 9 and sum(1 for v in transposed if v) == 1  # r2c1 holds 9
    banded = Isomorph(False, (3, 4, 5, 0, 1, 2, 6, 7, 8), IDENTITY, tuple(range(10))).apply(values)
    assert banded[3 * 9 + 1] == 1  # r4c2


def test_random_isomorphs_stay_valid_with_the_same_solution_count():
    rng = random.Random(3)
    for values in _sample()[:10]:
        for _ in range(3):
            image = random_isomorph(rng).apply(values)
            assert sum(1 for v in image if v) == sum(1 for v in values if v)
            assert _conflict_free(image)
            assert solver.count_solutions(image, limit=2) == 1


def test_every_isomorph_has_the_same_canonical_form():
    rng = random.Random(11)
    for values in _sample():
        form = canonical(values)
        assert canonical(form) == form
        assert canonical_isomorph(values).apply(values) == form
        for _ in range(6):
            assert canonical(random_isomorph(rng).apply(values)) == form


def test_different_puzzles_have_different_canonical_forms():
    """Distinct puzzles stay distinct (the 17-clue list holds one puzzle per isomorphism class; Euler have more)."""
    forms = {canonical(values) for values in _sample()}
    assert len(forms) == len(_sample())


@pytest.mark.parametrize("digits", [(0, 2, 1, 3, 4, 5, 6, 7, 8, 9), (0, 9, 8, 7, 6, 5, 4, 3, 2, 1)])
def test_relabelling_alone_keeps_the_canonical_form(digits):
    values = _sample()[0]
    assert canonical(Isomorph(False, IDENTITY, IDENTITY, digits).apply(values)) == canonical(values)
