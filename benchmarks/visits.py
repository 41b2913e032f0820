"""The browser visits `make bench` times: each a fresh browser context
(cold HTTP cache) unless said otherwise, service workers blocked so the HTTP
cache is what is measured; each returns its figures and, when given a list,
appends the visit's timeline to it (benchmarks/timeline.py).
"""

from __future__ import annotations

from benchmarks import timeline as phases
from benchmarks.pages import FIRST_RESULT_STAMP, INPUT_LATENCY_JS
from benchmarks.server import RESULT_BEACON


def first_result_ms(browser, url: str, timeline: list[dict] | None = None) -> float:
    """A cold visit to a share link: when its result showed; its timeline
    (benchmarks/timeline.py) appended to `timeline`."""
    ctx = browser.new_context(service_workers="block")
    ctx.add_init_script(FIRST_RESULT_STAMP)
    page = ctx.new_page()
    page.goto(url)
    page.locator("form[data-calculator] [data-outcome]").first.wait_for(timeout=120_000)
    ms = page.evaluate("() => window.__firstResult")
    if timeline is not None:
        timeline.append(phases.collect(page, phases.OURS_STAMPS, phases.OURS_DONE))
    ctx.close()
    return ms


def stamped_ms(browser, url: str, timeline: list[dict] | None = None) -> float:
    """A cold visit to one of the bench's own pages, which stamps window.__done."""
    return stamped_ms_twice(browser, url, timeline=timeline)[0]


def stamped_ms_twice(browser, url: str, visits: int = 1, timeline: list[dict] | None = None) -> list[float]:
    """`visits` visits in one context: the first cold, the others with the
    HTTP cache warm (a repeat visit); the cold one's timeline appended to
    `timeline` (the page's window.__stamps)."""
    ctx = browser.new_context(service_workers="block")
    times = []
    for visit in range(visits):
        page = ctx.new_page()
        page.goto(url)
        page.wait_for_function("() => window.__done", timeout=180_000)
        times.append(page.evaluate("() => window.__done"))
        if timeline is not None and not visit:
            timeline.append(phases.collect(page, phases.BENCH_STAMPS, phases.BENCH_DONE))
        page.close()
    ctx.close()
    return times


def repeat_first_result_ms(browser, url: str, timeline: list[dict] | None = None) -> float:
    """A repeat visit to a share link: the same context, its HTTP cache warm;
    its timeline appended to `timeline`."""
    ctx = browser.new_context(service_workers="block")
    ctx.add_init_script(FIRST_RESULT_STAMP)
    for visit in range(2):
        page = ctx.new_page()
        page.goto(url)
        page.locator("form[data-calculator] [data-outcome]").first.wait_for(timeout=120_000)
        ms = page.evaluate("() => window.__firstResult")
        if timeline is not None and visit:
            timeline.append(phases.collect(page, phases.OURS_STAMPS, phases.OURS_DONE))
        page.close()
    ctx.close()
    return ms


def worker_repeat_ms(browser, url: str, server, link=None, offline: bool = False,
                     timeline: list[dict] | None = None, repeats: int = 1,
                     later_timeline: list[dict] | None = None) -> tuple[list[float], dict[str, int]]:
    """Repeat visits to a share link as a reader makes them: the service
    worker let in, a first visit, then, once the worker controls the site and
    both its caches are whole (the plain wasm kept too), that page closed and
    the link opened `repeats` times, each in a fresh page of the same
    browser: when each page's result showed, and the bytes the server sent
    by path meanwhile. `link` (set on `server` for the repeats only, the
    first visit on loopback) makes it a slow link; `offline`, no network at
    all. `server`: the one serving `url` (benchmarks/server.py). The first
    repeat's timeline appended to `timeline`, the second's to `later_timeline`."""
    from tests.support.helpers import wait_until_offline_ready, worker_data

    ctx = browser.new_context(service_workers="allow")
    ctx.add_init_script(FIRST_RESULT_STAMP)
    page = ctx.new_page()
    page.goto(url)
    page.locator("form[data-calculator] [data-outcome]").first.wait_for(timeout=120_000)
    wait_until_offline_ready(page, worker_data(server.site), compiled=True)
    page.close()
    if offline:
        ctx.set_offline(True)
    before, server.handler.link = server.handler.link, link
    sent = server.handler.sent
    sent.clear()
    times = []
    try:
        for visit in range(repeats):
            page = ctx.new_page()
            page.goto(url)
            page.locator("form[data-calculator] [data-outcome]").first.wait_for(timeout=120_000)
            times.append(page.evaluate("() => window.__firstResult"))
            kept = timeline if not visit else later_timeline if visit == 1 else None
            if kept is not None:
                kept.append(phases.collect(page, phases.OURS_STAMPS, phases.OURS_DONE))
            page.close()
        network = dict(sent)
    finally:
        server.handler.link = before
        ctx.close()
    return times, network


