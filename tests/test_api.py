"""The public API: every name importable before the games became packages still imports.

API lists, module by module, what `dir()` showed before calculators/<game>.py
became calculators/<game>/: the names each module defined, and the
constants and functions it re-exported as its own. Left out: the standard
library, icepool and the registry's and dice's helpers a module merely
imported (`re`, `Fraction`, `Param`, `dice_or_roll`...), which were never a
game's API. Each game's `__all__` is its public face.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
from fractions import Fraction

import pytest

from calculators import checks, fmt, games, registry, rpgdl, runner, talislanta, tell_tale
from calculators.talislanta import Offset

API = {
    "calculators.tell_tale": [
        'ATTACK_RULES', 'ATTACK_TABLE', 'Attack', 'BAND_LABEL', 'BAND_RANGE', 'BOTH_CHOICES', 'CALCULATORS',
        'COMPANION_STATS', 'COPY_DIGITS', 'COPY_LIMIT', 'Character', 'DECKLIST_MAX_LENGTH', 'DECKLIST_MAX_LINES',
        'DECK_MAX', 'DECK_MIN', 'DICE_PER_STAT', 'Damage', 'DeckCheck', 'DoubleStrike', 'EXEMPT_MAX_LENGTH',
        'EXEMPT_MAX_NAMES', 'FirstStrike', 'LevelUp', 'MODES', 'MODE_CHOICES', 'MODE_PARAMS', 'PC_STATS', 'POWER',
        'SAVES_AGAINST', 'STARTING_LEVEL', 'STATS', 'STAT_LABELS', 'STAT_ROLLS', 'Save', 'Stats', 'VIGILANCE_BONUS',
        'YES_NO', 'apply_damage', 'assign_stats', 'attack_band', 'attack_die', 'attack_odds', 'band_damage',
        'check_deck', 'combine_conditions', 'create_character', 'double_strike', 'double_strike_odds',
        'expected_damage', 'first_strike', 'first_strike_odds', 'haste_speed', 'level_up', 'opposed_save',
        'outcome_odds', 'parse_decklist', 'parse_exempt', 'resolve_attack', 'save_odds', 'stat_total_odds',
        'stat_totals',
    ],
    "calculators.talislanta": [
        'ACTION_TABLE', 'ActionResult', 'Band', 'CALCULATORS', 'MULTIPLE_ACTION_STEP', 'NEGATIVE_OFFSETS',
        'OFFSET_CAPS', 'OFFSET_MODES', 'OUTCOMES', 'RATINGS_MAX_ITEMS', 'RATINGS_MAX_LENGTH', 'SequenceResult',
        'action_modifier', 'action_odds', 'band_for', 'clear_chance', 'multiple_action_penalty', 'multiple_actions',
        'outcome_for', 'resolve_action', 'sequence_modifiers', 'sequence_odds', 'success_chance',
    ],
    "calculators.rpgdl": [
        'CALCULATORS', 'CHAMPIONS', 'CHAMPIONSHIP_POINTS', 'COPY_DIGITS', 'ChampionshipResult',
        'DEFAULT_GENERIC_WEIGHT', 'DEFAULT_TRAINWRECK_LIMIT', 'DIVISIONS', 'DIVISION_CHOICES', 'DIVISION_NAMES',
        'DIVISION_PENALTY', 'DUELIST_NAME_MAX_LENGTH', 'DeckCheck', 'DuelResult', 'Duelist', 'GOALS', 'HALF_DRAW',
        'IMPROPER_PENALTY', 'NOM_POOL_MAX_LENGTH', 'NOM_POOL_MAX_LINES', 'NOM_POOL_PER_DIVISION', 'NOM_POOL_SIZE',
        'NUMBER_LIST_MAX_ITEMS', 'NUMBER_LIST_MAX_LENGTH', 'PLAYERS', 'ROLL_OFF_SIDES', 'SEASON_DECK_COPIES',
        'SEASON_DECK_MAX_LENGTH', 'SEASON_DECK_MAX_LINES', 'SEASON_DECK_MINIMUM', 'SEASON_TIE', 'SEASON_WEEKS',
        'SETTING_PARAMS', 'STARTING_GENERIC_VOTERS', 'SUCCESSES_WORTH', 'SUDDEN_DEATH', 'SeasonResult',
        'TRAINWRECK_GAP', 'VOTE_WEIGHT_MAX', 'VotePool', 'WEEKEND_FIELDS', 'WEEK_SUCCESSES_MAX',
        'WEEK_TRAINWRECKS_MAX', 'WeekScore', 'WeekendResult', 'WorthParts', 'championship_points',
        'championship_tally', 'check_nom_pool', 'check_season_deck', 'division_gap', 'is_trainwreck',
        'modified_worth', 'parse_nom_pool', 'parse_season_deck', 'resolve_duel', 'resolve_weekend', 'roll_off',
        'roll_off_odds', 'season_tally', 'trainwreck_reasons', 'vote_pool', 'worth_parts',
    ],
    "calculators.registry": [
        'Calculator', 'DEFAULT_MAX_LENGTH', 'InputError', 'Legacy', 'MAX_DIGITS', 'MAX_SEED', 'Param', 'Report',
        'all_calculators', 'get', 'parse_numbers', 'parse_seed', 'quote',  # run and track: calculators.runner
    ],
    "calculators.dice": [
        'dice_or_roll', 'parse_dice', 'roll_dice',
    ],
    "calculators.__main__": [
        'attach_negative_values', 'build_parser', 'cli', 'format_result', 'main',
    ],
}

# The __all__ of each game before the move; the packages may only add to it.
OLD_ALL = {
    "calculators.tell_tale": [
        'ATTACK_TABLE', 'MODES', 'STATS', 'PC_STATS', 'COMPANION_STATS', 'DECK_MIN', 'DECK_MAX', 'COPY_LIMIT',
        'STARTING_LEVEL', 'VIGILANCE_BONUS', 'Attack', 'Damage', 'DoubleStrike', 'FirstStrike', 'Save', 'Character',
        'Stats', 'LevelUp', 'DeckCheck', 'attack_band', 'band_damage', 'combine_conditions', 'resolve_attack',
        'attack_die', 'attack_odds', 'outcome_odds', 'expected_damage', 'apply_damage', 'double_strike',
        'double_strike_odds', 'first_strike', 'first_strike_odds', 'opposed_save', 'save_odds', 'haste_speed',
        'stat_totals', 'stat_total_odds', 'create_character', 'assign_stats', 'level_up', 'parse_decklist',
        'check_deck', 'CALCULATORS',
    ],
    "calculators.talislanta": [
        'ACTION_TABLE', 'Band', 'OUTCOMES', 'MULTIPLE_ACTION_STEP', 'OFFSET_MODES', 'OFFSET_CAPS',
        'NEGATIVE_OFFSETS', 'ActionResult', 'SequenceResult', 'band_for', 'outcome_for', 'multiple_action_penalty',
        'action_modifier', 'resolve_action', 'action_odds', 'success_chance', 'sequence_modifiers', 'clear_chance',
        'sequence_odds', 'multiple_actions', 'CALCULATORS',
    ],
    "calculators.rpgdl": [
        'DIVISIONS', 'IMPROPER_PENALTY', 'CHAMPIONSHIP_POINTS', 'SEASON_WEEKS', 'Duelist', 'WorthParts',
        'DuelResult', 'WeekendResult', 'WeekScore', 'SeasonResult', 'ChampionshipResult', 'VotePool', 'DeckCheck',
        'division_gap', 'worth_parts', 'modified_worth', 'trainwreck_reasons', 'is_trainwreck', 'resolve_duel',
        'roll_off', 'roll_off_odds', 'resolve_weekend', 'season_tally', 'championship_points', 'championship_tally',
        'vote_pool', 'parse_nom_pool', 'check_nom_pool', 'parse_season_deck', 'check_season_deck', 'CALCULATORS',
    ],
}
GAMES = {g.package: importlib.import_module(g.package) for g in games.GAMES}  # every game, from its record


@pytest.mark.parametrize("module", API)
def test_every_name_still_imports(module):
    mod = importlib.import_module(module)
    assert [name for name in API[module] if not hasattr(mod, name)] == []


@pytest.mark.parametrize("module", GAMES)
def test_all_is_the_public_face(module):
    game = GAMES[module]
    assert len(game.__all__) == len(set(game.__all__))
    assert [name for name in game.__all__ if not hasattr(game, name)] == []
    assert set(OLD_ALL.get(module, ())) <= set(game.__all__)  # a game added since has no older face to keep
    assert set(API.get(module, ())) <= set(game.__all__), "a name importable before is public now: list it in __all__"
    star: dict = {}
    exec(f"from {module} import *", star)
    assert set(game.__all__) <= set(star)


def test_registry_names_are_unchanged():
    """The registry's types and lookups; running moved to calculators.runner and the rulings to calculators.house_rules
    (the registry re-exported them lazily, an import circle the layout test did not see)."""
    assert set(registry.__all__) == {"InputError", "Param", "Legacy", "Report", "Calculator", "Tracker", "all_calculators", "all_trackers", "get"}
    assert not hasattr(registry, "run") and not hasattr(registry, "track")
    assert {"run", "track"} <= set(runner.__all__)


def test_one_exception_for_bad_input():
    assert issubclass(checks.InputError, ValueError)
    for module in (registry, tell_tale, talislanta, rpgdl):
        assert module.InputError is checks.InputError


@pytest.mark.parametrize(("call", "field"), [
    (lambda: tell_tale.resolve_attack(5, 23), "d20"),
    (lambda: tell_tale.resolve_attack(-1, 10), "power"),
    (lambda: tell_tale.resolve_attack(5, 20), "crit_d4"),
    (lambda: tell_tale.double_strike(5, 12, 20), "second_crit_d4"),
    (lambda: tell_tale.apply_damage(2, 5, 1, overflow="maybe"), "overflow"),
    (lambda: tell_tale.opposed_save(5, (3, 4)), "save_d20"),
    (lambda: tell_tale.check_deck("0 Bolt"), "decklist"),
    (lambda: talislanta.resolve_action(5, 0), "d20"),
    (lambda: talislanta.resolve_action(5, 7, prior_actions=1, offset=talislanta.Offset(1, mode="twice")), "offset_mode"),
    (lambda: talislanta.multiple_actions(3, ratings=(3, 4)), "ratings"),
    (lambda: rpgdl.Duelist("X", "heavy", -1, 1), "worth"),
    (lambda: rpgdl.roll_off(7, 1), "first_die"),
    (lambda: rpgdl.resolve_duel("heavy", rpgdl.Duelist("A", "heavy", 6, 4), rpgdl.Duelist("B", "heavy", 5, 1), second_votes=2),
     "second_votes"),
    (lambda: rpgdl.vote_pool(-1), "generic_voters"),
    (lambda: rpgdl.season_tally([]), "weeks"),
])
def test_the_rules_raise_input_error_naming_the_field(call, field):
    with pytest.raises(checks.InputError) as err:
        call()
    assert err.value.field == field
    with pytest.raises(ValueError):  # what older callers catch
        call()


# ---------------------------------------------------------------- Talislanta's offset


def test_offset_is_a_small_frozen_value():
    offset = Offset(2, "each")
    assert (offset.value, offset.mode, offset.cap, offset.negative) == (2, "each", "penalty", "ignore")
    assert offset == Offset(2, "each", "penalty", "ignore") and hash(offset) == hash(Offset(2, "each"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        offset.value = 3  # type: ignore[misc]
    assert [Offset().penalty(n) for n in range(3)] == [0, -5, -10]
    assert [Offset(2).penalty(n) for n in range(3)] == [0, -3, -8]  # once per roll (the ruling)
    assert [Offset(2, "each").penalty(n) for n in range(3)] == [0, -3, -6]
    assert Offset(7, cap="none").penalty(1) == 2 and Offset(7).penalty(1) == 0
    assert Offset(-2).penalty(1) == -5 and Offset(-2, negative="worsen").penalty(1) == -7


@pytest.mark.parametrize(("kwargs", "field"), [
    ({"value": "2"}, "offset"), ({"mode": "twice"}, "offset_mode"), ({"cap": "max"}, "offset_cap"),
    ({"negative": "no"}, "negative_offset"),
])
def test_offset_checks_itself(kwargs, field):
    with pytest.raises(checks.InputError) as err:
        Offset(**kwargs)
    assert err.value.field == field


def test_the_offset_and_its_rulings_travel_as_one_offset():
    """The public functions take the attribute and its three rulings as one `Offset` (or the attribute alone, a
    number): no function threads the rulings as keywords of its own."""
    for function in (talislanta.multiple_action_penalty, talislanta.action_modifier, talislanta.resolve_action,
                     talislanta.sequence_modifiers, talislanta.multiple_actions):
        parameters = inspect.signature(function).parameters
        assert "offset" in parameters and not {"offset_mode", "offset_cap", "negative_offset"} & set(parameters), function.__name__
    each = talislanta.Offset(2, mode="each")
    assert talislanta.multiple_action_penalty(2, each) == -6
    assert talislanta.resolve_action(3, 12, prior_actions=2, offset=each).penalty == -6
    assert talislanta.sequence_modifiers((3, 3, 3), offset=talislanta.Offset(2, cap="none")) == (3, 0, -5)
    seq = talislanta.multiple_actions(3, 3, (9, 12, 15), offset=each)
    assert seq.penalties == (0, -3, -6) and seq.outcome == "clear"


# ---------------------------------------------------------------- numbers for players


def test_numbers_are_formatted_in_one_place():
    assert [fmt.signed(n) for n in (3, -2, 0)] == ["+3", "-2", "+0"]
    assert (fmt.fraction(Fraction(5, 2)), fmt.fraction(Fraction(6, 2)), fmt.fraction(4)) == ("5/2", "3", "4")
    assert (fmt.ratio(Fraction(1, 4)), fmt.ratio(Fraction(1))) == ("1/4", "1/1")
    # The decimal first, the exact fraction second; an exact decimal needs no fraction.
    assert [fmt.about(p) for p in (Fraction(111, 40), Fraction(7, 2), Fraction(3), Fraction(-1, 3))] == [
        "about 2.77 (111/40)", "3.5", "3", "about -0.33 (-1/3)"]
    assert [fmt.chance(p) for p in (Fraction(3, 20), Fraction(1, 3), Fraction(0), Fraction(1))] == [
        "15.0% (3/20)", "33.3% (1/3)", "0.0%", "100.0%"]
    assert fmt.percent(Fraction(1, 8)) == "12.5%"
    assert fmt.percent(Fraction(1, 8), 2, 6) == " 12.50%" and fmt.percent(Fraction(1), 2, 6) == "100.00%"
    assert fmt.percent_value(Fraction(1, 3)) == float(Fraction(100, 3))
    result = runner.run("talislanta.resolve_action", {"rating": "3", "d20": "12"})
    assert [o["percent"] for o in result["odds"]] == [fmt.percent_value(Fraction(o["numerator"], o["denominator"]))
                                                      for o in result["odds"]]
