"""Parsing of what a player sends (slider, cell name, digit, client clock); ValueError says what is wrong."""

from __future__ import annotations

import math

from sudoku_engine.grid import parse_cell


def parse_slider(text: str | None) -> float:
    """The difficulty slider value, a number from 0 to 100."""
    if text is None or not text.strip():
        raise ValueError("The difficulty slider value is missing: send a number from 0 to 100.")
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"The difficulty slider value {text!r} is not a number from 0 to 100.") from None
    if not math.isfinite(value) or not 0 <= value <= 100:
        raise ValueError(f"The difficulty slider value {text!r} is outside 0 to 100.")
    return value


def parse_cell_name(name: str | None) -> int:
    """The cell named r1c1..r9c9."""
    try:
        return parse_cell(name or "")
    except ValueError:
        raise ValueError(f"{name!r} is not a cell name: cells are named r1c1 to r9c9.") from None


def parse_digit(text: str | None) -> int:
    """A digit 1-9 to enter, or 0 to clear (sent as 0 or left empty)."""
    value = (text or "").strip()
    if value in ("", "0"):
        return 0
    if len(value) == 1 and "1" <= value <= "9":
        return int(value)
    raise ValueError(f"{text!r} is not a digit: send 1 to 9, or 0 or nothing to clear the cell.")


def parse_client_ms(text: str | None) -> float | None:
    """The client's performance.now() in milliseconds, if sent."""
    if text is None or not text.strip():
        return None
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"client_ms {text!r} is not a number of milliseconds.") from None
    if not math.isfinite(value) or value < 0:
        raise ValueError(f"client_ms {text!r} is not a non-negative number of milliseconds.")
    return value


MODES = ("digit", "corner", "centre")
SELECTION_MODES = ("digit", "corner", "centre", "colour")
KEY_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")


def parse_mode(text: str | None) -> str:
    """The entry mode: digit (the default), corner or centre."""
    value = (text or "digit").strip()
    if value not in MODES:
        raise ValueError(f"{text!r} is not an entry mode: send digit, corner or centre.")
    return value


def parse_selection_mode(text: str | None) -> str:
    """The entry mode of an action on selected cells: digit (the default), corner, centre or colour."""
    value = (text or "digit").strip()
    if value not in SELECTION_MODES:
        raise ValueError(f"{text!r} is not an entry mode: send digit, corner, centre or colour.")
    return value


def parse_cells(text: str | None) -> tuple[int, ...]:
    """Selected cells as names separated by commas ("r1c1,r1c2"): 1 to 81 distinct cells, in the order sent."""
    names = [name.strip() for name in (text or "").split(",")]
    if not text or not 1 <= len(names) <= 81:
        raise ValueError("Send the selected cells as 1 to 81 cell names separated by commas, such as r1c1,r1c2.")
    cells = tuple(dict.fromkeys(parse_cell_name(name) for name in names))
    if len(cells) != len(names):
        raise ValueError("A cell is named twice in the selection.")
    return cells


def parse_key(text: str | None) -> str | None:
    """The client's idempotency key for an action: up to 64 letters, digits, '-' or '_', if sent."""
    if text is None or not text:
        return None
    if len(text) > 64 or not set(text) <= KEY_CHARS:
        raise ValueError("The action key must be 1 to 64 letters, digits, '-' or '_'.")
    return text


def parse_switch(text: str | None) -> bool:
    """An on/off setting sent as 1/0, on/off or true/false."""
    value = (text or "").strip().lower()
    if value in ("1", "on", "true"):
        return True
    if value in ("0", "off", "false"):
        return False
    raise ValueError(f"{text!r} is not a switch value: send on or off.")


def parse_pause_reason(text: str | None) -> str:
    """Why the game pauses: the pause button (the default) or the tab being hidden."""
    value = (text or "button").strip()
    if value not in ("button", "hidden"):
        raise ValueError(f"{text!r} is not a pause reason: send button or hidden.")
    return value


def parse_view(text: str | None) -> str:
    """A page view id as the game page sends it: 1 to 32 letters, digits, '-' or '_'."""
    value = text or ""
    if not 1 <= len(value) <= 32 or not all(ch.isascii() and (ch.isalnum() or ch in "-_") for ch in value):
        raise ValueError("The page view id is missing or malformed: reload the page.")
    return value
