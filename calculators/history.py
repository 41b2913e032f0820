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

import json
from collections.abc import Iterable
from typing import Any, NoReturn

from .checks import State

__all__ = ["Record", "compact_json", "state_text", "state_length", "records"]


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


def records(items: Iterable[dict[str, Any]]) -> list[Record]:
    """Each item as a Record (one that already is stays itself)."""
    return [i if isinstance(i, Record) else Record(i) for i in items]


def _value_text(value: object) -> str:
    if isinstance(value, list) and value and isinstance(value[0], Record):
        texts = [v.text if isinstance(v, Record) else compact_json(v) for v in value]
        return "[" + ",".join(texts) + "]"
    return compact_json(value)


def state_text(state: State) -> str:
    """The state's compact JSON, each Record's text reused: the same text as compact_json(state)."""
    return "{" + ",".join([compact_json(k) + ":" + _value_text(v) for k, v in state.items()]) + "}"


def state_length(state: State) -> int:
    """len(state_text(state)), without writing the records' part."""
    total = 1 + len(state)  # the braces and the commas between the keys
    for k, v in state.items():
        if isinstance(v, list) and v and isinstance(v[0], Record):
            total += len(compact_json(k)) + 1 + 1 + len(v) + sum(len(r.text) if isinstance(r, Record) else len(compact_json(r)) for r in v)
        else:
            total += len(compact_json(k)) + 1 + len(compact_json(v))
    return total
