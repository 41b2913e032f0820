"""Tell-Tale's -1/-1 counters, Deathtouch poison and its cures.

One character's numbers as a small frozen `Condition`, and pure functions
that change it: -1/-1 counters (Deathtouch, Infect, Wither), the poison's
counter each turn, and the cures (life gain, regeneration, return, burning
one's own PC). The Deathtouch poison track calculator and the encounter
tracker both use these, so they cannot disagree.

Rules: tt.keyword.deathtouch, tt.mechanics.deathtouch-cure,
tt.mechanics.deathtouch-counters, tt.ruling.poison-timing and
tt.ruling.deathtouch-damage (what a counter takes and what removing one
gives back).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..checks import InputError, one_of, whole
from .combat import apply_damage, power_after_counters

CURES = ("none", "life", "regenerate", "return", "burn")
CURE_LABELS = {
    "none": "No cure",
    "life": "Life gain",
    "regenerate": "Regeneration",
    "return": "Return to the battlefield",
    "burn": "Burning one's own PC",
}
MAX_TRACK_TURNS = 30


@dataclass(frozen=True)
class Condition:
    """The numbers counters and poison touch.

    power and toughness are the full values (card, equipment, effects);
    toughness_now is what is left of Toughness; vitality may go below 0.
    """

    power: int
    toughness: int
    toughness_now: int
    vitality: int
    counters: int = 0
    poisoned: bool = False

    @property
    def power_now(self) -> int:
        """Power less one per -1/-1 counter, never below 0 (tt.stats.power-minimum)."""
        return power_after_counters(self.power, self.counters)

    @property
    def health(self) -> str:
        """conscious, unconscious (Vitality 0) or dead (below 0): tt.stats.vitality."""
        return "conscious" if self.vitality > 0 else "unconscious" if self.vitality == 0 else "dead"


def condition(power: int, toughness: int, vitality: int, *, toughness_now: int | None = None, counters: int = 0,
              poisoned: bool = False) -> Condition:
    """A checked Condition; toughness_now defaults to the full Toughness."""
    power = whole(power, "Power", "power", minimum=0)
    toughness = whole(toughness, "Toughness", "toughness", minimum=0)
    vitality = whole(vitality, "Vitality", "vitality")
    now = toughness if toughness_now is None else whole(toughness_now, "Toughness left", "toughness_now", minimum=0)
    counters = whole(counters, "-1/-1 counters", "counters", minimum=0)
    return Condition(power, toughness, now, vitality, counters, bool(poisoned))


@dataclass(frozen=True)
class CounterHit:
    """What n -1/-1 counters did: to Toughness, then to Vitality."""

    to_toughness: int
    to_vitality: int


def add_counters(c: Condition, n: int, *, overflow: str = "carry") -> tuple[Condition, CounterHit]:
    """Put n -1/-1 counters on a character (tt.ruling.deathtouch-damage).

    Each takes 1 Power (never below 0) and 1 Toughness, or 1 Vitality once
    Toughness is 0 (tt.stats.damage-order); n counters from one hit follow
    the damage-overflow ruling like damage does.
    """
    n = whole(n, "Counters", "counters", minimum=0)
    hit = apply_damage(c.toughness_now, c.vitality, n, overflow=overflow)
    return replace(c, toughness_now=hit.toughness, vitality=hit.vitality,
                   counters=c.counters + n), CounterHit(hit.to_toughness, hit.to_vitality)


def deathtouch_hit(c: Condition, damage: int, *, overflow: str = "carry") -> tuple[Condition, CounterHit]:
    """Deathtouch damage: that many -1/-1 counters, and poison if any were dealt."""
    after, hit = add_counters(c, damage, overflow=overflow)
    return (replace(after, poisoned=True) if damage > 0 else after), hit


def poison_tick(c: Condition) -> tuple[Condition, CounterHit | None]:
    """The poison's counter at the upkeep step (tt.ruling.poison-timing); none once dead or cured."""
    if not c.poisoned or c.health == "dead":
        return c, None
    return add_counters(c, 1)


def gain_life(c: Condition, amount: int) -> tuple[Condition, int]:
    """Life gain: +amount Vitality, cures poison, removes that many counters (at most all).

    Returns the new condition and the number of counters removed; a removed
    counter gives back its Power, not Toughness (tt.ruling.deathtouch-damage).
    """
    amount = whole(amount, "Life gained", "life", minimum=0)
    removed = min(amount, c.counters)
    if amount == 0:
        return c, 0
    return replace(c, vitality=c.vitality + amount, counters=c.counters - removed, poisoned=False), removed


