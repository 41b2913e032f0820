"""The first result's timeline, phase by phase, for `make bench`.

Every figure is in ms since the page's navigation started, read in the page
at the end of a run: the navigation and resource timings the browser keeps,
and the stamps the page and the worker take as they go (performance.now()
and nothing more, see Stamp in runtime/calc-worker.mjs and runtime.timings
in docs/assets/calc-runtime.js; the bench's own pages set window.__stamps).
Phases overlap (the snapshot downloads while the wasm compiles), so the rows
are in the order they usually happen, not a sum.
"""

from __future__ import annotations

import contextlib
import itertools
import statistics

from playwright.sync_api import TimeoutError as PlaywrightTimeout

# Read once the run's last stamp (painted) is in. `stamps`: the page's own.
COLLECT_JS = """(stamps) => {
  const nav = performance.getEntriesByType("navigation")[0];
  const out = { html: nav.responseEnd, domContentLoaded: nav.domContentLoadedEventEnd };
  if (nav.workerStart > 0) Object.assign(out, { workerStart: nav.workerStart, htmlStart: nav.responseStart });
  for (const entry of performance.getEntriesByType("resource")) {
    const file = new URL(entry.name).pathname.split("/").pop();
    const key = file.endsWith(".whl") ? "wheels" : file;
    out["fetched " + key] = Math.max(out["fetched " + key] ?? 0, entry.responseEnd);
    out["requested " + key] = Math.min(out["requested " + key] ?? Infinity, entry.startTime);
  }
  for (const [name, at] of Object.entries(stamps || {})) if (typeof at === "number") out[name] = at;
  return out;
}"""

OURS_STAMPS = "() => Object.assign({ firstResult: window.__firstResult }, globalThis.__calcRuntime.timings)"
OURS_DONE = "() => globalThis.__calcRuntime?.timings?.painted"
BENCH_STAMPS = "() => window.__stamps"
BENCH_DONE = "() => window.__stamps && window.__stamps.painted"

# (key, what happened), in the order they usually come.
OUR_PAGE = (
    ("html", "HTML received"),
    ("domContentLoaded", "HTML parsed (DOMContentLoaded)"),
    ("created", "worker created (page)"),
    ("workerStarted", "worker script running"),
    ("bootStarted", "boot started (worker, as its address asks)"),
    ("pyodideImported", "Pyodide's scripts imported"),
    ("snapshotHeader", "snapshot header in: the runtime starts"),
    ("snapshotArrived", "snapshot fetched (last byte)"),
    ("snapshotDecoded", "snapshot decoded"),
    ("snapshotFetched", "snapshot handed to the worker"),
    ("wasmRequested", "wasm asked for (as the boot starts)"),
    ("wasmResponse", "wasm response's first byte"),
    ("wasmCompiling", "wasm handed to the compiler (as its response comes)"),
    ("wasmFetched", "wasm fetched (last byte)"),
    ("wasmCompiled", "wasm compiled and instantiated"),
    ("initialCopied", "snapshot's pages from the wasm's memory copied"),
    ("moduleReady", "Emscripten's module set up (fsInit called)"),
    ("snapshotCopied", "snapshot copied into place (fsInit)"),
    ("pyodideLoaded", "Pyodide's restore done (loadPyodide)"),
    ("restored", "interpreter restored"),
    ("readyAt", "calculators ready (worker)"),
    ("readySeen", "page hears ready"),
    ("computeSent", "first compute sent (page)"),
    ("computeStarted", "first compute started (worker)"),
    ("computeDone", "first compute done (worker)"),
    ("resultReceived", "result received (page)"),
    ("firstResult", "result drawn"),
    ("painted", "result painted (next frame)"),
)

# A repeat visit with the service worker in charge: when it started (or was
# found running) for the navigation, and when the page's first byte came,
# then the page's own phases.
# A repeat visit reads the snapshot unpacked from the device (the service worker's runtime cache) where a first
# visit fetches and decodes it.
KEPT = ("snapshotKept", "snapshot read unpacked from the device")
REPEAT_VISIT = (
    ("workerStart", "service worker running (navigation)"),
    ("htmlStart", "HTML's first byte"),
    *(row for key, label in OUR_PAGE for row in ((key, label), *((KEPT,) if key == "snapshotDecoded" else ()))),
)

# The same worker on a blank page (WORKER_PAGE): the page's rows drop out.
WORKER_ALONE = tuple((key, label) for key, label in OUR_PAGE
                     if key not in ("domContentLoaded", "firstResult"))

# The plain Pyodide page (PYODIDE_PAGE): loadPyodide does the rest itself,
# so its inner steps are read from the resource timing.
PLAIN_PAGE = (
    ("html", "HTML received"),
    ("pyodideImported", "pyodide.mjs loaded"),
    ("fetched pyodide-lock.json", "lock file fetched"),
    ("requested pyodide.asm.wasm", "wasm asked for (loadPyodide starts)"),
    ("fetched pyodide.asm.wasm", "wasm fetched (last byte)"),
    ("wasmCompiled", "wasm compiled and instantiated"),
    ("fetched python_stdlib.zip", "standard library fetched"),
    ("requested wheels", "first wheel asked for"),
    ("fetched wheels", "last wheel fetched"),
    ("loaded", "loadPyodide done (packages loaded)"),
    ("computeDone", "first compute done"),
    ("painted", "result painted (next frame)"),
)


def collect(page, stamps_js: str, done_js: str, timeout_ms: int = 30_000) -> dict[str, float]:
    """One run's timeline, once its last stamp is in (empty if it never came)."""
    with contextlib.suppress(PlaywrightTimeout):  # a stamp that never came is a row left blank, not a failed bench
        page.wait_for_function(done_js, timeout=timeout_ms)
    return page.evaluate(COLLECT_JS, page.evaluate(stamps_js))


def table(title: str, runs: list[dict[str, float]], phases) -> list[str]:
    """The phases' medians over `runs` (ms since navigation start), their
    spread, and the longest stretch between two of them."""
    lines = [f"      timeline, {title} (ms since navigation start, median of {len(runs)} [min-max]):"]
    medians = []
    for key, label in phases:
        values = [run[key] for run in runs if run.get(key) is not None]
        if not values:
            lines.append(f"        {label:<44} {'-':>7}")
            continue
        mid = statistics.median(values)
        medians.append((mid, label))
        lines.append(f"        {label:<44} {mid:>7.0f}   [{min(values):.0f}-{max(values):.0f}]")
    ordered = sorted(medians)
    if len(ordered) > 1:
        gap, before, after = max((b[0] - a[0], a[1], b[1]) for a, b in itertools.pairwise(ordered))
        total = ordered[-1][0]
        lines.append(f"        longest stretch: {before} -> {after}, {gap:.0f} ms of {total:.0f}")
    return lines
