"""Input checks shared by every game, the registry and the command line.

One exception policy: bad input raises `InputError`, a `ValueError` with a
sentence a player understands and, where known, the field at fault (the
parameter's name). The pure rule functions, the forms' parsing and the
command line all raise it, so `except ValueError` catches any of them.

Two kinds of input arrive here: Python values given to a rule function
(`whole`, `die`, `one_of`), and text typed in a form or on a command line
(`whole_text`, `parse_numbers`, `parse_seed`), read with ASCII digits only
and a cap on their length before `int()` sees them.

Names a tracker keeps and shows back (a combatant, a player, a duelist, a
card) all pass `check_name`: no control, direction or zero-width character
(`UNSAFE`) gets into a saved state, where it could turn a terminal's or a
page's text around. `escaped` writes such characters as visible escapes,
for text from elsewhere that is printed all the same.
"""

from __future__ import annotations

import re
from typing import Any, TypeVar
from collections.abc import Collection

# A tracker's state as the code shared by every tracker sees it (the runner,
# history's undo): a JSON-ready object. Each tracker types and checks its own
# (tell_tale.encounter_state.Encounter, rpgdl.league.Season).
State = dict[str, Any]
# One step given to a tracker: {"do": one of its actions, ...that action's fields}.
Action = dict[str, Any]

__all__ = [
    "Action",
    "State",
    "InputError",
    "MAX_DIGITS",
    "MAX_SEED",
    "quote",
    "shown",
    "got",
    "whole",
    "within",
    "die",
    "one_of",
    "whole_text",
    "parse_numbers",
    "parse_seed",
    "blank",
    "UNSAFE",
    "MAX_NAME",
    "check_name",
    "escaped",
]

T = TypeVar("T")


class InputError(ValueError):
    """Bad input, with a sentence a player understands and the field at fault."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.field = field


MAX_DIGITS = 12  # digits of a whole number typed in a field, checked before int() sees it
MAX_SEED = 2**32 - 1
WHOLE = re.compile(r"[+-]?[0-9]+")  # ASCII digits only: int() would also take "1_000" and "١٢"
LIST_SEPARATORS = re.compile(r"[\s,;/]+")  # one character class, one quantifier: linear
# Characters that are no part of a name and can change how the text around them shows: control characters
# (C0, DEL, C1: a terminal's escape sequences, a bell), direction marks, embeddings, overrides and isolates
# (U+061C, U+200E-U+200F, U+202A-U+202E, U+2066-U+2069), zero-width and invisible ones (U+200B-U+200D, U+2060-U+2064,
# U+FEFF, U+180E), line and paragraph separators, interlinear annotations, and halves of a surrogate pair.
UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb\ud800-\udfff]")
MAX_NAME = 40  # characters of a name a tracker keeps: a combatant's, a player's


# ---------------------------------------------------------------- values in sentences


def quote(text: object, limit: int = 20) -> str:
    """`text` quoted for an error sentence: at most `limit` characters, then '…'."""
    text = text if isinstance(text, str) else shown(text)
    return repr(text if len(text) <= limit else text[:limit] + "…")


def shown(value: object) -> str:
    """A value for an error sentence; a huge int is not turned into its 4,000 digits."""
    if isinstance(value, int) and not -(10**MAX_DIGITS) < value < 10**MAX_DIGITS:
        return ("-" if value < 0 else "") + f"a number of more than {MAX_DIGITS} digits"
    return str(value)


def got(value: object) -> str:
    """What the caller gave, for "...; got 'x'.": its first 40 characters, quoted."""
    return repr(str(value)[:40])


def blank(raw: object) -> bool:
    """Nothing typed: None, or text of spaces only."""
    return raw is None or (isinstance(raw, str) and raw.strip() == "")


# ---------------------------------------------------------------- Python values


def within(value: int, what: str, field: str | None, minimum: int | None = None, maximum: int | None = None) -> int:
    """`value` if it lies in minimum..maximum (None: no bound)."""
    if minimum is not None and value < minimum:
        raise InputError(f"{what} must be at least {minimum}; got {shown(value)}.", field)
    if maximum is not None and value > maximum:
        raise InputError(f"{what} must be at most {maximum}; got {shown(value)}.", field)
    return value


def whole(value: object, what: str, field: str | None = None, *, minimum: int | None = None,
          maximum: int | None = None) -> int:
    """`value` if it is a whole number (an int, not a bool) within minimum..maximum."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f"{what} must be a whole number; got {got(value)}.", field)
    return within(value, what, field, minimum, maximum)


