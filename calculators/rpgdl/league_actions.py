"""The season tracker's actions, declared once, and how each is applied, undone and done again.

`SPECS` is the dispatch table: each action's name, label, fields, handler, the rules it applies and where its
control sits. Settings, a player and a Weekend are logged: `apply_action` checks and applies one (its handler in
`league`) and writes its log entry and undo record, and `replay` rebuilds a season from its log's actions alone.
Undo, redo and show are not logged: undo takes back the last step by its undo record, or past the last UNDO_CAP
steps by replaying the log less its last entry, and keeps it as a redo record until a new action clears them
(the trackers' one design, history.py).
"""

from __future__ import annotations

import copy
from typing import Any

from ..checks import InputError, got
from ..history import Record, redone, state_length, undo_record, undone, undone_for_redo
from ..types import ActionSpec, Param, Report
from .decks import NOM_POOL_RULES, SEASON_DECK_RULES
from .league import (
    MAX_LOG, STATE_MAX_CHARS, UNDO_CAP, Roll, Season, new_season, player_action, result_of, settings_action, weekend_action,
)
from .league_cards import CARD_RULES

__all__ = ["SPECS", "ACTION_SPECS", "ACTIONS", "LOGGED", "RULES", "apply_action", "replay", "undo", "redo"]


def apply_action(season: Season, action: object, roll: Roll | None = None) -> tuple[Season, dict[str, Any], list[str]]:
    """One action on a checked season: (the new season, its log entry, notes for this step only).

    `action` is a dict whose "do" is one of LOGGED. A tied duel or a
    division both players lose together needs a roll-off: typed in the
    action's "rolls", or rolled with `roll` (None: they must be typed). The
    entry keeps the action as completed, so replaying it needs no dice.
    """
    new, entry, notes = _apply(copy.deepcopy(season), action, roll)
    new["undo"] = (season["undo"] + [undo_record(season, new)])[-UNDO_CAP:]
    new["redo"] = []  # a new action: what was undone is not done again
    return new, entry, notes


def _apply(season: Season, action: object, roll: Roll | None = None) -> tuple[Season, dict[str, Any], list[str]]:
    """apply_action on a season this call may change in place (replay's own, never a caller's)."""
    if not isinstance(action, dict) or action.get("do") not in LOGGED:
        raise InputError(f"A season's actions are {', '.join(LOGGED)}; got {got(action.get('do') if isinstance(action, dict) else action)}.", "action")
    if len(season["log"]) >= MAX_LOG:
        raise InputError(f"The season's log is full ({MAX_LOG} entries): export it and start a new season.", "action")
    notes: list[str] = []
    entry = ACTION_SPECS[action["do"]].handler(season, action, roll, notes)
    season["result"] = result_of(season)
    entry["rules"] = list(dict.fromkeys(entry["rules"]))
    record = Record(entry)  # never changed again: copies of the season share it, and its text is written once
    season["log"].append(record)
    return season, record, notes


def replay(actions: list[Any]) -> Season:
    """The season its log's actions make, from a new one (no dice: the actions carry their rolls).

    The season is built in place up to its last UNDO_CAP actions: copying it
    at each action, as apply_action does for its caller, made an undo cost
    grow with the square of the log (376 ms for 22 entries, 78% of it
    copying). The last ones go through apply_action, which writes their undo
    records, so the season is the one its steps made."""
    season = new_season()
    for n, action in enumerate(actions):
        if n < len(actions) - UNDO_CAP:
            season, _, _ = _apply(season, copy.deepcopy(action))
        else:
            season, _, _ = apply_action(season, copy.deepcopy(action))
    return season


def undo(season: Season) -> Season:
    """The season exactly as it was before its last logged action: by its undo record, or, past the last
    UNDO_CAP steps, by replaying the log less its last entry."""
    if not season["log"]:
        raise InputError("There is nothing to undo: the season's log is empty.", "action")
    before = replay([e["action"] for e in season["log"][:-1]]) if not season["undo"] else undone(season, season["undo"][-1])
    return undone_for_redo(season, before, UNDO_CAP)


def redo(season: Season) -> Season:
    """The season as it was before its last undo: the step undone done again, its roll-offs as they came."""
    if not season.get("redo"):
        raise InputError("There is nothing to redo: no step has been undone since the last one entered.", "action")
    after = redone(season, season["redo"][-1])
    return {**after, "undo": after["undo"][-UNDO_CAP:]}


