"""What the tests of a step's changes share (tests/test_stream.py, tests/test_stream_page.py): random states and
edits of them, and JSON compared exactly."""

from __future__ import annotations

import json

from hypothesis import strategies as st

ENCOUNTER = "tell_tale.encounter"


def strict(value: object) -> str:
    """The JSON a value writes, keys sorted: equal only for equal JSON (Python's == has 1 == 1.0 == True)."""
    return json.dumps(value, sort_keys=True)


# ---------------------------------------------------------------- diff and apply on any JSON

scalars = st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from([0.0, 1.0, 1.5]) | st.text("ab", max_size=2)
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text("xyz", max_size=1), inner, max_size=3),
                      max_leaves=12)
rows = st.lists(st.fixed_dictionaries({"id": st.sampled_from(["c1", "c2", "c3", "c4", 5]), "hp": st.integers(0, 2)}),
                max_size=5, unique_by=lambda r: r["id"])
fields = st.dictionaries(st.sampled_from(["a", "b", "rows", "log", "n"]), values | rows, max_size=5)


@st.composite
def edited(draw):
    """A state and another made from it as steps make them: fields changed, added and dropped, lists shifted,
    grown, cut and reordered, objects with ids changed; sometimes a wholly other state."""
    before = draw(fields)
    after = dict(before)
    for key in draw(st.lists(st.sampled_from(["a", "b", "rows", "log", "n"]), max_size=4)):
        old = after.get(key)
        how = draw(st.sampled_from(["set", "drop", "shift", "append", "reorder", "edit-row"]))
        if how == "drop":
            after.pop(key, None)
        elif how in ("shift", "append") and isinstance(old, list):
            cut = draw(st.integers(0, len(old))) if how == "shift" else 0
            after[key] = old[cut:] + draw(st.lists(values, max_size=3))
        elif how == "reorder" and isinstance(old, list):
            after[key] = draw(st.permutations(old))
        elif how == "edit-row" and isinstance(old, list) and old and all(isinstance(r, dict) for r in old):
            i = draw(st.integers(0, len(old) - 1))
            after[key] = [*old[:i], {**old[i], "hp": draw(st.integers(0, 2) | st.booleans())}, *old[i + 1:]]
        else:
            after[key] = draw(values | rows)
    return before, after if draw(st.integers(0, 9)) else draw(fields)
