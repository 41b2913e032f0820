"""Tell-Tale's Trample charge: one attack roll per enemy in the line, each
hit followed by an opposed save against being knocked down.

tt.keyword.trample gives the charge; tt.ruling.trample-charge says how it
is rolled (in the order of the line, a hit is any roll that is not a miss,
one roll per enemy even with Double Strike); tt.ruling.opposed-saves and
tt.ruling.vigilance-knockdown decide the save. Built from the attack and
save functions of `combat`, which the encounter tracker uses too.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

import icepool

from ..checks import InputError, one_of, whole
from .combat import Attack, Save, attack_band, attack_die, expected_damage, kept_d20, needs_crit_d4, opposed_save, resolve_attack, save_holds

MAX_ENEMIES = 6  # a form's line of enemies; the tracker takes as many as the encounter holds


@dataclass(frozen=True)
class ChargeHit:
    """What the charge did to one enemy in the line."""

    attack: Attack | None  # None: the enemy jumped aside
    save: Save | None  # None: missed, jumped aside, vigilant, already tapped, or out of the fight
    outcome: str  # jumped, miss, standing, knocked-down, immune, already-down
    damage: int


def charge_enemy(
    power: int,
    d20: object,
    *,
    mode: str = "normal",
    crit_d4: int | None = None,
    effect_d20: int | None = None,
    save_d20: object = None,
    save_mode: str = "normal",
    vigilance: bool = False,
    jump: bool = False,
    tie: str = "saver",
    down: bool = False,
    tapped: bool = False,
) -> ChargeHit:
    """One enemy in the charge's line.

    The attack roll is read on the attack table; a roll that is not a miss
    hits, deals its damage and calls for the knock-down save (`effect_d20`
    against `save_d20`) unless the enemy has Vigilance (immune), is
    `down` (unconscious or dead from this hit: no save) or is already
    `tapped` (kneeling, knocked down or detained: it is not knocked down
    again, no save). A vigilant enemy may `jump` aside instead: no roll at all.
    """
    if jump:
        if not vigilance:
            raise InputError("Only a character with Vigilance can jump aside from a Trample charge.", "jump")
        return ChargeHit(None, None, "jumped", 0)
    attack = resolve_attack(power, d20, mode=mode, crit_d4=crit_d4)
    if attack.outcome == "miss":
        return ChargeHit(attack, None, "miss", 0)
    if vigilance:
        return ChargeHit(attack, None, "immune", attack.damage)
    if down:
        return ChargeHit(attack, None, "standing", attack.damage)
    if tapped:
        return ChargeHit(attack, None, "already-down", attack.damage)
    if effect_d20 is None or save_d20 is None:
        raise InputError("A hit calls for the knock-down save: give the charger's d20 and the enemy's d20.",
                         "effect_d20" if effect_d20 is None else "save_d20")
    save = opposed_save(effect_d20, save_d20, mode=save_mode, against="knockdown", tie=tie)
    return ChargeHit(attack, save, "knocked-down" if save.outcome == "failed" else "standing", attack.damage)


@dataclass(frozen=True)
class Charge:
    hits: tuple[ChargeHit, ...]
    damage: int  # all enemies together
    knocked_down: int
    outcome: str  # clear (no hit), hits (none knocked down), some-down, all-down


def trample_charge(
    power: int,
    attacks: Iterable[object],
    saves: Iterable[tuple[int | None, object]] = (),
    *,
    mode: str = "normal",
    crit_d4s: Iterable[int | None] = (),
    save_mode: str = "normal",
    vigilance: bool = False,
    tie: str = "saver",
) -> Charge:
    """A Trample charge through len(attacks) enemies alike (tt.ruling.trample-charge).

    `attacks`: each enemy's attack d20 (a pair with advantage or disadvantage),
    in the order of the line; `crit_d4s`: one d4 per kept 20, in order;
    `saves`: one (charger's d20, enemy's d20 or pair) per hit, in order.
    Vigilant enemies stand their ground and are never knocked down.
    """
    attacks = list(attacks)
    if not 1 <= len(attacks) <= 100:
        raise InputError("A charge goes through 1 or more enemies: give one attack roll for each.", "attack_d20")
    crits, pairs = list(crit_d4s), list(saves)
    hits = []
    for i, d20 in enumerate(attacks):
        d4 = None
        if needs_crit_d4(d20, mode, "attack_d20"):
            if not crits:
                raise InputError(f"Enemy {i + 1}'s attack is a critical hit: give a d4 for it.", "crit_d4")
            d4 = crits.pop(0)
        effect = save = None
        if attack_band(kept_d20(d20, mode, "attack_d20")) != "miss" and not vigilance:
            if not pairs:
                raise InputError(f"Enemy {i + 1} is hit and saves against the knock-down: give the charger's d20 and the enemy's d20 for it.", "save_d20")
            effect, save = pairs.pop(0)
        hits.append(charge_enemy(power, d20, mode=mode, crit_d4=d4, effect_d20=effect, save_d20=save,
                                 save_mode=save_mode, vigilance=vigilance, tie=tie))
    if crits:
        raise InputError(f"{len(crits)} critical d4 more than the critical hits need.", "crit_d4")
    if pairs:
        raise InputError(f"{len(pairs)} knock-down save more than the hits need.", "save_d20")
    down = sum(h.outcome == "knocked-down" for h in hits)
    landed = sum(h.outcome != "miss" for h in hits)
    outcome = "clear" if not landed else "hits" if not down else "all-down" if down == len(hits) else "some-down"
    return Charge(tuple(hits), sum(h.damage for h in hits), down, outcome)


def _knock_die(mode: str, save_mode: str, vigilance: bool, tie: str) -> icepool.Die:
    """1 if one enemy is hit and knocked down, else 0."""
    hit = attack_die(mode).map(lambda d: attack_band(d) != "miss")
    if vigilance:
        return hit.map(lambda h: 0)

    def fails(effect: int, save: int) -> bool:
        return not save_holds(save, effect, tie)

    failed = icepool.map(fails, icepool.d20, attack_die(save_mode))
    return icepool.map(lambda h, f: int(h and f), hit, failed)


def charge_odds(enemies: int, *, mode: str = "normal", save_mode: str = "normal", vigilance: bool = False,
                tie: str = "saver") -> dict[int, Fraction]:
    """Exact chance that 0, 1, ... `enemies` enemies end up knocked down."""
    enemies = whole(enemies, "Enemies in the line", "enemies", minimum=1, maximum=100)
    one_of(tie, ("saver", "effect"), "tie", "A tie goes to the saver or to the effect")
    total = enemies @ _knock_die(mode, save_mode, bool(vigilance), tie)
    return {k: total.probability(k) for k in range(enemies + 1)}


def charge_expected_damage(power: int, enemies: int, *, mode: str = "normal") -> Fraction:
    """The average damage of the whole charge, exactly: one attack per enemy."""
    return whole(enemies, "Enemies in the line", "enemies", minimum=1) * expected_damage(power, mode=mode)
