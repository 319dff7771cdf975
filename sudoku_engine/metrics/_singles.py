"""The singles rules the measures share, on 81 candidate masks (bit d - 1 for digit d).

- ``clear_peers``: a cell left with one value takes it from its 20 peers. This is forward checking on the
  alldifferent constraints (seed 004's FC) and arc consistency of the ``!=`` arcs out of a singleton (seed 000).
- ``unit_spread``: the values a unit still holds, and those only one of its cells holds (hidden singles, seeds
  001 and 004).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..grid import PEERS


def clear_peers(masks: list[int], cell: int, fixed: list[int]) -> int:
    """Remove ``cell``'s one value from its peers (each peer left with one value appended to ``fixed``).

    Returns -1 when a peer loses its last value (the masks are then partly cleared), 1 when a peer lost its
    value, 0 when none held it.
    """
    value = masks[cell]
    clear = ~value
    changed = 0
    for peer in PEERS[cell]:
        mask = masks[peer]
        if mask & value:
            mask &= clear
            if not mask:
                return -1
            masks[peer] = mask
            changed = 1
            if not mask & (mask - 1):
                fixed.append(peer)
    return changed


def unit_spread(masks: Sequence[int], unit: Sequence[int]) -> tuple[int, int]:
    """The values the cells of ``unit`` hold between them, and the values exactly one of them holds."""
    held = shared = 0
    for cell in unit:
        mask = masks[cell]
        shared |= held & mask
        held |= mask
    return held, held & ~shared
