"""A decklist read from text, one card a line, the same way for every game.

    4 Lightning Bolt     4x Lightning Bolt     4 x Lightning Bolt     4× Lightning Bolt
    Lightning Bolt x4    Lightning Bolt x 4    Lightning Bolt (one copy)

Blank lines and lines starting with # or // are skipped. A count is a whole
number of 1 or more in ASCII digits; a line of no such shape is a card's
name ("X-Wing", "Axeman -2"). The same card on two lines adds up: names
compare without regard to case or spacing (`card_key`), the first spelling
kept, its spaces closed up. Tell-Tale's decklist (`tell_tale.parse_decklist`)
and RPGDL's Season Deck (`rpgdl.parse_season_deck`) read it; each game checks
the deck against its own rules. No regular expression: str.split and
str.rsplit, linear however a line's spaces, digits and x's run.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from .checks import InputError, quote

COPY_DIGITS = 6  # more copies than any deck holds; also keeps int() under Python's digit limit
TIMES = ("x", "X", "×")  # between a count and a name: 4x Bolt, Bolt x4
COMMENTS = ("#", "//")  # a line starting with one is skipped


def card_key(name: str) -> str:
    """What two spellings of one card share: its words, lowercase ("Lightning  bolt" -> "lightning bolt")."""
    return " ".join(name.split()).casefold()


def text_lines(text: object, most: int, what: str, field: str) -> list[str]:
    """The lines of a list typed one item a line, at most `most` of them, else InputError naming `what`."""
    if not isinstance(text, str):
        raise InputError(f"{what} is text, one entry per line; got {type(text).__name__}.", field)
    lines = text.splitlines()
    if len(lines) > most:
        raise InputError(f"{what} has at most {most:,} lines; this one has {len(lines):,}.", field)
    return lines


def _signed_digits(text: str) -> str | None:
    """`text` if it is a whole number in ASCII digits, such as '4' or '-2'; else None."""
    digits = text[1:] if text[:1] == "-" else text
    return text if digits.isascii() and digits.isdigit() else None


def count_and_name(line: str) -> tuple[str | None, str]:
    """A stripped line split into its count's signed digits (None: none written) and the name."""
    parts = line.split(None, 1)
    if len(parts) == 2:
        first = parts[0][:-1] if parts[0][-1] in TIMES else parts[0]
        count = _signed_digits(first)
        if count is not None:  # "4 Name", "4x Name"
            name = parts[1]
            if first == parts[0]:  # "4 x Name"
                more = name.split(None, 1)
                if len(more) == 2 and more[0] in TIMES:
                    name = more[1]
            return count, name
    parts = line.rsplit(None, 1)
    if len(parts) == 2:
        head, last = parts
        if last[0] in TIMES and (count := _signed_digits(last[1:])) is not None:  # "Name x4"
            return count, head
        inner = head.rsplit(None, 1)
        if len(inner) == 2 and inner[1] in TIMES and (count := _signed_digits(last)) is not None:  # "Name x 4"
            return count, inner[0]
    return None, line


def card_lines[T](text: object, *, what: str, field: str, most: int,
               tail: Callable[[str, int], tuple[str, T]]) -> Iterator[tuple[int, str, int, T]]:
    """Each card line of a decklist as (its line number, the card's name, its copies, what `tail` took off it).

    `tail(line, number)` takes a game's own marks off the end of a stripped
    line before the count and name are read (Tell-Tale's tags, "4 Elves [G]")
    and gives the rest with what it read; it raises InputError naming the
    line. A count of 0 or less, or of more than COPY_DIGITS digits, is refused
    naming its line.
    """
    for number, raw in enumerate(text_lines(text, most, what, field), start=1):
        line = raw.strip()
        if not line or line.startswith(COMMENTS):
            continue
        line, extra = tail(line, number)
        digits, rest = count_and_name(line)
        name = " ".join(rest.split())
        digits = digits or "1"
        if len(digits.lstrip("-")) > COPY_DIGITS:
            raise InputError(f"Line {number}: {quote(digits)} copies of {quote(name, 40)} is more than any deck holds.",
                             field)
        count = int(digits)
        if count < 1:
            raise InputError(f"Line {number}: a card is listed with at least 1 copy; got {count} of {quote(name, 40)}.",
                             field)
        yield number, name, count, extra


def _untouched(line: str, number: int) -> tuple[str, None]:
    return line, None


def parse_decklist(text: object, *, what: str, field: str, most: int) -> tuple[tuple[str, int], ...]:
    """Each card of a decklist once, with its copies, in the order first listed; at most `most` lines.

    `what` names the list in an error sentence ("A decklist has at most 1,000
    lines; ..."), `field` is the form's field the error points at. A count of 0
    or less, or of more than COPY_DIGITS digits, is refused naming its line.
    """
    copies: dict[str, int] = {}
    names: dict[str, str] = {}
    for _, name, count, _ in card_lines(text, what=what, field=field, most=most, tail=_untouched):
        key = card_key(name)
        names.setdefault(key, name)
        copies[key] = copies.get(key, 0) + count
    return tuple((names[key], n) for key, n in copies.items())
