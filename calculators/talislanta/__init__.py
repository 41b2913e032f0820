"""Talislanta 5th edition: the Action Table and Multiple Actions.

`rules` holds the rules as pure functions and data, `reports` the
player-facing explanation of a result, `entries` the registry's
calculators (`CALCULATORS`). This package is the public face: import from
`calculators.talislanta`.
"""

from ..checks import InputError
from .entries import CALCULATORS
from .reports import RATINGS_MAX_ITEMS, RATINGS_MAX_LENGTH
from .rules import (
    ACTION_TABLE,
    MULTIPLE_ACTION_STEP,
    NEGATIVE_OFFSETS,
    OFFSET_CAPS,
    OFFSET_MODES,
    OUTCOMES,
    ActionResult,
    Band,
    Offset,
    SequenceResult,
    action_modifier,
    action_odds,
    band_for,
    clear_chance,
    multiple_action_penalty,
    multiple_actions,
    outcome_for,
    resolve_action,
    sequence_modifiers,
    sequence_odds,
    success_chance,
)

__all__ = [
    "ACTION_TABLE",
    "Band",
    "OUTCOMES",
    "MULTIPLE_ACTION_STEP",
    "OFFSET_MODES",
    "OFFSET_CAPS",
    "NEGATIVE_OFFSETS",
    "Offset",
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
    "InputError",  # what every function here raises for bad input (a ValueError)
    # limits of the form's fields
    "RATINGS_MAX_LENGTH",
    "RATINGS_MAX_ITEMS",
]
