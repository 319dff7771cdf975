"""ARCHITECTURE.md's "Adding a technique", followed in a temporary copy of the engine: a toy technique in a family
module of its own and its catalogue row are all it takes for the technique to be registered, taken by the logic
solver, counted by the rating and given as a hint.

The toy is the naked single under another name, rated 1.1 (between Full House and Hidden Single), so that it
applies on an easy puzzle before any other technique but the full house. It runs on the Python backend: the copy
has no compiled kernels, and the compiled finders are step 4 of the guide, not needed for a technique to work.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from helpers.markdown import MAP, section

ROOT = Path(__file__).resolve().parents[2]
EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
TOY_MODULE = '''"""A toy family: the naked single under another name (the guide's test)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from ..board import Board, Step
from .singles import naked_single


def toy_single(board: Board) -> Iterator[Step]:
    """Every naked single, as the toy technique's step."""
    for step in naked_single(board):
        yield replace(step, technique="toy_single", text="Toy single: " + step.text)
'''
TOY_ROW = '    _t("toy_single", "Toy Single", "toy", 4, "Easy", 1.1, 1),\n'
PROBE = f"""
import json
from sudoku_engine.hints import hint
from sudoku_engine.logic import solve
from sudoku_engine.rating import rate
from sudoku_engine.techniques import BY_ID
entry = BY_ID["toy_single"]
trace = solve({EASY!r})
print(json.dumps({{
    "family": entry.family,
    "module": entry.module,
    "solved": trace.solved,
    "trace": [step.technique for step in trace.steps],
    "rated": rate({EASY!r}).techniques,
    "hint": hint({EASY!r}).technique,
}}))
"""


def guide() -> str:
    """The guide's text."""
    return section(MAP.read_text(encoding="utf-8"), "Adding a technique")


def engine_copy(tmp_path: Path) -> Path:
    """A copy of the engine's sources with the toy technique added as the guide says (steps 1 and 2)."""
    engine = tmp_path / "sudoku_engine"
    shutil.copytree(ROOT / "sudoku_engine", engine, ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc"))
    (engine / "techniques" / "toy.py").write_text(TOY_MODULE, encoding="utf-8")
    catalogue = engine / "techniques" / "__init__.py"
    text = catalogue.read_text(encoding="utf-8")
    after = text.index("\n", text.index('_t("full_house"')) + 1
    catalogue.write_text(text[:after] + TOY_ROW + text[after:], encoding="utf-8")
    return tmp_path


def probe(copy: Path) -> dict[str, object]:
    """What the copied engine says of the toy technique, run in a fresh interpreter."""
    env = {**os.environ, "PYTHONPATH": str(copy), "SUDOKU_ENGINE_BACKEND": "python"}
    run = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=copy, env=env, capture_output=True, text=True, timeout=600, check=False
    )
    assert run.returncode == 0, run.stderr[-3000:]
    found: dict[str, object] = json.loads(run.stdout.strip().splitlines()[-1])
    return found


def test_the_guide_says_what_the_catalogue_and_the_tests_need() -> None:
    """The finder is looked up by the technique's id; every technique has a seed 002 family and every family a
    guide page (tests/metrics/test_hsolve.py and tests/web/test_hint_words.py ask for them)."""
    text = guide()
    for needed in ("named by the technique's id", "`techniques/__init__.py`", "`FAMILIES`", "`webapp/games/guide.py`"):
        assert needed in text


def test_a_toy_technique_added_as_the_guide_says_is_registered_solved_rated_and_hinted(tmp_path: Path) -> None:
    found = probe(engine_copy(tmp_path))
    assert found["family"] == "toy" and found["module"] == "toy"
    trace = found["trace"]
    assert isinstance(trace, list) and found["solved"]
    assert "toy_single" in trace and "naked_single" not in trace, "the toy takes every naked single first"
    rated = found["rated"]
    assert isinstance(rated, dict) and rated.get("toy_single", 0) == trace.count("toy_single")
    assert found["hint"] == "toy_single", "the start has no full house: the toy is the easiest step there"


def test_without_its_catalogue_row_the_toy_is_not_there(tmp_path: Path) -> None:
    copy = engine_copy(tmp_path)
    catalogue = copy / "sudoku_engine" / "techniques" / "__init__.py"
    catalogue.write_text(catalogue.read_text(encoding="utf-8").replace(TOY_ROW, ""), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(copy), "SUDOKU_ENGINE_BACKEND": "python"}
    run = subprocess.run(
        [sys.executable, "-c", "from sudoku_engine.techniques import BY_ID; print('toy_single' in BY_ID)"],
        cwd=copy,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert run.stdout.strip() == "False"
