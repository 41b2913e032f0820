"""Tell-Tale's GM screen: the attack table with its odds, damage by Power, what changes a roll, Vitality,
saves, and every keyword (calculators/gm_panels.py says what a panel is)."""

from __future__ import annotations

from typing import Any

from ..gm_panels import Follows, Line, Panel, Table, Terms, lines, pct
from . import combat, encounter


def _attack_odds() -> Table:
    """The attack table's bands with the chance of each on one d20, with advantage and with disadvantage."""
    odds = {mode: combat.outcome_odds(mode) for mode in combat.MODES}
    rows = tuple((f"{low}" if low == high else f"{low}-{high}", label, *(pct(odds[m][outcome]) for m in combat.MODES))
                 for low, high, outcome, label in combat.ATTACK_TABLE)
    return Table("The kept d20 on the attack table, and the chance of each result",
                 ("d20", "Result", *(m.capitalize() for m in combat.MODES)),
                 rows, source="tt.combat.attack-table")


def _damage_by_power(powers: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 8, 10)) -> Table:
    """What each band deals at a few Powers: the critical is Power times a d4."""
    labels = combat.BAND_LABELS
    rows = []
    for p in powers:
        crit = [combat.band_damage(p, "critical", d4) for d4 in (1, 4)]
        rows.append((str(p), *(str(combat.band_damage(p, o)) for o in ("miss", "half", "full")),
                     f"{crit[0]}-{crit[1]}"))
    head = ("Power", *(labels[o] for o in ("miss", "half", "full", "critical")))
    return Table("Damage by Power (a critical multiplies the Power by a d4)", head, tuple(rows),
                 source="tt.combat.rounding")


def _conditions() -> Table:
    """Which source gives advantage or disadvantage on which roll, from combat.roll_conditions."""
    sources = ({"situation": "advantage"}, {"situation": "disadvantage"}, {"haste": True}, {"poisoned": True},
               {"tapped": True})
    rows, rules = [], []
    for source in sources:
        found = [combat.roll_conditions(roll, **source) for roll in combat.ROLLS]
        named = next(c for c in found if c.mode != "normal")
        who = (named.advantage or named.disadvantage)[0]
        rows.append((who[0].upper() + who[1:], *(c.mode if c.mode != "normal" else "-" for c in found)))
        rules.append(next(r for r in named.rules if r != "tt.advantage.roll"))
    return Table("What changes a d20 roll", ("Source", *(r.capitalize() for r in combat.ROLLS)), tuple(rows),
                 tuple(rules))


def _vitality() -> Table:
    """A character's state at Vitality above 0, at 0 and below 0 (combat.apply_damage)."""
    rows = tuple((shown, combat.apply_damage(0, v, 0).status) for v,
                 shown in ((1, "above 0"), (0, "0"), (-1, "below 0")))
    return Table("Vitality and what it means", ("Vitality", "The character is"), rows, source="tt.stats.vitality")


def _saves(tie: str = "saver") -> Table:
    """The chance a save holds against an effect's d20, a tie going to the saver or to the effect
    (tt.ruling.opposed-saves)."""
    cases: tuple[tuple[str, dict[str, Any]], ...] = (("Plain d20", {}),
                                                     (f"Vigilance (+{combat.VIGILANCE_BONUS})", {"vigilance": True}),
             ("Advantage (Haste, reflex)", {"mode": "advantage"}),
                                                     ("Disadvantage (poisoned)", {"mode": "disadvantage"}))
    rows = tuple((name, pct(combat.save_odds(**kw, tie=tie)["saved"])) for name, kw in cases)
    return Table("The chance an opposed save holds", ("Saver rolls", "Saved"), rows, source="tt.ruling.opposed-saves")


def panels() -> tuple[Panel, ...]:
    words = encounter.vocabulary()
    steps = tuple(rule for _, _, rule in words.get("steps", ()))
    tracked = frozenset(f"tt.keyword.{key}" for key, _ in words.get("keywords", ()))
    return (
        Panel("attack", "Attack roll",
              (_attack_odds(), _damage_by_power(),
               *lines("tt.combat.attack-roll", "tt.combat.rounding", "tt.combat.targets"))),
        Panel("advantage", "Advantage and disadvantage", (_conditions(), *lines(
            "tt.advantage.conditions", "tt.advantage.roll", "tt.ruling.advantage-and-disadvantage",
            "tt.ruling.prone-attacker",
            "tt.ruling.poisoned-rolls"))),
        Panel("turn", "A combat turn",
              (*lines("tt.combat.turn", *steps[:3]), Line(steps[3], "whole"),
               *lines(*steps[4:], "tt.ruling.summon-turns"))),
        Panel("health", "Toughness and Vitality", (_vitality(), *lines(
            "tt.stats.toughness", "tt.stats.damage-order", "tt.ruling.damage-overflow", "tt.stats.toughness-upkeep",
            "tt.stats.toughness-regeneration", "tt.stats.vitality-no-regeneration", "tt.ruling.vitality-above-full"))),
        Panel("saves", "Saves and Vigilance", (Follows(("tie",), _saves), *lines(
            "tt.ruling.opposed-saves", "tt.keyword.vigilance", "tt.mechanics.vigilance-save",
            "tt.ruling.vigilance-knockdown",
            "tt.mechanics.involuntary-tapping"))),
        Panel("keywords", "Every keyword", (Terms("keyword", tracked, "in the tracker", "tt.mechanics.same-as-mtg"),)),
    )
