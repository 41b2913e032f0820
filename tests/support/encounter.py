"""What the encounter tracker's tests share: the scripted fight, hostile states, random fighters.

FIGHT is four combatants through three rounds with First Strike, Double
Strike, Trample and Deathtouch: (action, seed) pairs, seed None when the
action types its dice. tests/test_encounter.py plays it in Python and
tests/test_encounter_page.py in Chromium through the page's controls, where
the seeds are the ones "Roll for me" is made to draw.
"""

from __future__ import annotations

import contextlib
import json
import random

from hypothesis import strategies as st

from calculators.checks import InputError
from calculators.tell_tale import encounter_step, new_encounter
from calculators.tell_tale.encounter import ACTIONS
from calculators.tell_tale.encounter_actions import ACTION_SPECS
from calculators.tell_tale.encounter_state import KEYWORDS, SETTINGS

ADD = [
    {"do": "add", "name": "Vraska", "kind": "pc", "power": 3, "toughness": 3, "vitality": 15, "speed": 10, "initiative": 14,
     "keywords": ["double-strike", "deathtouch"]},
    {"do": "add", "name": "Mira", "kind": "pc", "power": 2, "toughness": 2, "vitality": 12, "speed": 12, "initiative": 9,
     "keywords": ["first-strike", "vigilance"]},
    {"do": "add", "name": "Imp", "kind": "familiar", "owner": "c2", "power": 1, "toughness": 1, "vitality": 5, "speed": 14,
     "keywords": ["haste", "flying"]},
    {"do": "add", "name": "Ogre", "kind": "npc", "power": 5, "toughness": 5, "vitality": 14, "speed": 8, "keywords": ["trample", "first-strike", "reach"]},
]
NEXT = ({"do": "next"}, None)

FIGHT: list[tuple[dict, int | None]] = [
    *((a, None) for a in ADD),
    ({"do": "initiative", "id": "c4"}, 0),  # the Ogre's 4d6, rolled: 4 4 1 3 = 12
    ({"do": "start"}, None),  # Vraska 14, Ogre 12, Mira 9
    # Round 1, Vraska: Double Strike with Deathtouch (a miss and a half hit: one counter, poisoned)
    NEXT, NEXT, NEXT,
    ({"do": "attack", "attacker": "c1", "target": "c4", "dice": {"d20": 3, "second_d20": 8}}, None),
    ({"do": "move", "id": "c1"}, None),
    NEXT, NEXT, NEXT,  # Ogre's untap and upkeep: the poison's counter
    NEXT, NEXT,
    # The Ogre, poisoned, charges through Vraska and Mira (disadvantage); Mira's Vigilance: not knocked down
    ({"do": "charge", "attacker": "c4", "targets": ["c1", "c2"],
      "dice": [{"d20": [16, 11], "effect_d20": 9, "save_d20": 4}, {"d20": [18, 15]}]}, None),
    ({"do": "attack", "attacker": "c4", "target": "c3", "dice": {"d20": [17, 6]}}, None),  # the Imp flies: the Ogre's Reach lets it attack
    NEXT, NEXT, NEXT, NEXT, NEXT,  # Mira's turn (with her Imp), to the actions
    ({"do": "attack", "attacker": "c3", "target": "c4", "dice": {"d20": [15, 4]}}, None),  # Haste: advantage
    ({"do": "move", "id": "c2", "near": ["c4"]}, None),  # Mira comes in range of the Ogre: it may strike first
    ({"do": "first_strike", "attacker": "c4", "target": "c2", "dice": {"d20": [7, 12], "target_d20": 15}}, None),  # two First Strikers meet; the Ogre, poisoned, keeps the lower
    ({"do": "undo"}, None),
    ({"do": "first_strike", "attacker": "c4", "target": "c2", "dice": {"d20": [7, 12], "target_d20": 15}}, None),
    NEXT,
    # Round 2: Vraska gets up and attacks with rolled dice; the Ogre's poison ticks; it strikes back, rolled
    NEXT, NEXT, NEXT, NEXT,
    ({"do": "act", "id": "c1", "what": "get-up"}, None),
    ({"do": "attack", "attacker": "c1", "target": "c4"}, 20240601),
    NEXT, NEXT, NEXT, NEXT, NEXT,
    ({"do": "attack", "attacker": "c4", "target": "c1"}, 7),
    NEXT, NEXT, NEXT, NEXT, NEXT,
    ({"do": "life", "target": "c2", "amount": 2}, None),
    NEXT,
    # Round 3: Vraska again; at the Ogre's upkeep its poison leaves it unconscious, and its turn passes to Mira's
    NEXT, NEXT, NEXT, NEXT,
    ({"do": "attack", "attacker": "c1", "target": "c4", "dice": {"d20": 15, "second_d20": 20, "second_crit_d4": 2}}, None),
    NEXT, NEXT, NEXT,
]


