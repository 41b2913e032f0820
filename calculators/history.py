"""What every tracker keeps of its past: records written once, and a state's text from them.

A tracker's state carries its history: log entries and undo records. Once
made, an entry never changes, and a step adds one and perhaps drops the
oldest. So a `Record` is a dict that refuses every change and writes its
compact JSON once, when it is made; `state_text` writes a whole state
reusing those texts, so a step's cost does not grow with the history it
carries (the page still gets the whole state's text, as it keeps it).

`state_text(state) == compact_json(state)` for every state: the tests check
it over whole fights and seasons.
"""

from __future__ import annotations

import copy
import json
import operator
import weakref
from collections.abc import Iterable, Mapping
from typing import Any, NoReturn, cast

from .checks import InputError, State

__all__ = ["Record", "Kept", "compact_json", "state_text", "state_length", "records", "reverse_patch", "apply_patch",
           "undo_record", "undone",
           "redo_record", "undone_for_redo", "redone"]


_COMPACT = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)  # made once: json.dumps makes one a call


def compact_json(value: object) -> str:
    """JSON as the page's JSON.stringify writes it: no spaces, no escapes for letters."""
    return _COMPACT.encode(value)


class Record(dict[str, Any]):
    """A log entry or an undo record: read like a dict, never changed once made.

    Its text is written when it is made; `copy` and `deepcopy` give the
    record itself, as nothing can change it. Whatever it holds must not be
    changed either: the tests compare every record's text with its contents
    after whole fights and seasons.
    """

    __slots__ = ("text",)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.text = compact_json(self)

    def _refuse(self, *args: object, **kwargs: object) -> NoReturn:
        raise TypeError("A tracker's record is never changed once made: make a new one.")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = __ior__ = _refuse

    def __copy__(self) -> Record:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Record:
        return self

    def __reduce__(self) -> tuple[type[Record], tuple[dict[str, Any]]]:
        return Record, (dict(self),)


class Kept(list[Any]):
    """A history list (a log, the undo records) of Records, never changed once made, that knows how it was made:
    from which list (held weakly: nothing older is kept alive), by dropping how many items from its front and
    adding how many at its end. So what a step did to it (stream.diff), its undo patch (reverse_patch) and its
    records' text length (state_length) come from the items dropped and added alone, however long it is.
    Slicing it or adding to it gives a plain list, which is read item by item as before."""

    __slots__ = ("__weakref__", "_parent", "added", "dropped", "text_length")

    def __init__(self, items: Iterable[Record] = ()) -> None:
        super().__init__(items)
        self._parent: weakref.ref[Kept] | None = None
        self.dropped = self.added = 0
        self.text_length = sum(map(len, _texts(self)))

    @classmethod
    def grown(cls, parent: list[Any], added: list[Record], cap: int) -> Kept:
        """`parent` with `added` at its end, its oldest items dropped to keep at most `cap` (at least 0)."""
        drop = max(0, len(parent) + len(added) - max(cap, 0))
        if not isinstance(parent, Kept) or drop > len(parent) or not all(isinstance(r, Record) for r in added):
            return cls(records((parent + added)[drop:]))
        out = list.__new__(cls)
        list.__init__(out, parent[drop:] + added)
        out._parent, out.dropped, out.added = weakref.ref(parent), drop, len(added)
        out.text_length = parent.text_length - sum(map(len, _texts(parent[:drop]))) + sum(map(len, _texts(added)))
        return out

    def grown_from(self, other: object) -> tuple[int, int] | None:
        """(dropped, added) when this list was made from `other` itself by `grown`; else None."""
        return (self.dropped, self.added) if self._parent is not None and self._parent() is other else None

    def _refuse(self, *args: object, **kwargs: object) -> NoReturn:
        raise TypeError("A tracker's history list is never changed once made: make a new one.")

    __setitem__ = __delitem__ = __iadd__ = __imul__ = append = extend = insert = remove = pop = clear = sort = reverse = _refuse

    def __copy__(self) -> Kept:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Kept:
        return self

    def __reduce__(self) -> tuple[type[Kept], tuple[list[Any]]]:
        return Kept, (list(self),)


