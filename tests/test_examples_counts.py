"""How many examples a Hypothesis property runs (tests/conftest.py caps what its own settings ask): its own
count in make test, SETTLED_EXAMPLES once it is marked `settled`, and FAST_EXAMPLES under make check's fast
profile. Each property reads back the settings it runs under."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import FAST_EXAMPLES, SETTLED_EXAMPLES


def expected(own: int, settled: bool) -> int:
    if settings.get_current_profile_name() == "fast":
        return min(own, FAST_EXAMPLES)
    return min(own, SETTLED_EXAMPLES) if settled else own


def running(test) -> int:
    return test._hypothesis_internal_use_settings.max_examples


@pytest.mark.settled
@settings(max_examples=100, database=None)
@given(st.integers())
def test_a_settled_property_runs_at_the_settled_count(n):
    assert running(test_a_settled_property_runs_at_the_settled_count) == expected(100, settled=True) < 100


@settings(max_examples=100, database=None)
@given(st.integers())
def test_a_property_not_settled_keeps_its_own_count(n):
    assert running(test_a_property_not_settled_keeps_its_own_count) == expected(100, settled=False)
