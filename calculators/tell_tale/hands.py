"""Tell-Tale's opening hand and mulligans.

tt.gameplay.opening-hand: 7 cards. tt.gameplay.mulligans: one free
mulligan, then smaller hands; tt.ruling.mulligans says how much smaller
(one card fewer each time: 7, 7, 6, 5, ...), with Magic's London mulligan
(draw 7, put one on the bottom per mulligan after the free one) as the
alternative. The odds are those of finding a card with `copies` copies in
a deck of `deck` cards (the lands are a stack of their own, never in the
deck: tt.deck.land-stack).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import icepool

from ..checks import InputError, one_of, whole

OPENING_HAND = 7
FREE_MULLIGANS = 1
MULLIGAN_RULES = ("smaller", "london")
MAX_MULLIGANS = 7  # an eighth would leave a hand of 0 cards


@dataclass(frozen=True)
class Mulligan:
    mulligans: int
    rule: str
    drawn: int  # cards drawn for this hand
    bottom: int  # cards then put on the bottom (London)
    hand: int  # cards kept
    free: bool  # this hand came from the free mulligan


def hand_size(mulligans: int, *, rule: str = "smaller") -> Mulligan:
    """The hand after `mulligans` mulligans."""
    mulligans = whole(mulligans, "Mulligans taken", "mulligans", minimum=0, maximum=MAX_MULLIGANS)
    one_of(rule, MULLIGAN_RULES, "rule", "The mulligan rule is smaller or london")
    reduced = max(0, mulligans - FREE_MULLIGANS)
    if rule == "smaller":
        return Mulligan(mulligans, rule, OPENING_HAND - reduced, 0, OPENING_HAND - reduced, mulligans == FREE_MULLIGANS)
    return Mulligan(mulligans, rule, OPENING_HAND, reduced, OPENING_HAND - reduced, mulligans == FREE_MULLIGANS)


def mulligan(mulligans: int, *, rule: str = "smaller", deck: int = 40, copies: int = 4) -> tuple[Mulligan,
                                                                                                 dict[int, Fraction]]:
    """The hand after `mulligans` mulligans and the exact chance of holding 0, 1, ... copies of a card.

    With the London rule the player sees 7 cards and keeps the copies among
    them as far as the smaller hand allows.
    """
    m = hand_size(mulligans, rule=rule)
    deck = whole(deck, "Deck size", "deck", minimum=OPENING_HAND, maximum=1000)
    copies = whole(copies, "Copies in the deck", "copies", minimum=0)
    if copies > deck:
        raise InputError(f"A deck of {deck} cards cannot hold {copies} copies.", "copies")
    seen = icepool.Deck({1: copies, 0: deck - copies}).deal(m.drawn).sum() if copies else icepool.Die([0])
    kept = seen.map(lambda n: min(n, m.hand))
    return m, {int(k): kept.probability(k) for k in kept.outcomes()}
