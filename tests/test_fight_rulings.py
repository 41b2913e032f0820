"""Fight rulings the tools follow: Double Strike's alternative as a table setting,
surprise attacks (and Vigilance against them), in the calculators and the encounter tracker."""

from __future__ import annotations

import copy
import random

import pytest

from calculators import runner
from calculators.checks import InputError
from calculators.house_rules import apply_table, table_settings
from calculators.tell_tale import encounter_step, new_encounter
from calculators.tell_tale.encounter_state import SETTINGS, check_encounter


def step(state, action, seed=None):
    return encounter_step(state, action, random.Random(seed) if seed is not None else None)


def fresh(*actions, state=None):
    s = state or new_encounter()
    for i, a in enumerate(actions):
        s, _ = step(s, a, 1 + i)
    return s


def add(name, initiative, keywords=(), kind="pc"):
    return {"do": "add", "name": name, "kind": kind, "power": 4, "toughness": 4, "vitality": 30, "speed": 6,
            "initiative": initiative, "keywords": list(keywords)}


def at_actions(*adds, settings=None):
    """A fight of `adds` started, at the first holder's character actions step."""
    first = ({"do": "settings", "settings": settings},) if settings else ()
    return fresh(*first, *adds, {"do": "start"}, {"do": "next"}, {"do": "next"}, {"do": "next"})


def refused(state, action):
    with pytest.raises(InputError) as err:
        step(state, action)
    return err.value


SWING = {"do": "attack", "attacker": "c1", "target": "c2", "dice": {"d20": 12, "second_d20": 9}}


# ---------------------------------------------------------------- tt.ruling.double-strike: two per attack, or per turn


def test_double_strikes_two_rolls_are_a_table_setting_the_tracker_follows():
    """tt.ruling.double-strike: the setting is declared once, by the calculator's Param, and the tracker has it too."""
    param = table_settings()["tell_tale"]["double_rolls"]
    assert param.ruling == "tt.ruling.double-strike" and param.default == "attack"
    assert tuple(v for v, _ in param.choices) == SETTINGS["double_rolls"]


def test_by_the_ruling_each_attack_action_of_a_double_striker_rolls_twice():
    """tt.ruling.double-strike: both actions spent attacking make four rolls."""
    s = at_actions(add("Duelist", 20, ["double-strike"]), add("Ogre", 5, kind="npc"))
    s, first = step(s, SWING)
    s, second = step(s, SWING)
    assert len(first.dice) == 2 and len(second.dice) == 2
    assert "tt.ruling.double-strike" in second.rules
    assert s["combatants"][1]["toughness_now"] == 0 and s["combatants"][1]["vitality"] == 30 - (2 + 2 + 2 + 2 - 4)


def test_two_rolls_per_turn_in_all_refuses_a_second_attack_in_the_turn():
    """tt.ruling.double-strike's alternative: the first attack action makes the turn's two rolls; a second is refused,
    naming the attacker, and the next turn has two rolls again."""
    s = at_actions(add("Duelist", 20, ["double-strike"]), add("Ogre", 5, kind="npc"), settings={"double_rolls": "turn"})
    s, first = step(s, SWING)
    assert len(first.dice) == 2 and any("two per turn in all" in d for d in first.details)
    err = refused(s, SWING)
    assert err.field == "attacker" and "two attack rolls this turn" in str(err) and "tt.ruling.double-strike" in str(err)
    assert str(err).count(". ") == 0  # one sentence
    # the refusal cost nothing: the other action is still there for something else
    s, _ = step(s, {"do": "act", "id": "c1", "what": "hide"})
    # the Ogre's turn, then the Duelist's again: two rolls again
    s, _ = step(s, {"do": "next", "through": True})
    s, _ = step(s, {"do": "next", "through": True})
    while s["order"][s["turn"]] != "c1" or s["step"] != "actions":
        s, _ = step(s, {"do": "next", "through": True})
    s, again = step(s, SWING)
    assert len(again.dice) == 2


def test_a_saved_fight_without_the_new_setting_or_field_reads_the_ruling():
    """tt.ruling.double-strike: a fight saved before the setting existed keeps being read, with the site's ruling."""
    s = at_actions(add("Duelist", 20, ["double-strike"]), add("Ogre", 5, kind="npc"), settings={"double_rolls": "turn"})
    s, _ = step(s, SWING)
    old = copy.deepcopy(s)
    del old["settings"]["double_rolls"]
    for c in old["combatants"]:
        del c["doubled"]
    back = check_encounter(old)
    assert back["settings"]["double_rolls"] == "attack" and back["combatants"][0]["doubled"] is False
    bad = copy.deepcopy(s)
    bad["settings"]["double_rolls"] = "thrice"
    with pytest.raises(InputError, match="double_rolls"):
        check_encounter(bad)


