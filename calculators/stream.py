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

from .history import Kept, compact_json

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
        grown = new.grown_from(old) if isinstance(new, Kept) else None
        if grown is not None:  # a history list made from the old one: its change is in the items it dropped and added
            if any(grown):
                changes.append({"key": key, "splice": _grown_splices(len(old), new, *grown)})
            continue
        if _same(old, new):
            continue
        if isinstance(old, list) and isinstance(new, list):
            changes.append(_list_change(key, old, new))
        else:
            changes.append({"key": key, "value": new})
    changes.extend({"key": key, "gone": True} for key in before if key not in after)
    return changes


def _grown_splices(old_length: int, new: list[Any], dropped: int, added: int) -> list[list[Any]]:
    """The splices for a list that dropped `dropped` items from its front and added `added` at its end."""
    splices: list[list[Any]] = [[0, dropped, []]] if dropped else []
    if added:
        splices.append([old_length - dropped, 0, new[len(new) - added:]])
    return splices


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
        put = [item for ident,
               item in zip(new_ids, new, strict=True) if ident not in by_id or not _same(by_id[ident], item)]
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
    """Splices that make `old` into `new`. The two are lined up first: items dropped from the front (a log that
    lost its oldest entries) or put back there (the same step undone); then the run they share, and one splice
    for the rest, less the end they share. Items a step did not touch are the same objects before and after, so
    they are found by identity, in C, and compared only where they are not."""
    dropped = added = 0
    if old and new and not _same(old[0], new[0]):
        dropped = _index_of(old, new[0])
        added = 0 if dropped else _index_of(new, old[0])
    splices: list[list[Any]] = []
    if dropped:
        splices.append([0, dropped, []])
    if added:
        splices.append([0, 0, new[:added]])
    old, new = old[dropped:], new[added:]
    most = min(len(old), len(new))
    run = _same_run(old[:most], new[:most])
    end = _same_run(old[::-1][:most - run], new[::-1][:most - run])
    if run + end < len(old) or run + end < len(new):
        splices.append([added + run, len(old) - run - end, new[run:len(new) - end]])
    return splices


def _index_of(items: list[Any], item: object) -> int:
    """Where `item` itself (not an equal one) is in `items`; 0 when it is not."""
    try:
        # in C, each item asked `is` before `==`: the item itself, unless an equal one comes first
        first = items.index(item)
    except ValueError:
        return 0  # nothing equal, so not the item itself
    if items[first] is item:
        return first
    hits = list(map(operator.is_, items, itertools.repeat(item)))
    return hits.index(True) if True in hits else 0


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
