"""A study's consent text: Markdown rendered safely, its clauses, and the plain-text copy a participant downloads.

The researcher writes the consent text in Markdown (CommonMark). Each item of a top-level list (``- ...`` or
``1. ...``) is a clause the participant ticks before Agree is accepted; everything else is shown as written. The
rendering never lets HTML through: raw HTML is shown as text, images are not drawn (a study page loads nothing
from another origin), and a link is a link only when it goes to an http(s) or mailto address (``javascript:``,
``data:`` and the like stay text).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from urllib.parse import urlsplit

from markdown_it import MarkdownIt
from markdown_it.token import Token

SAFE_SCHEMES = ("http", "https", "mailto")
LIST_OPENS = ("bullet_list_open", "ordered_list_open")
MARKER = re.compile(r"^\s*(?:[-*+]|\d{1,9}[.)])\s*")


@dataclass(frozen=True)
class Part:
    """A piece of the rendered consent text: HTML shown as it is, or a clause (its HTML) with a checkbox."""

    html: str
    clause: bool = False


def is_safe_link(url: str) -> bool:
    """Whether a link may go into the page: an http(s) or mailto address with no control characters."""
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in url):
        return False
    try:
        scheme = urlsplit(url.strip()).scheme.lower()
    except ValueError:
        return False
    return scheme in SAFE_SCHEMES


class SafeMarkdown(MarkdownIt):
    """CommonMark whose links go only to safe addresses (``is_safe_link``)."""

    def validateLink(self, url: str) -> bool:  # markdown-it calls it by this name
        """Whether a link's address may become a link."""
        return is_safe_link(url)


@cache
def markdown() -> MarkdownIt:
    """The one CommonMark parser: raw HTML off, images off, links only to safe addresses."""
    return SafeMarkdown("commonmark", {"html": False}).disable("image")


def render(text: str) -> str:
    """Markdown as safe HTML (for a whole text without clauses)."""
    return str(markdown().render(text))


def parts(text: str) -> list[Part]:
    """The consent text as HTML pieces, each top-level list item a clause of its own."""
    parser = markdown()
    tokens = parser.parse(text)
    found: list[Part] = []
    plain: list[Token] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        if token.level == 0 and token.type in LIST_OPENS:
            if plain:
                found.append(Part(str(parser.renderer.render(plain, parser.options, {}))))
                plain = []
            end = _closing(tokens, index)
            found += [Part(html, clause=True) for html in _items(parser, tokens[index + 1 : end])]
            index = end + 1
            continue
        plain.append(token)
        index += 1
    if plain:
        found.append(Part(str(parser.renderer.render(plain, parser.options, {}))))
    return found


def _closing(tokens: list[Token], start: int) -> int:
    """The index of the token that closes the list opened at ``start``."""
    closing = tokens[start].type.replace("_open", "_close")
    return next(i for i in range(start + 1, len(tokens)) if tokens[i].type == closing and tokens[i].level == 0)


def _items(parser: MarkdownIt, inside: list[Token]) -> list[str]:
    """The HTML of each item of a list, given the tokens between its opening and closing."""
    items, start = [], 0
    for index, token in enumerate(inside):
        if token.type == "list_item_open" and token.level == 1:
            start = index + 1
        elif token.type == "list_item_close" and token.level == 1:
            items.append(str(parser.renderer.render(inside[start:index], parser.options, {})).strip())
    return items


def clauses(text: str) -> list[str]:
    """The clauses of a consent text as the researcher wrote them (the source of each top-level list item)."""
    lines = text.splitlines()
    found = []
    for token in markdown().parse(text):
        if token.type == "list_item_open" and token.level == 1 and token.map is not None:
            first, last = token.map
            written = " ".join(line.strip() for line in lines[first:last] if line.strip())
            found.append(MARKER.sub("", written, count=1))
    return found


def clause_count(text: str) -> int:
    """How many clauses a consent text has."""
    return sum(1 for part in parts(text) if part.clause)


def plain_text(name: str, text: str, agreed_at: datetime | None) -> str:
    """The consent as a participant downloads it: the study's name, the text as written and, once they agreed, when
    (every clause was ticked then)."""
    lines = [f"Consent: {name}", "", text.strip() or "Do you agree to take part in this study?", ""]
    if agreed_at is not None:
        lines.append(f"You agreed on {agreed_at:%Y-%m-%d %H:%M} UTC, ticking every clause above.")
    else:
        lines.append("You have not agreed to this text.")
    return "\n".join(lines) + "\n"
