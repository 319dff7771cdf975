"""``scripts/install.py``: pip install with a progress line, pip's own output only when the install fails; run in
a new virtual environment on a tiny local wheel (no index reached)."""

from __future__ import annotations

import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "install.py"
WHEEL_FILES = {
    "tiny_example/__init__.py": "VALUE = 7\n",
    "tiny_example.pkg-1.0.dist-info/METADATA": "Metadata-Version: 2.1\nName: tiny-Example.pkg\nVersion: 1.0\n",
    "tiny_example.pkg-1.0.dist-info/WHEEL": (
        "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    ),
}


@pytest.fixture(scope="module")
def python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The Python of a new virtual environment with pip."""
    folder = tmp_path_factory.mktemp("venv")
    venv.create(folder, with_pip=True)
    return folder / "bin" / "python"


def tiny_wheel(folder: Path) -> Path:
    """A wheel of one small pure-Python package, written by hand (its RECORD lists the files without hashes)."""
    path = folder / "tiny_example.pkg-1.0-py3-none-any.whl"
    record = "tiny_example.pkg-1.0.dist-info/RECORD"
    with zipfile.ZipFile(path, "w") as wheel:
        for name, text in WHEEL_FILES.items():
            wheel.writestr(name, text)
        wheel.writestr(record, "".join(f"{name},,\n" for name in [*WHEEL_FILES, record]))
    return path


def install(python: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    """Run the script with the environment's Python."""
    command = [str(python), str(SCRIPT), "--no-index", *arguments]
    return subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)


def test_an_install_shows_progress_and_counts_what_it_installed(python: Path, tmp_path: Path) -> None:
    done = install(python, str(tiny_wheel(tmp_path)))
    assert done.returncode == 0, done.stderr
    assert "installing the packages: done, 1 installed" in done.stderr
    assert "Successfully installed" not in done.stdout + done.stderr  # pip's own lines are kept back
    imported = subprocess.run([python, "-c", "import tiny_example; print(tiny_example.VALUE)"], capture_output=True)
    assert imported.stdout.strip() == b"7"


def test_a_failed_install_says_so_and_shows_what_pip_said(python: Path, tmp_path: Path) -> None:
    done = install(python, str(tmp_path / "no-such-project"))
    assert done.returncode != 0
    assert "installing the packages: failed (exit code" in done.stderr
    assert "no-such-project" in done.stderr  # pip's message, passed on


def test_the_bar_counts_the_named_packages_installed_since_the_start(tmp_path: Path) -> None:
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        import install as script
    finally:
        sys.path.remove(str(SCRIPT.parent))
    (tmp_path / "flask_limiter-4.1.1.dist-info").mkdir()
    (tmp_path / "other-1.0.dist-info").mkdir()
    assert script.normalised("Flask-Limiter") == "flask_limiter"
    assert script.installed_since(tmp_path, {"flask_limiter", "numpy"}, 0.0) == 1
    assert script.installed_since(tmp_path, {"flask_limiter"}, 4e9) == 0  # made before the start: not counted
