"""Talislanta for players: a form's values in, a `Report` out.

Each adapter reads the form's fields (typed or rolled dice, a list of
ratings), calls the rules, and says what happened in the table's words,
citing the rules and rulings that decided it. No rule is decided here.
"""

from __future__ import annotations

import random
import re
from fractions import Fraction

from ..checks import InputError, blank, parse_numbers
from ..dice import dice_or_roll, parse_dice
from ..fmt import chance, signed
from ..types import Report
from .rules import BY_OUTCOME, MULTIPLE_ACTION_STEP, Offset, action_odds, check_ratings, multiple_actions, resolve_action

__all__ = ["resolve_action_report", "multiple_actions_report"]

RATING_MIN, RATING_MAX = -20, 40  # the range of every rating field
RATINGS_MAX_LENGTH = 200  # characters of the per-action ratings: ten actions need some 40
RATINGS_MAX_ITEMS = 50


def _offset_rules(prior_actions: int, offset: Offset) -> list[str]:
    """The offset rulings that decided a penalty, if any."""
    if prior_actions == 0 or offset.value == 0:
        return []
    rules = ["tal.multiple.offset"]
    if offset.value < 0:
        rules.append("tal.ruling.offset-negative")
        if offset.negative == "ignore":
            return rules
    if prior_actions >= 2:
        rules.append("tal.ruling.offset-later-actions")
    raw_once = MULTIPLE_ACTION_STEP * prior_actions + offset.value
    raw_each = MULTIPLE_ACTION_STEP + offset.value
    if (offset.mode == "once" and raw_once > 0) or (offset.mode == "each" and raw_each > 0):
        rules.append("tal.ruling.offset-cap")
    return rules


def _settings_text(offset: Offset) -> str:
    return (
        f"settings: offset {offset.mode} (tal.ruling.offset-later-actions), cap {offset.cap} "
        f"(tal.ruling.offset-cap), negative attribute {offset.negative} (tal.ruling.offset-negative)"
    )


def _odds_rows(modifier: int) -> tuple[tuple[str, Fraction], ...]:
    return tuple((BY_OUTCOME[o].title, p) for o, p in action_odds(modifier).items())


_MEANING = {
    "mishap": "the action fails badly and may have further bad consequences; the GM decides them",
    "failure": "the action does not achieve what was intended",
    "partial": "the action achieves part of the intended effect",
    "full": "the action achieves what was intended",
    "critical": "the action achieves the Intent with extra benefits; the GM decides them",
}


def resolve_action_report(
    rng: random.Random | None,
    *,
    rating: int,
    d20: object,
    difficulty: int,
    opposing_rating: int | None,
    prior_actions: int,
    offset: int,
    offset_mode: str,
    offset_cap: str,
    negative_offset: str,
) -> Report:
    (die,) = dice_or_roll(d20, rng, count=1, sides=20, label="The d20", field="d20")
    rule = Offset(offset, offset_mode, offset_cap, negative_offset)  # the form's four fields, as one value from here on
    r = resolve_action(rating, die, difficulty=difficulty, opposing_rating=opposing_rating, prior_actions=prior_actions,
                       offset=rule)
    rules = ["tal.action.procedure"]
    details = [f"Rating {rating}."]
    if opposing_rating is not None:
        rules.append("tal.opposed.difference")
        details.append(f"Opposed action: the opponent's rating {opposing_rating} is the Degree of Difficulty and is subtracted: {signed(rating - opposing_rating)}.")
    if difficulty != 0:
        rules.append("tal.ruling.opposed-difficulty" if opposing_rating is not None else "tal.ruling.difficulty-sign")
        details.append(f"Degree of Difficulty {signed(difficulty)} is added ({'a bonus for an easy action' if difficulty > 0 else 'a penalty for a hard action'}).")
    if prior_actions:
        rules.append("tal.multiple.penalty")
        raw = MULTIPLE_ACTION_STEP * prior_actions
        line = f"{prior_actions} action{'s' if prior_actions != 1 else ''} already taken this round: {raw}"
        offset_rules = _offset_rules(prior_actions, rule)
        if offset_rules:
            line += f", offset by the attribute {signed(offset)} to {signed(r.penalty)} ({_settings_text(rule)})"
        details.append(line + ".")
        rules += offset_rules
    elif offset:
        details.append("First action of the round: no multiple action penalty, so the attribute has nothing to offset.")
    details.append(f"Modifier {signed(r.modifier)}: d20 {die} {'+' if r.modifier >= 0 else '-'} {abs(r.modifier)} = {r.total}.")
    details.append(f"A total of {r.total} falls in the band {r.band.range_text} of the Action Table: {r.title}.")
    rules += ["tal.action.table", r.band.rule]
    return Report(
        outcome=r.outcome,
        headline=f"{r.title} with a total of {r.total}: {_MEANING[r.outcome]}.",
        details=tuple(details),
        rules=tuple(dict.fromkeys(rules)),
        odds=_odds_rows(r.modifier),
        odds_title=f"Chance of each result at {signed(r.modifier)}",
        highlight=r.title,
        dice={"d20": str(die)},
    )


