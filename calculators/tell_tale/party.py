"""A Tell-Tale party kept between encounters: its players' characters, their levels and lands.

Tell-Tale is a campaign: the party goes from fight to fight with its Vitality,
-1/-1 counters and poison (tt.stats.vitality-no-regeneration,
tt.ruling.counters-after-combat) and levels up together (tt.levels.level-up).
A party is plain JSON-ready data, kept on the device like a tracker's state:

- `check_party(raw)`: a party from outside (storage, a file, a link), every
  value checked, or InputError with one sentence naming the member and field;
- `party_step(party, action)`: "keep" (the PCs and companions of an encounter
  as they stand), "level_up" (each player's land, +1 stat and regeneration),
  "remove", "undo" and "show"; a pure function returning the new party and
  what happened;
- `check_members(raw)`: the members alone, as the encounter's "add_party"
  action takes them (encounter_campaign);
- `fight_mark(combatants)`: the mark of a fight's end that "keep" stores in
  the party, so the encounter's next step can tell a party kept from this
  very fight (and levelled up since) from one kept from an older fight.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any, TypedDict, cast

from ..checks import UNSAFE, Action, InputError, check_name, quote, shown
from ..history import Record, records, undo_record, undone
from ..types import ActionSpec, Param, Report, Tracker
from .characters import COMPANION_STATS, STARTING_LEVEL, STAT_LABELS, STATS, Stats, level_up
from .encounter_state import MAX_STAT, Combatant, check_combatant, check_keywords
from .encounter_words import DEFAULT_SETTINGS, MAX_COMBATANTS, MAX_HAND, MAX_TEXT

TRACKER = "tell_tale.party"
VERSION = 1
# The tool's limits, not the game's: a party of up to 8 players, levels up to 20, 20 lines of history, 10 undos.
MAX_MEMBERS = 8
MAX_LEVEL = 20
LOG_CAP = 20
UNDO_CAP = 10
MAX_PARTY_CHARS = 60_000  # a party's text from outside longer than this is refused unread (the runner)


class Companion(TypedDict):
    """A PC's animal companion as the party keeps it between fights."""

    name: str
    power: int
    toughness: int
    vitality: int
    max_vitality: int
    speed: int
    keywords: list[str]
    counters: int
    poisoned: bool
    exiled: bool
    mount: bool  # kept as a mount, not a familiar: the GM's choice (tt.character.familiar-or-mount); a party saved without it: a familiar


class Member(TypedDict):
    """One player's character as the party keeps it between fights (Toughness is full then: tt.stats.toughness-regeneration)."""

    name: str
    planeswalker: bool
    power: int
    toughness: int
    vitality: int
    max_vitality: int
    speed: int
    initiative: int | None
    keywords: list[str]
    counters: int
    poisoned: bool
    exiled: bool
    level: int
    lands: list[str]
    companion: Companion | None
    hand: int | None  # cards in the player's hand as the last fight left it (no draw or discard out of combat): None, not counted


class Party(TypedDict):
    """The party kept on the device: its members, the mark of the fight it was last kept from, its history and undo."""

    tracker: str
    version: int
    members: list[Member]
    fight: str | None  # fight_mark of the fight the party was last kept from; None: never kept from a fight
    log: list[str]
    undo: list[Record]


PARTY_KEYS = tuple(Party.__annotations__)
COMPANION_KEYS = tuple(Companion.__annotations__)
MEMBER_KEYS = tuple(Member.__annotations__)
# Fields added after version 1: a party saved without them reads them as these.
LATER: dict[str, Any] = {"hand": None, "fight": None, "mount": False}
LABELS = {"power": "Power", "toughness": "Toughness", "vitality": "Vitality", "max_vitality": "full Vitality", "speed": "Speed",
          "initiative": "Initiative", "counters": "-1/-1 counters", "level": "level", "hand": "cards in hand"}


def new_party() -> Party:
    return {"tracker": TRACKER, "version": VERSION, "members": [], "fight": None, "log": [], "undo": []}


