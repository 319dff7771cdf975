"""Record what only the engine can give the golden corpus (tests/golden/engine_inputs.json), for derive.py.

Per puzzle of puzzles.tsv: the engine's canonical string (pinned, so that a change of the canonical labelling is
caught; derive.py accepts it only as a proven isomorph) and the feature vector D was computed from (derive.py reads
the seed measures from it, and for a puzzle its reference does not cover, every input). Nothing else of the
engine's output reaches the fixture. Run from the repository root: ``python tests/golden/pin_engine.py``.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

from sudoku_engine.grid import format_values, parse_values
from sudoku_engine.isomorph import canonical
from sudoku_engine.rating import rate

HERE = Path(__file__).resolve().parent


def pinned(puzzle: str) -> dict[str, object]:
    """The engine's canonical string and D's feature vector for one puzzle."""
    rating = rate(puzzle)
    return {
        "canonical": format_values(canonical(parse_values(puzzle))),
        "vector": list(rating.vector),
        "singles_only": rating.singles_only,
        "base": rating.base,
    }


def main() -> None:
    """Write engine_inputs.json for every puzzle of puzzles.tsv."""
    with (HERE / "puzzles.tsv").open() as stream:
        puzzles = [row["puzzle"] for row in csv.DictReader(stream, delimiter="\t")]
    inputs = {puzzle: pinned(puzzle) for puzzle in puzzles}
    (HERE / "engine_inputs.json").write_text(json.dumps(inputs, indent=1) + "\n")
    print(f"{len(inputs)} puzzles -> {HERE / 'engine_inputs.json'}")


if __name__ == "__main__":
    main()
