"""The registry that drives the CLI, the forms and the docs."""

from __future__ import annotations

import inspect
import json
import random

import pytest
from support import cli as command_line
from support.rulepages import all_rules

from calculators import registry
from calculators.games import GAMES
from calculators.registry import all_calculators
from calculators.runner import run

CALCS = all_calculators()
RULE_IDS = {r.id for r in all_rules()}


def test_each_game_has_calculators():
    found = {name.split(".")[0] for name in CALCS}
    assert found == {g.key for g in GAMES}


@pytest.mark.parametrize("name", CALCS)
def test_entry_is_complete(name):
    calc = CALCS[name]
    assert calc.name == name and calc.title and calc.summary
    assert calc.outcomes, "declare every outcome word"
    assert calc.rules and set(calc.rules) <= RULE_IDS, set(calc.rules) - RULE_IDS
    names = [p.name for p in calc.params]
    assert len(names) == len(set(names)) and "seed" not in names and "calc" not in names
    for p in calc.params:
        assert p.label and p.kind in {"int", "choice", "yes_no", "dice", "text"}
        if p.kind in ("choice", "yes_no"):
            assert p.choices and (p.default is None or p.default in [v for v, _ in p.choices])
        # A Yes/No menu costs two taps where a switch costs one; the forms draw a yes_no as a switch.
        assert not (p.kind == "choice" and {v for v, _ in p.choices} == {"yes", "no"}), f"{name}.{p.name}: a yes/no question is kind yes_no"


def test_a_yes_no_param_reads_what_links_and_the_command_line_give():
    """Share links say haste=yes / haste=no, as the old menus did; anything else is one sentence naming the field."""
    from calculators.checks import InputError
    from calculators.types import Param

    haste = Param("haste", "Haste", kind="yes_no", default="no")
    assert haste.choices == (("no", "No"), ("yes", "Yes"))
    assert [haste.parse(v) for v in ("yes", " YES ", "no", "", None)] == ["yes", "yes", "no", "no", "no"]
    with pytest.raises(InputError, match=r"^Haste must be one of no, yes; got 'maybe'\.$"):
        haste.parse("maybe")
    with pytest.raises(ValueError, match="yes_no"):
        Param("haste", "Haste", kind="yes_no", default="sometimes")


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
    return command_line.run(*args)


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



# ---------------------------------------------------------------- rows of a form (group, short)


def test_display_label_is_the_short_label_inside_a_row():
    assert registry.Param("w", "Godlike slot, first player's Worth", group="Godlike slot, first player", short="Worth").display_label == "Worth"
    assert registry.Param("power", "Power").display_label == "Power"
    assert registry.Param("power", "Power").group == "" and registry.Param("power", "Power").short == ""


@pytest.mark.parametrize("name", CALCS)
def test_each_group_is_one_row_with_short_labels(name):
    """A group is one run of consecutive params (one row of the form), each with a short label."""
    runs = [p.group for i, p in enumerate(CALCS[name].params) if p.group and (i == 0 or CALCS[name].params[i - 1].group != p.group)]
    assert len(runs) == len(set(runs)), f"{name}: a group is split in two: {runs}"
    for p in CALCS[name].params:
        if p.group:
            assert p.short and len(p.short) <= 12 and p.display_label == p.short, p.name
            assert p.label != p.short, f"{p.name}: the full label names the field in error messages"


# ---------------------------------------------------------------- older parameters (Legacy)


def _toy(translate=None) -> registry.Calculator:
    """A calculator with one row (a, b) that an older one-line parameter `ab` ("3 4") stands for."""

    def split(raw: str) -> dict[str, str]:
        parts = raw.split()
        if len(parts) != 2:
            raise registry.InputError(f"Type two numbers like '3 4'; got {raw[:40]!r}.")
        return {"a": parts[0], "b": parts[1]}

    def adapter(rng, *, a, b):
        if a > b:
            raise registry.InputError(f"A is at most B; got {a} and {b}.", "a")
        return registry.Report("ok", f"{a} and {b}")

    return registry.Calculator(
        "toy.sum", "Toy", "Adds two numbers.",
        (registry.Param("a", "The row's A", minimum=0, maximum=9, group="The row", short="A"),
         registry.Param("b", "The row's B", minimum=0, maximum=9, group="The row", short="B"),
         registry.Param("c", "C", default=0)),
        adapter, legacy=(registry.Legacy("ab", "The row", ("a", "b"), translate or split),),
    )


