"""Tell-Tale combat: the attack table, damage, Double Strike, First Strike, saves and Haste.

Pure functions over plain values with exact odds through icepool. Rule IDs
cited here are defined in docs/tell-tale/; where the rulebook is silent the
functions follow the site's rulings (tt.ruling.*) and take a setting for
the choice a table might make differently.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal, cast

import icepool

from ..checks import InputError, die, got, one_of, whole

# ---------------------------------------------------------------- rule data

# tt.combat.attack-table: (lowest d20, highest d20, outcome, label).
ATTACK_TABLE: tuple[tuple[int, int, str, str], ...] = (
    (1, 5, "miss", "Miss"),
    (6, 14, "half", "Half damage"),
    (15, 19, "full", "Full damage"),
    (20, 20, "critical", "Critical hit"),
)
BAND_LABELS = {outcome: label for _, _, outcome, label in ATTACK_TABLE}
BAND_RANGES = {outcome: (f"{low}-{high}" if low != high else f"{low}") for low, high, outcome, _ in ATTACK_TABLE}
MODES = ("normal", "advantage", "disadvantage")
MODE_CHOICES = (("normal", "Normal (1d20)"), ("advantage", "Advantage (2d20, high)"), ("disadvantage", "Disadvantage (2d20, low)"))  # MODES as a menu names them
SITUATION_CHOICES = (*MODE_CHOICES, ("surprise", "Surprise attack (advantage)"))  # an attack's: a surprise attack too (tt.ruling.surprise-attacks)
RollMode = Literal["normal", "advantage", "disadvantage"]  # a mode once checked (_mode): one of MODES
ROLLS = ("attack", "reflex save", "save")  # what a d20 is rolled for: Haste helps the first two, being tapped hinders attacks
VIGILANCE_BONUS = 5  # tt.keyword.vigilance
SAVES_AGAINST = ("knockdown", "tapping", "other")

# ---------------------------------------------------------------- checks


def _power(power: object, field: str = "power") -> int:
    power = whole(power, "Power", field)
    if power < 0:
        raise InputError(f"Power cannot go below 0; got {power}.", field)
    return power


def _mode(mode: object) -> RollMode:
    return cast("RollMode", one_of(mode, MODES, "mode", "The roll is normal, advantage or disadvantage"))


# ---------------------------------------------------------------- attacks


@dataclass(frozen=True)
class Attack:
    """One attack roll: the dice rolled, the die kept, its band and the damage."""

    power: int
    mode: str
    dice: tuple[int, ...]
    die: int
    outcome: str
    crit_d4: int | None
    damage: int


def attack_band(d20: int) -> str:
    """The attack-table outcome of a kept d20: miss, half, full or critical."""
    die(d20, 20, "d20")
    for low, high, outcome, _ in ATTACK_TABLE:
        if low <= d20 <= high:
            return outcome
    raise AssertionError("the attack table covers 1 to 20")  # pragma: no cover


def band_damage(power: int, outcome: str, crit_d4: int | None = None) -> int:
    """Damage of a band: 0, half Power rounded down, Power, or Power x d4."""
    return _band_damage(_power(power), outcome, crit_d4)


def _band_damage(power: int, outcome: str, crit_d4: int | None = None) -> int:
    """band_damage for a Power already checked (by the public function that was called)."""
    if outcome == "miss":
        return 0
    if outcome == "half":
        return power // 2  # tt.combat.rounding
    if outcome == "full":
        return power
    if outcome == "critical":
        if crit_d4 is None:
            raise InputError("A 20 is a critical hit: roll a d4 and give it as crit_d4 to multiply the Power.", "crit_d4")
        return power * die(crit_d4, 4, "crit_d4")
    raise InputError(f"An attack is a miss, half, full or critical; got {got(outcome)}.", "outcome")


def combine_conditions(advantage: int | bool, disadvantage: int | bool, *, both: str = "cancel") -> str:
    """The roll mode from the number of advantage and disadvantage sources.

    tt.ruling.advantage-and-disadvantage: with `both="cancel"` any mix of the
    two cancels to one d20; with `both="count"` the side with more sources
    wins and equal counts cancel.
    """
    adv, dis = int(advantage), int(disadvantage)
    if adv < 0 or dis < 0:
        raise InputError("Count the sources of advantage and disadvantage from 0 up.", "advantage" if adv < 0 else "disadvantage")
    one_of(both, ("cancel", "count"), "both", "When both apply, the setting is cancel or count")
    if adv and not dis:
        return "advantage"
    if dis and not adv:
        return "disadvantage"
    if not adv and not dis:
        return "normal"
    if both == "count" and adv != dis:
        return "advantage" if adv > dis else "disadvantage"
    return "normal"


@dataclass(frozen=True)
class Conditions:
    """What decides one d20 roll: its mode, the sources of advantage and of disadvantage, the rules that gave them."""

    mode: str
    advantage: tuple[str, ...]
    disadvantage: tuple[str, ...]
    rules: tuple[str, ...]
    both: str = "cancel"

    def sentence(self, roll: str) -> str | None:
        """The roll ("Mira's attack") told for a player, or None when nothing changes it."""
        if self.advantage and self.disadvantage:
            how = "they cancel out" if self.both == "cancel" else f"counting sources, {len(self.advantage)} against {len(self.disadvantage)}"
            return (f"{roll} has advantage ({', '.join(self.advantage)}) and disadvantage ({', '.join(self.disadvantage)}); "
                    f"{how}: the roll is {self.mode}.")
        if self.mode != "normal":
            return f"{roll} is rolled with {self.mode} ({', '.join(self.advantage or self.disadvantage)})."
        return None


def roll_conditions(
    roll: str = "attack", *, situation: str = "normal", haste: bool = False, poisoned: bool = False, tapped: bool = False, both: str = "cancel",
) -> Conditions:
    """Advantage and disadvantage on one d20 roll, from every source the rules give (tt.advantage.conditions).

    `roll` is an attack, a reflex save (against being tapped or knocked down) or another save. The situation
    (a surprise attack, for an attack only: tt.ruling.surprise-attacks; cover) adds one source; Haste gives advantage
    on attacks and reflex saves (tt.keyword.haste); a poisoned character has disadvantage on every roll
    (tt.mechanics.deathtouch-disadvantage, tt.ruling.poisoned-rolls); a tapped attacker has disadvantage
    (tt.ruling.prone-attacker). Both together follow tt.ruling.advantage-and-disadvantage (`both`).
    """
    one_of(roll, ROLLS, "roll", "A roll is an attack, a reflex save or another save")
    situation = one_of(situation, [v for v, _ in SITUATION_CHOICES] if roll == "attack" else MODES, "mode",
                       "The situation gives a normal roll, advantage or disadvantage" + (", or is a surprise attack" if roll == "attack" else ""))
    hasted, prone, surprise = bool(haste) and roll != "save", bool(tapped) and roll == "attack", situation == "surprise"
    plus = ("the situation",) * (situation == "advantage") + ("surprise",) * surprise + ("Haste",) * hasted
    minus = ("the situation",) * (situation == "disadvantage") + ("poisoned",) * bool(poisoned) + ("tapped",) * prone
    mode = combine_conditions(len(plus), len(minus), both=both)
    rules = ["tt.ruling.surprise-attacks"] * surprise + ["tt.keyword.haste"] * hasted + ["tt.mechanics.deathtouch-disadvantage", "tt.ruling.poisoned-rolls"] * bool(poisoned)
    rules += ["tt.ruling.prone-attacker"] * prone + ["tt.advantage.conditions"] * bool(plus or minus)
    rules += ["tt.ruling.advantage-and-disadvantage"] * bool(plus and minus) + ["tt.advantage.roll"] * (mode != "normal")
    return Conditions(mode, plus, minus, tuple(rules), both)


def attack_conditions(*, situation: str = "normal", haste: bool = False, poisoned: bool = False, tapped: bool = False, both: str = "cancel") -> Conditions:
    """An attacker's roll: the situation, Haste, poison and being tapped, combined."""
    return roll_conditions("attack", situation=situation, haste=haste, poisoned=poisoned, tapped=tapped, both=both)


