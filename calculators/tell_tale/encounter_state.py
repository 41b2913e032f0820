"""The Tell-Tale encounter tracker's state: its shape, its limits and its check.

A fight is plain JSON-ready data (dicts, lists, strings, whole numbers), so
the page can keep it on the device, export it and put it in a link. This
module says what a valid state is (`check_encounter`: anything from outside
is checked here, field by field, with a sentence naming what is wrong), what
a new one is (`new_encounter`), the numbers derived from the stored ones
(`derive`), and how version 1's undo records are read (version 2's are
history.undo_record's, as every tracker's). The actions themselves are in
`encounter` and `encounter_fight`.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping
from typing import Any, cast

from ..checks import UNSAFE, InputError, check_name, quote, shown
from ..history import Kept, Record, records, redone, undo_record, undone
from .combat import SITUATION_CHOICES, attack_conditions, haste_speed, power_after_counters
from .encounter_chances import check_moved, derive_chances
from .encounter_types import Combatant as Combatant, Encounter as Encounter, Movement as Movement
from .encounter_words import (  # re-exported: the tracker's modules import these from here too
    KINDS as KINDS,
    HOLDERS as HOLDERS,
    SIDES as SIDES,
    USUAL_SIDES as USUAL_SIDES,
    KEYWORDS as KEYWORDS,
    STATUSES as STATUSES,
    TAPPED as TAPPED,
    GONE as GONE,
    STEPS as STEPS,
    NOTHING_TO_DECIDE as NOTHING_TO_DECIDE,
    STEP_LABELS as STEP_LABELS,
    STEP_RULES as STEP_RULES,
    PHASES as PHASES,
    ORDER_BY as ORDER_BY,
    ACTIONS_PER_TURN as ACTIONS_PER_TURN,
    MODE_DICE as MODE_DICE,
    MAX_HAND as MAX_HAND,
    GM_ONLY as GM_ONLY,
    SETTINGS as SETTINGS,
    DEFAULT_SETTINGS as DEFAULT_SETTINGS,
    LATER_SETTINGS as LATER_SETTINGS,
    RULES as RULES,
    MAX_COMBATANTS as MAX_COMBATANTS,
    MAX_STAT as MAX_STAT,
    MAX_ROUND as MAX_ROUND,
    MAX_ID as MAX_ID,
    LOG_CAP as LOG_CAP,
    UNDO_CAP as UNDO_CAP,
    MAX_TEXT as MAX_TEXT,
    MAX_DETAILS as MAX_DETAILS,
    STATE_BUDGET as STATE_BUDGET,
    ID as ID,
    RULE_ID as RULE_ID,
)

TRACKER = "tell_tale.encounter"
VERSION = 2  # 2: an undo record is the reverse patch of history.py; version 1 kept prior values and combatants by index



STATE_KEYS = ("tracker", "version", "settings", "combatants", "next_id", "order_by", "order", "phase", "round", "turn", "step", "log", "log_start", "undo")
DERIVED = ("power_now", "speed_now", "health", "band", "toughness_full", "in_fight", "attack_rolls", "chances")
STATE_DERIVED = ("foes_standing",)  # the encounter's own derived fields: recomputed by every check and step, never read from outside
# Stored fields added after version 1: a state saved without them reads them as false (landed, doubled, mount, ridden) or none (moved, hand, ranged)
LATER = ("landed", "moved", "doubled", "hand", "mount", "ridden", "ranged")
STORED = tuple(k for k in Combatant.__annotations__ if k not in DERIVED + LATER)
LABELS = {
    "id": "id", "name": "name", "kind": "kind", "side": "side", "owner": "owner", "token": "token", "planeswalker": "planeswalker",
    "power": "Power", "toughness": "Toughness", "toughness_now": "Toughness left", "vitality": "Vitality",
    "max_vitality": "full Vitality", "speed": "Speed", "initiative": "Initiative", "keywords": "keywords",
    "counters": "-1/-1 counters", "poisoned": "poisoned", "boost": "planeswalker Toughness change", "ability_used": "ability used",
    "status": "status", "detained_by": "detained by", "actions": "actions left", "landed": "landed", "moved": "movement",
    "doubled": "Double Strike's rolls made this turn", "hand": "cards in hand", "mount": "kept as a mount", "ridden": "ridden",
    "ranged": "ranged attack",
}


# ---------------------------------------------------------------- new and derived


def new_encounter(settings: dict[str, Any] | None = None) -> Encounter:
    """An empty encounter with the site's rulings (or `settings`, checked)."""
    state: Encounter = {
        "tracker": TRACKER, "version": VERSION, "settings": dict(DEFAULT_SETTINGS), "combatants": [], "next_id": 1,
        "order_by": "initiative", "order": [], "phase": "setup", "round": 0, "turn": 0, "step": None,
        "log": [], "log_start": 0, "undo": [], "foes_standing": 0, "redo": [],  # the order check_encounter gives
    }
    if settings is not None:
        state["settings"] = check_settings({**DEFAULT_SETTINGS, **settings})
    return state


