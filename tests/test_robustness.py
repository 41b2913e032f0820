"""Crafted and random input: every parser answers in linear time, within its caps, with a sentence.

Timing is never compared with a fixed limit, nor read from the wall clock
(the machine is shared and noisy: a wall clock also counts the time other
work holds the cores): each crafted input is parsed at n and at 10 n, timed
in this thread's own CPU time, and the larger must cost less than 30 times
the smaller (linear is 10 times, quadratic 100 times: room for noise both
ways).
"""

from __future__ import annotations

import ast
import contextlib
import re
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from calculators import registry, rpgdl, runner, tell_tale
from calculators.dice import parse_dice
from calculators.registry import InputError, Param
from calculators.rpgdl.entries import _parse_entry
from calculators.talislanta.reports import _parse_ratings

ROOT = Path(__file__).resolve().parent.parent

# ---------------------------------------------------------------- linear time


def _per_call(parse, text: str) -> float:
    """CPU seconds per call in this thread (time spent waiting for a core
    is not counted), the best of five rounds, each long enough to time."""
    reps = 1
    while True:
        best = float("inf")
        for _ in range(5):
            start = time.thread_time()
            for _ in range(reps):
                with contextlib.suppress(ValueError):
                    parse(text)
            best = min(best, time.thread_time() - start)
        if best >= 0.005 or reps >= 4096:
            return best / reps
        reps *= 4


def _no_catastrophe(parse, make, n: int = 2_000) -> None:
    small, big = _per_call(parse, make(n)), _per_call(parse, make(10 * n))
    assert big < 30 * small, f"{10 * n:,} characters cost {big / small:.0f} times {n:,}: not linear"


