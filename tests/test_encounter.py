"""The Tell-Tale encounter tracker: a whole fight as pure steps over JSON-ready state.

Property tests (hypothesis) over random fights: damage never raises
Toughness, counters and Toughness never go below 0, every state a step
returns passes the check a state from outside gets, undo restores the exact
state before, a refused action changes nothing. The tracker's rolls equal
the forms' functions for the same dice (resolve_attack, double_strike,
first_strike, the Trample charge, poison_track). Hostile states are refused
with a sentence; the command line runs an encounter file.
"""

from __future__ import annotations

import copy
import itertools
import json
import typing

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import cli as command_line
from support.encounter import ADD, FIGHT, HOSTILE, OWN_CASE, fighters, fresh, random_action, random_from_spec, step
from support.rulepages import all_rules

from calculators import registry, runner
from calculators.checks import InputError
from calculators.tell_tale import (
    apply_damage,
    charge_enemy,
    double_strike,
    encounter_step,
    first_strike,
    new_encounter,
    poison_track,
    run_script,
)
from calculators.tell_tale.combat import SITUATION_CHOICES
from calculators.tell_tale.encounter import ACTIONS, vocabulary
from calculators.tell_tale.encounter_actions import ACTION_SPECS, SPECS
from calculators.types import ActionSpec
from calculators.tell_tale.encounter_state import LOG_CAP, RULES, UNDO_CAP, Combatant, check_encounter
from calculators.web import compute

TRACKER = "tell_tale.encounter"



def by_name(state, name):
    return next(c for c in state["combatants"] if c["name"] == name)


# ---------------------------------------------------------------- the registry and the pages


def test_the_tracker_is_registered_with_rules_that_exist():
    tracker = registry.all_trackers()[TRACKER]
    assert tracker.actions == ACTIONS
    ids = {r.id for r in all_rules()}
    assert set(RULES) <= ids, sorted(set(RULES) - ids)
    assert tracker.new() == new_encounter()


def test_a_step_through_the_worker_entry_point():
    answer = json.loads(compute("track:" + TRACKER, json.dumps({"state": "", "action": json.dumps(FIGHT[0][0])})))
    assert answer["ok"] and answer["state"]["combatants"][0]["name"] == "Vraska"
    assert answer["rules"] == ["tt.stats.tracking"]


def test_the_scripted_fight_gives_its_numbers():
    """The fight the Chromium test plays (support.encounter.FIGHT), its end checked by hand."""
    s = run_script(FIGHT)
    numbers = {c["name"]: (c["power_now"], c["toughness_now"], c["vitality"], c["counters"], c["poisoned"], c["status"], c["health"])
               for c in s["combatants"]}
    assert numbers == {
        "Vraska": (3, 2, 15, 0, False, "standing", "conscious"),  # knocked down by the charge, got up
        "Mira": (2, 0, 13, 0, False, "standing", "conscious"),  # Vigilance: hit by the charge, not knocked down; 2 life gained
        "Imp": (1, 0, 5, 0, False, "standing", "conscious"),
        "Ogre": (0, 0, 0, 16, True, "standing", "unconscious"),  # 16 counters: Deathtouch hits and its poison
    }
    # The Ogre's poison took its last Vitality at its round 3 upkeep: its turn passed (tt.stats.vitality), on to Mira's.
    assert (s["round"], by_name(s, "Mira")["id"] == s["order"][s["turn"]], s["step"]) == (3, True, "untap")
    assert "Ogre is unconscious: its turn passes after its upkeep step; nobody in it can act." in s["log"][-1]["details"]
    assert len(s["log"]) == len(FIGHT) - 2  # the undo took back one action and left no entry of its own
    assert [e["text"] for e in s["log"] if "meet" in " ".join(e["details"])] == ["Mira strikes first: 2 damage."]


# ---------------------------------------------------------------- the same numbers as the forms


CONDITION_RULES = {"tt.advantage.roll", "tt.advantage.conditions", "tt.keyword.haste", "tt.mechanics.deathtouch-disadvantage",
                   "tt.ruling.poisoned-rolls", "tt.ruling.prone-attacker", "tt.ruling.advantage-and-disadvantage"}


def oracle_mode(adv: int, dis: int, both: str) -> str:
    """tt.advantage.roll and tt.ruling.advantage-and-disadvantage, from the page: cancel (any mix is one d20) or count."""
    if adv and dis:
        return "normal" if both == "cancel" or adv == dis else "advantage" if adv > dis else "disadvantage"
    return "advantage" if adv else "disadvantage" if dis else "normal"


def yes(flag) -> str:
    return "yes" if flag else "no"


@settings(max_examples=150, deadline=None)
@given(power=st.integers(0, 30), situation=st.sampled_from(["normal", "advantage", "disadvantage"]), haste=st.booleans(),
       poisoned=st.booleans(), tapped=st.sampled_from([None, "kneeling", "knocked-down"]), both=st.sampled_from(["cancel", "count"]),
       overflow=st.sampled_from(["carry", "stop"]), dice=st.lists(st.integers(1, 20), min_size=2, max_size=2), d4=st.integers(1, 4),
       toughness=st.integers(0, 20), vitality=st.integers(0, 30))
def test_the_tracker_and_the_attack_form_agree(power, situation, haste, poisoned, tapped, both, overflow, dice, d4, toughness, vitality):
    """One source for the attack's conditions (tt.advantage.conditions, tt.ruling.prone-attacker,
    tt.mechanics.deathtouch-disadvantage, tt.ruling.poisoned-rolls, tt.ruling.advantage-and-disadvantage) and for when
    a critical needs its d4 (tt.combat.attack-table): the tracker and the attack form, given one situation and the same
    dice, roll the same way, cite the same rules, say the same sentence and deal the same damage."""
    s = fresh({"do": "settings", "settings": {"both": both, "overflow": overflow}},
              {"do": "add", "name": "A", "kind": "pc", "power": power, "toughness": 5, "vitality": 10, "initiative": 10, "keywords": ["haste"] * haste},
              {"do": "add", "name": "B", "kind": "npc", "power": 1, "toughness": toughness, "vitality": vitality, "initiative": 1},
              {"do": "start"}, {"do": "next"}, {"do": "next"}, {"do": "next"})
    changes = {**({"poisoned": True} if poisoned else {}), **({"status": tapped} if tapped else {})}
    if changes:
        s, _ = step(s, {"do": "edit", "id": "c1", "set": changes})
    mode = oracle_mode(int(situation == "advantage") + haste, int(situation == "disadvantage") + poisoned + bool(tapped), both)
    d20 = dice[0] if mode == "normal" else dice
    s2, result = step(s, {"do": "attack", "attacker": "c1", "target": "c2", "mode": situation, "dice": {"d20": d20, "crit_d4": d4}})
    form = runner.run("tell_tale.resolve_attack", {"power": str(power), "d20": " ".join(map(str, dice[:1] if mode == "normal" else dice)),
                                                     "mode": situation, "haste": yes(haste), "poisoned": yes(poisoned), "tapped": yes(tapped),
                                                     "both": both, "crit_d4": str(d4)})
    assert form["ok"], form
    assert form["odds_title"].endswith(f"({mode})")
    assert set(form["rules"]) & CONDITION_RULES == set(result.rules) & CONDITION_RULES
    assert ("crit_d4" in form["dice"]) == any("critical d4" in k for k in result.dice)
    told = [d.removeprefix("The attack") for d in form["details"] if d.startswith("The attack")]
    assert told == [d.removeprefix("A's attack") for d in result.details if d.startswith("A's attack")]
    damage = int(form["headline"].split(": ")[1].split(" damage")[0])
    hit = apply_damage(toughness, vitality, damage, overflow=overflow)
    b = by_name(s2, "B")
    assert (b["toughness_now"], b["vitality"]) == (hit.toughness, hit.vitality)
    assert result.outcome == ("miss" if form["outcome"] == "miss" else "hit")
    assert f"{damage} damage (Power {power})" in " ".join(result.details)


@settings(max_examples=80, deadline=None)
@given(haste=st.booleans(), poisoned=st.booleans(), vigilant=st.booleans(), both=st.sampled_from(["cancel", "count"]),
       tie=st.sampled_from(["saver", "effect"]), effect=st.integers(1, 20), saves=st.lists(st.integers(1, 20), min_size=2, max_size=2))
def test_the_tracker_and_the_save_form_agree(haste, poisoned, vigilant, both, tie, effect, saves):
    """The saver's conditions (tt.ruling.opposed-saves: Haste helps a reflex save, poison hinders it) come from one
    place: the tracker's involuntary tapping and the saving throw form agree on the roll, the rules and the outcome."""
    keywords = ["haste"] * haste + ["vigilance"] * vigilant
    s = fresh({"do": "settings", "settings": {"both": both, "tie": tie}},
              {"do": "add", "name": "A", "kind": "pc", "power": 1, "toughness": 5, "vitality": 10, "initiative": 10, "keywords": keywords})
    if poisoned:
        s, _ = step(s, {"do": "edit", "id": "c1", "set": {"poisoned": True}})
    mode = oracle_mode(int(haste), int(poisoned), both)
    save = saves[0] if mode == "normal" else saves
    s2, result = step(s, {"do": "tap", "target": "c1", "dice": {"effect_d20": effect, "save_d20": save}})
    form = runner.run("tell_tale.opposed_save", {"effect_d20": str(effect), "save_d20": " ".join(map(str, saves[:1] if mode == "normal" else saves)),
                                                   "haste": yes(haste), "poisoned": yes(poisoned), "both": both, "vigilance": yes(vigilant),
                                                   "against": "tapping", "tie": tie})
    assert form["ok"], form
    assert set(form["rules"]) & CONDITION_RULES == set(result.rules) & CONDITION_RULES
    assert result.outcome == ("saved" if form["outcome"] == "saved" else "kneeling" if vigilant else "knocked-down")
    assert (by_name(s2, "A")["status"] == "standing") == (form["outcome"] == "saved")


@settings(max_examples=80, deadline=None)
@given(power=st.integers(0, 12), first=st.integers(1, 20), second=st.integers(1, 20), d4s=st.tuples(st.integers(1, 4), st.integers(1, 4)))
def test_the_trackers_double_strike_equals_double_strike(power, first, second, d4s):
    s = fresh({"do": "add", "name": "A", "kind": "pc", "power": power, "toughness": 5, "vitality": 10, "initiative": 10, "keywords": ["double-strike"]},
              {"do": "add", "name": "B", "kind": "npc", "power": 1, "toughness": 6, "vitality": 40, "initiative": 1},
              {"do": "start"}, {"do": "next"}, {"do": "next"}, {"do": "next"})
    s2, _ = step(s, {"do": "attack", "attacker": "c1", "target": "c2", "dice": {"d20": first, "crit_d4": d4s[0], "second_d20": second, "second_crit_d4": d4s[1]}})
    r = double_strike(power, first, second, first_crit_d4=d4s[0] if first == 20 else None, second_crit_d4=d4s[1] if second == 20 else None)
    hit = apply_damage(6, 40, r.first.damage)
    hit = apply_damage(hit.toughness, hit.vitality, r.second.damage)
    assert (by_name(s2, "B")["toughness_now"], by_name(s2, "B")["vitality"]) == (hit.toughness, hit.vitality)


@settings(max_examples=80, deadline=None)
@given(p1=st.integers(0, 9), p2=st.integers(0, 9), r1=st.integers(1, 20), r2=st.integers(1, 20), d4=st.integers(1, 4),
       winner=st.sampled_from(["table", "full"]))
