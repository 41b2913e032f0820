"""A game's house rulings travel as one frozen object: RPGDL's `DuelRulings`, Talislanta's `Offset`.

A calculator's own function takes its form's fields, the rulings among them, and makes the object once; the
functions below it take the object, never the rulings one by one. The calculators' params, forms and command
line are unchanged (tests/test_registry.py, test_cli.py, test_table.py check those).
"""

from __future__ import annotations

import ast
import itertools
from pathlib import Path

import pytest

from calculators.checks import InputError
from calculators.rpgdl import (
    SITE_RULINGS,
    Duelist,
    DuelRulings,
    WeekendRow,
    resolve_duel,
    resolve_weekend,
    settle_duel,
    weekend_from_rows,
    weekend_ties,
)

ROOT = Path(__file__).resolve().parent.parent
CHOICES = {"division_penalty": ("flat", "per-division"), "half_draw": ("at-most", "exactly"),
           "successes_worth": ("modified", "base"), "sudden_death": ("roll-off", "no-winner")}
EVERY_RULING = [dict(zip(CHOICES, values)) for values in itertools.product(*CHOICES.values())]


def lineups():
    """A Weekend that plays up a division, wins by the printed or the modified Worth, and ties the Light duel."""
    first = [Duelist("Worker 8", "heavy", 6, 4), Duelist("Pip", "light", 5, 1), Duelist("Mid", "middle", 5, 3), Duelist("Lite", "light", 3, 2)]
    second = [Duelist("God", "godlike", 9, 3), Duelist("Brute", "heavy", 3, 4), Duelist("Mido", "middle", 4, 1), Duelist("Lita", "light", 2, 2)]
    return first, second, [4, 1, 0, 0], [0, 0, 0, 1]


def test_the_site_rulings_are_the_first_choices():
    assert SITE_RULINGS == DuelRulings() == DuelRulings(*(values[0] for values in CHOICES.values()))
    assert DuelRulings.of({"half_draw": "exactly", "goal": "successes", "trainwreck_limit": 3}) == DuelRulings(half_draw="exactly")


@pytest.mark.parametrize("field", CHOICES)
def test_duel_rulings_check_themselves_naming_the_field(field):
    with pytest.raises(InputError) as err:
        DuelRulings(**{field: "sometimes"})
    assert err.value.field == field and "is one of " + ", ".join(CHOICES[field]) in str(err.value)
    with pytest.raises(AttributeError):
        SITE_RULINGS.half_draw = "exactly"  # frozen: passed whole, never changed on the way


@pytest.mark.parametrize("rulings", EVERY_RULING, ids=lambda r: "-".join(r.values()))
def test_the_object_gives_what_the_loose_rulings_give(rulings):
    """resolve_weekend (the form's fields) and weekend_ties / weekend_from_rows (one DuelRulings) are one Weekend."""
    first, second, first_votes, second_votes = lineups()
    one = DuelRulings(**rulings)
    rows = {"first": [WeekendRow(d, v) for d, v in zip(first, first_votes)], "second": [WeekendRow(d, v) for d, v in zip(second, second_votes)]}
    ties = weekend_ties(rows["first"], rows["second"], rulings=one)
    assert list(ties) == (["light"] if rulings["sudden_death"] == "roll-off" else [])
    winners = dict.fromkeys(ties, "second")
    loose = resolve_weekend(first, second, first_votes=first_votes, second_votes=second_votes, sudden_death_winners=winners, **rulings)
    assert weekend_from_rows(rows["first"], rows["second"], rulings=one, sudden_death_winners=winners) == loose
    duel = {k: v for k, v in rulings.items() if k != "sudden_death"}
    assert resolve_duel("godlike", first[0], second[0], first_votes=4, **duel) == settle_duel("godlike", first[0], second[0], (4, 0), rulings=one)


def _functions(path: Path):
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.FunctionDef):
            names = {a.arg for a in node.args.args + node.args.kwonlyargs}
            yield node.name, names


# Each game's rulings, and the functions that may still take them one by one: the calculators' own functions
# (their parameters are the form's fields), and for Talislanta the public functions that kept their keywords
# beside `Offset` (tests/test_api.py::test_the_offset_keywords_still_work, the doctests of
# docs/talislanta/multiple-actions.md), and `as_offset`, which turns them into the one Offset.
LOOSE = {
    "rpgdl": (set(CHOICES), {"resolve_duel", "resolve_weekend", "plan_votes"}),
    "talislanta": ({"offset_mode", "offset_cap", "negative_offset"},
                   {"resolve_action", "multiple_actions", "multiple_action_penalty", "action_modifier", "sequence_modifiers", "as_offset"}),
}


@pytest.mark.parametrize("game", LOOSE)
def test_below_a_calculator_the_rulings_travel_as_one_object(game):
    """The adapters (reports.py) take the form's fields by name; any other function taking two or more of a
    game's rulings one by one is a signature that threads them again."""
    rulings, allowed = LOOSE[game]
    threading = sorted(f"{path.name}:{name}" for path in (ROOT / "calculators" / game).glob("*.py") if path.name != "reports.py"
                       for name, params in _functions(path) if len(params & rulings) >= 2 and name not in allowed)
    assert not threading, f"these take the rulings one by one; give them the game's rulings object: {threading}"
