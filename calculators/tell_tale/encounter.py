"""The Tell-Tale encounter tracker: a whole fight, kept as JSON-ready state.

`encounter_step(state, action, rng)` is a pure function: it applies one
action (a dict whose "do" names one of ACTIONS) to a copy of the state and
returns the new state and a `types.Report` (what happened, the dice, the rule IDs; no odds).
Each action is declared once, with its handler, in `encounter_actions.SPECS`;
here is the step around it: the action checked against its declaration, its
handler run on a copy, every combatant derived again, the state checked, and
the log entry and the undo record written. The roster is in
`encounter_roster`, the turns and steps in `encounter_turns`, the fighting in
`encounter_fight` and `encounter_effects`; the state's shape in
`encounter_state`.

Every action is one log entry with the rules it applied, and one undo
record that restores the exact state before it (tests/test_encounter.py).
"""

from __future__ import annotations

import random
from typing import Any, cast

from ..checks import Action, InputError
from ..history import Kept, Record, state_length, undo_record
from ..types import Report
from .encounter_actions import ACTION_SPECS, check, published
from .encounter_chances import derive_chances
from .encounter_fight import Act
from .encounter_roster import BY_ACTION_ONLY, SUMMONS_ONLY
from .party import TRACKER as PARTY_TRACKER
from .encounter_state import (
    GM_ONLY, KEYWORDS, KINDS, LOG_CAP, MAX_DETAILS, MAX_TEXT, SETTINGS, STATE_BUDGET, SIDES, STATUSES, STEP_LABELS, STEP_RULES, STEPS, UNDO_CAP,
    USUAL_SIDES, Combatant, Encounter, check_core, clone, derive, foes_standing, new_encounter,
)

def vocabulary() -> dict[str, Any]:
    """What the encounter page draws with (rulebook/render.py publishes it): the house rulings it follows,
    the keywords and kinds by name (as a menu writes them), each status as a card marks it (a standing
    combatant is not marked), the steps of a turn with the rule of each, the other actions' menu and the
    statuses the GM may set by hand, the party tracker's name; and every action as declared (encounter_actions.published): the page
    draws its action form from these."""
    return {
        "settings": list(SETTINGS),
        "keywords": [list(k) for k in KEYWORDS.items()],
        "kinds": [[k, label[0].upper() + label[1:]] for k, label in KINDS.items()],
        "sides": [list(k) for k in SIDES.items()], "usual_sides": dict(USUAL_SIDES),
        "marks": {k: "" if k == "standing" else label.removesuffix(" (tapped)") for k, label in STATUSES.items()},
        "steps": [[step, STEP_LABELS[step], STEP_RULES[step]] for step in STEPS],
        "actions": published(),
        # The statuses an edit may set: [status, its name, for summons only].
        "edit_statuses": [[k, label[0].upper() + label[1:], k in SUMMONS_ONLY] for k, label in STATUSES.items() if k not in BY_ACTION_ONLY],
        "party": PARTY_TRACKER,  # the party tracker's name: the fight's end keeps the party into it
    }


def links(encounter: Encounter) -> tuple[tuple[object, str], ...]:
    """What a share link of the fight carries (Tracker.links): the whole of it, or, when that is too long for a link,
    the fight without its undo and redo history."""
    return ((encounter, ""), ({**encounter, "undo": [], "redo": []}, "It leaves out the undo and redo history, to fit."))


ACTIONS = tuple(ACTION_SPECS)  # every action declared (encounter_actions.SPECS)


# ---------------------------------------------------------------- one step


def _size(state: Encounter) -> int:
    """The state's length as the page keeps it (JSON.stringify's compact form), its records' texts reused."""
    return state_length(state)


def _clip(text: str) -> str:
    return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 1] + "…"



def _marks(c: Combatant) -> list[str]:
    return [STATUSES[c["status"]].removesuffix(" (tapped)"), c["health"], "poisoned" if c["poisoned"] else "not poisoned"]


