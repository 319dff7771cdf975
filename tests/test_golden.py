"""The golden corpus: 30 fixed puzzles from singles to forcing nets, their ratings derived independently of the engine.

tests/golden/golden.json holds, per puzzle, values derived once by routes that do not run the code under test
(tests/golden/derive.py says which route gives which value):

- ``techniques`` and ``se_like``: the reference solver tests/golden/reference.py (singles to Hidden Triple, written
  from the techniques' definitions) on the pinned canonical string; null for the 10 puzzles it does not cover.
- ``published_se`` / ``published_se_below``: the source's Sudoku Explainer rating or its bucket's bound; se_like
  must lie within ``se_tolerance`` (docs/difficulty.md's 0.1) of it, except where ``se_gap`` explains why the
  reference itself does not (then se_like must equal the reference's).
- ``canonical``: the engine's canonical string, pinned; ``minlex`` and the two transforms from
  tests/golden/minlex.py prove it an isomorph of the puzzle (checked here by index arithmetic alone).
- ``D``: the documented formula evaluated by derive.py. With ``d_inputs`` "reference", se_fine, ln hodoku_like and
  ln effort per cell come from the reference solve; the seed measures (call count, failed schemes, entropy,
  inferences, guesses) can only come from the engine and are pinned in tests/golden/engine_inputs.json. With
  "engine" every input is the engine's, so D is pinned there (a regression check, not an independent one).

The top of the scale stops at Sudoku Explainer 9.2 (forcing nets): the hardest forum puzzles (ER 10-12) take
minutes each to rate, too slow for a test run (Discrepancy, ER 10.4: se_like 10.3; Golden Nugget, ER 11.9: 10.8).

Regenerate (from the repository root, with SUDOKU_DATA set): ``PYTHONPATH=. python tests/golden/pin_engine.py``
then ``python tests/golden/derive.py``; review the diff of golden.json before committing it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from golden.minlex import apply

from sudoku_engine.grid import format_values, parse_values
from sudoku_engine.isomorph import canonical
from sudoku_engine.rating import rate

GOLDEN: dict[str, Any] = json.loads((Path(__file__).parent / "golden" / "golden.json").read_text())
ENTRIES: list[dict[str, Any]] = GOLDEN["puzzles"]
IDS = [entry["name"] for entry in ENTRIES]


def _transform(stored: list[Any]) -> tuple[bool, tuple[int, ...], tuple[int, ...]]:
    """A stored certificate as (transpose, rows, columns)."""
    return bool(stored[0]), tuple(stored[1]), tuple(stored[2])


def test_the_corpus_spans_the_scale() -> None:
    """30 puzzles, 20 with reference counts, from singles-only to forcing nets."""
    assert len(ENTRIES) == 30
    assert sum(entry["techniques"] is not None for entry in ENTRIES) == 20
    assert min(entry["D"] for entry in ENTRIES) < 1.5 and max(entry["D"] for entry in ENTRIES) > 9.0


@pytest.mark.parametrize("entry", ENTRIES, ids=IDS)
def test_canonical_form_is_pinned_and_an_isomorph(entry: dict[str, Any]) -> None:
    """The engine's canonical form is the pinned string, and both it and the puzzle map onto the stored minlex."""
    assert apply(entry["puzzle"], _transform(entry["puzzle_to_minlex"])) == entry["minlex"]
    assert apply(entry["canonical"], _transform(entry["canonical_to_minlex"])) == entry["minlex"]
    assert format_values(canonical(parse_values(entry["puzzle"]))) == entry["canonical"]


@pytest.mark.parametrize("entry", ENTRIES, ids=IDS)
def test_rating_matches_the_golden_values(entry: dict[str, Any]) -> None:
    """Technique counts, se_like against the reference and the published rating, and D."""
    rating = rate(entry["puzzle"])
    if entry["techniques"] is not None:
        assert rating.techniques == entry["techniques"]
        assert rating.se_like == entry["se_like"]
    if entry["published_se"] is not None and "se_gap" not in entry:
        assert abs(rating.se_like - entry["published_se"]) <= GOLDEN["se_tolerance"] + 1e-9
    if entry["published_se_below"] is not None:
        assert rating.se_like < entry["published_se_below"]
    assert rating.d == pytest.approx(entry["D"], abs=GOLDEN["d_tolerance"])
