"""Tell-Tale decks: a decklist read and checked against the deck rules.

A line may carry what the player knows of the card in brackets (`deck_tags`):
`4 Llanowar Elves [G]`, `1 Ajani Goldmane [legendary W]`, `3 Forest [land G]`.
Lands tagged [land] are the land stack, apart from the deck
(tt.deck.land-stack); the check compares them with the level, and every
tagged card with the PC's color identity, as far as the tags tell.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .. import decklists
from ..checks import InputError, whole
from ..decklists import COPY_DIGITS as COPY_DIGITS  # more copies than any deck holds
from .characters import STARTING_LEVEL
from .deck_tags import HYBRID, CardTags, colors_said, fits, parse_identity, split_tags

# ---------------------------------------------------------------- rule data

DECK_MIN, DECK_MAX = 40, 100  # tt.deck.size
COPY_LIMIT = 4  # tt.deck.copies
# What the deck check cites: every rule and ruling it applies.
DECK_RULES = ("tt.deck.size", "tt.deck.copies", "tt.ruling.deck-limits", "tt.deck.legendary", "tt.deck.color-identity",
              "tt.deck.land-stack", "tt.deck.lands-match-level", "tt.levels.lands", "tt.ruling.hybrid-identity")


# ---------------------------------------------------------------- decks


@dataclass(frozen=True)
class DeckCheck:
    size: int  # cards in the deck: the land stack apart
    counts: tuple[tuple[str, int], ...]  # the deck's cards and copies
    problems: tuple[str, ...]
    lands: tuple[tuple[str, int], ...] = ()  # the lines tagged [land]: the land stack
    unchecked: tuple[str, ...] = ()  # what the tags left the check unable to see, in sentences

    @property
    def land_count(self) -> int:
        return sum(n for _, n in self.lands)

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
    DECKLIST_MAX_LINES lines. Tags in brackets at a line's end are read and
    left out of the name. The reading is every game's (calculators/decklists.py).
    """
    return tuple((name, n) for name, n, _ in parse_tagged_decklist(text))


def parse_tagged_decklist(text: str) -> tuple[tuple[str, int, CardTags | None], ...]:
    """Each card once, with its copies and its tags (None: never tagged), in the order first listed.

    A card tagged on two lines must be tagged alike on both; a line without
    tags takes the card's tags from the others.
    """
    names: dict[str, str] = {}
    copies: dict[str, int] = {}
    tagged: dict[str, tuple[CardTags, int]] = {}  # a card's tags and the line that first gave them
    lines = decklists.card_lines(text, what="A decklist", field="decklist", most=DECKLIST_MAX_LINES, tail=split_tags)
    for number, name, count, tags in lines:
        key = decklists.card_key(name)
        names.setdefault(key, name)
        copies[key] = copies.get(key, 0) + count
        if tags is not None:
            first = tagged.setdefault(key, (tags, number))
            if first[0] != tags:
                raise InputError(f"Line {number}: {name} is tagged otherwise on line {first[1]}; give a card the same tags "
                                 "on every line, or tag it on one line only.", "decklist")
    return tuple((names[key], n, tagged[key][0] if key in tagged else None) for key, n in copies.items())


def parse_exempt(text: str) -> tuple[str, ...]:
    """Card names apart by commas or lines, at most EXEMPT_MAX_NAMES."""
    names = tuple(e.strip() for e in re.split(r"[,\n]", text) if e.strip())
    if len(names) > EXEMPT_MAX_NAMES:
        raise InputError(f"Cards allowed past {COPY_LIMIT} copies: name at most {EXEMPT_MAX_NAMES}; got {len(names):,}.", "exempt")
    return names


