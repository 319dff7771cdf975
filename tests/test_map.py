"""ARCHITECTURE.md names every module, template and static file of the project, and nothing that is not there.

The map's "Modules" section is read as its tables: each row's first cell names files and folders in backticks,
relative to the table's folder (given in backticks in its heading). A name without a folder takes the folder of
the name before it in the same cell (`techniques/singles.py`, `intersections.py`). A folder (a name ending in
``/``) stands for the files in it only where they are named in its row too, or for the few folders kept whole
(migrations, the seed set's data, vendored copies).
"""

from __future__ import annotations

import argparse
import ast
import re
import subprocess
from pathlib import Path

import pytest
from helpers.markdown import MAP, section

ROOT = Path(__file__).resolve().parent.parent
MAPPED = ("sudoku_engine/", "webapp/", "templates/", "static/")  # the trees every file of which the map names
WHOLE = ("webapp/migrations/", "webapp/bank/seed_bank/", "static/vendor/")  # named as a folder, not file by file
NAME = re.compile(r"`([^`\s]+)`")


def tables(modules: str) -> list[tuple[str, list[list[str]]]]:
    """Each ``###`` table of the section: its folder (from the heading's backticks, '' without) and its rows' cells."""
    found: list[tuple[str, list[list[str]]]] = []
    for part in modules.split("\n### ")[1:]:
        heading, _, body = part.partition("\n")
        folder = NAME.search(heading)
        rows = [
            [cell.strip() for cell in line.strip().strip("|").split("|")]
            for line in body.splitlines()
            if line.startswith("|") and not line.startswith("|---")
        ][1:]  # the first row is the header
        found.append((folder.group(1) if folder else "", rows))
    return found


def names_of_row(folder: str, cells: list[str]) -> set[str]:
    """The paths a row names: its first cell's names, and the files of a folder there that its text names too."""
    named: set[str] = set()
    prefix = folder
    for name in NAME.findall(cells[0]):
        if "/" in name.rstrip("/"):
            prefix = folder + name.rstrip("/").rsplit("/", 1)[0] + "/"
            path = folder + name
        else:
            path = prefix + name
        named.add(path)
    mentioned = set(NAME.findall(" ".join(cells[1:])))
    for path in [p for p in named if p.endswith("/")]:
        named.update(path + name for name in mentioned if "/" not in name)
    return named


def map_names(text: str | None = None) -> set[str]:
    """Every path the map's module tables name (of ``text``, the map's own by default)."""
    named: set[str] = set()
    for folder, rows in tables(section(MAP.read_text(encoding="utf-8") if text is None else text, "Modules\n")):
        for cells in rows:
            named |= names_of_row(folder, cells)
    return named


def tracked_files() -> list[str]:
    """The files git keeps under the mapped trees."""
    listed = subprocess.run(
        ["git", "ls-files", *MAPPED], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    return sorted(path for path in listed if (ROOT / path).is_file())


def covered(path: str, named: set[str]) -> bool:
    """Whether the map names a file: itself, or a folder kept whole that holds it."""
    return path in named or any(path.startswith(whole) and whole in named for whole in WHOLE)


def test_the_map_names_every_module_template_and_static_file() -> None:
    if not (ROOT / ".git").exists():
        pytest.skip("needs the git checkout (the list of files git keeps)")
    named = map_names()
    missing = [path for path in tracked_files() if not covered(path, named)]
    assert not missing, f"ARCHITECTURE.md does not name these files: {missing}"


def test_the_map_names_nothing_that_is_not_there() -> None:
    stale = sorted(path for path in map_names() if not (ROOT / path).exists())
    assert not stale, f"ARCHITECTURE.md names files that do not exist: {stale}"


def test_a_row_names_files_relative_to_its_folder_and_the_name_before() -> None:
    row = ["`techniques/singles.py`, `intersections.py`", "what"]
    assert names_of_row("sudoku_engine/", row) == {
        "sudoku_engine/techniques/singles.py",
        "sudoku_engine/techniques/intersections.py",
    }
    folder_row = ["`play/`", "pages (`inputs.py` parses what a player sends)"]
    assert names_of_row("webapp/", folder_row) == {"webapp/play/", "webapp/play/inputs.py"}


def test_a_file_left_out_of_the_map_is_reported() -> None:
    drifted = MAP.read_text(encoding="utf-8").replace("`deadline.py`", "`deadline_gone.py`", 1)
    assert drifted != MAP.read_text(encoding="utf-8")
    assert not covered("sudoku_engine/deadline.py", map_names(drifted))
    assert covered("sudoku_engine/deadline.py", map_names())


# the packages whose docstring is their table of contents (the top packages' are their public API and app factory)
PACKAGES = ("sudoku_engine/metrics", "sudoku_engine/techniques") + tuple(
    f"webapp/{name}" for name in ("bank", "games", "play", "research", "study")
)


@pytest.mark.parametrize("package", PACKAGES)
def test_a_package_docstring_names_each_of_its_modules(package: str) -> None:
    folder = ROOT / package
    text = ast.get_docstring(ast.parse((folder / "__init__.py").read_text(encoding="utf-8"))) or ""
    modules = sorted(path.stem for path in folder.glob("*.py") if path.stem != "__init__")
    named = set(re.findall(r"``(\w+)``", text))
    missing = [module for module in modules if module not in named]
    assert not missing, f"{package}/__init__.py's docstring does not name {missing}"


def test_the_map_names_every_command_of_the_command_line() -> None:
    from sudoku_engine import cli

    row = next(line for line in MAP.read_text(encoding="utf-8").splitlines() if line.startswith("| `__main__.py`"))
    commands = next(
        action for action in cli.build_parser()._actions if isinstance(action, argparse._SubParsersAction)
    ).choices
    missing = [name for name in commands if f"`{name}`" not in row]
    assert not missing, f"the map's cli.py line does not name {missing}"


def test_test_modules_share_helpers_only_through_the_helpers_package() -> None:
    """What the map says of tests/: no test module imports another test module (shared code lives in helpers)."""
    found = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        if "vendor" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            names += [alias.name for alias in node.names] if isinstance(node, ast.Import) else []
            found += [
                f"{path.relative_to(ROOT)} imports {name}" for name in names if name.split(".")[-1].startswith("test_")
            ]
    assert found == []
