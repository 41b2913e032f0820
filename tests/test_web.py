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
