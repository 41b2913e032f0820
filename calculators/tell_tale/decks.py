"""Tell-Tale decks: a decklist read and checked against the deck rules."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .. import decklists
from ..checks import InputError
from ..decklists import COPY_DIGITS as COPY_DIGITS  # more copies than any deck holds

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


def parse_decklist(text: str) -> tuple[tuple[str, int], ...]:
    """Read "4 Lightning Bolt" lines (also "4x ...", "Lightning Bolt x4" or a bare name for one copy).

    Blank lines and lines starting with # or // are skipped; the same card on
    two lines adds up. Names compare without regard to case or spacing. At most
    DECKLIST_MAX_LINES lines. The reading is every game's (calculators/decklists.py).
    """
    return decklists.parse_decklist(text, what="A decklist", field="decklist", most=DECKLIST_MAX_LINES)


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
    free = {decklists.card_key(e) for e in exempt}
    counts = parse_decklist(decklist)
    size = sum(n for _, n in counts)
    problems = []
    if size < DECK_MIN:
        problems.append(f"The deck has {size} cards; it needs at least {DECK_MIN}.")
    if size > DECK_MAX:
        problems.append(f"The deck has {size} cards; it can have at most {DECK_MAX}.")
    for name, n in counts:
        if n > COPY_LIMIT and decklists.card_key(name) not in free:
            problems.append(f"{n} copies of {name}: no more than {COPY_LIMIT} identical cards.")
    return DeckCheck(size, counts, tuple(problems))


