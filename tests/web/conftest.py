"""Fixtures the web tests share: the study puzzles and a logged-in researcher (``helpers.studies``)."""

from helpers.studies import puzzles, researcher  # noqa: F401  (fixtures)