def _set(path, value):
    def mutate(state):
        target = state
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return mutate


def _with(fn):
    def mutate(state):
        fn(state)
    return mutate


# (label, mutate(state) -> optional text to send instead, words in the refusal)
HOSTILE = [
    ("not an object", lambda s: "[1, 2, 3]", "must be a JSON object"),
    ("not JSON", lambda s: "{'tracker': 1}", "not JSON"),
    ("deeply nested", lambda s: "[" * 50_000 + "]" * 50_000, "nested too deep"),
    ("too long", lambda s: json.dumps({**s, "pad": "x" * 250_000}), "too long"),
    ("another tracker", _set(["tracker"], "rpgdl.season"), "not a Tell-Tale encounter"),
    ("unknown field", _set(["hacked"], True), "field 'hacked'"),
    ("negative counters", _set(["combatants", 3, "counters"], -1), "-1/-1 counters must be from 0 to 999; got -1."),
    ("huge power", _set(["combatants", 0, "power"], 10**30), "Power must be from 0 to 999"),
    ("float vitality", _set(["combatants", 0, "vitality"], 3.5), "Vitality must be a whole number"),
    ("text toughness", _set(["combatants", 0, "toughness_now"], "2"), "Toughness left must be a whole number"),
    ("Toughness left above full", _set(["combatants", 0, "toughness_now"], 99), "Toughness left must be from 0 to 3"),
    ("unknown keyword", _set(["combatants", 1, "keywords"], ["first-strike", "banding"]), "no keyword 'banding'"),
    ("long name", _set(["combatants", 0, "name"], "V" * 500), "the limit is 40"),
    ("control character", _set(["combatants", 0, "name"], "Vra\u202eska"), "control or direction character"),
    ("bad id", _set(["combatants", 0, "id"], "<img src=x>"), "ids are c1 to c9999"),
    ("duplicate id", _set(["combatants", 1, "id"], "c1"), "same id"),
    ("owner missing", _set(["combatants", 2, "owner"], "c77"), "no PC or NPC of this encounter"),
    ("bad status", _set(["combatants", 0, "status"], "flying high"), "status must be one of"),
    ("a PC dispelled", _set(["combatants", 0, "status"], "dispelled"), "only a summon can be dispelled"),
    ("boolean as number", _set(["round"], True), "round must be a whole number"),
    ("turn out of the order", _set(["turn"], 7), "turn within the order"),
    ("order with a stranger", _set(["order"], ["c1", "c2", "c9"]), "every PC and NPC once"),
    ("unknown setting value", _set(["settings", "overflow"], "explode"), "overflow must be one of carry, stop"),
    ("too many combatants", _with(lambda s: s["combatants"].extend([dict(s["combatants"][0])] * 30)), "at most 24 combatants"),
    ("log rule not applied", _set(["log", 0, "rules"], ["tt.combat.nukes"]), "cites a rule the tracker does not apply"),
    ("log gap", _set(["log", 1, "n"], 9), "count up from 1 without gaps"),
    ("log script", _set(["log", 0, "text"], "x" * 5000), "at most 400 characters"),
    ("undo record hostile", _with(lambda s: s["undo"][-1].update({"change": ["{", {"round": ["=", -5]}]})), "Undo step"),
    ("undo record that does not fit", _with(lambda s: s["undo"][-1].update({"change": ["[", {"back": 1}]})), "not a list"),
    ("undo record nested deep", _with(lambda s: s["undo"][-1].update({"change": ["{", {"settings": ["{", {"x": ["{", {}]}]}]})),
     "not there"),
    ("undo record wrong shape", _with(lambda s: s["undo"].append({"evil": 1})), "wrong shape"),
    ("too many undo steps", _with(lambda s: s["undo"].extend(s["undo"] * 3)), "at most 30 steps"),
    ("version from the future", _set(["version"], 3), "this tracker reads version 2"),
]