def test_the_trackers_first_strike_meeting_equals_first_strike(p1, p2, r1, r2, d4, winner):
    s = fresh({"do": "settings", "settings": {"winner_damage": winner}},
              {"do": "add", "name": "A", "kind": "pc", "power": p1, "toughness": 30, "vitality": 30, "initiative": 1, "keywords": ["first-strike"]},
              {"do": "add", "name": "B", "kind": "npc", "power": p2, "toughness": 30, "vitality": 30, "initiative": 10, "keywords": ["first-strike"]},
              {"do": "start"}, {"do": "next", "through": True}, {"do": "move", "id": "c2", "near": ["c1"]})  # B comes in range of A
    s2, result = step(s, {"do": "first_strike", "attacker": "c1", "target": "c2", "dice": {"d20": r1, "target_d20": r2, "crit_d4": d4}})
    r = first_strike(p1, r1, p2, r2, winner_damage=winner, crit_d4=d4 if max(r1, r2) == 20 and r1 != r2 and winner == "table" else None)
    assert result.outcome == r.winner
    form = runner.run("tell_tale.first_strike", {"first_power": str(p1), "first_d20": str(r1), "second_power": str(p2), "second_d20": str(r2),
                                                   "winner_damage": winner, "crit_d4": str(d4)})
    assert form["outcome"] == r.winner
    assert ("crit_d4" in form["dice"]) == ("the winner's critical d4" in result.dice)  # one rule for when a d4 is rolled
    lost = {name: 60 - by_name(s2, name)["toughness_now"] - by_name(s2, name)["vitality"] for name in "AB"}  # a crit may pass Toughness 30
    assert (lost["A"], lost["B"]) == (r.damage_to_first, r.damage_to_second)


@settings(max_examples=80, deadline=None)
@given(power=st.integers(0, 9), rolls=st.lists(st.tuples(st.integers(1, 20), st.integers(1, 20), st.integers(1, 20)), min_size=3, max_size=3),
       vigilant=st.lists(st.booleans(), min_size=3, max_size=3), tie=st.sampled_from(["saver", "effect"]))
def test_the_trackers_charge_equals_charge_enemy(power, rolls, vigilant, tie):
    s = fresh({"do": "settings", "settings": {"tie": tie}},
              {"do": "add", "name": "Ogre", "kind": "npc", "power": power, "toughness": 9, "vitality": 30, "initiative": 20, "keywords": ["trample"]},
              *({"do": "add", "name": f"E{i}", "kind": "pc", "power": 1, "toughness": 30, "vitality": 30, "initiative": 5,
                 "keywords": ["vigilance"] * v} for i, v in enumerate(vigilant)),
              {"do": "start"}, {"do": "next"}, {"do": "next"}, {"do": "next"})
    dice = [{"d20": a, "crit_d4": 2, "effect_d20": e, "save_d20": v} for a, e, v in rolls]
    s2, _ = step(s, {"do": "charge", "attacker": "c1", "targets": ["c2", "c3", "c4"], "dice": dice})
    for i, (a, e, v) in enumerate(rolls):
        r = charge_enemy(power, a, crit_d4=2 if a == 20 else None, effect_d20=e, save_d20=v, vigilance=vigilant[i], tie=tie)
        enemy = by_name(s2, f"E{i}")
        assert 30 - enemy["toughness_now"] == r.damage
        assert enemy["status"] == ("knocked-down" if r.outcome == "knocked-down" else "standing")


def _to_upkeep(s, cid):
    """Step on to the upkeep step of `cid`'s next turn, or past it when that turn passes (unconscious: its upkeep still happens)."""
    name = by_name_id(s, cid)["name"]
    while True:
        s, said = step(s, {"do": "next"})
        if (s["order"][s["turn"]] == cid and s["step"] == "upkeep") or f"{name} is unconscious: its turn passes" in " ".join(said.details):
            return s


def by_name_id(state, cid):
    return next(c for c in state["combatants"] if c["id"] == cid)


@pytest.mark.parametrize("cure,cure_turn", [("none", 1), ("life", 1), ("life", 3), ("regenerate", 2), ("burn", 2)])
def test_the_trackers_poison_equals_the_poison_track(cure, cure_turn):
    """A Deathtouch hit of 3 on Power 3, Toughness 2, Vitality 5; its upkeeps tick, and cures work, as poison_track says."""
    s = fresh({"do": "add", "name": "V", "kind": "pc", "power": 4, "toughness": 9, "vitality": 30, "initiative": 20, "keywords": ["deathtouch"]},
              {"do": "add", "name": "X", "kind": "pc", "power": 3, "toughness": 2, "vitality": 5, "initiative": 1},
              {"do": "start"}, {"do": "next"}, {"do": "next"}, {"do": "next"},
              {"do": "attack", "attacker": "c1", "target": "c2", "dice": {"d20": 12}}, {"do": "damage", "target": "c2", "amount": 1, "source": "c1"})
    track = poison_track(3, 2, 5, 3, 6, cure=cure, cure_turn=cure_turn, life=2)
    x = by_name(s, "X")  # the attack dealt 2 (half of 4), the damage 1 more: 3 counters, like the track's hit of 3
    assert (x["counters"], x["vitality"], x["toughness_now"], x["poisoned"]) == (3, 4, 0, True)
    rows = {(r.turn, r.event): r.condition for r in track.rows}
    for turn in range(1, 7):
        if x["vitality"] < 0 or not x["poisoned"]:
            break
        s = _to_upkeep(s, "c2")
        x = by_name(s, "X")
        want = rows[turn, "counter"]
        assert (x["counters"], x["vitality"], x["toughness_now"]) == (want.counters, want.vitality, want.toughness_now)
        if cure != "none" and turn == cure_turn:
            s, _ = step(s, {"do": "life", "target": "c2", "amount": 2} if cure == "life" else {"do": "cure", "target": "c2", "how": cure, "amount": 2})
            x, want = by_name(s, "X"), rows[turn, "cure"]
            assert (x["counters"], x["vitality"], x["toughness_now"], x["poisoned"]) == (want.counters, want.vitality, want.toughness_now, False)
    f = track.final
    assert (x["counters"], x["vitality"], x["poisoned"], x["power_now"]) == (f.counters, f.vitality, f.poisoned, f.power_now)


# ---------------------------------------------------------------- invariants over random fights

DAMAGING = {"attack", "first_strike", "reach", "charge", "damage", "tap", "exile", "detain", "extort", "life", "move", "act", "initiative", "order", "add",
            "another", "remove"}



@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_every_declared_action_has_a_handler_and_a_random_case(data):
    """The declarations are the actions: each holds its own handler (the default one does nothing), and each
    is drawn by the property test, from its declaration or by a case of its own."""
    default = ActionSpec("x", "x").handler
    assert all(spec.handler is not default for spec in SPECS)
    assert len({spec.handler for spec in SPECS}) == len(SPECS)  # no two actions share a handler
    state = fresh(*ADD, {"do": "start"})
    for name, spec in ACTION_SPECS.items():
        if name not in OWN_CASE:
            action = random_from_spec(data, spec, state)  # raises for a field kind it cannot draw
            assert action["do"] == name and all(action.get(f.key) is not None for f in spec.fields if f.required)


COMBATANT_TYPES = typing.get_type_hints(Combatant)


def assert_shaped_as_combatant(c):
    """The combatant has exactly the keys of the `Combatant` type, each of its type (mypy trusts it)."""
    assert set(c) == set(COMBATANT_TYPES), set(c) ^ set(COMBATANT_TYPES)
    for key, kind in COMBATANT_TYPES.items():
        value = c[key]
        if typing.get_origin(kind) is dict and typing.get_args(kind)[1] is str:  # attack_rolls: {situation: words}
            assert isinstance(value, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in value.items()), (key, value)
        elif typing.get_origin(kind) is dict:  # chances: {action: [ids]}
            assert isinstance(value, dict) and all(isinstance(k, str) and isinstance(v, list) and all(isinstance(i, str) for i in v)
                                                   for k, v in value.items()), (key, value)
        elif typing.is_typeddict(typing.get_args(kind)[0] if typing.get_args(kind) else kind):  # moved: a Movement or None
            assert value is None or (isinstance(value, dict) and set(value) == set(typing.get_type_hints(typing.get_args(kind)[0]))), (key, value)
        elif typing.get_origin(kind) is list:
            assert isinstance(value, list) and all(isinstance(v, typing.get_args(kind)[0]) for v in value), (key, value)
        else:
            kinds = typing.get_args(kind) or (kind,)  # int | None gives (int, NoneType)
            assert isinstance(value, kinds) and (bool in kinds or not isinstance(value, bool)), (key, value)


def test_a_combatant_of_the_wrong_shape_is_caught():
    """The shape check above can fail: a missing key, an extra one, a string for a number, a bool for an int."""
    good = fresh(*ADD[:1])["combatants"][0]
    assert_shaped_as_combatant(good)
    for bad in ({k: v for k, v in good.items() if k != "band"}, {**good, "extra": 1}, {**good, "power": "5"}, {**good, "power": True},
                {**good, "keywords": [1]}):
        with pytest.raises(AssertionError):
            assert_shaped_as_combatant(bad)


@pytest.mark.settled
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_random_fights_keep_every_invariant(data):
    state = fresh(*({"do": "add", **f} for f in data.draw(st.lists(fighters([]), min_size=2, max_size=4))))
    for _ in range(data.draw(st.integers(5, 40))):
        action = random_action(data, state)
        before = copy.deepcopy(state)
        try:
            new, result = step(state, action, data.draw(st.integers(0, 2**32 - 1)))
        except InputError as err:
            assert str(err) and "Traceback" not in str(err)
            assert state == before, "a refused action changed the state"
            continue
        assert state == before, "a step changed the state it was given"
        # every state a step gives passes the check a state from outside gets, unchanged
        assert check_encounter(json.loads(json.dumps(new))) == new
        assert set(result.rules) <= set(RULES)
        for old, c in ((next((o for o in before["combatants"] if o["id"] == c["id"]), None), c) for c in new["combatants"]):
            assert_shaped_as_combatant(c)
            assert c["counters"] >= 0 and c["toughness_now"] >= 0 and c["actions"] >= 0
            if old is not None and action["do"] in DAMAGING:  # damage never raises Toughness
                assert c["toughness_now"] <= old["toughness_now"], (action, old, c)
        # undo restores the exact prior state
        if action["do"] == "show":  # shows the state as it is: no entry, nothing to undo
            assert new == before
        elif action["do"] != "undo" and len(before["undo"]) < UNDO_CAP and len(before["log"]) < LOG_CAP:
            back, _ = step(new, {"do": "undo"})
            assert {**back, "redo": None} == {**before, "redo": None}  # and the step undone kept, for Redo
            assert step(back, {"do": "redo"})[0] == new  # Redo: the very state the step made
        state = new


def test_undo_walks_back_a_whole_fight():
    """From the end of the scripted fight back to the undo inside it, one exact state at a time; the
    undo history itself is kept to its last UNDO_CAP steps."""
    states = [new_encounter()]
    for action, seed in FIGHT:
        states.append(step(states[-1], action, seed)[0])
    last_undo = max(i for i, (a, _) in enumerate(FIGHT) if a["do"] == "undo") + 1
    s = states[-1]
    for expected in reversed(states[last_undo:-1]):
        s, _ = step(s, {"do": "undo"})
        assert {**s, "undo": None, "redo": None} == {**expected, "undo": None, "redo": None}
        assert s["undo"] == expected["undo"][len(expected["undo"]) - len(s["undo"]):]
    assert len(s["undo"]) == UNDO_CAP - (len(states) - 1 - last_undo)


def test_no_step_leaves_a_fight_the_tracker_could_not_read_back():
    """Healing past Vitality 999 or damage below -999 (tt.stats.vitality) once made a state that the
    check of a saved fight refused: the fight was lost at the next reload. Such a step is refused now,
    in a sentence, and nothing changes."""
    s = fresh(*ADD[:2])
    for action in ({"do": "life", "target": "c1", "amount": 990}, {"do": "damage", "target": "c2", "amount": 9999, "source": "c1"}):
        with pytest.raises(InputError) as err:
            step(s, action)
        assert "Nothing has changed" in str(err.value) and "999" in str(err.value), str(err.value)
    s, _ = step(s, {"do": "life", "target": "c1", "amount": 984})  # 15 + 984 = 999: the most there is
    assert by_name(s, "Vraska")["vitality"] == 999
    assert check_encounter(json.loads(json.dumps(s))) == s


