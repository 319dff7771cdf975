"""The settings table of ``webapp.config``: every setting is documented in ``docs/webapp.md`` with its environment
variable, and every kind of value is parsed the same way for every setting."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from webapp import config

DOCS = Path(__file__).resolve().parents[2] / "docs" / "webapp.md"
SWITCHES = [s for s in config.SETTINGS if s.parse is config.switch]


def documented_rows() -> dict[str, str]:
    """The settings table of docs/webapp.md: each setting name in its first column, with its whole row."""
    section = DOCS.read_text().split("## Settings", 1)[1].split("\n## ", 1)[0]
    rows: dict[str, str] = {}
    for line in section.splitlines():
        if line.startswith("| `"):
            for key in re.findall(r"`([A-Z_]+)`", line.split("|")[1]):
                rows[key] = line
    return rows


def test_every_setting_is_documented_with_its_environment_variable() -> None:
    rows = documented_rows()
    missing = [s.key for s in config.SETTINGS if s.key not in rows or f"`{s.env}`" not in rows[s.key]]
    assert missing == []


def test_every_documented_setting_exists() -> None:
    known = set(config.BY_KEY) | set(config.FIXED) | {"READ_ONLY_GETS"}
    assert sorted(set(documented_rows()) - known) == []


@pytest.mark.parametrize("setting", SWITCHES, ids=[s.env for s in SWITCHES])
@pytest.mark.parametrize(
    ("word", "value"),
    [
        ("on", True),
        ("Yes", True),
        ("1", True),
        ("TRUE", True),
        ("off", False),
        ("no", False),
        ("0", False),
        ("False", False),
    ],
)
def test_every_switch_takes_the_same_words(setting: config.Setting, word: str, value: bool) -> None:
    assert config.read(setting, {setting.env: word}) is value


@pytest.mark.parametrize("setting", SWITCHES, ids=[s.env for s in SWITCHES])
def test_every_switch_refuses_other_words_by_name(setting: config.Setting) -> None:
    with pytest.raises(ValueError, match=f"^{setting.env} must be 1 or 0"):
        config.read(setting, {setting.env: "maybe"})


def test_a_blank_variable_is_unset() -> None:
    found = config.from_environment({s.env: "  " for s in config.SETTINGS})
    assert found == {s.key: s.default for s in config.SETTINGS}


@pytest.mark.parametrize(
    ("env", "text", "expected"),
    [
        ("SUDOKU_PROXY_HOPS", "2", 2),
        ("SUDOKU_POOL_TOLERANCE", "0.5", 0.5),
        ("SUDOKU_POOL_REFILL_UPTO", "3", 3),
        ("SUDOKU_ALLOWED_HOSTS", "a.example, .b.example,", ["a.example", ".b.example"]),
        ("SUDOKU_REDIS_URL", " redis://h:6379/0 ", "redis://h:6379/0"),
    ],
)
def test_values_are_read_as_their_kind(env: str, text: str, expected: object) -> None:
    setting = next(s for s in config.SETTINGS if s.env == env)
    assert config.read(setting, {env: text}) == expected


@pytest.mark.parametrize(
    ("env", "text"),
    [
        ("SUDOKU_PROXY_HOPS", "-1"),
        ("SUDOKU_POOL_REFILL_BELOW", "0"),
        ("SUDOKU_POOL_TOLERANCE", "nan"),
        ("SUDOKU_POOL_GENERATE_BUDGET_S", "soon"),
    ],
)
def test_bad_numbers_are_refused_by_name(env: str, text: str) -> None:
    setting = next(s for s in config.SETTINGS if s.env == env)
    with pytest.raises(ValueError, match=f"^{env} must be"):
        config.read(setting, {env: text})
