"""The goals of `make bench`, one table: each row as printed, its goal, and
the check that decides PASS or MISS, both made from the same number.

`python -m benchmarks --goals` prints the table. Plain standard library, so
the tests load it without a browser or a site (tests/test_bench_table.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

PHONE_MBPS, PHONE_RTT_MS = 1.6, 150  # the slow phone link of rows 6 and 8 (Lighthouse's "slow 4G")
LIGHTHOUSE = {"accessibility": 100, "best-practices": 100, "seo": 90}  # benchmarks/lighthouse.py marks by it too
LIGHTHOUSE_SHORT = {"accessibility": "a11y", "best-practices": "BP", "seo": "SEO"}


@dataclass(frozen=True)
class Goal:
    """A goal as printed, and whether a figure meets it."""

    text: str
    met: Callable[[Any], bool]


def at_most(limit: float, places: int = 2, unit: str = "") -> Goal:
    return Goal(f"<= {limit:.{places}f}{unit}", lambda value: value <= limit)


def below(limit: float, places: int = 2, unit: str = "") -> Goal:
    return Goal(f"< {limit:.{places}f}{unit}", lambda value: value < limit)


def exactly(count: int) -> Goal:
    return Goal(str(count), lambda value: value == count)


def scores_at_least(goals: dict[str, int]) -> Goal:
    """Lighthouse's categories, each at least its goal (100, the top score, printed bare)."""
    text = ", ".join(f"{LIGHTHOUSE_SHORT[cat]} {'' if goal == 100 else '>= '}{goal}" for cat, goal in goals.items())
    return Goal(text, lambda scores: all((scores[cat] or 0) >= goal for cat, goal in goals.items()))


REPORTED = Goal("reported", lambda value: True)  # a figure to read: it always passes


def two_places(value: float) -> str:
    return f"{value:.2f}"


def megabytes(value: int) -> str:
    return f"{value / 1e6:.2f} MB"


def kilobytes(value: int) -> str:
    return f"{value / 1e3:.1f} kB"


def milliseconds(value: float) -> str:
    return f"{value:.1f} ms"


def lighthouse_scores(scores: dict) -> str:
    return "/".join(str(scores[cat]) for cat in LIGHTHOUSE)


def line(ok: bool, label: str, shown: str, goal: str) -> str:
    return f"{'PASS' if ok else 'MISS'}  {label:<58} {shown:>18}   goal {goal}"


@dataclass(frozen=True)
class Measure:
    """One printed row: `label` ({page} filled in for the Lighthouse rows),
    its goal, and how its figure is printed."""

    label: str
    goal: Goal
    shown: Callable[[Any], str] = two_places

    def row(self, value, **fill) -> str:
        return line(self.goal.met(value), self.label.format(**fill), self.shown(value), self.goal.text)

    def not_measured(self, why: str = "", **fill) -> str:
        return line(False, self.label.format(**fill), "not measured", self.goal.text) + (f"   ({why})" if why else "")


# In the order the rows are printed; the key is how benchmarks/__main__.py names a row.
TABLE: dict[str, Measure] = {
    "first/plain": Measure("1. first result / plain Pyodide page doing the same job", at_most(0.30)),
    "repeat/plain": Measure("1. the same, repeat visit (HTTP cache warm, both sides)", REPORTED),
    "first/bare": Measure("1. first result / bare loadPyodide()+runPython", at_most(0.30)),
    "first/worker": Measure("1. first result on the page / the worker alone on a blank page", at_most(1.15)),
    "plain page fetches": Measure("2. Pyodide files fetched by a page without a calculator", exactly(0), str),
    "plain page load": Measure("2. its load time / same page without calculator hooks", at_most(1.10)),
    "switch/bare": Measure("3. instant switch to 2nd calculator: first result / boot", below(0.05, places=3),
                           "{:.3f}".format),
    "switch workers": Measure("3. workers started across the switch", exactly(1), str),
    "input latency": Measure("4. input change -> shown result (median, with odds)", below(16, places=0, unit=" ms"),
                             milliseconds),
    "cold bytes": Measure("5. bytes on a cold visit (gzip)", REPORTED, megabytes),
    "repeat bytes": Measure("5. bytes on a repeat visit (HTTP cache)", REPORTED, kilobytes),
    "repeat runtime bytes": Measure("5. runtime bytes on the repeat visit", exactly(0), str),
    "first visit bytes": Measure("5. bytes before the first result, service worker on / plain page", at_most(1.00)),
    "snapshot/stdlib": Measure("5. snapshot packed / the standard library it replaces", at_most(1.00)),
    "phone": Measure(f"6. slow phone ({PHONE_MBPS:g} Mbit/s, {PHONE_RTT_MS:g} ms): first result / plain page",
                     below(1.00)),
    # tests/support/memory.py: a phone's visit of 100 pages by instant navigation, garbage collected
    "memory nodes": Measure("7. DOM nodes alive after 100 pages / after 10", at_most(1.10)),
    "memory listeners": Measure("7. JS event listeners alive after 100 pages / after 10", at_most(1.10)),
    "memory heap": Measure("7. JS heap after 100 pages / after 10", REPORTED),
    "memory renderer": Measure("7. renderer's memory after 100 pages / after 10", REPORTED),
    # A reader's repeat visit: the service worker active, its caches whole, a fresh page (benchmarks/visits.py).
    "repeat/first": Measure("8. repeat visit, service worker: first result / first visit", at_most(0.50)),
    "repeat/http": Measure("8. the same / a repeat visit with the HTTP cache only", at_most(0.90)),
    "repeat phone": Measure(f"8. the same on the slow phone ({PHONE_MBPS:g} Mbit/s, {PHONE_RTT_MS:g} ms)",
                            below(1500, places=0, unit=" ms"), milliseconds),
    "repeat phone delay": Measure("8. the same with twice the delay / with the phone's", at_most(1.10)),
    "repeat offline": Measure("8. the same offline / online", at_most(1.10)),
    # benchmarks/tracker_steps.py: an encounter's step as the page sends it (the worker holds the state)
    "tracker step": Measure("9. tracker step after 1,000 or 3,000 actions / after 10", at_most(1.10)),
    "tracker step bytes": Measure("9. bytes a tracker step sends after 1,000 actions / after 10", at_most(1.10)),
    # its answer carries what the step changed: once the log is full, also the line it drops (the undo record keeps it)
    "tracker answer bytes": Measure("9. bytes of that step's answer after 1,000 actions / after 10", REPORTED),
    "lighthouse": Measure("Lighthouse, mobile: /{page}", scores_at_least(LIGHTHOUSE), lighthouse_scores),
}


def describe() -> str:
    """The table, as `python -m benchmarks --goals` prints it."""
    return "\n".join(f"{m.label.format(page='<page>'):<66} goal {m.goal.text}" for m in TABLE.values())
