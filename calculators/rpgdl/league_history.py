"""Undo and Redo of a season: the trackers' one design (history.py).

Each step keeps the reverse patch back to the season before it, for its
last UNDO_CAP steps; past them, undo replays the log less its last entry.
An undo keeps the step it took back as a redo record, for the last
UNDO_CAP undone, until a new action clears them (league.apply_action).
"""

from __future__ import annotations

from ..checks import InputError
from ..history import redone, undone, undone_for_redo
from .league import UNDO_CAP, Season, replay

__all__ = ["undo", "redo"]


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
