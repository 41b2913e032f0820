"""Tell-Tale decks: a decklist read and checked against the deck rules."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..checks import InputError

# ---------------------------------------------------------------- rule data

DECK_MIN, DECK_MAX = 40, 100  # tt.deck.size
COPY_LIMIT = 4  # tt.deck.copies


# ---------------------------------------------------------------- decks


@dataclass(frozen=True)
class DeckCheck:
    size: int
    counts: tuple[tuple[str, int], ...]
    problems: tuple[str, ...]

    @property
    def legal(self) -> bool:
        return not self.problems


# Caps on what a decklist field takes: 100 cards of long names on 100 lines,
# set codes and comments besides, fit many times over.
DECKLIST_MAX_LENGTH = 20_000  # characters
DECKLIST_MAX_LINES = 1_000
EXEMPT_MAX_LENGTH = 2_000  # characters of the "allowed past 4 copies" list
EXEMPT_MAX_NAMES = 100
COPY_DIGITS = 6  # more copies than any deck holds; also keeps int() under Python's digit limit


def _copies(token: str) -> str | None:
    """A copy count written '4', '4x', '4X' or '-2' (ASCII digits): its signed digits; else None."""
    body = token[:-1] if token[-1:] in ("x", "X") else token
    digits = body[1:] if body[:1] == "-" else body
    return body if digits.isascii() and digits.isdigit() else None


def _count_and_name(line: str) -> tuple[str | None, str]:
    """Split "4 Bolt", "4x Bolt", "4 x Bolt" into count and name; a bare name has no count.

    str.split, no regular expression: linear in the line's length however
    its spaces and digits run.
    """
    parts = line.split(None, 1)
    if len(parts) == 2 and (count := _copies(parts[0])) is not None:
        name = parts[1]
        if parts[0][-1] not in "xX":  # "4 x Bolt"
            more = name.split(None, 1)
            if len(more) == 2 and more[0] in ("x", "X"):
                name = more[1]
        return count, name
    return None, line


def parse_decklist(text: str) -> tuple[tuple[str, int], ...]:
    """Read "4 Lightning Bolt" lines (also "4x ..." or a bare name for one copy).

    Blank lines and lines starting with # or // are skipped; the same card on
    two lines adds up. Names compare without regard to case. At most
    DECKLIST_MAX_LINES lines.
    """
    if not isinstance(text, str):
        raise InputError("A decklist is text, one card per line, like '4 Lightning Bolt'.", "decklist")
    lines = text.splitlines()
    if len(lines) > DECKLIST_MAX_LINES:
        raise InputError(f"A decklist has at most {DECKLIST_MAX_LINES:,} lines; this one has {len(lines):,}.", "decklist")
    counts: dict[str, int] = {}
    names: dict[str, str] = {}
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or line.startswith(("#", "//")):
            continue
        count, rest = _count_and_name(line)
        name = " ".join(rest.split())
        digits = count or "1"
        if len(digits.lstrip("-")) > COPY_DIGITS:
            raise InputError(f"Line {number}: {digits[:12]}... copies of {name[:40]!r} is more than any deck holds.", "decklist")
        copies = int(digits)
        if copies < 1:
            raise InputError(f"Line {number}: a card is listed with at least 1 copy; got {copies} of {name[:40]!r}.", "decklist")
        key = name.casefold()
        names.setdefault(key, name)
        counts[key] = counts.get(key, 0) + copies
    return tuple((names[k], n) for k, n in counts.items())


def parse_exempt(text: str) -> tuple[str, ...]:
    """Card names apart by commas or lines, at most EXEMPT_MAX_NAMES."""
    names = tuple(e.strip() for e in re.split(r"[,\n]", text) if e.strip())
    if len(names) > EXEMPT_MAX_NAMES:
        raise InputError(f"Cards allowed past {COPY_LIMIT} copies: name at most {EXEMPT_MAX_NAMES}; got {len(names):,}.", "exempt")
    return names


def check_deck(decklist: str, *, exempt: tuple[str, ...] | str = ()) -> DeckCheck:
    """Check a deck: 40 to 100 cards, no more than 4 of a card (tt.deck.size, tt.deck.copies).

    List only the deck: lands, the PC and the companion are a separate stack
    (tt.ruling.deck-limits). `exempt` names cards a table lets past the
    4-copy limit (none by the ruling).
    """
    if isinstance(exempt, str):
        exempt = parse_exempt(exempt)
    free = {e.casefold() for e in exempt}
    counts = parse_decklist(decklist)
    size = sum(n for _, n in counts)
    problems = []
    if size < DECK_MIN:
        problems.append(f"The deck has {size} cards; it needs at least {DECK_MIN}.")
    if size > DECK_MAX:
        problems.append(f"The deck has {size} cards; it can have at most {DECK_MAX}.")
    for name, n in counts:
        if n > COPY_LIMIT and name.casefold() not in free:
            problems.append(f"{n} copies of {name}: no more than {COPY_LIMIT} identical cards.")
    return DeckCheck(size, counts, tuple(problems))