def records(items: Iterable[dict[str, Any]]) -> list[Record]:
    """Each item as a Record (one that already is stays itself)."""
    return [i if isinstance(i, Record) else Record(i) for i in items]


_TEXT = operator.attrgetter("text")


def _texts(items: list[Any]) -> list[str]:
    """Each item's text: a Record's own, anything else written (the common case in one C-level pass)."""
    try:
        return list(map(_TEXT, items))
    except AttributeError:
        return [v.text if isinstance(v, Record) else compact_json(v) for v in items]


def _value_text(value: object) -> str:
    if isinstance(value, list) and value and isinstance(value[0], Record):
        return "[" + ",".join(_texts(value)) + "]"
    return compact_json(value)


def state_text(state: Mapping[str, Any]) -> str:
    """The state's compact JSON, each Record's text reused: the same text as compact_json(state)."""
    return "{" + ",".join([compact_json(k) + ":" + _value_text(v) for k, v in state.items()]) + "}"


def state_length(state: Mapping[str, Any]) -> int:
    """len(state_text(state)), without writing the records' part."""
    total = 1 + len(state)  # the braces and the commas between the keys
    for k, v in state.items():
        if isinstance(v, Kept):
            total += len(compact_json(k)) + 1 + 1 + max(len(v), 1) + v.text_length
        elif isinstance(v, list) and v and isinstance(v[0], Record):
            try:
                texts = sum(map(len, map(_TEXT, v)))  # in C: the common case, every item a Record
            except AttributeError:
                texts = sum(map(len, _texts(v)))
            total += len(compact_json(k)) + 1 + 1 + len(v) + texts
        else:
            total += len(compact_json(k)) + 1 + len(compact_json(v))
    return total


# ---------------------------------------------------------------- undo: one design for every tracker
#
# A step's undo record is the reverse patch from the state after it to the
# state before it, computed from the two states alone, so no tracker writes
# its own undo. It holds only what changed: a field's old value, a dict's
# changed keys, a list's changed items, the items dropped from its front (a
# log that keeps its last entries) or put back there (the same step undone),
# and how many were added at its end.
#
#   ["=", old]                 the value was `old`
#   ["-"]                      the key was not there
#   ["{", {key: patch}]        a dict: a patch for each key that changed
#   ["[", {"cut": items put back at the front, "front": [old items dropped from the front],
#          "at": {"i": patch}, "tail": [old items past the end], "back": items added at the end}]
#
# A list's patch is applied as: take `cut` items off its front and `back` off
# its end, patch the items left at their indices ("at"), then put `front`
# before them and `tail` after.

_MAX_DEPTH = 32  # a patch from outside nests no deeper than a state does
_SEEK = 8  # how far into the old list its new first item is looked for (a log drops one or a few)


def reverse_patch(before: object, after: object) -> list[Any] | None:
    """The patch that turns `after` back into `before`; None when they are equal."""
    if before is after:
        return None
    if isinstance(before, dict) and isinstance(after, dict) and not isinstance(before, Record) and not isinstance(after,
                                                                                                                  Record):
        keys: dict[str, Any] = {}
        for key, old in before.items():
            if key not in after:
                keys[key] = ["=", old]
            elif (p := reverse_patch(old, after[key])) is not None:
                keys[key] = p
        for key in after:
            if key not in before:
                keys[key] = ["-"]
        return ["{", keys] if keys else None
    if isinstance(before, list) and isinstance(after, list):
        return _list_patch(before, after)
    if (type(before) is type(after) or (isinstance(before, dict) and isinstance(after, dict))) and before == after:
        return None  # a Record and the plain dict of its contents are the same value (a state as answered holds either)
    return ["=", before]


