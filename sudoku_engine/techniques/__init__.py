"""The catalogue of human techniques, in solving order (ARCHITECTURE.md, Adding a technique).

Each technique is a function ``find(board) -> Iterator[Step]`` in the module of its family. The catalogue
gives, per technique, its family, a HoDoKu-style base score and level (HoDoKu's default step configuration),
an SE-style rating (the Sudoku Explainer scale, as Sukaku Explainer extends it: Skyscraper 4.0, 2-String Kite
4.1, Turbot Fish 4.2, Empty Rectangle 4.3, WXYZ-Wing 5.5-5.6, Aligned Pair Exclusion 6.2, VWXYZ-Wing 6.2-6.4;
techniques neither names get the rating of the chain or loop it would find instead), and a tier (groups of
equally hard techniques, used by seed 002's hsolve simulation). The catalogue is in order of SE-style rating: the
logic solver and the hint ladder take the applicable step with the lowest rating, a chain's length bonus included
(``step_se``), ties to the technique that comes first.

A fixed pattern whose rating depends on its shape has one entry per rating: WXYZ-Wing is 5.5 when the largest of
its three set cells holds two or four candidates and 5.6 when it holds three (``wxyz_wing``, ``wxyz_wing_trivalue``);
VWXYZ-Wing is 6.2 when one of its four set cells holds all five digits, 6.3 when the largest holds two or four and
6.4 when it holds three (``vwxyz_wing_pentavalue``, ``vwxyz_wing``, ``vwxyz_wing_trivalue``; the 6.2 entry comes
before Aligned Pair Exclusion, as Sukaku Explainer tries VWXYZ-Wing first). HoDoKu has none of WXYZ-Wing,
VWXYZ-Wing and Aligned Pair Exclusion; they take the score and level of the HoDoKu technique nearest to them:
XYZ-Wing for WXYZ- and VWXYZ-Wing (which extend it by one and two digits and cells, still one set and one bivalue
cell, in the wings' tier), Death Blossom for Aligned Pair Exclusion (a candidate goes because every digit of the
other cell, the stem, either sees it directly or forces a bivalue petal onto it).

The families' modules: ``singles``, ``intersections``, ``subsets``, ``single_digit``, ``fish``, ``colouring``,
``wings``, ``uniqueness``, ``exclusion``, ``chains``, ``als``, ``forcing``, ``nets`` and ``last_resort``; beside
them ``common`` (the Steps of the simplest shapes), ``memo`` (skipping what has not changed), ``tables`` (the
box-line tables), ``compiled`` (the techniques with compiled finders) and the kernels ``_finders_numba`` and
``_nets_numba``.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache

from ..board import Board, Step
from . import memo

# A finder takes the board (and, for per-digit techniques, optionally the digits to search).
Finder = Callable[..., Iterator[Step]]

HODOKU_LEVELS = ("Easy", "Medium", "Hard", "Unfair", "Extreme")


@dataclass(frozen=True)
class Technique:
    """One catalogue entry: identity, family, the two familiar scales, tier and where its finder lives."""

    id: str
    name: str
    family: str
    hodoku_score: int
    hodoku_level: str
    se_rating: float
    tier: int
    module: str
    chain_like: bool = False
    per_digit: bool = False
    per_house: bool = False

    def find(self, board: Board) -> Iterator[Step]:
        """Every application of this technique on the board."""
        finder = _finder(self.module, self.id)
        if self.per_digit:
            return memo.find(self.id, finder, board)
        if self.per_house:
            return memo.find_by_house(self.id, finder, board)
        return finder(board)


@cache
def _finder(module: str, function: str) -> Finder:
    """The finder function of a technique, imported on first use."""
    found: Finder = getattr(importlib.import_module(f"{__name__}.{module}"), function)
    return found


# Techniques whose steps are chains or loops of any length: their rating takes Sudoku Explainer's length bonus.
_CHAIN_LIKE = frozenset(
    (
        "x_chain",
        "xy_chain",
        "remote_pair",
        "w_wing",
        "nice_loop",
        "grouped_nice_loop",
        "als_chain",
        "forcing_chain",
        "forcing_net",
        "nested_forcing_chain",
    )
)


def _t(
    id: str, name: str, family: str, score: int, level: str, se: float, tier: int, module: str | None = None
) -> Technique:
    """A catalogue entry (short constructor for the table below): the finder lives in the family's module unless
    ``module`` names another; single-digit and subset finders get the memo."""
    module = module or family
    per_digit = module in ("fish", "single_digit", "colouring") or id in ("pointing", "claiming", "x_chain")
    per_house = module == "subsets"
    return Technique(id, name, family, score, level, se, tier, module, id in _CHAIN_LIKE, per_digit, per_house)


CATALOGUE: tuple[Technique, ...] = (
    _t("full_house", "Full House", "singles", 4, "Easy", 1.0, 1),
    _t("hidden_single_box", "Hidden Single (box)", "singles", 14, "Easy", 1.2, 1),
    _t("hidden_single_line", "Hidden Single (row/column)", "singles", 14, "Easy", 1.5, 1),
    _t("naked_single", "Naked Single", "singles", 4, "Easy", 2.3, 1),
    _t("pointing", "Pointing (Locked Candidates 1)", "intersections", 50, "Medium", 2.6, 2),
    _t("claiming", "Claiming (Locked Candidates 2)", "intersections", 50, "Medium", 2.8, 2),
    _t("locked_pair", "Locked Pair", "intersections", 40, "Medium", 3.0, 2),
    _t("naked_pair", "Naked Pair", "subsets", 60, "Medium", 3.0, 2),
    _t("x_wing", "X-Wing", "fish", 140, "Hard", 3.2, 3),
    _t("hidden_pair", "Hidden Pair", "subsets", 70, "Medium", 3.4, 2),
    _t("locked_triple", "Locked Triple", "intersections", 60, "Medium", 3.6, 2),
    _t("naked_triple", "Naked Triple", "subsets", 80, "Medium", 3.6, 2),
    _t("swordfish", "Swordfish", "fish", 150, "Hard", 3.8, 3),
    _t("hidden_triple", "Hidden Triple", "subsets", 100, "Medium", 4.0, 2),
    _t("skyscraper", "Skyscraper", "single_digit", 130, "Hard", 4.0, 3),
    _t("two_string_kite", "2-String Kite", "single_digit", 150, "Hard", 4.1, 3),
    _t("turbot_fish", "Turbot Fish", "single_digit", 120, "Hard", 4.2, 3),
    _t("xy_wing", "XY-Wing", "wings", 160, "Hard", 4.2, 3),
    _t("empty_rectangle", "Empty Rectangle", "single_digit", 120, "Hard", 4.3, 3),
    _t("xyz_wing", "XYZ-Wing", "wings", 180, "Hard", 4.4, 3),
    _t("unique_rectangle_1", "Unique Rectangle Type 1", "uniqueness", 100, "Hard", 4.5, 3),
    _t("avoidable_rectangle_1", "Avoidable Rectangle Type 1", "uniqueness", 100, "Hard", 4.5, 3),
    _t("unique_rectangle_2", "Unique Rectangle Type 2", "uniqueness", 100, "Hard", 4.6, 3),
    _t("unique_rectangle_4", "Unique Rectangle Type 4", "uniqueness", 100, "Hard", 4.6, 3),
    _t("unique_rectangle_5", "Unique Rectangle Type 5", "uniqueness", 100, "Hard", 4.6, 3),
    _t("unique_rectangle_6", "Unique Rectangle Type 6", "uniqueness", 100, "Hard", 4.6, 3),
    _t("avoidable_rectangle_2", "Avoidable Rectangle Type 2", "uniqueness", 100, "Hard", 4.6, 3),
    _t("unique_rectangle_3", "Unique Rectangle Type 3", "uniqueness", 100, "Hard", 4.7, 3),
    _t("hidden_rectangle", "Hidden Rectangle", "uniqueness", 100, "Hard", 4.8, 3),
    _t("naked_quad", "Naked Quad", "subsets", 120, "Hard", 5.0, 3),
    _t("jellyfish", "Jellyfish", "fish", 160, "Hard", 5.2, 3),
    _t("hidden_quad", "Hidden Quad", "subsets", 150, "Hard", 5.4, 3),
    _t("wxyz_wing", "WXYZ-Wing", "wings", 180, "Hard", 5.5, 3),
    _t("bug_plus_1", "BUG+1", "uniqueness", 100, "Hard", 5.6, 3),
    _t("wxyz_wing_trivalue", "WXYZ-Wing (largest cell trivalue)", "wings", 180, "Hard", 5.6, 3),
    _t("vwxyz_wing_pentavalue", "VWXYZ-Wing (a cell holds all five)", "wings", 180, "Hard", 6.2, 3),
    _t("aligned_pair_exclusion", "Aligned Pair Exclusion", "exclusion", 360, "Unfair", 6.2, 4),
    _t("vwxyz_wing", "VWXYZ-Wing", "wings", 180, "Hard", 6.3, 3),
    _t("vwxyz_wing_trivalue", "VWXYZ-Wing (largest cell trivalue)", "wings", 180, "Hard", 6.4, 3),
    _t("finned_x_wing", "Finned X-Wing", "fish", 130, "Hard", 6.6, 4),
    _t("sashimi_x_wing", "Sashimi X-Wing", "fish", 150, "Hard", 6.6, 4),
    _t("x_chain", "X-Chain", "chains", 260, "Unfair", 6.6, 5),
    _t("xy_chain", "XY-Chain", "chains", 260, "Unfair", 6.6, 5),
    _t("simple_colours", "Simple Colours", "colouring", 150, "Hard", 6.6, 4),
    _t("franken_x_wing", "Franken X-Wing", "fish", 300, "Unfair", 6.6, 4),
    _t("finned_franken_x_wing", "Finned Franken X-Wing", "fish", 390, "Unfair", 6.8, 4),
    _t("remote_pair", "Remote Pair", "wings", 110, "Hard", 7.0, 4),
    _t("w_wing", "W-Wing", "wings", 150, "Hard", 7.0, 4),
    _t("finned_swordfish", "Finned Swordfish", "fish", 200, "Unfair", 7.0, 4),
    _t("multi_colours", "Multi Colours", "colouring", 200, "Hard", 7.0, 4),
    _t("sashimi_swordfish", "Sashimi Swordfish", "fish", 240, "Unfair", 7.0, 4),
    _t("franken_swordfish", "Franken Swordfish", "fish", 350, "Unfair", 7.0, 4),
    _t("sue_de_coq", "Sue de Coq", "als", 250, "Unfair", 7.0, 5),
    _t("nice_loop", "Nice Loop / AIC", "chains", 280, "Unfair", 7.0, 5),
    _t("finned_jellyfish", "Finned Jellyfish", "fish", 250, "Unfair", 7.2, 4),
    _t("sashimi_jellyfish", "Sashimi Jellyfish", "fish", 260, "Unfair", 7.2, 4),
    _t("finned_franken_swordfish", "Finned Franken Swordfish", "fish", 410, "Unfair", 7.2, 4),
    _t("grouped_nice_loop", "Grouped Nice Loop / AIC", "chains", 300, "Unfair", 7.3, 5),
    _t("als_xz", "ALS-XZ", "als", 300, "Unfair", 7.5, 5),
    _t("als_xy_wing", "ALS-XY-Wing", "als", 320, "Unfair", 7.6, 5),
    _t("als_chain", "ALS Chain", "als", 340, "Unfair", 7.7, 5),
    _t("forcing_chain", "Forcing Chain", "forcing", 500, "Extreme", 8.5, 6),
    _t("forcing_net", "Forcing Net", "forcing", 700, "Extreme", 9.0, 6),
    _t("nested_forcing_chain", "Nested Forcing Chain", "forcing", 2500, "Extreme", 9.5, 6, "nets"),
    _t("bifurcation", "Bifurcation", "last_resort", 10000, "Extreme", 12.0, 6),
)

BY_ID: dict[str, Technique] = {t.id: t for t in CATALOGUE}


def length_bonus(length: int) -> float:
    """What Sudoku Explainer adds to a chain's base rating for its length: 0.1 for each threshold it exceeds, the
    thresholds growing alternately by 3/2 and 4/3 from 4 (4, 6, 8, 12, 16, 24, 32, ...)."""
    bonus, ceiling, grow_by_half = 0.0, 4, True
    while length > ceiling:
        bonus += 0.1
        ceiling = ceiling * 3 // 2 if grow_by_half else ceiling * 4 // 3
        grow_by_half = not grow_by_half
    return round(bonus, 1)


def fine_rating(step: Step) -> float:
    """``step_se`` with the length bonus left unrounded: 0.2 log2(length / 4) for a chain longer than 4, which
    meets Sudoku Explainer's bonus at every length 4 x 2^k and orders chains of any two lengths."""
    entry = BY_ID[step.technique]
    if not entry.chain_like or step.length <= 4:
        return entry.se_rating
    return entry.se_rating + 0.2 * math.log2(step.length / 4)


def step_se(step: Step) -> float:
    """The SE-style rating of one step: its technique's rating plus, for a chain, the length bonus."""
    entry = BY_ID[step.technique]
    bonus = length_bonus(step.length) if entry.chain_like else 0.0
    return round(entry.se_rating + bonus, 1)


def technique(technique_id: str) -> Technique:
    """The catalogue entry of an id; KeyError names the unknown id."""
    try:
        return BY_ID[technique_id]
    except KeyError:
        raise KeyError(f"unknown technique {technique_id!r}") from None
