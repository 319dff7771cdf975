"""Seed 002's levels: cut points at equal percentiles of a reference sample, and the level of a value."""

from __future__ import annotations

import math
from collections import Counter

import numpy
import pytest
from hypothesis import given
from hypothesis import strategies as st

from sudoku_engine.levels import percentile_levels

finite = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False, allow_infinity=False)


@given(reference=st.lists(finite, min_size=1, max_size=60), count=st.integers(1, 12))
def test_cut_points_are_numpys_percentiles(reference, count):
    levels = percentile_levels(reference, count)
    expected = numpy.percentile(reference, [100 * i / count for i in range(1, count)])
    assert levels.count == count and len(levels.cuts) == count - 1
    assert levels.cuts == pytest.approx(list(expected), rel=1e-9, abs=1e-9)


@given(
    reference=st.lists(finite, min_size=1, max_size=60),
    count=st.integers(1, 12),
    probes=st.lists(finite, min_size=2, max_size=30),
)
def test_levels_rise_with_the_value_from_1_to_k(reference, count, probes):
    levels = percentile_levels(reference, count)
    found = [levels.level(v) for v in sorted(probes)]
    assert found == sorted(found)
    assert all(1 <= level <= count for level in found)
    assert levels.level(min(reference) - 1) == 1 and levels.level(max(reference) + 1) == count


@pytest.mark.parametrize("count, per_level", [(2, 5), (4, 10), (10, 3)])
def test_distinct_values_are_shared_equally_among_the_levels(count, per_level):
    """With count * m + 1 distinct values, cut i falls on the value of rank i * m: each level holds m of them
    (level 1 also the minimum)."""
    reference = [v * 0.37 for v in range(count * per_level + 1)]
    levels = percentile_levels(reversed(reference), count)
    shares = Counter(levels.level(v) for v in reference)
    assert shares == {level: per_level + (level == 1) for level in range(1, count + 1)}


def test_a_value_on_a_cut_point_is_in_the_lower_level():
    levels = percentile_levels([1.0, 2.0, 3.0, 4.0, 5.0], 2)
    assert levels.cuts == (3.0,)
    assert (levels.level(3.0), levels.level(math.nextafter(3.0, 4.0))) == (1, 2)


@pytest.mark.parametrize(
    "reference, count, message",
    [([], 3, "empty"), ([1.0, 2.0], 0, "at least 1"), ([1.0, math.nan], 2, "finite"), ([math.inf], 2, "finite")],
)
def test_bad_references_are_refused(reference, count, message):
    with pytest.raises(ValueError, match=message):
        percentile_levels(reference, count)


def test_nan_has_no_level():
    with pytest.raises(ValueError, match="NaN"):
        percentile_levels([1.0, 2.0], 2).level(math.nan)