def _list_patch(before: list[Any], after: list[Any]) -> list[Any] | None:
    grown = after.grown_from(before) if isinstance(after, Kept) else None
    if grown is not None and (not before or grown[0] < len(before)):
        # made from `before` by dropping from its front and adding at its end: the patch the general way below
        # finds for that, from the ends alone (the general way looks for the new first item as _seek does)
        dropped, added = grown
        if not dropped or (not _alike(before[0], after[0]) and _seek(before, after[0]) == dropped):
            quick: dict[str, Any] = {"front": before[:dropped]} if dropped else {}
            if added:
                quick["back"] = added
            return ["[", quick] if quick else None
    drop = cut = 0
    # Equal as the patch sees it, not as == does (False == 0 and 1 == 1.0 there): a patch found by
    # == was right but wordier than it needed (hypothesis found before [False, 0], after [0, None]).
    if after and before and not _alike(before[0], after[0]):
        drop = _seek(before, after[0])
        cut = 0 if drop else _seek(after, before[0])
    overlap = min(len(before) - drop, len(after) - cut)
    at = {}
    # A log's kept entries are the same records before and after: found by identity, in C, and only the
    # other items compared.
    same = list(map(operator.is_, before[drop: drop + overlap], after[cut: cut + overlap]))
    i = 0
    while True:
        try:
            i = same.index(False, i)
        except ValueError:
            break
        p = reverse_patch(before[drop + i], after[cut + i])
        if p is not None:
            at[str(i)] = p
        i += 1
    parts: dict[str, Any] = {}
    if cut:
        parts["cut"] = cut
    if drop:
        parts["front"] = before[:drop]
    if at:
        parts["at"] = at
    if len(before) - drop > overlap:
        parts["tail"] = before[drop + overlap:]
    if len(after) - cut > overlap:
        parts["back"] = len(after) - cut - overlap
    return ["[", parts] if parts else None


def _alike(a: object, b: object) -> bool:
    """Whether a patch from b to a is None. Items that differ (the common case where this is asked) are told
    apart by == in C first: a patch is None only for values == takes as equal."""
    return a is b or (a == b and reverse_patch(a, b) is None)


def _seek(items: list[Any], item: object) -> int:
    """Where an item equal to `item` (as a patch sees it) is among items[1:_SEEK + 1]; 0 when it is not there."""
    for j in range(1, min(len(items), _SEEK + 1)):
        if _alike(items[j], item):
            return j
    return 0


def _bad(why: str) -> InputError:
    return InputError(f"An undo record is not readable: {why}.", "state")


def apply_patch(value: object, patch: object, depth: int = 0) -> Any:
    """`value` with `patch` applied (as reverse_patch made it): new containers
    where something changed, the rest shared. A patch from outside that does
    not fit the value is refused with InputError."""
    if depth > _MAX_DEPTH:
        raise _bad("it nests too deep")
    if not isinstance(patch, list) or not patch or patch[0] not in ("=", "{", "["):
        raise _bad("a change has the wrong shape")
    if patch[0] == "=":
        if len(patch) != 2:
            raise _bad("a change has the wrong shape")
        return copy.deepcopy(patch[1])  # the record keeps its own: nothing done to the state can reach it
    if len(patch) != 2 or not isinstance(patch[1], dict):
        raise _bad("a change has the wrong shape")
    if patch[0] == "{":
        if not isinstance(value, dict):
            raise _bad("it changes the keys of something that has none")
        out = dict(value)
        for key, p in patch[1].items():
            if p == ["-"]:
                if key not in out:
                    raise _bad(f"it takes away {key[:40]!r}, which is not there")
                del out[key]
            elif key in out or (isinstance(p, list) and p[:1] == ["="]):
                out[key] = apply_patch(out.get(key), p, depth + 1)
            else:
                raise _bad(f"it changes {key[:40]!r}, which is not there")
        return out
    if not isinstance(value, list):
        raise _bad("it changes the items of something that is not a list")
    parts = patch[1]
    if not set(parts) <= {"cut", "front", "at", "tail", "back"}:
        raise _bad("a list's change has the wrong shape")
    cut, front, at, tail, back = parts.get("cut", 0), parts.get("front", []), parts.get("at", {}), parts.get("tail",
                                                                                                             []), parts.get("back", 0)
    if not (isinstance(front, list) and isinstance(at, dict) and isinstance(tail, list)) \
            or any(isinstance(n, bool) or not isinstance(n, int) or n < 0 for n in (cut,
                                                                                    back)) or cut + back > len(value):
        raise _bad("a list's change has the wrong shape")
    kept = value[cut: len(value) - back]
    for key, p in at.items():
        if not (isinstance(key, str) and key.isdigit() and len(key) <= 6 and int(key) < len(kept)):
            raise _bad("it changes an item a list does not have")
        kept[int(key)] = apply_patch(kept[int(key)], p, depth + 1)
    return copy.deepcopy(front) + kept + copy.deepcopy(tail)