def derive(c: Combatant, settings: dict[str, Any]) -> Combatant:
    """The combatant with its derived numbers filled in (in place, and returned)."""
    c["power_now"] = power_after_counters(c["power"], c["counters"])
    c["speed_now"] = haste_speed(c["speed"], rounding=settings["rounding"]) if "haste" in c["keywords"] else c["speed"]
    c["health"] = "conscious" if c["vitality"] > 0 else "unconscious" if c["vitality"] == 0 else "dead"
    c["band"] = band(c)
    c["toughness_full"] = c["toughness"] + max(0, c["boost"])  # a planeswalker's raised Toughness counts until its next turn
    # can act, and is worth striking; a mount only while ridden (tt.character.mount)
    c["in_fight"] = c["status"] not in GONE and c["vitality"] > 0 and (c["ridden"] or not c["mount"])
    c["attack_rolls"] = attack_rolls(c, settings)
    c["chances"] = {}  # the attacks of opportunity open to it: the whole state's (encounter_chances.derive_chances)
    return c


def attack_rolls(c: Combatant, settings: dict[str, Any]) -> dict[str, str]:
    """What `c`'s attack roll is in each situation an attack may be made in (SITUATION_CHOICES), told for a player
    with the dice it takes, when Haste, poison or being tapped changes it (combat.attack_conditions, as the attack
    itself is rolled: encounter_fight.attack_mode); {} when the situation alone decides. The action form says it
    before the roll."""
    haste, poisoned, tapped = "haste" in c["keywords"], c["poisoned"], c["status"] in TAPPED
    if not (haste or poisoned or tapped):
        return {}
    out = {}
    for situation, _ in SITUATION_CHOICES:
        cond = attack_conditions(situation=situation, haste=haste, poisoned=poisoned, tapped=tapped, both=settings["both"])
        roll = f"{c['name']}'s attack"
        out[situation] = f"{cond.sentence(roll) or f'{roll} is a normal roll.'} {MODE_DICE[cond.mode]}"
    return out


def foes_standing(s: Encounter) -> int:
    """How many on the foes' side are still in the fight (each one's derived `in_fight`: conscious, not
    exiled or dispelled). When none stands while a fight runs, the page offers End beside Next."""
    return sum(1 for c in s["combatants"] if c["side"] == "foes" and c["in_fight"])


def current_step(s: Encounter) -> str:
    """The step of the turn under way: a fight under way always has one (check_core)."""
    if s["step"] is None:
        raise InputError("The fight has not started.", "action")
    return s["step"]


BANDS = ("unhurt", "hurt", "badly hurt", "down")


def band(c: Combatant) -> str:
    """How hurt a combatant looks, in a word, for the players' view, which shows foes without their numbers:
    down (Vitality 0 or below: unconscious or dead, tt.stats.vitality), badly hurt (Vitality at half its full
    value or below), hurt (any Toughness, Vitality or -1/-1 counter lost), unhurt."""
    if c["vitality"] <= 0:
        return "down"
    if 2 * c["vitality"] <= c["max_vitality"]:
        return "badly hurt"
    if c["toughness_now"] < c["toughness"] or c["vitality"] < c["max_vitality"] or c["counters"]:
        return "hurt"
    return "unhurt"


