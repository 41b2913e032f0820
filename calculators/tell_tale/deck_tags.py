"""What a player knows of a card, written on its decklist line in brackets: its colors, a land, a legend.

    4 Llanowar Elves [G]      1 Ajani Goldmane [legendary W]     3 Plains [land W]
    2 Hallowed Fountain [land WU]    4 Boros Reckoner [R/W]      2 Ornithopter [C]

The site has no card data, so the deck check believes these tags and checks
only what they say (tt.deck.color-identity, tt.deck.legendary,
tt.deck.lands-match-level). A tag is one or more words in brackets at the end
of the line, apart by spaces or commas; a line takes at most MAX_TAGS of them.
Colors are the letters W, U, B, R and G: "[WU]" needs white and blue, "[W/U]"
is a hybrid card, white or blue (tt.ruling.hybrid-identity decides what that
needs), "[C]" is colorless. Reading a line's tags is one pass from its end
(str.rfind, str.split): linear in its length.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..checks import InputError, quote

# tt.glossary.color-identity, in Magic's order
COLORS = {"W": "white", "U": "blue", "B": "black", "R": "red", "G": "green"}
COLORLESS = ("c", "colorless", "colourless")
LAND = ("land",)
# a legendary creature or a planeswalker: what tt.deck.legendary bans
LEGENDARY = ("legendary", "legend", "planeswalker")
MAX_TAGS = 8  # words in brackets on one line: a card has at most five colors, a land and a legend
IDENTITY_MAX_LENGTH = 40  # characters of the PC's color identity field
# tt.ruling.hybrid-identity: what a hybrid card ([W/U]) asks of the PC's color identity; the first is the ruling
HYBRID = (("every", "Every color (ruling)"), ("any", "Any one of them"))
TAG_HELP = "tags are colors such as [G], [WU] or the hybrid [W/U], [C] for colorless, [land] and [legendary]"


@dataclass(frozen=True)
class CardTags:
    """A card's tags: the color groups it needs (each a set of alternatives: [WU] is {{W}, {U}}; [W/U] is {{W, U}})."""

    colors: frozenset[frozenset[str]] = frozenset()
    colorless: bool = False
    land: bool = False
    legendary: bool = False

    @property
    def has_color_tag(self) -> bool:
        return bool(self.colors) or self.colorless


def _color_groups(word: str) -> tuple[frozenset[str], ...] | None:
    """'WU' -> ({W}, {U}); 'W/U' -> ({W, U},); None if `word` is not colors."""
    letters = word.upper()
    if "/" in letters:
        parts = letters.split("/")
        if all(len(p) == 1 and p in COLORS for p in parts):
            return (frozenset(parts),)
        return None
    if letters and all(c in COLORS for c in letters):
        return tuple(frozenset(c) for c in dict.fromkeys(letters))
    return None


def split_tags(line: str, number: int, field: str = "decklist") -> tuple[str, CardTags | None]:
    """A stripped decklist line without its bracketed tags, and the tags (None: the line has none).

    A '[' or ']' left in the rest of the line, a word that is no tag, more
    than MAX_TAGS words, or tags that contradict each other are refused in one
    sentence naming the line.
    """
    words: list[str] = []
    rest = line
    while rest.endswith("]"):
        start = rest.rfind("[")
        if start < 0:
            raise InputError(f"Line {number}: a ']' closes no '['; {TAG_HELP}, at the end of the line.", field)
        inside = rest[start + 1:-1]
        if "]" in inside:
            raise InputError(f"Line {number}: a tag is in one pair of brackets, like [G]; got {quote(rest[start:], 30)}.", field)
        found = inside.replace(",", " ").split()
        if not found:
            raise InputError(f"Line {number}: the brackets [] hold no tag; {TAG_HELP}.", field)
        words[:0] = found
        if len(words) > MAX_TAGS:
            raise InputError(f"Line {number}: a line has at most {MAX_TAGS} tags; this one has more.", field)
        rest = rest[:start].rstrip()
    if "[" in rest or "]" in rest:
        raise InputError(f"Line {number}: tags go in brackets at the end of the line, like '4 Llanowar Elves [G]'.",
                         field)
    if not words:
        return line, None
    return rest, _tags(words, number, field)


def _tags(words: list[str], number: int, field: str) -> CardTags:
    colors: list[frozenset[str]] = []
    colorless = land = legendary = False
    for word in words:
        low = word.lower()
        if low in COLORLESS:
            colorless = True
        elif low in LAND:
            land = True
        elif low in LEGENDARY:
            legendary = True
        elif (groups := _color_groups(word)) is not None:
            colors += groups
        else:
            raise InputError(f"Line {number}: {quote(word)} is not a tag; {TAG_HELP}.", field)
    if colorless and colors:
        raise InputError(f"Line {number}: a card is colorless [C] or has colors, not both.", field)
    if land and legendary:
        raise InputError(f"Line {number}: [legendary] marks a legendary creature or planeswalker, which is not a [land]; give the card one of the two.", field)
    return CardTags(frozenset(colors), colorless, land, legendary)


def parse_identity(text: str | None, field: str = "identity") -> frozenset[str] | None:
    """The PC's color identity from its letters ('GW', 'G/W', 'W U'); 'C' for colorless; None when left empty."""
    if text is None or not text.strip():
        return None
    words = text.replace(",", " ").replace("/", " ").split()
    if len(words) == 1 and words[0].lower() in COLORLESS:
        return frozenset()
    letters = "".join(words).upper()
    if len(text) > IDENTITY_MAX_LENGTH or not all(c in COLORS for c in letters):
        raise InputError(f"The PC's color identity is written in color letters, such as G, WU or WUB (C for colorless); got {quote(text)}.", field)
    return frozenset(letters)


def fits(tags: CardTags, identity: frozenset[str], hybrid: str = "every") -> bool:
    """Whether a card's colors are within the PC's color identity (colorless always is: tt.deck.color-identity)."""
    if hybrid == "every":
        return all(group <= identity for group in tags.colors)
    return all(group & identity for group in tags.colors)


def colors_said(colors: frozenset[frozenset[str]] | frozenset[str]) -> str:
    """Colors in words: {{W}, {U}} 'white and blue'; {{W, U}} 'white or blue'; an identity {W, U} 'white and blue'."""
    groups = [g if isinstance(g, frozenset) else frozenset(g) for g in colors]
    if not groups:
        return "colorless"
    order = list(COLORS)
    words = [" or ".join(COLORS[c] for c in sorted(g, key=order.index)) for g in sorted(groups,
                                                                                        key=lambda g: min(order.index(c) for c in g))]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