def changes(before: Encounter, after: Encounter) -> str:
    """What a step changed, in one line that leads its details: each combatant's Toughness, Vitality and -1/-1
    counters as they went ("Kara: T 3 → 0, V 15 → 12"), and a status, health or poison that came or went.
    Nobody added or removed (the headline says those); "" when no number or mark changed."""
    old = {c["id"]: c for c in before["combatants"]}
    said = []
    for c in after["combatants"]:
        o = old.get(c["id"])
        if o is None:
            continue
        moved = [f"{label} {o[key]} → {c[key]}" for key, label in (("toughness_now", "T"), ("vitality", "V"), ("counters", "−1/−1")) if o[key] != c[key]]  # type: ignore[literal-required]
        moved += [new for was, new in zip(_marks(o), _marks(c), strict=True) if was != new]
        if moved:
            said.append(f"{c['name']}: {', '.join(moved)}")
    return f"Changed: {'; '.join(said)}." if said else ""


def encounter_step(state: Encounter, action: Action, rng: random.Random | None = None) -> tuple[Encounter, Report]:
    """Apply one action to a checked state; the new state and what happened."""
    if not isinstance(action, dict) or action.get("do") not in ACTIONS:
        raise InputError(f"The encounter knows these actions: {', '.join(ACTIONS)}.", "action")
    spec = check(action)  # its fields as its declaration has them (encounter_actions)
    if not spec.records:  # undo, redo, show: the state as it is, or as the history has it
        return cast("tuple[Encounter, Report]", spec.handler(state))
    bare: Encounter = {**state, "undo": [], "log": [], "redo": []}  # a new step: nothing undone is done again
    act = Act({**clone(bare), "log": state["log"]}, rng)  # no handler changes the log: it is not copied
    act.needs = spec.needs
    spec.handler(act, action)
    s = act.state
    for c in s["combatants"]:
        derive(c, s["settings"])
    s["foes_standing"] = foes_standing(s)
    derive_chances(s)
    try:  # a step must never make a fight the check of a saved one refuses: it would be lost at the next reload
        check_core({**s, "log": [], "log_start": 0, "undo": []})
    except InputError as err:
        raise InputError(f"That was not done: the tracker could not keep the fight it makes ({str(err).rstrip('.')}). Nothing has changed.", "action") from None
    rules = tuple(dict.fromkeys(act.rules))
    changed = changes(state, s)
    details = tuple(_clip(d) for d in ([changed] if changed else []) + act.details[: MAX_DETAILS - 1])
    entry = Record(n=s["log_start"] + len(s["log"]) + 1, round=s["round"], text=_clip(act.headline), details=list(details),
                   rules=list(rules), dice=dict(act.dice), **({"gm": True} if action["do"] in GM_ONLY else {}))
    # The log and the undo records grow as Kept lists: what a step did to them, and their length, are read
    # from the items dropped and added, however long the fight (history.Kept).
    s["log"] = Kept.grown(state["log"], [entry], LOG_CAP)
    s["log_start"] += len(state["log"]) + 1 - len(s["log"])
    s["undo"] = Kept.grown(state["undo"], [undo_record(state, s)], UNDO_CAP)
    size = _size(s)  # measured again only while something is dropped
    while s["undo"] and size > STATE_BUDGET:
        s["undo"] = Kept.grown(s["undo"], [], len(s["undo"]) - 1)
        size = _size(s)
    while len(s["log"]) > 1 and size > STATE_BUDGET:
        s["log"], s["log_start"] = Kept.grown(s["log"], [], len(s["log"]) - 1), s["log_start"] + 1
        size = _size(s)
    return s, Report(act.outcome or action["do"], entry["text"], details, rules, dice=dict(act.dice))


def run_script(steps: list[Any], state: Encounter | None = None) -> Encounter:
    """Apply a list of (action, seed) from a new encounter (or `state`): for tests and the command line."""
    s = state or new_encounter()
    for action, seed in steps:
        s, _ = encounter_step(s, action, random.Random(seed) if seed is not None else None)
    return s

