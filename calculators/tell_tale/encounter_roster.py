"""The encounter tracker's roster and order: combatants added, edited and
removed, the table's rulings, Initiative (typed or rolled) and the turn order.

Combatants are checked by `encounter_state.check_combatant`, the same check
a state from outside gets. Summons follow tt.summoning.* (one at a time,
kept by the caster's Toughness); the order follows tt.stats.initiative with
ties as tt.ruling.initiative-ties says, or is set by hand
(tt.combat.npc-initiative).
"""

from __future__ import annotations

import itertools
from typing import Literal, get_args

from ..checks import MAX_NAME, InputError, check_name, die, quote
from ..checks import Action
from .characters import stat_total
from .encounter_fight import Act, able, after_change, on_turn
from .encounter_state import (
    ACTIONS_PER_TURN, HOLDERS, KEYWORDS, KINDS, MAX_COMBATANTS, USUAL_SIDES, MAX_ID, SETTINGS, Combatant, Encounter, StoredFieldError, by_id, check_combatant,
    check_settings,
)

SETTING_RULINGS = {
    "both": "tt.ruling.advantage-and-disadvantage", "overflow": "tt.ruling.damage-overflow", "winner_damage": "tt.ruling.first-strike-tie",
    "tie": "tt.ruling.opposed-saves", "rounding": "tt.ruling.haste-rounding", "method": "tt.ruling.four-d6",
    "shortfall": "tt.ruling.planeswalker-toughness", "double_rolls": "tt.ruling.double-strike",
}
# The statuses the GM may set by hand: Detain is an action of its own (it
# names who detains), and only a summon can be dispelled.
BY_ACTION_ONLY = ("detained",)
SUMMONS_ONLY = ("dispelled",)
Editable = Literal["name", "side", "power", "toughness", "toughness_now", "vitality", "max_vitality", "speed", "initiative", "keywords", "counters",
                   "poisoned", "status"]
EDITABLE: tuple[Editable, ...] = get_args(Editable)


def _number(action: Action, key: str, what: str, lo: int, hi: int, default: int | None = None) -> int | None:
    value = action.get(key, default)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f"{what} must be a whole number; got {quote(value)}.", key)
    if not lo <= value <= hi:
        raise InputError(f"{what} must be from {lo} to {hi}; got {value}.", key)
    return value


