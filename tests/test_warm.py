"""``sudoku-engine warm`` leaves no kernel to compile: in a fresh numba cache folder, after ``warm_every_kernel``,
every numba dispatcher the package defines has a compiled signature (so no request ever waits on a compilation)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("numba")

LIST_UNCOMPILED = """
import importlib, json, pkgutil
import sudoku_engine
from sudoku_engine.warm import is_warm, warm
from numba.core.registry import CPUDispatcher

assert not is_warm()
warm()
found, uncompiled = 0, []
for info in pkgutil.walk_packages(sudoku_engine.__path__, "sudoku_engine."):
    if info.name.endswith("__main__"):
        continue  # running it is the command line
    module = importlib.import_module(info.name)
    for name, value in vars(module).items():
        if isinstance(value, CPUDispatcher) and value.py_func.__module__ == info.name:
            found += 1
            if not value.signatures:
                uncompiled.append(f"{info.name}.{name}")
print(json.dumps({"found": found, "uncompiled": uncompiled, "stamped": is_warm()}))
"""


def test_warm_compiles_every_kernel_of_the_package(tmp_path: Path) -> None:
    environment = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba-cache")}
    environment.pop("SUDOKU_ENGINE_BACKEND", None)
    done = subprocess.run(
        [sys.executable, "-c", LIST_UNCOMPILED], capture_output=True, text=True, env=environment, timeout=1800
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["found"] >= 90  # the search, the finders, the nets and the call count's kernels
    assert result["uncompiled"] == []
    assert result["stamped"]  # so a server started next knows without compiling anything


def test_the_stamp_says_warm_only_for_the_sources_it_was_written_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sudoku_engine import warm

    package = tmp_path / "package"
    package.mkdir()
    source = package / "kernel.py"
    source.write_text("X = 1\n")
    monkeypatch.setattr(warm, "PACKAGE", package)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))
    assert not warm.is_warm()  # no stamp yet
    assert warm.write_stamp() and warm.is_warm()
    source.write_text("X = 22\n")  # another size: numba would compile this file's kernels again
    assert not warm.is_warm()
    assert warm.write_stamp() and warm.is_warm()
    (package / "new.py").write_text("")
    assert not warm.is_warm()


def test_warm_check_answers_from_the_stamp(tmp_path: Path) -> None:
    environment = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "empty-cache")}
    done = subprocess.run(
        [sys.executable, "-m", "sudoku_engine", "warm", "--check"], capture_output=True, text=True, env=environment
    )
    assert done.returncode == 1, done.stderr
    assert done.stdout.strip() == "engine kernels not compiled for these sources yet"
