"""Tell-Tale: the attack table, damage, Double Strike, First Strike, saves,
the Trample charge, Deathtouch poison, planeswalker abilities, mulligans,
character creation, level-up and the deck check, with exact odds; and the
encounter tracker (`TRACKERS`), a whole fight kept as JSON-ready state.

The rules are pure functions and data by topic (`combat`, `trample`,
`poison`, `planeswalkers`, `hands`, `characters`, `decks`, `encounter*`); `reports` explains a result to players;
`entries` holds the
registry's calculators (`CALCULATORS`). This package is the public face:
import from `calculators.tell_tale`.
"""

from ..checks import InputError
from .characters import (
    COMPANION_STATS,
    DICE_PER_STAT,
    PC_STATS,
    STARTING_LEVEL,
    STAT_LABELS,
    STAT_ROLLS,
    STATS,
    Character,
    LevelUp,
    Stats,
    assign_stats,
    create_character,
    level_up,
    stat_total_odds,
    stat_totals,
)
from .combat import (
    ATTACK_TABLE,
    MODES,
    SAVES_AGAINST,
    VIGILANCE_BONUS,
    Attack,
    Damage,
    DoubleStrike,
    FirstStrike,
    Save,
    apply_damage,
    attack_band,
    attack_die,
    attack_odds,
    band_damage,
    combine_conditions,
    double_strike,
    double_strike_odds,
    expected_damage,
    first_strike,
    first_strike_odds,
    haste_speed,
    opposed_save,
    outcome_odds,
    resolve_attack,
    save_odds,
)
from .decks import (
    COPY_DIGITS,
    COPY_LIMIT,
    DECK_MAX,
    DECK_MIN,
    DECKLIST_MAX_LENGTH,
    DECKLIST_MAX_LINES,
    EXEMPT_MAX_LENGTH,
    EXEMPT_MAX_NAMES,
    DeckCheck,
    check_deck,
    parse_decklist,
    parse_exempt,
    parse_tagged_decklist,
)
from .deck_tags import CardTags, parse_identity, split_tags
from .encounter import ACTIONS as ENCOUNTER_ACTIONS, encounter_step, run_script
from .encounter_state import check_encounter, new_encounter
from .entries import ATTACK_RULES, BOTH_CHOICES, CALCULATORS, MODE_CHOICES, MODE_PARAMS, POWER, TRACKERS, YES_NO
from .hands import MULLIGAN_RULES, OPENING_HAND, Mulligan, hand_size, mulligan
from .planeswalkers import AbilityCost, planeswalker_ability
from .poison import CURES, Condition, PoisonTrack, add_counters, apply_cure, condition, deathtouch_hit, gain_life, poison_tick, poison_track
from .trample import Charge, ChargeHit, charge_enemy, charge_expected_damage, charge_odds, trample_charge
from .reports import BAND_LABEL, BAND_RANGE

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
    "parse_tagged_decklist",
    "CardTags",
    "parse_identity",
    "split_tags",
    "CALCULATORS",
    "TRACKERS",
    "InputError",  # what every function here raises for bad input (a ValueError)
    # more rule data
    "SAVES_AGAINST",
    "STAT_LABELS",
    "STAT_ROLLS",
    "DICE_PER_STAT",
    "parse_exempt",
    # limits of the form's fields
    "DECKLIST_MAX_LENGTH",
    "DECKLIST_MAX_LINES",
    "EXEMPT_MAX_LENGTH",
    "EXEMPT_MAX_NAMES",
    "COPY_DIGITS",
    # the forms' choices and shared params, the reports' band labels
    "YES_NO",
    "MODE_CHOICES",
    "BOTH_CHOICES",
    "ATTACK_RULES",
    "MODE_PARAMS",
    "POWER",
    "BAND_LABEL",
    "BAND_RANGE",
    # The Trample charge, the poison track, planeswalker abilities, mulligans, the encounter tracker
    "Charge", "ChargeHit", "charge_enemy", "trample_charge", "charge_odds", "charge_expected_damage",
    "Condition", "PoisonTrack", "CURES", "condition", "add_counters", "deathtouch_hit", "poison_tick", "gain_life",
    "apply_cure", "poison_track",
    "AbilityCost", "planeswalker_ability",
    "Mulligan", "MULLIGAN_RULES", "OPENING_HAND", "hand_size", "mulligan",
    "new_encounter", "check_encounter", "encounter_step", "run_script", "ENCOUNTER_ACTIONS",
]
