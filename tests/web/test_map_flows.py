"""ARCHITECTURE.md's data flows follow the real call chain: real requests run under a profiler, and the functions a
flow names must each be called, in the order the map names them (by first call).

A name is `package/module.function` inside webapp, or `sudoku_engine.module.function` (a method as
`Class.method`); other names in backticks (routes, settings, modules) are not calls and are left alone.
"""

from __future__ import annotations

import importlib
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers.markdown import MAP, paragraph
from helpers.web import CSRF_META, new_app
from sqlalchemy import update

from webapp import db
from webapp.models import BankPuzzle

REFERENCE = re.compile(r"`((?:[a-z_]+/)+[a-z_]+\.[A-Za-z_.]+|sudoku_engine\.[a-z_.]+\.[A-Za-z_.]+)`")
Call = tuple[str, str]  # (module, qualified name)


def flow(title: str, text: str | None = None) -> str:
    """The paragraph of one data flow (``**title.**``)."""
    return paragraph(MAP.read_text(encoding="utf-8") if text is None else text, title)


def resolve(name: str) -> Call | None:
    """The (module, qualified name) of a function the map names, or None when the name is a module."""
    if name.endswith(".py"):
        return None  # a module's file (tests/test_map.py checks those)
    dotted = "webapp." + name.replace("/", ".") if "/" in name else name
    parts = dotted.split(".")
    for split in range(len(parts), 0, -1):
        try:
            module = importlib.import_module(".".join(parts[:split]))
        except ModuleNotFoundError:
            continue
        target: Any = module
        for attribute in parts[split:]:
            target = getattr(target, attribute, None)
            if target is None:
                raise AssertionError(f"the map names {name}, which is not there")
        if split == len(parts):
            return None
        function = getattr(target, "__wrapped__", target)
        return function.__module__, function.__qualname__
    raise AssertionError(f"the map names {name}, which is not there")


def named_calls(paragraph: str) -> list[Call]:
    """The functions a flow names, in its order (each once)."""
    found = [resolve(name) for name in REFERENCE.findall(paragraph)]
    return list(dict.fromkeys(call for call in found if call is not None))


@contextmanager
def first_calls() -> Iterator[list[Call]]:
    """Record the (module, qualified name) of every Python function called inside, in the order of first calls."""
    seen: dict[Call, None] = {}

    def profile(frame: FrameType, event: str, _arg: object) -> None:
        if event == "call":
            seen.setdefault((frame.f_globals.get("__name__", ""), frame.f_code.co_qualname), None)

    order: list[Call] = []
    sys.setprofile(profile)
    try:
        yield order
    finally:
        sys.setprofile(None)
        order.extend(seen)


def disorder(named: list[Call], called: list[Call]) -> list[str]:
    """What differs between the map's order and the calls: names called out of order (each against the one before)."""
    place = {call: index for index, call in enumerate(called)}
    present = [call for call in named if call in place]
    return [
        f"{later[1]} is called before {earlier[1]}"
        for earlier, later in zip(present, present[1:], strict=False)
        if place[later] < place[earlier]
    ]


def check_flow(title: str, runs: list[list[Call]]) -> None:
    """Every function the flow names is called in some run, and in each run in the map's order."""
    named = named_calls(flow(title))
    assert len(named) >= 8, f"the {title} flow names its functions"
    never = [call for call in named if not any(call in run for run in runs)]
    assert not never, f"the map's {title} flow names functions no request called: {never}"
    for run in runs:
        assert disorder(named, run) == [], f"the map's {title} flow is not the order of the calls"


@pytest.fixture
def app(tmp_path: Path) -> Flask:
    """A fresh app whose bank is empty."""
    return new_app(tmp_path, POOL_GENERATE_BUDGET_S=5.0)


def poster(client: FlaskClient) -> Callable[..., Any]:
    """A form post as the page makes it, with the page's CSRF token (read from the start page now, so that a traced
    post makes no other request)."""
    match = CSRF_META.search(client.get("/").get_data(as_text=True))
    assert match
    headers = {"X-CSRFToken": match.group(1)}
    return lambda path, **form: client.post(path, data=form, headers=headers)


def traced(action: Callable[[], Any]) -> list[Call]:
    """The first calls of one action."""
    with first_calls() as calls:
        answer = action()
    assert answer.status_code in (200, 204, 303), answer.get_data(as_text=True)
    return calls


def test_the_new_puzzle_flow_is_the_call_chain(app: Flask) -> None:
    post = poster(app.test_client())
    from_generation = traced(lambda: post("/new", slider="5"))
    assert ("sudoku_engine.generate", "generate") in from_generation, "an empty bank: the puzzle was generated"
    with db.sessions_of(app)() as session:
        assert session.execute(update(BankPuzzle).values(used=False)).rowcount == 1, "the generated puzzle is banked"
        session.commit()
    from_bank = traced(lambda: post("/new", slider="5"))
    assert ("webapp.bank.pool", "as_isomorph") in from_bank, "the second puzzle came from the bank"
    other = poster(app.test_client())  # another player, and no unused row left
    served_again = traced(lambda: other("/new", slider="5"))
    assert ("webapp.bank.pool", "renew") in served_again, "the third puzzle was the bank's row served again"
    check_flow("A New puzzle", [from_generation, from_bank, served_again])


def test_the_hint_flow_is_the_call_chain(app: Flask) -> None:
    post = poster(app.test_client())
    started = post("/new", slider="5")
    assert started.status_code == 303
    game = started.headers["Location"]
    check_flow("A hint", [traced(lambda: post(f"{game}/hint", key="k1"))])


def test_a_flow_out_of_order_is_seen() -> None:
    text = MAP.read_text(encoding="utf-8")
    paragraph = flow("A hint", text)
    named = named_calls(paragraph)
    assert disorder(named, named) == []
    assert disorder(named, [named[1], named[0], *named[2:]]) == [f"{named[1][1]} is called before {named[0][1]}"]


def test_a_name_that_is_gone_is_seen() -> None:
    with pytest.raises(AssertionError, match="which is not there"):
        named_calls("`games/store.no_such_function`")