def save_conditions(*, reflex: bool, situation: str = "normal", haste: bool = False, poisoned: bool = False, both: str = "cancel") -> Conditions:
    """A saver's roll: Haste helps a reflex save, poison hinders every save."""
    return roll_conditions("reflex save" if reflex else "save", situation=situation, haste=haste, poisoned=poisoned, both=both)


def _dice_tuple(d20: object, mode: RollMode, field: str) -> tuple[int, ...]:
    want = 1 if mode == "normal" else 2
    if isinstance(d20, (tuple, list)):
        dice = tuple(d20)
    else:
        dice = (d20,)
    if len(dice) != want:
        if want == 1:
            raise InputError(f"A normal attack rolls one d20; got {len(dice)} dice.", field)
        raise InputError(f"With {mode} you roll 2d20 and give both dice; got {len(dice)}.", field)
    return tuple(die(v, 20, field) for v in dice)


def _kept(dice: tuple[int, ...], mode: RollMode) -> int:
    """The d20 that counts: the higher with advantage, the lower with disadvantage."""
    return max(dice) if mode == "advantage" else min(dice) if mode == "disadvantage" else dice[0]


def kept_d20(d20: object, mode: str = "normal", field: str = "d20") -> int:
    """The d20 that counts of one roll (one die, or the pair with advantage or disadvantage)."""
    mode = _mode(mode)
    return _kept(_dice_tuple(d20, mode, field), mode)