def test_per_turn_an_opportunist_strike_after_the_two_rolls_is_not_offered():
    """tt.ruling.double-strike's alternative with tt.ruling.opportunity-movement: in an enemy's turn the Double Striker
    has two rolls for its strike; once made, a second movement opens no further strike that turn."""
    s = fresh({"do": "settings", "settings": {"double_rolls": "turn"}}, add("Ogre", 20, kind="npc"), add("Duelist", 5, ["double-strike"]),
              add("Imp", 15, kind="npc"), {"do": "start"}, {"do": "next"}, {"do": "next"}, {"do": "next"})
    s, _ = step(s, {"do": "move", "id": "c1", "near": ["c2"]})
    assert s["combatants"][1]["chances"] == {"first_strike": ["c1"]}
    s, hit = step(s, {"do": "first_strike", "attacker": "c2", "target": "c1", "dice": {"d20": 3, "second_d20": 4}})
    assert len(hit.dice) == 2
    s, _ = step(s, {"do": "move", "id": "c1", "near": ["c2"]})
    assert s["combatants"][1]["chances"] == {}
    err = refused(s, {"do": "first_strike", "attacker": "c2", "target": "c1", "dice": {"d20": 3, "second_d20": 4}})
    assert err.field == "attacker" and "tt.ruling.double-strike" in str(err)
    # by the ruling the second movement opens a second strike
    s2 = fresh(add("Ogre", 20, kind="npc"), add("Duelist", 5, ["double-strike"]), {"do": "start"}, {"do": "next"}, {"do": "next"}, {"do": "next"},
               {"do": "move", "id": "c1", "near": ["c2"]},
               {"do": "first_strike", "attacker": "c2", "target": "c1", "dice": {"d20": 3, "second_d20": 4}},
               {"do": "move", "id": "c1", "near": ["c2"]})
    assert s2["combatants"][1]["chances"] == {"first_strike": ["c1"]}


@pytest.mark.parametrize("rolls, outcome", [("attack", "two"), ("turn", "spent")])
def test_the_double_strike_calculator_follows_the_tables_setting(rolls, outcome):
    """tt.ruling.double-strike: a second attack action in the turn rolls twice again by the ruling, nothing per turn in all;
    the table's choice reaches the form through apply_table, as every house ruling does."""
    raw = apply_table("tell_tale.double_strike", {"power": "4", "first_d20": "16", "second_d20": "15", "which": "second"},
                      {"tell_tale.double_rolls": rolls})
    answer = runner.run("tell_tale.double_strike", raw)
    assert answer["ok"] and answer["outcome"] == outcome
    assert "tt.ruling.double-strike" in answer["rules"]
    first = runner.run("tell_tale.double_strike", {**raw, "which": "first"})
    assert first["outcome"] == "two"


# ---------------------------------------------------------------- tt.ruling.surprise-attacks


def test_a_surprise_attack_has_advantage_in_the_tracker():
    """tt.ruling.surprise-attacks: two d20s, the higher kept."""
    s = at_actions(add("Scout", 20), add("Ogre", 5, kind="npc"))
    s, r = step(s, {"do": "attack", "attacker": "c1", "target": "c2", "mode": "surprise", "dice": {"d20": [3, 17]}})
    assert "tt.ruling.surprise-attacks" in r.rules and r.outcome == "hit"
    assert s["combatants"][1]["toughness_now"] == 0  # kept 17: full damage, Power 4


@pytest.mark.parametrize("action", [
    {"do": "attack", "attacker": "c1", "target": "c2", "mode": "surprise", "dice": {"d20": [3, 17]}},
    {"do": "charge", "attacker": "c1", "mode": "surprise", "targets": ["c2"], "dice": [{"d20": [3, 17]}]},
])
def test_a_character_with_vigilance_cannot_be_attacked_by_surprise(action):
    """tt.keyword.vigilance, tt.ruling.surprise-attacks: refused in one sentence naming the Situation field."""
    s = at_actions(add("Scout", 20, ["trample"]), add("Sentry", 5, ["vigilance"], kind="npc"))
    err = refused(s, action)
    assert err.field == "mode" and "Sentry has Vigilance and cannot be attacked by surprise" in str(err)
    assert str(err).count(". ") == 0
    s2, _ = step(s, {**action, "mode": "advantage"})  # the same attack, not by surprise, goes ahead
    assert s2["log"][-1]["n"] == s["log"][-1]["n"] + 1