def add(act: Act, action: Action) -> None:
    s = act.state
    if len(s["combatants"]) >= MAX_COMBATANTS:
        raise InputError(f"An encounter holds at most {MAX_COMBATANTS} combatants.", "name")
    if s["next_id"] > MAX_ID:
        raise InputError("This encounter has used up its ids: start a new one.", "name")
    kind = action["kind"]  # one of KINDS (encounter_actions.check)
    owner = by_id(s, action["owner"], "owner") if action.get("owner") is not None else None
    if kind in HOLDERS and owner:
        raise InputError(f"A {KINDS[kind]} acts in its own turn and has no owner.", "owner")
    if kind not in HOLDERS and (owner is None or owner["kind"] not in HOLDERS):
        raise InputError(f"A {kind} belongs to a PC or NPC: choose its owner.", "owner")
    if kind == "familiar" and owner is not None and owner["kind"] == "pc":
        other = next((c for c in s["combatants"] if c["owner"] == owner["id"] and c["kind"] == "familiar"), None)
        if other is not None:
            raise InputError(f"{owner['name']} has an animal companion already, {other['name']}: a player picks one "
                             "(tt.character.companion).", "owner")
    side = action.get("side") or (owner["side"] if owner else USUAL_SIDES[kind])
    vitality = _number(action, "vitality", "Vitality", 0, 999)
    raw = {
        "id": f"c{s['next_id']}", "name": action["name"], "kind": kind, "side": side, "owner": owner["id"] if owner else None,
        "token": action.get("token", False), "planeswalker": action.get("planeswalker", False),
        "power": action["power"], "toughness": action["toughness"], "toughness_now": 0, "vitality": vitality, "max_vitality": vitality,
        "speed": action.get("speed", 0), "initiative": action.get("initiative"), "keywords": action.get("keywords", []),
        "counters": 0, "poisoned": False, "boost": 0, "ability_used": False, "status": "standing", "detained_by": None, "actions": ACTIONS_PER_TURN,
        "landed": False, "moved": None, "doubled": False, "hand": None, "mount": action.get("mount", False), "ridden": False,
    }
    if isinstance(raw["toughness"], int) and not isinstance(raw["toughness"], bool):
        raw["toughness_now"] = max(0, raw["toughness"])
    raw["name"] = check_name(raw["name"], "The name")
    n = len(s["combatants"]) + 1
    try:
        c = check_combatant(raw, n, s["settings"])
    except InputError as err:  # the sentence, without "Combatant n (name): ": it is being added
        text = str(err).removeprefix(f"Combatant {n} ({raw['name']}): ")
        typed = {"max_vitality": "vitality", "toughness_now": "toughness"}  # numbers the tracker makes from those typed
        key = typed.get(err.key, err.key) if isinstance(err, StoredFieldError) else None
        raise InputError(text[0].upper() + text[1:], key if key in action else err.field if err.field != "state" else "action") from None
    if kind == "summon":
        assert owner is not None  # a summon without an owner was refused above
        act.cite("tt.summoning.toughness-upkeep", "tt.summoning.one-summon")
        if owner["toughness_now"] == 0:
            raise InputError(f"{owner['name']}'s Toughness is 0: it cannot keep a summon (tt.summoning.toughness-upkeep).", "owner")
        if c["token"]:
            act.cite("tt.summoning.tokens")
        else:
            if s["phase"] == "combat":  # tt.ruling.summon-timing: when its caster could cast a sorcery, for one action
                on_turn(act, able(act, owner["id"], "owner"))
                act.say(f"{owner['name']} summons {c['name']} as it could cast a sorcery: one of its {ACTIONS_PER_TURN} actions.")
                act.cite("tt.summoning.timing", "tt.ruling.summon-timing")
            for old in s["combatants"]:
                if old["owner"] == owner["id"] and old["kind"] == "summon" and not old["token"] and old["status"] != "dispelled":
                    old["status"], old["detained_by"] = "dispelled", None
                    act.say(f"{old['name']} dispels: {owner['name']} keeps one summon at a time (not a sacrifice).")
                    act.cite("tt.summoning.replacing")
    s["combatants"].append(c)
    s["next_id"] += 1
    if kind in HOLDERS:
        s["order"].append(c["id"])
        if s["phase"] == "combat" and s["order_by"] == "initiative":
            sort_order(act)
    elif c["mount"]:
        assert owner is not None  # a familiar without an owner was refused above
        act.say(f"A mount: out of the fight until {owner['name']} mounts it (tt.character.mount).")
        act.cite("tt.character.familiar-or-mount", "tt.character.mount")
    elif kind == "familiar":
        act.cite("tt.character.familiar")
    if kind == "summon":
        act.cite("tt.ruling.summon-turns")
    kw = ", ".join(KEYWORDS[k] for k in c["keywords"])
    act.say(f"Power {c['power']}, Toughness {c['toughness']}, Vitality {c['vitality']}, Speed {c['speed']}"
            + (f", Initiative {c['initiative']}" if c["initiative"] is not None else "") + (f"; {kw}" if kw else "") + ".")
    act.cite("tt.stats.tracking")
    act.outcome = "added"
    act.headline = f"{c['name']} joins the encounter ({'token ' if c['token'] else ''}{'companion kept as a mount' if c['mount'] else KINDS[kind]}{', of ' + owner['name'] if owner else ''}, {side_word(c)})."


def numbered(s: Encounter, name: str) -> str:
    """The next free "Name n" for another like `name`: Goblin -> Goblin 2, then Goblin 3 (also from Goblin 2)."""
    base = name.rstrip()
    head, _, tail = base.rpartition(" ")
    if head and tail.isdigit() and tail.isascii():
        base = head
    taken = {c["name"] for c in s["combatants"]}
    n = 2
    while True:
        suffix = f" {n}"
        candidate = base[: MAX_NAME - len(suffix)].rstrip() + suffix
        if candidate not in taken:
            return candidate
        n += 1


def another(act: Act, action: Action) -> None:
    """Add another like a combatant: its kind, side, owner, full numbers, Speed, Initiative, keywords and whether it is kept as a mount, numbered."""
    s = act.state
    c = by_id(s, action["id"], "id")
    like = {"do": "add", "name": numbered(s, c["name"]), "kind": c["kind"], "side": c["side"], "power": c["power"],
            "toughness": c["toughness"], "vitality": c["max_vitality"], "speed": c["speed"], "initiative": c["initiative"],
            "keywords": list(c["keywords"]), "token": c["token"], "planeswalker": c["planeswalker"], "mount": c["mount"]}
    if c["owner"]:
        like["owner"] = c["owner"]
    add(act, like)
    act.headline = act.headline.replace(" joins the encounter (", f" joins the encounter, like {c['name']} (", 1)


