"""Logic, guesses and chronological backtracking (seed 001, Findling, "Sudoku: A Constraint Satisfaction Problem").

Implements the paper's Sudoku CSP algorithm (sections 2-3, Figures 2-4). Every empty cell has a domain: the
digits not yet placed in its row, column and square (the paper's ``gDom``, kept in step with its row, column and
square domains). Each iterative step places exactly one digit:

1. Consistency: if an empty cell's domain is empty, the position is inconsistent and the search backtracks.
2. Logic (the paper's ``IsLastNumInDomain``), the singles, in this order:
   a. naked single: the first empty cell in reading order whose domain holds one digit receives it (the full
      house, last empty cell of a row, column or square, is the case where that unit's domain has one digit);
   b. hidden single: otherwise the first empty cell in reading order holding a digit that no other cell of its
      row, column or square can take receives it (the smallest such digit if there are several).
3. Guess (``Think``): otherwise the first empty cell in reading order (``GetNextGridIndex``) receives the smallest
   digit of its domain (``GetNextGridDomainValue``), after the whole state is pushed on a stack.

Backtracking (Figure 4) pops the last state, restores it, and removes the digit guessed there from that cell's
domain. With more than one digit left the next smallest is guessed at once (pushed again, counted as a guess);
with exactly one left the next step places it by logic; with none left it pops again. Each pop is one backtrack.
Counts: ``logic`` = digits placed by step 2 over the whole search, ``guesses`` = digits placed by guessing (step 3
and the re-guesses after a pop), ``backtracks`` = states popped; ``guesses - backtracks`` is the number of guesses
on the path to the solution. ``steps`` is the paper's "iterative steps": ``logic`` plus the step-3 guesses (a
re-guess right after a pop belongs to the backtracking step).

Departures from the paper, and why:

- The paper names its logic function but not its rule. Hidden singles are included because the paper keeps row,
  column and square domains (where the last place of a digit is read) and states that its easy and medium puzzles
  need no guess (81 minus the givens iterative steps): on Sudoku Exchange's easy and medium puzzles naked singles
  alone leave about half and 85% needing a guess, naked and hidden singles none and about a third.
- The paper does not say in which order its logic scans the grid or how often consistency is checked; here
  consistency is checked before every step and the logic takes the first single in reading order. The counts
  depend on these choices (how many digits are placed before a contradiction shows), and the paper's own counts
  for AI Escargot and the empty grid are far above what any of these readings gives (``benchmarks/papers/
  findling.py`` prints them side by side), so the counts match the paper's in kind, not in value.
- A work cap bounds the digits placed (logic + guesses); a capped result has no solution and says so.
- A puzzle with no solution raises ``InvalidPuzzle`` once the stack is exhausted.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import deadline
from ..grid import (
    ALL_CANDIDATES,
    PEERS,
    SINGLE_DIGIT,
    UNITS,
    Grid,
    InvalidPuzzle,
    bit,
)
from ..solver import PuzzleLike, checked_values
from ._singles import unit_spread

DEFAULT_CAP = 100_000


@dataclass(frozen=True)
class Findling:
    """The paper's counts for one puzzle, the solution found (None when capped), and whether the cap was hit."""

    logic: int
    guesses: int
    backtracks: int
    solution: Grid | None
    capped: bool
    steps: int  # the paper's "iterative steps": logic placements plus the guesses made when logic is stuck