def test_nothing_to_undo_and_unknown_actions_are_sentences():
    with pytest.raises(InputError, match="nothing to undo"):
        step(new_encounter(), {"do": "undo"})
    answer = runner.track(TRACKER, "", json.dumps({"do": "fly"}))
    assert answer["ok"] is False and "knows these actions" in answer["error"]


# ---------------------------------------------------------------- refusals in words


@pytest.mark.parametrize("label,mutate,words", HOSTILE, ids=[h[0] for h in HOSTILE])
def test_hostile_state_is_refused_with_a_sentence(label, mutate, words):
    state = json.loads(json.dumps(run_script(FIGHT[:12])))
    text = mutate(state)
    answer = runner.track(TRACKER, text if isinstance(text, str) else json.dumps(state), json.dumps({"do": "next"}))
    assert answer["ok"] is False, label
    assert words in answer["error"], answer["error"]
    assert answer["error"].endswith((".", ")")) and "Traceback" not in answer["error"]


@pytest.mark.parametrize("action,words", [
    ({"do": "add", "name": "x" * 41, "kind": "pc", "power": 1, "toughness": 1, "vitality": 1}, "the limit is 40"),
    ({"do": "add", "name": "Ann", "kind": "pc", "power": 10**20, "toughness": 1, "vitality": 1}, "Power must be from 0 to 999"),
    ({"do": "add", "name": "Ann", "kind": "pc", "power": 1, "toughness": 1, "vitality": 1, "keywords": ["banding"]}, "no keyword 'banding'"),
    ({"do": "add", "name": "Ann", "kind": "dragon", "power": 1, "toughness": 1, "vitality": 1}, "pc, npc, familiar or summon"),
    ({"do": "add", "name": "Ann", "kind": "familiar", "power": 1, "toughness": 1, "vitality": 1}, "choose its owner"),
    ({"do": "add", "name": "Ann", "kind": "pc", "power": 1, "toughness": 1, "vitality": 1, "wings": True}, "takes no 'wings'"),
    ({"do": "attack", "attacker": "c1", "target": "c3"}, "not under way"),
    ({"do": "start"}, "Give Mira an Initiative"),
])
def test_bad_actions_are_refused_in_words(action, words):
    s = fresh(*(a for a, _ in FIGHT[:3]))
    s, _ = step(s, {"do": "edit", "id": "c2", "set": {"initiative": None}}) if action["do"] == "start" else (s, None)
    with pytest.raises(InputError) as err:
        step(s, action)
    assert words in str(err.value)


# Control, direction and zero-width characters, among them some that a check of a few names would miss
# (the Arabic letter mark, the Mongolian vowel separator, an interlinear annotation, half a surrogate pair).
UNSAFE_NAMES = [("ESC", "\x1b"), ("BEL", "\x07"), ("RLO", "\u202e"), ("LRI", "\u2066"), ("ZWSP", "\u200b"), ("BOM", "\ufeff"),
                ("ALM", "\u061c"), ("MVS", "\u180e"), ("IAA", "\ufff9"), ("surrogate", "\udc00")]


@pytest.mark.parametrize("character", [c for _, c in UNSAFE_NAMES], ids=[n for n, _ in UNSAFE_NAMES])
def test_a_name_is_refused_in_the_encounter_as_in_the_season(character):
    """One name check for both trackers: the same refusal, in the same words, for a combatant and a player."""
    add = runner.track(TRACKER, "", json.dumps({"do": "add", "name": f"Ann{character}", "kind": "pc", "power": 1, "toughness": 1, "vitality": 1}))
    season = runner.track("rpgdl.season", "", json.dumps({"do": "player", "player": "first", "name": f"Ann{character}"}))
    assert not add["ok"] and add["field"] == "name", add
    assert not season["ok"] and season["field"] == "name", season
    assert add["error"].removeprefix("The name") == season["error"].removeprefix("A player's name")
    renamed = runner.track(TRACKER, json.dumps(fresh(FIGHT[0][0])), json.dumps({"do": "edit", "id": "c1", "set": {"name": f"Ann{character}"}}))
    assert not renamed["ok"] and "holds a control or direction character" in renamed["error"], renamed


def test_too_many_combatants_is_refused():
    s = new_encounter()
    for i in range(24):
        s, _ = step(s, {"do": "add", "name": f"G{i}", "kind": "npc", "power": 1, "toughness": 1, "vitality": 1})
    with pytest.raises(InputError, match="at most 24"):
        step(s, {"do": "add", "name": "One more", "kind": "npc", "power": 1, "toughness": 1, "vitality": 1})


def test_the_state_stays_within_its_budget():
    s = fresh(*({"do": "add", "name": f"Goblin number {i:02d}", "kind": "npc", "power": 3, "toughness": 3, "vitality": 9,
                 "keywords": ["trample", "first-strike"]} for i in range(24)), {"do": "start"})
    for i in range(300):
        s, _ = step(s, {"do": "next"}, i)
    text = json.dumps(s)
    assert len(text) < registry.all_trackers()[TRACKER].max_state_chars
    assert len(s["log"]) <= LOG_CAP and s["log"][-1]["n"] == 24 + 1 + 300
    assert check_encounter(json.loads(text)) == s


# ---------------------------------------------------------------- the command line


def test_the_command_line_runs_an_encounter_file(tmp_path):
    path = tmp_path / "fight.json"
    path.write_text(json.dumps([a for a, _ in FIGHT[:4]] + [{"do": "initiative", "id": "c4", "value": 12}, {"do": "start"}]))
    out = command_line.run("track", TRACKER, str(path), "--seed", "5", "--save", str(tmp_path / "s.json"))
    assert out.returncode == 0, out.stderr
    assert "Encounter: Round 1, Vraska's turn: untap step." in out.stdout and "Ogre (npc, foes): Power 5/5" in out.stdout
    saved = json.loads((tmp_path / "s.json").read_text())
    assert check_encounter(saved) == saved
    out = command_line.run("track", TRACKER, str(tmp_path / "s.json"), "--do", '{"do": "next"}', "--json")
    assert json.loads(out.stdout)["state"]["step"] == "upkeep"
    (tmp_path / "bad.json").write_text(json.dumps({**saved, "round": -3}))
    out = command_line.run("track", TRACKER, str(tmp_path / "bad.json"))
    assert out.returncode == 2 and "The round must be from 0 to 999; got -3." in out.stderr and "Traceback" not in out.stderr


# ---------------------------------------------------------------- every rule of the fight


def at_actions(*adds, settings=None):
    """A fight of `adds` started, at the first holder's character actions step."""
    first = ({"do": "settings", "settings": settings},) if settings else ()
    return fresh(*first, *adds, {"do": "start"}, {"do": "next"}, {"do": "next"}, {"do": "next"})


def add(name, kind="pc", initiative=10, keywords=(), **more):
    return {"do": "add", "name": name, "kind": kind, "power": 4, "toughness": 4, "vitality": 12, "speed": 6,
            **({"initiative": initiative} if kind in ("pc", "npc") else {}), "keywords": list(keywords), **more}


def test_haste_says_the_hasted_speed_and_the_base_it_comes_from():
    """tt.keyword.haste, tt.ruling.haste-rounding: Speed 6 with Haste is 9; the 6 is the base, not the hasted Speed."""
    s = at_actions(add("Mira", keywords=["haste"]))
    _, result = step(s, {"do": "move", "id": "c1"})
    assert result.headline == "Mira moves up to Speed 9 (Haste: Speed 6 + half, rounded down)."
    assert "6 with Haste" not in result.headline
    assert {"tt.keyword.haste", "tt.ruling.haste-rounding"} <= set(result.rules)


def test_a_vigilant_character_that_fails_a_tapping_save_kneels():
    """tt.ruling.vigilance-knockdown, tt.mechanics.vigilance-save: +5 on the save; failed, it is tapped but never knocked down."""
    s = fresh(add("Mira", keywords=["vigilance"]), add("Cleric"))
    s2, result = step(s, {"do": "tap", "target": "c1", "dice": {"effect_d20": 20, "save_d20": 3}})  # 3 + 5 = 8 against 20
    assert by_name(s2, "Mira")["status"] == "kneeling" and result.outcome == "kneeling"
    assert "tt.ruling.vigilance-knockdown" in result.rules and "tt.mechanics.vigilance-save" in result.rules
    s2, result = step(s, {"do": "tap", "target": "c2", "dice": {"effect_d20": 20, "save_d20": 3}})
    assert by_name(s2, "Cleric")["status"] == "knocked-down" and result.outcome == "knocked-down"


def test_a_charge_does_not_knock_down_a_target_already_down():
    """tt.ruling.trample-charge: an enemy already tapped rolls no knock-down save and is not counted as knocked down again."""
    s = at_actions(add("Ogre", initiative=20, keywords=["trample"]), add("Vraska", kind="npc", initiative=1), add("Mira", kind="npc", initiative=1))
    s, _ = step(s, {"do": "edit", "id": "c2", "set": {"status": "knocked-down"}})
    s2, result = step(s, {"do": "charge", "attacker": "c1", "targets": ["c2", "c3"],
                          "dice": [{"d20": 16, "effect_d20": 20, "save_d20": 1}, {"d20": 16, "effect_d20": 20, "save_d20": 1}]})
    assert result.headline == "Ogre charges through 2 enemies: 2 hits, 8 damage, 1 knocked down."
    assert not any("Vraska's save d20" in k for k in result.dice)  # no save asked of the one already down
    assert "Vraska is knocked down (tapped) already: no knock-down save, and it is not knocked down again." in result.details
    assert [c["status"] for c in s2["combatants"]] == ["standing", "knocked-down", "knocked-down"]
    assert charge_enemy(4, 16, effect_d20=20, save_d20=1, tapped=True).outcome == "already-down"


def test_detain_needs_an_opposed_save():
    """tt.ruling.detain-save (tt.keyword.detain, tt.mechanics.involuntary-tapping): detaining is involuntary tapping,
    so the target saves first, +5 with Vigilance; only a failed save detains it until the detainer's next turn."""
    s = at_actions(add("Jailer", initiative=20), add("Thief", kind="npc", initiative=5), add("Monk", kind="npc", initiative=1, keywords=["vigilance"]))
    s2, result = step(s, {"do": "detain", "source": "c1", "target": "c2", "dice": {"effect_d20": 12, "save_d20": 14}})
    assert by_name(s2, "Thief")["status"] == "standing" and result.outcome == "saved"
    assert {"tt.ruling.detain-save", "tt.ruling.opposed-saves", "tt.mechanics.involuntary-tapping"} <= set(result.rules)
    s2, result = step(s, {"do": "detain", "source": "c1", "target": "c2", "dice": {"effect_d20": 12, "save_d20": 9}})
    assert (by_name(s2, "Thief")["status"], by_name(s2, "Thief")["detained_by"], result.outcome) == ("detained", "c1", "detained")
    s2, result = step(s, {"do": "detain", "source": "c1", "target": "c3", "dice": {"effect_d20": 12, "save_d20": 9}})  # 9 + 5 = 14
    assert by_name(s2, "Monk")["status"] == "standing" and "tt.mechanics.vigilance-save" in result.rules
    with pytest.raises(InputError, match="type what you rolled"):
        step(s, {"do": "detain", "source": "c1", "target": "c2"})  # no dice and nothing to roll them with: no longer applied at once