def by_id(state: Encounter, cid: object, field: str = "id") -> Combatant:
    """The combatant with this id, or InputError naming the field."""
    for c in state["combatants"]:
        if c["id"] == cid:
            return cast("Combatant", c)
    raise InputError(f"There is no combatant {quote(cid)} in this encounter.", field)


def clone[T: (Encounter, list[Any])](state: T) -> T:
    return cast("T", json.loads(json.dumps(state)))


# ---------------------------------------------------------------- checks


class StoredFieldError(InputError):
    """A combatant's stored number at fault (`key`): the add and edit forms mark the field that typed it."""

    def __init__(self, message: str, key: str):
        super().__init__(message, "state")
        self.key = key


def _whole(value: object, what: str, lo: int, hi: int, key: str | None = None) -> int:
    def fault(message: str) -> InputError:
        return StoredFieldError(message, key) if key else InputError(message, "state")

    if isinstance(value, bool) or not isinstance(value, int):
        raise fault(f"{what} must be a whole number; got {quote(shown(value) if not isinstance(value, str) else value)}.")
    if not lo <= value <= hi:
        raise fault(f"{what} must be from {lo} to {hi}; got {shown(value)}.")
    return value


def _flag(value: object, what: str) -> bool:
    if not isinstance(value, bool):
        raise InputError(f"{what} must be true or false; got {quote(value)}.", "state")
    return value


def _choice(value: object, what: str, allowed: Collection[str]) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise InputError(f"{what} must be one of {', '.join(allowed)}; got {quote(value)}.", "state")
    return value


def _keys(raw: object, want: tuple[str, ...], what: str, optional: tuple[str, ...] = ()) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise InputError(f"{what} must be a JSON object.", "state")
    unknown = [k for k in raw if k not in want and k not in optional]
    if unknown:
        raise InputError(f"{what} has a field {quote(unknown[0])} the tracker does not know.", "state")
    missing = [k for k in want if k not in raw]
    if missing:
        raise InputError(f"{what} has no {LABELS.get(missing[0], missing[0])} ({missing[0]}).", "state")
    return raw


def check_keywords(value: object, what: str) -> list[str]:
    if not isinstance(value, list) or len(value) > len(KEYWORDS):
        raise InputError(f"{what}: keywords must be a list of at most {len(KEYWORDS)}.", "keywords")
    for k in value:
        if not isinstance(k, str) or k not in KEYWORDS:
            raise InputError(
                f"{what}: the tracker knows no keyword {quote(k)}; it knows {', '.join(KEYWORDS)} "
                "(a keyword of no Tell-Tale effect does nothing: tt.mechanics.unlisted).", "keywords")
    return [k for k in KEYWORDS if k in value]  # one each, in the glossary's order


def check_settings(raw: object) -> dict[str, Any]:
    raw = _keys(raw, tuple(k for k in SETTINGS if k not in LATER_SETTINGS), "The settings", optional=LATER_SETTINGS)
    return {name: _choice(raw.get(name, DEFAULT_SETTINGS[name]), f"The setting {name}", choices) for name, choices in SETTINGS.items()}