def test_the_attack_calculators_offer_a_surprise_attack():
    """tt.ruling.surprise-attacks: the attack calculator keeps the higher die; the Trample charge calculator refuses a
    surprise charge through enemies with Vigilance, naming the Roll field."""
    answer = runner.run("tell_tale.resolve_attack", {"power": "5", "d20": "8 16", "mode": "surprise"})
    assert answer["ok"] and answer["outcome"] == "full" and "tt.ruling.surprise-attacks" in answer["rules"]
    refusal = runner.run("tell_tale.trample_charge", {"power": "4", "enemies": "2", "attack_d20": "16 9 3 4", "mode": "surprise", "vigilance": "yes"})
    assert not refusal["ok"] and refusal["field"] == "mode" and "Vigilance" in refusal["error"]
    save = runner.run("tell_tale.opposed_save", {"effect_d20": "14", "save_d20": "9 3", "mode": "surprise"})
    assert not save["ok"] and save["field"] == "mode"  # a save is not attacked by surprise


# ---------------------------------------------------------------- tt.ruling.win-or-lose


def _side_fight():
    """Mira (party) with her summon and a hurt ally, against an Ogre; Bran is dead, Wisp exiled."""
    s = at_actions(add("Mira", 20), add("Bran", 15), add("Ogre", 5, kind="npc"), add("Wisp", 12))
    s = fresh({"do": "edit", "id": "c1", "set": {"vitality": 9, "counters": 2, "poisoned": True}},
              {"do": "edit", "id": "c2", "set": {"vitality": -3, "status": "knocked-down"}},
              {"do": "edit", "id": "c3", "set": {"vitality": 20}},
              {"do": "edit", "id": "c4", "set": {"vitality": 7, "status": "exiled"}}, state=s)
    return s


def test_winning_the_game_raises_and_regenerates_the_whole_side():
    """tt.keyword.win-or-lose-the-game, tt.ruling.win-or-lose: the game goes on; the winner's side is raised and
    regenerated and stands up; the other side and the exiled are untouched."""
    s, r = step(_side_fight(), {"do": "game", "who": "c1", "result": "win"})
    mira, bran, ogre, wisp = s["combatants"]
    assert (mira["vitality"], mira["counters"], mira["poisoned"], mira["toughness_now"]) == (30, 0, False, 4)
    assert (bran["vitality"], bran["status"]) == (30, "standing")
    assert ogre["vitality"] == 20 and (wisp["vitality"], wisp["status"]) == (7, "exiled")
    assert s["phase"] == "combat" and {"tt.keyword.win-or-lose-the-game", "tt.ruling.win-or-lose"} <= set(r.rules)
    assert any("raised from the dead" in d for d in r.details)


def test_losing_the_game_brings_the_side_to_1_vitality_and_raises_nobody():
    """tt.ruling.win-or-lose: above 1 down to 1; the dead stay dead; the foes are untouched."""
    s, r = step(_side_fight(), {"do": "game", "who": "c1", "result": "lose"})
    mira, bran, ogre, _ = s["combatants"]
    assert (mira["vitality"], bran["vitality"], ogre["vitality"]) == (1, -3, 20)
    assert r.outcome == "lost" and s["phase"] == "combat"
    err = refused(s, {"do": "game", "who": "c1", "result": "draw"})
    assert err.field == "result" and "win or lose" in str(err)


# ---------------------------------------------------------------- tt.ruling.summon-return


def _with_summon():
    s = at_actions(add("Mira", 20), add("Ogre", 5, kind="npc"))
    s, _ = step(s, {"do": "add", "name": "Bear", "kind": "summon", "owner": "c1", "power": 3, "toughness": 3, "vitality": 6, "keywords": []})
    return fresh({"do": "edit", "id": "c3", "set": {"vitality": 2, "counters": 1, "status": "knocked-down"}}, state=s)