class _Search:
    """The search state: values, domains (0 for a filled cell), the singles, the stack and the counters."""

    def __init__(self, values: tuple[int, ...]) -> None:
        self.values = list(values)
        self.domains = [0] * 81
        for cell in range(81):
            if not values[cell]:
                mask = ALL_CANDIDATES
                for peer in PEERS[cell]:
                    if values[peer]:
                        mask &= ~bit(values[peer])
                self.domains[cell] = mask
        self.singles: set[int] = set()
        self.dead = False
        self._scan()
        self.stack: list[tuple[list[int], list[int], int, int]] = []
        self.logic = self.guesses = self.backtracks = self.stuck_guesses = 0

    def _scan(self) -> None:
        """Recompute the singles and the dead flag from the domains of the empty cells."""
        values, domains = self.values, self.domains
        self.singles = {c for c in range(81) if not values[c] and domains[c] and not domains[c] & (domains[c] - 1)}
        self.dead = any(not values[c] and not domains[c] for c in range(81))

    def place(self, cell: int, digit: int) -> None:
        """Put a digit in a cell and remove it from the domains of the empty peers."""
        values, domains, singles = self.values, self.domains, self.singles
        values[cell] = digit
        domains[cell] = 0
        singles.discard(cell)
        mask = bit(digit)
        for peer in PEERS[cell]:
            domain = domains[peer]
            if domain & mask:
                domain ^= mask
                domains[peer] = domain
                if not domain:
                    self.dead = True
                    singles.discard(peer)
                elif not domain & (domain - 1):
                    singles.add(peer)

    def guess(self, cell: int) -> None:
        """Push the state and place the smallest digit of the cell's domain."""
        domain = self.domains[cell]
        digit = SINGLE_DIGIT[domain & -domain]
        self.stack.append((self.values.copy(), self.domains.copy(), cell, digit))
        self.guesses += 1
        self.place(cell, digit)

    def backtrack(self) -> None:
        """Pop states until one still has a digit to try at its guessed cell; InvalidPuzzle when none is left."""
        while self.stack:
            values, domains, cell, digit = self.stack.pop()
            self.backtracks += 1
            left = domains[cell] & ~bit(digit)
            domains[cell] = left
            # a state is pushed only when it has no single and no empty domain: only ``cell`` has changed since
            self.values, self.domains = values, domains
            self.singles = {cell} if left and not left & (left - 1) else set()
            self.dead = not left
            if left & (left - 1):
                self.guess(cell)
            if left:
                return
        raise InvalidPuzzle("the puzzle has no solution: every guess led to an empty domain")

    def hidden_single(self) -> tuple[int, int] | None:
        """The first cell in reading order holding a digit with no other place in one of its units, and that digit."""
        domains = self.domains
        forced = [0] * 81
        for unit in UNITS:
            lone = unit_spread(domains, unit)[1]
            if lone:
                for cell in unit:
                    forced[cell] |= domains[cell] & lone
        for cell in range(81):
            mask = forced[cell]
            if mask:
                return cell, SINGLE_DIGIT[mask & -mask]
        return None

    def first_empty(self) -> int:
        """The first empty cell in reading order, or -1 when the grid is full."""
        values = self.values
        for cell in range(81):
            if not values[cell]:
                return cell
        return -1

    def run(self, cap: int) -> bool:
        """Step until solved (True) or until ``cap`` digits have been placed (False)."""
        while self.logic + self.guesses < cap:
            if (self.logic + self.guesses) % 1024 == 0:
                deadline.check()
            if self.dead:
                self.backtrack()
            elif self.singles:
                cell = min(self.singles)
                self.logic += 1
                self.place(cell, SINGLE_DIGIT[self.domains[cell]])
            elif hidden := self.hidden_single():
                self.logic += 1
                self.place(*hidden)
            else:
                cell = self.first_empty()
                if cell < 0:
                    return True
                self.stuck_guesses += 1
                self.guess(cell)
        return self.first_empty() < 0 and not self.dead


def findling(puzzle: PuzzleLike, cap: int = DEFAULT_CAP) -> Findling:
    """Solve by singles, first-cell guessing and chronological backtracking; count the paper's steps."""
    if cap < 1:
        raise ValueError("cap must be at least 1")
    search = _Search(checked_values(puzzle))
    solved = search.run(cap)
    return Findling(
        logic=search.logic,
        guesses=search.guesses,
        backtracks=search.backtracks,
        solution=Grid(tuple(search.values)) if solved else None,
        capped=not solved,
        steps=search.logic + search.stuck_guesses,
    )
