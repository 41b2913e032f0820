"""The encounter page's cost of one tap on Next, against the length of its log.

benchmarks/tracker_steps.py times the worker's part of a step; this is the
page's: on a phone-sized page, a saved fight of about 20 actions and one of
1,000 (its log at the 150 entries the tracker keeps), ten taps on "Next
step" each, and the main thread's time per tap as Chromium counts it (the
Performance domain's TaskDuration, with its style and layout parts). Each
tap redraws only what changed (the new log entry, the cards whose numbers
moved: tracker-kit.js's `redraw` and `place`); before, it rebuilt the whole
roster and log, and a tap cost 190 ms at 20 entries and 255 ms at 60 on
this machine. The goal, a ratio in one run: a tap with the full log costs
at most 1.25 times a tap with the short one.

    .venv/bin/python -m benchmarks.page_steps     (after make build)
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from benchmarks.tracker_steps import play

ROOT = Path(__file__).resolve().parent.parent
SITE = Path(os.environ.get("BENCH_SITE") or os.environ.get("SITE_DIR") or ROOT / "site").resolve()
from tests.support import storage  # noqa: E402
from tests.support.browser import CHROMIUM_FLAGS, chromium_path  # noqa: E402
from tests.support.helpers import PHONE  # noqa: E402
from tests.support.server import BLANK, serve  # noqa: E402

STORE = storage.ENCOUNTER
TAPS = 10
METRICS = ("TaskDuration", "RecalcStyleDuration", "LayoutDuration", "ScriptDuration")


def saved_fight(n: int) -> dict:
    """The encounter after about n actions, as the page saves it."""
    return list(play(n))[-1][0]


def per_tap(browser, base: str, state: dict) -> dict[str, float]:
    """Milliseconds of main-thread time per tap on Next (and its parts), over TAPS taps."""
    context = browser.new_context(service_workers="block", **PHONE)
    page = context.new_page()
    page.goto(base + BLANK)
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [STORE, json.dumps(state)])
    page.goto(base + "tell-tale/encounter/")
    page.locator(".tracker-status", has_text="Ready").wait_for(timeout=60_000)
    page.wait_for_timeout(1000)  # the page settles (fonts, Material's observers) before counting
    cdp = context.new_cdp_session(page)
    cdp.send("Performance.enable")
    def metrics() -> dict[str, float]:
        return {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    first = state["log_start"] + len(state["log"])
    before = metrics()
    for i in range(TAPS):
        page.click("[data-enc=next]")
        page.locator(f'.enc-entry[data-n="{first + i + 1}"]').wait_for(timeout=30_000)
    after = metrics()
    context.close()
    return {k: (after[k] - before[k]) / TAPS * 1000 for k in METRICS}


def main() -> int:
    if not (SITE / "tell-tale" / "encounter" / "index.html").exists():
        print("Build the site first: make build", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    fights = {n: saved_fight(n) for n in (20, 1000)}
    server, base = serve(SITE)
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS)
            cost = {n: per_tap(browser, base, state) for n, state in fights.items()}
            browser.close()
    finally:
        server.shutdown()
    print("| actions so far | log entries | a tap (ms) | style | layout | script |\n|---|---|---|---|---|---|")
    for n, c in cost.items():
        print(f"| {n:,} | {len(fights[n]['log'])} | {c['TaskDuration']:.0f} | {c['RecalcStyleDuration']:.0f} "
              f"| {c['LayoutDuration']:.0f} | {c['ScriptDuration']:.0f} |")
    ratio = cost[1000]["TaskDuration"] / cost[20]["TaskDuration"]
    print(f"\na tap on Next with the full log / with 20 entries: {ratio:.2f} (goal <= 1.25)")
    return 0 if ratio <= 1.25 else 1


if __name__ == "__main__":
    raise SystemExit(main())
