"""sudoku_engine: solve, rate, explain and generate Sudoku puzzles.

ARCHITECTURE.md at the repository root is the map; the import contracts of pyproject.toml (``[tool.importlinter]``)
hold its layers.
"""

from .grid import Grid, InvalidPuzzle, cell_name, parse_cell
from .hints import hint
from .rating import rate
from .solver import count_solutions, count_solutions_many, is_unique, solve

__all__ = [
    "Grid",
    "InvalidPuzzle",
    "cell_name",
    "count_solutions",
    "count_solutions_many",
    "hint",
    "is_unique",
    "parse_cell",
    "rate",
    "solve",
]
