"""Talislanta 5th edition: the Action Table and Multiple Actions, as pure functions.

Every action is one d20 plus a modifier (rating, Degree of Difficulty, an
opponent's rating, the multiple action penalty), read on the Action Table
(docs/talislanta/action-table.md). The rulings these functions follow are
named beside the code that applies them and exposed as settings where a
table might choose otherwise; the three on the offset travel together as
one `Offset`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any
from collections.abc import Sequence

import icepool

from ..checks import InputError, die, one_of, whole

__all__ = [
    "ACTION_TABLE",
    "Band",
    "OUTCOMES",
    "MULTIPLE_ACTION_STEP",
    "OFFSET_MODES",
    "OFFSET_CAPS",
    "NEGATIVE_OFFSETS",
    "Offset",
    "as_offset",
    "ActionResult",
    "SequenceResult",
    "band_for",
    "outcome_for",
    "multiple_action_penalty",
    "action_modifier",
    "resolve_action",
    "action_odds",
    "success_chance",
    "sequence_modifiers",
    "clear_chance",
    "sequence_odds",
    "multiple_actions",
]

# ---------------------------------------------------------------- data


@dataclass(frozen=True)
class Band:
    """One row of the Action Table: totals low..high (None = no bound)."""

    outcome: str
    title: str
    low: int | None
    high: int | None
    rule: str

    def contains(self, total: int) -> bool:
        return (self.low is None or total >= self.low) and (self.high is None or total <= self.high)

    @property
    def range_text(self) -> str:
        if self.low is None:
            return f"{self.high} or less"
        if self.high is None:
            return f"{self.low} or more"
        return f"{self.low}-{self.high}"


# tal.action.table, bands from tal.ruling.table-source.
ACTION_TABLE: tuple[Band, ...] = (
    Band("mishap", "Mishap", None, 0, "tal.action.mishap"),
    Band("failure", "Failure", 1, 5, "tal.action.failure"),
    Band("partial", "Partial Success", 6, 10, "tal.action.partial"),
    Band("full", "Full Success", 11, 19, "tal.action.full"),
    Band("critical", "Critical Success", 20, None, "tal.action.critical"),
)
OUTCOMES: tuple[str, ...] = tuple(b.outcome for b in ACTION_TABLE)
BY_OUTCOME = {b.outcome: b for b in ACTION_TABLE}

# tal.multiple.penalty: -5 for each action already taken this round.
MULTIPLE_ACTION_STEP = -5

# Settings for the rulings on the offset (tal.multiple.offset).
OFFSET_MODES = (
    ("once", "Once per roll (ruling)"),
    ("each", "Against each -5 step"),
)  # tal.ruling.offset-later-actions
OFFSET_CAPS = (
    ("penalty", "Cancels it only (ruling)"),
    ("none", "Becomes a bonus"),
)  # tal.ruling.offset-cap
NEGATIVE_OFFSETS = (
    ("ignore", "Offsets nothing (ruling)"),
    ("worsen", "Adds to the penalty"),
)  # tal.ruling.offset-negative

# ---------------------------------------------------------------- checks


def _choice(value: object, options: tuple[tuple[str, str], ...], what: str, field: str) -> str:
    allowed = [v for v, _ in options]
    return one_of(value, allowed, field,
                  f"{what} must be {' or '.join(repr(v) for v in allowed)}")  # type: ignore[return-value]


def _prior(prior_actions: object) -> int:
    prior_actions = whole(prior_actions, "The number of actions already taken this round", "prior_actions")
    if prior_actions < 0:
        raise InputError(f"The number of actions already taken this round can't be negative; got {prior_actions}.",
                         "prior_actions")
    return prior_actions


# ---------------------------------------------------------------- the offset


@dataclass(frozen=True)
class Offset:
    """A Primary Attribute offsetting the multiple action penalty, and how (tal.multiple.offset).

    value: the attribute, such as SPD +2 (0: no offset). The three rulings:
    mode (tal.ruling.offset-later-actions) "once" subtracts the offset from
    the roll's whole penalty (-10 -> -8), "each" from every -5 step
    (-10 -> -6); cap (tal.ruling.offset-cap) "penalty" stops at 0, "none"
    lets it become a bonus; negative (tal.ruling.offset-negative) "ignore" or
    "worsen". One Offset goes from function to function: every public
    function takes it as `offset` (or a plain number, the attribute with the
    default rulings: `as_offset`), as the forms' four fields make it.
    """

    value: int = 0
    mode: str = "once"
    cap: str = "penalty"
    negative: str = "ignore"

    def __post_init__(self) -> None:
        whole(self.value, "The offsetting attribute", "offset")
        _choice(self.mode, OFFSET_MODES, "The offset rule", "offset_mode")
        _choice(self.cap, OFFSET_CAPS, "The offset cap", "offset_cap")
        _choice(self.negative, NEGATIVE_OFFSETS, "The rule for a negative attribute", "negative_offset")

    def penalty(self, prior_actions: int) -> int:
        """The multiple action penalty after this offset, `prior_actions` (checked, >= 0) before."""
        if prior_actions == 0:
            return 0  # the first action has no penalty, so nothing to offset
        offset = 0 if self.value < 0 and self.negative == "ignore" else self.value
        if self.mode == "once":
            penalty = MULTIPLE_ACTION_STEP * prior_actions + offset
            return min(penalty, 0) if self.cap == "penalty" else penalty
        step = MULTIPLE_ACTION_STEP + offset
        if self.cap == "penalty":
            step = min(step, 0)
        return step * prior_actions


def as_offset(offset: Offset | int = 0) -> Offset:
    """The Offset a public function's `offset` stands for: an Offset as it is, a number as that attribute with the
    default rulings."""
    return offset if isinstance(offset, Offset) else Offset(offset)


# ---------------------------------------------------------------- the table


def band_for(total: int) -> Band:
    """The Action Table row a modified total falls in (tal.action.table)."""
    total = whole(total, "The modified total", "total")
    for band in ACTION_TABLE:
        if band.contains(total):
            return band
    raise RuntimeError(f"The Action Table has no band for {total}.")  # pragma: no cover - the bands cover every number


def outcome_for(total: int) -> str:
    """The result word ("mishap" ... "critical") for a modified total."""
    return band_for(total).outcome


def multiple_action_penalty(
    prior_actions: int,
    offset: Offset | int = 0,
) -> int:
    """The multiple action penalty after the attribute's offset (<= 0 by default).

    tal.multiple.penalty: -5 for each action already taken this round.
    tal.multiple.offset: a Primary Attribute offsets it (SPD +2: -5 -> -3);
    its three rulings are those of `Offset`.
    """
    prior_actions = _prior(prior_actions)
    return as_offset(offset).penalty(prior_actions)


def _modifier(rating: object, difficulty: object, opposing_rating: object, penalty: int) -> int:
    rating = whole(rating, "The rating", "rating")
    difficulty = whole(difficulty, "The Degree of Difficulty", "difficulty")
    opposed = 0 if opposing_rating is None else whole(opposing_rating, "The opponent's rating", "opposing_rating")
    return rating + difficulty - opposed + penalty


def action_modifier(
    rating: int,
    *,
    difficulty: int = 0,
    opposing_rating: int | None = None,
    prior_actions: int = 0,
    offset: Offset | int = 0,
) -> int:
    """Everything added to the d20: rating + difficulty - opposing rating + penalty.

    The Degree of Difficulty is signed and added (tal.ruling.difficulty-sign);
    an opponent's rating is subtracted (tal.opposed.difference); both may
    apply together (tal.ruling.opposed-difficulty).
    """
    rating = whole(rating, "The rating", "rating")
    difficulty = whole(difficulty, "The Degree of Difficulty", "difficulty")
    opposed = None if opposing_rating is None else whole(opposing_rating, "The opponent's rating", "opposing_rating")
    penalty = multiple_action_penalty(prior_actions, as_offset(offset))
    return _modifier(rating, difficulty, opposed, penalty)


@dataclass(frozen=True)
class ActionResult:
    """One roll on the Action Table."""

    rating: int
    d20: int
    difficulty: int
    opposing_rating: int | None
    prior_actions: int
    penalty: int  # the multiple action penalty after any offset
    modifier: int  # everything added to the d20
    total: int
    outcome: str  # "mishap", "failure", "partial", "full" or "critical"

    @property
    def title(self) -> str:
        return BY_OUTCOME[self.outcome].title

    @property
    def band(self) -> Band:
        return BY_OUTCOME[self.outcome]


def _resolve(rating: int, d20: int, difficulty: int, opposing_rating: int | None, prior_actions: int,
             offset: Offset) -> ActionResult:
    penalty = offset.penalty(prior_actions)
    modifier = _modifier(rating, difficulty, opposing_rating, penalty)
    total = d20 + modifier
    return ActionResult(rating, d20, difficulty, opposing_rating, prior_actions, penalty, modifier, total,
                        outcome_for(total))


def resolve_action(
    rating: int,
    d20: int,
    *,
    difficulty: int = 0,
    opposing_rating: int | None = None,
    prior_actions: int = 0,
    offset: Offset | int = 0,
) -> ActionResult:
    """One action on the Action Table (tal.action.procedure).

    Sherra's Stealth 9 against the watchman's Guard 7 rolls at +2:

    >>> r = resolve_action(9, 10, opposing_rating=7)
    >>> r.modifier, r.total, r.outcome
    (2, 12, 'full')
    """
    d20 = die(d20, 20, "d20", what="The d20")
    prior_actions = _prior(prior_actions)
    rule = as_offset(offset)
    return _resolve(rating, d20, difficulty, opposing_rating, prior_actions, rule)


def _outcome_die(modifier: int) -> icepool.Die:
    return (icepool.d20 + modifier).map(outcome_for)


def action_odds(modifier: int) -> dict[str, Fraction]:
    """Exact chance of each result at a modifier, in table order, zeros included."""
    modifier = whole(modifier, "The modifier", "modifier")
    dist = _outcome_die(modifier)
    return {outcome: Fraction(dist.probability(outcome)) for outcome in OUTCOMES}


def success_chance(modifier: int, at_least: str = "partial") -> Fraction:
    """Chance of `at_least` or better ("partial" by default)."""
    one_of(at_least, OUTCOMES, "at_least", f"The result must be one of {', '.join(OUTCOMES)}")
    odds = action_odds(modifier)
    return sum((odds[o] for o in OUTCOMES[OUTCOMES.index(at_least) :]), Fraction(0))


# ---------------------------------------------------------------- multiple actions


def check_ratings(actions: int, rating: int | None, ratings: Sequence[int] | None) -> tuple[int, ...]:
    """The rating of each action: `ratings`, one per action, or `rating` for all of them."""
    actions = whole(actions, "The number of actions", "actions")
    if actions < 1:
        raise InputError(f"A round has at least one action; got {actions}.", "actions")
    if ratings is not None:
        if isinstance(ratings, (str, bytes)) or not isinstance(ratings, Sequence):
            raise InputError("Give the ratings as whole numbers, one per action.", "ratings")
        values = tuple(whole(r, "Each rating", "ratings") for r in ratings)
        if len(values) != actions:
            raise InputError(f"Give one rating per action: {actions} action{'s' if actions != 1 else ''}, {len(values)} rating{'s' if len(values) != 1 else ''}.", "ratings")
        return values
    if rating is None:
        raise InputError("Give the rating used for the actions.", "rating")
    return (whole(rating, "The rating", "rating"),) * actions


def _sequence_modifiers(ratings: Sequence[int], difficulty: int, offset: Offset) -> tuple[int, ...]:
    return tuple(_modifier(r, difficulty, None, offset.penalty(i)) for i, r in enumerate(ratings))


def sequence_modifiers(
    ratings: Sequence[int],
    *,
    difficulty: int = 0,
    offset: Offset | int = 0,
) -> tuple[int, ...]:
    """The modifier of each action of a round, the i-th with i actions before it."""
    return _sequence_modifiers(ratings, difficulty, as_offset(offset))


def _no_mishap(modifier: int) -> Fraction:
    return Fraction(_outcome_die(modifier).probability("!=", "mishap"))


def sequence_odds(modifiers: Sequence[int]) -> dict[str, Fraction]:
    """How a round of actions at these modifiers ends (tal.ruling.mishap-ends-sequence).

    "clear": no roll is a Mishap; "mishap-k": the k-th roll is the first
    Mishap, and the sequence stops there. The values sum to 1.
    """
    modifiers = tuple(whole(m, "Each modifier", "modifiers") for m in modifiers)
    if not modifiers:
        raise InputError("A round has at least one action.", "actions")
    odds: dict[str, Fraction] = {}
    reached = Fraction(1)
    for k, m in enumerate(modifiers, start=1):
        safe = _no_mishap(m)
        odds[f"mishap-{k}"] = reached * (1 - safe)
        reached *= safe
    return {"clear": reached, **odds}


def clear_chance(modifiers: Sequence[int]) -> Fraction:
    """Exact chance that none of the rolls is a Mishap, so every action is taken."""
    return sequence_odds(modifiers)["clear"]


@dataclass(frozen=True)
class SequenceResult:
    """A round of Multiple Actions: the odds, and the rolls if dice were given."""

    ratings: tuple[int, ...]
    penalties: tuple[int, ...]
    modifiers: tuple[int, ...]
    odds: tuple[tuple[tuple[str, Fraction], ...], ...]  # per action: (outcome, chance) in table order
    reach: tuple[Fraction, ...]  # chance each action is rolled at all
    clear_chance: Fraction
    ending_odds: tuple[tuple[str, Fraction], ...]  # ("clear", p), ("mishap-1", p), ...
    actions: tuple[ActionResult, ...] = ()  # the rolls made, up to the first Mishap
    unused_dice: tuple[int, ...] = ()  # dice given after a Mishap ended the round
    outcome: str | None = None  # "clear" or "mishap" when dice were given

    @property
    def ending(self) -> str | None:
        """The key of ending_odds this roll falls under."""
        if self.outcome is None:
            return None
        return "clear" if self.outcome == "clear" else f"mishap-{len(self.actions)}"


def multiple_actions(
    actions: int,
    rating: int | None = None,
    d20s: Sequence[int] | None = None,
    *,
    ratings: Sequence[int] | None = None,
    difficulty: int = 0,
    offset: Offset | int = 0,
) -> SequenceResult:
    """`actions` actions in one round at `rating` (or one of `ratings` each).

    Gives each action's modifier and result odds and the chance of taking
    them all without a Mishap. With `d20s` (one die per action, in order),
    resolves the round action by action and stops at the first Mishap
    (tal.multiple.mishap); dice after it are returned as unused.
    """
    values = check_ratings(actions, rating, ratings)
    difficulty = whole(difficulty, "The Degree of Difficulty", "difficulty")
    rule = as_offset(offset)
    mods = _sequence_modifiers(values, difficulty, rule)
    penalties = tuple(rule.penalty(i) for i in range(len(values)))
    per_action = tuple(tuple(action_odds(m).items()) for m in mods)
    ending = sequence_odds(mods)
    reach = []
    reached = Fraction(1)
    for odds in per_action:
        reach.append(reached)
        reached *= 1 - dict(odds)["mishap"]
    result: dict[str, Any] = dict(
        ratings=values,
        penalties=penalties,
        modifiers=mods,
        odds=per_action,
        reach=tuple(reach),
        clear_chance=ending["clear"],
        ending_odds=tuple(ending.items()),
    )
    if d20s is None:
        return SequenceResult(**result)
    if isinstance(d20s, (str, bytes)) or not isinstance(d20s, Sequence):
        raise InputError("Give the d20s as whole numbers, one per action.", "d20s")
    dice = tuple(die(d, 20, "d20s", what="The d20") for d in d20s)
    if len(dice) > len(values):
        raise InputError(f"The round has {len(values)} action{'s' if len(values) != 1 else ''}, so at most {len(values)} d20s; got {len(dice)}.", "d20s")
    rolled: list[ActionResult] = []
    for i, (r, d20) in enumerate(zip(values, dice)):
        rolled.append(_resolve(r, d20, difficulty, None, i, rule))
        if rolled[-1].outcome == "mishap":  # tal.ruling.mishap-ends-sequence
            return SequenceResult(**result, actions=tuple(rolled), unused_dice=dice[i + 1 :], outcome="mishap")
    if len(rolled) < len(values):
        raise InputError(
            f"Action {len(rolled) + 1} of {len(values)} needs a d20: give one die per action, up to the Mishap that ends the round.",
            "d20s",
        )
    return SequenceResult(**result, actions=tuple(rolled), outcome="clear")