def test_a_summon_joins_a_fight_only_as_its_casters_sorcery():
    """tt.summoning.timing, tt.ruling.summon-timing: in a fight a summon (not a token) comes only when its caster could
    cast a sorcery, and takes one of its 2 actions; a token comes at any time, for no action; before the fight, freely."""
    wolf = {"do": "add", "name": "Wolf", "kind": "summon", "owner": "c1", "power": 2, "toughness": 2, "vitality": 4}
    s = fresh(add("Nissa", initiative=20), add("Orc", kind="npc", initiative=1))
    s, _ = step(s, wolf)  # before the fight: no turn, no action
    s, _ = step(s, {"do": "remove", "id": "c3"})
    s = fresh({"do": "start"}, state=s)
    with pytest.raises(InputError, match="character actions step"):
        step(s, wolf)  # Nissa's untap step
    s = fresh({"do": "next"}, {"do": "next"}, {"do": "next"}, state=s)
    s2, result = step(s, wolf)
    assert by_name(s2, "Nissa")["actions"] == 1 and by_name(s2, "Wolf")["status"] == "standing"
    assert {"tt.summoning.timing", "tt.ruling.summon-timing", "tt.combat.actions"} <= set(result.rules)
    s2, _ = step(s2, {"do": "move", "id": "c1"})
    with pytest.raises(InputError, match="0 actions left"):
        step(s2, {**wolf, "name": "Bear"})  # no action left for a second summon
    s3, _ = step(s2, {**wolf, "name": "Saproling", "token": True})  # a token: no action needed
    assert by_name(s3, "Saproling")["token"] and by_name(s3, "Nissa")["actions"] == 0
    s4 = fresh({"do": "next"}, {"do": "next"}, {"do": "next"}, {"do": "next"}, state=s)  # the Orc's turn
    with pytest.raises(InputError, match="It is Orc's turn"):
        step(s4, wolf)


def test_the_draw_and_end_steps_say_the_tracker_keeps_no_hands():
    """tt.combat.draw-step, tt.combat.end-step: the tracker knows no hand sizes, and says so at both steps rather than
    narrating a draw and a discard as if it had counted them; once, in each holder's first turn."""
    s = fresh(add("Mira"), {"do": "start"}, {"do": "next"})
    s, result = step(s, {"do": "next"})
    assert s["step"] == "draw" and "tt.combat.draw-step" in result.rules
    assert "the tracker does not keep hands" in " ".join(result.details)
    s, _ = step(s, {"do": "next"})
    s, result = step(s, {"do": "next"})
    assert s["step"] == "end" and "tt.combat.end-step" in result.rules
    assert "The tracker does not keep hands." in " ".join(result.details)
    s, result = step(s, {"do": "next", "through": True})  # round 2: no reminder again
    assert s["round"] == 2 and "hands" not in " ".join(result.details)


def test_a_step_leads_with_what_it_changed():
    """The result names the changed numbers first ("Kara: T 3 → 0, V 15 → 12"), and poison's counter at
    the upkeep leads the turn's entry; a step that changes nothing has no such line."""
    s = at_actions(add("Kara", initiative=20), add("Ogre", kind="npc", initiative=1, keywords=["deathtouch"]))
    s, result = step(s, {"do": "damage", "target": "c1", "amount": 7})
    assert result.details[0] == "Changed: Kara: T 4 → 0, V 12 → 9."
    s, result = step(s, {"do": "damage", "target": "c1", "amount": 3, "source": "c2"})
    assert result.details[0] == "Changed: Kara: V 9 → 6, −1/−1 0 → 3, poisoned."
    s, result = step(s, {"do": "next", "through": True})  # Kara's end, the Ogre's turn: Kara's poison ticks only in her upkeep
    assert not result.details[0].startswith("Changed")
    s, result = step(s, {"do": "next", "through": True})  # on to Kara's actions, through her upkeep
    assert result.details[0] == "Changed: Kara: V 6 → 5, −1/−1 3 → 4." and result.details[-1].startswith("Passed on their own")


def test_only_flyers_and_reach_attack_a_flyer_in_the_air():
    """tt.keyword.flying, tt.keyword.reach, tt.ruling.flying-reach: a ground character without Reach cannot attack a flyer
    in the air (nor charge through it); one with Flying or Reach can; a tapped flyer is on the ground."""
    s = at_actions(add("Knight", initiative=20, keywords=["trample"]), add("Archer", initiative=15, keywords=["reach"]),
                   add("Hawk", kind="npc", initiative=1, keywords=["flying"]), add("Roc", initiative=18, keywords=["flying"]))
    with pytest.raises(InputError, match="Hawk is flying: only a character with Flying or Reach can attack it"):
        step(s, {"do": "attack", "attacker": "c1", "target": "c3", "dice": {"d20": 12}})
    with pytest.raises(InputError, match="Hawk is flying"):
        step(s, {"do": "charge", "attacker": "c1", "targets": ["c3"], "dice": [{"d20": 12}]})
    grounded, _ = step(s, {"do": "edit", "id": "c3", "set": {"status": "knocked-down"}})
    _, result = step(grounded, {"do": "attack", "attacker": "c1", "target": "c3", "dice": {"d20": 12}})
    assert result.outcome == "hit"  # knocked down: on the ground
    for who in ("c2", "c4"):  # Reach, Flying: each acts in its own turn
        t = fresh(*[{"do": "next"}] * 5 * (1 if who == "c4" else 2), state=s)
        _, result = step(t, {"do": "attack", "attacker": who, "target": "c3", "dice": {"d20": 12}})
        assert result.outcome == "hit" and "tt.ruling.flying-reach" in result.rules


def test_a_flyer_that_attacks_the_ground_can_be_attacked_until_its_next_turn():
    """tt.mechanics.flying-landing, tt.ruling.flying-reach: a flyer that attacks something on the ground lands, so ground
    forces can attack it; at the start of its next turn it is in the air again."""
    s = at_actions(add("Hawk", initiative=20, keywords=["flying"]), add("Orc", kind="npc", initiative=1))
    s, result = step(s, {"do": "attack", "attacker": "c1", "target": "c2", "dice": {"d20": 12}})
    assert by_name(s, "Hawk")["landed"] and "tt.mechanics.flying-landing" in result.rules
    assert check_encounter(json.loads(json.dumps(s))) == s
    s = fresh({"do": "next"}, {"do": "next"}, {"do": "next"}, {"do": "next"}, {"do": "next"}, state=s)  # the Orc's actions
    _, result = step(s, {"do": "attack", "attacker": "c2", "target": "c1", "dice": {"d20": 12}})
    assert result.outcome == "hit"
    s = fresh({"do": "next"}, {"do": "next"}, state=s)  # the Hawk's untap step
    assert not by_name(s, "Hawk")["landed"] and "in the air again" in " ".join(s["log"][-1]["details"])
    old = json.loads(json.dumps(s))
    del old["combatants"][0]["landed"]  # a state saved before the field existed
    assert check_encounter(old)["combatants"][0]["landed"] is False


def test_reach_strikes_a_flyer_passing_over():
    """tt.keyword.reach, tt.ruling.flying-reach, tt.ruling.opportunity-movement: a flyer whose move passes over a Reach
    character gives it one attack of opportunity, out of turn and for none of its actions; not on a vigilant flyer
    (tt.keyword.vigilance), not without Reach, not twice for one pass, not on a flyer that did not pass over it."""
    s = at_actions(add("Hawk", kind="npc", initiative=20, keywords=["flying"]), add("Archer", initiative=1, keywords=["reach"]),
                   add("Owl", kind="npc", initiative=2, keywords=["flying", "vigilance"]), add("Page", initiative=3))
    with pytest.raises(InputError, match="Hawk has not flown over Archer this turn: record Hawk's move first"):
        step(s, {"do": "reach", "attacker": "c2", "target": "c1", "dice": {"d20": 16}})
    s, moved = step(s, {"do": "move", "id": "c1", "over": ["c2", "c4"]})
    assert moved.headline == "Hawk moves up to Speed 6, over Archer, Page." and moved.details == ("Attacks of opportunity open: Archer (Reach).",)
    assert by_name(s, "Archer")["chances"] == {"reach": ["c1"]} and by_name(s, "Page")["chances"] == {}
    s2, result = step(s, {"do": "reach", "attacker": "c2", "target": "c1", "dice": {"d20": 16}})
    assert result.headline == "Archer strikes Hawk as it flies over: 4 damage."
    assert by_name(s2, "Archer")["actions"] == 2 and {"tt.keyword.reach", "tt.ruling.flying-reach", "tt.ruling.opportunity-movement"} <= set(result.rules)
    assert by_name(s2, "Archer")["chances"] == {}
    with pytest.raises(InputError, match="Archer has struck Hawk once for this movement already"):
        step(s2, {"do": "reach", "attacker": "c2", "target": "c1", "dice": {"d20": 16}})
    with pytest.raises(InputError, match="a vigilant flyer provokes no attacks of opportunity"):
        step(s, {"do": "reach", "attacker": "c2", "target": "c3", "dice": {"d20": 16}})
    with pytest.raises(InputError, match="only a character with Reach"):
        step(s, {"do": "reach", "attacker": "c4", "target": "c1", "dice": {"d20": 16}})
    with pytest.raises(InputError, match="only a flyer passes over others"):
        step(fresh({"do": "next", "through": True}, {"do": "next", "through": True}, state=s), {"do": "move", "id": "c4", "over": ["c1"]})


def test_two_first_strikers_roll_as_any_attack_with_their_modes():
    """tt.ruling.first-strike-tie: opposed attack rolls with advantage and disadvantage as any attack: a
    hasted striker rolls two d20 and keeps the higher, a poisoned mover two and keeps the lower; the tracker and the
    First Strike calculator agree on the kept dice and the winner."""
    s = at_actions(add("Goblin", kind="npc", initiative=20, keywords=["first-strike"], power=2), add("Mira", initiative=10, keywords=["first-strike", "haste"], power=3))
    s, _ = step(s, {"do": "edit", "id": "c1", "set": {"poisoned": True}})
    s, _ = step(s, {"do": "move", "id": "c1", "near": ["c2"]})
    with pytest.raises(InputError, match="takes two d20s"):
        step(s, {"do": "first_strike", "attacker": "c2", "target": "c1", "dice": {"d20": 9, "target_d20": [18, 6]}})
    s2, result = step(s, {"do": "first_strike", "attacker": "c2", "target": "c1", "dice": {"d20": [4, 9], "target_d20": [18, 6]}})
    assert "Two First Strikers meet: Mira keeps 9, Goblin keeps 6." in result.details and result.outcome == "first"
    form = runner.run("tell_tale.first_strike", {"first_power": "3", "first_d20": "4 9", "first_mode": "advantage",
                                                   "second_power": "2", "second_d20": "18 6", "second_mode": "disadvantage"})
    assert form["outcome"] == "first" and "tt.advantage.roll" in form["rules"]
    assert by_name(s2, "Goblin")["vitality"] + by_name(s2, "Goblin")["toughness_now"] == 12 + 4 - 3