def undo_record(before: Mapping[str, Any], after: Mapping[str, Any]) -> Record:
    """A tracker step's undo record: the reverse patch from `after` to `before`, the undo and redo lists left out."""
    return Record(change=reverse_patch(_without_undo(before), _without_undo(after)))


# ---------------------------------------------------------------- redo: the steps undone, done again
#
# An undo puts a redo record on the state's "redo" list (the step undone
# last at its end): the patch from the state undone to back to the state
# before the undo, made as an undo record is. Redo applies the last one and
# gives the step its undo record again, so Undo and Redo walk the same
# steps both ways; any new step clears the list (the tracker's own step
# does, as it makes its new state). A state saved before redo existed has
# no "redo": it reads as an empty list.


def redo_record(undone_to: Mapping[str, Any], before_undo: Mapping[str, Any]) -> Record:
    """The record that does again the step an undo took from `before_undo` back to `undone_to`."""
    return Record(change=reverse_patch(_without_undo(before_undo), _without_undo(undone_to)))


def undone_for_redo[S: Mapping[str, Any]](before_undo: S, undone_to: S, cap: int) -> S:
    """`undone_to` (what an undo of `before_undo` gives) with the step undone put on its redo list, the
    list kept to its last `cap` records."""
    kept = list(before_undo.get("redo", []))
    return cast("S", {**undone_to, "redo": (kept + [redo_record(undone_to, before_undo)])[-cap:] if cap > 0 else []})


def redone[S: Mapping[str, Any]](state: S, record: object) -> S:
    """The state the redo record `record` brings back, its undo record made again and the redo records
    before it kept (not checked again: a tracker checks what it reads from outside). A record of the wrong
    shape is refused in a sentence."""
    if not isinstance(record, dict) or set(record) != {"change"}:
        raise InputError("A redo record has the wrong shape.", "state")
    rest = _without_undo(state)
    try:
        after = rest if record["change"] is None else apply_patch(rest, record["change"])
    except InputError as err:
        raise InputError(str(err).replace("An undo record", "A redo record"), "state") from None
    if not isinstance(after, dict):
        raise InputError("A redo record has the wrong shape.", "state")
    return cast("S",
                {**after, "undo": list(state["undo"]) + [undo_record(state, after)],
                 "redo": list(state.get("redo", []))[:-1]})


def undone[S: Mapping[str, Any]](state: S, record: object) -> S:
    """The state before the step `record` undoes, with the undo records before it (not checked again: a
    tracker checks what it reads from outside). A record of the wrong shape is refused in a sentence."""
    if not isinstance(record, dict) or set(record) != {"change"}:
        raise InputError("An undo record has the wrong shape.", "state")
    rest = _without_undo(state)
    before = rest if record["change"] is None else apply_patch(rest, record["change"])
    if not isinstance(before, dict):
        raise InputError("An undo record has the wrong shape.", "state")
    # the state the step was given, so of its type (its redo list: the tracker's)
    return cast("S", {**before, "undo": state["undo"][:-1]})


def _without_undo(state: Mapping[str, Any]) -> State:
    return {k: v for k, v in state.items() if k not in ("undo", "redo")}
