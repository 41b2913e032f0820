"""Talislanta 5th edition: the Action Table and Multiple Actions.

Every action is one d20 plus a modifier (rating, Degree of Difficulty, an
opponent's rating, the multiple action penalty), read on the Action Table
(docs/talislanta/action-table.md). The rulings these functions follow are
named beside the code that applies them and exposed as settings where a
table might choose otherwise.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Mapping, Sequence

import icepool

from .dice import dice_or_roll, parse_dice
from .registry import Calculator, InputError, Param, Report, parse_numbers

__all__ = [
    "ACTION_TABLE",
    "Band",
    "OUTCOMES",
    "MULTIPLE_ACTION_STEP",
    "OFFSET_MODES",
    "OFFSET_CAPS",
    "NEGATIVE_OFFSETS",
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
    "CALCULATORS",
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
_BY_OUTCOME = {b.outcome: b for b in ACTION_TABLE}

# tal.multiple.penalty: -5 for each action already taken this round.
MULTIPLE_ACTION_STEP = -5

# Settings for the rulings on the offset (tal.multiple.offset).
OFFSET_MODES = (
    ("once", "Once per roll (ruling)"),
    ("each", "Against each -5 step"),
)  # tal.ruling.offset-later-actions
OFFSET_CAPS = (
    ("penalty", "At most cancels the penalty, never a bonus"),
    ("none", "May turn the penalty into a bonus"),
)  # tal.ruling.offset-cap
NEGATIVE_OFFSETS = (
    ("ignore", "A negative attribute offsets nothing"),
    ("worsen", "A negative attribute adds to the penalty"),
)  # tal.ruling.offset-negative

# ---------------------------------------------------------------- checks


def _whole(value: object, what: str, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f"{what} must be a whole number; got {str(value)[:40]!r}.", field)
    return value


def _d20(value: object, field: str = "d20") -> int:
    value = _whole(value, "The d20", field)
    if not 1 <= value <= 20:
        raise InputError(f"A d20 shows 1 to 20; got {value}.", field)
    return value


def _choice(value: object, options: tuple[tuple[str, str], ...], what: str, field: str) -> str:
    allowed = [v for v, _ in options]
    if value not in allowed:
        raise InputError(f"{what} must be {' or '.join(repr(v) for v in allowed)}; got {str(value)[:40]!r}.", field)
    return value  # type: ignore[return-value]


# ---------------------------------------------------------------- the table


def band_for(total: int) -> Band:
    """The Action Table row a modified total falls in (tal.action.table)."""
    total = _whole(total, "The modified total", "total")
    for band in ACTION_TABLE:
        if band.contains(total):
            return band
    raise RuntimeError(f"The Action Table has no band for {total}.")  # pragma: no cover - the bands cover every number


def outcome_for(total: int) -> str:
    """The result word ("mishap" ... "critical") for a modified total."""
    return band_for(total).outcome


def multiple_action_penalty(
    prior_actions: int,
    offset: int = 0,
    *,
    offset_mode: str = "once",
    offset_cap: str = "penalty",
    negative_offset: str = "ignore",
) -> int:
    """The multiple action penalty after the attribute's offset (<= 0 by default).

    tal.multiple.penalty: -5 for each action already taken this round.
    tal.multiple.offset: a Primary Attribute offsets it (SPD +2: -5 -> -3).
    offset_mode (tal.ruling.offset-later-actions): "once" subtracts the
    offset from the roll's whole penalty (-10 -> -8), "each" from every -5
    step (-10 -> -6). offset_cap (tal.ruling.offset-cap): "penalty" stops at
    0, "none" lets it become a bonus. negative_offset
    (tal.ruling.offset-negative): "ignore" or "worsen".
    """
    prior_actions = _whole(prior_actions, "The number of actions already taken this round", "prior_actions")
    if prior_actions < 0:
        raise InputError(f"The number of actions already taken this round can't be negative; got {prior_actions}.", "prior_actions")
    offset = _whole(offset, "The offsetting attribute", "offset")
    _choice(offset_mode, OFFSET_MODES, "The offset rule", "offset_mode")
    _choice(offset_cap, OFFSET_CAPS, "The offset cap", "offset_cap")
    _choice(negative_offset, NEGATIVE_OFFSETS, "The rule for a negative attribute", "negative_offset")
    if prior_actions == 0:
        return 0  # the first action has no penalty, so nothing to offset
    if offset < 0 and negative_offset == "ignore":
        offset = 0
    if offset_mode == "once":
        penalty = MULTIPLE_ACTION_STEP * prior_actions + offset
        return min(penalty, 0) if offset_cap == "penalty" else penalty
    step = MULTIPLE_ACTION_STEP + offset
    if offset_cap == "penalty":
        step = min(step, 0)
    return step * prior_actions


def action_modifier(
    rating: int,
    *,
    difficulty: int = 0,
    opposing_rating: int | None = None,
    prior_actions: int = 0,
    offset: int = 0,
    offset_mode: str = "once",
    offset_cap: str = "penalty",
    negative_offset: str = "ignore",
) -> int:
    """Everything added to the d20: rating + difficulty - opposing rating + penalty.

    The Degree of Difficulty is signed and added (tal.ruling.difficulty-sign);
    an opponent's rating is subtracted (tal.opposed.difference); both may
    apply together (tal.ruling.opposed-difficulty).
    """
    rating = _whole(rating, "The rating", "rating")
    difficulty = _whole(difficulty, "The Degree of Difficulty", "difficulty")
    opposed = 0 if opposing_rating is None else _whole(opposing_rating, "The opponent's rating", "opposing_rating")
    penalty = multiple_action_penalty(
        prior_actions, offset, offset_mode=offset_mode, offset_cap=offset_cap, negative_offset=negative_offset
    )
    return rating + difficulty - opposed + penalty


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
        return _BY_OUTCOME[self.outcome].title

    @property
    def band(self) -> Band:
        return _BY_OUTCOME[self.outcome]


def resolve_action(
    rating: int,
    d20: int,
    *,
    difficulty: int = 0,
    opposing_rating: int | None = None,
    prior_actions: int = 0,
    offset: int = 0,
    offset_mode: str = "once",
    offset_cap: str = "penalty",
    negative_offset: str = "ignore",
) -> ActionResult:
    """One action on the Action Table (tal.action.procedure).

    Sherra's Stealth 9 against the watchman's Guard 7 rolls at +2:

    >>> r = resolve_action(9, 10, opposing_rating=7)
    >>> r.modifier, r.total, r.outcome
    (2, 12, 'full')
    """
    d20 = _d20(d20)
    penalty = multiple_action_penalty(
        prior_actions, offset, offset_mode=offset_mode, offset_cap=offset_cap, negative_offset=negative_offset
    )
    modifier = action_modifier(
        rating,
        difficulty=difficulty,
        opposing_rating=opposing_rating,
        prior_actions=prior_actions,
        offset=offset,
        offset_mode=offset_mode,
        offset_cap=offset_cap,
        negative_offset=negative_offset,
    )
    total = d20 + modifier
    return ActionResult(rating, d20, difficulty, opposing_rating, prior_actions, penalty, modifier, total, outcome_for(total))


def _outcome_die(modifier: int) -> icepool.Die:
    return (icepool.d20 + modifier).map(outcome_for)


def action_odds(modifier: int) -> dict[str, Fraction]:
    """Exact chance of each result at a modifier, in table order, zeros included."""
    modifier = _whole(modifier, "The modifier", "modifier")
    die = _outcome_die(modifier)
    return {outcome: Fraction(die.probability(outcome)) for outcome in OUTCOMES}


def success_chance(modifier: int, at_least: str = "partial") -> Fraction:
    """Chance of `at_least` or better ("partial" by default)."""
    if at_least not in OUTCOMES:
        raise InputError(f"The result must be one of {', '.join(OUTCOMES)}; got {str(at_least)[:40]!r}.", "at_least")
    odds = action_odds(modifier)
    return sum((odds[o] for o in OUTCOMES[OUTCOMES.index(at_least) :]), Fraction(0))


# ---------------------------------------------------------------- multiple actions


def _ratings(actions: int, rating: int | None, ratings: Sequence[int] | None) -> tuple[int, ...]:
    actions = _whole(actions, "The number of actions", "actions")
    if actions < 1:
        raise InputError(f"A round has at least one action; got {actions}.", "actions")
    if ratings is not None:
        if isinstance(ratings, (str, bytes)) or not isinstance(ratings, Sequence):
            raise InputError("Give the ratings as whole numbers, one per action.", "ratings")
        values = tuple(_whole(r, "Each rating", "ratings") for r in ratings)
        if len(values) != actions:
            raise InputError(f"Give one rating per action: {actions} action{'s' if actions != 1 else ''}, {len(values)} rating{'s' if len(values) != 1 else ''}.", "ratings")
        return values
    if rating is None:
        raise InputError("Give the rating used for the actions.", "rating")
    return (_whole(rating, "The rating", "rating"),) * actions


def sequence_modifiers(
    ratings: Sequence[int],
    *,
    difficulty: int = 0,
    offset: int = 0,
    offset_mode: str = "once",
    offset_cap: str = "penalty",
    negative_offset: str = "ignore",
) -> tuple[int, ...]:
    """The modifier of each action of a round, the i-th with i actions before it."""
    return tuple(
        action_modifier(
            r,
            difficulty=difficulty,
            prior_actions=i,
            offset=offset,
            offset_mode=offset_mode,
            offset_cap=offset_cap,
            negative_offset=negative_offset,
        )
        for i, r in enumerate(ratings)
    )


def _no_mishap(modifier: int) -> Fraction:
    return Fraction(_outcome_die(modifier).probability("!=", "mishap"))


def sequence_odds(modifiers: Sequence[int]) -> dict[str, Fraction]:
    """How a round of actions at these modifiers ends (tal.ruling.mishap-ends-sequence).

    "clear": no roll is a Mishap; "mishap-k": the k-th roll is the first
    Mishap, and the sequence stops there. The values sum to 1.
    """
    modifiers = tuple(_whole(m, "Each modifier", "modifiers") for m in modifiers)
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
    offset: int = 0,
    offset_mode: str = "once",
    offset_cap: str = "penalty",
    negative_offset: str = "ignore",
) -> SequenceResult:
    """`actions` actions in one round at `rating` (or one of `ratings` each).

    Gives each action's modifier and result odds and the chance of taking
    them all without a Mishap. With `d20s` (one die per action, in order),
    resolves the round action by action and stops at the first Mishap
    (tal.multiple.mishap); dice after it are returned as unused.
    """
    values = _ratings(actions, rating, ratings)
    mods = sequence_modifiers(
        values, difficulty=difficulty, offset=offset, offset_mode=offset_mode, offset_cap=offset_cap, negative_offset=negative_offset
    )
    penalties = tuple(
        multiple_action_penalty(i, offset, offset_mode=offset_mode, offset_cap=offset_cap, negative_offset=negative_offset)
        for i in range(len(values))
    )
    per_action = tuple(tuple(action_odds(m).items()) for m in mods)
    ending = sequence_odds(mods)
    reach = []
    reached = Fraction(1)
    for odds in per_action:
        reach.append(reached)
        reached *= 1 - dict(odds)["mishap"]
    result = dict(
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
    dice = tuple(_d20(d, "d20s") for d in d20s)
    if len(dice) > len(values):
        raise InputError(f"The round has {len(values)} action{'s' if len(values) != 1 else ''}, so at most {len(values)} d20s; got {len(dice)}.", "d20s")
    rolled: list[ActionResult] = []
    for i, (r, die) in enumerate(zip(values, dice)):
        rolled.append(
            resolve_action(
                r,
                die,
                difficulty=difficulty,
                prior_actions=i,
                offset=offset,
                offset_mode=offset_mode,
                offset_cap=offset_cap,
                negative_offset=negative_offset,
            )
        )
        if rolled[-1].outcome == "mishap":  # tal.ruling.mishap-ends-sequence
            return SequenceResult(**result, actions=tuple(rolled), unused_dice=dice[i + 1 :], outcome="mishap")
    if len(rolled) < len(values):
        raise InputError(
            f"Action {len(rolled) + 1} of {len(values)} needs a d20: give one die per action, up to the Mishap that ends the round.",
            "d20s",
        )
    return SequenceResult(**result, actions=tuple(rolled), outcome="clear")


# ---------------------------------------------------------------- registry adapters


def _signed(n: int) -> str:
    return f"{n:+d}"


def _pct(p: Fraction) -> str:
    return f"{float(p * 100):.1f}%"


def _offset_rules(prior_actions: int, offset: int, offset_mode: str, offset_cap: str, negative_offset: str) -> list[str]:
    """The offset rulings that decided a penalty, if any."""
    if prior_actions == 0 or offset == 0:
        return []
    rules = ["tal.multiple.offset"]
    if offset < 0:
        rules.append("tal.ruling.offset-negative")
        if negative_offset == "ignore":
            return rules
    if prior_actions >= 2:
        rules.append("tal.ruling.offset-later-actions")
    raw_once = MULTIPLE_ACTION_STEP * prior_actions + offset
    raw_each = MULTIPLE_ACTION_STEP + offset
    if (offset_mode == "once" and raw_once > 0) or (offset_mode == "each" and raw_each > 0):
        rules.append("tal.ruling.offset-cap")
    return rules


def _settings_text(offset_mode: str, offset_cap: str, negative_offset: str) -> str:
    return (
        f"settings: offset {offset_mode} (tal.ruling.offset-later-actions), cap {offset_cap} "
        f"(tal.ruling.offset-cap), negative attribute {negative_offset} (tal.ruling.offset-negative)"
    )


def _odds_rows(modifier: int) -> tuple[tuple[str, Fraction], ...]:
    return tuple((_BY_OUTCOME[o].title, p) for o, p in action_odds(modifier).items())


def _resolve_action_report(
    rng: random.Random | None,
    *,
    rating: int,
    d20: object = None,
    difficulty: int = 0,
    opposing_rating: int | None = None,
    prior_actions: int = 0,
    offset: int = 0,
    offset_mode: str = "once",
    offset_cap: str = "penalty",
    negative_offset: str = "ignore",
) -> Report:
    (die,) = dice_or_roll(d20, rng, count=1, sides=20, label="The d20", field="d20")
    r = resolve_action(
        rating,
        die,
        difficulty=difficulty,
        opposing_rating=opposing_rating,
        prior_actions=prior_actions,
        offset=offset,
        offset_mode=offset_mode,
        offset_cap=offset_cap,
        negative_offset=negative_offset,
    )
    rules = ["tal.action.procedure"]
    details = [f"Rating {rating}."]
    if opposing_rating is not None:
        rules.append("tal.opposed.difference")
        details.append(f"Opposed action: the opponent's rating {opposing_rating} is the Degree of Difficulty and is subtracted: {_signed(rating - opposing_rating)}.")
    if difficulty != 0:
        rules.append("tal.ruling.opposed-difficulty" if opposing_rating is not None else "tal.ruling.difficulty-sign")
        details.append(f"Degree of Difficulty {_signed(difficulty)} is added ({'a bonus for an easy action' if difficulty > 0 else 'a penalty for a hard action'}).")
    if prior_actions:
        rules.append("tal.multiple.penalty")
        raw = MULTIPLE_ACTION_STEP * prior_actions
        line = f"{prior_actions} action{'s' if prior_actions != 1 else ''} already taken this round: {raw}"
        offset_rules = _offset_rules(prior_actions, offset, offset_mode, offset_cap, negative_offset)
        if offset_rules:
            line += f", offset by the attribute {_signed(offset)} to {_signed(r.penalty)} ({_settings_text(offset_mode, offset_cap, negative_offset)})"
        details.append(line + ".")
        rules += offset_rules
    elif offset:
        details.append("First action of the round: no multiple action penalty, so the attribute has nothing to offset.")
    details.append(f"Modifier {_signed(r.modifier)}: d20 {die} {'+' if r.modifier >= 0 else '-'} {abs(r.modifier)} = {r.total}.")
    details.append(f"A total of {r.total} falls in the band {r.band.range_text} of the Action Table: {r.title}.")
    rules += ["tal.action.table", r.band.rule]
    meaning = {
        "mishap": "the action fails badly and may have further bad consequences; the GM decides them",
        "failure": "the action does not achieve what was intended",
        "partial": "the action achieves part of the intended effect",
        "full": "the action achieves what was intended",
        "critical": "the action achieves the Intent with extra benefits; the GM decides them",
    }[r.outcome]
    return Report(
        outcome=r.outcome,
        headline=f"{r.title} with a total of {r.total}: {meaning}.",
        details=tuple(details),
        rules=tuple(dict.fromkeys(rules)),
        odds=_odds_rows(r.modifier),
        odds_title=f"Chance of each result at {_signed(r.modifier)}",
        highlight=r.title,
        dice={"d20": str(die)},
    )


def _parse_d20s(raw: object, rng: random.Random | None, actions: int) -> tuple[int, ...]:
    """Typed d20s (one per action, up to the Mishap), or `actions` rolled ones."""
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return dice_or_roll(None, rng, count=actions, sides=20, label="The d20s", field="d20s")
    if isinstance(raw, (tuple, list)):
        count = len(raw)
    else:
        count = len([p for p in re.split(r"[\s,;/+.]+", str(raw).strip()) if p])
    if not 1 <= count <= actions:
        count = actions  # parse_dice then says how many dice the roll uses
    return parse_dice(raw, count=count, sides=20, label="The d20s", field="d20s")


def _parse_ratings(raw: object) -> tuple[int, ...] | None:
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return None
    if isinstance(raw, (tuple, list)):
        return tuple(raw)
    # ASCII digits and the same range as the single Rating field, checked on the text: a huge number is never converted
    return parse_numbers(raw, label="Ratings", field="ratings", minimum=_RATING_MIN, maximum=_RATING_MAX,
                         most=RATINGS_MAX_ITEMS, example="whole numbers, one per action, such as '6 6 4'")


def _multiple_actions_report(
    rng: random.Random | None,
    *,
    actions: int,
    rating: int | None = None,
    ratings: object = None,
    d20s: object = None,
    difficulty: int = 0,
    offset: int = 0,
    offset_mode: str = "once",
    offset_cap: str = "penalty",
    negative_offset: str = "ignore",
) -> Report:
    listed = _parse_ratings(ratings)
    if listed is None and rating is None:
        raise InputError("Rating: give the rating used for the actions (or one rating per action).", "rating")
    # check the ratings before rolling, so bad input never consumes dice
    _ratings(actions, rating, listed)
    dice = _parse_d20s(d20s, rng, actions)
    seq = multiple_actions(
        actions,
        rating,
        dice,
        ratings=listed,
        difficulty=difficulty,
        offset=offset,
        offset_mode=offset_mode,
        offset_cap=offset_cap,
        negative_offset=negative_offset,
    )
    rules = ["tal.multiple.penalty", "tal.multiple.mishap", "tal.ruling.mishap-ends-sequence", "tal.action.table"]
    if difficulty != 0:
        rules.append("tal.ruling.difficulty-sign")
    details = []
    if offset:
        details.append(_settings_text(offset_mode, offset_cap, negative_offset).capitalize() + ".")
    for i, (r, pen, mod, odds) in enumerate(zip(seq.ratings, seq.penalties, seq.modifiers, seq.odds)):
        rules += _offset_rules(i, offset, offset_mode, offset_cap, negative_offset)
        chances = ", ".join(f"{_BY_OUTCOME[o].title} {p}" for o, p in odds)
        head = f"Action {i + 1}: rating {r}"
        if difficulty:
            head += f", difficulty {_signed(difficulty)}"
        head += f", multiple action penalty {_signed(pen)}: modifier {_signed(mod)}"
        if i < len(seq.actions):
            a = seq.actions[i]
            head += f"; d20 {a.d20} makes {a.total}, {a.title}"
            rules.append(a.band.rule)
        elif seq.outcome == "mishap":
            head += "; not taken, the Mishap ended the round"
        details.append(f"{head}. Odds: {chances}.")
    typed = not (d20s is None or (isinstance(d20s, str) and not d20s.strip()))
    if seq.unused_dice and typed:  # rolled dice after the Mishap were never needed
        details.append(f"Dice not used, the round ended at the Mishap: {' '.join(map(str, seq.unused_dice))}.")
    n = len(seq.ratings)
    details.append(f"Chance of taking all {n} action{'s' if n != 1 else ''} without a Mishap: {seq.clear_chance} ({_pct(seq.clear_chance)}).")
    labels = {"clear": f"All {n} action{'s' if n != 1 else ''} taken, no Mishap"}
    labels.update({f"mishap-{k}": f"Mishap on action {k}, round over" for k in range(1, n + 1)})
    if seq.outcome == "clear":
        headline = f"All {n} action{'s' if n != 1 else ''} taken without a Mishap."
    else:
        k = len(seq.actions)
        left = n - k
        headline = f"A Mishap on action {k} ends the round" + (f"; {left} action{'s' if left != 1 else ''} not taken." if left else ".")
    return Report(
        outcome=seq.outcome or "clear",
        headline=headline,
        details=tuple(details),
        rules=tuple(dict.fromkeys(rules)),
        odds=tuple((labels[key], p) for key, p in seq.ending_odds),
        odds_title=f"How a round of {n} action{'s' if n != 1 else ''} ends",
        highlight=labels[seq.ending] if seq.ending else None,
        dice={"d20s": " ".join(str(a.d20) for a in seq.actions)},
    )


_RATING_MIN, _RATING_MAX = -20, 40  # the range of every rating field
RATINGS_MAX_LENGTH = 200  # characters of the per-action ratings: ten actions need some 40
RATINGS_MAX_ITEMS = 50

_OFFSET_PARAMS = (
    Param("offset", "Offsetting attribute", default=0, minimum=-10, maximum=20, help="The Primary Attribute the GM lets offset the multiple action penalty, e.g. SPD +2 for several attacks."),
    Param("offset_mode", "Offset on later actions", kind="choice", default="once", choices=OFFSET_MODES, help="Ruling tal.ruling.offset-later-actions: with SPD +2 a third action's -10 is -8 once per roll, or -6 against each -5 step.", ruling="tal.ruling.offset-later-actions"),
    Param("offset_cap", "Offset larger than the penalty", kind="choice", default="penalty", choices=OFFSET_CAPS, help="Ruling tal.ruling.offset-cap.", ruling="tal.ruling.offset-cap"),
    Param("negative_offset", "Negative attribute", kind="choice", default="ignore", choices=NEGATIVE_OFFSETS, help="Ruling tal.ruling.offset-negative.", ruling="tal.ruling.offset-negative"),
)
_OFFSET_RULES = ("tal.multiple.offset", "tal.ruling.offset-later-actions", "tal.ruling.offset-cap", "tal.ruling.offset-negative")
_BAND_RULES = tuple(b.rule for b in ACTION_TABLE)

CALCULATORS = (
    Calculator(
        name="talislanta.resolve_action",
        title="Action Table roll",
        summary="One action: d20 plus rating, Degree of Difficulty, an opponent's rating and the multiple action penalty, read on the Action Table.",
        params=(
            Param("rating", "Skill or Attribute Rating", minimum=_RATING_MIN, maximum=_RATING_MAX, help="The character's rating for this action."),
            Param("d20", "d20", kind="dice", help="The d20 rolled."),
            Param("difficulty", "Degree of Difficulty", default=0, minimum=-30, maximum=30, help="As the GM announces it: +3 for an easy task, -5 for a hard one (usually +10 to -10)."),
            Param("opposing_rating", "Opponent's rating", optional=True, minimum=_RATING_MIN, maximum=_RATING_MAX, help="For an opposed action: the opponent's Skill or Attribute Rating, subtracted."),
            Param("prior_actions", "Actions already taken this round", default=0, minimum=0, maximum=10, help="Each costs -5 (Multiple Actions)."),
            *_OFFSET_PARAMS,
        ),
        adapter=_resolve_action_report,
        rules=(
            "tal.action.procedure",
            "tal.action.table",
            *_BAND_RULES,
            "tal.ruling.difficulty-sign",
            "tal.opposed.difference",
            "tal.ruling.opposed-difficulty",
            "tal.multiple.penalty",
            *_OFFSET_RULES,
        ),
        outcomes=OUTCOMES,
        examples=(
            # Thena against a hard target (difficulty -4) rolls a 1: a Mishap (tal.ruling.mishap-ends-sequence).
            {"rating": "3", "d20": "1", "difficulty": "-4"},
            # Thena's third action of the round, at -10 (tal.multiple.example).
            {"rating": "3", "d20": "12", "prior_actions": "2"},
            # Thena's punch, her second action, at -5 (tal.multiple.example).
            {"rating": "3", "d20": "12", "prior_actions": "1"},
            # Sherra's Stealth 9 against the sharper watchman's Guard 11 (tal.opposed.example).
            {"rating": "9", "d20": "10", "opposing_rating": "11"},
            # Sherra's Stealth 9 against the watchman's Guard 7 (tal.opposed.example).
            {"rating": "9", "d20": "10", "opposing_rating": "7"},
            # The punch again, her SPD +2 offsetting the penalty to -3 (tal.multiple.offset).
            {"rating": "3", "d20": "12", "prior_actions": "1", "offset": "2"},
            # Rating 5 and a 17: 22, a Critical Success (the table's examples of each band).
            {"rating": "5", "d20": "17"},
            # An easy task (+3) for rating 4, the d20 left for the page to roll.
            {"rating": "4", "difficulty": "3", "seed": "20240"},
        ),
    ),
    Calculator(
        name="talislanta.multiple_actions",
        title="Multiple actions in a round",
        summary="Several actions in one round at -5 each: every action's modifier and odds, the chance of getting through them all without a Mishap, and the round resolved action by action.",
        params=(
            Param("actions", "Actions this round", default=2, minimum=1, maximum=10),
            Param("rating", "Rating", optional=True, minimum=_RATING_MIN, maximum=_RATING_MAX, help="The rating used for every action."),
            Param("ratings", "Ratings, one per action", kind="text", optional=True, max_length=RATINGS_MAX_LENGTH,
                  help=f"Instead of one rating: a rating per action, e.g. '6 6 4'; up to {RATINGS_MAX_LENGTH} characters."),
            Param("d20s", "d20s, one per action", kind="dice", help="One d20 per action in order; after a Mishap no more are needed."),
            Param("difficulty", "Degree of Difficulty", default=0, minimum=-30, maximum=30, help="Added to every action, as the GM announces it."),
            *_OFFSET_PARAMS,
        ),
        adapter=_multiple_actions_report,
        rules=(
            "tal.multiple.penalty",
            "tal.multiple.mishap",
            "tal.ruling.mishap-ends-sequence",
            "tal.action.table",
            *_BAND_RULES,
            "tal.ruling.difficulty-sign",
            *_OFFSET_RULES,
        ),
        outcomes=("clear", "mishap"),
        examples=(
            # Thena's mug and punch against a hard target: a 1 on the mug ends the round (tal.multiple.mishap).
            {"actions": "2", "rating": "3", "d20s": "1", "difficulty": "-4"},
            # The same, rolling 9 and 16: both actions taken, two Partial Successes.
            {"actions": "2", "rating": "3", "d20s": "9 16", "difficulty": "-4"},
            # The punch at -6 is a Mishap on 1 to 6: a 4 ends the round on the second action.
            {"actions": "2", "rating": "3", "d20s": "9 4", "difficulty": "-4"},
            # Mug and punch with her SPD +2 offsetting the -5 (tal.multiple.offset).
            {"actions": "2", "rating": "3", "d20s": "9 12", "offset": "2"},
            # Three attacks, SPD +2 offsetting each -5 step (tal.ruling.offset-later-actions).
            {"actions": "3", "rating": "3", "d20s": "9 12 15", "offset": "2", "offset_mode": "each"},
            # A rating per action, the dice left for the page to roll.
            {"actions": "3", "ratings": "6 6 4", "seed": "7"},
        ),
    ),
)
