"""A calculator on paper: its odds for typical inputs, not an empty form.

Printed with nothing typed, a calculator's form says nothing; so beside each
form the build writes the odds table its first example with odds of more
than one result gives (the
registry's examples, computed by the calculator itself with the inputs parsed
as the page's worker parses them, the dice left out since the odds never
depend on them), with the inputs it
was computed for. The screen never shows it (`.calc-print` is `hidden`);
docs/assets/print.css shows it on paper while the form has no result of its
own, and hides it once one is shown (that result, with its odds, prints
instead). Nothing is retyped: the labels, the title and the numbers are the
calculator's answer.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import cache

from calculators import fmt
from calculators.checks import InputError
from calculators.registry import all_calculators
from calculators.types import Calculator, Report

from .templating import macro

TEMPLATE = "calc_print.html"  # the printed odds' markup (templates/calc_print.html, autoescaped)
SEED = 0  # the dice left out are rolled with it: the odds do not depend on them, the answer must still be one
SHOWN_INPUTS = 8  # inputs named in the caption; the rest are counted


@cache
def typical(name: str) -> tuple[Mapping[str, str], Report] | None:
    """The first example of calculator `name` whose report has odds of more than one result (else the first
    with odds at all), without its dice, and that report."""
    calc = all_calculators()[name]
    dice = {p.name for p in calc.params if p.kind == "dice"}
    found = []
    for example in calc.examples:
        inputs = {k: v for k, v in example.items() if k not in dice}
        try:
            raw, origin = calc.upgrade(inputs)
            report = calc.adapter(random.Random(SEED), **calc.parse_upgraded(raw, origin))
        except (InputError, ValueError):  # an example that needs its dice
            continue
        if report.odds:
            if len(report.odds) > 1:
                return inputs, report
            found.append((inputs, report))
    return found[0] if found else None  # only certainties: the first


def inputs_line(calc: Calculator, inputs: Mapping[str, str]) -> str:
    """'Power 5, Roll: Normal (1d20)': each input by its label, a choice by its choice's label."""
    params = {p.name: p for p in calc.params}
    parts = []
    for key, value in inputs.items():
        p = params.get(key)
        if p is None or str(value).strip() == "":
            continue
        shown = dict(p.choices).get(str(value), str(value)) if p.kind == "choice" else " ".join(str(value).split())
        parts.append(f"{p.label}: {shown[:60]}")
    more = len(parts) - SHOWN_INPUTS
    return "; ".join(parts[:SHOWN_INPUTS]) + (f"; and {more} more" if more > 0 else "")


def odds_on_paper(name: str) -> str:
    """The hidden block that prints in place of calculator `name`'s empty form ('' when no example has odds)."""
    found = typical(name)
    if found is None:
        return ""
    calc = all_calculators()[name]
    inputs, report = found
    rows = [(label, fmt.ratio(p), fmt.percent(p)) for label, p in report.odds]
    return macro(TEMPLATE, "odds", name, report.odds_title or "Odds", rows, inputs_line(calc, inputs))


__all__ = ["odds_on_paper", "typical", "inputs_line"]
