"""RPGDL TCG deck checks: the Nom Pool and the Season Deck, read from text and checked."""

from __future__ import annotations

import string
from dataclasses import dataclass
from collections.abc import Mapping, Sequence

from .. import decklists
from ..checks import InputError, quote, whole
from ..decklists import COPY_DIGITS as COPY_DIGITS, card_key, text_lines  # COPY_DIGITS: more copies than any deck holds
from .data import DIVISION_NAMES, DIVISIONS, NOM_POOL_PER_DIVISION, NOM_POOL_SIZE, SEASON_DECK_COPIES, SEASON_DECK_MINIMUM, as_division
from .duels import Duelist

# ---------------------------------------------------------------- deck checks


@dataclass(frozen=True)
class DeckCheck:
    legal: bool
    total: int
    problems: tuple[str, ...]
    counts: Mapping[str, int]  # Nom Pool: per division; Season Deck: per card


# Caps on the text fields. A Nom Pool is 20 duelists and a Season Deck some
# 40 to 100 cards: long names, comments and spare lines fit many times over.
NOM_POOL_MAX_LENGTH = 10_000  # characters
NOM_POOL_MAX_LINES = 200
SEASON_DECK_MAX_LENGTH = 20_000  # characters
SEASON_DECK_MAX_LINES = 1_000

_NOM_SEPARATORS = (",", ";", "|", "(")
_NOM_DASHES = ("-", "–")  # only with a space on each side: "Worker 8 - Heavy"


def _nom_line(line: str) -> tuple[str, str] | None:
    """Split "Name, Division" (also ";", "|", " - ", "Name (Division)") into name and division word.

    The division is the run of letters at the end, the separator just before
    it. str.rstrip, no regular expression: linear however the line runs.
    None when the line is not of that shape.
    """
    body = line[:-1].rstrip() if line.endswith(")") else line
    head = body.rstrip(string.ascii_letters)
    division = body[len(head):]
    before = head.rstrip()
    if not division:
        return None
    if before.endswith(_NOM_SEPARATORS) or (before.endswith(_NOM_DASHES) and len(before) < len(head) and before[:-1] != before[:-1].rstrip()):
        name = before[:-1]
    else:
        return None
    name = name.strip()
    return (name, division) if name else None


def parse_nom_pool(text: str) -> tuple[tuple[str, str], ...]:
    """Read one duelist a line, "Name, Division" (or "Name (Division)"), at most NOM_POOL_MAX_LINES lines."""
    out = []
    for n, line in enumerate(text_lines(text, NOM_POOL_MAX_LINES, "A Nom Pool", "text"), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        found = _nom_line(line)
        if found is None:
            raise InputError(f"Line {n} should read like 'Worker 8, Heavy'; got {quote(line, 40)}.", "text")
        out.append((found[0], as_division(found[1], f"Line {n}'s division", "text")))
    return tuple(out)


# The rules a deck check applies, as the form and the season tracker cite them.
NOM_POOL_RULES = ("rpgdl.decks.nom-pool-size", "rpgdl.decks.nom-pool-names", "rpgdl.decks.nom-pool-replace",
                  "rpgdl.ruling.nom-pool-places")
SEASON_DECK_RULES = ("rpgdl.decks.season-deck-size", "rpgdl.decks.season-deck-copies",
                     "rpgdl.ruling.season-deck-contents")


def check_nom_pool(duelists: Sequence[Duelist | tuple[str, str]]) -> DeckCheck:
    """20 different duelists, at most 5 per division place, lower may replace higher (rpgdl.decks.*)."""
    pairs = []
    for card in duelists:
        if isinstance(card, Duelist):
            pairs.append((card.name, card.division))
        else:
            name, division = card
            pairs.append((str(name), as_division(division, f"{name}'s division", "duelists")))
    problems = []
    if len(pairs) != NOM_POOL_SIZE:
        problems.append(f"A Nom Pool has exactly {NOM_POOL_SIZE} duelists; this one has {len(pairs)}.")
    seen: dict[str, str] = {}
    for name, _ in pairs:
        key = card_key(name)
        if key in seen:
            problems.append(f"{name} is in the Nom Pool twice; only one duelist of each name may be used.")
        seen.setdefault(key, name)
    counts = {d: sum(1 for _, div in pairs if div == d) for d in DIVISIONS}
    running = 0
    for i, d in enumerate(DIVISIONS[:-1]):
        running += counts[d]
        cap = NOM_POOL_PER_DIVISION * (i + 1)
        if running > cap:
            above = " and ".join(DIVISION_NAMES[x] for x in DIVISIONS[: i + 1])
            problems.append(
                f"{running} duelists are {above}; at most {cap} may be, since a lower division may fill a higher "
                f"division's place but never the other way round."
            )
    return DeckCheck(not problems, len(pairs), tuple(problems), counts)


def parse_season_deck(text: str) -> dict[str, int]:
    """Read a decklist: "4 Suiko Scrub Flood", "Suiko Scrub Flood x4" or a name alone (one copy).

    At most SEASON_DECK_MAX_LINES lines; a count is 1 or more, in ASCII digits.
    The reading is every game's (calculators/decklists.py).
    """
    return dict(decklists.parse_decklist(text, what="A Season Deck list", field="text", most=SEASON_DECK_MAX_LINES))


def check_season_deck(cards: Mapping[str, int]) -> DeckCheck:
    """At least 40 cards, at most four copies of any card (rpgdl.decks.season-deck-*)."""
    merged: dict[str, int] = {}
    names: dict[str, str] = {}
    for name, count in cards.items():
        whole(count, f"The number of copies of {name}", "cards", minimum=1)
        key = card_key(str(name))
        names.setdefault(key, str(name))
        merged[names[key]] = merged.get(names[key], 0) + count
    total = sum(merged.values())
    problems = []
    if total < SEASON_DECK_MINIMUM:
        problems.append(f"A Season Deck has at least {SEASON_DECK_MINIMUM} cards; this one has {total}.")
    for name, count in merged.items():
        if count > SEASON_DECK_COPIES:
            problems.append(f"{name}: {count} copies; a Season Deck holds at most {SEASON_DECK_COPIES} of any card.")
    return DeckCheck(not problems, total, tuple(problems), merged)

