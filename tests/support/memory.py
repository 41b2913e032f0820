"""A long visit by instant navigation, and what it keeps in memory.

Material swaps pages without reloading, so whatever a page's code leaves
hanging (a window listener, a timer, a channel, a pending promise, Material's
own media-query listeners: docs/assets/material-media.js) keeps that page's
whole DOM alive for the rest of the visit. `walk` goes through WALK page by
page, as a reader follows links, and counts what is alive after a forced
garbage collection at the pages asked for. tests/test_memory.py checks that
the count stays flat; `make bench` prints it (benchmarks/__main__.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from .helpers import BOOT, follow

# Ten pages, so page 10 and page 100 of a walk are the same page: the home
# page, the three trackers, the Table log, calculators and rule pages.
WALK = (
    "",
    "tell-tale/encounter/",
    "tell-tale/combat/",
    "table-log/",
    "tell-tale/party/",
    "rpgdl/season-tracker/",
    "talislanta/action-table/",
    "tell-tale/glossary/",
    "calculators/",
    "rpgdl/decks/",
)

# A tracker's page is counted once its saved state is read and drawn
# (tracker-shell.js sets data-loaded), so all its code has run.
SETTLED = "() => [...document.querySelectorAll('[data-tracker]')].every((box) => Boolean(box.dataset.loaded))"


@dataclass(frozen=True)
class Alive:
    """What a page keeps alive after a full garbage collection: DOM nodes and
    JS event listeners (Chromium's own counts), the JS heap in bytes, and the
    renderer process's resident memory in bytes (None off Linux)."""

    nodes: int
    listeners: int
    heap: int
    renderer: int | None


def alive(cdp, browser_cdp=None) -> Alive:
    """Collect the garbage (twice: what the first frees may hold more) and count what stays."""
    for _ in range(2):
        cdp.send("HeapProfiler.collectGarbage")
    dom = cdp.send("Memory.getDOMCounters")
    heap = cdp.send("Runtime.getHeapUsage")
    return Alive(dom["nodes"], dom["jsEventListeners"], int(heap["usedSize"]), renderer_rss(browser_cdp))


def renderer_rss(browser_cdp) -> int | None:
    """The resident memory of the browser's renderer processes (one page open: its own), from /proc."""
    if browser_cdp is None:
        return None
    total = 0
    for process in browser_cdp.send("SystemInfo.getProcessInfo")["processInfo"]:
        if process["type"] != "renderer":
            continue
        try:
            status = Path(f"/proc/{process['id']}/status").read_text()
        except OSError:
            return None
        found = re.search(r"^VmRSS:\s+(\d+) kB", status, re.M)
        total += int(found[1]) * 1024 if found else 0
    return total or None


def walk(page, base_url: str, pages: int, count_at: set[int], browser_cdp=None) -> dict[int, Alive]:
    """Open WALK's first page, then follow links to `pages` more, in WALK's
    order over and over; after each page in `count_at`, what is alive."""
    page.goto(base_url + WALK[0])
    cdp = page.context.new_cdp_session(page)
    counts = {}
    for n in range(1, pages + 1):
        follow(page, base_url + WALK[n % len(WALK)])
        page.wait_for_function(SETTLED, timeout=BOOT)
        if n in count_at:
            counts[n] = alive(cdp, browser_cdp)
    cdp.detach()
    return counts
