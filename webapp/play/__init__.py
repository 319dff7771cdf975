"""The play blueprint: pick a difficulty, play a puzzle in the browser, see the solve time.

The pages and actions are in ``views``, over what a player sends (``inputs``), the anonymous player cookie
(``player``), the history pages (``history_views``) and the hint's words and technique pages (``teaching``)."""

from flask import Blueprint

from sudoku_engine.time_model import duration_words

from ..games.store import format_duration

bp = Blueprint("play", __name__)
bp.add_app_template_filter(format_duration, "duration")
bp.add_app_template_filter(duration_words, "minutes_words")

from . import history_views, teaching, views  # noqa: E402, F401  (views register their routes on bp)
