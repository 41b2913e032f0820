"""The house rulings a table may choose, and a table's choices applied to a calculator's fields.

Each ruling is declared once, by `Param.ruling` on a calculator's parameter;
the settings pages, the forms' defaults, the command line's --table/--set
and the tests read them through `table_settings()`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .checks import InputError, blank, quote
from .registry import all_calculators, get
from .types import Param

__all__ = ["table_settings", "apply_table"]


def table_settings() -> dict[str, dict[str, Param]]:
    """Every house ruling a table may choose: game module -> param name -> Param.

    Declared once, by `Param.ruling`; the settings pages, the forms' defaults,
    the CLI's --table/--set and the tests all read them from here. A param
    name used by several calculators of a game is one setting (the same
    choices and default everywhere, or this raises).
    """
    found: dict[str, dict[str, Param]] = {}
    for name, calc in all_calculators().items():
        game = name.split(".")[0]
        for p in calc.params:
            if not p.ruling:
                continue
            other = found.setdefault(game, {}).setdefault(p.name, p)
            if (other.ruling, other.default, other.choices, other.minimum, other.maximum, other.kind) != (
                    p.ruling, p.default, p.choices, p.minimum, p.maximum, p.kind):
                raise RuntimeError(f"{game}: the setting {p.name} differs between calculators; a setting is one ruling.")
    return found


def settings_with_calculators() -> dict[str, dict[str, dict[str, Any]]]:
    """Game module -> param name -> {"param": Param, "calculators": the names of those it sets}: the
    house rulings of `table_settings()` with the calculators each one sets (the settings pages say so)."""
    calcs = all_calculators()
    return {
        game: {name: {"param": p, "calculators": [c for c, calc in calcs.items()
                                                 if c.split(".")[0] == game and any(q.name == name for q in calc.params)]}
               for name, p in found.items()}
        for game, found in table_settings().items()
    }


def apply_table(name: str, raw: Mapping[str, object], table: Mapping[str, object]) -> dict[str, object]:
    """`raw` with the table's house rulings as defaults (values given in `raw` win).

    `table` maps "<game>.<param>" (as the web page stores them, "tell_tale.both")
    or a bare param name to a value. A name no game's rulings know, or a value
    its ruling does not allow, raises InputError: never applied.
    """
    settings = table_settings()
    game = name.split(".")[0]
    chosen: dict[tuple[str, str], str] = {}  # (game, param) -> value; a later entry wins
    for key, value in table.items():
        where, _, param = str(key).rpartition(".")
        games = [where] if where else [g for g in settings if param in settings[g]]
        if not games or any(g not in settings or param not in settings[g] for g in games):
            known = ", ".join(f"{g}.{n}" for g in settings for n in settings[g])
            raise InputError(f"There is no house ruling called {quote(str(key))}: the table settings name {known}.",
                             "table")
        try:
            settings[games[0]][param].parse(str(value))
        except InputError as err:
            raise InputError(f"Table setting {key}: {err}", "table") from None
        for g in games:
            chosen[(g, param)] = str(value)
    out = dict(raw)
    mine = {p.name for p in get(name).params}
    for (g, param), value in chosen.items():
        if g == game and param in mine and blank(out.get(param)):
            out[param] = value
    return out