def bytes_before_done(browser, url: str, server, sent: dict[str, int], calculator: bool) -> tuple[int, int, dict[str, int]]:
    """A real first visit, service worker allowed: the bytes the server had
    sent when the first result showed (or the page stamped __done), and 3 s
    after it; the first figure by path. The page tells the server itself
    (RESULT_BEACON), so no polling delay lets later downloads in."""
    ctx = browser.new_context(service_workers="allow")
    beacon = f'fetch("{RESULT_BEACON}", {{ cache: "no-store" }}).catch(() => {{}});'
    ctx.add_init_script(FIRST_RESULT_STAMP.replace("obs.disconnect();", "obs.disconnect(); " + beacon))
    at_result = server.at_result
    at_result.clear()
    sent.clear()
    page = ctx.new_page()
    page.goto(url)
    if calculator:
        page.locator("form[data-calculator] [data-outcome]").first.wait_for(timeout=180_000)
    else:
        page.wait_for_function("() => window.__done", timeout=180_000)
        at_result.update(sent)
    page.wait_for_timeout(3000)
    after = sum(sent.values())
    ctx.close()
    return sum(at_result.values()), after, dict(at_result)  # a copy: the next visit clears the server's


def load_ms(browser, url: str) -> tuple[float, list[str]]:
    """A cold load of `url`: its load event in ms, and the runtime files (/pyodide/) it requested."""
    ctx = browser.new_context(service_workers="block")
    page = ctx.new_page()
    urls: list[str] = []
    page.on("request", lambda r: urls.append(r.url))
    page.goto(url, wait_until="load")
    ms = page.evaluate("() => performance.getEntriesByType('navigation')[0].loadEventEnd")
    page.wait_for_timeout(300)
    ctx.close()
    return ms, [u for u in urls if "/pyodide/" in u]


def instant_switch(browser, first_url: str, second_url: str) -> tuple[float, int]:
    """A share link, then a link on it to a second calculator page: the
    second page's first result, in ms from the click, and the calculator
    workers started in all (the page swaps in place, its worker kept)."""
    ctx = browser.new_context(service_workers="block")
    page = ctx.new_page()
    workers = []
    page.on("worker", lambda w: "calc-worker" in w.url and workers.append(w))  # not the search worker
    page.goto(first_url)
    page.locator("[data-outcome]").first.wait_for(timeout=120_000)
    start = page.evaluate("""url => {
        window.__sameDocument = true;
        new MutationObserver((_, obs) => {
          if (document.querySelector('form[data-calculator="talislanta.resolve_action"] [data-outcome]')) {
            window.__secondResult = performance.now();
            obs.disconnect();
          }
        }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-outcome"] });
        const a = document.createElement('a'); a.href = url;
        document.querySelector('.md-content').append(a); const t = performance.now(); a.click(); return t; }""",
                          second_url)
    page.locator('form[data-calculator="talislanta.resolve_action"] [data-outcome]').wait_for(timeout=60_000)
    ms = page.evaluate("() => window.__secondResult") - start
    same_document = page.evaluate("() => window.__sameDocument === true")
    ctx.close()
    assert same_document, "the switch reloaded the page instead of swapping it in place"
    return ms, len(workers)


def input_latency(browser, url: str, n: int = 60) -> list[float]:
    """`n` input changes on the share link at `url`: ms from each to its result shown."""
    ctx = browser.new_context(service_workers="block")
    page = ctx.new_page()
    page.goto(url)
    page.locator("[data-outcome]").first.wait_for(timeout=120_000)
    times = page.evaluate(INPUT_LATENCY_JS, {"n": n})
    ctx.close()
    return times


def bytes_of_visit(page, url: str, sent: dict[str, int]) -> dict[str, int]:
    """Bytes the server sent, by path, for one visit to a share link."""
    sent.clear()
    page.goto(url)
    page.locator("[data-outcome]").first.wait_for(timeout=120_000)
    page.wait_for_timeout(500)
    return dict(sent)


def needed_for_first_result(browser, url: str, sent: dict[str, int]) -> int:
    """Bytes a cold visit sends before its first result can show: the same
    visit with the standard library held back (it comes after, see
    runtime/late-stdlib.mjs), so only what the result waits for is counted."""
    ctx = browser.new_context(service_workers="block")
    held = []
    ctx.route("**/python_stdlib.zip", lambda route: held.append(route))
    needed = sum(bytes_of_visit(ctx.new_page(), url, sent).values())
    for route in held:
        route.abort()
    ctx.close()
    return needed


def cold_and_repeat(browser, url: str, sent: dict[str, int]) -> tuple[dict[str, int], dict[str, int]]:
    """Bytes sent by path for a cold visit to a share link, then for a repeat
    visit in the same browser (its HTTP cache warm)."""
    ctx = browser.new_context(service_workers="block")
    page = ctx.new_page()
    cold = bytes_of_visit(page, url, sent)
    repeat = bytes_of_visit(page, url, sent)
    ctx.close()
    return cold, repeat


def runtime_bytes(visit: dict[str, int]) -> int:
    return sum(size for path, size in visit.items() if "/pyodide/" in path)


