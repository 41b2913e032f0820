"""What each game's GM screen holds (issue 35): its panels, made from the rule data the calculators read.

A panel is a title and what it shows, in order: tables computed here from
the rules modules (the attack table with its odds, who plays in which slot,
the multiple action penalty...), and lines, each one rule by its ID. A line
shows the rule's short form, the one the build publishes for previews and
unfurls (rule-previews.json), or for a ruling the short form of its
**Ruling:** paragraph; `whole` shows the rule's whole text (a list such as
the nine actions, cut short by a preview). The words are filled in by the
finishing step from the built pages (rulebook/site/gm_screens.py), so
nothing here retypes a rule: this module names rules and calls functions.

rulebook/gm_screen.py draws the panels; the page of each game is
`docs/<game>/gm-screen.md`, which holds `{{ gm-screen <prefix> }}`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from calculators import fmt
from calculators.registry import all_trackers
from calculators.rpgdl import data as rpgdl_data
from calculators.rpgdl.duels import Duelist, trainwreck_reasons, worth_parts
from calculators.rpgdl.season import vote_pool
from calculators.checks import InputError
from calculators.talislanta import rules as tal
from calculators.tell_tale import combat


@dataclass(frozen=True)
class Line:
    """One rule on the screen: its ID (a link to it), its title and its words (`short` or `whole`)."""

    rule: str
    form: str = "short"


@dataclass(frozen=True)
class Table:
    """Numbers computed from the rules modules; `rules`, one per row ('' for none), names the rule of each row."""

    caption: str
    head: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    rules: tuple[str, ...] = ()
    source: str = ""  # the rule the whole table is data of


@dataclass(frozen=True)
class Follows:
    """A table whose numbers depend on house rulings a table may choose: `make` is called with every value of
    each setting it names (param names of the game's settings, `calculators.table.table_settings`), as keyword
    arguments, so the build publishes the table for each choice and the page shows the one the table made."""

    settings: tuple[str, ...]
    make: Callable[..., Table]


@dataclass(frozen=True)
class Terms:
    """Every term rule of a kind (`keyword`) in the game, one line each: ID, title and effect (its text's first
    sentence); `marked`: those a tracker applies. `together`: a rule whose terms say only that they work as it says
    (their text one sentence that ends with a link to it), listed by name on its line."""

    kind: str
    marked: frozenset[str] = frozenset()
    mark: str = ""
    together: str = ""


@dataclass(frozen=True)
class Panel:
    key: str  # its anchor: gm-<key>
    title: str
    items: tuple[Line | Table | Follows | Terms, ...] = field(default_factory=tuple)


def _lines(*rules: str) -> tuple[Line, ...]:
    return tuple(Line(r) for r in rules)


def _pct(p: object) -> str:
    return fmt.percent(p, 1)  # type: ignore[arg-type]


# ---------------------------------------------------------------- Tell-Tale


def _attack_odds() -> Table:
    """The attack table's bands with the chance of each on one d20, with advantage and with disadvantage."""
    odds = {mode: combat.outcome_odds(mode) for mode in combat.MODES}
    rows = tuple((f"{low}" if low == high else f"{low}-{high}", label, *(_pct(odds[m][outcome]) for m in combat.MODES))
                 for low, high, outcome, label in combat.ATTACK_TABLE)
    return Table("The kept d20 on the attack table, and the chance of each result", ("d20", "Result", *(m.capitalize() for m in combat.MODES)),
                 rows, source="tt.combat.attack-table")


def _damage_by_power(powers: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 8, 10)) -> Table:
    """What each band deals at a few Powers: the critical is Power times a d4."""
    labels = combat.BAND_LABELS
    rows = []
    for p in powers:
        crit = [combat.band_damage(p, "critical", d4) for d4 in (1, 4)]
        rows.append((str(p), *(str(combat.band_damage(p, o)) for o in ("miss", "half", "full")), f"{crit[0]}-{crit[1]}"))
    head = ("Power", *(labels[o] for o in ("miss", "half", "full", "critical")))
    return Table("Damage by Power (a critical multiplies the Power by a d4)", head, tuple(rows), source="tt.combat.rounding")


def _conditions() -> Table:
    """Which source gives advantage or disadvantage on which roll, from combat.roll_conditions."""
    sources = ({"situation": "advantage"}, {"situation": "disadvantage"}, {"haste": True}, {"poisoned": True}, {"tapped": True})
    rows, rules = [], []
    for source in sources:
        found = [combat.roll_conditions(roll, **source) for roll in combat.ROLLS]
        named = next(c for c in found if c.mode != "normal")
        who = (named.advantage or named.disadvantage)[0]
        rows.append((who[0].upper() + who[1:], *(c.mode if c.mode != "normal" else "-" for c in found)))
        rules.append(next(r for r in named.rules if r != "tt.advantage.roll"))
    return Table("What changes a d20 roll", ("Source", *(r.capitalize() for r in combat.ROLLS)), tuple(rows), tuple(rules))


