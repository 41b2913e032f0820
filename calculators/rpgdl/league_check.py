"""A season from outside (storage, a file, a link) checked before it is believed.

Only the log is read: its actions are replayed from a new season, each
checked as if typed again, so nothing in a season can be other than its
actions make it. Every other field given must be what the replay rebuilds;
fields left out are rebuilt (a link carries the log alone). The undo records
are rebuilt too, and the saved ones not read: an undo in the tracker leaves
fewer than the log rebuilds. The redo records (the steps undone) are read,
each only if the step it brings back is what its action makes, replayed. A season saved
by an older version of the tracker is rebuilt from its actions alone: the
words and fields it kept beside them were that version's. Bad or hostile
input is refused with a sentence naming what is wrong.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from typing import Any

from ..checks import InputError, got, quote
from .data import DEFAULT_VOTE_POOL, PLAYERS, VOTE_POOL_MAX
from ..history import Record, compact_json, redone
from .league import MAX_LOG, TRACKER, UNDO_CAP, VERSION, Season, new_season
from .league_actions import LOGGED, apply_action

__all__ = ["check_season", "compact", "links"]

_ENTRY_KEYS = {"action", "headline", "details", "rules"}
_DO = {"settings": "the settings", "player": "a player", "weekend": "a Weekend"}


def compact(season: Season) -> dict[str, Any]:
    """The season as its log's actions alone: what a link carries; check_season rebuilds the rest."""
    return {"tracker": season["tracker"], "version": season["version"], "log": [{"action": e["action"]} for e in season["log"]]}


def links(season: Season) -> tuple[tuple[object, str], ...]:
    """What a share link of the season carries (Tracker.links): its log's actions alone (`compact`)."""
    return ((compact(season), ""),)


def check_season(raw: object) -> Season:
    """The season `raw` stands for, rebuilt from its log, or InputError saying what is wrong."""
    if not isinstance(raw, dict):
        raise InputError(f"A saved RPGDL season is a JSON object with a log; this is {_kind(raw)}.", "state")
    if raw.get("tracker") != TRACKER:
        what = f"it says it is {quote(raw['tracker'], 40)}" if isinstance(raw.get("tracker"), str) else "it has no tracker name"
        raise InputError(f"This is not a saved RPGDL season: {what}.", "state")
    version = raw.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise InputError(f"A saved season has a version number; got {got(version)}.", "state")
    if version > VERSION:
        raise InputError(f"This season was saved by a newer version of the tracker (version {version}); this page reads version {VERSION}.", "state")
    known = set(new_season())
    unknown = set(raw) - known
    if unknown:
        raise InputError(f"A saved season has no field called {quote(sorted(unknown)[0], 40)}.", "state")
    log = raw.get("log")
    if not isinstance(log, list):
        raise InputError(f"A saved season's log is a list of actions; got {_kind(log)}.", "state")
    if len(log) > MAX_LOG:
        raise InputError(f"The season's log has {len(log):,} entries; the tracker keeps at most {MAX_LOG}.", "state")
    if version < VERSION:  # an older tracker's wording, rule lists and fields: rebuilt from its log's actions alone
        log = [{"action": _as_of_now(e["action"])} if isinstance(e, dict) and "action" in e else e for e in log]
        raw = {"tracker": TRACKER, "log": log}
    season = new_season()
    for n, entry in enumerate(log, start=1):
        if not isinstance(entry, dict) or not isinstance(entry.get("action"), dict):
            raise InputError(f"Entry {n} of the season's log is not an action; got {_kind(entry)}.", "state")
        extra = set(entry) - _ENTRY_KEYS
        if extra:
            raise InputError(f"Entry {n} of the season's log has no field called {quote(sorted(extra)[0], 40)}.", "state")
        action = entry["action"]
        what = _DO.get(action.get("do"), "an action")
        if action.get("do") not in LOGGED:
            raise InputError(f"Entry {n} of the season's log: the actions are {', '.join(LOGGED)}; got {got(action.get('do'))}.", "state")
        try:
            season, built, _ = apply_action(season, action)
        except InputError as err:
            raise InputError(f"Entry {n} of the season's log ({what}) cannot be replayed: {err}", "state") from None
        for key in set(entry) - {"action"}:
            where = _difference(entry[key], built[key], f"log/{n - 1}/{key}")
            if where:
                raise InputError(_mismatch(where), "state")
    rebuilt: Mapping[str, object] = season
    for key in known - {"log", "undo", "redo"}:  # the undo records are rebuilt with the rest: the saved ones are not read
        if key in raw:
            where = _difference(raw[key], rebuilt[key], key)
            if where:
                raise InputError(_mismatch(where), "state")
    season["redo"] = _check_redo(season, raw.get("redo", []))
    return season