def side_word(c: Combatant) -> str:
    return "party" if c["side"] == "party" else "foes"


def edit(act: Act, action: Action) -> None:
    s = act.state
    c = by_id(s, action["id"])
    changes = action["set"]
    if not isinstance(changes, dict) or not changes or set(changes) - set(EDITABLE):
        raise InputError(f"An edit sets some of {', '.join(EDITABLE)}.", "set")
    if changes.get("status") in SUMMONS_ONLY and c["kind"] != "summon":
        raise InputError("Only a summon can be dispelled.", "status")
    if changes.get("status") in BY_ACTION_ONLY:
        raise InputError("Detain is an action of its own (it names who detains).", "status")
    new = {**c, **changes}
    if "toughness" in changes and "toughness_now" not in changes and isinstance(changes["toughness"], int):
        new["toughness_now"] = max(0, min(c["toughness_now"], changes["toughness"] + max(0, c["boost"])))
    if c["status"] == "detained" and "status" in changes:
        new["detained_by"] = None
    index = s["combatants"].index(c)
    checked = check_combatant(new, index + 1, s["settings"])
    words = [f"{k.replace('_', ' ')} {c[k]} to {checked[k]}" for k in EDITABLE if checked[k] != c[k]]
    t0, v0 = c["toughness_now"], c["vitality"]
    s["combatants"][index] = checked
    after_change(act, checked, t0, v0)
    if checked["initiative"] != c["initiative"] and checked["kind"] in HOLDERS and s["phase"] == "combat" and s["order_by"] == "initiative":
        sort_order(act)
        act.cite("tt.stats.seating")
    act.cite("tt.stats.tracking")
    act.outcome = "edited"
    act.headline = f"{checked['name']}: " + ("; ".join(words) if words else "nothing changed") + "."


def remove(act: Act, action: Action) -> None:
    s = act.state
    c = by_id(s, action["id"])
    followers = [f["name"] for f in s["combatants"] if f["owner"] == c["id"]]
    if followers:
        raise InputError(f"{c['name']} has {', '.join(followers)} with it: remove {'them' if len(followers) > 1 else 'that one'} first.", "id")
    if c["id"] in s["order"]:
        i = s["order"].index(c["id"])
        if s["phase"] == "combat" and (i == s["turn"] or len(s["order"]) == 1):
            raise InputError(f"It is {c['name']}'s turn (or it is the last in the order): move on or end the encounter first.", "id")
        s["order"].remove(c["id"])
        if s["phase"] == "combat" and i < s["turn"]:
            s["turn"] -= 1
    for other in s["combatants"]:
        if other["detained_by"] == c["id"]:
            other["status"], other["detained_by"] = "standing", None
        if other["moved"]:  # who has left can no longer strike, nor be passed
            m = other["moved"]
            other["moved"] = {"near": [i for i in m["near"] if i != c["id"]], "over": [i for i in m["over"] if i != c["id"]],
                              "struck": [i for i in m["struck"] if i != c["id"]]}
    s["combatants"].remove(c)
    act.cite("tt.stats.tracking")
    act.outcome, act.headline = "removed", f"{c['name']} leaves the encounter."


def settings(act: Act, action: Action) -> None:
    given = action["settings"]
    if not isinstance(given, dict) or set(given) - set(SETTINGS):
        raise InputError(f"The settings are some of {', '.join(SETTINGS)}.", "settings")
    s = act.state
    new = check_settings({**s["settings"], **given})
    changed = [k for k in SETTINGS if new[k] != s["settings"][k]]
    s["settings"] = act.settings = new
    for k in changed:
        act.say(f"{k}: {new[k]}.")
        act.cite(SETTING_RULINGS[k])
    act.outcome = "settings"
    act.headline = "The table's rulings: " + (", ".join(f"{k} {new[k]}" for k in changed) if changed else "unchanged") + "."


# ---------------------------------------------------------------- initiative and order


