"""The participant side of a study: entry link, consent, instructions, the puzzles in order, the end (DESIGN 7.1)."""

from flask import Blueprint

bp = Blueprint("study", __name__, url_prefix="/s")

from . import views  # noqa: E402, F401  (views register their routes on bp)
