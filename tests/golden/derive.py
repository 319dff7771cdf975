"""Derive the golden corpus (tests/golden/golden.json) by routes independent of the engine; imports no engine code.

Run from the repository root: ``python tests/golden/pin_engine.py`` first (it records what only the engine can
give: the canonical string to pin and the seed measures D reads), then ``python tests/golden/derive.py``.

- Technique counts and se_like: ``reference.py``'s solve of the pinned canonical string (the engine rates a
  puzzle's canonical isomorph), for the puzzles it covers (singles to Hidden Triple); the others get none.
- Canonical form: ``minlex.py`` shows the pinned canonical string and the puzzle have the same minlex form, and
  stores a transform of each onto it (the certificate the test applies).
- se: the published Sudoku Explainer rating of the source (or the bound its bucket gives), with the tolerance
  docs/difficulty.md states; where the reference itself lands outside it, ``se_gap`` says why and the test holds
  se_like to the reference's value instead.
- D: docs/difficulty.md's formula written out below, with the model's fitted constants (sudoku_engine/difficulty.py).
  Its inputs se_fine, ln hodoku_like and ln effort per cell come from the reference solve with the published SE
  ratings and HoDoKu scores; the seed measures (call count, failed schemes, entropy, inferences, guesses) only the
  engine computes, so they are read from pin_engine.py's file. For a puzzle the reference does not cover, every
  input is the engine's and D is pinned (the formula is still evaluated here).
"""

from __future__ import annotations

import csv
import json
import math
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import minlex  # noqa: E402
import reference  # noqa: E402

PUZZLES = HERE / "puzzles.tsv"
PINNED = HERE / "engine_inputs.json"
FIXTURE = HERE / "golden.json"

# docs/difficulty.md: "se_like within 0.1 of the SE rating" is the agreement the project reports and targets.
SE_TOLERANCE = 0.1
# D from independent inputs is the same formula evaluated twice: only float rounding may differ.
D_TOLERANCE = 1e-6

# The model's constants (sudoku_engine/difficulty.py, fitted by benchmarks/fit_difficulty.py).
INTERCEPT = -0.1381
WEIGHTS = (1.0, -0.0590, 0.0298, -0.0411, -0.4164, 0.0341, -0.0105, 0.1904)
REFINEMENT_SD = 0.1442
TIE_WIDTH = 0.049
MAX_WIDTH = 0.5
SINGLES_TOP, SINGLES_LOW, SINGLES_HIGH = 2.3, 2.583, 4.506
# The ratings on the SE scale that the catalogue's techniques other than singles carry, and the singles' top.
RATINGS = sorted(
    {2.3, 2.6, 2.8, 3.0, 3.2, 3.4, 3.6, 3.8, 4.0, 4.1, 4.2, 4.3, 4.4, 4.5, 4.6, 4.7, 4.8, 5.0, 5.2, 5.4, 5.5, 5.6}
    | {6.2, 6.3, 6.4, 6.6, 6.8, 7.0, 7.2, 7.3, 7.5, 7.6, 7.7, 8.5, 9.0, 9.5, 12.0}
)
ABOUT = (
    "Golden corpus: written by tests/golden/derive.py, never by hand. techniques and se_like: the reference "
    "solver's (tests/golden/reference.py) solve of the canonical string, null where it does not cover the puzzle. "
    "published_se: the source's Sudoku Explainer rating. canonical: the engine's canonical string, pinned; minlex and "
    "the two transforms: tests/golden/minlex.py. D: the documented formula evaluated by derive.py; d_inputs says "
    "which inputs are independent ('reference': se_fine, ln hodoku and ln effort per cell from the reference solve, "
    "the seed measures from the engine) or all the engine's ('engine': D pinned)."
)


def effort(taken: list[reference.Taken]) -> float:
    """docs/difficulty.md's effort: per step, its HoDoKu score times (p + 1) / (v + 1), v = 1 for a non-single."""
    total = 0.0
    for name, empty, fillable in taken:
        found = fillable if name in reference.SINGLES else 1
        total += reference.HODOKU[name] * (empty + 1) / (found + 1)
    return total


def widths(se_fine: float, base: float) -> tuple[float, float]:
    """How far the refinement may move D down and up: half the gap to the neighbouring ratings, clamped."""
    below = max((r for r in RATINGS if r < base), default=base - 2 * TIE_WIDTH)
    above = min((r for r in RATINGS if r > se_fine), default=se_fine + 2 * MAX_WIDTH)
    return (
        min(max((se_fine - below) / 2, TIE_WIDTH), MAX_WIDTH),
        min(max((above - se_fine) / 2, TIE_WIDTH), MAX_WIDTH),
    )