def check_combatant(raw: object, n: int, settings: dict[str, Any]) -> Combatant:
    """One combatant's stored fields, checked alone; the derived ones recomputed."""
    raw = _keys(raw, STORED, f"Combatant {n}", optional=DERIVED + LATER)
    if not isinstance(raw["id"], str) or not ID.fullmatch(raw["id"]):
        raise InputError(f"Combatant {n} has the id {quote(raw['id'])}; ids are c1 to c{MAX_ID}.", "state")
    who = f"Combatant {n} ({check_name(raw['name'], f'Combatant {n} name')})"
    c: dict[str, Any] = {"id": raw["id"], "name": check_name(raw["name"], f"Combatant {n} name")}
    c["kind"] = _choice(raw["kind"], f"{who}: the kind", tuple(KINDS))
    c["side"] = _choice(raw["side"], f"{who}: the side", tuple(SIDES))
    owner = raw["owner"]
    if c["kind"] in HOLDERS:
        if owner is not None:
            raise InputError(f"{who} is a {KINDS[c['kind']]}, which has no owner; got {quote(owner)}.", "state")
    elif not isinstance(owner, str) or not ID.fullmatch(owner):
        raise InputError(f"{who} is a {c['kind']} and needs the id of the PC or NPC it belongs to; got {quote(owner)}.", "state")
    c["owner"] = owner
    c["token"] = _flag(raw["token"], f"{who}: token")
    c["planeswalker"] = _flag(raw["planeswalker"], f"{who}: planeswalker")
    if c["token"] and c["kind"] != "summon":
        raise InputError(f"{who}: only a summon can be a creature token.", "state")
    if c["planeswalker"] and c["kind"] != "pc":
        raise InputError(f"{who}: only a PC can be a planeswalker.", "state")
    for key in ("power", "toughness", "speed", "counters"):
        c[key] = _whole(raw[key], f"{who}: {LABELS[key]}", 0, MAX_STAT, key)
    c["max_vitality"] = _whole(raw["max_vitality"], f"{who}: full Vitality", 0, MAX_STAT, "max_vitality")
    c["vitality"] = _whole(raw["vitality"], f"{who}: Vitality", -MAX_STAT, MAX_STAT, "vitality")
    c["boost"] = _whole(raw["boost"], f"{who}: the planeswalker Toughness change", -MAX_STAT, MAX_STAT)
    if c["boost"] and not c["planeswalker"]:
        raise InputError(f"{who}: only a planeswalker's ability changes Toughness until its next turn.", "state")
    top = c["toughness"] + max(0, c["boost"])
    c["toughness_now"] = _whole(raw["toughness_now"], f"{who}: Toughness left", 0, top, "toughness_now")
    c["initiative"] = None if raw["initiative"] is None else _whole(raw["initiative"], f"{who}: Initiative", 0, MAX_STAT, "initiative")
    if c["initiative"] is not None and c["kind"] not in HOLDERS:
        raise InputError(f"{who} acts in its owner's turn and has no Initiative of its own (tt.ruling.summon-turns).", "state")
    c["keywords"] = check_keywords(raw["keywords"], who)
    # tt.ruling.flying-reach: a flyer that attacked something on the ground is open to ground forces until its next turn
    c["landed"] = _flag(raw.get("landed", False), f"{who}: landed") and "flying" in c["keywords"]
    c["poisoned"] = _flag(raw["poisoned"], f"{who}: poisoned")
    c["ability_used"] = _flag(raw["ability_used"], f"{who}: ability used")
    if c["ability_used"] and not c["planeswalker"]:
        raise InputError(f"{who}: only a planeswalker has an ability to use.", "state")
    c["status"] = _choice(raw["status"], f"{who}: the status", tuple(STATUSES))
    if c["status"] == "dispelled" and c["kind"] != "summon":
        raise InputError(f"{who}: only a summon can be dispelled; PCs, NPCs and familiars stay (tt.summoning.permanent).", "state")
    detainer = raw["detained_by"]
    if (c["status"] == "detained") != (detainer is not None):
        raise InputError(f"{who}: a detained character names who detains it, and only a detained one does.", "state")
    if detainer is not None and (not isinstance(detainer, str) or not ID.fullmatch(detainer) or detainer == c["id"]):
        raise InputError(f"{who}: detained by {quote(detainer)}, which is no other combatant's id.", "state")
    c["detained_by"] = detainer
    c["actions"] = _whole(raw["actions"], f"{who}: actions left", 0, ACTIONS_PER_TURN)
    c["moved"] = check_moved(raw.get("moved"), who, c["id"])  # tt.ruling.opportunity-movement
    # tt.ruling.double-strike, a table playing two rolls per turn in all: this turn's two are made
    c["doubled"] = _flag(raw.get("doubled", False), f"{who}: Double Strike's rolls made") and "double-strike" in c["keywords"]
    # tt.ruling.hand-tracking: a player's hand, counted once the GM gives it (None: not counted)
    c["hand"] = None if raw.get("hand") is None else _whole(raw["hand"], f"{who}: cards in hand", 0, MAX_HAND, "hand")
    if c["hand"] is not None and c["kind"] != "pc":
        raise InputError(f"{who}: only a PC's hand is counted (the GM's hand is not kept).", "state")
    # tt.character.familiar-or-mount: the GM keeps an animal companion as a familiar or as a mount; tt.character.mount: only a mount is ridden
    c["mount"] = _flag(raw.get("mount", False), f"{who}: kept as a mount")
    if c["mount"] and c["kind"] != "familiar":
        raise InputError(f"{who}: only an animal companion (a familiar) can be kept as a mount (tt.character.familiar-or-mount).", "state")
    c["ridden"] = _flag(raw.get("ridden", False), f"{who}: ridden")
    if c["ridden"] and not c["mount"]:
        raise InputError(f"{who}: only a mount is ridden; a familiar cannot be (tt.character.familiar).", "state")
    # tt.combat.equipment-changes-range: what its equipment last made its attack (None: the GM rules from its depiction)
    c["ranged"] = None if raw.get("ranged") is None else _flag(raw["ranged"], f"{who}: ranged attack")
    # Every stored field is set above, each checked; derive sets the derived ones (test_encounter checks the keys).
    return derive(cast("Combatant", c), settings)