def test_first_strike_answers_a_move_once_outside_the_strikers_turn():
    """tt.ruling.opportunist-attacks, tt.ruling.opportunity-movement: the opportunist strikes an enemy whose
    move brought it in range, once for that movement, never in its own turn, never an enemy that stood still; the
    chance ends with the turn and comes back with the next move."""
    s = at_actions(add("Goblin", kind="npc", initiative=20), add("Mira", initiative=10, keywords=["first-strike"]),
                   add("Bard", initiative=5))
    strike = {"do": "first_strike", "attacker": "c2", "target": "c1", "dice": {"d20": 16}}
    with pytest.raises(InputError, match="Goblin has not come in range of Mira this turn") as err:
        step(s, strike)  # the Goblin stood still
    assert err.value.field == "target"
    s, moved = step(s, {"do": "move", "id": "c1", "near": ["c2", "c3"]})
    assert "Attacks of opportunity open: Mira (First Strike)." in moved.details
    assert [c["chances"] for c in s["combatants"]] == [{}, {"first_strike": ["c1"]}, {}]
    s2, result = step(s, strike)
    assert by_name(s2, "Mira")["actions"] == 2 and "tt.ruling.opportunity-movement" in result.rules
    assert by_name(s2, "Goblin")["moved"]["struck"] == ["c2"]
    with pytest.raises(InputError, match="once for this movement"):
        step(s2, strike)
    assert step(step(s2, {"do": "undo"})[0], strike)[1].headline == result.headline  # undo gives the chance back
    again, _ = step(s2, {"do": "move", "id": "c1", "near": ["c2"]})  # a second move opens a second chance
    step(again, strike)
    later = fresh({"do": "next", "through": True}, state=s)  # the Goblin's turn is over: its move's chances with it
    assert later["order"][later["turn"]] == "c2" and all(c["moved"] is None and not c["chances"] for c in later["combatants"])
    with pytest.raises(InputError, match="has not come in range"):
        step(later, strike)
    # In Mira's own turn, an enemy that moves near her outside its turn is impossible: a move is the mover's action.
    with pytest.raises(InputError, match="It is Mira's turn"):
        step(later, {"do": "move", "id": "c1", "near": ["c2"]})
    # An ally's move opens nothing.
    ally = at_actions(add("Knight", initiative=20), add("Mira", initiative=10, keywords=["first-strike"]))
    ally, _ = step(ally, {"do": "move", "id": "c1", "near": ["c2"]})
    with pytest.raises(InputError, match="Knight is on Mira's side"):
        step(ally, {"do": "first_strike", "attacker": "c2", "target": "c1", "dice": {"d20": 16}})


def test_a_trample_charge_is_movement_that_opens_first_strike_on_the_charger():
    """tt.ruling.opportunity-movement, tt.keyword.trample: a charge runs through its line, so it brings the charger in
    range of each enemy in it, as a move naming them would. The Knight may strike the Ogre first after its charge, out
    of turn and with no move recorded (the charge took the Ogre's one action, a move would take another); once for that
    movement. A First Striker the charge leaves unconscious strikes no more; a charge that meets none opens nothing."""
    ogre = add("Ogre", kind="npc", initiative=20, keywords=["trample"], power=2)
    s = at_actions(ogre, add("Knight", initiative=10, keywords=["first-strike"]), add("Page", initiative=5))
    charge = {"do": "charge", "attacker": "c1", "targets": ["c2", "c3"], "dice": [{"d20": 3}, {"d20": 4}]}  # two misses
    s, charged = step(s, charge)
    assert by_name(s, "Ogre")["moved"] == {"near": ["c2", "c3"], "over": [], "struck": []} and by_name(s, "Ogre")["actions"] == 1
    assert [c["chances"] for c in s["combatants"]] == [{}, {"first_strike": ["c1"]}, {}]
    assert "Attacks of opportunity open: Knight (First Strike)." in charged.details and "tt.ruling.opportunity-movement" in charged.rules
    strike = {"do": "first_strike", "attacker": "c2", "target": "c1", "dice": {"d20": 16}}
    s2, struck = step(s, strike)
    assert struck.headline == "Knight strikes Ogre as it comes in range: 4 damage."
    assert by_name(s2, "Knight")["actions"] == 2 and by_name(s2, "Ogre")["actions"] == 1 and by_name(s2, "Knight")["chances"] == {}
    with pytest.raises(InputError, match="once for this movement"):
        step(s2, strike)
    # The charge's hit leaves the Knight unconscious: no strike is open to it.
    frail = at_actions(ogre, add("Knight", initiative=10, keywords=["first-strike"], toughness=0, vitality=1))
    frail, said = step(frail, {"do": "charge", "attacker": "c1", "targets": ["c2"], "dice": [{"d20": 10}]})  # half damage: 1
    assert by_name(frail, "Knight")["health"] == "unconscious" and by_name(frail, "Knight")["chances"] == {}
    assert "It opens no attack of opportunity." in said.details
    with pytest.raises(InputError, match="Knight is unconscious"):
        step(frail, strike)


@pytest.mark.parametrize("both", ["cancel", "count"])
@pytest.mark.parametrize("poisoned,haste,tapped", list(itertools.product([False, True], repeat=3)))
def test_a_combatants_attack_rolls_say_before_the_roll_what_the_attack_takes(poisoned, haste, tapped, both):
    """tt.ruling.poisoned-rolls, tt.keyword.haste, tt.ruling.prone-attacker, tt.ruling.advantage-and-disadvantage: each
    combatant's derived `attack_rolls` says, for every situation an attack may be made in, the roll and the d20s it
    takes, as the attack itself is rolled: one d20 is accepted exactly where it says "One d20", two elsewhere. The form
    reads it through the d20 fields' declared roll (whose, the situation's field, the usual situation)."""
    s = at_actions(add("Ogre", kind="npc", initiative=20, keywords=["haste"] if haste else []), add("Mira", initiative=5), settings={"both": both})
    changes = {"poisoned": poisoned} | ({"status": "kneeling"} if tapped else {})
    s = fresh({"do": "edit", "id": "c1", "set": changes}, state=s)
    said = by_name(s, "Ogre")["attack_rolls"]
    if not (poisoned or haste or tapped):
        assert said == {}  # the situation alone decides: its menu's words say it
        return
    assert set(said) == {v for v, _ in SITUATION_CHOICES}
    for situation, words in said.items():
        assert words.startswith("Ogre's attack ") and words.endswith(("One d20.", "Two d20s; the higher counts.", "Two d20s; the lower counts."))
        attack = {"do": "attack", "attacker": "c1", "target": "c2", "mode": situation, "dice": {"d20": 10}}
        if words.endswith("One d20."):
            step(s, attack)
        else:
            with pytest.raises(InputError, match="takes two d20s"):
                step(s, attack)
            step(s, {**attack, "dice": {"d20": [10, 11]}})
    if poisoned and not haste and not tapped:
        assert said["normal"] == "Ogre's attack is rolled with disadvantage (poisoned). Two d20s; the lower counts."
    published = {f["key"]: f.get("roll") for a in vocabulary()["actions"] for f in a["fields"] + [e for g in a["fields"] for e in g.get("each", [])]
                 if a["name"] in ("attack", "first_strike", "charge")}
    assert (published["d20"], published["second_d20"], published["target_d20"]) == (["actor", "mode", "normal"],) * 2 + (["target", "", "normal"],)


def test_the_actor_a_form_offers_is_one_the_action_lets_act():
    """tt.stats.vitality: an action whose actor field picks "actor" (offered only while in the fight, Python's derived
    `in_fight`) refuses an unconscious actor; one that offers anybody (a spell's or an effect's source) takes one."""
    s = at_actions(add("Vraska", initiative=20, keywords=["trample", "extort", "first-strike", "reach"], planeswalker=True),
                   add("Goblin", kind="npc", initiative=5, keywords=["trample", "extort", "first-strike", "reach"]))
    s = fresh({"do": "edit", "id": "c2", "set": {"vitality": 0}}, state=s)
    value = {"who": "c1", "choice": None, "number": 1, "text": "+1", "line": ["c1"], "ids": ["c1"]}
    picks = {}
    for spec in SPECS:
        if not (spec.menu and spec.actor):
            continue
        actor = spec.field(spec.actor)
        action = {"do": spec.name, **{f.key: (f.choices[0][0] if f.kind == "choice" else value[f.kind]) for f in spec.fields if f.required}, spec.actor: "c2"}
        picks[spec.name] = actor.pick
        if actor.pick == "actor":
            with pytest.raises(InputError, match="Goblin is unconscious") as err:
                step(s, action, 1)
            assert err.value.field == spec.actor, spec.name
        else:
            step(s, action, 1)
    assert picks["damage"] == "anyone" and picks["attack"] == picks["charge"] == picks["tap"] == "actor"


def test_a_saved_movement_is_checked_and_an_old_save_reads_none():
    """The stored movement (tt.ruling.opportunity-movement) is checked as any field from outside; a fight saved
    before it existed reads no movement."""
    before = at_actions(add("Goblin", kind="npc", initiative=20), add("Mira", initiative=10, keywords=["first-strike"]))
    s, _ = step(before, {"do": "move", "id": "c1", "near": ["c2"]})
    assert check_encounter(json.loads(json.dumps(s))) == s
    for bad, words in (({"near": ["c2"], "over": []}, "a movement lists near, over and struck"),
                       ({"near": ["c1"], "over": [], "struck": []}, "lists the ids of other combatants"),
                       ({"near": ["c9"], "over": [], "struck": []}, "names 'c9', who is not in this encounter"),
                       ({"near": [], "over": [], "struck": ["c2"]}, "only those it came near or flew over")):
        hostile = json.loads(json.dumps(s))
        hostile["combatants"][0]["moved"] = bad
        with pytest.raises(InputError, match=words):
            check_encounter(hostile)
    old = json.loads(json.dumps(before))
    for c in old["combatants"]:
        del c["moved"]
    assert [c["moved"] for c in check_encounter(old)["combatants"]] == [None, None]


def test_a_state_sent_back_as_answered_is_not_checked_again_and_plays_the_same():
    """The page sends back the state it was answered, which is not checked again (a check would make a step's
    cost grow with the history). Played with and without that shortcut, the scripted fight gives the same answers; any other
    text (one counter changed) is checked in full."""
    from calculators.runner import _answered, compact_json

    def play(shortcut):
        state, answers = "", []
        for action, seed in FIGHT:
            if not shortcut:
                _answered.clear()
            answer = runner.track(TRACKER, state, json.dumps(action), seed)
            assert answer["ok"], (action, answer)
            answers.append(answer)
            state = compact_json(answer["state"])
        return answers, state

    fast, state = play(True)
    checked, _ = play(False)
    assert fast == checked
    hostile = json.loads(state)
    hostile["combatants"][0]["counters"] = -3
    refused = runner.track(TRACKER, compact_json(hostile), json.dumps({"do": "show"}))
    assert not refused["ok"] and "counter" in refused["error"]


def test_the_workers_answers_are_tracks_answers_written_once_as_text():
    """The worker's entry point keeps the state it answered as an object and writes its text once; a
    state sent back as answered is neither parsed nor checked. Its answers are track()'s, to the character's
    meaning, over the scripted fight and a season; the kept object is never changed by a later step; and a
    Python caller that changes the state track() gave it does not reach the worker's kept one."""
    from calculators.runner import _answered, _answered_state, compact_json

    for name, script in ((TRACKER, FIGHT), ("rpgdl.season", [({"do": "player", "player": "first", "name": "Ann"}, None),
                                                            ({"do": "player", "player": "second", "name": "Bo"}, None),
                                                            ({"do": "undo"}, None), ({"do": "show"}, None)])):
        state_text, texts = "", []
        for action, seed in script:
            text = compute("track:" + name, json.dumps({"state": state_text, "action": json.dumps(action)}), seed)
            answer = json.loads(text)
            assert answer["ok"], (action, answer)
            assert answer.pop("version")  # the worker's session's name for the state it now holds (runner.track_json)
            texts.append(answer)
            state_text = compact_json(answer["state"])  # JSON.stringify's form, as the page sends it back
            assert _answered_state[name][1] == answer["state"] and _answered_state[name][0] == state_text
        kept = _answered_state[name][1]
        assert kept == json.loads(_answered[name])  # no step changed it
        _answered.clear()
        state_text, plain = "", []
        for action, seed in script:
            answer = runner.track(name, state_text, json.dumps(action), seed)
            plain.append(answer)
            state_text = compact_json(answer["state"])
        assert texts == plain
    # track() hands its state to a caller who may change it: the worker's kept copy of that name is dropped
    given = runner.track(TRACKER, "", json.dumps(FIGHT[0][0]))["state"]
    given_text = compact_json(given)
    given["combatants"][0]["counters"] = 7  # the caller's own change, after the answer
    shown = json.loads(compute("track:" + TRACKER, json.dumps({"state": given_text, "action": '{"do": "show"}'})))
    assert shown["ok"] and shown["state"]["combatants"][0]["counters"] == 0