@st.composite
def fighters(draw, owners: list[str]):
    """One combatant to add: any kind (a familiar or summon only when there is an owner to give it)."""
    kinds = ["pc", "npc"] + (["familiar", "summon"] if owners else [])
    kind = draw(st.sampled_from(kinds))
    out = {
        "name": draw(st.text(st.characters(codec="utf-8", categories=["L", "N", "Zs", "P"]), min_size=1, max_size=12).filter(str.strip)),
        "kind": kind,
        "power": draw(st.integers(0, 8)),
        "toughness": draw(st.integers(0, 8)),
        "vitality": draw(st.integers(1, 20)),
        "speed": draw(st.integers(0, 12)),
        "keywords": draw(st.lists(st.sampled_from(list(KEYWORDS)), max_size=4, unique=True)),
    }
    if kind in ("pc", "npc") and draw(st.booleans()):
        out["initiative"] = draw(st.integers(0, 24))
    if kind in ("familiar", "summon"):
        out["owner"] = draw(st.sampled_from(owners))
        out["token"] = kind == "summon" and draw(st.booleans())
        out["mount"] = kind == "familiar" and draw(st.booleans())
    if kind == "pc":
        out["planeswalker"] = draw(st.booleans())
    return out


# ---------------------------------------------------------------- random actions, from the declarations

FAR = [-9999, -1000, 998, 1000, 9999]  # the far amounts: a step must never leave a state the tracker cannot read back


def _who(data, field, spec, state, action, ids):
    """An id for a `who` field: mostly one the page would offer (the actor's chances for a chance action), sometimes any."""
    offered = ids
    if field.pick == "chances":
        actor = next((c for c in state["combatants"] if c["id"] == action.get(spec.actor)), None)
        offered = (actor or {}).get("chances", {}).get(spec.name) or ids
    elif field.key == spec.actor and spec.chance:
        offered = [c["id"] for c in state["combatants"] if c.get("chances", {}).get(spec.name)] or ids
    return data.draw(st.sampled_from(offered if data.draw(st.integers(0, 3)) else ids))


def _value(data, field, spec, state, action, ids):
    roll = lambda n: data.draw(st.one_of(st.none(), st.integers(1, n)))  # noqa: E731
    if field.kind == "who":
        return _who(data, field, spec, state, action, ids)
    if field.kind == "choice":
        return data.draw(st.sampled_from([v for v, _ in field.choices]))
    if field.kind == "number":
        return data.draw(st.integers(-6, 12) | st.sampled_from(FAR))
    if field.kind == "text":
        return data.draw(st.integers(-6, 6).map(lambda n: f"{n:+d}" if n else "0") | st.sampled_from(["-9999", "+9999", "x"]))
    if field.kind == "die":
        return roll(field.sides)
    if field.kind == "d20s":
        return data.draw(st.one_of(st.none(), st.integers(1, 20), st.lists(st.integers(1, 20), min_size=2, max_size=2)))
    if field.kind == "ids":
        return data.draw(st.lists(st.sampled_from(ids), max_size=3, unique=True))
    if field.kind == "flag":
        return data.draw(st.booleans())
    raise AssertionError(f"no random value for a {field.kind} field ({spec.name}.{field.key}): give the action a case of its own")


def random_from_spec(data, spec, state):
    """An action drawn from its declaration (encounter_actions.SPECS): each field left out or given a value of its kind,
    the required ones always given; ids from the state, with one that names nobody."""
    ids = [c["id"] for c in state["combatants"]] + ["c99"]
    action = {"do": spec.name}
    dice = {}
    for f in spec.fields:
        if not f.required and not data.draw(st.integers(0, 2)):
            continue
        if f.kind == "line":
            targets = data.draw(st.lists(st.sampled_from(ids), min_size=1, max_size=3, unique=True))
            action[f.key] = targets
            if f.flag and data.draw(st.booleans()):
                action[f.flag.key] = data.draw(st.lists(st.sampled_from(targets), max_size=1))
            action["dice"] = [{k: v for k, v in ((e.key, _value(data, e, spec, state, action, ids)) for e in f.each) if v is not None}
                              for _ in targets]
            continue
        value = _value(data, f, spec, state, action, ids)
        if value is not None:
            (dice if f.dice else action)[f.key] = value
    if dice:
        action["dice"] = dice
    return action


# ---------------------------------------------------------------- a party kept between encounters (party.py)