def _check_log(raw: object, start: int) -> list[Record]:
    if not isinstance(raw, list) or len(raw) > LOG_CAP:
        raise InputError(f"The action log must be a list of at most {LOG_CAP} entries.", "state")
    out = []
    for i, e in enumerate(raw):
        what = f"Log entry {start + i + 1}"
        e = _keys(e, ("n", "round", "text", "details", "rules", "dice"), what, optional=("gm",))
        if e["n"] != start + i + 1 or isinstance(e["n"], bool):
            raise InputError(f"{what} is numbered {quote(e['n'])}; entries count up from 1 without gaps.", "state")
        entry = {"n": e["n"], "round": _whole(e["round"], f"{what}: round", 0, MAX_ROUND)}
        texts = [e["text"]] + (e["details"] if isinstance(e["details"], list) else [None])
        if len(texts) > MAX_DETAILS + 1 or not all(isinstance(t, str) and len(t) <= MAX_TEXT for t in texts):
            raise InputError(f"{what}: its text must be at most {MAX_DETAILS + 1} lines of at most {MAX_TEXT} characters.", "state")
        if any(UNSAFE.search(t) for t in texts):
            raise InputError(f"{what}: its text holds a control or direction character.", "state")
        entry["text"], entry["details"] = e["text"], list(e["details"])
        if not isinstance(e["rules"], list) or len(e["rules"]) > 40 or not all(isinstance(r, str) and r in RULES for r in e["rules"]):
            raise InputError(f"{what} cites a rule the tracker does not apply.", "state")
        entry["rules"] = list(e["rules"])
        dice = e["dice"]
        if not isinstance(dice, dict) or len(dice) > 40 or not all(
                isinstance(k, str) and isinstance(v, str) and len(k) <= 120 and len(v) <= 40 and not UNSAFE.search(k + v) for k, v in dice.items()):
            raise InputError(f"{what}: its dice must be at most 40 names with the numbers rolled.", "state")
        entry["dice"] = dict(dice)
        if "gm" in e:  # the GM's own change (GM_ONLY): not shown to the players; a log saved without it shows every entry
            if e["gm"] is not True:
                raise InputError(f"{what}: gm must be true when it is there.", "state")
            entry["gm"] = True
        out.append(Record(entry))
    return out