def test_the_timing_check_tells_quadratic_from_linear():
    """The check above can fail: a parser that rescans the text for each character is caught."""
    def quadratic(text):
        return sum(text.count(c, i) for i, c in enumerate(text))

    _no_catastrophe(str.split, lambda n: "a " * n, n=1_000)
    with pytest.raises(AssertionError, match="not linear"):
        _no_catastrophe(quadratic, lambda n: "ab" * (n // 2), n=1_000)


def _nom_pool(text):
    return rpgdl.parse_nom_pool(text)


def _entry(text):  # the Weekend's older one-line duelist
    return _parse_entry(text, "heavy", "first", "heavy_first")


def _numbers(text):
    return registry.parse_numbers(text, label="L", field="f", minimum=0, maximum=99, most=10**6, example="numbers")


def _int(text):
    return Param("n", "N", minimum=0, maximum=99)._int(text)


def _dice(text):
    return parse_dice(text, count=3, sides=6, label="Dice", field="dice")


CRAFTED = [
    # the report: a Nom Pool of 'a', 60,000 separators and 'b' took 136 s
    (_nom_pool, lambda n: "a" + "," * n + "b"),
    (_nom_pool, lambda n: "a" + " " * n + "b"),
    (_nom_pool, lambda n: "a" + " -" * (n // 2) + " b"),
    (_nom_pool, lambda n: "a" + "(" * n + "b"),
    (_nom_pool, lambda n: "a" + ":" * n + "b"),
    (_nom_pool, lambda n: "a," + " " * n + "Heavy"),
    (_nom_pool, lambda n: "a" + "H" * n),
    (tell_tale.parse_decklist, lambda n: "a" + " " * n + "b"),
    (tell_tale.parse_decklist, lambda n: "1" * n),
    (tell_tale.parse_decklist, lambda n: "1" + " " * n + "Bolt"),
    (tell_tale.parse_decklist, lambda n: "4" + " x" * (n // 2)),
    (tell_tale.parse_decklist, lambda n: "4 Bolt\n" * (n // 10)),
    (tell_tale.parse_exempt, lambda n: "," * n),
    (rpgdl.parse_season_deck, lambda n: "a" + " " * n + "b"),
    (rpgdl.parse_season_deck, lambda n: "1" * n + " a"),
    (rpgdl.parse_season_deck, lambda n: "a" + " x" * (n // 2)),
    (rpgdl.parse_season_deck, lambda n: "a x" + " " * n + "4"),
    (rpgdl.parse_season_deck, lambda n: "4" + " " * n + "x" * n),
    (_entry, lambda n: ":" * n),
    (_entry, lambda n: "a:" + " " * n + "heavy 6 4"),
    (_entry, lambda n: "heavy " + "1" * n + " 4"),
    (_numbers, lambda n: " " * n),
    (_numbers, lambda n: ",;/ " * (n // 4) + "x"),
    (_numbers, lambda n: "1" * n),
    (_numbers, lambda n: "1 " * (n // 2)),
    (_int, lambda n: "1" * n),
    (_int, lambda n: " " * n + "7"),
    (registry.parse_seed, lambda n: "1" * n),
    (_dice, lambda n: "1 " * (n // 2)),
    (_dice, lambda n: "+" * n),
]


@pytest.mark.parametrize("parse, make", CRAFTED, ids=[f"{p.__name__}-{i}" for i, (p, _) in enumerate(CRAFTED)])
def test_crafted_input_parses_in_linear_time(parse, make):
    _no_catastrophe(parse, make)


def test_the_reported_nom_pool_is_answered():
    """The report's own input, at its own size: refused by the field, and linear to parse directly."""
    text = "a" + "," * 60_000 + "b"
    result = runner.run("rpgdl.check_nom_pool", {"duelists": text})
    assert result == {"ok": False, "field": "duelists",
                      "error": "Duelists, one a line: 'Name, Division': this is 60,002 characters long; the limit is 10,000."}
    _no_catastrophe(_nom_pool, lambda n: "a" + "," * n + "b", n=6_000)


def _filled(calc) -> dict[str, str]:
    """The calculator's first example, without its seed: every field before the one under test is valid."""
    example = dict(calc.examples[0]) if calc.examples else {}
    example.pop("seed", None)
    return example


@pytest.mark.parametrize("size", [60_000, 200_000])
@pytest.mark.parametrize("fill", [" ", ",", ":", "1", "x", "\n", "-"])
def test_every_field_answers_long_input(size, fill):
    text = "a" + fill * size + "b"
    for calc in registry.all_calculators().values():
        for p in calc.params:
            result = runner.run(calc.name, {**_filled(calc), p.name: text})
            assert result["ok"] is False, (calc.name, p.name)
            assert "characters long; the limit is" in result["error"]
            assert result["field"] == p.name


# ---------------------------------------------------------------- no regex can backtrack


def _regex_literals():
    """(file, line, pattern) of every pattern literal handed to the re module in calculators/."""
    found = []
    for path in sorted((ROOT / "calculators").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == "re"):
                assert node.args and isinstance(node.args[0], ast.Constant), f"{path.name}:{node.lineno}: a pattern built at run time"
                found.append((path.name, node.lineno, node.args[0].value))
    return found


def _shape_problems(pattern: str) -> list[str]:
    """The shapes that backtrack: a quantifier inside a quantifier, or two unbounded ones, or one not at the end.

    One unbounded quantifier, last in the pattern, costs linear time with
    match, fullmatch, split and search alike; anything more needs a review.
    """
    parser = pytest.importorskip("re._parser")
    constants = pytest.importorskip("re._constants")
    repeats = (constants.MAX_REPEAT, constants.MIN_REPEAT, constants.POSSESSIVE_REPEAT)
    problems = []

    def walk(items, inside_repeat):
        unbounded = []
        for i, (op, av) in enumerate(items):
            if op in repeats:
                _low, high, sub = av
                if inside_repeat:
                    problems.append("a quantifier inside a quantifier")
                if high == constants.MAXREPEAT or high > 100:
                    unbounded.append(i)
                walk(list(sub), True)
            elif op == constants.SUBPATTERN:
                walk(list(av[-1]), inside_repeat)
                if any(o in repeats for o, _ in av[-1]):
                    unbounded.append(i)
            elif op == constants.BRANCH:
                for sub in av[1]:
                    walk(list(sub), inside_repeat)
                unbounded.append(i)
        if len(unbounded) > 1:
            problems.append("two quantifiers that may both take a long run")
        elif unbounded and unbounded[0] != len(items) - 1:
            problems.append("an unbounded quantifier with more pattern after it")

    walk(list(parser.parse(pattern)), False)
    return problems


def test_no_pattern_can_backtrack():
    literals = _regex_literals()
    assert literals, "the scan found no patterns at all"
    bad = {f"{f}:{line} {pattern!r}": _shape_problems(pattern) for f, line, pattern in literals}
    assert not {k: v for k, v in bad.items() if v}


@pytest.mark.parametrize("pattern", [
    r"^(?:(\d+)\s*[xX]?\s+)?(.+?)\s*$",  # the old Tell-Tale LINE
    r"^(?P<name>.+?)\s*(?:[,;|]|\s-\s|\s–\s|\()\s*(?P<division>[A-Za-z]+)\s*\)?\s*$",  # the old _NOM_LINE
    r"(a+)+",
    r"a+b",
])
def test_the_shape_check_catches_the_old_patterns(pattern):
    assert _shape_problems(pattern)


# ---------------------------------------------------------------- caps


def _text_params():
    return [(calc, p) for calc in registry.all_calculators().values() for p in calc.params if p.kind == "text"]


@pytest.mark.parametrize("calc, p", _text_params(), ids=lambda x: getattr(x, "name", ""))
def test_every_text_field_states_its_cap(calc, p):
    assert p.max_length, f"{calc.name} {p.name} has no max_length"
    assert f"{p.max_length:,} characters" in p.help, p.help


@pytest.mark.parametrize("calc, p", _text_params(), ids=lambda x: getattr(x, "name", ""))
def test_a_text_field_takes_its_cap_and_refuses_one_more(calc, p):
    at_cap = runner.run(calc.name, {**_filled(calc), p.name: "#" * p.max_length})
    assert "characters long" not in (at_cap.get("error") or "")
    over = runner.run(calc.name, {**_filled(calc), p.name: "#" * (p.max_length + 1)})
    assert over == {"ok": False, "field": p.name,
                    "error": f"{p.label}: this is {p.max_length + 1:,} characters long; the limit is {p.max_length:,}."}


def test_caps_fit_a_real_list():
    long_names = [f"Our Market Research Shows That Players Like Really Long Card Names Number {i}" for i in range(100)]
    deck = "\n".join(f"1 {name}" for name in long_names)
    assert len(deck) <= tell_tale.DECKLIST_MAX_LENGTH
    assert runner.run("tell_tale.check_deck", {"decklist": deck})["ok"]
    assert runner.run("rpgdl.check_season_deck", {"cards": deck})["ok"]
    pool = "\n".join(f"{name[:60]}, Heavy" for name in long_names[:20])
    assert runner.run("rpgdl.check_nom_pool", {"duelists": pool})["ok"]


@pytest.mark.parametrize("parse, text, message", [
    (tell_tale.parse_decklist, "4 Bolt\n" * 1_001, "A decklist has at most 1,000 lines; this one has 1,001."),
    (rpgdl.parse_season_deck, "4 Bolt\n" * 1_001, "A Season Deck list has at most 1,000 lines; this one has 1,001."),
    (rpgdl.parse_nom_pool, "Cid, Heavy\n" * 201, "A Nom Pool has at most 200 lines; this one has 201."),
    (tell_tale.parse_exempt, ",".join(["Rats"] * 101), "Cards allowed past 4 copies: name at most 100; got 101."),
])
def test_line_and_item_caps(parse, text, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        parse(text)


def test_line_caps_are_inclusive():
    assert tell_tale.parse_decklist("4 Bolt\n" * 1_000) == (("Bolt", 4_000),)
    assert len(rpgdl.parse_nom_pool("Cid, Heavy\n" * 200)) == 200


# ---------------------------------------------------------------- whole numbers


POWER = Param("power", "Power", minimum=0, maximum=1000)


@pytest.mark.parametrize("raw, value", [("+5", 5), (" 7 ", 7), ("\t12\n", 12), ("-0", 0), ("0007", 7), (5, 5)])
def test_whole_numbers_taken(raw, value):
    assert POWER.parse(raw) == value


@pytest.mark.parametrize("raw, message", [
    ("1_000", "Power must be a whole number written with the digits 0 to 9 only; got '1_000'."),
    ("١٢", "Power must be a whole number written with the digits 0 to 9 only; got '١٢'."),
    ("１２", "Power must be a whole number written with the digits 0 to 9 only; got '１２'."),
    ("1 000", "Power must be a whole number written with the digits 0 to 9 only; got '1 000'."),
    ("++5", "Power must be a whole number written with the digits 0 to 9 only; got '++5'."),
    ("five", "Power must be a whole number; got 'five'."),
    ("0x10", "Power must be a whole number written with the digits 0 to 9 only; got '0x10'."),
    ("9" * 999, "Power must be a whole number of at most 12 digits; got '99999999999999999999…'."),
    ("9" * 12, "Power must be at most 1000; got 999999999999."),
    pytest.param(10**5000, "Power must be at most 1000; got a number of more than 12 digits.", id="huge"),
    pytest.param(-(10**5000), "Power must be at least 0; got -a number of more than 12 digits.", id="-huge"),
    (True, "Power must be a whole number."),
    (1.5, "Power must be a whole number."),
])
def test_whole_numbers_refused(raw, message):
    with pytest.raises(InputError) as err:
        POWER.parse(raw)
    assert str(err.value) == message
    assert err.value.field == "power"


def test_registry_numbers_ascii_only():
    assert runner.run("tell_tale.resolve_attack", {"power": " +5 ", "d20": "17"})["ok"]
    for bad in ("1_000", "١٢"):
        result = runner.run("tell_tale.resolve_attack", {"power": bad, "d20": "17"})
        assert result["field"] == "power" and "digits 0 to 9" in result["error"]
    for bad in ("1_000", "١٢", "9" * 5000):
        assert runner.run("tell_tale.resolve_attack", {"power": "5", "d20": "17"}, seed=bad)["field"] == "seed"


LIST_FIELDS = [
    ("rpgdl.vote_pool", {"generic_voters": "8"}, "unique_weights", "Unique Voters' Vote Weights"),
    ("rpgdl.season_tally", {}, "first_successes", "First player's Successes"),
    ("rpgdl.season_tally", {"first_successes": "1"}, "second_trainwrecks", "Second player's Trainwrecks"),
    ("talislanta.multiple_actions", {"actions": "2", "d20s": "3 4"}, "ratings", "Ratings"),
]


@pytest.mark.parametrize("name, base, field, label", LIST_FIELDS)
@pytest.mark.parametrize("item", ["9" * 150, "1_000", "١٢", "x", "100000"])
def test_list_fields_check_each_number_like_a_number_field(name, base, field, label, item):
    result = runner.run(name, {**base, field: f"1 {item}"})
    assert result["ok"] is False and result["field"] == field
    error = result["error"]
    assert error.startswith(label), error
    if field in ("unique_weights", "ratings"):
        assert "week" not in error
    assert "set_int_max_str_digits" not in error and "4300" not in error
    assert len(error) < 200
    assert item[:21] not in error or len(item) <= 20  # at most ~20 characters quoted


def test_vote_weights_speak_of_voters_not_weeks():
    error = runner.run("rpgdl.vote_pool", {"generic_voters": "8", "unique_weights": "1 two"})["error"]
    assert error == "Unique Voters' Vote Weights: type one whole number per unique Voter, like '1 2'; got 'two'."


def test_list_fields_take_their_numbers():
    assert runner.run("rpgdl.vote_pool", {"generic_voters": "8", "unique_weights": " 1, 2 "})["headline"] == "11 votes this turn."
    assert runner.run("talislanta.multiple_actions", {"actions": "2", "ratings": "-3,+2", "d20s": "10 12"})["ok"]
    too_many = runner.run("rpgdl.vote_pool", {"unique_weights": "1 " * 51})
    assert too_many["error"] == "Unique Voters' Vote Weights: type at most 50 numbers; got 51."


@pytest.mark.parametrize("field", ["first_successes", "second_successes", "first_trainwrecks", "second_trainwrecks"])
def test_season_list_errors_name_their_field(field):
    label = {"first": "First", "second": "Second"}[field.split("_")[0]] + " player's " + field.split("_")[1].capitalize()
    six = runner.run("rpgdl.season_tally", {field: "0 0 0 0 0 0"})
    assert six["field"] == field and six["error"].startswith(f"{label}: a Season has 5 weeks")
    other = "first_successes" if field != "first_successes" else "second_successes"
    uneven = runner.run("rpgdl.season_tally", {other: "0 0", field: "0"})
    assert uneven["field"] == field and uneven["error"].startswith(f"{label}: give one number per week played")


# ---------------------------------------------------------------- copy counts


@pytest.mark.parametrize("name, field, text, message", [
    ("tell_tale.check_deck", "decklist", "-2 Forest", "Line 1: a card is listed with at least 1 copy; got -2 of 'Forest'."),
    ("tell_tale.check_deck", "decklist", "4 Bolt\n-2x Forest", "Line 2: a card is listed with at least 1 copy; got -2 of 'Forest'."),
    ("tell_tale.check_deck", "decklist", "0 Forest", "Line 1: a card is listed with at least 1 copy; got 0 of 'Forest'."),
    ("rpgdl.check_season_deck", "cards", "-2 Axeman", "Line 1: a card is listed with at least 1 copy; got -2 of 'Axeman'."),
    ("rpgdl.check_season_deck", "cards", "Axeman x-2", "Line 1: a card is listed with at least 1 copy; got -2 of 'Axeman'."),
    ("rpgdl.check_season_deck", "cards", "Axeman x 0", "Line 1: a card is listed with at least 1 copy; got 0 of 'Axeman'."),
    ("rpgdl.check_season_deck", "cards", "9" * 5000 + " Axeman", "Line 1: '99999999999999999999…' copies of 'Axeman' is more than any deck holds."),
    ("rpgdl.check_nom_pool", "duelists", ", Heavy", "Line 1 should read like 'Worker 8, Heavy'; got ', Heavy'."),
])
def test_copy_counts_and_lines_refused_with_a_sentence(name, field, text, message):
    assert runner.run(name, {field: text}) == {"ok": False, "error": message, "field": field}


@pytest.mark.parametrize("line, card", [
    ("4 Axeman", ("Axeman", 4)), ("4x Axeman", ("Axeman", 4)), ("4 × Axeman", ("Axeman", 4)), ("Axeman x4", ("Axeman", 4)),
    ("Axeman × 4", ("Axeman", 4)), ("Axeman X4", ("Axeman", 4)), ("X-Wing", ("X-Wing", 1)), ("x4", ("x4", 1)),
    ("٤ Axeman", ("٤ Axeman", 1)), ("Axeman -2", ("Axeman -2", 1)),
])
def test_season_deck_lines(line, card):
    assert rpgdl.parse_season_deck(line) == dict([card])


@pytest.mark.parametrize("line, entry", [
    ("Worker 8, Heavy", ("Worker 8", "heavy")), ("Ryu1 (light)", ("Ryu1", "light")), ("Ryu1 (light", ("Ryu1", "light")),
    ("A, B; Middle", ("A, B", "middle")), ("Cid - h", ("Cid", "heavy")), ("Cid – Godlike", ("Cid", "godlike")),
    ("Cid | L", ("Cid", "light")),
])
def test_nom_pool_lines(line, entry):
    assert rpgdl.parse_nom_pool(line) == (entry,)


@pytest.mark.parametrize("line", ["Cid-Heavy", "Cid -Heavy", "Cid,", "Cid, Heavy))", "Cid, 8Heavy", "(Heavy)"])
def test_nom_pool_lines_refused(line):
    with pytest.raises(ValueError, match="should read like"):
        rpgdl.parse_nom_pool(line)


# ---------------------------------------------------------------- any text at all

_ALPHABET = st.sampled_from(list("0123456789 ,;:/|()-–x×X+.#\n\tab") + ["١", "٢", "_", "\u2028", "é", "\udcff", "9" * 30])
TEXT = st.lists(_ALPHABET, max_size=60).map("".join) | st.text(max_size=60)
RANDOM = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@RANDOM
@given(TEXT)
def test_parsers_raise_only_value_errors(text):
    parsers = [tell_tale.parse_decklist, tell_tale.parse_exempt, rpgdl.parse_nom_pool, rpgdl.parse_season_deck,
               _entry, _numbers, _int, registry.parse_seed, _dice, _parse_ratings,
               lambda t: tell_tale.check_deck(t), lambda t: rpgdl.check_season_deck(rpgdl.parse_season_deck(t)),
               lambda t: rpgdl.check_nom_pool(rpgdl.parse_nom_pool(t))]
    for parse in parsers:
        try:
            parse(text)
        except ValueError as err:
            assert str(err) and "set_int_max_str_digits" not in str(err)


_CALCULATORS = sorted(registry.all_calculators().values(), key=lambda c: c.name)


@RANDOM
@given(calc=st.sampled_from(_CALCULATORS), data=st.data())
def test_run_never_raises_for_any_strings(calc, data):
    names = [p.name for p in calc.params] + [old.name for old in calc.legacy]
    raw = data.draw(st.dictionaries(st.sampled_from(names), TEXT, max_size=len(names)))
    seed = data.draw(st.none() | TEXT)
    result = runner.run(calc.name, raw, seed)
    assert isinstance(result["ok"], bool)
    if not result["ok"]:
        assert result["error"] and len(result["error"]) < 400
        assert "set_int_max_str_digits" not in result["error"] and "Traceback" not in result["error"]


@RANDOM
@given(calc=st.sampled_from(_CALCULATORS), data=st.data())
def test_run_never_raises_near_the_examples(calc, data):
    """The examples' own fields, one changed to random text: reaches further than empty forms do."""
    example = dict(data.draw(st.sampled_from(calc.examples))) if calc.examples else {}
    seed = example.pop("seed", None)
    if example:
        key = data.draw(st.sampled_from(sorted(example)))
        example[key] = data.draw(TEXT)
    result = runner.run(calc.name, example, seed)
    assert isinstance(result["ok"], bool)
    if not result["ok"]:
        assert result["error"] and len(result["error"]) < 400
