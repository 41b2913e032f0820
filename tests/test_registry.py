"""The registry that drives the CLI, the forms and the docs."""

from __future__ import annotations

import inspect
import json
import random
import subprocess
import sys

import pytest

from calculators import registry
from calculators.registry import all_calculators, run
from rulepages import all_rules

CALCS = all_calculators()
RULE_IDS = {r.id for r in all_rules()}


def test_each_game_has_calculators():
    games = {name.split(".")[0] for name in CALCS}
    assert games == {"tell_tale", "talislanta", "rpgdl"}


@pytest.mark.parametrize("name", CALCS)
def test_entry_is_complete(name):
    calc = CALCS[name]
    assert calc.name == name and calc.title and calc.summary
    assert calc.outcomes, "declare every outcome word"
    assert calc.rules and set(calc.rules) <= RULE_IDS, set(calc.rules) - RULE_IDS
    names = [p.name for p in calc.params]
    assert len(names) == len(set(names)) and "seed" not in names and "calc" not in names
    for p in calc.params:
        assert p.label and p.kind in {"int", "choice", "dice", "text"}
        if p.kind == "choice":
            assert p.choices and (p.default is None or p.default in [v for v, _ in p.choices])


@pytest.mark.parametrize("name", CALCS)
def test_params_are_the_python_functions_parameters(name):
    """The form's input names are the parameters of a public function of the module."""
    module_name, func_name = name.split(".")
    module = __import__(f"calculators.{module_name}", fromlist=["x"])
    func = getattr(module, func_name, None)
    if func is None or not callable(func):
        pytest.skip(f"{name} is a form-only calculator with no function of that name")  # reason: flat form over dataclasses
    signature = inspect.signature(func)
    shared = [p.name for p in CALCS[name].params if p.name in signature.parameters]
    assert shared, f"{name}: no form field matches a parameter of {func_name}"


@pytest.mark.parametrize("name", CALCS)
def test_examples_reach_every_outcome(name):
    calc = CALCS[name]
    seen = []
    for example in calc.examples:
        result = run(name, {k: v for k, v in example.items() if k != "seed"}, example.get("seed"))
        assert result["ok"], (example, result)
        seen.append(result["outcome"])
    assert set(seen) == set(calc.outcomes), f"examples give {sorted(set(seen))}, outcomes are {sorted(calc.outcomes)}"


@pytest.mark.parametrize("name", CALCS)
def test_random_inputs_never_crash_and_only_give_declared_outcomes(name):
    calc = CALCS[name]
    rng = random.Random(name)
    junk = ["", "0", "-1", "1", "7", "20", "23", "abc", "1 2", "<b>x</b>", "9" * 30, "3.5", " 4 "]
    for _ in range(150):
        raw = {}
        for p in calc.params:
            if p.kind == "choice" and rng.random() < 0.8:
                raw[p.name] = rng.choice(p.choices)[0]
            elif rng.random() < 0.7 and calc.examples:
                raw[p.name] = rng.choice(calc.examples).get(p.name, rng.choice(junk))
            else:
                raw[p.name] = rng.choice(junk)
        result = run(name, raw, rng.choice([None, str(rng.randrange(2**32))]))
        json.dumps(result)
        if result["ok"]:
            assert result["outcome"] in calc.outcomes
            assert set(result["rules"]) <= set(calc.rules)
            if result["odds"]:
                total = sum(o["numerator"] / o["denominator"] for o in result["odds"])
                assert abs(total - 1) < 1e-9 or result["odds_title"], result
        else:
            assert result["error"] and "Traceback" not in result["error"]


def test_unknown_calculator_and_unknown_field_are_refused_in_words():
    assert run("nope.nothing", {})["error"].startswith("There is no calculator")
    result = run("tell_tale.resolve_attack", {"power": "5", "d20": "3", "bogus": "1"})
    assert not result["ok"] and "no setting called 'bogus'" in result["error"]


def test_bad_seed_is_refused_in_words():
    result = run("tell_tale.resolve_attack", {"power": "5"}, "twelve")
    assert result == {"ok": False, "error": "The seed must be a whole number from 0 to 4294967295; got 'twelve'.", "field": "seed"}


def test_same_seed_same_dice():
    a = run("tell_tale.resolve_attack", {"power": "5"}, 1234)
    b = run("tell_tale.resolve_attack", {"power": "5"}, 1234)
    assert a == b and a["dice"]
    assert {run("tell_tale.resolve_attack", {"power": "5"}, s)["dice"]["d20"] for s in range(40)} != {a["dice"]["d20"]}


def cli(*args):
    return subprocess.run([sys.executable, "-m", "calculators", *args], capture_output=True, text=True)


def test_cli_lists_every_calculator():
    out = cli("--help")
    assert out.returncode == 0
    for name in CALCS:
        assert name in out.stdout


def test_cli_prints_a_result_and_json():
    out = cli("tell_tale.resolve_attack", "--power", "5", "--d20", "17")
    assert out.returncode == 0 and "tt.combat.attack-table" in out.stdout and "%" in out.stdout
    data = json.loads(cli("tell_tale.resolve_attack", "--power", "5", "--d20", "17", "--json").stdout)
    assert data == run("tell_tale.resolve_attack", {"power": "5", "d20": "17"})


def test_cli_bad_input_exits_2_with_the_sentence():
    out = cli("tell_tale.resolve_attack", "--power", "5", "--d20", "23")
    assert out.returncode == 2
    assert out.stderr.strip() == "A d20 shows 1 to 20; got 23."
    assert "Traceback" not in out.stderr


def test_cli_rolls_with_a_seed():
    a = cli("tell_tale.resolve_attack", "--power", "5", "--seed", "99")
    assert a.returncode == 0 and "seed 99" in a.stdout
    assert a.stdout == cli("tell_tale.resolve_attack", "--power", "5", "--seed", "99").stdout


def test_public_names():
    assert registry.__all__ == ["InputError", "Param", "Report", "Calculator", "all_calculators", "get", "run"]