def test_an_unconscious_combatants_turn_passes_with_its_upkeep():
    """tt.stats.vitality (0 is unconscious, below 0 dead): nobody in the turn can act, so the tracker passes it
    (tt.combat.turn), logged; its upkeep still happens: poison adds its counter (tt.ruling.poison-timing)."""
    add = [
        {"do": "add", "name": "Vraska", "kind": "pc", "power": 3, "toughness": 3, "vitality": 15, "initiative": 14},
        {"do": "add", "name": "Goblin", "kind": "npc", "power": 1, "toughness": 1, "vitality": 4, "initiative": 12},
        {"do": "add", "name": "Ogre", "kind": "npc", "power": 5, "toughness": 5, "vitality": 14, "initiative": 10},
        {"do": "add", "name": "Mira", "kind": "pc", "power": 2, "toughness": 2, "vitality": 12, "initiative": 9},
    ]
    s = fresh(*add, {"do": "start"})
    s = fresh({"do": "edit", "id": "c2", "set": {"vitality": 0, "toughness_now": 0, "poisoned": True}},
              {"do": "edit", "id": "c3", "set": {"vitality": -1}}, state=s)
    assert by_name(s, "Goblin")["health"] == "unconscious" and by_name(s, "Ogre")["health"] == "dead"
    for _ in range(4):
        s = fresh({"do": "next"}, state=s)
    s, said = step(s, {"do": "next"})  # Vraska's end step -> the Goblin (unconscious), the Ogre (dead), Mira
    assert (s["round"], s["order"][s["turn"]], s["step"]) == (1, "c4", "untap")
    assert said.headline == "Round 1, Mira's turn: 1. Untap step. Skipped, unconscious: Goblin."
    assert any("Goblin is unconscious: its turn passes" in d for d in said.details)
    assert any("No turn for Ogre: out of the fight." in d for d in said.details)
    assert {"tt.stats.vitality", "tt.combat.turn", "tt.ruling.poison-timing"} <= set(said.rules)
    goblin = by_name(s, "Goblin")
    assert (goblin["vitality"], goblin["counters"]) == (-1, 1)  # its upkeep's poison counter: now dead
    assert s["log"][-1]["text"] == said.headline
    # The next round: the Goblin is dead now, out of the fight like the Ogre.
    for _ in range(4):
        s = fresh({"do": "next"}, state=s)
    s, said = step(s, {"do": "next"})
    assert (s["round"], s["order"][s["turn"]]) == (2, "c1")
    for _ in range(5):
        s, said = step(s, {"do": "next"})
    assert s["order"][s["turn"]] == "c4" and "Skipped" not in said.headline
    assert "No turn for Goblin: out of the fight." in said.details
    # A holder whose familiar is conscious still has its turn: the familiar acts in it (tt.ruling.summon-turns).
    t = fresh(*add[:2], {"do": "add", "name": "Rat", "kind": "familiar", "owner": "c2", "power": 1, "toughness": 1, "vitality": 3},
              {"do": "start"}, {"do": "edit", "id": "c2", "set": {"vitality": 0}})
    for _ in range(5):
        t = fresh({"do": "next"}, state=t)
    assert t["order"][t["turn"]] == "c2"
    # Nobody able to act: a sentence, nothing changed.
    u = fresh({"do": "edit", "id": "c1", "set": {"vitality": 0}}, {"do": "edit", "id": "c3", "set": {"vitality": 0}}, state=t)
    for _ in range(4):
        u = fresh({"do": "next"}, state=u)
    with pytest.raises(InputError, match="Nobody is left who can take a turn"):
        step(u, {"do": "next"})


POISONED_AT_ONE = {"vitality": 1, "toughness_now": 0, "poisoned": True}  # its next upkeep's counter leaves it at Vitality 0


def test_a_turn_whose_holder_falls_unconscious_at_its_upkeep_passes():
    """tt.stats.vitality, tt.ruling.poison-timing: the Goblin's own poison takes its last Vitality at its upkeep step;
    nobody in its turn can act, so the turn passes there, as an unconscious holder's does (tt.combat.turn), and the
    log says why. Step by step and with "through" alike; a conscious familiar keeps the turn; nobody left: it stays."""
    add = [
        {"do": "add", "name": "Vraska", "kind": "pc", "power": 3, "toughness": 3, "vitality": 15, "initiative": 14},
        {"do": "add", "name": "Goblin", "kind": "npc", "power": 1, "toughness": 1, "vitality": 4, "initiative": 12},
        {"do": "add", "name": "Mira", "kind": "pc", "power": 2, "toughness": 2, "vitality": 12, "initiative": 9},
    ]
    s = fresh(*add, {"do": "start"}, {"do": "edit", "id": "c2", "set": POISONED_AT_ONE})
    for _ in range(5):  # Vraska's turn, to the Goblin's untap step
        s = fresh({"do": "next"}, state=s)
    assert (s["order"][s["turn"]], s["step"]) == ("c2", "untap") and by_name(s, "Goblin")["health"] == "conscious"
    after, said = step(s, {"do": "next"})
    assert (after["round"], after["order"][after["turn"]], after["step"]) == (1, "c3", "untap")
    assert said.headline == "Round 1, Mira's turn: 1. Untap step. Skipped, unconscious: Goblin."
    assert "Goblin is unconscious: its turn passes after its upkeep step; nobody in it can act." in said.details
    assert {"tt.ruling.poison-timing", "tt.stats.vitality", "tt.combat.turn"} <= set(said.rules)
    assert (by_name(after, "Goblin")["vitality"], by_name(after, "Goblin")["counters"]) == (0, 1)
    through, said = step(s, {"do": "next", "through": True})
    assert (through["order"][through["turn"]], through["step"]) == ("c3", "actions") and "Skipped, unconscious: Goblin." in said.headline
    assert step(after, {"do": "undo"})[0]["step"] == s["step"]
    # Its familiar still conscious: the turn is the familiar's to act in (tt.ruling.summon-turns).
    rat = fresh(*add[:2], {"do": "add", "name": "Rat", "kind": "familiar", "owner": "c2", "power": 1, "toughness": 1, "vitality": 3},
                {"do": "start"}, {"do": "edit", "id": "c2", "set": POISONED_AT_ONE})
    for _ in range(8):
        rat = fresh({"do": "next"}, state=rat)
    assert (rat["order"][rat["turn"]], rat["step"]) == ("c2", "actions") and by_name(rat, "Goblin")["health"] == "unconscious"
    # Nobody left who can act: the turn stays at its upkeep step, and the log says to end the encounter.
    alone = fresh(*add[:2], {"do": "start"}, {"do": "edit", "id": "c2", "set": POISONED_AT_ONE})
    for _ in range(5):
        alone = fresh({"do": "next"}, state=alone)
    alone = fresh({"do": "edit", "id": "c1", "set": {"vitality": 0}}, state=alone)  # at the Goblin's untap step
    alone, said = step(alone, {"do": "next"})
    assert (alone["order"][alone["turn"]], alone["step"]) == ("c2", "upkeep")
    assert "Nobody is left who can take a turn (all unconscious, dead or gone): end the encounter." in said.details

def test_another_like_this_is_one_action_numbered_and_undone_whole():
    """"Add another like this": the same kind, side, owner, full numbers, Speed, Initiative and keywords
    (tt.stats.tracking), named Goblin 2, Goblin 3 (a copy of Goblin 2 too); undo takes it back exactly."""
    goblin = {"do": "add", "name": "Goblin", "kind": "npc", "power": 2, "toughness": 1, "vitality": 4, "speed": 8, "initiative": 11,
              "keywords": ["haste", "flying"]}
    s = fresh({"do": "add", "name": "Vraska", "kind": "pc", "power": 3, "toughness": 3, "vitality": 15, "initiative": 14}, goblin,
              {"do": "add", "name": "Imp", "kind": "familiar", "owner": "c1", "power": 1, "toughness": 1, "vitality": 3})
    s = fresh({"do": "edit", "id": "c2", "set": {"vitality": 1, "counters": 2, "poisoned": True}}, state=s)
    before = copy.deepcopy(s)
    s, said = step(s, {"do": "another", "id": "c2"})
    two = by_name(s, "Goblin 2")
    assert said.headline == "Goblin 2 joins the encounter, like Goblin (NPC, foes)."
    assert "tt.stats.tracking" in said.rules
    assert {k: two[k] for k in ("kind", "side", "owner", "power", "toughness", "toughness_now", "vitality", "max_vitality", "speed",
                                "initiative", "keywords", "counters", "poisoned", "status")} == {
        "kind": "npc", "side": "foes", "owner": None, "power": 2, "toughness": 1, "toughness_now": 1, "vitality": 4, "max_vitality": 4,
        "speed": 8, "initiative": 11, "keywords": ["haste", "flying"], "counters": 0, "poisoned": False, "status": "standing"}
    assert s["order"] == ["c1", "c2", "c4"]
    s, _ = step(s, {"do": "another", "id": "c4"})
    s, _ = step(s, {"do": "another", "id": "c2"})
    assert [c["name"] for c in s["combatants"]][3:] == ["Goblin 2", "Goblin 3", "Goblin 4"]
    with pytest.raises(InputError, match="Vraska has an animal companion already, Imp"):  # tt.character.companion: one
        step(s, {"do": "another", "id": "c3"})
    long = fresh({"do": "add", "name": "L" * 40, "kind": "npc", "power": 1, "toughness": 1, "vitality": 1})
    long, _ = step(long, {"do": "another", "id": "c1"})
    assert long["combatants"][1]["name"] == "L" * 38 + " 2"
    for _ in range(3):
        s, _ = step(s, {"do": "undo"})
    assert {**s, "redo": []} == before and len(s["redo"]) == 3  # and the three kept for Redo
    with pytest.raises(InputError, match="c99"):
        step(s, {"do": "another", "id": "c99"})


# ---------------------------------------------------------------- the players' view


@pytest.mark.parametrize("numbers,word", [
    ({}, "unhurt"),
    ({"vitality": 16}, "unhurt"),  # above full (tt.ruling.vitality-above-full): still unhurt
    ({"toughness_now": 4}, "hurt"),
    ({"counters": 1}, "hurt"),
    ({"toughness_now": 0, "vitality": 13}, "hurt"),
    ({"vitality": 8}, "hurt"),
    ({"vitality": 7}, "badly hurt"),  # half of 14 or below
    ({"vitality": 1}, "badly hurt"),
    ({"vitality": 0}, "down"),  # tt.stats.vitality: unconscious
    ({"vitality": -2}, "down"),  # dead
], ids=lambda v: v if isinstance(v, str) else "")
def test_a_foes_health_is_a_word_python_gives(numbers, word):
    """The players' view shows a foe's health as a word, never its numbers: unhurt, hurt, badly hurt, down
    (tt.stats.vitality: 0 unconscious, below 0 dead), derived with the state like 'health'."""
    s = fresh({"do": "add", "name": "Ogre", "kind": "npc", "power": 5, "toughness": 5, "vitality": 14})
    s = fresh({"do": "edit", "id": "c1", "set": numbers}, state=s) if numbers else s
    assert s["combatants"][0]["band"] == word
    assert check_encounter(json.loads(json.dumps(s)))["combatants"][0]["band"] == word


