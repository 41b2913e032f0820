"""Tell-Tale: the attack table, damage, Double Strike, First Strike, saves,
character creation, level-up and the deck check, with exact odds.

Rule IDs cited here are defined in docs/tell-tale/. Where the rulebook is
silent the functions follow the site's rulings (tt.ruling.*) and take a
setting for the choice a table might make differently.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

import icepool

from .dice import dice_or_roll, parse_dice
from .registry import Calculator, InputError, Param, Report

__all__ = [
    "ATTACK_TABLE",
    "MODES",
    "STATS",
    "PC_STATS",
    "COMPANION_STATS",
    "DECK_MIN",
    "DECK_MAX",
    "COPY_LIMIT",
    "STARTING_LEVEL",
    "VIGILANCE_BONUS",
    "Attack",
    "Damage",
    "DoubleStrike",
    "FirstStrike",
    "Save",
    "Character",
    "Stats",
    "LevelUp",
    "DeckCheck",
    "attack_band",
    "band_damage",
    "combine_conditions",
    "resolve_attack",
    "attack_die",
    "attack_odds",
    "outcome_odds",
    "expected_damage",
    "apply_damage",
    "double_strike",
    "double_strike_odds",
    "first_strike",
    "first_strike_odds",
    "opposed_save",
    "save_odds",
    "haste_speed",
    "stat_totals",
    "stat_total_odds",
    "create_character",
    "assign_stats",
    "level_up",
    "parse_decklist",
    "check_deck",
    "CALCULATORS",
]

# ---------------------------------------------------------------- rule data

# tt.combat.attack-table: (lowest d20, highest d20, outcome, label).
ATTACK_TABLE: tuple[tuple[int, int, str, str], ...] = (
    (1, 5, "miss", "Miss"),
    (6, 14, "half", "Half damage"),
    (15, 19, "full", "Full damage"),
    (20, 20, "critical", "Critical hit"),
)
MODES = ("normal", "advantage", "disadvantage")
# tt.character.stat-assignment: the five stats the rolled totals go to.
PC_STATS = ("initiative", "vitality", "speed")
COMPANION_STATS = ("companion_vitality", "companion_speed")
STATS = PC_STATS + COMPANION_STATS
STAT_LABELS = {
    "initiative": "Initiative",
    "vitality": "PC Vitality",
    "speed": "PC Speed",
    "companion_vitality": "Companion Vitality",
    "companion_speed": "Companion Speed",
}
STAT_ROLLS = 7  # tt.character.stat-rolls: seven totals of 4d6
DICE_PER_STAT = 4
DECK_MIN, DECK_MAX = 40, 100  # tt.deck.size
COPY_LIMIT = 4  # tt.deck.copies
STARTING_LEVEL = 3  # tt.levels.starting-level
VIGILANCE_BONUS = 5  # tt.keyword.vigilance


def _check_int(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{what} must be a whole number; got {value!r}.")
    return value


def _check_power(power: object) -> int:
    power = _check_int(power, "Power")
    if power < 0:
        raise ValueError(f"Power cannot go below 0; got {power}.")
    return power


def _check_mode(mode: object) -> str:
    if mode not in MODES:
        raise ValueError(f"The roll is normal, advantage or disadvantage; got {mode!r}.")
    return mode


def _check_die(value: object, sides: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"A d{sides} shows a whole number from 1 to {sides}; got {value!r}.")
    if not 1 <= value <= sides:
        raise ValueError(f"A d{sides} shows 1 to {sides}; got {value}.")
    return value


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
    _check_die(d20, 20)
    for low, high, outcome, _ in ATTACK_TABLE:
        if low <= d20 <= high:
            return outcome
    raise AssertionError("the attack table covers 1 to 20")  # pragma: no cover


def band_damage(power: int, outcome: str, crit_d4: int | None = None) -> int:
    """Damage of a band: 0, half Power rounded down, Power, or Power x d4."""
    power = _check_power(power)
    if outcome == "miss":
        return 0
    if outcome == "half":
        return power // 2  # tt.combat.rounding
    if outcome == "full":
        return power
    if outcome == "critical":
        if crit_d4 is None:
            raise ValueError("A 20 is a critical hit: roll a d4 and give it as crit_d4 to multiply the Power.")
        return power * _check_die(crit_d4, 4)
    raise ValueError(f"An attack is a miss, half, full or critical; got {outcome!r}.")


def combine_conditions(advantage: int | bool, disadvantage: int | bool, *, both: str = "cancel") -> str:
    """The roll mode from the number of advantage and disadvantage sources.

    tt.ruling.advantage-and-disadvantage: with `both="cancel"` any mix of the
    two cancels to one d20; with `both="count"` the side with more sources
    wins and equal counts cancel.
    """
    adv, dis = int(advantage), int(disadvantage)
    if adv < 0 or dis < 0:
        raise ValueError("Count the sources of advantage and disadvantage from 0 up.")
    if both not in ("cancel", "count"):
        raise ValueError(f"When both apply, the setting is cancel or count; got {both!r}.")
    if adv and not dis:
        return "advantage"
    if dis and not adv:
        return "disadvantage"
    if not adv and not dis:
        return "normal"
    if both == "count" and adv != dis:
        return "advantage" if adv > dis else "disadvantage"
    return "normal"


def _dice_tuple(d20: object, mode: str) -> tuple[int, ...]:
    want = 1 if mode == "normal" else 2
    if isinstance(d20, (tuple, list)):
        dice = tuple(d20)
    else:
        dice = (d20,)
    if len(dice) != want:
        if want == 1:
            raise ValueError(f"A normal attack rolls one d20; got {len(dice)} dice.")
        raise ValueError(f"With {mode} you roll 2d20 and give both dice; got {len(dice)}.")
    return tuple(_check_die(v, 20) for v in dice)


def resolve_attack(power: int, d20, *, mode: str = "normal", crit_d4: int | None = None) -> Attack:
    """One roll on the attack table (tt.combat.attack-table).

    `d20` is one die, or the pair of dice with advantage (keep the higher) or
    disadvantage (keep the lower). A kept 20 needs `crit_d4`.
    """
    power = _check_power(power)
    mode = _check_mode(mode)
    dice = _dice_tuple(d20, mode)
    die = max(dice) if mode == "advantage" else min(dice) if mode == "disadvantage" else dice[0]
    outcome = attack_band(die)
    if crit_d4 is not None:
        _check_die(crit_d4, 4)
    d4 = crit_d4 if outcome == "critical" else None
    return Attack(power, mode, dice, die, outcome, d4, band_damage(power, outcome, d4))


def attack_die(mode: str = "normal") -> icepool.Die:
    """The d20 kept for an attack: d20, highest of 2d20 or lowest of 2d20."""
    mode = _check_mode(mode)
    if mode == "advantage":
        return icepool.d20.highest(2)
    if mode == "disadvantage":
        return icepool.d20.lowest(2)
    return icepool.d20


def _damage_die(power: int, mode: str) -> icepool.Die:
    power = _check_power(power)

    def damage(d20: int):
        outcome = attack_band(d20)
        if outcome == "critical":
            return icepool.d4 * power
        return band_damage(power, outcome)

    return attack_die(mode).map(damage)


def attack_odds(power: int, *, mode: str = "normal") -> dict[int, Fraction]:
    """Exact damage distribution of one attack: damage -> Fraction, summing to 1."""
    die = _damage_die(power, mode)
    return {int(o): die.probability(o) for o in die.outcomes()}


def outcome_odds(mode: str = "normal") -> dict[str, Fraction]:
    """Exact chance of each band of the attack table: miss, half, full, critical."""
    die = attack_die(mode).map(attack_band)
    return {outcome: die.probability(outcome) for _, _, outcome, _ in ATTACK_TABLE}


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
    toughness = _check_int(toughness, "Toughness")
    vitality = _check_int(vitality, "Vitality")
    damage = _check_int(damage, "Damage")
    if toughness < 0:
        raise ValueError(f"Toughness goes down to 0 and no further; got {toughness}.")
    if damage < 0:
        raise ValueError(f"Damage is 0 or more (use life gain to raise Vitality); got {damage}.")
    if overflow not in ("carry", "stop"):
        raise ValueError(f"Damage beyond Toughness either carries to Vitality or stops; got {overflow!r}.")
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
    first_d20,
    second_d20,
    *,
    mode: str = "normal",
    first_crit_d4: int | None = None,
    second_crit_d4: int | None = None,
) -> DoubleStrike:
    """Two independent attack rolls (tt.ruling.double-strike); the damage adds up."""
    a = resolve_attack(power, first_d20, mode=mode, crit_d4=first_crit_d4)
    b = resolve_attack(power, second_d20, mode=mode, crit_d4=second_crit_d4)
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
    winner_damage: str = "table",
    crit_d4: int | None = None,
) -> FirstStrike:
    """Two First Strike characters meet: opposed attack rolls (tt.ruling.first-strike-tie).

    The higher roll wins and deals damage: read on the attack table with
    `winner_damage="table"`, or its full Power with `"full"`. On a tie each
    deals its full Power to the other, as in Fight.
    """
    p1, p2 = _check_power(first_power), _check_power(second_power)
    r1, r2 = _check_die(first_d20, 20), _check_die(second_d20, 20)
    if winner_damage not in ("table", "full"):
        raise ValueError(f"The winner's damage is read on the table or is full Power; got {winner_damage!r}.")
    if crit_d4 is not None:
        _check_die(crit_d4, 4)
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


def first_strike_odds() -> dict[str, Fraction]:
    """Chance that the first character wins, that the second wins, of a tie."""
    cmp = icepool.map(lambda a, b: "first" if a > b else "second" if b > a else "tie", icepool.d20, icepool.d20)
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


SAVES_AGAINST = ("knockdown", "tapping", "other")


def _save_bonus(vigilance: bool, against: str) -> int:
    if against not in SAVES_AGAINST:
        raise ValueError(f"A save is against a knock-down, involuntary tapping or something else; got {against!r}.")
    return VIGILANCE_BONUS if vigilance and against == "tapping" else 0


def opposed_save(
    effect_d20: int,
    save_d20,
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
    effect = _check_die(effect_d20, 20)
    mode = _check_mode(mode)
    dice = _dice_tuple(save_d20, mode)
    die = max(dice) if mode == "advantage" else min(dice) if mode == "disadvantage" else dice[0]
    bonus = _save_bonus(bool(vigilance), against)
    if tie not in ("saver", "effect"):
        raise ValueError(f"A tie goes to the saver or to the effect; got {tie!r}.")
    total = die + bonus
    if vigilance and against == "knockdown":
        return Save(effect, dice, die, bonus, total, "immune")
    saved = total > effect or (total == effect and tie == "saver")
    return Save(effect, dice, die, bonus, total, "saved" if saved else "failed")


def save_odds(*, mode: str = "normal", vigilance: bool = False, against: str = "tapping", tie: str = "saver") -> dict[str, Fraction]:
    """Exact chance that the save holds or fails (Vigilance against a knock-down: immune)."""
    bonus = _save_bonus(bool(vigilance), against)
    if tie not in ("saver", "effect"):
        raise ValueError(f"A tie goes to the saver or to the effect; got {tie!r}.")
    if vigilance and against == "knockdown":
        return {"immune": Fraction(1)}
    saver = attack_die(mode) + bonus

    def result(effect: int, save: int) -> str:
        return "saved" if save > effect or (save == effect and tie == "saver") else "failed"

    die = icepool.map(result, icepool.d20, saver)
    return {k: die.probability(k) for k in ("saved", "failed")}


def haste_speed(speed: int, *, rounding: str = "down") -> int:
    """Speed with Haste: +50% (tt.ruling.haste-rounding), rounded down unless told otherwise."""
    speed = _check_int(speed, "Speed")
    if speed < 0:
        raise ValueError(f"Speed is 0 or more; got {speed}.")
    if rounding not in ("down", "up"):
        raise ValueError(f"Haste rounds down or up; got {rounding!r}.")
    extra = speed // 2 if rounding == "down" else -(-speed // 2)
    return speed + extra


# ---------------------------------------------------------------- characters


@dataclass(frozen=True)
class Character:
    """Seven stat totals (tt.character.stat-rolls), in the order rolled."""

    dice: tuple[int, ...]
    totals: tuple[int, ...]
    method: str


def _stat_total(four: tuple[int, ...], method: str) -> int:
    if method == "sum":
        return sum(four)
    return sum(four) - min(four)


def stat_totals(dice, *, method: str = "sum") -> tuple[int, ...]:
    """Seven totals from 28 d6, four at a time (tt.ruling.four-d6)."""
    return create_character(dice, method=method).totals


def create_character(dice, *, method: str = "sum") -> Character:
    """Read 28 d6 as seven rolls of 4d6: the sum of the four (or the best three)."""
    if method not in ("sum", "drop-lowest"):
        raise ValueError(f"4xD6 is read as the sum of four dice or as drop-lowest; got {method!r}.")
    dice = tuple(dice)
    want = STAT_ROLLS * DICE_PER_STAT
    if len(dice) != want:
        raise ValueError(f"Seven rolls of 4d6 use {want} d6; got {len(dice)}.")
    dice = tuple(_check_die(v, 6) for v in dice)
    totals = tuple(_stat_total(dice[i : i + 4], method) for i in range(0, want, 4))
    return Character(dice, totals, method)


def stat_total_odds(*, method: str = "sum") -> dict[int, Fraction]:
    """Exact distribution of one total: 4d6 summed (4-24), or best three (3-18)."""
    if method not in ("sum", "drop-lowest"):
        raise ValueError(f"4xD6 is read as the sum of four dice or as drop-lowest; got {method!r}.")
    die = 4 @ icepool.d6 if method == "sum" else icepool.d6.highest(4, 3)
    return {int(o): die.probability(o) for o in die.outcomes()}


@dataclass(frozen=True)
class Stats:
    initiative: int
    vitality: int
    speed: int
    companion_vitality: int | None = None
    companion_speed: int | None = None

    @property
    def companion(self) -> bool:
        return self.companion_vitality is not None


def assign_stats(totals, assignment: dict[str, int], *, companion: bool = False) -> tuple[Stats, tuple[int, ...]]:
    """Check an assignment of the rolled totals (tt.character.stat-assignment).

    Each total is used at most once; the PC's three stats need a value, the
    companion's two need one with a companion and none without. Returns the
    stats and the totals discarded.
    """
    pool = Counter(totals)
    needed = PC_STATS + (COMPANION_STATS if companion else ())
    unknown = set(assignment) - set(STATS)
    if unknown:
        raise ValueError(f"The rolled totals go to {', '.join(STAT_LABELS.values())}; there is no stat {sorted(unknown)[0]!r}.")
    for stat in needed:
        if assignment.get(stat) is None:
            raise ValueError(f"{STAT_LABELS[stat]} needs one of the rolled totals.")
    if not companion:
        for stat in COMPANION_STATS:
            if assignment.get(stat) is not None:
                raise ValueError(f"{STAT_LABELS[stat]} is only for a character with an animal companion.")
    used = Counter(assignment[s] for s in needed)
    for value, n in sorted(used.items()):
        if pool[value] < n:
            have = pool[value]
            rolled = "was not rolled" if have == 0 else f"was rolled only {have} time{'s' if have > 1 else ''}"
            raise ValueError(f"{value} is used {n} time{'s' if n > 1 else ''} but {rolled}; each total goes to one stat.")
    discarded = tuple(sorted((pool - used).elements(), reverse=True))
    return Stats(**{s: assignment[s] for s in needed}), discarded


# ---------------------------------------------------------------- levels


@dataclass(frozen=True)
class LevelUp:
    level: int
    lands: int
    stats: Stats
    raised: str


def level_up(level: int, stats: Stats, stat: str) -> LevelUp:
    """One level up (tt.levels.level-up): a land more, +1 to one stat, regenerate."""
    level = _check_int(level, "Level")
    if level < STARTING_LEVEL:
        raise ValueError(f"Characters start at level {STARTING_LEVEL}; got level {level}.")
    if stat not in STATS:
        raise ValueError(f"A level-up raises one of {', '.join(STAT_LABELS.values())}; got {stat!r}.")
    if stat in COMPANION_STATS and not stats.companion:
        raise ValueError(f"{STAT_LABELS[stat]} can only be raised for a character with an animal companion.")
    values = {s: getattr(stats, s) for s in STATS}
    values[stat] += 1
    return LevelUp(level + 1, level + 1, Stats(**values), stat)


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
        raise ValueError("A decklist is text, one card per line, like '4 Lightning Bolt'.")
    lines = text.splitlines()
    if len(lines) > DECKLIST_MAX_LINES:
        raise ValueError(f"A decklist has at most {DECKLIST_MAX_LINES:,} lines; this one has {len(lines):,}.")
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
            raise ValueError(f"Line {number}: {digits[:12]}... copies of {name[:40]!r} is more than any deck holds.")
        copies = int(digits)
        if copies < 1:
            raise ValueError(f"Line {number}: a card is listed with at least 1 copy; got {copies} of {name[:40]!r}.")
        key = name.casefold()
        names.setdefault(key, name)
        counts[key] = counts.get(key, 0) + copies
    return tuple((names[k], n) for k, n in counts.items())


def parse_exempt(text: str) -> tuple[str, ...]:
    """Card names apart by commas or lines, at most EXEMPT_MAX_NAMES."""
    names = tuple(e.strip() for e in re.split(r"[,\n]", text) if e.strip())
    if len(names) > EXEMPT_MAX_NAMES:
        raise ValueError(f"Cards allowed past {COPY_LIMIT} copies: name at most {EXEMPT_MAX_NAMES}; got {len(names):,}.")
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


# ---------------------------------------------------------------- registry adapters

YES_NO = (("no", "No"), ("yes", "Yes"))
MODE_CHOICES = (("normal", "Normal (1d20)"), ("advantage", "Advantage (2d20, keep the higher)"), ("disadvantage", "Disadvantage (2d20, keep the lower)"))
BOTH_CHOICES = (("cancel", "Cancel out: one d20 (ruling)"), ("count", "Count sources: more wins"))
BAND_LABEL = {outcome: label for _, _, outcome, label in ATTACK_TABLE}
BAND_RANGE = {outcome: (f"{low}-{high}" if low != high else f"{low}") for low, high, outcome, _ in ATTACK_TABLE}
ATTACK_RULES = (
    "tt.combat.attack-roll",
    "tt.combat.attack-table",
    "tt.combat.rounding",
    "tt.advantage.roll",
    "tt.keyword.haste",
    "tt.keyword.deathtouch",
    "tt.ruling.advantage-and-disadvantage",
)


def _fmt(p: Fraction) -> str:
    return f"{float(p) * 100:.2f}%"


def _num(p: Fraction) -> str:
    return str(p.numerator) if p.denominator == 1 else f"{p.numerator}/{p.denominator} (about {float(p):.2f})"


def _mode_from(mode: str, haste: str, poisoned: str, both: str) -> tuple[str, list[str], list[str]]:
    adv = int(mode == "advantage") + int(haste == "yes")
    dis = int(mode == "disadvantage") + int(poisoned == "yes")
    rules: list[str] = []
    notes: list[str] = []
    if haste == "yes":
        rules.append("tt.keyword.haste")
        notes.append("Haste grants advantage to attacks.")
    if poisoned == "yes":
        rules.append("tt.keyword.deathtouch")
        notes.append("A character poisoned by Deathtouch has disadvantage.")
    final = combine_conditions(adv, dis, both=both)
    if adv and dis:
        rules.append("tt.ruling.advantage-and-disadvantage")
        how = "they cancel" if both == "cancel" else f"counting sources, {adv} against {dis}"
        notes.append(f"Advantage and disadvantage both apply; {how}: the roll is {final}.")
    if final != "normal":
        rules.append("tt.advantage.roll")
    return final, rules, notes


def _d4_for(attack_dice: tuple[int, ...], mode: str, raw, rng, field: str) -> int | None:
    die = max(attack_dice) if mode == "advantage" else min(attack_dice) if mode == "disadvantage" else attack_dice[0]
    if die != 20:
        if raw not in (None, ""):
            parse_dice(raw, count=1, sides=4, label="Critical d4", field=field)
        return None
    if raw in (None, "") and rng is None:
        raise InputError("A 20 is a critical hit: roll a d4 to multiply the Power, or let the page roll it.", field)
    return dice_or_roll(raw, rng, count=1, sides=4, label="Critical d4", field=field)[0]


def _attack_adapter(rng, *, power, d20, mode, haste, poisoned, both, crit_d4) -> Report:
    final, rules, notes = _mode_from(mode, haste, poisoned, both)
    count = 1 if final == "normal" else 2
    dice = dice_or_roll(d20, rng, count=count, sides=20, label="Attack d20", field="d20")
    d4 = _d4_for(dice, final, crit_d4, rng, "crit_d4")
    a = resolve_attack(power, dice, mode=final, crit_d4=d4)
    details = list(notes)
    if final == "normal":
        details.append(f"The d20 shows {a.die}.")
    else:
        keep = "higher" if final == "advantage" else "lower"
        details.append(f"2d20 show {dice[0]} and {dice[1]}; {final} keeps the {keep}, {a.die}.")
    details.append(f"On the attack table {a.die} ({BAND_RANGE[a.outcome]}) is {BAND_LABEL[a.outcome].lower()}.")
    if a.outcome == "half":
        details.append(f"Half of Power {power} is {Fraction(power, 2)}; fractions round down, so {a.damage} damage.")
    elif a.outcome == "full":
        details.append(f"Full damage is the Power, {a.damage}.")
    elif a.outcome == "critical":
        details.append(f"The critical d4 shows {a.crit_d4}: Power {power} x {a.crit_d4} = {a.damage} damage.")
    mean = expected_damage(power, mode=final)
    details.append(f"Expected damage of this attack ({final}): {_num(mean)}.")
    cited = ["tt.combat.attack-roll", "tt.combat.attack-table", *rules]
    if a.outcome == "half":
        cited.append("tt.combat.rounding")
    odds = outcome_odds(final)
    shown = {"d20": " ".join(map(str, dice))}
    if d4 is not None:
        shown["crit_d4"] = str(d4)
    return Report(
        outcome=a.outcome,
        headline=f"{BAND_LABEL[a.outcome]}: {a.damage} damage (kept d20 {a.die}, Power {power}).",
        details=tuple(details),
        rules=tuple(dict.fromkeys(cited)),
        odds=tuple((f"{BAND_LABEL[o]} ({BAND_RANGE[o]})", p) for o, p in odds.items()),
        odds_title=f"Chance of each band ({final})",
        highlight=f"{BAND_LABEL[a.outcome]} ({BAND_RANGE[a.outcome]})",
        dice=shown,
    )


def _damage_adapter(rng, *, toughness, vitality, damage, overflow) -> Report:
    r = apply_damage(toughness, vitality, damage, overflow=overflow)
    details = [f"{damage} damage: Toughness {toughness} takes {r.to_toughness} first, leaving {r.toughness}."]
    rules = ["tt.stats.damage-order", "tt.stats.toughness"]
    if r.to_vitality:
        details.append(f"The other {r.to_vitality} comes off Vitality: {vitality} to {r.vitality}.")
        rules.append("tt.stats.vitality")
    elif damage > r.to_toughness:
        details.append(f"The hit emptied Toughness; with overflow set to stop, the other {damage - r.to_toughness} does not reach Vitality.")
        rules.append("tt.ruling.damage-overflow")
    if overflow == "carry" and toughness and damage > toughness:
        rules.append("tt.ruling.damage-overflow")
    if r.dispelled:
        details.append("Toughness is at 0: every summon, creature token and enchantment the character maintains is dispelled to the graveyard.")
        rules.append("tt.summoning.toughness-upkeep")
    status = {"standing": "still standing", "unconscious": "unconscious (Vitality 0)", "dead": "dead (Vitality below 0)"}[r.status]
    if r.status != "standing":
        rules.append("tt.stats.vitality")
    details.append(f"Vitality {r.vitality}: {status}.")
    return Report(
        outcome=r.status,
        headline=f"Toughness {r.toughness}, Vitality {r.vitality}: {status}{'; summons and enchantments dispel' if r.dispelled else ''}.",
        details=tuple(details),
        rules=tuple(dict.fromkeys(rules)),
    )


def _double_adapter(rng, *, power, first_d20, second_d20, mode, haste, poisoned, both, first_crit_d4, second_crit_d4) -> Report:
    final, rules, notes = _mode_from(mode, haste, poisoned, both)
    count = 1 if final == "normal" else 2
    d1 = dice_or_roll(first_d20, rng, count=count, sides=20, label="First attack d20", field="first_d20")
    c1 = _d4_for(d1, final, first_crit_d4, rng, "first_crit_d4")
    d2 = dice_or_roll(second_d20, rng, count=count, sides=20, label="Second attack d20", field="second_d20")
    c2 = _d4_for(d2, final, second_crit_d4, rng, "second_crit_d4")
    r = double_strike(power, d1, d2, mode=final, first_crit_d4=c1, second_crit_d4=c2)
    details = list(notes)
    for name, a in (("First", r.first), ("Second", r.second)):
        extra = f" x d4 {a.crit_d4}" if a.crit_d4 else ""
        details.append(f"{name} roll: kept {a.die}, {BAND_LABEL[a.outcome].lower()}{extra}, {a.damage} damage.")
    mean = 2 * expected_damage(power, mode=final)
    details.append(f"Expected damage of both rolls together: {_num(mean)}.")
    miss = outcome_odds(final)["miss"]
    odds = (("No hit", miss * miss), ("One hit", 2 * miss * (1 - miss)), ("Two hits", (1 - miss) ** 2))
    outcome = ("none", "one", "two")[r.hits]
    cited = ["tt.keyword.double-strike", "tt.ruling.double-strike", "tt.combat.attack-table", *rules]
    if "half" in (r.first.outcome, r.second.outcome):
        cited.append("tt.combat.rounding")
    shown = {"first_d20": " ".join(map(str, d1)), "second_d20": " ".join(map(str, d2))}
    if c1 is not None:
        shown["first_crit_d4"] = str(c1)
    if c2 is not None:
        shown["second_crit_d4"] = str(c2)
    return Report(
        outcome=outcome,
        headline=f"Double Strike: {r.first.damage} + {r.second.damage} = {r.damage} damage.",
        details=tuple(details),
        rules=tuple(dict.fromkeys(cited)),
        odds=odds,
        odds_title=f"Attacks that hit out of two ({final})",
        highlight=odds[r.hits][0],
        dice=shown,
    )


def _first_strike_adapter(rng, *, first_power, first_d20, second_power, second_d20, winner_damage, crit_d4) -> Report:
    r1 = dice_or_roll(first_d20, rng, count=1, sides=20, label="First character's d20", field="first_d20")[0]
    r2 = dice_or_roll(second_d20, rng, count=1, sides=20, label="Second character's d20", field="second_d20")[0]
    d4 = None
    if r1 != r2 and winner_damage == "table" and max(r1, r2) == 20:
        d4 = _d4_for((20,), "normal", crit_d4, rng, "crit_d4")
    elif crit_d4 not in (None, ""):  # not needed, but a typed d4 must still be a d4
        parse_dice(crit_d4, count=1, sides=4, label="Critical d4", field="crit_d4")
    r = first_strike(first_power, r1, second_power, r2, winner_damage=winner_damage, crit_d4=d4)
    details = [f"Opposed attack rolls: the first character rolls {r1}, the second {r2}."]
    if r.winner == "tie":
        details.append(f"A tie: both deal damage by their Power, as in Fight: {first_power} to the second, {second_power} to the first.")
        headline = f"Tie: the first takes {r.damage_to_first}, the second takes {r.damage_to_second}."
    else:
        roll = max(r1, r2)
        dealt = r.damage_to_second or r.damage_to_first
        if winner_damage == "table":
            extra = f" x d4 {d4}" if d4 else ""
            details.append(f"The {r.winner} character wins; its {roll} reads {BAND_LABEL[attack_band(roll)].lower()} on the attack table{extra}: {dealt} damage.")
        else:
            details.append(f"The {r.winner} character wins and deals its full Power, {dealt} (setting: full).")
        headline = f"The {r.winner} character strikes first for {dealt} damage; the other deals none."
    odds = first_strike_odds()
    labels = {"first": "First character wins", "second": "Second character wins", "tie": "Tie: both deal damage"}
    shown = {"first_d20": str(r1), "second_d20": str(r2)}
    if d4 is not None:
        shown["crit_d4"] = str(d4)
    cited = ["tt.keyword.first-strike", "tt.ruling.first-strike-tie"]
    if winner_damage == "table" and r.winner != "tie":
        cited.append("tt.combat.attack-table")
    return Report(
        outcome=r.winner,
        headline=headline,
        details=tuple(details),
        rules=tuple(cited),
        odds=tuple((labels[k], p) for k, p in odds.items()),
        odds_title="Opposed d20s",
        highlight=labels[r.winner],
        dice=shown,
    )


def _save_adapter(rng, *, effect_d20, save_d20, mode, haste, poisoned, both, vigilance, against, tie) -> Report:
    labels = {"saved": "Saved: the effect fails", "failed": "Failed: the effect works", "immune": "Immune: Vigilance means no knock-down"}
    if vigilance == "yes" and against == "knockdown":
        return Report(
            outcome="immune",
            headline="Immune: a character with Vigilance is not knocked down, so no save is rolled.",
            details=("Vigilance gives immunity to knock-down; the character may also jump aside from a Trample charge.",),
            rules=("tt.keyword.vigilance", "tt.ruling.vigilance-knockdown"),
            odds=((labels["immune"], Fraction(1)),),
            odds_title="Opposed saving throw",
            highlight=labels["immune"],
        )
    reflex = against in ("knockdown", "tapping")
    final, rules, notes = _mode_from(mode, haste if reflex else "no", poisoned, both)
    count = 1 if final == "normal" else 2
    e = dice_or_roll(effect_d20, rng, count=1, sides=20, label="Effect's d20", field="effect_d20")[0]
    s = dice_or_roll(save_d20, rng, count=count, sides=20, label="Saver's d20", field="save_d20")
    r = opposed_save(e, s, mode=final, vigilance=vigilance == "yes", against=against, tie=tie)
    details = list(notes)
    if haste == "yes" and not reflex:
        details.append("Haste helps only reflex saves (against being tapped or knocked down), so it does not apply here.")
    if final == "normal":
        kept = f"the saver rolls {r.die}"
    else:
        kept = f"the saver rolls {s[0]} and {s[1]} and keeps {r.die}"
    details.append(f"The effect rolls {e}; {kept}{f' + {r.bonus} for Vigilance' if r.bonus else ''} = {r.total}.")
    if r.total == e:
        details.append(f"A tie goes to the {'saver' if tie == 'saver' else 'effect'}.")
    cited = ["tt.ruling.opposed-saves", *rules]
    if r.bonus:
        cited.append("tt.keyword.vigilance")
    odds = save_odds(mode=final, vigilance=vigilance == "yes", against=against, tie=tie)
    return Report(
        outcome=r.outcome,
        headline=labels[r.outcome] + f" ({r.total} against {e}).",
        details=tuple(details),
        rules=tuple(dict.fromkeys(cited)),
        odds=tuple((labels[k], p) for k, p in odds.items()),
        odds_title="Opposed saving throw",
        highlight=labels[r.outcome],
        dice={"effect_d20": str(e), "save_d20": " ".join(map(str, s))},
    )


def _haste_adapter(rng, *, speed, rounding) -> Report:
    new = haste_speed(speed, rounding=rounding)
    return Report(
        outcome="hasted",
        headline=f"Speed {speed} with Haste is {new}.",
        details=(f"Haste adds 50%: {speed} + {Fraction(speed, 2)} rounded {rounding} = {new}.",),
        rules=("tt.keyword.haste", "tt.ruling.haste-rounding", "tt.combat.rounding"),
    )


def _character_adapter(rng, *, dice, method, companion, initiative, vitality, speed, companion_vitality, companion_speed) -> Report:
    rolled = dice_or_roll(dice, rng, count=STAT_ROLLS * DICE_PER_STAT, sides=6, label="Stat dice (28 d6)", field="dice")
    c = create_character(rolled, method=method)
    details = [
        f"Roll {i + 1}: {' + '.join(map(str, rolled[4 * i : 4 * i + 4]))}"
        + (" (lowest dropped)" if method == "drop-lowest" else "")
        + f" = {t}"
        for i, t in enumerate(c.totals)
    ]
    rules = ["tt.character.stat-rolls", "tt.ruling.four-d6"]
    given = {"initiative": initiative, "vitality": vitality, "speed": speed, "companion_vitality": companion_vitality, "companion_speed": companion_speed}
    outcome = "rolled"
    headline = f"Totals: {', '.join(map(str, c.totals))}."
    if any(v is not None for v in given.values()):
        try:
            stats, discarded = assign_stats(c.totals, {k: v for k, v in given.items() if v is not None}, companion=companion == "yes")
        except ValueError as err:
            raise InputError(str(err)) from None
        outcome = "assigned"
        rules.append("tt.character.stat-assignment")
        parts = [f"{STAT_LABELS[s]} {getattr(stats, s)}" for s in STATS if getattr(stats, s) is not None]
        details.append("Assigned: " + ", ".join(parts) + ".")
        details.append("Discarded: " + (", ".join(map(str, discarded)) if discarded else "none") + ".")
        headline = f"Totals {', '.join(map(str, c.totals))}: the assignment is valid."
    else:
        need = 5 if companion == "yes" else 3
        details.append(f"Give {need} of these totals to the stats ({'with' if need == 5 else 'without'} a companion) and discard the rest.")
    odds = stat_total_odds(method=method)
    return Report(
        outcome=outcome,
        headline=headline,
        details=tuple(details),
        rules=tuple(rules),
        odds=tuple((str(k), p) for k, p in odds.items()),
        odds_title="Chance of each total on one roll",
        dice={"dice": " ".join(map(str, rolled))},
    )


def _level_adapter(rng, *, level, initiative, vitality, speed, companion_vitality, companion_speed, stat) -> Report:
    if (companion_vitality is None) != (companion_speed is None):
        raise InputError("A companion has both Vitality and Speed: give both or neither.", "companion_vitality")
    stats = Stats(initiative, vitality, speed, companion_vitality, companion_speed)
    r = level_up(level, stats, stat)
    old, new = getattr(stats, stat), getattr(r.stats, stat)
    details = (
        f"Level {level} to {r.level}: put down one more land, {r.lands} in all (lands match the level).",
        f"{STAT_LABELS[stat]} goes up by 1: {old} to {new}.",
        f"Regenerate: Vitality back to full ({r.stats.vitality}), Toughness restored, negative counters and auras removed"
        + (f"; the companion's Vitality back to {r.stats.companion_vitality}." if stats.companion else "."),
        "New lands come in untapped.",
    )
    return Report(
        outcome="level-up",
        headline=f"Level {r.level}: {r.lands} lands, {STAT_LABELS[stat]} {new}.",
        details=details,
        rules=("tt.levels.level-up", "tt.levels.lands", "tt.keyword.regenerate"),
    )


def _deck_adapter(rng, *, decklist, exempt) -> Report:
    try:
        free = parse_exempt(exempt or "")
    except ValueError as err:
        raise InputError(str(err), "exempt") from None
    try:
        r = check_deck(decklist, exempt=free)
    except ValueError as err:
        raise InputError(str(err), "decklist") from None
    details = [f"{r.size} cards in {len(r.counts)} different names (lands, the PC and the companion are not counted)."]
    details += list(r.problems)
    details.append("Also check by hand: every card matches the PC's color identity, and no legendary creature or planeswalker but the PC.")
    rules = ["tt.deck.size", "tt.deck.copies", "tt.ruling.deck-limits", "tt.deck.legendary", "tt.deck.color-identity"]
    return Report(
        outcome="legal" if r.legal else "illegal",
        headline=f"{r.size} cards: " + ("a legal deck." if r.legal else f"not legal ({len(r.problems)} problem{'s' if len(r.problems) > 1 else ''})."),
        details=tuple(details),
        rules=tuple(rules),
    )


MODE_PARAMS = (
    Param("mode", "Roll", kind="choice", default="normal", choices=MODE_CHOICES, help="Advantage or disadvantage from the situation (surprise, cover, prone)."),
    Param("haste", "Haste", kind="choice", default="no", choices=YES_NO, help="Haste grants advantage."),
    Param("poisoned", "Poisoned by Deathtouch", kind="choice", default="no", choices=YES_NO, help="A poisoned character has disadvantage."),
    Param("both", "When advantage and disadvantage both apply", kind="choice", default="cancel", choices=BOTH_CHOICES, help="Ruling tt.ruling.advantage-and-disadvantage.", ruling="tt.ruling.advantage-and-disadvantage"),
)
POWER = Param("power", "Power", minimum=0, maximum=1000, help="The attacker's Power after counters and equipment.")

# Form inputs from the pages' worked examples (strings, as a form sends them).
_EXAMPLE_DICE = "6 5 4 3 6 6 2 1 5 5 5 5 1 1 1 1 3 4 5 6 2 2 3 3 6 6 6 6"
_EXAMPLE_DECK = "4 Lightning Bolt\n4 Lava Spike\n4 Rift Bolt\n4 Skewer the Critics\n4 Light Up the Stage\n4 Searing Blaze\n4 Skullcrack\n4 Monastery Swiftspear\n4 Goblin Guide\n4 Eidolon of the Great Revel"

CALCULATORS = (
    Calculator(
        name="tell_tale.resolve_attack",
        title="Attack roll",
        summary="Roll a d20 (2d20 with advantage or disadvantage) on the attack table and read the damage.",
        params=(
            POWER,
            Param("d20", "Attack d20", kind="dice", help="One d20, or both d20s with advantage or disadvantage."),
            *MODE_PARAMS,
            Param("crit_d4", "Critical d4", kind="dice", help="Only on a 20: the d4 that multiplies the Power."),
        ),
        adapter=_attack_adapter,
        outcomes=("miss", "half", "full", "critical"),
        examples=(
            # tt.combat.attack-table, one of each band with Power 5
            {"power": "5", "d20": "3"},
            {"power": "5", "d20": "10"},
            {"power": "5", "d20": "17"},
            {"power": "5", "d20": "20", "crit_d4": "3"},
            # tt.combat.rounding: Power 1 on half damage deals nothing
            {"power": "1", "d20": "10"},
            # tt.advantage.roll: 4 and 17 kept high, kept low
            {"power": "5", "d20": "4 17", "mode": "advantage"},
            {"power": "5", "d20": "4 17", "mode": "disadvantage"},
            {"power": "5", "d20": "20 9", "mode": "advantage", "crit_d4": "4"},
            # Haste and poison together cancel to one d20
            {"power": "4", "d20": "12", "haste": "yes", "poisoned": "yes"},
            {"power": "5", "seed": "2024"},
        ),
        rules=ATTACK_RULES,
    ),
    Calculator(
        name="tell_tale.apply_damage",
        title="Damage to Toughness and Vitality",
        summary="Take damage off Toughness first, then Vitality; see who is unconscious, dead, or loses their summons.",
        params=(
            Param("toughness", "Toughness", minimum=0, maximum=1000),
            Param("vitality", "Vitality", minimum=-1000, maximum=1000),
            Param("damage", "Damage", minimum=0, maximum=10000),
            Param("overflow", "Damage beyond Toughness", kind="choice", default="carry", choices=(("carry", "Carries on to Vitality (ruling)"), ("stop", "Stops at Toughness 0 for this hit")), help="Ruling tt.ruling.damage-overflow.", ruling="tt.ruling.damage-overflow"),
        ),
        adapter=_damage_adapter,
        outcomes=("standing", "unconscious", "dead"),
        examples=(
            # tt.stats.damage-order: Toughness 3, Vitality 12
            {"toughness": "3", "vitality": "12", "damage": "2"},
            {"toughness": "3", "vitality": "12", "damage": "5"},
            {"toughness": "3", "vitality": "12", "damage": "15"},
            {"toughness": "3", "vitality": "12", "damage": "16"},
            {"toughness": "3", "vitality": "12", "damage": "5", "overflow": "stop"},
        ),
        rules=("tt.stats.damage-order", "tt.stats.toughness", "tt.stats.vitality", "tt.summoning.toughness-upkeep", "tt.ruling.damage-overflow"),
    ),
    Calculator(
        name="tell_tale.double_strike",
        title="Double Strike",
        summary="Two independent attack rolls for one attack; the damage adds up.",
        params=(
            POWER,
            Param("first_d20", "First attack d20", kind="dice"),
            Param("second_d20", "Second attack d20", kind="dice"),
            *MODE_PARAMS,
            Param("first_crit_d4", "First critical d4", kind="dice", help="Only if the first roll is a 20."),
            Param("second_crit_d4", "Second critical d4", kind="dice", help="Only if the second roll is a 20."),
        ),
        adapter=_double_adapter,
        outcomes=("none", "one", "two"),
        examples=(
            # tt.ruling.double-strike, Power 4
            {"power": "4", "first_d20": "12", "second_d20": "20", "second_crit_d4": "2"},
            {"power": "4", "first_d20": "3", "second_d20": "16"},
            {"power": "4", "first_d20": "3", "second_d20": "2"},
            {"power": "4", "first_d20": "18 7", "second_d20": "3 15", "poisoned": "yes"},
        ),
        rules=("tt.keyword.double-strike", "tt.ruling.double-strike", "tt.combat.attack-table", "tt.combat.rounding", *ATTACK_RULES[3:]),
    ),
    Calculator(
        name="tell_tale.first_strike",
        title="First Strike against First Strike",
        summary="Two characters with First Strike meet: opposed attack rolls decide who deals damage.",
        params=(
            Param("first_power", "First character's Power", minimum=0, maximum=1000),
            Param("first_d20", "First character's d20", kind="dice"),
            Param("second_power", "Second character's Power", minimum=0, maximum=1000),
            Param("second_d20", "Second character's d20", kind="dice"),
            Param("winner_damage", "The winner deals", kind="choice", default="table", choices=(("table", "Damage read on the attack table (ruling)"), ("full", "Its full Power")), help="Ruling tt.ruling.first-strike-tie.", ruling="tt.ruling.first-strike-tie"),
            Param("crit_d4", "Critical d4", kind="dice", help="Only if the winner rolled a 20."),
        ),
        adapter=_first_strike_adapter,
        outcomes=("first", "second", "tie"),
        examples=(
            # tt.ruling.first-strike-tie: Power 3 against Power 5
            {"first_power": "3", "first_d20": "16", "second_power": "5", "second_d20": "9"},
            {"first_power": "3", "first_d20": "4", "second_power": "5", "second_d20": "9"},
            {"first_power": "3", "first_d20": "11", "second_power": "5", "second_d20": "11"},
            {"first_power": "3", "first_d20": "4", "second_power": "5", "second_d20": "9", "winner_damage": "full"},
            {"first_power": "3", "first_d20": "20", "second_power": "5", "second_d20": "9", "crit_d4": "2"},
        ),
        rules=("tt.keyword.first-strike", "tt.ruling.first-strike-tie", "tt.combat.attack-table"),
    ),
    Calculator(
        name="tell_tale.opposed_save",
        title="Opposed saving throw",
        summary="Exile, involuntary tapping or a Trample knock-down: the effect's d20 against the saver's d20.",
        params=(
            Param("effect_d20", "Effect's d20", kind="dice", help="Rolled by the side casting the spell or making the attack."),
            Param("save_d20", "Saver's d20", kind="dice", help="One d20, or both with advantage or disadvantage."),
            *MODE_PARAMS,
            Param("vigilance", "Saver has Vigilance", kind="choice", default="no", choices=YES_NO),
            Param("against", "Saving against", kind="choice", default="tapping", choices=(("knockdown", "Being knocked down by a Trample charge (reflex)"), ("tapping", "Involuntary tapping by a spell or ability (reflex)"), ("other", "Something else, such as Exile"))),
            Param("tie", "A tie goes to", kind="choice", default="saver", choices=(("saver", "The saver: the effect must beat it (ruling)"), ("effect", "The effect")), ruling="tt.ruling.opposed-saves"),
        ),
        adapter=_save_adapter,
        outcomes=("saved", "failed", "immune"),
        examples=(
            # tt.ruling.opposed-saves: the effect rolls 14
            {"effect_d20": "14", "save_d20": "9"},
            {"effect_d20": "14", "save_d20": "14"},
            {"effect_d20": "14", "save_d20": "14", "tie": "effect"},
            {"effect_d20": "14", "save_d20": "10", "vigilance": "yes"},
            {"effect_d20": "14", "save_d20": "10", "vigilance": "yes", "against": "knockdown"},
            {"effect_d20": "14", "save_d20": "3 15", "haste": "yes"},
            {"effect_d20": "12", "save_d20": "15", "against": "other"},
        ),
        rules=("tt.ruling.opposed-saves", "tt.keyword.vigilance", "tt.ruling.vigilance-knockdown", *ATTACK_RULES[3:]),
    ),
    Calculator(
        name="tell_tale.haste_speed",
        title="Speed with Haste",
        summary="Haste raises Speed by 50%.",
        params=(
            Param("speed", "Speed", minimum=0, maximum=1000),
            Param("rounding", "Round the half", kind="choice", default="down", choices=(("down", "Down (ruling)"), ("up", "Up")), ruling="tt.ruling.haste-rounding"),
        ),
        adapter=_haste_adapter,
        outcomes=("hasted",),
        examples=(
            # tt.ruling.haste-rounding
            {"speed": "5"},
            {"speed": "6"},
            {"speed": "5", "rounding": "up"},
        ),
        rules=("tt.keyword.haste", "tt.ruling.haste-rounding", "tt.combat.rounding"),
    ),
    Calculator(
        name="tell_tale.create_character",
        title="Character stats",
        summary="Seven rolls of 4d6 and, if you like, a check of how you give them to the stats.",
        params=(
            Param("dice", "Stat dice (28 d6)", kind="dice", help="28 d6, four per roll, in order; leave empty to roll."),
            Param("method", "4xD6 means", kind="choice", default="sum", choices=(("sum", "The sum of four d6 (ruling)"), ("drop-lowest", "Four d6, drop the lowest")), ruling="tt.ruling.four-d6"),
            Param("companion", "Animal companion", kind="choice", default="no", choices=YES_NO),
            Param("initiative", "Initiative", optional=True, minimum=0, maximum=24),
            Param("vitality", "PC Vitality", optional=True, minimum=0, maximum=24),
            Param("speed", "PC Speed", optional=True, minimum=0, maximum=24),
            Param("companion_vitality", "Companion Vitality", optional=True, minimum=0, maximum=24),
            Param("companion_speed", "Companion Speed", optional=True, minimum=0, maximum=24),
        ),
        adapter=_character_adapter,
        outcomes=("rolled", "assigned"),
        examples=(
            # tt.character.stat-rolls and tt.character.companion-cost, the page's 28 dice
            {"dice": _EXAMPLE_DICE},
            {"dice": _EXAMPLE_DICE, "method": "drop-lowest"},
            {"dice": _EXAMPLE_DICE, "initiative": "15", "vitality": "24", "speed": "20"},
            {"dice": _EXAMPLE_DICE, "companion": "yes", "initiative": "15", "vitality": "24", "speed": "20", "companion_vitality": "18", "companion_speed": "18"},
            {"seed": "7"},
        ),
        rules=("tt.character.stat-rolls", "tt.ruling.four-d6", "tt.character.stat-assignment"),
    ),
    Calculator(
        name="tell_tale.level_up",
        title="Level up",
        summary="A land more, +1 to one stat of your choice, and regenerate.",
        params=(
            Param("level", "Current level", minimum=STARTING_LEVEL, maximum=1000),
            Param("initiative", "Initiative", minimum=0, maximum=1000),
            Param("vitality", "PC Vitality (full)", minimum=0, maximum=1000),
            Param("speed", "PC Speed", minimum=0, maximum=1000),
            Param("companion_vitality", "Companion Vitality (full)", optional=True, minimum=0, maximum=1000),
            Param("companion_speed", "Companion Speed", optional=True, minimum=0, maximum=1000),
            Param("stat", "Stat to raise", kind="choice", default="vitality", choices=tuple(STAT_LABELS.items())),
        ),
        adapter=_level_adapter,
        outcomes=("level-up",),
        examples=(
            # tt.levels.level-up
            {"level": "3", "initiative": "15", "vitality": "18", "speed": "12", "stat": "vitality"},
            {"level": "4", "initiative": "15", "vitality": "18", "speed": "12", "companion_vitality": "10", "companion_speed": "9", "stat": "companion_speed"},
        ),
        rules=("tt.levels.level-up", "tt.levels.lands", "tt.keyword.regenerate"),
    ),
    Calculator(
        name="tell_tale.check_deck",
        title="Deck check",
        summary="40 to 100 cards, no more than 4 of a card (lands, PC and companion apart).",
        params=(
            Param("decklist", "Decklist", kind="text", max_length=DECKLIST_MAX_LENGTH,
                  help=f"One card per line, like '4 Lightning Bolt'; up to {DECKLIST_MAX_LENGTH:,} characters."),
            Param("exempt", "Cards allowed past 4 copies", kind="text", optional=True, max_length=EXEMPT_MAX_LENGTH,
                  help=f"Comma-separated; none by the ruling tt.ruling.deck-limits. Up to {EXEMPT_MAX_LENGTH:,} characters."),
        ),
        adapter=_deck_adapter,
        outcomes=("legal", "illegal"),
        examples=(
            # tt.deck.size, tt.deck.copies, tt.ruling.deck-limits
            {"decklist": _EXAMPLE_DECK},
            {"decklist": "4 Lightning Bolt\n4 Shock\n4 Lava Spike\n28 Goblin Guide"},
            {"decklist": "4 Lightning Bolt\n4 Shock"},
            {"decklist": "30 Relentless Rats\n4 Thoughtseize\n4 Fatal Push\n4 Dark Ritual"},
            {"decklist": "30 Relentless Rats\n4 Thoughtseize\n4 Fatal Push\n4 Dark Ritual", "exempt": "Relentless Rats"},
        ),
        rules=("tt.deck.size", "tt.deck.copies", "tt.ruling.deck-limits", "tt.deck.legendary", "tt.deck.color-identity"),
    ),
)