def _creature(draw, companion: bool):
    out = {"name": draw(st.sampled_from(["Vraska", "Mira", "Ajani", "Kaya"] if not companion else ["Imp", "Wolf", "Hawk"])),
           "power": draw(st.integers(0, 6)), "toughness": draw(st.integers(0, 6)), "vitality": draw(st.integers(-3, 20)),
           "max_vitality": draw(st.integers(0, 20)), "speed": draw(st.integers(0, 12)),
           "keywords": draw(st.lists(st.sampled_from(list(KEYWORDS)), max_size=3, unique=True)),
           "counters": draw(st.integers(0, 4)), "poisoned": draw(st.booleans()), "exiled": draw(st.integers(0, 5)) == 0}
    if not companion:
        level = draw(st.integers(3, 6))
        out |= {"planeswalker": draw(st.booleans()), "initiative": draw(st.one_of(st.none(), st.integers(0, 24))), "level": level,
                "lands": draw(st.lists(st.sampled_from(["Forest", "Swamp", "Breeding Pool"]), max_size=level)),
                "companion": _creature(draw, True) if draw(st.booleans()) else None}
    return out


@st.composite
def party_members(draw):
    """A party's members as party.check_members takes them: up to three players' characters, some with a companion;
    now and then one value out of its range, which the check refuses."""
    members = draw(st.lists(st.builds(lambda: None).flatmap(lambda _: st.composite(lambda d: _creature(d, False))()), max_size=3,
                            unique_by=lambda m: m["name"]))
    if members and draw(st.integers(0, 4)) == 0:
        members[0]["vitality"] = 10**6
    return members


@st.composite
def kept_party(draw, state):
    """A party as party.py keeps it: kept from `state`'s combatants (then levelled up, or not), or drawn members with
    no mark of this fight."""
    from calculators.tell_tale.party import new_party, party_step
    party = new_party()
    try:
        party, *_ = party_step(party, {"do": "keep", "combatants": [{k: v for k, v in c.items() if k != "chances"} for c in state["combatants"]]})
    except InputError:
        return {**party, "members": draw(party_members())}
    if party["members"] and draw(st.booleans()):
        stat = draw(st.sampled_from(["vitality", "speed", "companion_vitality", "companion_speed"]))
        with contextlib.suppress(InputError):  # a companion's stat for a member with none
            party, *_ = party_step(party, {"do": "level_up", "choices": [{"member": party["members"][0]["name"], "stat": stat}]})
    return party


def step(state, action, seed=None):
    return encounter_step(state, action, random.Random(seed) if seed is not None else None)


def fresh(*actions, seed=1, state=None):
    s = state or new_encounter()
    for i, a in enumerate(actions):
        s, _ = step(s, a, seed + i)
    return s


def random_action(data, state):
    ids = [c["id"] for c in state["combatants"]] + ["c99"]
    pick = lambda: data.draw(st.sampled_from(ids))  # noqa: E731
    do = data.draw(st.sampled_from(["next"] * 6 + ["attack"] * 4 + ["move", "first_strike", "reach"] * 2 + list(ACTIONS)))
    if do == "add":
        return {"do": "add", **data.draw(fighters(ids[:-1]))}
    if do == "edit":
        field, value = data.draw(st.sampled_from([("power", st.integers(0, 9)), ("vitality", st.integers(-3, 20)), ("counters", st.integers(0, 5)),
                                                  ("poisoned", st.booleans()), ("initiative", st.integers(0, 24)), ("toughness", st.integers(0, 9)),
                                                  ("keywords", st.lists(st.sampled_from(list(KEYWORDS)), max_size=3, unique=True))]))
        return {"do": do, "id": pick(), "set": {field: data.draw(value)}}
    if do == "initiative":
        return {"do": do, "id": pick(), **({"value": data.draw(st.integers(0, 24))} if data.draw(st.booleans()) else {})}
    if do == "order":
        order = list(state["order"])
        return {"do": do, "ids": data.draw(st.permutations(order))} if order else {"do": do, "by": "hand"}
    if do == "add_party":  # a kept party's members (party.py), or the first of them refused as it was changed
        return {"do": do, "members": data.draw(party_members())}
    if do == "next_encounter":  # with or without the party kept on the device: from this fight, levelled up or not, or drawn
        return {"do": do, **({"dead": data.draw(st.sampled_from(["along", "behind"]))} if data.draw(st.booleans()) else {}),
                **({"party": data.draw(kept_party(state))} if data.draw(st.booleans()) else {})}
    if do == "settings":
        name = data.draw(st.sampled_from(list(SETTINGS)))
        return {"do": do, "settings": {name: data.draw(st.sampled_from(SETTINGS[name]))}}
    return random_from_spec(data, ACTION_SPECS[do], state)


# The actions whose fields are objects or lists the handler reads (an edit's changes, the rulings, an order, 4d6):
# drawn here; every other action is drawn from its declaration (support.encounter.random_from_spec).
OWN_CASE = {"add", "edit", "settings", "order", "initiative", "add_party", "next_encounter"}