def _check_redo(season: Season, given: object) -> list[Any]:
    """The redo records of a checked season, each one checked: applied in turn, the step it brings back must
    be one entry more in the log, and the season that entry's action makes when replayed; else refused."""
    if not isinstance(given, list) or len(given) > UNDO_CAP:
        raise InputError(f"A saved season's redo list is a list of at most {UNDO_CAP} steps; got {_kind(given)}"
                         + (f" of {len(given)}" if isinstance(given, list) else "") + ".", "state")
    current: Season = {**season, "redo": list(given)}
    for i in range(len(given) - 1, -1, -1):
        where = f"Redo step {len(given) - i} of {len(given)}"
        try:
            after = redone(current, given[i])
        except InputError as err:
            raise InputError(f"{where} cannot be read: {err}", "state") from None
        log = after.get("log")
        if not isinstance(log, list) or len(log) != len(current["log"]) + 1 or compact_json(log[:-1]) != compact_json(current["log"]) \
                or not isinstance(log[-1], dict) or not isinstance(log[-1].get("action"), dict) or log[-1]["action"].get("do") not in LOGGED:
            raise InputError(f"{where} does not bring back one more entry of the season's log.", "state")
        try:
            made, _, _ = apply_action({**current, "redo": []}, log[-1]["action"])
        except InputError as err:
            raise InputError(f"{where} cannot be replayed: {err}", "state") from None
        if _sorted_json({**after, "undo": [], "redo": []}) != _sorted_json({**made, "undo": [], "redo": []}):
            raise InputError(f"{where} does not match what its own action makes.", "state")
        current = {**made, "redo": list(given[:i])}
    return [Record(change=copy.deepcopy(r["change"])) for r in given]


def _sorted_json(value: object) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _mismatch(where: tuple[str, object, object]) -> str:
    path, given, built = where
    return f"The saved season does not match its own log: {path} is {_shown(given)}, but the log gives {_shown(built)}."


def _difference(given: object, built: object, path: str) -> tuple[str, object, object] | None:
    """The first place `given` differs from `built` (path, given, built); the walk follows `built`, so it stays shallow."""
    if isinstance(built, dict):
        if not isinstance(given, dict):
            return path, given, built
        for key in list(built) + [k for k in given if k not in built]:
            if key not in given or key not in built:
                return f"{path}/{key}", given.get(key, "missing"), built.get(key, "missing")
            found = _difference(given[key], built[key], f"{path}/{key}")
            if found:
                return found
        return None
    if isinstance(built, list):
        if not isinstance(given, list) or len(given) != len(built):
            return path, given, built
        for i, (g, b) in enumerate(zip(given, built)):
            found = _difference(g, b, f"{path}/{i}")
            if found:
                return found
        return None
    if type(given) is not type(built) or given != built:
        return path, given, built
    return None


def _shown(value: object) -> str:
    if isinstance(value, (dict, list)):
        return _kind(value)
    return quote(value, 40) if isinstance(value, str) else str(value) if value is not None else "empty"


def _kind(value: object) -> str:
    return {dict: "an object", list: "a list", str: "text", bool: "true or false", type(None): "empty"}.get(type(value), "a number")


def _as_of_now(action: object) -> object:
    """An action of version 1 as this version reads it. Version 1 kept no Vote
    Pool and checked no votes against one (rpgdl.ruling.vote-pool came with
    version 2): a Weekend replays with each player's pool at the ruling's 10,
    or at the votes the player spent when that was more, so a season played
    then still opens as it was played."""
    if not isinstance(action, dict) or action.get("do") != "weekend" or "vote_pools" in action:
        return action
    pools = {}
    for who in PLAYERS:
        rows = action.get(who)
        spent = sum(_votes(row) for row in rows) if isinstance(rows, list) else 0
        pools[who] = min(VOTE_POOL_MAX, max(DEFAULT_VOTE_POOL, spent))
    return {**action, "vote_pools": pools}


def _votes(row: object) -> int:
    """A row's votes as typed, or 0 where they are not a plain number (the replay says what is wrong)."""
    value = str(row.get("votes", "") if isinstance(row, dict) else "").strip()
    return int(value) if value.isdigit() and len(value) <= 6 else 0
