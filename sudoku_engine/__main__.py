"""``python -m sudoku_engine``: the command line."""

import sys

from .cli import main

sys.exit(main())