def sort_order(act: Act) -> None:
    """Highest Initiative first; equal ones keep the order they have (tt.ruling.initiative-ties)."""
    s = act.state
    current = s["order"][s["turn"]] if s["phase"] == "combat" else None
    rank = {c["id"]: c["initiative"] if c["initiative"] is not None else -1 for c in s["combatants"]}
    s["order"] = sorted(s["order"], key=lambda i: -rank[i])
    if current:
        s["turn"] = s["order"].index(current)
    act.cite("tt.stats.initiative")
    values = [rank[i] for i in s["order"]]
    for v in sorted({v for v in values if v >= 0 and values.count(v) > 1}, reverse=True):
        names = [by_id(s, i)["name"] for i in s["order"] if rank[i] == v]
        act.say(f"{' and '.join(names)} tie at Initiative {v}: they keep this order until the GM or the players change it.")
        act.cite("tt.ruling.initiative-ties")


def roll_initiative(act: Act, c: Combatant, dice: object) -> int:
    method = act.settings["method"]
    if dice is None:
        if act.rng is None:
            raise InputError(f"{c['name']}'s Initiative: type it, or let the page roll 4d6.", "dice")
        dice = [act.rng.randint(1, 6) for _ in range(4)]
    if not isinstance(dice, list) or len(dice) != 4:
        raise InputError("An Initiative roll is 4d6: give four d6.", "dice")
    dice = [die(d, 6, "dice", what="A d6") for d in dice]
    act._record(f"{c['name']}'s Initiative 4d6", dice)
    value = stat_total(dice, method=method)
    act.say(f"{c['name']} rolls {' '.join(map(str, dice))}: Initiative {value}" + (" (lowest dropped)." if method == "drop-lowest" else "."))
    act.cite("tt.combat.npc-initiative", "tt.ruling.npc-initiative-roll", "tt.ruling.four-d6")
    return value


def initiative(act: Act, action: Action) -> None:
    s = act.state
    if action.get("all"):
        if action.get("id") is not None or action.get("value") is not None or action.get("dice") is not None:
            raise InputError("Rolling for all NPCs takes no id, value or dice.", "action")
        todo = [c for c in s["combatants"] if c["kind"] == "npc" and c["initiative"] is None]
        if not todo:
            raise InputError("Every NPC has an Initiative already.", "action")
        for c in todo:
            c["initiative"] = roll_initiative(act, c, None)
        act.headline = f"Initiative rolled for {', '.join(c['name'] for c in todo)}."
    else:
        c = by_id(s, action.get("id"))
        if c["kind"] not in HOLDERS:
            raise InputError(f"{c['name']} acts in its owner's turn and has no Initiative of its own (tt.ruling.summon-turns).", "id")
        if action.get("value") is not None and action.get("dice") is not None:
            raise InputError("Give the Initiative or the 4d6 rolled, not both.", "value")
        value = _number(action, "value", "Initiative", 0, 999)
        if value is None:
            value = roll_initiative(act, c, action.get("dice"))
        c["initiative"] = value
        act.headline = f"{c['name']}'s Initiative is {value}."
    if s["phase"] == "combat" and s["order_by"] == "initiative":
        sort_order(act)
        act.cite("tt.stats.seating")
    act.cite("tt.stats.initiative")
    act.outcome = "initiative"


def order(act: Act, action: Action) -> None:
    """The turn order: by Initiative (ties in the order given), or by hand (clockwise from whoever started it)."""
    s = act.state
    if action.get("by") is not None:
        s["order_by"] = action["by"]  # initiative or hand (encounter_actions.check)
    ids = action.get("ids")
    if ids is not None:
        if not isinstance(ids, list) or sorted(map(str, ids)) != sorted(s["order"]):
            raise InputError("The new order lists every PC and NPC once.", "ids")
        if s["order_by"] == "initiative":
            known = [(c["initiative"], c["name"]) for c in (by_id(s, i) for i in ids) if c["initiative"] is not None]
            for (a, a_name), (b, b_name) in itertools.pairwise(known):
                if a < b:
                    raise InputError(f"{a_name} (Initiative {a}) cannot go before {b_name} ({b}): "
                                     "only equal Initiatives change places (tt.ruling.initiative-ties).", "ids")
        current = s["order"][s["turn"]] if s["phase"] == "combat" else None
        s["order"] = list(ids)
        if current:
            s["turn"] = s["order"].index(current)
    if s["order_by"] == "initiative" and s["phase"] == "combat":
        sort_order(act)
    act.cite("tt.ruling.initiative-ties" if s["order_by"] == "initiative" else "tt.combat.npc-initiative")
    act.outcome = "order"
    names = [by_id(s, i)["name"] for i in s["order"]]
    act.headline = f"Turn order ({'by Initiative' if s['order_by'] == 'initiative' else 'by hand'}): {', '.join(names) or 'nobody yet'}."