def die(value: object, sides: int, field: str | None = None, *, what: str | None = None) -> int:
    """The face a d`sides` shows: 1 to `sides`. `what` names the die when it is no whole number."""
    if isinstance(value, bool) or not isinstance(value, int):
        if what is not None:
            raise InputError(f"{what} must be a whole number; got {got(value)}.", field)
        raise InputError(f"A d{sides} shows a whole number from 1 to {sides}; got {got(value)}.", field)
    if not 1 <= value <= sides:
        raise InputError(f"A d{sides} shows 1 to {sides}; got {value}.", field)
    return value


def one_of[T](value: T, allowed: Collection[object], field: str | None, sentence: str) -> T:
    """`value` if it is one of `allowed`; else "{sentence}; got 'x'." """
    if value not in allowed:
        raise InputError(f"{sentence}; got {got(value)}.", field)
    return value


# ---------------------------------------------------------------- typed text


def whole_text(raw: object, what: str, field: str | None, *, minimum: int | None = None,
               maximum: int | None = None) -> int:
    """A whole number typed as text (or given as an int): digits 0 to 9, a sign, at most MAX_DIGITS digits."""
    if isinstance(raw, bool) or not isinstance(raw, (int, str)):
        raise InputError(f"{what} must be a whole number.", field)
    if isinstance(raw, int):
        value = raw
    else:
        text = raw.strip()
        if not WHOLE.fullmatch(text):
            if any(ch.isdigit() for ch in text):  # "1_000", "١٢", "1 000"
                raise InputError(f"{what} must be a whole number written with the digits 0 to 9 only; got {quote(text)}.", field)
            raise InputError(f"{what} must be a whole number; got {quote(text)}.", field)
        if len(text.lstrip("+-")) > MAX_DIGITS:
            raise InputError(f"{what} must be a whole number of at most {MAX_DIGITS} digits; got {quote(text)}.", field)
        value = int(text)
    return within(value, what, field, minimum, maximum)


def parse_numbers(raw: object, *, label: str, field: str, minimum: int, maximum: int, most: int,
                  example: str) -> tuple[int, ...]:
    """Whole numbers typed in one text field, apart by spaces, commas, semicolons or slashes.

    At most `most` are read; each is checked like a number field (digits 0 to
    9, a sign allowed, at most MAX_DIGITS, minimum..maximum) before int()
    sees it. `example` completes "{label}: type ...", e.g. "one whole number
    per week, like '3 0 5 2 1'". Errors name `field`.
    """
    text = "" if raw is None else raw if isinstance(raw, str) else str(raw)
    parts = [p for p in LIST_SEPARATORS.split(text) if p]
    if len(parts) > most:
        raise InputError(f"{label}: type at most {most} numbers; got {len(parts):,}.", field)
    for p in parts:
        if not WHOLE.fullmatch(p):
            raise InputError(f"{label}: type {example}; got {quote(p)}.", field)
    return tuple(whole_text(p, label, field, minimum=minimum, maximum=maximum) for p in parts)


def parse_seed(raw: object) -> int | None:
    """The seed that rolls the dice left out: 0 to MAX_SEED, or None for no seed."""
    if blank(raw):
        return None
    if isinstance(raw, int) and not isinstance(raw, bool):
        seed = raw
    else:
        text = str(raw).strip() if isinstance(raw, str) else ""
        if not WHOLE.fullmatch(text) or len(text) > MAX_DIGITS:  # ASCII digits; a huge number never reaches int()
            raise InputError(f"The seed must be a whole number from 0 to {MAX_SEED}; got {quote(raw, 40)}.", "seed")
        seed = int(text)
    if not 0 <= seed <= MAX_SEED:
        raise InputError(f"The seed must be a whole number from 0 to {MAX_SEED}; got {shown(seed)}.", "seed")
    return seed


# ---------------------------------------------------------------- names


def check_name(value: object, what: str = "A name", field: str | None = "name", *, most: int = MAX_NAME,
               empty: bool = False) -> str:
    """A name a tracker keeps and shows back: text, its runs of spaces made one, at most `most` characters.

    No control, direction or zero-width character (UNSAFE). Empty only when
    `empty` is true (a Weekend's duelist may go unnamed); then "" is returned.
    """
    if not isinstance(value, str):
        raise InputError(f"{what} must be text; got {quote(value)}.", field)
    name = " ".join(value.split())
    if not name and not empty:
        raise InputError(f"{what} cannot be empty.", field)
    if len(name) > most:
        raise InputError(f"{what} is {len(name):,} characters long; the limit is {most:,}.", field)
    if UNSAFE.search(name):
        raise InputError(f"{what} holds a control or direction character, or an invisible one: type the name again.",
                         field)
    return name


def escaped(text: str) -> str:
    """`text` with every UNSAFE character written as its escape (ESC as \\x1b, U+202E as \\u202e): safe to print."""
    return UNSAFE.sub(lambda m: ascii(m.group())[1:-1], text)