def test_legacy_is_translated_before_parsing():
    toy = _toy()
    assert toy.upgrade({"ab": "3 4", "c": "1"}) == ({"a": "3", "b": "4", "c": "1"}, {"a": "ab", "b": "ab"})
    assert toy.parse({"ab": " 3 4 "}) == toy.parse({"a": "3", "b": "4"}) == {"a": 3, "b": 4, "c": 0}
    # An older parameter left empty is no parameter at all, as a form would send it.
    assert toy.parse({"ab": "", "a": "1", "b": "2"}) == {"a": 1, "b": 2, "c": 0}


@pytest.mark.parametrize(
    "raw, message",
    [
        ({"ab": "3"}, "Type two numbers like '3 4'; got '3'."),  # the translation's own sentence
        ({"ab": "3 12"}, "The row's B must be at most 9; got 12."),  # a field it filled, by its full label
        ({"ab": "3 4", "b": "5"}, "The row is given twice, as one line (ab) and field by field (b); keep one of the two."),
    ],
)
def test_legacy_errors_name_the_older_parameter(raw, message):
    with pytest.raises(registry.InputError) as err:
        _toy().parse(raw)
    assert (str(err.value), err.value.field) == (message, "ab")


def test_legacy_translation_may_only_fill_what_it_replaces():
    with pytest.raises(RuntimeError, match="ab translated to"):
        _toy(lambda raw: {"a": "1", "c": "2"}).parse({"ab": "1 2"})


@pytest.mark.parametrize("name", CALCS)
def test_legacy_parameters_stand_for_current_ones(name):
    calc = CALCS[name]
    params = {p.name for p in calc.params}
    for old in calc.legacy:
        assert old.name not in params and old.label and set(old.replaces) <= params, old.name
    assert not any(set(example) & {old.name for old in calc.legacy} for example in calc.examples), "examples use the current fields"


def test_run_names_the_older_parameter_for_errors_found_after_parsing():
    """The Weekend's division played down is found by the adapter: it still names the line the player typed."""
    lineup = {f"{slot}_{who}": f"{slot} 5 3" for slot in ("godlike", "heavy", "middle", "light") for who in ("first", "second")}
    result = run("rpgdl.resolve_weekend", {**lineup, "middle_first": "godlike 5 3"})
    assert (result["ok"], result["field"]) == (False, "middle_first") and "never down" in result["error"]


def test_a_calculators_defaults_are_written_once_in_its_params():
    """An adapter's keyword arguments have no defaults of their own: its Params hold them, and parse() fills them in
    for the runner, a form, a link and the command line alike (a second default could disagree with the first)."""
    import inspect

    for name, calc in registry.all_calculators().items():
        doubled = [k for k, p in inspect.signature(calc.adapter).parameters.items() if k != "rng" and p.default is not p.empty]
        assert not doubled, (name, doubled)
    calc = registry.all_calculators()["talislanta.resolve_action"]
    params = calc.parse({"rating": "3", "d20": "12"})  # difficulty, the offset's rulings...: their Params' defaults
    assert params["difficulty"] == 0 and params["offset_mode"] == "once" and params["negative_offset"] == "ignore"
    assert calc.adapter(None, **params).outcome in calc.outcomes


def test_calculators_and_trackers_declare_their_fields_with_one_type():
    """A calculator's parameter, a tracker action's field and a season Weekend's card field are each a Param."""
    from calculators import types
    from calculators.rpgdl.league_cards import CARD_FORM

    assert not hasattr(types, "Field")
    fields = [f for t in registry.all_trackers().values() for spec in t.specs for f in spec.fields]
    fields += [e for f in fields for e in (*f.each, *((f.flag,) if f.flag else ()))]
    assert fields and all(type(f) is types.Param for f in fields)
    assert all(type(p) is types.Param for c in registry.all_calculators().values() for p in c.params)
    assert all(type(f) is types.Param for f in CARD_FORM)