# ---------------------------------------------------------------- checks


def _keys(raw: object, want: tuple[str, ...], what: str, field: str) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise InputError(f"{what} must be a JSON object.", field)
    unknown = [k for k in raw if k not in want]
    if unknown:
        raise InputError(f"{what} has a field {quote(unknown[0])} the party does not know.", field)
    missing = [k for k in want if k not in raw and k not in LATER]
    if missing:
        raise InputError(f"{what} has no {LABELS.get(missing[0], missing[0])} ({missing[0]}).", field)
    return {**{k: LATER[k] for k in want if k in LATER}, **raw}


def _whole(value: object, what: str, lo: int, hi: int, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f"{what} must be a whole number; got {quote(shown(value) if not isinstance(value, str) else value)}.", field)
    if not lo <= value <= hi:
        raise InputError(f"{what} must be from {lo} to {hi}; got {shown(value)}.", field)
    return value


def _flag(value: object, what: str, field: str) -> bool:
    if not isinstance(value, bool):
        raise InputError(f"{what} must be true or false; got {quote(value)}.", field)
    return value


def _stats(raw: dict[str, Any], who: str, field: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key in ("power", "toughness", "speed", "counters", "max_vitality"):
        out[key] = _whole(raw[key], f"{who}: {LABELS[key]}", 0, MAX_STAT, field)
    out["vitality"] = _whole(raw["vitality"], f"{who}: Vitality", -MAX_STAT, MAX_STAT, field)
    try:
        out["keywords"] = check_keywords(raw["keywords"], who)
    except InputError as err:
        raise InputError(str(err), field) from None
    out["poisoned"] = _flag(raw["poisoned"], f"{who}: poisoned", field)
    out["exiled"] = _flag(raw["exiled"], f"{who}: exiled", field)
    return out


def check_members(raw: object, field: str = "members") -> list[Member]:
    """The party's members, every value checked; a fault is one sentence naming the member and the field."""
    if not isinstance(raw, list) or len(raw) > MAX_MEMBERS:
        raise InputError(f"The party's members must be a list of at most {MAX_MEMBERS}.", field)
    out: list[Member] = []
    seen: set[str] = set()
    for i, m in enumerate(raw, 1):
        m = _keys(m, MEMBER_KEYS, f"Member {i}", field)
        name = check_name(m["name"], f"Member {i}'s name", field)
        who = f"Member {i} ({name})"
        if name.casefold() in seen:
            raise InputError(f"{who}: two members have this name; each player's character is in the party once.", field)
        seen.add(name.casefold())
        member: dict[str, Any] = {"name": name, "planeswalker": _flag(m["planeswalker"], f"{who}: planeswalker", field)}
        member |= _stats(m, who, field)
        member["initiative"] = None if m["initiative"] is None else _whole(m["initiative"], f"{who}: Initiative", 0, MAX_STAT, field)
        member["level"] = _whole(m["level"], f"{who}: the level", STARTING_LEVEL, MAX_LEVEL, field)
        lands = m["lands"]
        if not isinstance(lands, list) or len(lands) > member["level"]:
            raise InputError(f"{who}: the lands are a list of at most as many names as the level ({member['level']}, tt.levels.lands).", field)
        member["lands"] = [check_name(land, f"{who}: land {j}", field) for j, land in enumerate(lands, 1)]
        member["hand"] = None if m["hand"] is None else _whole(m["hand"], f"{who}: cards in hand", 0, MAX_HAND, field)
        comp = m["companion"]
        if comp is None:
            member["companion"] = None
        else:
            comp = _keys(comp, COMPANION_KEYS, f"{who}: the companion", field)
            cname = check_name(comp["name"], f"{who}: the companion's name", field)
            member["companion"] = {"name": cname, **_stats(comp, f"{who}: the companion ({cname})", field),
                                   "mount": _flag(comp["mount"], f"{who}: the companion ({cname}) kept as a mount", field)}
        member = {k: member[k] for k in MEMBER_KEYS}  # the stored order
        out.append(cast("Member", member))
    return out


def _check_log(raw: object) -> list[str]:
    if not isinstance(raw, list) or len(raw) > LOG_CAP or not all(isinstance(t, str) and len(t) <= MAX_TEXT and not UNSAFE.search(t) for t in raw):
        raise InputError(f"The party's history must be at most {LOG_CAP} lines of at most {MAX_TEXT} characters, with no control character.", "state")
    return list(raw)


# Where a file of another of the site's trackers opens, for the sentence that refuses it here.
OPENS_IN = {"tell_tale.encounter": "a Tell-Tale encounter: open it in the encounter tracker (Tell-Tale, Encounter tracker)",
            "rpgdl.season": "an RPGDL season: open it in the season tracker (RPGDL TCG, Season tracker)"}


def _check_core(raw: object) -> Party:
    tracker = raw.get("tracker") if isinstance(raw, dict) else None
    if isinstance(tracker, str) and tracker in OPENS_IN:
        raise InputError(f"This is {OPENS_IN[tracker]}, not a party.", "state")
    raw = _keys(raw, PARTY_KEYS, "The party", "state")
    if raw["tracker"] != TRACKER:
        raise InputError(f"This is not a Tell-Tale party (it says {quote(raw['tracker'])}).", "state")
    if isinstance(raw["version"], bool) or not isinstance(raw["version"], int):
        raise InputError(f"The party's version must be a whole number; got {quote(raw['version'])}.", "state")
    if raw["version"] != VERSION:
        raise InputError(f"This party was saved in version {shown(raw['version'])}; this page reads version {VERSION}.", "state")
    mark = raw["fight"]
    if mark is not None and not (isinstance(mark, str) and MARK.fullmatch(mark)):
        raise InputError("The party's mark of the fight it was kept from must be 16 hexadecimal digits, or null.", "state")
    return {"tracker": TRACKER, "version": VERSION, "members": check_members(raw["members"], "state"), "fight": mark,
            "log": _check_log(raw["log"]), "undo": []}


def check_party(raw: object) -> Party:
    """A party from outside, checked with its undo records: each undone in turn and the party before it checked too."""
    party = _check_core(raw)
    assert isinstance(raw, dict)  # _check_core accepts only an object
    raw_records = raw["undo"]
    if not isinstance(raw_records, list) or len(raw_records) > UNDO_CAP:
        raise InputError(f"The party's undo history must be a list of at most {UNDO_CAP} steps.", "state")
    current: dict[str, Any] = {**party, "undo": list(raw_records)}
    for i in range(len(raw_records) - 1, -1, -1):
        try:
            current = {**_check_core(undone(current, raw_records[i])), "undo": raw_records[:i]}
        except InputError as err:
            raise InputError(f"Undo step {i + 1} of {len(raw_records)} does not lead back to a valid party: {err}", "state") from None
    party["undo"] = records(json.loads(json.dumps(raw_records)))
    return party


# ---------------------------------------------------------------- steps


MARK = re.compile(r"[0-9a-f]{16}")


def fight_mark(combatants: list[Combatant]) -> str:
    """What "keep" would keep of these combatants (each PC and its companion as they stand), as 16 hex digits:
    equal marks, equal fights' ends."""
    pcs = [_member_of(c, combatants, None) for c in combatants if c["kind"] == "pc"]
    for m in pcs:  # a familiar is marked as before companions could be mounts, so a party kept then still knows its fight
        if m["companion"] and not m["companion"]["mount"]:
            del m["companion"]["mount"]
    return hashlib.sha256(json.dumps(pcs, sort_keys=True).encode()).hexdigest()[:16]


def _member_of(pc: Combatant, cs: list[Combatant], old: Member | None) -> dict[str, Any]:
    """The PC `pc` of the fight `cs` as the party keeps it: its level and lands from `old`, or the starting ones."""
    comp = next((c for c in cs if c["kind"] == "familiar" and c["owner"] == pc["id"]), None)  # one each (tt.character.companion)
    raw = {**_from_combatant(pc), "planeswalker": pc["planeswalker"], "initiative": pc["initiative"],
           "level": old["level"] if old else STARTING_LEVEL, "lands": list(old["lands"]) if old else [],
           "companion": {**_from_combatant(comp), "mount": comp["mount"]} if comp else None, "hand": pc.get("hand")}
    return {k: raw[k] for k in MEMBER_KEYS}


def _said(m: Member | Companion) -> str:
    marks = [f"{m['counters']} counter{'s' if m['counters'] != 1 else ''}"] * bool(m["counters"]) + ["poisoned"] * m["poisoned"]
    marks += ["dead"] * (m["vitality"] < 0) + ["exiled"] * m["exiled"]
    return f"{m['name']} Vitality {m['vitality']}/{m['max_vitality']}" + (f" ({', '.join(marks)})" if marks else "")


def _from_combatant(c: Combatant) -> dict[str, Any]:
    return {"name": c["name"], "power": c["power"], "toughness": c["toughness"], "vitality": c["vitality"], "max_vitality": c["max_vitality"],
            "speed": c["speed"], "keywords": list(c["keywords"]), "counters": c["counters"], "poisoned": c["poisoned"], "exiled": c["status"] == "exiled"}


def keep(party: Party, action: Action, out: list[str], rules: list[str]) -> str:
    """The encounter's PCs and each one's familiar, as they stand, into the party; a member already there keeps
    its level and lands, a new one starts at level 3; members not in this encounter stay as they were."""
    raw = action.get("combatants")
    if not isinstance(raw, list) or len(raw) > MAX_COMBATANTS:
        raise InputError(f"combatants: the encounter's combatants, a list of at most {MAX_COMBATANTS}.", "combatants")
    try:
        cs = [check_combatant(c, i + 1, dict(DEFAULT_SETTINGS)) for i, c in enumerate(raw)]
    except InputError as err:
        raise InputError(str(err), "combatants") from None
    pcs = [c for c in cs if c["kind"] == "pc"]
    if not pcs:
        raise InputError("This encounter has no PC to keep: add the party's characters first.", "combatants")
    members = list(party["members"])
    by_name = {m["name"].casefold(): i for i, m in enumerate(members)}
    new: list[Member] = []
    updated: list[Member] = []
    for pc in pcs:
        i = by_name.get(pc["name"].casefold())
        member = cast("Member", _member_of(pc, cs, members[i] if i is not None else None))
        if i is None:
            members.append(member)
            new.append(member)
        else:
            members[i] = member
            updated.append(member)
    if len(members) > MAX_MEMBERS:
        raise InputError(f"A party here holds at most {MAX_MEMBERS} players' characters; this would make {len(members)}.", "combatants")
    party["members"] = members
    party["fight"] = fight_mark(cs)
    if new:
        out.append(f"New in the party, at level {STARTING_LEVEL}: {', '.join(m['name'] for m in new)}.")
        rules.append("tt.levels.starting-level")
    kept = [_said(m) for m in new + updated] + [_said(c) for m in new + updated if (c := m["companion"])]
    out.append(f"As they stand: {'; '.join(kept)}.")
    rules += ["tt.stats.vitality-no-regeneration", "tt.ruling.counters-after-combat"]
    hands = [f"{m['name']} {m['hand']}" for m in new + updated if m["hand"] is not None]
    if hands:
        out.append(f"Cards in hand, kept as counted (no draw or discard out of combat): {', '.join(hands)}.")
        rules.append("tt.ruling.next-encounter-party")
    away = [m["name"] for m in members if m not in new and m not in updated]
    if away:
        out.append(f"Not in this encounter, kept as they were: {', '.join(away)}.")
    return f"The party is kept: {', '.join(m['name'] for m in members)}."


def _regenerate(m: Member | Companion) -> str:
    """tt.keyword.regenerate: full Vitality (never lowered, tt.ruling.vitality-above-full), no counters, no poison."""
    if m["vitality"] < 0 or m["exiled"]:
        return f"{m['name']} is {'dead' if m['vitality'] < 0 else 'exiled'}: regeneration does not bring it back (a return does)."
    m["vitality"], m["counters"], m["poisoned"] = max(m["vitality"], m["max_vitality"]), 0, False
    return ""


def level(party: Party, action: Action, out: list[str], rules: list[str]) -> str:
    """tt.levels.level-up for each player chosen: one land more, +1 to one stat (tt.ruling.level-up-stats), regenerate."""
    choices = action.get("choices")
    if not isinstance(choices, list) or not choices or len(choices) > MAX_MEMBERS:
        raise InputError(f"choices: one for each player who levels up (at most {MAX_MEMBERS}).", "choices")
    members = party["members"]
    by_name = {m["name"].casefold(): m for m in members}
    done: set[str] = set()
    raised = []
    for n, choice in enumerate(choices, 1):
        if not isinstance(choice, dict) or not {"member", "stat"} <= set(choice) or set(choice) - {"member", "stat", "land"}:
            raise InputError(f"Level-up choice {n}: a member, a stat and, if you like, the land's name.", "choices")
        m = by_name.get(str(choice["member"]).casefold()) if isinstance(choice["member"], str) else None
        if m is None:
            raise InputError(f"Level-up choice {n}: there is no member {quote(choice['member'])} in the party.", "choices")
        if m["name"] in done:
            raise InputError(f"{m['name']} levels up once at a time.", "choices")
        done.add(m["name"])
        if m["level"] >= MAX_LEVEL:
            raise InputError(f"{m['name']} is level {m['level']}: this page keeps levels up to {MAX_LEVEL}.", "choices")
        comp = m["companion"]
        stats = Stats(m["initiative"] or 0, m["max_vitality"], m["speed"], comp["max_vitality"] if comp else None, comp["speed"] if comp else None)
        try:
            up = level_up(m["level"], stats, choice["stat"])
        except InputError as err:
            raise InputError(f"{m['name']}: {err}", "choices") from None
        if up.raised == "initiative" and m["initiative"] is None:
            raise InputError(f"{m['name']} has no Initiative yet: give it one in the encounter before raising it.", "choices")
        land = choice.get("land")
        land = check_name(land, f"{m['name']}'s new land", "choices", empty=True) if land is not None else ""
        new_stats = up.stats
        m["level"] = up.level
        if land:
            m["lands"] = [*m["lands"], land]
        m["initiative"] = new_stats.initiative if m["initiative"] is not None else None
        m["max_vitality"], m["speed"] = new_stats.vitality, new_stats.speed
        if comp:
            comp["max_vitality"], comp["speed"] = cast("int", new_stats.companion_vitality), cast("int", new_stats.companion_speed)
        dead = [why for why in (_regenerate(m), _regenerate(comp) if comp else "") if why]
        who = comp["name"] if up.raised in COMPANION_STATS and comp else m["name"]
        label = STAT_LABELS[up.raised].removeprefix("PC ").removeprefix("Companion ")
        out.append(f"{m['name']}, level {up.level}: {f'a land ({land})' if land else 'a land'}, +1 {label} for {who}, regenerated."
                   + (f" {' '.join(dead)}" if dead else ""))
        raised.append(m["name"])
    rules += ["tt.levels.level-up", "tt.levels.lands", "tt.levels.new-lands-untapped", "tt.ruling.level-up-stats", "tt.keyword.regenerate",
              "tt.ruling.vitality-above-full"]
    return f"Level up: {', '.join(raised)}."


def companion(party: Party, action: Action, out: list[str], rules: list[str]) -> str:
    """tt.character.familiar-or-mount: the GM keeps a member's animal companion as a familiar or as a mount; the next
    encounter it joins treats it so (a mount fights only while ridden: tt.character.mount)."""
    kept_as = action.get("as")
    if kept_as not in ("familiar", "mount"):
        raise InputError(f"A companion is kept as a familiar or as a mount; got {quote(kept_as)}.", "as")
    m = _member(party, action.get("member"))
    if (comp := m["companion"]) is None:
        raise InputError(f"{m['name']} has no animal companion.", "member")
    if comp["mount"] is (mount := kept_as == "mount"):
        raise InputError(f"{comp['name']} is kept as a {kept_as} already.", "as")
    comp["mount"] = mount
    rules += ["tt.character.familiar-or-mount", "tt.character.mount" if mount else "tt.character.familiar"]
    out.append("A mount can be ridden and may change its rider's stats; it fights only while ridden." if mount
               else "A familiar cannot be ridden; it fights beside its player in the player's turn.")
    return f"{m['name']}'s {comp['name']} is kept as a {kept_as}."


def _member(party: Party, name: object) -> Member:
    if (found := next((m for m in party["members"] if isinstance(name, str) and m["name"].casefold() == name.casefold()), None)) is None:
        raise InputError(f"There is no member {quote(name)} in the party.", "member")
    return found


def remove(party: Party, action: Action, out: list[str], rules: list[str]) -> str:
    gone = _member(party, action.get("member"))
    party["members"] = [m for m in party["members"] if m is not gone]
    return f"{gone['name']} leaves the party."


def describe(party: Party) -> str:
    n = len(party["members"])
    if not n:
        return "A party with nobody in it yet."
    return f"A party of {n}: " + ", ".join(f"{m['name']} (level {m['level']})" for m in party["members"]) + "."


def _undo(party: Party) -> tuple[Party, str, list[str], list[str]]:
    if not party["undo"]:
        raise InputError("There is nothing to undo in the party.", "action")
    back = undone(party, party["undo"][-1])
    before = {**_check_core({**back, "undo": []}), "undo": back["undo"]}
    return cast("Party", before), f"Undone: {party['log'][-1] if party['log'] else 'the last change'}", [], []


def _show(party: Party) -> tuple[Party, str, list[str], list[str]]:
    return party, describe(party), [], []


# A member's stored combatant, as kept from a fight (the encounter's page sends them as they stand).
_COMBATANTS = Param.of("combatants", "list", "The PCs and companions as they stand", required=True, form=False)
# One player's level-up: the member (the row's own), the stat raised (a companion's only with a companion), the land.
_LEVEL_CHOICE = (
    Param.of("member", "text", "Who", required=True, form=False),
    Param.of("stat", "choice", "+1 to", required=True, choices=(("", "Does not level up"), *((k, STAT_LABELS[k]) for k in STATS)),
             only=tuple((k, "companion") for k in COMPANION_STATS)),
    Param.of("land", "text", "New land (its name)", max_length=40),
)
# Every party action, declared once: the step dispatches by these; the page draws each one's control from them where
# its place says (docs/assets/tracker-form.js: the bar; a member's line, whose name fills the target; the set-up, a
# list's rows one per member), and the coverage page reads their rules.
SPECS: tuple[ActionSpec, ...] = (
    ActionSpec("keep", "Keep the party from this fight", (_COMBATANTS,), handler=keep, place="bar", rules=(
        "tt.ruling.summon-turns", "tt.summoning.permanent", "tt.stats.power-minimum", "tt.ruling.deathtouch-damage", "tt.ruling.haste-rounding",
        "tt.stats.vitality", "tt.advantage.conditions", "tt.ruling.surprise-attacks", "tt.keyword.haste", "tt.mechanics.deathtouch-disadvantage",
        "tt.ruling.poisoned-rolls", "tt.ruling.prone-attacker", "tt.ruling.advantage-and-disadvantage", "tt.advantage.roll", "tt.levels.starting-level",
        "tt.stats.vitality-no-regeneration", "tt.ruling.counters-after-combat", "tt.ruling.next-encounter-party", "tt.character.companion",
        "tt.mechanics.return-characters")),
    ActionSpec("level_up", "Level up", (Param.of("choices", "list", "Each player's land and stat", "One land, +1 to a stat, regenerate.",
                                                 required=True, each=_LEVEL_CHOICE, refusal="Choose the stat each levelling player raises."),),
               handler=level, place="setup",
               rules=("tt.ruling.level-up-stats", "tt.levels.level-up", "tt.ruling.vitality-above-full", "tt.levels.lands", "tt.levels.new-lands-untapped",
                      "tt.keyword.regenerate")),
    # tt.character.familiar-or-mount: the GM's choice for each member's animal companion
    ActionSpec("companion", "Set familiar or mount", (
        Param.of("member", "text", "Whose companion", required=True),
        Param.of("as", "choice", "Kept as", required=True, choices=(("familiar", "A familiar"), ("mount", "A mount (fights when ridden)")),
                 refusal="A companion is kept as a familiar or as a mount"),
    ), handler=companion, place="roster", target="member", needs=("companion",),
       rules=("tt.character.familiar-or-mount", "tt.character.familiar", "tt.character.mount")),
    ActionSpec("remove", "Leaves the party", (Param.of("member", "text", "Who", required=True),), handler=remove, place="roster", target="member"),
    ActionSpec("undo", "Undo", handler=_undo, place="bar", records=False),
    ActionSpec("show", "Show", handler=_show, place="shell", records=False),
)
ACTION_SPECS = {spec.name: spec for spec in SPECS}
ACTIONS = tuple(ACTION_SPECS)
STEP_RULES = ("tt.mechanics.unlisted",)  # every step checks the members again (check_members)


def party_step(party: Party, action: Action) -> tuple[Party, str, list[str], list[str]]:
    """One action on a checked party: the new party, its headline, its details and the rules it applied."""
    if not isinstance(action, dict) or action.get("do") not in ACTION_SPECS:
        raise InputError(f"The party knows these actions: {', '.join(ACTIONS)}.", "action")
    spec = ACTION_SPECS[action["do"]]
    extra = set(action) - {"do"} - {f.key for f in spec.fields}
    if extra:
        raise InputError(f"The action {action['do']} takes no {quote(sorted(extra)[0])}.", "action")
    if not spec.records:
        return cast("tuple[Party, str, list[str], list[str]]", spec.handler(party))
    s = cast("Party", json.loads(json.dumps({**party, "undo": []})))
    out: list[str] = []
    rules: list[str] = []
    headline = spec.handler(s, action, out, rules)
    s["members"] = check_members(s["members"], "action")  # a step never makes a party the check would refuse
    s["log"] = (party["log"] + [headline[:MAX_TEXT]])[-LOG_CAP:]
    s["undo"] = (party["undo"] + [undo_record(party, s)])[-UNDO_CAP:]
    return s, headline, out, list(dict.fromkeys(rules))


# ---------------------------------------------------------------- for the registry (entries.TRACKERS) and the page


def party_report(party: Party, action: Action, rng: object = None) -> tuple[Party, Report]:
    """One step of the party, told as a Report (it rolls no dice: `rng` is never used)."""
    new, headline, details, rules = party_step(party, action)
    return new, Report(outcome=action["do"], headline=headline, details=tuple(details), rules=tuple(rules))


def vocabulary() -> dict[str, Any]:
    """What the party's page draws with: the stats a level-up may raise ([key, label, the companion's]), the levels,
    and every action as declared (each control that sends one carries its name in `data-do`)."""
    return {"stats": [[k, STAT_LABELS[k], k in COMPANION_STATS] for k in STATS], "starting_level": STARTING_LEVEL, "max_level": MAX_LEVEL,
            "max_members": MAX_MEMBERS, "actions": [spec.public() for spec in SPECS]}


PARTY_TRACKER = Tracker(
    name=TRACKER, title="Party",
    summary="The party between encounters: its PCs and companions as they stand, each player's level and lands, and level-ups.",
    new=new_party, check=check_party, step=party_report, specs=SPECS, step_rules=STEP_RULES, max_state_chars=MAX_PARTY_CHARS,
    describe=describe, vocabulary=vocabulary, state_type=Party,
)