def needs_crit_d4(d20: object, mode: str = "normal", field: str = "d20") -> bool:
    """Whether an attack roll needs a critical d4: its kept d20 is a 20 (tt.combat.attack-table)."""
    return attack_band(kept_d20(d20, mode, field)) == "critical"


def power_after_counters(power: int, counters: int) -> int:
    """Power less one per -1/-1 counter, never below 0 (tt.stats.power-minimum, tt.ruling.deathtouch-damage)."""
    return max(0, power - counters)


def _attack(power: object, d20: object, mode: object, crit_d4: object, d20_field: str, d4_field: str) -> Attack:
    power = _power(power)
    mode = _mode(mode)
    dice = _dice_tuple(d20, mode, d20_field)
    kept = _kept(dice, mode)
    outcome = attack_band(kept)
    checked_d4 = None if crit_d4 is None else die(crit_d4, 4, d4_field)
    d4 = checked_d4 if outcome == "critical" else None
    try:
        damage = _band_damage(power, outcome, d4)
    except InputError as err:  # a kept 20 without its d4
        raise InputError(str(err), d4_field) from None
    return Attack(power, mode, dice, kept, outcome, d4, damage)


def resolve_attack(power: int, d20: object, *, mode: str = "normal", crit_d4: int | None = None) -> Attack:
    """One roll on the attack table (tt.combat.attack-table).

    `d20` is one die, or the pair of dice with advantage (keep the higher) or
    disadvantage (keep the lower). A kept 20 needs `crit_d4`.
    """
    return _attack(power, d20, mode, crit_d4, "d20", "crit_d4")


def attack_die(mode: str = "normal") -> icepool.Die:
    """The d20 kept for an attack: d20, highest of 2d20 or lowest of 2d20."""
    mode = _mode(mode)
    if mode == "advantage":
        return icepool.d20.highest(2)
    if mode == "disadvantage":
        return icepool.d20.lowest(2)
    return icepool.d20


def _damage_die(power: int, mode: str) -> icepool.Die:
    return _damage_die_of(_power(power), _mode(mode))


@functools.lru_cache(maxsize=256)  # a Die never changes: each form's odds ask for the same few again and again
def _damage_die_of(power: int, mode: RollMode) -> icepool.Die:
    def damage(d20: int) -> icepool.Die | int:
        outcome = attack_band(d20)
        if outcome == "critical":
            return icepool.d4 * power
        return _band_damage(power, outcome)

    return attack_die(mode).map(damage)


def attack_odds(power: int, *, mode: str = "normal") -> dict[int, Fraction]:
    """Exact damage distribution of one attack: damage -> Fraction, summing to 1."""
    dist = _damage_die(power, mode)
    return {int(o): dist.probability(o) for o in dist.outcomes()}


def outcome_odds(mode: str = "normal") -> dict[str, Fraction]:
    """Exact chance of each band of the attack table: miss, half, full, critical."""
    return dict(_outcome_odds_of(_mode(mode)))  # a new dict each time: the caller may change it


@functools.lru_cache(maxsize=8)
def _outcome_odds_of(mode: RollMode) -> tuple[tuple[str, Fraction], ...]:
    dist = attack_die(mode).map(attack_band)
    return tuple((outcome, dist.probability(outcome)) for _, _, outcome, _ in ATTACK_TABLE)


def hits_odds(rolls: int, *, mode: str = "normal") -> dict[int, Fraction]:
    """Exact chance that 0, 1, ... `rolls` independent attack rolls hit (any band but a miss)."""
    rolls = whole(rolls, "Attack rolls", "rolls", minimum=1, maximum=100)
    hits = rolls @ attack_die(mode).map(lambda d: int(attack_band(d) != "miss"))
    return {k: hits.probability(k) for k in range(rolls + 1)}


