"""make bench's timeline table (benchmarks/timeline.py): medians
per phase with their spread, a phase no run reached shown blank, and the
longest stretch between two phases named. What the runtime stamps is checked
in a browser by test_browser (assert_timeline_in_order)."""

from __future__ import annotations

from support import load_module

table = load_module("benchmarks/timeline.py").table

PHASES = (("html", "HTML received"), ("restored", "interpreter restored"), ("never", "never reached"),
          ("painted", "result painted"))


def test_the_table_gives_each_phases_median_and_spread():
    runs = [{"html": 10, "restored": 900, "painted": 1000}, {"html": 30, "restored": 700, "painted": 760},
            {"html": 20, "restored": 800, "painted": 820, "never": None}]
    lines = table("our page", runs, PHASES)
    assert lines[0].strip().startswith("timeline, our page") and "median of 3" in lines[0]
    assert [line.split() for line in lines[1:-1]] == [
        ["HTML", "received", "20", "[10-30]"],
        ["interpreter", "restored", "800", "[700-900]"],
        ["never", "reached", "-"],
        ["result", "painted", "820", "[760-1000]"],
    ]
    assert lines[-1].strip() == "longest stretch: HTML received -> interpreter restored, 780 ms of 820"