def check_core(raw: object) -> Encounter:
    """Everything but the undo records: checked, normalised, cross-checked."""
    raw = _keys(raw, STATE_KEYS, "The encounter", optional=("redo", *STATE_DERIVED))  # redo: checked with the undo records (check_encounter)
    if raw["tracker"] != TRACKER:
        raise InputError(f"This is not a Tell-Tale encounter (it says {quote(raw['tracker'])}).", "state")
    if isinstance(raw["version"], bool) or not isinstance(raw["version"], int):
        raise InputError(f"The encounter's version must be a whole number; got {quote(raw['version'])}.", "state")
    if raw["version"] != VERSION:
        raise InputError(f"This encounter was saved in version {shown(raw['version'])}; this tracker reads version {VERSION}.", "state")
    settings = check_settings(raw["settings"])
    cs = raw["combatants"]
    if not isinstance(cs, list):
        raise InputError("The combatants must be a list.", "state")
    if len(cs) > MAX_COMBATANTS:
        raise InputError(f"An encounter holds at most {MAX_COMBATANTS} combatants; this one has {len(cs)}.", "state")
    combatants = [check_combatant(c, i + 1, settings) for i, c in enumerate(cs)]
    ids = [c["id"] for c in combatants]
    if len(set(ids)) != len(ids):
        raise InputError("Two combatants have the same id.", "state")
    kinds = {c["id"]: c["kind"] for c in combatants}
    for c in combatants:
        if c["owner"] is not None and kinds.get(c["owner"]) not in HOLDERS:
            raise InputError(f"{c['name']} belongs to {quote(c['owner'])}, which is no PC or NPC of this encounter.", "state")
        if c["detained_by"] is not None and c["detained_by"] not in kinds:
            raise InputError(f"{c['name']} is detained by {quote(c['detained_by'])}, who is not in this encounter.", "state")
        gone = [i for i in (c["moved"]["near"] + c["moved"]["over"] if c["moved"] else []) if i not in kinds]
        if gone:
            raise InputError(f"{c['name']}'s movement names {quote(gone[0])}, who is not in this encounter.", "state")
    next_id = _whole(raw["next_id"], "The next id", 1, MAX_ID + 1)
    if any(int(i[1:]) >= next_id for i in ids):
        raise InputError("The next id must be above every combatant's id.", "state")
    order_by = _choice(raw["order_by"], "The turn order", ORDER_BY)
    order = raw["order"]
    holders = [c["id"] for c in combatants if c["kind"] in HOLDERS]
    if not isinstance(order, list) or sorted(order, key=str) != sorted(holders):
        raise InputError("The turn order must list every PC and NPC once, and nobody else.", "state")
    phase = _choice(raw["phase"], "The phase", PHASES)
    rnd = _whole(raw["round"], "The round", 0, MAX_ROUND)
    turn = _whole(raw["turn"], "The turn", 0, MAX_COMBATANTS)
    step = raw["step"]
    if phase == "combat":
        if not order or rnd < 1 or turn >= len(order) or step not in STEPS:
            raise InputError("A fight under way has a round from 1, a turn within the order and one of the five steps.", "state")
    elif step is not None or turn != 0 or (phase == "setup" and rnd != 0):
        raise InputError("Before and after the fight there is no turn or step.", "state")
    log_start = _whole(raw["log_start"], "The number of log entries dropped", 0, 10**9)
    log = _check_log(raw["log"], log_start)
    state: Encounter = {
        "tracker": TRACKER, "version": VERSION, "settings": settings, "combatants": combatants, "next_id": next_id,
        "order_by": order_by, "order": list(order), "phase": phase, "round": rnd, "turn": turn, "step": step,
        "log": log, "log_start": log_start, "undo": [], "foes_standing": 0,
    }
    state["foes_standing"] = foes_standing(state)
    derive_chances(state)
    return state


# ---------------------------------------------------------------- undo records


