"""Tell-Tale characters: stats from 4d6, their assignment, and level-ups."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

import icepool

from ..checks import InputError, die, one_of, whole

# ---------------------------------------------------------------- rule data

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
STARTING_LEVEL = 3  # tt.levels.starting-level


# ---------------------------------------------------------------- characters


@dataclass(frozen=True)
class Character:
    """Seven stat totals (tt.character.stat-rolls), in the order rolled."""

    dice: tuple[int, ...]
    totals: tuple[int, ...]
    method: str


def _method(method: object) -> None:
    one_of(method, ("sum", "drop-lowest"), "method", "4xD6 is read as the sum of four dice or as drop-lowest")


def _stat_total(four: tuple[int, ...], method: str) -> int:
    if method == "sum":
        return sum(four)
    return sum(four) - min(four)


def stat_total(four: Iterable[int], *, method: str = "sum") -> int:
    """One 4xD6 total (tt.ruling.four-d6): the sum of four d6, or the best three."""
    _method(method)
    four = tuple(die(v, 6, "dice") for v in four)
    if len(four) != DICE_PER_STAT:
        raise InputError(f"A 4xD6 total uses {DICE_PER_STAT} d6; got {len(four)}.", "dice")
    return _stat_total(four, method)


def stat_totals(dice: Iterable[int], *, method: str = "sum") -> tuple[int, ...]:
    """Seven totals from 28 d6, four at a time (tt.ruling.four-d6)."""
    return create_character(dice, method=method).totals


def create_character(dice: Iterable[int], *, method: str = "sum") -> Character:
    """Read 28 d6 as seven rolls of 4d6: the sum of the four (or the best three)."""
    _method(method)
    dice = tuple(dice)
    want = STAT_ROLLS * DICE_PER_STAT
    if len(dice) != want:
        raise InputError(f"Seven rolls of 4d6 use {want} d6; got {len(dice)}.", "dice")
    dice = tuple(die(v, 6, "dice") for v in dice)
    totals = tuple(_stat_total(dice[i : i + 4], method) for i in range(0, want, 4))
    return Character(dice, totals, method)


def stat_total_odds(*, method: str = "sum") -> dict[int, Fraction]:
    """Exact distribution of one total: 4d6 summed (4-24), or best three (3-18)."""
    _method(method)
    dist = 4 @ icepool.d6 if method == "sum" else icepool.d6.highest(4, 3)
    return {int(o): dist.probability(o) for o in dist.outcomes()}


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


def assign_stats(totals: Iterable[int], assignment: dict[str, int], *, companion: bool = False) -> tuple[Stats,
                                                                                                         tuple[int,
                                                                                                               ...]]:
    """Check an assignment of the rolled totals (tt.character.stat-assignment).

    Each total is used at most once; the PC's three stats need a value, the
    companion's two need one with a companion and none without. Returns the
    stats and the totals discarded.
    """
    pool = Counter(totals)
    needed = PC_STATS + (COMPANION_STATS if companion else ())
    unknown = set(assignment) - set(STATS)
    if unknown:
        raise InputError(f"The rolled totals go to {', '.join(STAT_LABELS.values())}; there is no stat {sorted(unknown)[0]!r}.", "assignment")
    for stat in needed:
        if assignment.get(stat) is None:
            raise InputError(f"{STAT_LABELS[stat]} needs one of the rolled totals.", stat)
    if not companion:
        for stat in COMPANION_STATS:
            if assignment.get(stat) is not None:
                raise InputError(f"{STAT_LABELS[stat]} is only for a character with an animal companion.", stat)
    used = Counter(assignment[s] for s in needed)
    for value, n in sorted(used.items()):
        if pool[value] < n:
            have = pool[value]
            rolled = "was not rolled" if have == 0 else f"was rolled only {have} time{'s' if have > 1 else ''}"
            first = next(s for s in needed if assignment[s] == value)
            raise InputError(f"{value} is used {n} time{'s' if n > 1 else ''} but {rolled}; each total goes to one stat.", first)
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
    level = whole(level, "Level", "level")
    if level < STARTING_LEVEL:
        raise InputError(f"Characters start at level {STARTING_LEVEL}; got level {level}.", "level")
    one_of(stat, STATS, "stat", f"A level-up raises one of {', '.join(STAT_LABELS.values())}")
    if stat in COMPANION_STATS and not stats.companion:
        raise InputError(f"{STAT_LABELS[stat]} can only be raised for a character with an animal companion.", "stat")
    values = {s: getattr(stats, s) for s in STATS}
    values[stat] += 1
    return LevelUp(level + 1, level + 1, Stats(**values), stat)


