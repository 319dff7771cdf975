"""Write the worked examples of the technique pages: one real position per technique family, with its step.

Walks the logic solver's path through the shipped seed set (``webapp/bank/seed_bank/hardest.jsonl``, the hardest
puzzles, whose paths pass through nearly every family). At each position the solver's own next step is the example
of its family when that family has none yet; families the paths never take (a hint would take an easier step
first) are looked for with their own finders at positions without a single. The first example of a family found
is kept. Writes ``webapp/games/technique_examples.json``; ``tests/web/test_technique_pages.py`` checks that each
stored step is still found on its position and agrees with the puzzle's solution.

    PYTHONPATH=. .venv/bin/python scripts/technique_examples.py [--puzzles N]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from sudoku_engine.board import Board, Step
from sudoku_engine.grid import format_values, parse_values
from sudoku_engine.logic import next_step
from sudoku_engine.techniques import BY_ID, CATALOGUE
from sudoku_engine.techniques.singles import single_cells

ROOT = Path(__file__).resolve().parents[1]
SEED = ROOT / "webapp" / "bank" / "seed_bank" / "hardest.jsonl"
OUT = ROOT / "webapp" / "games" / "technique_examples.json"
FAMILIES = tuple(dict.fromkeys(t.family for t in CATALOGUE))


def record(puzzle: str, board: Board, step: Step) -> dict[str, object]:
    """One example as the fixture stores it: the puzzle, the position (digits and candidates) and the step."""
    return {
        "family": BY_ID[step.technique].family,
        "technique": step.technique,
        "puzzle": puzzle,
        "position": format_values(board.values),
        "candidates": list(board.cands),
        "placements": [list(pair) for pair in step.placements],
        "eliminations": [list(pair) for pair in step.eliminations],
        "cause": [list(pair) for pair in step.cause],
        "cells": list(step.cells),
        "units": list(step.units),
        "text": step.text,
    }


def found_by_finder(board: Board, family: str) -> Step | None:
    """The first application, in catalogue order, of a technique of this family on the board."""
    for entry in CATALOGUE:
        if entry.family == family:
            step = next((s for s in entry.find(board) if s.is_progress), None)
            if step is not None:
                return step
    return None


def walk(puzzle: str, examples: dict[str, dict[str, object]]) -> None:
    """Follow the solver's path through one puzzle, keeping an example for each family not yet covered."""
    board = Board.from_values(parse_values(puzzle))
    while not board.is_solved and len(examples) < len(FAMILIES):
        step = next_step(board)
        if step is None:
            return
        family = BY_ID[step.technique].family
        if family not in examples:
            examples[family] = record(puzzle, board, step)
        if not single_cells(board):
            for missing in (f for f in FAMILIES if f not in examples and f != "singles"):
                other = found_by_finder(board.copy(), missing)
                if other is not None:
                    examples[missing] = record(puzzle, board, other)
        board.apply(step)


def main(argv: list[str] | None = None) -> int:
    """Build the examples and write them in catalogue order of their families."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--puzzles", type=int, default=20, help="seed puzzles to walk at most")
    args = parser.parse_args(argv)
    examples: dict[str, dict[str, object]] = {}
    lines = SEED.read_text().splitlines()[: args.puzzles]
    for number, line in enumerate(lines, 1):
        walk(json.loads(line)["puzzle"], examples)
        print(f"puzzle {number}: {len(examples)} of {len(FAMILIES)} families", file=sys.stderr, flush=True)
        if len(examples) == len(FAMILIES):
            break
    ordered = [examples[f] for f in FAMILIES if f in examples]
    OUT.write_text(json.dumps(ordered, indent=1) + "\n")
    missing = [f for f in FAMILIES if f not in examples]
    print(f"wrote {len(ordered)} examples to {OUT}" + (f"; none for {', '.join(missing)}" if missing else ""))
    return 1 if missing else 0


if __name__ == "__main__":
    raise SystemExit(main())