def _parse_d20s(raw: object, rng: random.Random | None, actions: int) -> tuple[int, ...]:
    """Typed d20s (one per action, up to the Mishap), or `actions` rolled ones."""
    if blank(raw):
        return dice_or_roll(None, rng, count=actions, sides=20, label="The d20s", field="d20s")
    if isinstance(raw, (tuple, list)):
        count = len(raw)
    else:
        count = len([p for p in re.split(r"[\s,;/+.]+", str(raw).strip()) if p])
    if not 1 <= count <= actions:
        count = actions  # parse_dice then says how many dice the roll uses
    return parse_dice(raw, count=count, sides=20, label="The d20s", field="d20s")


def _parse_ratings(raw: object) -> tuple[int, ...] | None:
    if blank(raw):
        return None
    if isinstance(raw, (tuple, list)):
        return tuple(raw)
    # ASCII digits and the same range as the single Rating field, checked on the text: a huge number is never converted
    return parse_numbers(raw, label="Ratings", field="ratings", minimum=RATING_MIN, maximum=RATING_MAX,
                         most=RATINGS_MAX_ITEMS, example="whole numbers, one per action, such as '6 6 4'")


def multiple_actions_report(
    rng: random.Random | None,
    *,
    actions: int,
    rating: int | None,
    ratings: object,
    d20s: object,
    difficulty: int,
    offset: int,
    offset_mode: str,
    offset_cap: str,
    negative_offset: str,
) -> Report:
    listed = _parse_ratings(ratings)
    if listed is None and rating is None:
        raise InputError("Rating: give the rating used for the actions (or one rating per action).", "rating")
    # check the ratings before rolling, so bad input never consumes dice
    check_ratings(actions, rating, listed)
    rule = Offset(offset, offset_mode, offset_cap, negative_offset)  # the form's four fields, as one value from here on
    dice = _parse_d20s(d20s, rng, actions)
    seq = multiple_actions(actions, rating, dice, ratings=listed, difficulty=difficulty, offset=rule)
    rules = ["tal.multiple.penalty", "tal.multiple.mishap", "tal.ruling.mishap-ends-sequence", "tal.action.table"]
    if difficulty != 0:
        rules.append("tal.ruling.difficulty-sign")
    details = []
    if offset:
        details.append(_settings_text(rule).capitalize() + ".")
    for i, (r, pen, mod, odds) in enumerate(zip(seq.ratings, seq.penalties, seq.modifiers, seq.odds)):
        rules += _offset_rules(i, rule)
        chances = ", ".join(f"{BY_OUTCOME[o].title} {chance(p)}" for o, p in odds)
        head = f"Action {i + 1}: rating {r}"
        if difficulty:
            head += f", difficulty {signed(difficulty)}"
        head += f", multiple action penalty {signed(pen)}: modifier {signed(mod)}"
        if i < len(seq.actions):
            a = seq.actions[i]
            head += f"; d20 {a.d20} makes {a.total}, {a.title}"
            rules.append(a.band.rule)
        elif seq.outcome == "mishap":
            head += "; not taken, the Mishap ended the round"
        details.append(f"{head}. Odds: {chances}.")
    if seq.unused_dice and not blank(d20s):  # rolled dice after the Mishap were never needed
        details.append(f"Dice not used, the round ended at the Mishap: {' '.join(map(str, seq.unused_dice))}.")
    n = len(seq.ratings)
    details.append(f"Chance of taking all {n} action{'s' if n != 1 else ''} without a Mishap: {chance(seq.clear_chance)}.")
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