def d_of(vector: list[float], singles_only: bool, base: float) -> float:
    """D of a feature vector (docs/difficulty.md, How a puzzle is rated, points 3 and 4)."""
    if singles_only:
        share = (vector[7] - SINGLES_LOW) / (SINGLES_HIGH - SINGLES_LOW)
        return 1.0 + (SINGLES_TOP - 1.0) * min(max(share, 0.0), 0.999)
    z = (INTERCEPT + sum(w * x for w, x in zip(WEIGHTS[1:], vector[1:]))) / REFINEMENT_SD
    down, up = widths(vector[0], base)
    return vector[0] + (up if z > 0 else down) * math.tanh(z)


def reference_rating(canonical: str, pinned_vector: list[float]) -> dict[str, object] | None:
    """Counts, se_like and D from the reference solve of the canonical string (None when it is not covered)."""
    try:
        taken = reference.trace(canonical)
    except reference.Beyond:
        return None
    ratings = [reference.SE[name] for name, _, _ in taken]
    score = sum(reference.HODOKU[name] for name, _, _ in taken)
    se_fine = max(ratings)
    empty = canonical.count(".") + canonical.count("0")
    vector = [se_fine, math.log(max(score, 1)), *pinned_vector[2:7], math.log(max(effort(taken), 1.0) / empty)]
    singles_only = all(name in reference.SINGLES for name, _, _ in taken)
    return {
        "techniques": reference.counts(taken),
        "se_like": se_fine,
        "D": round(d_of(vector, singles_only, se_fine), 9),
        "d_inputs": "reference",
    }


def engine_rating(pinned: dict[str, object]) -> dict[str, object]:
    """D evaluated from the engine's own feature vector, for a puzzle the reference does not cover."""
    vector = [float(x) for x in pinned["vector"]]  # type: ignore[attr-defined]
    d = d_of(vector, bool(pinned["singles_only"]), float(pinned["base"]))  # type: ignore[arg-type]
    return {"techniques": None, "se_like": None, "D": round(d, 9), "d_inputs": "engine"}


def entry(row: dict[str, str], pinned: dict[str, object]) -> dict[str, object]:
    """One puzzle's golden record."""
    puzzle, canonical = row["puzzle"], str(pinned["canonical"])
    form, to_form = minlex.minlex(puzzle)
    canonical_form, canonical_to_form = minlex.minlex(canonical)
    if form != canonical_form:
        raise SystemExit(f"{row['name']}: the pinned canonical string is not an isomorph of the puzzle")
    rated = reference_rating(canonical, [float(x) for x in pinned["vector"]])  # type: ignore[attr-defined]
    published = float(row["published_se"]) if row["published_se"] else None
    if rated is not None and published is not None and abs(float(rated["se_like"]) - published) > SE_TOLERANCE:
        rated["se_gap"] = (
            "the reference's se_like differs from the published rating by more than the tolerance: Sudoku Explainer "
            "also has direct pointing, claiming and hidden subsets (a step that at once leaves a hidden single, "
            "rated 1.7-2.5 in Sudoku Explainer 1.2.1), which the catalogue has not"
        )
    return {
        "name": row["name"],
        "source": row["source"],
        "puzzle": puzzle,
        "published_se": float(row["published_se"]) if row["published_se"] else None,
        "published_se_below": float(row["published_se_below"]) if row["published_se_below"] else None,
        **(rated or engine_rating(pinned)),
        "canonical": canonical,
        "minlex": form,
        "puzzle_to_minlex": [to_form[0], list(to_form[1]), list(to_form[2])],
        "canonical_to_minlex": [canonical_to_form[0], list(canonical_to_form[1]), list(canonical_to_form[2])],
    }


def main() -> None:
    """Write golden.json from puzzles.tsv and the engine's pinned inputs."""
    with PUZZLES.open() as stream:
        rows = list(csv.DictReader(stream, delimiter="\t"))
    pinned = json.loads(PINNED.read_text())
    entries = [entry(row, pinned[row["puzzle"]]) for row in rows]
    fixture = {"about": ABOUT, "se_tolerance": SE_TOLERANCE, "d_tolerance": D_TOLERANCE, "puzzles": entries}
    FIXTURE.write_text(json.dumps(fixture, indent=1) + "\n")
    covered = sum(e["techniques"] is not None for e in entries)
    print(f"{len(entries)} puzzles, {covered} with reference counts -> {FIXTURE}")


if __name__ == "__main__":
    main()