def test_the_gms_own_changes_are_marked_and_a_fight_saved_before_still_reads():
    """Edits, the table's rulings and Initiative are the GM's: their log entries are marked "gm" (the players' view
    leaves them out: "Ogre: Vitality 14 to 9" names a foe's numbers); attacks and turns are not. A fight saved
    before the players' view (no "band", no "gm") reads as it was, its bands derived."""
    states = [new_encounter()]
    for i, a in enumerate([*(a for a, _ in FIGHT[:6]), {"do": "edit", "id": "c4", "set": {"vitality": 9}}, {"do": "next"}]):
        states.append(step(states[-1], a, 1 + i)[0])
    s = states[-1]
    marked = [(e["text"], e.get("gm", False)) for e in s["log"]]
    assert [t for t, gm in marked if gm] == ["Ogre's Initiative is 17.", "Ogre: vitality 14 to 9."]
    assert marked[-1] == ("Round 1, Ogre's turn: 2. Upkeep step.", False)
    old = saved_by_version_1(states)
    for c in old["combatants"]:
        del c["band"]
    for e in old["log"]:
        e.pop("gm", None)
    for record in old["undo"]:
        for c in record["patch"].values():
            c.pop("band", None)
    read = check_encounter(old)
    assert [c["band"] for c in read["combatants"]] == ["unhurt", "unhurt", "unhurt", "hurt"]
    assert not any("gm" in e for e in read["log"])
    assert encounter_step(read, {"do": "next"})[0]["log"][-1]["text"] == "Round 1, Ogre's turn: 3. Draw step."
    # its undo records are version 2's now, and undo the same steps
    assert read["version"] == 2 and len(read["undo"]) == len(states) - 1
    back = read
    for before in reversed(states[:-1]):
        back = encounter_step(back, {"do": "undo"})[0]
        assert back["combatants"] == before["combatants"] and back["round"] == before["round"] and len(back["log"]) == len(before["log"])
    with pytest.raises(InputError, match="gm must be true"):
        check_encounter({**s, "log": [{**s["log"][0], "gm": "yes"}, *s["log"][1:]]})


def saved_by_version_1(states):
    """The last of `states` as version 1 saved it: each undo record the fields the step changed (the combatants it
    changed by index, when nobody was added or removed) and the log entries it pushed out (none in a short fight)."""
    from calculators.tell_tale.encounter_state import STATE_KEYS

    def record(before, after):
        prior, patch = {}, {}
        for key in STATE_KEYS:
            if key in ("log", "undo") or before[key] == after[key]:
                continue
            if key == "combatants" and [c["id"] for c in before[key]] == [c["id"] for c in after[key]]:
                patch = {str(i): b for i, (b, a) in enumerate(zip(before[key], after[key])) if a != b}
            else:
                prior[key] = before[key]
        return {"prior": prior, "patch": patch, "trimmed": []}

    last = json.loads(json.dumps(states[-1]))
    undo = []
    for before, after in itertools.pairwise(states):  # an undo took its record away; any other step added one
        if len(after["log"]) < len(before["log"]) and after["log_start"] == before["log_start"]:
            undo.pop()
        else:
            undo.append(record(before, after))
    return json.loads(json.dumps({**last, "version": 1, "undo": undo[-UNDO_CAP:]}))


def test_a_fight_saved_by_version_1_reads_with_every_undo_and_a_broken_record_is_refused():
    states = [new_encounter()]
    for action, seed in FIGHT[:40]:
        states.append(step(states[-1], action, seed)[0])
    read = check_encounter(saved_by_version_1(states))
    assert read == {**states[-1], "undo": read["undo"]} and len(read["undo"]) == UNDO_CAP
    back, kept = read, []
    for action, state in zip([a for a, _ in FIGHT[:40]], states[1:]):  # the states the undo history leads back to
        kept = kept[:-1] if action["do"] == "undo" else [*kept, state]
    for before in reversed([states[0], *kept][-UNDO_CAP - 1:-1]):
        back = encounter_step(back, {"do": "undo"})[0]
        assert back == {**before, "undo": back["undo"], "redo": back["redo"]}
    broken = saved_by_version_1(states)
    broken["undo"][-1]["prior"]["round"] = -5
    with pytest.raises(InputError, match=f"Undo step {UNDO_CAP} of {UNDO_CAP} does not lead back"):
        check_encounter(broken)


# ---------------------------------------------------------------- steps that pass on their own


def _apart_from_the_log(state):
    return {k: v for k, v in state.items() if k not in ("log", "log_start", "undo")}


def test_next_through_equals_pressing_next_at_every_step_that_asks_nothing():
    """tt.combat.turn, tt.combat.untap-step, tt.combat.upkeep-step, tt.combat.draw-step, tt.combat.end-step: at every
    Next of the scripted fight (poison ticking, an unconscious Ogre's turn passing, Detain-free), Next with "through"
    ends where pressing Next at each step that asks nothing ends, with the same fight, and says every step it passed."""
    from calculators.tell_tale.encounter_state import NOTHING_TO_DECIDE, STEP_LABELS

    s = new_encounter()
    checked = 0
    for action, seed in FIGHT:
        if action == {"do": "next"}:
            by_hand, said = step(s, {"do": "next"})
            hand_log = [said.headline]
            while by_hand["step"] in NOTHING_TO_DECIDE:
                by_hand, said = step(by_hand, {"do": "next"})
                hand_log.append(said.headline)
            through, said = step(s, {"do": "next", "through": True})
            assert _apart_from_the_log(through) == _apart_from_the_log(by_hand)
            assert through["step"] not in NOTHING_TO_DECIDE
            passed = len(hand_log) - 1
            told = said.headline + " " + (said.details[-1] if said.details else "")  # the steps passed: one quiet line, last
            assert told.count("'s ") >= 1 + passed
            if passed:
                assert said.details[-1].startswith("Passed on their own: ") and "Passed on their own" not in said.headline
                assert told.count(",") >= passed - 1
                assert all(STEP_LABELS[st][3:].lower() in told for st in NOTHING_TO_DECIDE if any(STEP_LABELS[st] in h for h in hand_log[:-1]))
            checked += 1
        s = step(s, action, seed)[0]
    assert checked >= 5


def test_a_turn_is_one_next_with_through():
    """From the actions step, one Next with "through" is the next turn's actions step: the end step, then its
    untap, upkeep and draw steps pass on their own (tt.combat.turn), and the log says each."""
    s = fresh(*(a for a, _ in FIGHT[:4]), {"do": "start", "through": True})
    assert (s["round"], s["turn"], s["step"]) == (1, 0, "actions")
    first, second = (next(c["name"] for c in s["combatants"] if c["id"] == s["order"][i]) for i in (0, 1))
    assert s["log"][-1]["details"][-1] == f"Passed on their own: {first}'s untap step, {first}'s upkeep step, {first}'s draw step."
    s, said = step(s, {"do": "next", "through": True})
    assert (s["round"], s["turn"], s["step"]) == (1, 1, "actions")
    assert said.headline.startswith(f"Round 1, {second}'s turn: 4. Character actions.")
    assert said.details[-1] == f"Passed on their own: {first}'s end step, {second}'s untap step, {second}'s upkeep step, {second}'s draw step."


@pytest.mark.parametrize("bad", ["yes", 1, None, [True]])
def test_through_is_true_or_false(bad):
    s = fresh(*(a for a, _ in FIGHT[:4]), {"do": "start"})
    if bad is None:
        assert step(s, {"do": "next", "through": None})[0]["step"] == "upkeep"  # left out: one step
        return
    with pytest.raises(InputError, match="through is true or false"):
        step(s, {"do": "next", "through": bad})


@pytest.mark.parametrize(("typed", "field"), [({"power": "lots"}, "power"), ({"vitality": 5000}, "vitality"),
                                              ({"toughness": -1}, "toughness"), ({"initiative": "x"}, "initiative")])
def test_a_number_refused_while_adding_names_the_field_that_typed_it(typed, field):
    """The add form marks the field at fault (tracker-shell.js markFieldAtFault): the refusal names it, also for
    the numbers the tracker makes from it (full Vitality from Vitality, Toughness left from Toughness)."""
    answer = runner.track(TRACKER, "", json.dumps({"do": "add", "name": "Goblin", "kind": "npc", "power": 1, "toughness": 2, "vitality": 6, **typed}))
    assert not answer["ok"] and answer["field"] == field and not answer["error"].startswith("Combatant")


# ---------------------------------------------------------------- who may take an action

NEEDY = {  # an action for each entry of ACTION_NEEDS, taken by c1 against c2; its actor's field
    "charge": ({"do": "charge", "attacker": "c1", "targets": ["c2"]}, "attacker"),
    "first_strike": ({"do": "first_strike", "attacker": "c1", "target": "c2"}, "attacker"),
    "reach": ({"do": "reach", "attacker": "c1", "target": "c2"}, "attacker"),
    "extort": ({"do": "extort", "user": "c1"}, "user"),
    "ability": ({"do": "ability", "user": "c1", "cost": "+1"}, "user"),
    "emblem": ({"do": "emblem", "user": "c1", "text": "Creatures you control get +1/+1."}, "user"),
}


def test_the_published_needs_are_the_ones_the_handlers_check():
    """The page offers an action only to those its declaration names (encounter.vocabulary()["actions"]): each
    handler refuses an actor with none of them, and refuses an actor with any one of them for no reason about the
    actor. The attacks of opportunity are taken out of the actor's turn, after the foe's move (in the foe's turn)."""
    from calculators.tell_tale.encounter import vocabulary
    from calculators.tell_tale.encounter_actions import ACTION_NEEDS

    assert set(NEEDY) == set(ACTION_NEEDS)
    assert {a["name"]: a["needs"] for a in vocabulary()["actions"] if a["needs"]} == {k: list(v) for k, v in ACTION_NEEDS.items()}
    foe = {"do": "add", "name": "Foe", "kind": "npc", "power": 2, "toughness": 2, "vitality": 9, "initiative": 1, "keywords": ["flying"]}
    for kind, needs in ACTION_NEEDS.items():
        action, field = NEEDY[kind]
        out_of_turn = kind in ("first_strike", "reach")
        for need in (None, *needs):
            me = {"do": "add", "name": "Me", "kind": "pc", "power": 3, "toughness": 3, "vitality": 12, "initiative": 0 if out_of_turn else 20,
                  **({"planeswalker": True} if need == "planeswalker" else {"keywords": [need]} if need else {})}
            s = fresh(me, foe, {"do": "order", "by": "hand"}, *([{"do": "order", "ids": ["c2", "c1"]}] if out_of_turn else []),
                      {"do": "start"}, {"do": "next"}, {"do": "next"}, {"do": "next"},
                      *([{"do": "move", "id": "c2", ("near" if kind == "first_strike" else "over"): ["c1"]}] if out_of_turn else []))
            try:
                step(s, action, 3)
            except InputError as err:
                assert (err.field == field) == (need is None), (kind, need, str(err))
            else:
                assert need is not None, kind


# ---------------------------------------------------------------- the fight by the text

PC = {"do": "add", "name": "Kara", "kind": "pc", "power": 3, "toughness": 3, "vitality": 15, "initiative": 14}
FOE = {"do": "add", "name": "Ogre", "kind": "npc", "power": 5, "toughness": 5, "vitality": 14, "initiative": 9}


def test_lifelink_restores_what_was_dealt_when_damage_stops_at_toughness():
    """tt.keyword.lifelink, tt.ruling.damage-overflow: with "stop", a full hit of 7 on Toughness 3 deals 3; the
    attacker gains 3, not 7, and the log says both numbers. With "carry" all 7 are dealt and gained."""
    biter = {**FOE, "name": "Vampire", "power": 7, "vitality": 10, "initiative": 20, "keywords": ["lifelink"]}
    for overflow, dealt in (("stop", 3), ("carry", 7)):
        s = fresh({"do": "settings", "settings": {"overflow": overflow}}, biter, PC, {"do": "start"}, *[{"do": "next"}] * 3)
        s, said = step(s, {"do": "attack", "attacker": "c1", "target": "c2", "dice": {"d20": 17}})
        assert by_name(s, "Kara")["vitality"] == 15 - (dealt - 3)
        assert by_name(s, "Vampire")["vitality"] == 10 + dealt, overflow
        assert f"Vampire gains {dealt} Vitality" in " ".join(said.details)
        assert ("7 damage to Kara (3 dealt: the rest stops at Toughness 0)" in " ".join(said.details)) == (overflow == "stop")


