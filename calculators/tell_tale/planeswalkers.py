"""Tell-Tale's planeswalker abilities: what one costs.

tt.planeswalker.ability-cost: an ability with a printed loyalty cost of +X
or -X costs (X) mana and changes the PC's Toughness by +X or -X until the
start of its next turn. tt.ruling.planeswalker-toughness decides what the
text leaves open: a minus cost needs that much Toughness (or, at a table
that says so, the rest comes off Vitality), a plus is taken away again at
the start of the next turn without touching Vitality, and the Toughness a
minus took comes back then. The calculator and the encounter tracker both
use `planeswalker_ability`.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..checks import InputError, one_of, whole
from .combat import apply_damage

SHORTFALLS = ("refuse", "vitality")
MAX_LOYALTY_COST = 20


@dataclass(frozen=True)
class AbilityCost:
    """What activating the ability does, and what comes back at the next turn."""

    cost: int  # the printed loyalty cost, +X or -X
    mana: int  # X
    paid: bool  # False: the ability cannot be activated (see reason)
    reason: str  # "", "mana" or "toughness"
    toughness: int  # Toughness after paying
    vitality: int  # Vitality after paying
    to_toughness: int  # the Toughness change now: +X, or minus what Toughness paid
    to_vitality: int  # Vitality lost paying a minus cost beyond the Toughness left
    next_turn_toughness: int  # Toughness at the start of the next turn, if nothing else changes it
    dispelled: bool  # Toughness reached 0: summons and enchantments dispel


def planeswalker_ability(
    cost: int,
    toughness: int,
    vitality: int,
    *,
    mana: int | None = None,
    full_toughness: int | None = None,
    shortfall: str = "refuse",
) -> AbilityCost:
    """The two costs of a planeswalker ability with printed loyalty cost `cost`.

    `toughness` is the PC's Toughness left now; `mana` the mana it has (None:
    not checked); `full_toughness` caps what a minus gives back at the next
    turn (None: no cap).
    """
    cost = whole(cost, "Loyalty cost", "cost", minimum=-MAX_LOYALTY_COST, maximum=MAX_LOYALTY_COST)
    toughness = whole(toughness, "Toughness", "toughness", minimum=0)
    vitality = whole(vitality, "Vitality", "vitality")
    if mana is not None:
        mana = whole(mana, "Mana available", "mana", minimum=0)
    one_of(shortfall, SHORTFALLS, "shortfall",
           "A minus cost beyond the Toughness left is refused or comes off Vitality")
    x = abs(cost)

    def unpaid(reason: str) -> AbilityCost:
        return AbilityCost(cost, x, False, reason, toughness, vitality, 0, 0, toughness, False)

    if mana is not None and mana < x:
        return unpaid("mana")
    if cost >= 0:
        return AbilityCost(cost, x, True, "", toughness + x, vitality, x, 0, toughness, False)
    if toughness < x and shortfall == "refuse":
        return unpaid("toughness")
    hit = apply_damage(toughness, vitality, x)  # a negative effect: Toughness first, then Vitality
    back = hit.toughness + hit.to_toughness
    if full_toughness is not None:
        full_toughness = whole(full_toughness, "Full Toughness", "full_toughness", minimum=0)
        if full_toughness < toughness:
            raise InputError(f"Full Toughness is at least the Toughness left ({toughness}); got {full_toughness}.",
                             "full_toughness")
        back = min(back, full_toughness)
    return AbilityCost(cost, x, True, "", hit.toughness, hit.vitality, -hit.to_toughness, hit.to_vitality, back,
                       hit.toughness == 0 and toughness > 0)
