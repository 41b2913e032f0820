"""make bench's table of goals (benchmarks/goals.py): every row printed
once, its goal's text and its PASS/MISS check made from the same number, and
a row printed PASS or MISS as that check says. No browser, no site."""

from __future__ import annotations

import dataclasses
import importlib.util
import re
import sys

import pytest
from support import ROOT


def load_benchmark(name: str):
    """benchmarks/<name>.py as benchmarks.<name>: the repository's root is
    not on the tests' path, and support.load_module leaves the module out of
    sys.modules, where dataclasses look up a class's module as it is made."""
    spec = importlib.util.spec_from_file_location(f"benchmarks.{name}", ROOT / "benchmarks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


goals = load_benchmark("goals")
TABLE = goals.TABLE
LIGHTHOUSE_OK = {"accessibility": 100, "best-practices": 100, "seo": 90, "failed": {}}


def limit_of(text: str) -> tuple[str, float] | None:
    """A goal's text read back: ("<=", 0.3) for "<= 0.30", ("<", 16) for "< 16 ms", ("==", 0) for "0"."""
    found = re.fullmatch(r"(<=|<) (\d+(?:\.\d+)?)(?: ms)?|(\d+)", text)
    if not found:
        return None
    return ("==", float(found[3])) if found[3] else (found[1], float(found[2]))


def test_every_row_has_a_label_and_a_goal_and_no_label_is_printed_twice():
    labels = [m.label for m in TABLE.values()]
    assert len(labels) >= 16 and all(label.strip() for label in labels)
    assert all(m.goal.text.strip() for m in TABLE.values())
    assert len(set(labels)) == len(labels), [label for label in labels if labels.count(label) > 1]
    numbered = [label for label in labels if not label.startswith("Lighthouse")]
    assert all(re.match(r"[1-9]\. ", label) for label in numbered)
    assert [label[0] for label in numbered] == sorted(label[0] for label in numbered), "rows in the order they print"


def test_a_row_of_the_table_cannot_be_changed_in_place():
    with pytest.raises(dataclasses.FrozenInstanceError):
        TABLE["first/plain"].label = "another"
    with pytest.raises(dataclasses.FrozenInstanceError):
        TABLE["first/plain"].goal.text = "<= 1.00"


def test_the_helpers_print_their_goal_as_the_bench_always_has():
    assert goals.at_most(0.30).text == "<= 0.30"
    assert goals.at_most(1.1).text == "<= 1.10"
    assert goals.below(0.05, places=3).text == "< 0.050"
    assert goals.below(16, places=0, unit=" ms").text == "< 16 ms"
    assert goals.exactly(0).text == "0"
    assert goals.REPORTED.text == "reported"
    assert goals.scores_at_least(goals.LIGHTHOUSE).text == "a11y 100, BP 100, SEO >= 90"


def test_at_most_and_below_decide_at_their_boundary():
    assert goals.at_most(0.30).met(0.30) and goals.at_most(0.30).met(0.29)
    assert not goals.at_most(0.30).met(0.31)
    assert goals.below(16).met(15.9) and not goals.below(16).met(16) and not goals.below(16).met(16.1)
    assert goals.exactly(1).met(1) and not goals.exactly(1).met(0) and not goals.exactly(1).met(2)


@pytest.mark.parametrize("key", TABLE)
def test_each_rows_check_agrees_with_its_goal_text(key):
    goal = TABLE[key].goal
    if key == "lighthouse":
        assert goal.met(LIGHTHOUSE_OK) and goal.met(dict(LIGHTHOUSE_OK, seo=100))
        for category, low in (("accessibility", 99), ("best-practices", 99), ("seo", 89), ("seo", None)):
            assert not goal.met(dict(LIGHTHOUSE_OK, **{category: low})), (category, low)
        return
    if goal.text == "reported":
        assert all(goal.met(value) for value in (-1, 0, 0.5, 1e12))
        return
    read = limit_of(goal.text)
    assert read, f"{key}: a goal text this test cannot read back: {goal.text!r}"
    how, limit = read
    step = 10 ** -(len(goal.text.split(".")[1].split()[0]) if "." in goal.text else 0)  # one in the last printed place
    assert goal.met(limit - step) == (how != "==")
    assert goal.met(limit) == (how in ("<=", "=="))
    assert not goal.met(limit + step)


@pytest.mark.parametrize("key", TABLE)
def test_a_row_prints_pass_or_miss_as_its_check_says(key):
    measure = TABLE[key]
    samples = [LIGHTHOUSE_OK, dict(LIGHTHOUSE_OK, seo=80)] if key == "lighthouse" else [0, 0.3, 0.31, 1, 2, 15.9, 16, 10**6]
    for value in samples:
        line = measure.row(value, page="tell-tale/combat/")
        assert line.startswith("PASS  " if measure.goal.met(value) else "MISS  "), (value, line)
        assert line.endswith(f"   goal {measure.goal.text}") and measure.shown(value) in line
    assert {measure.row(value, page="").split()[0] for value in samples} == ({"PASS"} if measure.goal.text == "reported" else {"PASS", "MISS"})


def test_the_rows_are_printed_in_the_benchs_columns():
    assert TABLE["first/plain"].row(0.3) == f"PASS  {'1. first result / plain Pyodide page doing the same job':<58} {'0.30':>18}   goal <= 0.30"
    assert TABLE["first/plain"].row(0.31).startswith("MISS  1. first result / plain Pyodide page doing the same job ")
    assert TABLE["input latency"].row(16.04).endswith(" 16.0 ms   goal < 16 ms") and TABLE["input latency"].row(16.04).startswith("MISS")
    assert TABLE["cold bytes"].row(4_321_000).split()[-4:] == ["4.32", "MB", "goal", "reported"]
    assert TABLE["repeat bytes"].row(12_345).split()[-4:] == ["12.3", "kB", "goal", "reported"]
    assert TABLE["switch/bare"].row(0.0123).split()[-4:] == ["0.012", "goal", "<", "0.050"]


def test_a_lighthouse_row_names_its_page_and_scores():
    line = TABLE["lighthouse"].row(dict(LIGHTHOUSE_OK, seo=92), page="tell-tale/combat/")
    assert line.startswith("PASS  Lighthouse, mobile: /tell-tale/combat/ ") and " 100/100/92   goal a11y 100, BP 100, SEO >= 90" in line
    assert TABLE["lighthouse"].row(dict(LIGHTHOUSE_OK, seo=None), page="").startswith("MISS  Lighthouse, mobile: / ")


def test_a_row_not_measured_is_a_miss_and_says_why():
    line = TABLE["phone"].not_measured("BENCH_PHONE_RUNS=0")
    assert line.startswith("MISS  6. slow phone (1.6 Mbit/s, 150 ms): first result / plain page")
    assert line.endswith("not measured   goal < 1.00   (BENCH_PHONE_RUNS=0)")
    assert TABLE["plain page load"].not_measured().endswith("not measured   goal <= 1.10")
