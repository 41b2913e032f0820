"""What a tracker step changed: worked out from the state before and after, for any tracker.

The worker keeps a tracker's state between steps, so a step answers with
what changed instead of the whole state, and the page (tracker-stream.js,
the same rules in JS) applies it to its own copy. The same message is what
a follower of the state applies: the players' view on this device, or a
player's phone.

A message that follows a state is small JSON:

    {"base": "<version it applies to>", "version": "<version after it>", "changes": [Change, ...]}

and a follower holding `base` applies `changes` in order and then holds
`version`; one holding anything else asks for the whole state. Each Change
names one top-level field of the state:

- `{"key": k, "value": v}`: the field is now `v`, whole (a number, a
  string, a small object, or a list no rule below fits);
- `{"key": k, "gone": true}`: the field is no longer there;
- `{"key": k, "ids": [...], "put": [...]}`: the field is a list of objects
  each with a unique "id" (an encounter's combatants): `put` holds the
  objects that are new or changed, whole; `ids`, the list's ids in their
  new order, is there only when an id came, went or moved;
- `{"key": k, "splice": [[at, cut, [items]], ...]}`: the field is a list
  (a log, the undo records): each splice, in order, takes `cut` items out
  at index `at` and puts `items` in their place, as Array.prototype.splice.
  A log that gained a line and lost its oldest is two splices, and a
  step's change stays as small as its new lines however long the log.

`apply(diff(a, b), a) == b` for all JSON values a and b that are objects
(tests/test_stream.py checks it over random states and whole fights).
Neither function changes what it is given: `apply` makes new lists and
objects where something changed and shares the rest.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Mapping
from typing import Any

from .history import compact_json

__all__ = ["Change", "diff", "apply"]

Change = dict[str, Any]


def diff(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[Change]:
    """The changes that make `before` into `after`, field by field (see the module's text)."""
    changes: list[Change] = []
    for key, new in after.items():
        if key not in before:
            changes.append({"key": key, "value": new})
            continue
        old = before[key]
        if _same(old, new):
            continue
        if isinstance(old, list) and isinstance(new, list):
            changes.append(_list_change(key, old, new))
        else:
            changes.append({"key": key, "value": new})
    changes.extend({"key": key, "gone": True} for key in before if key not in after)
    return changes


def _ids(items: list[Any]) -> list[Any] | None:
    """The items' ids, when every item is an object with an id of its own (a string or a whole number); else None."""
    ids = []
    for item in items:
        if not isinstance(item, dict):
            return None
        ident = item.get("id")
        if not isinstance(ident, (str, int)) or isinstance(ident, bool):
            return None
        ids.append(ident)
    return ids if len(set(ids)) == len(ids) else None


def _list_change(key: str, old: list[Any], new: list[Any]) -> Change:
    old_ids, new_ids = _ids(old), _ids(new)
    if old_ids is not None and new_ids is not None and (old or new):
        by_id = dict(zip(old_ids, old, strict=True))
        put = [item for ident, item in zip(new_ids, new, strict=True) if ident not in by_id or not _same(by_id[ident], item)]
        change: Change = {"key": key, "put": put}
        if old_ids != new_ids:
            change["ids"] = new_ids
        return change
    return {"key": key, "splice": _splices(old, new)}


def _same(a: object, b: object) -> bool:
    """Whether a and b write the same JSON. Python's == decides when they differ (in C, stopping at the first
    difference); when == finds them equal, their texts decide, as == has 1 == 1.0 == True."""
    if a is b:
        return True
    kind = type(a)
    if kind is type(b) and (kind is str or kind is int):
        return a == b
    return a == b and compact_json(a) == compact_json(b)


def _splices(old: list[Any], new: list[Any]) -> list[list[Any]]:
    """Splices that make `old` into `new`: a shift (the oldest items gone, new ones at the end) when it is one,
    else one splice between the common start and the common end. Items a step did not touch are the same
    objects before and after, so they are told apart by identity first, in C, and compared only when not."""
    if old and new and not _same(old[0], new[0]):
        first = new[0]
        hits = list(map(operator.is_, old, itertools.repeat(first)))
        shift = hits.index(True) if True in hits else next((i for i in range(1, len(old)) if _same(old[i], first)), 0)
        kept = len(old) - shift
        if shift and kept <= len(new) and _all_same(old[shift:], new[:kept]):
            return [[0, shift, []], [kept, 0, new[kept:]]]
    most = min(len(old), len(new))
    start = _same_run(old[:most], new[:most])
    end = _same_run(old[::-1][:most - start], new[::-1][:most - start])
    return [[start, len(old) - start - end, new[start:len(new) - end]]]


def _same_run(a: list[Any], b: list[Any]) -> int:
    """How many items from the start of a and b (as long as each other) are the same."""
    same = list(map(operator.is_, a, b))
    run = 0
    while run < len(a):
        try:
            run = same.index(False, run)
        except ValueError:
            return len(a)
        if not _same(a[run], b[run]):
            return run
        run += 1
    return run


def _all_same(a: list[Any], b: list[Any]) -> bool:
    """Whether every item of a is the same as b's at its place (a and b as long as each other)."""
    return all(_same(x, y) for x, y in itertools.compress(zip(a, b, strict=True), map(operator.not_, map(operator.is_, a, b))))


def apply(changes: list[Change], state: Mapping[str, Any]) -> dict[str, Any]:
    """`state` with `changes` made (a new dict; `state` and its parts are not changed)."""
    out = dict(state)
    for change in changes:
        key = change["key"]
        if "value" in change:
            out[key] = change["value"]
        elif change.get("gone"):
            out.pop(key, None)
        elif "put" in change:
            old = out[key]
            put = {item["id"]: item for item in change["put"]}
            order = change.get("ids", [item["id"] for item in old])
            by_id = {item["id"]: item for item in old}
            out[key] = [put[i] if i in put else by_id[i] for i in order]
        else:
            items = list(out[key])
            for at, cut, added in change["splice"]:
                items[at:at + cut] = added
            out[key] = items
    return out
