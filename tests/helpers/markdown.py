"""Reading the project's Markdown documents (ARCHITECTURE.md, docs/): a ``##`` section, a bold-titled paragraph."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
MAP = REPO / "ARCHITECTURE.md"


def section(text: str, title_start: str) -> str:
    """The text of the ``##`` section whose title starts with ``title_start``, from its heading to the next one."""
    start = text.index(f"\n## {title_start}")
    end = text.find("\n## ", start + 1)
    return text[start : end if end >= 0 else len(text)]


def paragraph(text: str, title: str) -> str:
    """The paragraph that opens with ``**title.**``."""
    start = text.index(f"**{title}.**")
    end = text.find("\n\n", start)
    return text[start : end if end >= 0 else len(text)]
