"""The page's types for what the trackers answer, written from Python's own.

Each tracker names the TypedDict of its state (`Tracker.state_type`); this
module follows it, and every TypedDict it holds, into TypeScript
declarations, so a page script types a fight or a party as Python does:

    /** @typedef {import("../../types/trackers").Encounter} Encounter */

`make lint` writes them to `types/trackers.d.ts` before tsc checks the page
scripts (`python -m calculators.typescript types/trackers.d.ts`): a field
renamed or retyped in Python fails the page's type check. A list of
`history.Record` (log entries and undo records, free-form dicts to Python)
is `unknown[]`, unless annotated with the TypedDict its entries follow
(`Annotated[list[Record], LogEntry]`).
"""

from __future__ import annotations

import json
import sys
import types
import typing
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from .registry import all_trackers

HEADER = "// Written by `python -m calculators.typescript` (make lint) from the trackers' TypedDicts: not edited by hand.\n"


def declarations(roots: Iterable[type]) -> str:
    """The TypeScript interfaces of `roots` and of every TypedDict they hold, each once, in the order met."""
    done: dict[str, str] = {}
    for root in roots:
        _name(root, done)
    return HEADER + "\n".join(text for text in done.values()) + "\n"


def _name(td: type, done: dict[str, str]) -> str:
    name = td.__name__
    if name not in done:
        done[name] = ""  # taken before its fields are read: a TypedDict that holds itself ends here
        done[name] = _interface(td, done)
    return name


def _interface(td: type, done: dict[str, str]) -> str:
    hints = typing.get_type_hints(td, include_extras=True)
    optional: frozenset[str] = getattr(td, "__optional_keys__", frozenset())
    lines = []
    for key, hint in hints.items():
        origin = typing.get_origin(hint)
        maybe = key in optional or origin is typing.NotRequired
        if origin in (typing.NotRequired, typing.Required):
            hint = typing.get_args(hint)[0]
        lines.append(f"  {key}{'?' if maybe else ''}: {_ts(hint, done)};")
    doc = (td.__doc__ or "").strip().split("\n\n")[0].replace("\n", " ")
    doc = "" if not doc or doc.startswith(f"{td.__name__}(") else f"/** {' '.join(doc.split())} */\n"
    return f"{doc}export interface {td.__name__} {{\n" + "\n".join(lines) + "\n}\n"


def _ts(hint: Any, done: dict[str, str]) -> str:
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    simple = {str: "string", int: "number", float: "number", bool: "boolean", type(None): "null", object: "unknown",
              Any: "unknown"}
    if hint in simple:
        return simple[hint]
    if typing.is_typeddict(hint):
        return _name(hint, done)
    if origin is typing.Annotated:
        inner, *meta = args
        follows = next((m for m in meta if typing.is_typeddict(m)), None)
        if follows is not None and typing.get_origin(inner) is list:
            return f"{_name(follows, done)}[]"
        return _ts(inner, done)
    if origin in (typing.Union, types.UnionType):
        return " | ".join(_ts(a, done) for a in args)
    if origin is typing.Literal:
        return " | ".join(json.dumps(a) for a in args)
    if origin is list:
        item = _ts(args[0], done) if args else "unknown"
        return f"({item})[]" if "|" in item else f"{item}[]"
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return _ts(list[args[0]], done)  # type: ignore[valid-type]
        return "[" + ", ".join(_ts(a, done) for a in args) + "]"
    if origin is dict:
        return f"Record<{_ts(args[0], done)}, {_ts(args[1], done)}>" if args else "Record<string, unknown>"
    if isinstance(hint, type) and issubclass(hint, dict):
        return "Record<string, unknown>"
    raise TypeError(f"No TypeScript for {hint!r}: give calculators.typescript a case for it.")


def tracker_declarations() -> str:
    """Every tracker's state, as the page reads it, and the trackers' names (`TrackerName`: a page script's name
    of a tracker, a storage key or a loader's, is checked against Python's)."""
    trackers = all_trackers()
    names = " | ".join(json.dumps(name) for name in trackers)
    return declarations(t.state_type for t in trackers.values() if t.state_type is not None) + f"\nexport type TrackerName = {names};\n"


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m calculators.typescript OUT.d.ts", file=sys.stderr)
        return 2
    out = Path(argv[0])
    text = tracker_declarations()
    if not out.exists() or out.read_text(encoding="utf-8") != text:
        out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