def _vitality() -> Table:
    """A character's state at Vitality above 0, at 0 and below 0 (combat.apply_damage)."""
    rows = tuple((shown, combat.apply_damage(0, v, 0).status) for v, shown in ((1, "above 0"), (0, "0"), (-1, "below 0")))
    return Table("Vitality and what it means", ("Vitality", "The character is"), rows, source="tt.stats.vitality")


def _saves(tie: str = "saver") -> Table:
    """The chance a save holds against an effect's d20, a tie going to the saver or to the effect (tt.ruling.opposed-saves)."""
    cases: tuple[tuple[str, dict[str, Any]], ...] = (("Plain d20", {}), (f"Vigilance (+{combat.VIGILANCE_BONUS})", {"vigilance": True}),
             ("Advantage (Haste, reflex)", {"mode": "advantage"}), ("Disadvantage (poisoned)", {"mode": "disadvantage"}))
    rows = tuple((name, _pct(combat.save_odds(**kw, tie=tie)["saved"])) for name, kw in cases)
    return Table("The chance an opposed save holds", ("Saver rolls", "Saved"), rows, source="tt.ruling.opposed-saves")


def _tell_tale() -> tuple[Panel, ...]:
    encounter = all_trackers()["tell_tale.encounter"]
    words = encounter.vocabulary() if encounter.vocabulary else {}
    steps = tuple(rule for _, _, rule in words.get("steps", ()))
    tracked = frozenset(f"tt.keyword.{key}" for key, _ in words.get("keywords", ()))
    return (
        Panel("attack", "Attack roll", (_attack_odds(), _damage_by_power(), *_lines("tt.combat.attack-roll", "tt.combat.rounding", "tt.combat.targets"))),
        Panel("advantage", "Advantage and disadvantage", (_conditions(), *_lines(
            "tt.advantage.conditions", "tt.advantage.roll", "tt.ruling.advantage-and-disadvantage", "tt.ruling.prone-attacker",
            "tt.ruling.poisoned-rolls"))),
        Panel("turn", "A combat turn", (*_lines("tt.combat.turn", *steps[:3]), Line(steps[3], "whole"), *_lines(*steps[4:], "tt.ruling.summon-turns"))),
        Panel("health", "Toughness and Vitality", (_vitality(), *_lines(
            "tt.stats.toughness", "tt.stats.damage-order", "tt.ruling.damage-overflow", "tt.stats.toughness-upkeep",
            "tt.stats.toughness-regeneration", "tt.stats.vitality-no-regeneration", "tt.ruling.vitality-above-full"))),
        Panel("saves", "Saves and Vigilance", (Follows(("tie",), _saves), *_lines(
            "tt.ruling.opposed-saves", "tt.keyword.vigilance", "tt.mechanics.vigilance-save", "tt.ruling.vigilance-knockdown",
            "tt.mechanics.involuntary-tapping"))),
        Panel("keywords", "Every keyword", (Terms("keyword", tracked, "in the tracker", "tt.mechanics.same-as-mtg"),)),
    )


# ---------------------------------------------------------------- Talislanta


def _action_table() -> Table:
    return Table("The modified total on the Action Table", ("Total", "Result"),
                 tuple((b.range_text, b.title) for b in tal.ACTION_TABLE), tuple(b.rule for b in tal.ACTION_TABLE), source="tal.action.table")


def _action_odds(modifiers: tuple[int, ...] = (-10, -5, -2, 0, 2, 5, 10)) -> Table:
    rows = tuple((fmt.signed(m), *(_pct(p) for p in tal.action_odds(m).values())) for m in modifiers)
    return Table("The chance of each result by modifier", ("Modifier", *(b.title for b in tal.ACTION_TABLE)), rows, source="tal.action.total")


def _penalties(actions: int = 4) -> Table:
    rows = tuple((f"Action {n + 1}", fmt.signed(tal.multiple_action_penalty(n)) if n else "0") for n in range(actions))
    return Table("The multiple action penalty, by action in the round", ("Action", "Penalty"), rows, source="tal.multiple.penalty")


def _talislanta() -> tuple[Panel, ...]:
    return (
        Panel("action-table", "The Action Table", (_action_table(), Line("tal.action.procedure", "whole"), *_lines(
            "tal.action.total", "tal.action.no-natural-results", "tal.ruling.totals-only", "tal.ruling.table-source"))),
        Panel("results", "What each result means", _lines(
            "tal.action.mishap", "tal.action.mishap-gm", "tal.action.failure", "tal.action.partial", "tal.action.full", "tal.action.critical",
            "tal.action.critical-gm")),
        Panel("modifiers", "Modifiers", (_action_odds(), *_lines(
            "tal.action.modifiers", "tal.ruling.difficulty-sign", "tal.ruling.modifier-list", "tal.difficulty.degree", "tal.opposed.difference",
            "tal.ruling.opposed-difficulty"))),
        Panel("multiple", "Multiple actions", (_penalties(), *_lines(
            "tal.multiple.one-action", "tal.multiple.optional", "tal.multiple.penalty", "tal.multiple.timing", "tal.ruling.attempted-actions-count",
            "tal.multiple.offset", "tal.ruling.offset-later-actions", "tal.ruling.offset-cap", "tal.ruling.offset-negative",
            "tal.multiple.mishap", "tal.ruling.mishap-ends-sequence"))),
    )