def expected_damage(power: int, *, mode: str = "normal") -> Fraction:
    """The average damage of one attack, exactly."""
    return Fraction(_damage_die(power, mode).mean())


# ---------------------------------------------------------------- damage


@dataclass(frozen=True)
class Damage:
    """Toughness and Vitality after damage (tt.stats.damage-order)."""

    toughness: int
    vitality: int
    status: str  # standing, unconscious, dead
    dispelled: bool  # Toughness at 0: summons and enchantments go
    to_toughness: int
    to_vitality: int


def apply_damage(toughness: int, vitality: int, damage: int, *, overflow: str = "carry") -> Damage:
    """Damage comes off Toughness first, then Vitality.

    tt.ruling.damage-overflow: with `overflow="carry"` what one hit deals
    beyond the Toughness left goes on to Vitality; with `overflow="stop"` a
    hit that empties Toughness stops there.
    """
    toughness = whole(toughness, "Toughness", "toughness")
    vitality = whole(vitality, "Vitality", "vitality")
    damage = whole(damage, "Damage", "damage")
    if toughness < 0:
        raise InputError(f"Toughness goes down to 0 and no further; got {toughness}.", "toughness")
    if damage < 0:
        raise InputError(f"Damage is 0 or more (use life gain to raise Vitality); got {damage}.", "damage")
    one_of(overflow, ("carry", "stop"), "overflow", "Damage beyond Toughness either carries to Vitality or stops")
    to_toughness = min(toughness, damage)
    rest = damage - to_toughness
    if overflow == "stop" and toughness > 0:
        rest = 0
    new_t, new_v = toughness - to_toughness, vitality - rest
    status = "standing" if new_v > 0 else "unconscious" if new_v == 0 else "dead"
    return Damage(new_t, new_v, status, new_t == 0, to_toughness, rest)


# ---------------------------------------------------------------- double strike


@dataclass(frozen=True)
class DoubleStrike:
    first: Attack
    second: Attack
    damage: int
    hits: int  # attacks that did not miss


def double_strike(
    power: int,
    first_d20: object,
    second_d20: object,
    *,
    mode: str = "normal",
    first_crit_d4: int | None = None,
    second_crit_d4: int | None = None,
) -> DoubleStrike:
    """Two independent attack rolls (tt.ruling.double-strike); the damage adds up."""
    a = _attack(power, first_d20, mode, first_crit_d4, "first_d20", "first_crit_d4")
    b = _attack(power, second_d20, mode, second_crit_d4, "second_d20", "second_crit_d4")
    hits = sum(x.outcome != "miss" for x in (a, b))
    return DoubleStrike(a, b, a.damage + b.damage, hits)


def double_strike_odds(power: int, *, mode: str = "normal") -> dict[int, Fraction]:
    """Exact distribution of the total damage of the two rolls."""
    one = _damage_die(power, mode)
    total = one + one
    return {int(o): total.probability(o) for o in total.outcomes()}


# ---------------------------------------------------------------- first strike


@dataclass(frozen=True)
class FirstStrike:
    winner: str  # first, second or tie
    first: int  # first character's roll
    second: int
    damage_to_first: int
    damage_to_second: int
    crit_d4: int | None


def first_strike(
    first_power: int,
    first_d20: int,
    second_power: int,
    second_d20: int,
    *,
    winner_damage: str = "full",
    crit_d4: int | None = None,
) -> FirstStrike:
    """Two First Strike characters meet: opposed attack rolls (tt.ruling.first-strike-tie).

    The higher roll wins and deals damage: its full Power (`winner_damage="full"`,
    the ruling: the text says the winner deals damage), or with `"table"` its
    roll read on the attack table (a winning 4 then misses). On a tie each
    deals its full Power to the other, as in Fight.
    """
    p1, p2 = _power(first_power, "first_power"), _power(second_power, "second_power")
    r1, r2 = die(first_d20, 20, "first_d20"), die(second_d20, 20, "second_d20")
    one_of(winner_damage, ("table", "full"), "winner_damage", "The winner's damage is read on the table or is full Power")
    if crit_d4 is not None:
        die(crit_d4, 4, "crit_d4")
    if r1 == r2:
        return FirstStrike("tie", r1, r2, p2, p1, None)
    winner, roll, power = ("first", r1, p1) if r1 > r2 else ("second", r2, p2)
    d4 = None
    if winner_damage == "full":
        dealt = power
    else:
        outcome = attack_band(roll)
        d4 = crit_d4 if outcome == "critical" else None
        dealt = band_damage(power, outcome, d4)
    if winner == "first":
        return FirstStrike("first", r1, r2, 0, dealt, d4)
    return FirstStrike("second", r1, r2, dealt, 0, d4)


