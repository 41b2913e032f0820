"""One registry of calculators, read by the CLI, the web forms and the docs: it finds them.

Each game's package (its record in `calculators.games`) defines a
`CALCULATORS` tuple and may define `TRACKERS`, of the types in
`calculators.types`; the registry imports the packages when first asked,
never at its own top, so importing it imports no game and a game never
imports it.

The rest lives by concern: `types` holds the types (`Param`, `Report`,
`Calculator`, `Tracker`), `runner` runs a calculator or a tracker step on
strings from outside (a form, a URL, a command line, the worker), never
raising for bad input; `table` holds the house rulings a table may choose
(`Param.ruling`).
"""

from __future__ import annotations

import importlib
from typing import Any

from .checks import InputError
from .games import GAMES

# A tracker's state and a step given to it, declared with the checks (the rules modules name them and import no
# registry).
from .checks import Action as Action, State as State

# Older imports from here keep working: the checks live in .checks, the types in .types.
from .checks import MAX_DIGITS as MAX_DIGITS, MAX_SEED as MAX_SEED, parse_numbers as parse_numbers, parse_seed as parse_seed, quote as quote
from .types import DEFAULT_MAX_LENGTH as DEFAULT_MAX_LENGTH, Calculator, Legacy, Param, Report, Tracker

# The types (re-exported from .types) and the games' lookup. Running a calculator or a tracker is calculators.runner
# (run, track), the table's rulings calculators.house_rules (table_settings, apply_table): they import this module,
# never the reverse.
__all__ = ["InputError", "Param", "Legacy", "Report", "Calculator", "Tracker", "all_calculators", "all_trackers", "get"]


def all_calculators() -> dict[str, Calculator]:
    """Every calculator by name, game by game in the order of games.GAMES."""
    found: dict[str, Calculator] = {}
    for game in GAMES:
        for calc in importlib.import_module(game.package).CALCULATORS:
            found[calc.name] = calc
    return found


def all_trackers() -> dict[str, Tracker[Any]]:
    """Every tracker by name: each game package's TRACKERS, in the order of games.GAMES."""
    found: dict[str, Tracker[Any]] = {}
    for game in GAMES:
        for tracker in getattr(importlib.import_module(game.package), "TRACKERS", ()):
            found[tracker.name] = tracker
    return found


def get(name: str) -> Calculator:
    calcs = all_calculators()
    if name not in calcs:
        raise InputError(f"There is no calculator called {name[:60]!r}.")
    return calcs[name]