# ---------------------------------------------------------------- RPGDL


def _slots(division_penalty: str = "flat") -> Table:
    """A duelist's Worth change in each slot (rpgdl.ruling.division-penalty: -2, or -2 per division), or that it may not play there."""
    names = rpgdl_data.DIVISION_NAMES

    def change(division: str, slot: str) -> str:
        try:
            penalty = worth_parts(Duelist("", division, 0, 0), slot, division_penalty=division_penalty).penalty
        except InputError:
            return "may not"
        return fmt.signed(-penalty) if penalty else "proper"

    rows = tuple((names[d], *(change(d, s) for s in rpgdl_data.DIVISIONS)) for d in rpgdl_data.DIVISIONS)
    return Table("A duelist's division (rows) in each slot (columns)", ("Duelist", *(names[s] for s in rpgdl_data.DIVISIONS)), rows,
                 source="rpgdl.divisions.improper")


def _trainwrecks() -> Table:
    """Whether losing to a duelist of a division is a Trainwreck by the division gap alone (Draws far apart)."""
    names = rpgdl_data.DIVISION_NAMES

    def wreck(loser: str, winner: str) -> str:
        gap = "division-gap" in trainwreck_reasons(Duelist("", loser, 0, 0), Duelist("", winner, 0, 0))
        return "Trainwreck" if gap else "-"

    rows = tuple((names[lo], *(wreck(lo, w) for w in rpgdl_data.DIVISIONS)) for lo in rpgdl_data.DIVISIONS)
    return Table("The loser's division (rows) beaten by a winner of (columns)", ("Loser", *(names[w] for w in rpgdl_data.DIVISIONS)), rows,
                 source="rpgdl.weekend.trainwreck")


def _votes(generic_weight: int = rpgdl_data.DEFAULT_GENERIC_WEIGHT, trainwreck_limit: int = rpgdl_data.DEFAULT_TRAINWRECK_LIMIT) -> Table:
    pool = vote_pool(generic_weight=generic_weight)
    rows = ((f"{pool.generic_voters} Generic Voters at Vote Weight {pool.generic_weight}", str(pool.votes)),
            ("Trainwrecks that lose the game", str(trainwreck_limit)),
            ("Weeks in a Season", str(rpgdl_data.SEASON_WEEKS)))
    return Table("The numbers of a Season", ("What", "Number"), rows, ("rpgdl.ruling.vote-pool", "rpgdl.ruling.trainwreck-limit", "rpgdl.season.length"))


def _rpgdl() -> tuple[Panel, ...]:
    return (
        Panel("week", "The week's flow", _lines(
            "rpgdl.turn.phases", "rpgdl.turn.update-day", "rpgdl.turn.pools", "rpgdl.turn.week", "rpgdl.turn.weekend", "rpgdl.turn.results",
            "rpgdl.ruling.weekly-pools", "rpgdl.week.alternate", "rpgdl.week.pass", "rpgdl.turn.priority-roll", "rpgdl.ruling.roll-off",
            "rpgdl.chain.lifo")),
        Panel("divisions", "Divisions and playing up", (Follows(("division_penalty",), _slots), *_lines(
            "rpgdl.divisions.order", "rpgdl.divisions.slots", "rpgdl.divisions.play-up", "rpgdl.divisions.no-play-down",
            "rpgdl.divisions.improper", "rpgdl.ruling.division-penalty", "rpgdl.worth.modified"))),
        Panel("results", "Successes and Trainwrecks", (_trainwrecks(), *_lines(
            "rpgdl.weekend.duel", "rpgdl.weekend.sudden-death", "rpgdl.ruling.sudden-death", "rpgdl.weekend.successes",
            "rpgdl.ruling.successes-worth", "rpgdl.weekend.trainwreck", "rpgdl.ruling.trainwreck-gap", "rpgdl.ruling.half-draw",
            "rpgdl.season.trainwreck-loss", "rpgdl.ruling.trainwreck-limit"))),
        Panel("votes", "The Vote Pool", (Follows(("generic_weight", "trainwreck_limit"), _votes), *_lines(
            "rpgdl.voters.generate", "rpgdl.voters.starting", "rpgdl.voters.generic-weight", "rpgdl.ruling.generic-voter-weight",
            "rpgdl.ruling.vote-pool", "rpgdl.votes.costs", "rpgdl.votes.worth", "rpgdl.votes.limit", "rpgdl.votes.empty-pool",
            "rpgdl.ruling.vote-worth"))),
    )


# Each game's ID prefix -> its panels, made when asked (the rules modules' functions run at build time).
SCREENS: dict[str, Callable[[], tuple[Panel, ...]]] = {"tt": _tell_tale, "tal": _talislanta, "rpgdl": _rpgdl}