def first_strike_needs_d4(first_d20: int, second_d20: int, *, winner_damage: str = "full") -> bool:
    """Whether two First Strikers' rolls need a critical d4: a winner whose damage is read on the table rolled a 20."""
    r1, r2 = die(first_d20, 20, "first_d20"), die(second_d20, 20, "second_d20")
    return winner_damage == "table" and r1 != r2 and attack_band(max(r1, r2)) == "critical"


def first_strike_odds(first_mode: str = "normal", second_mode: str = "normal") -> dict[str, Fraction]:
    """Chance that the first character wins, that the second wins, of a tie: each side's kept d20 (attack_die)."""
    cmp = icepool.map(lambda a, b: "first" if a > b else "second" if b > a else "tie", attack_die(first_mode), attack_die(second_mode))
    return {k: cmp.probability(k) for k in ("first", "second", "tie")}


# ---------------------------------------------------------------- opposed saves


@dataclass(frozen=True)
class Save:
    effect: int  # the d20 of the side forcing the save
    dice: tuple[int, ...]  # the saver's dice
    die: int  # the saver's d20 kept
    bonus: int
    total: int
    outcome: str  # saved or failed


def _save_bonus(vigilance: bool, against: str) -> int:
    one_of(against, SAVES_AGAINST, "against", "A save is against a knock-down, involuntary tapping or something else")
    return VIGILANCE_BONUS if vigilance and against == "tapping" else 0


def _tie(tie: object) -> None:
    one_of(tie, ("saver", "effect"), "tie", "A tie goes to the saver or to the effect")


def save_holds(total: int, effect: int, tie: str = "saver") -> bool:
    """The save holds if it beats the effect's d20; a tie goes to the saver unless the table says the effect (tt.ruling.opposed-saves)."""
    return total > effect or (total == effect and tie == "saver")


def opposed_save(
    effect_d20: int,
    save_d20: object,
    *,
    mode: str = "normal",
    vigilance: bool = False,
    against: str = "tapping",
    tie: str = "saver",
) -> Save:
    # tt.ruling.vigilance-knockdown: Vigilance means no knock-down at all.
    """An opposed saving throw (tt.ruling.opposed-saves).

    The side forcing the effect rolls a d20, the saver rolls a d20 (2d20 with
    advantage or disadvantage) plus 5 with Vigilance against involuntary
    tapping. The effect works only if it beats the save; with `tie="effect"`
    a tie goes to the effect instead.
    """
    effect = die(effect_d20, 20, "effect_d20")
    mode = _mode(mode)
    dice = _dice_tuple(save_d20, mode, "save_d20")
    kept = _kept(dice, mode)
    bonus = _save_bonus(bool(vigilance), against)
    _tie(tie)
    total = kept + bonus
    if vigilance and against == "knockdown":
        return Save(effect, dice, kept, bonus, total, "immune")
    return Save(effect, dice, kept, bonus, total, "saved" if save_holds(total, effect, tie) else "failed")


def save_odds(*, mode: str = "normal", vigilance: bool = False, against: str = "tapping", tie: str = "saver") -> dict[str, Fraction]:
    """Exact chance that the save holds or fails (Vigilance against a knock-down: immune)."""
    bonus = _save_bonus(bool(vigilance), against)
    _tie(tie)
    if vigilance and against == "knockdown":
        return {"immune": Fraction(1)}
    saver = attack_die(mode) + bonus

    def result(effect: int, save: int) -> str:
        return "saved" if save_holds(save, effect, tie) else "failed"

    dist = icepool.map(result, icepool.d20, saver)
    return {k: dist.probability(k) for k in ("saved", "failed")}


def haste_speed(speed: int, *, rounding: str = "down") -> int:
    """Speed with Haste: +50% (tt.ruling.haste-rounding), rounded down unless told otherwise."""
    speed = whole(speed, "Speed", "speed")
    if speed < 0:
        raise InputError(f"Speed is 0 or more; got {speed}.", "speed")
    one_of(rounding, ("down", "up"), "rounding", "Haste rounds down or up")
    extra = speed // 2 if rounding == "down" else -(-speed // 2)
    return speed + extra

