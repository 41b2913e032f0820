"""A campaign's pieces the tests share: the party's fight played to its end,
the party kept from it, and party states a hostile file or link could hold
(each with the words the refusal must say)."""

from __future__ import annotations

import json

from calculators.tell_tale.encounter import run_script
from calculators.tell_tale.party import new_party, party_step

PARTY = [
    {"do": "add", "name": "Vraska", "kind": "pc", "power": 3, "toughness": 3, "vitality": 15, "speed": 10, "initiative": 14,
     "keywords": ["deathtouch"]},
    {"do": "add", "name": "Mira", "kind": "pc", "power": 2, "toughness": 2, "vitality": 12, "speed": 12, "initiative": 9,
     "keywords": ["vigilance"]},
    {"do": "add", "name": "Imp", "kind": "familiar", "owner": "c2", "power": 1, "toughness": 1, "vitality": 5, "keywords": ["flying"]},
    {"do": "add", "name": "Ogre", "kind": "npc", "power": 5, "toughness": 5, "vitality": 14, "initiative": 12},
    {"do": "add", "name": "Wolf", "kind": "familiar", "owner": "c4", "power": 2, "toughness": 2, "vitality": 6},
    {"do": "add", "name": "Spirit", "kind": "summon", "owner": "c2", "token": True, "power": 1, "toughness": 1, "vitality": 1},
]


def fought(*extra):
    """The party's fight, played and ended: Vraska hit (Toughness 0, Vitality 13), Mira poisoned with a counter and knocked
    down, the Imp hurt; `extra` (actions) before the end."""
    steps = [*((a, None) for a in PARTY), ({"do": "start"}, None),
             ({"do": "damage", "source": "c4", "target": "c1", "amount": 5}, None),
             ({"do": "edit", "id": "c2", "set": {"counters": 1, "poisoned": True, "status": "knocked-down", "toughness_now": 0}}, None),
             ({"do": "damage", "target": "c3", "amount": 3}, None),
             *((a, None) for a in extra), ({"do": "end"}, None)]
    return run_script(steps)


def kept(over=None):
    """The party kept from `fought()` (Vraska hurt, Mira poisoned with a counter, her Imp hurt)."""
    party, headline, details, rules = party_step(new_party(), {"do": "keep", "combatants": (over or fought())["combatants"]})
    return party, headline, details, rules


def _hostile():
    party, *_ = kept()
    good = json.loads(json.dumps(party))
    up, *_ = party_step(party, {"do": "level_up", "choices": [{"member": "Vraska", "stat": "speed"}]})
    good_up = json.loads(json.dumps(up))

    def with_(change, base=good):
        out = json.loads(json.dumps(base))
        change(out)
        return json.dumps(out)

    def member0(key, value):
        return with_(lambda p: p["members"][0].__setitem__(key, value))

    return [
        ("not JSON", "{'party': 1}", "not JSON"),
        ("deeply nested", "[" * 20_000 + "]" * 20_000, "nested too deep"),
        ("too long", json.dumps({**good, "pad": "x" * 70_000}), "too long"),
        ("not an object", "[1, 2]", "must be a JSON object"),
        ("another tracker", with_(lambda p: p.__setitem__("tracker", "tell_tale.duel")), "not a Tell-Tale party"),
        ("an encounter file", json.dumps(fought()), "This is a Tell-Tale encounter: open it in the encounter tracker"),
        ("version as text", with_(lambda p: p.__setitem__("version", "1")), "version must be a whole number; got '1'"),
        ("unknown field", with_(lambda p: p.__setitem__("hacked", 1)), "field 'hacked'"),
        ("from the future", with_(lambda p: p.__setitem__("version", 9)), "reads version 1"),
        ("too many members", with_(lambda p: p["members"].extend([dict(p["members"][0], name=f"X{i}") for i in range(9)])), "at most 8"),
        ("same name twice", with_(lambda p: p["members"].append(dict(p["members"][0]))), "two members have this name"),
        ("huge vitality", member0("vitality", 10**40), "Vitality must be from -999 to 999"),
        ("text level", member0("level", "3"), "the level must be a whole number"),
        ("level below the start", member0("level", 1), "the level must be from 3 to 20"),
        ("more lands than the level", member0("lands", ["Swamp"] * 4), "at most as many names as the level"),
        ("script in a land", member0("lands", ["Swa\u202emp"]), "control or direction character"),
        ("unknown keyword", member0("keywords", ["banding"]), "no keyword 'banding'"),
        ("companion of the wrong shape", with_(lambda p: p["members"][1]["companion"].__setitem__("owner", "c1")), "the companion has a field 'owner'"),
        ("companion nested", with_(lambda p: p["members"][1].__setitem__("companion", {"companion": {"companion": {}}})), "the companion has a field"),
        ("history of the wrong shape", with_(lambda p: p.__setitem__("log", [{"text": 1}])), "history must be at most"),
        ("undo record hostile", with_(lambda p: p["undo"][-1].__setitem__("change", ["{", {"members": ["=", "nobody"]}]), good_up), "Undo step"),
        ("undo record wrong shape", with_(lambda p: p["undo"].append({"evil": 1}), good_up), "wrong shape"),
        ("too many undo steps", with_(lambda p: p["undo"].extend(p["undo"] * 12), good_up), "at most 10 steps"),
    ]


HOSTILE = _hostile()