@pytest.mark.parametrize("do,field", [("detain", "source"), ("tap", "source")])
def test_an_unconscious_combatant_cannot_detain_nor_force_a_tap(do, field):
    """tt.keyword.detain, tt.stats.vitality: the source of a Detain or of a forced tap is one who can act, as an
    attacker is: at Vitality 0 it is refused, the field named."""
    s = fresh(PC, FOE, {"do": "start"}, *[{"do": "next"}] * 3, {"do": "edit", "id": "c2", "set": {"vitality": 0}})
    with pytest.raises(InputError, match="Ogre is unconscious") as err:
        step(s, {"do": do, "source": "c2", "target": "c1", "dice": {"effect_d20": 15, "save_d20": 3}})
    assert err.value.field == field


def test_an_unconscious_first_combatant_gets_no_turn_in_round_one():
    """tt.stats.vitality, tt.combat.turn: the first in order at Vitality 0 passes its turn at the start, as it
    would from round 2 on: round 1 begins with the next who can act, and the log says who was skipped."""
    s = fresh({**PC, "vitality": 0}, FOE)
    s, said = step(s, {"do": "start"})
    assert s["order"] == ["c1", "c2"] and s["turn"] == 1 and s["round"] == 1 and s["step"] == "untap"
    assert "Skipped, unconscious: Kara." in said.headline
    assert "tt.stats.vitality" in said.rules
    with pytest.raises(InputError, match="Nobody in the turn order can take a turn"):
        step(fresh({**PC, "vitality": 0}, {**FOE, "vitality": 0}), {"do": "start"})


def test_a_player_has_one_animal_companion():
    """tt.character.companion: a PC's second familiar is refused, naming the first; an NPC's are the GM's."""
    imp = {"do": "add", "name": "Imp", "kind": "familiar", "owner": "c1", "power": 1, "toughness": 1, "vitality": 3}
    s = fresh(PC, FOE, imp)
    with pytest.raises(InputError, match="Kara has an animal companion already, Imp") as err:
        step(s, {**imp, "name": "Cat"})
    assert err.value.field == "owner"
    s = fresh({**imp, "owner": "c2", "name": "Wolf"}, state=s)
    s, said = step(s, {"do": "another", "id": "c4"})
    assert said.headline == "Wolf 2 joins the encounter, like Wolf (familiar, of Ogre, foes)."


def test_a_detainer_who_dies_frees_its_victim_where_its_turn_would_have_come():
    """tt.ruling.detainer-gone: the Ogre detains Kara, then dies before its next turn; that turn never comes,
    but where it would have come in the order Kara is free, and the log says why."""
    goblin = {**FOE, "name": "Goblin", "power": 1, "toughness": 1, "vitality": 4, "initiative": 12}
    s = fresh({**FOE, "initiative": 20}, PC, goblin, {"do": "start"}, *[{"do": "next"}] * 3)  # Ogre, Kara, Goblin
    s, _ = step(s, {"do": "detain", "source": "c1", "target": "c2", "dice": {"effect_d20": 18, "save_d20": 2}})
    assert by_name(s, "Kara")["status"] == "detained"
    s = fresh({"do": "edit", "id": "c1", "set": {"vitality": -1}}, state=s)  # the Ogre dies
    while not (s["round"] == 2 and s["order"][s["turn"]] != "c1" and s["step"] == "actions"):
        s, said = step(s, {"do": "next", "through": True})
        if by_name(s, "Kara")["status"] != "detained":
            break
    assert s["round"] == 2, "Kara stays detained through round 1, as Detain says"
    assert by_name(s, "Kara")["status"] == "standing"
    assert "tt.ruling.detainer-gone" in said.rules
    assert "No turn for Ogre: out of the fight." in " ".join(said.details) and "Kara is no longer detained." in " ".join(said.details)


def test_an_emblem_from_a_planeswalkers_ability_is_noted_and_ends_with_the_encounter():
    """tt.planeswalker.effects: emblems last until the combat encounter ends. An emblem comes from an ability used this
    encounter; the log keeps its words, and the end of the encounter says it ends."""
    walker = {"do": "add", "name": "Jace", "kind": "pc", "power": 2, "toughness": 4, "vitality": 12, "initiative": 15, "planeswalker": True}
    s = fresh(walker, FOE, {"do": "start"}, {"do": "next"}, {"do": "next"}, {"do": "next"})
    with pytest.raises(InputError, match="used no planeswalker ability") as refused:
        step(s, {"do": "emblem", "user": "c1", "text": "Your spells cost 1 less."}, None)
    assert refused.value.field == "action"
    s, _ = step(s, {"do": "ability", "user": "c1", "cost": 1}, None)
    s, made = step(s, {"do": "emblem", "user": "c1", "text": "Your spells cost 1 less."}, None)
    assert made.outcome == "emblem" and made.rules == ("tt.planeswalker.effects",)
    assert made.headline == "Jace's ability makes an emblem: Your spells cost 1 less. It lasts until the encounter ends."
    assert s["log"][-1]["text"] == made.headline and s["combatants"][0]["actions"] == 1  # the ability took an action; the emblem none
    s, over = step(s, {"do": "end"}, None)
    assert "Emblems from Jace's planeswalker ability end with the encounter." in over.details



def test_a_companion_kept_as_a_mount_fights_only_while_ridden_and_mounting_is_the_riders_action():
    """tt.character.mount: a mount takes no part in combat unless ridden; tt.ruling.mount-stats: getting on or off is
    one of the rider's 2 actions in a fight and costs nothing before one; a rider who can no longer act is off at no cost."""
    horse = {"do": "add", "name": "Bree", "kind": "familiar", "owner": "c1", "power": 2, "toughness": 2, "vitality": 10, "mount": True}
    s, added = step(fresh(PC, FOE), horse)
    assert added.headline == "Bree joins the encounter (companion kept as a mount, of Kara, party)."
    bree = by_name(s, "Bree")
    assert bree["mount"] and not bree["ridden"] and not bree["in_fight"]
    s = fresh({"do": "start"}, *[{"do": "next"}] * 3, state=s)  # Kara's character actions
    for refused, field in (({"do": "attack", "attacker": "c3", "target": "c2", "dice": {"d20": 17}}, "attacker"),
                           ({"do": "attack", "attacker": "c2", "target": "c3", "dice": {"d20": 17}}, "target")):
        with pytest.raises(InputError, match="Bree is a mount nobody rides, and out of the fight until its rider mounts") as err:
            step(s, refused)
        assert err.value.field == field
    with pytest.raises(InputError, match="Kara rides no mount"):
        step(s, {"do": "dismount", "rider": "c1"})
    with pytest.raises(InputError, match="Ogre has no companion kept as a mount"):
        step(s, {"do": "mount", "rider": "c2"})
    s, on = step(s, {"do": "mount", "rider": "c1"})
    assert on.headline == "Kara mounts Bree." and "tt.character.mount" in on.rules and "tt.ruling.mount-stats" in on.rules
    assert by_name(s, "Kara")["actions"] == 1 and by_name(s, "Bree")["in_fight"]
    with pytest.raises(InputError, match="Kara rides Bree already"):
        step(s, {"do": "mount", "rider": "c1"})
    s, _ = step(s, {"do": "attack", "attacker": "c3", "target": "c2", "dice": {"d20": 17}})  # ridden, it fights in Kara's turn
    assert by_name(s, "Ogre")["toughness_now"] == 3 and by_name(s, "Bree")["actions"] == 1
    s, off = step(s, {"do": "dismount", "rider": "c1"})
    assert off.headline == "Kara dismounts Bree." and by_name(s, "Kara")["actions"] == 0 and not by_name(s, "Bree")["in_fight"]
    # a familiar is never ridden, nor kept as a mount by a PC or NPC
    with pytest.raises(InputError, match="Only an animal companion \\(a familiar\\) can be kept as a mount"):
        step(fresh(PC), {**FOE, "mount": True})
    # a rider knocked out is off at no cost, in anyone's turn
    s = fresh({"do": "mount", "rider": "c1"}, state=step(fresh(PC, FOE), horse)[0])  # before the fight: no action spent
    assert by_name(s, "Bree")["ridden"] and by_name(s, "Kara")["actions"] == 2
    s = fresh({"do": "edit", "id": "c1", "set": {"vitality": 0}}, {"do": "start"}, state=s)
    s, fell = step(s, {"do": "dismount", "rider": "c1"})
    assert fell.headline == "Bree is riderless: Kara can no longer ride." and not by_name(s, "Bree")["ridden"]
    # a mount nobody rides cannot keep its unconscious rider's turn: the turn passes
    s = fresh(PC, FOE, horse, {"do": "edit", "id": "c1", "set": {"vitality": 0}}, {"do": "start"})
    assert s["order"][s["turn"]] == "c2"
    # a saved fight from before mounts reads every companion as a familiar
    old = copy.deepcopy(fresh(PC, FOE, {**horse, "mount": False}))
    for c in old["combatants"]:
        del c["mount"], c["ridden"]
    assert [c["mount"] for c in check_encounter(old)["combatants"]] == [False, False, False]


def test_equipment_changes_a_melee_attack_to_ranged_and_back_for_one_action():
    """tt.combat.equipment-changes-range: ranged equipment on a melee character, or the other way round, changes its means
    of attack; tt.keyword.equip: one combat-turn action (none before the fight); tt.ruling.equip-attack: from its next attack."""
    s = fresh(PC, FOE)
    assert by_name(s, "Kara")["ranged"] is None  # the GM rules from the card until equipment says otherwise
    s, before = step(s, {"do": "equip", "id": "c1", "attack": "melee", "item": "Longsword"})
    assert before.headline == "Kara equips Longsword: its attack is melee from now on." and by_name(s, "Kara")["actions"] == 2
    s = fresh({"do": "start"}, *[{"do": "next"}] * 3, state=s)
    with pytest.raises(InputError, match="Kara attacks in melee already") as same:
        step(s, {"do": "equip", "id": "c1", "attack": "melee"})
    assert same.value.field == "attack"
    with pytest.raises(InputError, match="It is Kara's turn: Ogre acts in its own turn"):
        step(s, {"do": "equip", "id": "c2", "attack": "ranged"})
    s, bow = step(s, {"do": "equip", "id": "c1", "attack": "ranged", "item": "Longbow"})
    kara = by_name(s, "Kara")
    assert kara["ranged"] is True and kara["actions"] == 1
    assert bow.headline == "Kara equips Longbow: its attack is ranged from now on."
    assert "From its next attack, Kara attacks at range, no longer in melee" in bow.details[-1]
    assert {"tt.keyword.equip", "tt.combat.equipment-changes-range", "tt.ruling.equip-attack"} <= set(bow.rules)
    s, back = step(s, {"do": "equip", "id": "c1", "attack": "melee"})
    assert back.headline == "Kara equips a weapon: its attack is melee from now on." and by_name(s, "Kara")["actions"] == 0
    with pytest.raises(InputError, match="Kara has 0 actions left this turn"):
        step(s, {"do": "equip", "id": "c1", "attack": "ranged"})
    old = copy.deepcopy(s)  # a fight saved before equipment was kept reads "as the GM rules"
    for c in old["combatants"]:
        del c["ranged"]
    assert [c["ranged"] for c in check_encounter(old)["combatants"]] == [None, None]
