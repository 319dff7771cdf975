"""The direction of imports: ``lint-imports`` keeps every contract of pyproject.toml (``[tool.importlinter]``) on
the source tree, and breaks each contract on a copy of the tree given one import that contract forbids."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = REPO_ROOT / "pyproject.toml"
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"
CONTRACTS: list[dict[str, Any]] = tomllib.loads(PYPROJECT.read_text())["tool"]["importlinter"]["contracts"]
PACKAGES = ("sudoku_engine", "webapp")


@dataclass(frozen=True)
class Violation:
    """An import a contract forbids: the line added to a module, and the import the report must name."""

    contract: str
    module: str
    line: str
    names: str


VIOLATIONS = (
    Violation("engine-without-webapp", "sudoku_engine/grid.py", "import webapp", "sudoku_engine.grid -> webapp"),
    Violation(
        "engine-layers",
        "sudoku_engine/slider.py",
        "from .generate import DEFAULT_TOLERANCE as _TOLERANCE",
        "sudoku_engine.slider -> sudoku_engine.generate",
    ),
    Violation(
        "technique-kernels",
        "sudoku_engine/techniques/_finders_numba.py",
        "from .intersections import pointing",
        "sudoku_engine.techniques._finders_numba -> sudoku_engine.techniques.intersections",
    ),
    Violation(
        "metric-measures",
        "sudoku_engine/metrics/findling.py",
        "from .simonis import SCHEMES",
        "sudoku_engine.metrics.findling -> sudoku_engine.metrics.simonis",
    ),
    Violation(
        "webapp-blueprints",
        "webapp/play/views.py",
        "from ..study.views import open_study",
        "webapp.play.views -> webapp.study.views",
    ),
    Violation(
        "webapp-layers", "webapp/games/store.py", "from ..play import bp as _play", "webapp.games.store -> webapp.play"
    ),
    Violation(
        "webapp-bank",
        "webapp/bank/pool.py",
        "from .seed import SEED_FILE as _SEED_FILE",
        "webapp.bank.pool -> webapp.bank.seed",
    ),
    Violation(
        "webapp-games",
        "webapp/games/store.py",
        "from .hints import RUNGS as _RUNGS",
        "webapp.games.store -> webapp.games.hints",
    ),
    Violation(
        "webapp-study",
        "webapp/study/studies.py",
        "from .preparing import JOB as _JOB",
        "webapp.study.studies -> webapp.study.preparing",
    ),
    Violation(
        "webapp-research",
        "webapp/research/report.py",
        "from .exports import long_csv as _long_csv",
        "webapp.research.report -> webapp.research.exports",
    ),
)


def lint_imports(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` with the repository's contracts on the packages found from ``cwd`` (it looks there
    first), with lines wide enough that no import is broken over two."""
    command = [str(LINT_IMPORTS), "--config", str(PYPROJECT), "--no-cache", *args]
    return subprocess.run(
        command, cwd=cwd, env={**os.environ, "COLUMNS": "400"}, capture_output=True, text=True, check=False
    )


def test_every_contract_is_kept() -> None:
    result = lint_imports(REPO_ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"Contracts: {len(CONTRACTS)} kept, 0 broken." in result.stdout


def test_every_contract_has_a_violation_below() -> None:
    assert sorted(v.contract for v in VIOLATIONS) == sorted(contract["id"] for contract in CONTRACTS)


@pytest.mark.parametrize("violation", VIOLATIONS, ids=lambda v: v.contract)
def test_a_forbidden_import_breaks_its_contract(violation: Violation, tmp_path: Path) -> None:
    for package in PACKAGES:
        shutil.copytree(REPO_ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    with (tmp_path / violation.module).open("a") as module:
        module.write(f"\n{violation.line}  # noqa\n")
    result = lint_imports(tmp_path, "--contract", violation.contract)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Contracts: 0 kept, 1 broken." in result.stdout
    assert violation.names in result.stdout