def _undo_step(state: Season) -> tuple[Season, Report]:
    gone = state["log"][-1]["headline"] if state["log"] else ""
    new = undo(state)
    while new["redo"] and state_length(new) > STATE_MAX_CHARS:  # the steps undone longest ago give way: the season fits
        new = {**new, "redo": new["redo"][1:]}
    return new, Report(new["result"]["outcome"], f"Undone: {gone}", (new["result"]["headline"],))


def _redo_step(state: Season) -> tuple[Season, Report]:
    new = redo(state)
    return new, Report(new["result"]["outcome"], f"Redone: {new['log'][-1]['headline']}", (new["result"]["headline"],))


def _show(state: Season) -> tuple[Season, Report]:
    return state, Report(state["result"]["outcome"], state["result"]["headline"], ())


# ---------------------------------------------------------------- the actions, declared once

_SETTINGS_RULES = ("rpgdl.season.winner", "rpgdl.championship.winner", "rpgdl.ruling.championship-length", "rpgdl.ruling.trainwreck-limit",
                   "rpgdl.ruling.season-tie", "rpgdl.ruling.division-penalty", "rpgdl.ruling.half-draw", "rpgdl.ruling.successes-worth",
                   "rpgdl.ruling.sudden-death")
_WEEKEND_RULES = (
    "rpgdl.ruling.roll-off", "rpgdl.divisions.improper", "rpgdl.votes.limit", "rpgdl.ruling.vote-pool", "rpgdl.pools.select", "rpgdl.weekend.order",
    "rpgdl.weekend.discard-losers", "rpgdl.weekend.return-winners", "rpgdl.ruling.empty-slot", "rpgdl.worth.modified", "rpgdl.weekend.duel",
    "rpgdl.votes.worth", "rpgdl.ruling.division-penalty", "rpgdl.weekend.sudden-death", "rpgdl.ruling.sudden-death", "rpgdl.weekend.successes",
    "rpgdl.ruling.successes-worth", "rpgdl.weekend.trainwreck", "rpgdl.ruling.half-draw", "rpgdl.ruling.trainwreck-gap", *CARD_RULES,
    "rpgdl.ruling.roster", "rpgdl.championship.divisions", "rpgdl.ruling.championship-run-out", "rpgdl.ruling.championship-same-results",
    "rpgdl.championship.points", "rpgdl.season.trainwreck-loss", "rpgdl.ruling.trainwreck-limit", "rpgdl.ruling.simultaneous-trainwrecks",
    "rpgdl.ruling.championship-length", "rpgdl.season.length",
)
SPECS: tuple[ActionSpec, ...] = (
    ActionSpec("settings", "The season's rulings", (Param.of("settings", "object", "Rulings", required=True),), handler=settings_action,
               rules=_SETTINGS_RULES, place="setup"),
    ActionSpec("player", "A player", (
        Param.of("player", "choice", "Player", required=True, choices=(("first", "First player"), ("second", "Second player"))),
        Param.of("name", "text", "Name"), Param.of("nom_pool", "list", "Nom Pool"), Param.of("season_deck", "list", "Season Deck"),
    ), handler=player_action, rules=(*NOM_POOL_RULES, *SEASON_DECK_RULES), place="setup"),
    ActionSpec("weekend", "A Weekend", (
        Param.of("week", "number", "Week"), Param.of("first", "object", "First player's duelists", required=True),
        Param.of("second", "object", "Second player's duelists", required=True), Param.of("rolls", "list", "Roll-offs"),
        Param.of("cards", "object", "Cards played"), Param.of("vote_pools", "object", "Vote Pools"),
    ), handler=weekend_action, rules=_WEEKEND_RULES, place="menu"),
    ActionSpec("undo", "Undo", handler=_undo_step, place="bar", records=False),
    ActionSpec("redo", "Redo", handler=_redo_step, place="bar", records=False),
    ActionSpec("show", "Show", handler=_show, place="shell", records=False),
)
ACTION_SPECS = {spec.name: spec for spec in SPECS}
ACTIONS = tuple(ACTION_SPECS)
LOGGED = tuple(spec.name for spec in SPECS if spec.records)  # the actions that change a season and go in its log
RULES = tuple(dict.fromkeys(r for spec in SPECS for r in spec.rules))  # every rule a season's step can cite
