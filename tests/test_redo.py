"""Redo after Undo in the encounter tracker: history.py's redo records, kept and checked.

The season tracker's redo is tested with its undo in tests/test_season.py; the
pages' Redo buttons in tests/test_encounter_page.py and tests/test_season_page.py.
"""

from __future__ import annotations

import json
import random

import pytest
from support.encounter import FIGHT

from calculators import runner
from calculators.checks import InputError
from calculators.history import apply_patch, redo_record, redone, undone_for_redo
from calculators.tell_tale import encounter_step, new_encounter
from calculators.tell_tale.encounter_state import UNDO_CAP, check_encounter

TRACKER = "tell_tale.encounter"


def step(state, action, seed=None):
    return encounter_step(state, action, random.Random(seed) if seed is not None else None)


def played(n):
    states = [new_encounter()]
    for action, seed in FIGHT[:n]:
        states.append(step(states[-1], action, seed)[0])
    return states


def test_redo_walks_a_fight_forward_again_exactly_as_undo_walked_it_back():
    """Undo ten steps, then Redo them: each state is the one the step made (its dice as they came, its log entry,
    its undo record), and each read back from storage is the same state."""
    states = played(len(FIGHT))
    s = states[-1]
    for n in range(1, 11):
        s, _ = step(s, {"do": "undo"})
        assert len(s["redo"]) == n
        assert check_encounter(json.loads(json.dumps(s))) == s  # saved and read back with its redo records
    for expected in states[-10:]:
        s, said = step(s, {"do": "redo"})
        assert {**s, "redo": [], "undo": []} == {**expected, "redo": [], "undo": []}
        assert s["undo"] == expected["undo"][-len(s["undo"]):]  # the same records (those dropped past the cap stay dropped)
        assert said.headline == f"Redone: {expected['log'][-1]['text']}"
    assert s == states[-1] and s["redo"] == []


def test_a_new_step_clears_what_was_undone_and_nothing_to_redo_is_a_sentence():
    s = played(12)[-1]
    back, _ = step(s, {"do": "undo"})
    assert back["redo"]
    went_on, _ = step(back, {"do": "next"})
    assert went_on["redo"] == []
    for state in (s, went_on, new_encounter()):
        with pytest.raises(InputError, match="nothing to redo"):
            step(state, {"do": "redo"})
    answer = runner.track(TRACKER, json.dumps(went_on), json.dumps({"do": "redo"}))
    assert answer["ok"] is False and "nothing to redo" in answer["error"]


def test_a_fight_saved_before_redo_reads_as_one_with_nothing_undone():
    s = played(20)[-1]
    old = {k: v for k, v in json.loads(json.dumps(s)).items() if k != "redo"}
    read = check_encounter(old)
    assert read == {**s, "redo": []}
    answer = runner.track(TRACKER, json.dumps(old), json.dumps({"do": "undo"}))
    assert answer["ok"] and len(answer["state"]["redo"]) == 1


def _undone_once():
    return json.loads(json.dumps(step(played(20)[-1], {"do": "undo"})[0]))


@pytest.mark.parametrize("label,redo,words", [
    ("not a list", "all", "at most 30 steps"),
    ("too many", "many", "at most 30 steps"),
    ("wrong shape", [{"evil": 1}], "wrong shape"),
    ("a change that does not fit", [{"change": ["[", {"back": 1}]}], "not a list"),
    ("a round below 0", [{"change": ["{", {"round": ["=", -5]}]}], "Redo step 1 of 1"),
    ("a change with no step in the log", [{"change": ["{", {"combatants": ["[", {"at": {"0": ["{", {"vitality": ["=", 999]}]}}]}]}],
     "does not bring back one step of the log"),
    ("a step with a script for a name", "script", "control or direction character"),
    ("nested deep", [{"change": ["{", {"settings": ["{", {"x": ["{", {}]}]}]}], "not there"),
])
def test_a_hostile_redo_list_is_refused_in_a_sentence_and_changes_nothing(label, redo, words):
    state = _undone_once()
    if redo == "many":
        redo = state["redo"] * (UNDO_CAP + 1)
    if redo == "script":  # the step undone, its combatant's name changed as it comes back
        change = json.loads(json.dumps(state["redo"][-1]["change"]))
        change[1]["combatants"] = ["[", {"at": {"0": ["{", {"name": ["=", "Vra\u202eska"]}]}}]
        redo = [{"change": change}]
    hostile = {**state, "redo": redo}
    answer = runner.track(TRACKER, json.dumps(hostile), json.dumps({"do": "redo"}))
    assert answer["ok"] is False and words in answer["error"], (label, answer)
    assert "Traceback" not in answer["error"]
    assert hostile["redo"] == redo  # nothing read from it was changed in place either


def test_redo_records_are_the_reverse_of_undo_records():
    """history.py's redo record turns the state undone to into the state before the undo, whatever the tracker."""
    before = {"undo": [], "a": 1, "log": [{"n": 1}]}
    after = {"undo": [], "a": 2, "log": [{"n": 1}, {"n": 2}], "b": [1]}
    record = redo_record(before, after)
    assert apply_patch({k: v for k, v in before.items() if k != "undo"}, record["change"]) == {k: v for k, v in after.items() if k != "undo"}
    kept = undone_for_redo({**after, "redo": []}, before, cap=2)
    again = redone(kept, kept["redo"][-1])
    assert {k: v for k, v in again.items() if k not in ("undo", "redo")} == {k: v for k, v in after.items() if k != "undo"}
    assert again["redo"] == [] and len(again["undo"]) == 1
    assert len(undone_for_redo({**after, "redo": [record] * 2}, before, cap=2)["redo"]) == 2  # kept to its cap
    with pytest.raises(InputError, match="redo record has the wrong shape"):
        redone(kept, {"change": ["=", 3]})