def check_deck(decklist: str, *, exempt: tuple[str, ...] | str = (), identity: str | frozenset[str] | None = None,
               level: int | None = None, hybrid: str = "every") -> DeckCheck:
    """Check a deck: 40 to 100 cards, no more than 4 of a card (tt.deck.size, tt.deck.copies), and what its tags say.

    List the deck; lines tagged [land] are the land stack, apart from it
    (tt.deck.land-stack, tt.ruling.deck-limits). `exempt` names cards a table
    lets past the 4-copy limit (none by the ruling). With the PC's color
    `identity` ("GW"), every card tagged with colors must fit it
    (tt.deck.color-identity; a hybrid card as `hybrid` says,
    tt.ruling.hybrid-identity); with the PC's `level`, the lands must number
    as many (tt.deck.lands-match-level). A card tagged [legendary] may not be
    in the deck (tt.deck.legendary). Untagged cards are not checked for what a
    tag would tell, and the result says so (`unchecked`).
    """
    if isinstance(exempt, str):
        exempt = parse_exempt(exempt)
    if not isinstance(identity, frozenset):
        identity = parse_identity(identity)
    if level is not None:
        whole(level, "The PC's level", "level", minimum=STARTING_LEVEL)
    if hybrid not in [v for v, _ in HYBRID]:
        raise InputError(f"A hybrid card needs one of {', '.join(v for v, _ in HYBRID)}; got {hybrid!r}.", "hybrid")
    free = {decklists.card_key(e) for e in exempt}
    cards = parse_tagged_decklist(decklist)
    counts = tuple((name, n) for name, n, tags in cards if not (tags and tags.land))
    lands = tuple((name, n) for name, n, tags in cards if tags and tags.land)
    size = sum(n for _, n in counts)
    problems = []
    if size < DECK_MIN:
        problems.append(f"The deck has {size} cards; it needs at least {DECK_MIN}.")
    if size > DECK_MAX:
        problems.append(f"The deck has {size} cards; it can have at most {DECK_MAX}.")
    for name, n in counts:
        if n > COPY_LIMIT and decklists.card_key(name) not in free:
            problems.append(f"{n} copies of {name}: no more than {COPY_LIMIT} identical cards.")
    for name, _, tags in cards:
        if tags and tags.legendary:
            problems.append(f"{name} is tagged [legendary]: the deck holds no legendary creature or planeswalker but the PC.")
    if identity is not None:
        for name, _, tags in cards:
            if tags and not fits(tags, identity, hybrid):
                hybrid_note = " (a hybrid card needs each of its colors)" if hybrid == "every" and any(len(g) > 1 for g in tags.colors) else ""
                problems.append(f"{name} is {colors_said(tags.colors)}, outside the PC's color identity ({colors_said(identity)}){hybrid_note}.")
    land_count = sum(n for _, n in lands)
    if level is not None and lands and land_count != level:
        problems.append(f"{land_count} land{'s' if land_count != 1 else ''} for a level {level} PC: a PC has as many lands as their level.")
    return DeckCheck(size, counts, tuple(problems), lands, _unchecked(cards, identity, level, land_count))


def _unchecked(cards: tuple[tuple[str, int, CardTags | None], ...], identity: frozenset[str] | None, level: int | None,
               land_count: int) -> tuple[str, ...]:
    """What the check could not see for want of card data: the sentences the result lists under "Not checked"."""
    notes = []
    plain = sum(n for _, n, tags in cards if not (tags and tags.has_color_tag))
    if identity is None:
        notes.append("Color identity: give the PC's colors to check the cards tagged with colors.")
    elif plain:
        notes.append(f"Color identity: {plain} card{'s carry' if plain != 1 else ' carries'} no color tag, so "
                     f"{'their' if plain != 1 else 'its'} colors are not checked.")
    if level is None:
        notes.append(f"Lands: give the PC's level to check the {land_count} tagged [land] against it." if land_count else
                     "Lands: give the PC's level and tag the lands [land] to check them against it.")
    elif not land_count:
        notes.append("Lands: no line is tagged [land], so the lands are not counted against the level.")
    notes.append("Legends: a legendary creature or planeswalker not tagged [legendary] is not seen.")
    notes.append("Modern legality and the GM's bans are the GM's to check (tt.deck.card-pool, tt.deck.gm-ban).")
    return tuple(notes)
