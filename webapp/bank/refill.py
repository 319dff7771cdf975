"""A refill process of the puzzle bank: ``python -m webapp.bank.refill`` reads a ``pool.TopUp`` as JSON on stdin."""

from __future__ import annotations

import json
import os
import sys

from . import pool

NICENESS = 10  # background work: the serving processes come first for the CPU


def main() -> int:
    """Run the refill read on stdin; 0 when it ran, 2 when the job is unreadable."""
    try:
        job = pool.TopUp(**json.loads(sys.stdin.read()))
    except (TypeError, ValueError) as error:
        print(f"error: not a refill job: {error}", file=sys.stderr)
        return 2
    if hasattr(os, "nice"):
        os.nice(NICENESS)
    pool.top_up_alone(job)
    return 0


if __name__ == "__main__":
    sys.exit(main())
