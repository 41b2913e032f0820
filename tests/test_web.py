"""The browser's entry point, `calculators.web.compute`, in CPython.

runtime/calc-worker.mjs calls the global `compute` that runtime/warm-up.py
imports from calculators.web: JSON in, JSON out, never an exception.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from calculators.registry import all_calculators
from calculators.runner import run
from calculators.web import compute

ROOT = Path(__file__).resolve().parent.parent
CASES = [(calc.name, example) for calc in all_calculators().values() for example in calc.examples]


@pytest.mark.parametrize(("name", "example"), CASES, ids=[f"{n}-{i}" for i, (n, _) in enumerate(CASES)])
def test_compute_answers_every_example_as_run_does(name, example):
    params = {k: v for k, v in example.items() if k != "seed"}
    answer = compute(name, json.dumps(params), example.get("seed"))
    assert isinstance(answer, str)
    assert json.loads(answer) == run(name, params, example.get("seed"))
    assert json.loads(answer)["ok"] is True


def test_same_seed_same_dice():
    a = compute("tell_tale.resolve_attack", json.dumps({"power": "5"}), "42")
    assert json.loads(a)["seed"] == 42 and a == compute("tell_tale.resolve_attack", json.dumps({"power": "5"}), "42")


@pytest.mark.parametrize(("name", "params", "seed", "field"), [
    ("tell_tale.resolve_attack", {"power": "5", "d20": "23"}, None, "d20"),
    ("tell_tale.resolve_attack", {"power": "x", "d20": "3"}, None, "power"),
    ("tell_tale.resolve_attack", {"power": "5"}, "-1", "seed"),
    ("talislanta.resolve_action", {"rating": "9"}, None, "d20"),
    ("rpgdl.check_nom_pool", {"duelists": "nonsense"}, None, "duelists"),
    ("nosuch.calculator", {}, None, None),
    ("tell_tale.resolve_attack", {"nosuch": "1"}, None, None),
])
def test_bad_input_is_an_answer_not_an_exception(name, params, seed, field):
    answer = json.loads(compute(name, json.dumps(params), seed))
    assert answer["ok"] is False and answer["error"] and answer["field"] == field


@pytest.mark.parametrize("params_json", ["", "not json", "[1, 2]", "null", "42"])
def test_parameters_that_are_no_json_object(params_json):
    answer = json.loads(compute("tell_tale.resolve_attack", params_json, None))
    assert answer == {"ok": False, "error": "The calculator's settings did not arrive as a JSON object.", "field": None}


def test_the_warm_up_defines_compute_from_the_package():
    """The worker reads the global `compute` after running warm-up.py; a browser test patches that line."""
    scope: dict = {"__name__": "warm_up"}
    exec(compile((ROOT / "runtime" / "warm-up.py").read_text(encoding="utf-8"), "warm-up.py", "exec"), scope)
    assert scope["compute"] is compute
    assert 'pyodide.globals.get("compute")' in (ROOT / "runtime" / "calc-worker.mjs").read_text(encoding="utf-8")


def test_a_tracker_step_goes_through_compute_and_bad_input_is_an_answer():
    """The worker's one entry point reaches the trackers too ("track:<name>")."""
    answer = json.loads(compute("track:no_such.tracker", json.dumps({"state": "", "action": "{}"})))
    assert answer == {"ok": False, "error": "There is no tracker called 'no_such.tracker'.", "field": None}


# ---------------------------------------------------------------- what a share link carries (runner.link)


def _stepped(name: str, actions: list[dict]) -> str:
    from calculators.runner import track

    state = ""
    for action in actions:
        answer = track(name, state, json.dumps(action), 1)
        assert answer["ok"], answer
        state = json.dumps(answer["state"])
    return state


def test_a_share_link_carries_what_python_says_and_reads_back_to_the_same_state():
    """The page asks compute("link:<tracker>") what a link carries; it never builds the form itself. The season's link
    is its log's actions alone; the fight's is the whole fight, then the fight without undo history."""
    from calculators.registry import all_trackers

    season = _stepped("rpgdl.season", [{"do": "player", "player": "first", "name": "Ana"}, {"do": "player", "player": "second", "name": "Ben"}])
    forms = json.loads(compute("link:rpgdl.season", json.dumps({"state": season})))["forms"]
    assert [f["note"] for f in forms] == [""] and set(forms[0]["state"]) == {"tracker", "version", "log"}
    assert all_trackers()["rpgdl.season"].check(forms[0]["state"]) == json.loads(season)  # the link rebuilds the season
    fight = _stepped("tell_tale.encounter", [{"do": "add", "name": "Zed", "kind": "npc", "power": 1, "toughness": 1, "vitality": 3},
                                              {"do": "add", "name": "Ann", "kind": "pc", "power": 2, "toughness": 2, "vitality": 9}])
    forms = json.loads(compute("link:tell_tale.encounter", json.dumps({"state": fight})))["forms"]
    assert forms[0]["state"] == json.loads(fight) and forms[0]["note"] == ""
    assert forms[1]["state"]["undo"] == [] and "undo and redo history" in forms[1]["note"]
    assert all_trackers()["tell_tale.encounter"].check(forms[1]["state"])["combatants"] == json.loads(fight)["combatants"]
    party = json.loads(compute("link:tell_tale.party", json.dumps({"state": ""})))["forms"]
    assert len(party) == 1 and party[0]["state"]["tracker"] == "tell_tale.party"  # no links of its own: the state


@pytest.mark.parametrize(("name", "state", "words"), [
    ("link:nobody", "", "no tracker called 'nobody'"),
    ("link:rpgdl.season", "{not json", "not JSON"),
    ("link:rpgdl.season", json.dumps({"tracker": "tell_tale.encounter"}), "not a saved RPGDL season"),
    ("link:tell_tale.encounter", "[" * 5000, "nested too deep"),
])
def test_a_link_asked_of_a_bad_state_is_refused_in_words(name, state, words):
    answer = json.loads(compute(name, json.dumps({"state": state})))
    assert answer["ok"] is False and words in answer["error"]