def regenerate(c: Condition, full_vitality: int) -> Condition:
    """Regeneration (or a PC's return): full Toughness and Vitality, no counters, no poison.

    Vitality already above full stays where it is (tt.ruling.vitality-above-full).
    """
    full_vitality = whole(full_vitality, "Full Vitality", "full_vitality", minimum=0)
    return replace(c, toughness_now=max(c.toughness_now, c.toughness), vitality=max(c.vitality, full_vitality),
                   counters=0, poisoned=False)


def burn(c: Condition, amount: int) -> Condition:
    """Burning one's own PC: Vitality goes down by the damage, and the poison stops; counters stay."""
    amount = whole(amount, "Burn damage", "burn", minimum=0)
    return replace(c, vitality=c.vitality - amount, poisoned=False)


def apply_cure(c: Condition, how: str, *, amount: int = 0, full_vitality: int | None = None) -> tuple[Condition, int]:
    """Any cure of tt.mechanics.deathtouch-cure; returns the condition and the counters removed."""
    one_of(how, CURES[1:], "cure", "A cure is life, regenerate, return or burn")
    if how == "life":
        return gain_life(c, amount)
    if how == "burn":
        return burn(c, amount), 0
    return regenerate(c, c.vitality if full_vitality is None else full_vitality), c.counters


# ---------------------------------------------------------------- the poison track


@dataclass(frozen=True)
class TrackRow:
    """The character at one moment of the track: after the hit (turn 0) or a turn's upkeep."""

    turn: int
    event: str  # hit, counter, cure, none
    condition: Condition


@dataclass(frozen=True)
class PoisonTrack:
    rows: tuple[TrackRow, ...]
    outcome: str  # cured, poisoned, unconscious, dead
    final: Condition
    cured_on: int | None


def poison_track(
    power: int,
    toughness: int,
    vitality: int,
    damage: int,
    turns: int,
    *,
    cure: str = "none",
    cure_turn: int = 1,
    life: int = 0,
    full_vitality: int | None = None,
    overflow: str = "carry",
) -> PoisonTrack:
    """A Deathtouch hit of `damage` on a character, then its poison over `turns` of its combat turns.

    The hit puts `damage` -1/-1 counters on it and poisons it; at the upkeep
    of each of its later turns the poison adds one counter, until it dies or
    is cured. A cure on turn k comes after that turn's upkeep (turn 0: right
    after the hit). `life` is the life gained, or the burn damage.
    """
    start = condition(power, toughness, vitality)
    damage = whole(damage, "Deathtouch damage", "damage", minimum=1)
    turns = whole(turns, "Turns", "turns", minimum=1, maximum=MAX_TRACK_TURNS)
    one_of(cure, CURES, "cure", "A cure is none, life, regenerate, return or burn")
    cure_turn = whole(cure_turn, "Turn of the cure", "cure_turn", minimum=0, maximum=turns)
    life = whole(life, "Life gained or burn damage", "life", minimum=0)
    if cure in ("life", "burn") and life == 0:
        raise InputError(f"{CURE_LABELS[cure]} needs an amount of at least 1.", "life")
    full = start.vitality if full_vitality is None else whole(full_vitality, "Full Vitality", "full_vitality",
                                                              minimum=0)
    c, _ = deathtouch_hit(start, damage, overflow=overflow)
    rows = [TrackRow(0, "hit", c)]
    cured_on = None

    def try_cure(turn: int) -> None:
        nonlocal c, cured_on
        if cure != "none" and turn == cure_turn and c.health != "dead" and cured_on is None:
            c, _ = apply_cure(c, cure, amount=life, full_vitality=full)
            cured_on = turn
            rows.append(TrackRow(turn, "cure", c))

    try_cure(0)
    for turn in range(1, turns + 1):
        if c.health == "dead" or not c.poisoned:
            break
        c, _ = poison_tick(c)
        rows.append(TrackRow(turn, "counter", c))
        try_cure(turn)
    if c.health != "conscious":
        outcome = c.health
    else:
        outcome = "poisoned" if c.poisoned else "cured"
    return PoisonTrack(tuple(rows), outcome, c, cured_on)