def _restore_version_1(state: Mapping[str, Any], record: object) -> dict[str, Any]:
    """Version 1's undo record applied: the top-level values it changed, the combatants it changed by index
    and the log entries the step pushed out. Read only to bring a fight saved then to version 2."""
    if not isinstance(record, dict) or set(record) != {"prior", "patch", "trimmed"}:
        raise InputError("An undo record has the wrong shape.", "state")
    prior, patch, trimmed = record["prior"], record["patch"], record["trimmed"]
    if not isinstance(prior, dict) or not set(prior) <= set(STATE_KEYS) - {"log", "undo", "tracker", "version"}:
        raise InputError("An undo record changes a field it cannot.", "state")
    if not isinstance(patch, dict) or not isinstance(trimmed, list) or (not state["log"] and not trimmed):
        raise InputError("An undo record has the wrong shape.", "state")
    out: dict[str, Any] = {**state, **prior, "undo": state["undo"][:-1]}
    if patch:
        combatants = list(out["combatants"])
        for key, c in patch.items():
            if not isinstance(key, str) or not key.isdigit() or len(key) > 3 or int(key) >= len(combatants):
                raise InputError("An undo record names a combatant that is not there.", "state")
            combatants[int(key)] = c
        out["combatants"] = combatants
    out["log"] = trimmed + state["log"][:-1]
    return out


def check_encounter(raw: object) -> Encounter:
    """A state from outside (storage, a file, a link), checked with its undo records.

    Each undo record is applied in turn and the state before it checked as
    well, so an undo never brings back anything that is not a valid state.
    """
    first = isinstance(raw, dict) and raw.get("version") == 1 and not isinstance(raw.get("version"), bool)
    state = check_core({**raw, "version": VERSION} if first and isinstance(raw, dict) else raw)
    assert isinstance(raw, dict)  # check_core accepts only a JSON object
    raw_records = raw["undo"]
    if not isinstance(raw_records, list) or len(raw_records) > UNDO_CAP:
        raise InputError(f"The undo history must be a list of at most {UNDO_CAP} steps.", "state")
    current: dict[str, Any] = {**state, "undo": list(raw_records)}
    chain: list[Mapping[str, Any]] = [state]
    for i in range(len(raw_records) - 1, -1, -1):
        try:
            current = {**check_core((_restore_version_1 if first else undone)(current, raw_records[i])), "undo": raw_records[:i]}
        except InputError as err:
            raise InputError(f"Undo step {i + 1} of {len(raw_records)} does not lead back to a valid encounter: {err}", "state") from None
        chain.append(current)
    if first:  # a fight saved by version 1: the same steps undone, their records written as version 2 writes them
        state["undo"] = [undo_record(chain[j + 1], chain[j]) for j in range(len(chain) - 2, -1, -1)]
    else:
        state["undo"] = records(clone(raw_records))
    state["redo"] = _check_redo(state, raw.get("redo", []))
    # As Kept lists, the next step finds what it did to the log and the undo records from what it added and dropped
    state["log"], state["undo"] = Kept(state["log"]), Kept(state["undo"])
    return state


def _check_redo(state: Encounter, given: object) -> list[Record]:
    """The redo records of a checked fight (a fight saved before redo has none): each applied in turn, and
    the fight it brings back checked as any state, so a redo never brings back anything that is not valid."""
    if not isinstance(given, list) or len(given) > UNDO_CAP:
        raise InputError(f"The redo history must be a list of at most {UNDO_CAP} steps.", "state")
    current: dict[str, Any] = {**state, "redo": list(given)}
    for i in range(len(given) - 1, -1, -1):
        try:
            after = redone(current, given[i])
            checked = check_core({**after, "undo": [], "redo": []})
        except InputError as err:
            raise InputError(f"Redo step {len(given) - i} of {len(given)} does not lead to a valid encounter: {err}", "state") from None
        if checked["log_start"] + len(checked["log"]) != current["log_start"] + len(current["log"]) + 1:
            raise InputError(f"Redo step {len(given) - i} of {len(given)} does not bring back one step of the log.", "state")
        current = {**checked, "undo": after["undo"], "redo": after["redo"]}
    return records(clone(given))
