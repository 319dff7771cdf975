"""Dependencies: every requirement in pyproject.toml has an upper bound, and requirements/deploy.lock pins a version
of every requirement of the deployed app that its specifier allows."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
DEPLOYED_EXTRAS = ("web", "fast", "analysis", "postgres", "redis")
PIN = re.compile(r"^([A-Za-z0-9._-]+)==([A-Za-z0-9.+!-]+)$")


def project() -> dict[str, object]:
    """The [project] table of pyproject.toml."""
    table: dict[str, object] = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return table


def requirements(extras: tuple[str, ...] | None = None) -> list[Requirement]:
    """The requirements of the base package and of the extras (all extras when None), the project itself left out."""
    table = project()
    optional: dict[str, list[str]] = table["optional-dependencies"]  # type: ignore[assignment]
    texts: list[str] = list(table["dependencies"])  # type: ignore[call-overload]
    for name, listed in optional.items():
        if extras is None or name in extras:
            texts += listed
    found = [Requirement(text) for text in texts]
    return [r for r in found if canonicalize_name(r.name) != "sudoku-lab"]


def pins() -> dict[str, str]:
    """The lock file's versions by normalised name."""
    found: dict[str, str] = {}
    for line in (ROOT / "requirements" / "deploy.lock").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            match = PIN.match(line.strip())
            assert match, f"not NAME==VERSION: {line!r}"
            found[canonicalize_name(match.group(1))] = match.group(2)
    return found


def test_every_requirement_has_an_upper_bound() -> None:
    unbounded = [str(r) for r in requirements() if not any(s.operator in ("<", "<=", "==", "~=") for s in r.specifier)]
    build = tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]["requires"]
    unbounded += [text for text in build if "<" not in text]
    assert unbounded == []


def test_the_lock_pins_every_deployed_requirement_within_its_bounds() -> None:
    locked = pins()
    wrong = [
        f"{r} (locked: {locked.get(canonicalize_name(r.name))})"
        for r in requirements(DEPLOYED_EXTRAS)
        if canonicalize_name(r.name) not in locked or locked[canonicalize_name(r.name)] not in r.specifier
    ]
    assert wrong == []