def test_a_summon_returned_to_the_battlefield_arrives_as_if_summoned_anew():
    """tt.keyword.return, tt.ruling.summon-return: full numbers, no counters, standing, still Mira's; by default a scroll."""
    s, r = step(_with_summon(), {"do": "cure", "target": "c3", "how": "return", "summon_to": "battlefield"})
    bear = s["combatants"][2]
    assert (bear["status"], bear["vitality"], bear["toughness_now"], bear["counters"], bear["owner"]) == ("standing", 6, 3, 0, "c1")
    assert "tt.ruling.summon-return" in r.rules and "tt.mechanics.return-characters" not in r.rules
    s, _ = step(_with_summon(), {"do": "cure", "target": "c3", "how": "return"})
    assert s["combatants"][2]["status"] == "dispelled"


def test_a_dead_summon_does_not_return_to_the_battlefield():
    """tt.ruling.summon-return: only a summon on the battlefield returns; the field at fault is the target."""
    s = fresh({"do": "edit", "id": "c3", "set": {"vitality": -1}}, state=_with_summon())
    err = refused(s, {"do": "cure", "target": "c3", "how": "return", "summon_to": "battlefield"})
    assert err.field == "target" and "dead" in str(err)


def test_emblems_end_with_the_encounter():
    """tt.planeswalker.effects: the tracker keeps no emblems, but the end of the encounter says those of the
    abilities used in it end."""
    s = at_actions({**add("Vraska", 20), "planeswalker": True}, add("Ogre", 5, kind="npc"))
    s, _ = step(s, {"do": "ability", "user": "c1", "cost": 1})
    _, r = step(s, {"do": "end"})
    assert "tt.planeswalker.effects" in r.rules and any("Emblems from Vraska's planeswalker ability end" in d for d in r.details)
    _, quiet = step(at_actions(add("Mira", 20), add("Ogre", 5, kind="npc")), {"do": "end"})
    assert "tt.planeswalker.effects" not in quiet.rules


# ---------------------------------------------------------------- tt.ruling.hand-tracking


def _turns(s, n):
    """`n` steps on, passing the steps that ask nothing, and every log line they wrote."""
    said = []
    for _ in range(n):
        s, r = step(s, {"do": "next", "through": True})
        said += [r.headline, *r.details]
    return s, said


def test_a_players_hand_is_counted_once_the_gm_gives_it():
    """tt.ruling.hand-tracking, tt.combat.draw-step, tt.combat.end-step: one card at the player's draw step, down to 7 at its end step."""
    s = fresh(add("Mira", 20), add("Ogre", 5, kind="npc"), {"do": "hand", "id": "c1", "cards": 7}, {"do": "start"})
    s, said = _turns(s, 1)  # to Mira's actions, through her draw step
    assert s["combatants"][0]["hand"] == 8 and any("Mira draws a card: 8 in hand" in t for t in said)
    s, said = _turns(s, 1)  # her end step
    assert s["combatants"][0]["hand"] == 7 and any("Mira discards 1 card down to 7" in t for t in said)
    s, r = step(s, {"do": "hand", "id": "c1", "cards": 3})
    assert r.headline == "Mira holds 3 cards." and "tt.ruling.hand-tracking" in r.rules
    assert s["order"][s["turn"]] == "c2"  # the Ogre's turn: the GM's hand is not counted
    while s["order"][s["turn"]] != "c1" or s["step"] != "actions":
        s, _ = _turns(s, 1)
    assert s["combatants"][0]["hand"] == 4 and s["combatants"][1]["hand"] is None


def test_a_hand_is_a_players_and_a_bad_size_is_one_sentence():
    """tt.ruling.hand-tracking: refused for an NPC, and past the page's limit, naming the field; an empty size stops the count."""
    s = fresh(add("Mira", 20), add("Ogre", 5, kind="npc"))
    err = refused(s, {"do": "hand", "id": "c2", "cards": 5})
    assert err.field == "id" and "only a player's hand" in str(err)
    err = refused(s, {"do": "hand", "id": "c1", "cards": 500})
    assert err.field == "cards" and "Cards in hand" in str(err)
    s, _ = step(s, {"do": "hand", "id": "c1", "cards": 5})
    s, r = step(s, {"do": "hand", "id": "c1"})
    assert s["combatants"][0]["hand"] is None and "no longer counted" in r.headline
    hostile = copy.deepcopy(fresh({"do": "hand", "id": "c1", "cards": 5}, state=s))
    hostile["combatants"][1]["hand"] = 3
    with pytest.raises(InputError, match="only a PC's hand"):
        check_encounter(hostile)
