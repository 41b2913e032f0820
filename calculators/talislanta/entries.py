"""Talislanta's calculators in the registry: parameters, labels, limits, examples.

What the CLI, the web forms and the docs read. The adapters are in
`reports`, the rules in `rules`.
"""

from __future__ import annotations

from ..types import Calculator, Param
from .reports import RATING_MAX, RATING_MIN, RATINGS_MAX_LENGTH, multiple_actions_report, resolve_action_report
from .rules import ACTION_TABLE, NEGATIVE_OFFSETS, OFFSET_CAPS, OFFSET_MODES, OUTCOMES

__all__ = ["CALCULATORS"]

_OFFSET_PARAMS = (
    Param("offset", "Offsetting attribute", default=0, minimum=-10, maximum=20,
          help="The Primary Attribute the GM lets offset the multiple action penalty, e.g. SPD +2 for several attacks."),
    Param("offset_mode", "Offset on later actions", kind="choice", default="once", choices=OFFSET_MODES,
          help="Ruling tal.ruling.offset-later-actions: with SPD +2 a third action's -10 is -8 once per roll, or -6 against each -5 step.", ruling="tal.ruling.offset-later-actions"),
    Param("offset_cap", "Offset larger than the penalty", kind="choice", default="penalty", choices=OFFSET_CAPS,
          help="Ruling tal.ruling.offset-cap.", ruling="tal.ruling.offset-cap"),
    Param("negative_offset", "Negative attribute", kind="choice", default="ignore", choices=NEGATIVE_OFFSETS,
          help="Ruling tal.ruling.offset-negative.", ruling="tal.ruling.offset-negative"),
)
_OFFSET_RULES = ("tal.multiple.offset", "tal.ruling.offset-later-actions", "tal.ruling.offset-cap",
                 "tal.ruling.offset-negative")
_BAND_RULES = tuple(b.rule for b in ACTION_TABLE)

CALCULATORS = (
    Calculator(
        name="talislanta.resolve_action",
        title="Action Table roll",
        summary="One action: d20 plus rating, Degree of Difficulty, an opponent's rating and the multiple action penalty, read on the Action Table.",
        params=(
            Param("rating", "Skill or Attribute Rating", minimum=RATING_MIN, maximum=RATING_MAX,
                  help="The character's rating for this action."),
            Param("d20", "d20", kind="dice", help="The d20 rolled."),
            Param("difficulty", "Degree of Difficulty", default=0, minimum=-30, maximum=30,
                  help="As the GM announces it: +3 for an easy task, -5 for a hard one (usually +10 to -10)."),
            Param("opposing_rating", "Opponent's rating", optional=True, minimum=RATING_MIN, maximum=RATING_MAX,
                  help="For an opposed action: the opponent's Skill or Attribute Rating, subtracted."),
            Param("prior_actions", "Actions already taken this round", default=0, minimum=0, maximum=10,
                  help="Each costs -5 (Multiple Actions)."),
            *_OFFSET_PARAMS,
        ),
        adapter=resolve_action_report,
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
            Param("rating", "Rating", optional=True, minimum=RATING_MIN, maximum=RATING_MAX,
                  help="The rating used for every action."),
            Param("ratings", "Ratings, one per action", kind="text", optional=True, max_length=RATINGS_MAX_LENGTH,
                  help=f"Instead of one rating: a rating per action, e.g. '6 6 4'; up to {RATINGS_MAX_LENGTH} characters."),
            Param("d20s", "d20s, one per action", kind="dice",
                  help="One d20 per action in order; after a Mishap no more are needed."),
            Param("difficulty", "Degree of Difficulty", default=0, minimum=-30, maximum=30,
                  help="Added to every action, as the GM announces it."),
            *_OFFSET_PARAMS,
        ),
        adapter=multiple_actions_report,
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
