"""Firefox's cold start, counted: N loads of a calculator's share link, each
cold, each with Material's search worker starting beside the calculator (the
real search index is served), and whether each gave its first result.

Firefox sometimes leaves the snapshot helper silent after its layout
(without a watchdog, about one cold load in eleven waited for the 60 s boot
timeout): the worker gives a silent helper up after a few seconds
(runtime/calc-worker.mjs HELPER_QUIET_MS) and unpacks the snapshot itself.
Firefox also leaves the calculators' worker itself stalled before its
script runs (3 loads in 100): the page replaces a
worker that says nothing for a few seconds (docs/assets/calc-runtime.js
START_QUIET_MS). This counts the loads that gave a result, those whose
helper was given up, the workers replaced for their silence, and the time to
the first result.

Cold: each load is on a host of its own (a fresh port, so a fresh origin:
no HTTP cache, storage or service worker of an earlier load applies) in a
fresh user context of one Firefox ESR, driven over WebDriver BiDi
(tests/support/engines.py).

    .venv/bin/python -m benchmarks.firefox_cold_loads [N]     (after make build; N defaults to 100)
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SITE = Path(os.environ.get("BENCH_SITE") or os.environ.get("SITE_DIR") or ROOT / "site").resolve()
from tests.support.engines import Firefox, FirefoxTab, missing  # noqa: E402
from tests.support.helpers import calculator_page  # noqa: E402
from tests.support.server import serve  # noqa: E402

ATTACK = "tell_tale.resolve_attack"
LIMIT = 60  # s: the page's own boot timeout; a load without a result by then is a hang
FIRST = f"""(() => {{
  const failed = document.querySelector('form[data-calculator] .calc-status.calc-failed')?.textContent;
  if (failed) return "failed: " + failed;
  const outcome = document.querySelector('form[data-calculator="{ATTACK}"] .calc-result')?.dataset.outcome;
  return outcome ? "result" : null;
}})()"""


def main(n: int) -> int:
    why = missing("firefox")
    if why:
        print(f"firefox: {why}", file=sys.stderr)
        return 2
    page = calculator_page(SITE, ATTACK)
    firefox = Firefox()
    outcomes: list[str] = []
    seconds: list[float] = []
    given_up = 0
    replaced = 0
    try:
        bidi = firefox.bidi
        bidi("session.subscribe", events=["log.entryAdded"])
        for i in range(n):
            server, url = serve(SITE)
            user = bidi("browser.createUserContext")["userContext"]
            tab = FirefoxTab(bidi, bidi("browsingContext.create", type="tab", userContext=user)["context"])
            bidi.events.clear()
            start = time.monotonic()
            try:
                tab.goto(f"{url}{page}?calc={ATTACK}&power=5&d20=17")
                found = tab.wait(FIRST, "the first result", timeout=LIMIT)
            except AssertionError as err:
                found = f"hang: {err}"
            took = time.monotonic() - start
            said = [e["params"].get("text", "") for e in bidi.events if e.get("method") == "log.entryAdded"]
            helper = any("snapshot helper failed" in text for text in said)
            given_up += helper
            silent = tab.eval("globalThis.__calcRuntime?.silentReplaced ?? 0")
            replaced += silent
            outcomes.append(found)
            if found == "result":
                seconds.append(took)
            notes = "  (helper given up)" if helper else ""
            notes += f"  ({silent} silent worker(s) replaced)" if silent else ""
            print(f"{i + 1:3d} {found[:80]:<20} {took:5.1f} s{notes}", flush=True)
            if found != "result":  # what the page said, to trace the start that did not come
                for text in said:
                    print(f"      console: {text[:300]}", flush=True)
                runtime = tab.eval("JSON.stringify({status: globalThis.__calcRuntime?.status, "
                                   "timings: globalThis.__calcRuntime?.timings})")
                print(f"      __calcRuntime: {runtime[:600]}", flush=True)
            tab.close()
            bidi("browser.removeUserContext", userContext=user)
            server.shutdown()
            server.server_close()
    finally:
        firefox.close()
    results = outcomes.count("result")
    print(json.dumps({
        "loads": n, "results": results, "without_result": n - results, "helper_given_up": given_up,
        "silent_workers_replaced": replaced,
        "first_result_s": ({"median": round(statistics.median(seconds), 2), "max": round(max(seconds), 2)}
                           if seconds else None),
    }))
    return 0 if results == n else 1


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 100))
