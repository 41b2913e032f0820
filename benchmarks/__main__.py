"""`make bench`: the speed figures of the calculators, next to their goals.

What each row measures is told here; its goal, and the check that decides
PASS or MISS, are in one table, benchmarks/goals.py (`python -m benchmarks
--goals` prints it). A row whose goal is "reported" is a figure to read.

Every figure is a ratio or a count measured in one run on one machine, so a
busy machine slows both sides alike. Runs use fresh browser contexts (cold
HTTP cache) unless said otherwise, and service workers are blocked so the
HTTP cache is what is measured. The server gzips what a real host would
(benchmarks/server.py).

1. A calculator page opened from a share link, until its first result: over
   the plain Pyodide page doing the same job (the site's runtime, lock file
   and wheels; loadPyodide with packages, import, runner.run; see
   benchmarks/pages.py), cold, and on a repeat visit with the HTTP cache warm
   on both sides; over a bare loadPyodide() + runPython("1+1"); and over the
   same worker alone on a blank page, which tells its own start from the
   page competing for the cores.
2. A page without a calculator: the Pyodide files it fetches, and its load
   time over the same page built without the calculator hooks
   (benchmarks/no_calculators.py).
3. Instant navigation to a second calculator page: its first result over a
   bare boot, and the workers started across the switch.
4. An input change to its shown result, the median of many.
5. The bytes of a cold visit and of a repeat visit, and the runtime's bytes
   on the repeat visit (also printed: the bytes the first result needs); the
   bytes before the first result on a real first visit (service worker on)
   over the plain page's; the snapshot over the standard library it
   replaces, and its make-up (benchmarks/snapshot.py).
6. A slow phone link (its row names it): first result over the plain page;
   printed before it, for information, the first result and a bare boot
   over a fair mobile link.
7. Memory over a long visit on a phone (tests/support/memory.py): 100 pages
   followed by link, Material swapping each in without a reload, trackers
   and calculators among them; after a forced garbage collection, the DOM
   nodes and JS event listeners alive after page 100 over those after page
   10 (the same page), and, to read, the JS heap and the renderer process's
   resident memory.
8. A reader's repeat visit, the service worker let in (the rows above
   block it): once a first visit has left the worker in charge and its
   caches whole, the share link opened in a fresh page: its first result
   over the first visit's and over a repeat visit with the HTTP cache only
   (both measured alongside), and the same on the slow phone link (the first
   visit on loopback), with twice the phone's delay, and offline; and how
   often V8 wrote and used its wasm code cache meanwhile (benchmarks/code_cache.py).
Then Lighthouse's mobile scores of six pages (benchmarks/lighthouse.py).

With rows 1 and 6, a timeline per page (benchmarks/timeline.py): when each
phase of the first result happened, in ms since navigation start, median
over the runs: our page, the plain page and the worker alone (loopback), and
our page and the plain page on the slow phone link.

BENCH_SITE (or SITE_DIR) names a built site other than site/, BENCH_RUNS the
runs per median, BENCH_PHONE_RUNS those on the phone link, BENCH_LIGHTHOUSE=0
skips Lighthouse, BENCH_ROWS runs only the rows of those numbers
("1,8"; row 3 then measures its own bare boot). The machine may be shared:
figures are medians.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from statistics import median
from typing import Any

from benchmarks import code_cache, visits
from benchmarks import timeline as phases
from benchmarks.goals import PHONE_MBPS, PHONE_RTT_MS, TABLE, describe
from benchmarks.no_calculators import build_without_calculator_hooks
from benchmarks.pages import CALC_PAGE, PLAIN_PAGE, SECOND_PAGE, SECOND_SHARE, SHARE, runtime_path, write_bench_pages
from benchmarks.server import Link, serving
from tests.support.browser import CHROMIUM_FLAGS, chromium_path

ROOT = Path(__file__).resolve().parent.parent
SITE = Path(os.environ.get("BENCH_SITE") or os.environ.get("SITE_DIR") or ROOT / "site").resolve()  # a copy: mkdocs build -d
RUNS = int(os.environ.get("BENCH_RUNS", "5"))
PHONE_RUNS = int(os.environ.get("BENCH_PHONE_RUNS", "3"))  # each cold visit takes about half a minute
LIGHTHOUSE = os.environ.get("BENCH_LIGHTHOUSE", "1") != "0"  # 0: skip it (about a minute)
ROWS = {row.strip() for row in os.environ.get("BENCH_ROWS", "1,2,3,4,5,6,7,8").split(",")}
SLOW_LINK_MBPS, SLOW_LINK_LATENCY_MS = 20, 40  # a fair mobile connection
SLOW_LINK_RUNS = 3
# Six pages: home, a rule page, a long rule page, a calculator, the table
# settings and the Table log. The tests hold every page to accessibility 100
# with axe-core, whose rules Lighthouse's accessibility audits are.
LIGHTHOUSE_PAGES = ("", PLAIN_PAGE, "tell-tale/keywords/", CALC_PAGE, "tell-tale/table-settings/", "table-log/")


@dataclass(frozen=True)
class Bench:
    """What the measures share: the browser, the site served over loopback
    (`sent`: bytes the server sent by path), and the comparison site built
    without the calculator hooks (`plain_error`: why it did not build)."""

    browser: Any
    site: Path
    runtime: str  # the runtime's folder in the site, pyodide/<version>/
    base: str
    server: Any
    sent: dict[str, int]
    plain_base: str
    plain_error: str | None
    runs: int
    phone_runs: int

    @property
    def share(self) -> str:
        return self.base + CALC_PAGE + SHARE


@dataclass
class Report:
    """The printed lines: goal rows (goals.TABLE), detail lines under them."""

    lines: list[str] = field(default_factory=list)

    def row(self, key: str, value, **fill) -> None:
        self.lines.append(TABLE[key].row(value, **fill))

    def not_measured(self, key: str, why: str = "") -> None:
        self.lines.append(TABLE[key].not_measured(why))

    def note(self, text: str) -> None:
        self.lines.append("      " + text)

    def timeline(self, title: str, runs: list[dict], rows) -> None:
        self.lines.extend(phases.table(title, runs, rows))


def first_result(bench: Bench, report: Report) -> float:
    """1. The share link's first result against the plain page, a bare boot
    and the worker alone. Returns the bare boot (ms), row 3's yardstick."""
    browser, bare_url, plain_url = bench.browser, bench.base + "__bench/bare.html", bench.base + "__bench/pyodide.html"
    visits.first_result_ms(browser, bench.share)  # warm the server's gzip cache
    visits.stamped_ms(browser, bare_url)
    visits.stamped_ms(browser, plain_url)
    firsts, bares, alone, plains, plain_repeats, repeats = [], [], [], [], [], []
    our_timeline: list[dict] = []
    alone_timeline: list[dict] = []
    plain_timeline: list[dict] = []
    for _ in range(bench.runs):
        firsts.append(visits.first_result_ms(browser, bench.share, our_timeline))
        bares.append(visits.stamped_ms(browser, bare_url))
        alone.append(visits.stamped_ms(browser, bench.base + "__bench/worker.html", alone_timeline))
        cold_plain, warm_plain = visits.stamped_ms_twice(browser, plain_url, 2, plain_timeline)
        plains.append(cold_plain)
        plain_repeats.append(warm_plain)
        repeats.append(visits.repeat_first_result_ms(browser, bench.share))
    first, bare, plain = median(firsts), median(bares), median(plains)
    report.row("first/plain", first / plain)
    report.row("repeat/plain", median(repeats) / median(plain_repeats))
    report.note(f"first result {first:.0f} ms, plain page {plain:.0f} ms; repeat visit {median(repeats):.0f} ms, "
                f"plain page's {median(plain_repeats):.0f} ms (medians of {bench.runs}, a shared noisy machine)")
    report.row("first/bare", first / bare)
    report.note(f"first result {first:.0f} ms, bare boot {bare:.0f} ms (median of {bench.runs}, cold cache)")
    report.timeline("our page, cold", our_timeline, phases.OUR_PAGE)
    report.timeline("the plain Pyodide page, cold", plain_timeline, phases.PLAIN_PAGE)
    report.row("first/worker", first / median(alone))
    report.note(f"the same worker alone on a blank page: first result {median(alone):.0f} ms, "
                f"{median(alone) / bare:.2f} of a bare boot (the rest is the page around it)")
    report.timeline("the worker alone on a blank page, cold", alone_timeline, phases.WORKER_ALONE)
    return bare


def without_calculator(bench: Bench, report: Report) -> None:
    """2. A page without a calculator: runtime files fetched, load time against the comparison site."""
    with_hooks, without_hooks, pyodide_urls = [], [], []
    for _ in range(bench.runs * 3):  # cheap, and a single load is noisy
        ms, urls = visits.load_ms(bench.browser, bench.base + PLAIN_PAGE)
        with_hooks.append(ms)
        pyodide_urls += urls
        if not bench.plain_error:
            without_hooks.append(visits.load_ms(bench.browser, bench.plain_base + PLAIN_PAGE)[0])
    report.row("plain page fetches", len(pyodide_urls))
    if bench.plain_error:
        report.not_measured("plain page load")
        report.note(f"the site without those hooks did not build: {bench.plain_error[:120]}")
    else:
        report.row("plain page load", median(with_hooks) / median(without_hooks))
        report.note(f"{median(with_hooks):.0f} ms vs {median(without_hooks):.0f} ms")


def instant_switch(bench: Bench, report: Report, bare_ms: float) -> None:
    """3. A link to a second calculator page: its first result over a bare boot, the workers started."""
    switches = [visits.instant_switch(bench.browser, bench.share, bench.base + SECOND_PAGE + SECOND_SHARE) for _ in range(bench.runs)]
    report.row("switch/bare", median([ms for ms, _ in switches]) / bare_ms)
    report.row("switch workers", max(workers for _, workers in switches))


def input_latency(bench: Bench, report: Report) -> None:
    """4. Input change to shown result."""
    times = visits.input_latency(bench.browser, bench.share + "&crit_d4=3")
    report.row("input latency", median(times))
    report.note(f"p90 {sorted(times)[int(len(times) * 0.9)]:.1f} ms over {len(times)} changes")


def site_file(site: Path, url_path: str) -> Path:
    path = site / url_path.lstrip("/")
    return path / "index.html" if path.is_dir() else path


def transfer(bench: Bench, report: Report) -> None:
    """5. Bytes: cold and repeat visits, and a real first visit against the plain page."""
    needed = visits.needed_for_first_result(bench.browser, bench.share, bench.sent)
    cold, repeat = visits.cold_and_repeat(bench.browser, bench.share, bench.sent)
    files = [site_file(bench.site, path) for path in cold]
    uncompressed = sum(file.stat().st_size for file in files if file.is_file())  # the same files from a host that compresses nothing
    report.row("cold bytes", sum(cold.values()))
    report.note(f"of which runtime {visits.runtime_bytes(cold) / 1e6:.2f} MB, needed for the first result {needed / 1e6:.2f} MB; "
                f"from a host that compresses nothing {uncompressed / 1e6:.2f} MB (the snapshot ships compressed)")
    report.row("repeat bytes", sum(repeat.values()))
    report.row("repeat runtime bytes", visits.runtime_bytes(repeat))
    # A real first visit: the service worker on, as it is for a reader.
    sw_before, sw_after, by_path = visits.bytes_before_done(bench.browser, bench.share, bench.server, bench.sent, calculator=True)
    plain_bytes = visits.bytes_before_done(bench.browser, bench.base + "__bench/pyodide.html", bench.server, bench.sent, calculator=False)[0]
    report.row("first visit bytes", sw_before / plain_bytes)
    biggest = sorted(by_path.items(), key=lambda kv: -kv[1])[:4]
    report.note(f"{sw_before / 1e6:.2f} MB against {plain_bytes / 1e6:.2f} MB (gzip); {sw_after / 1e6:.2f} MB by 3 s after "
                "the result; largest: " + ", ".join(f"{k.rsplit('/', 1)[-1]} {v / 1e6:.2f}" for k, v in biggest))


def snapshot(bench: Bench, report: Report) -> None:
    """5. The memory snapshot against the standard library it replaces, its make-up and headroom."""
    from benchmarks.snapshot import declared_memory, floor, make_up, pack

    runtime = bench.site / bench.runtime
    m = make_up(runtime)
    std = (runtime / "python_stdlib.zip").stat().st_size
    report.row("snapshot/stdlib", m["packed"] / std)
    report.note(f"snapshot {m['raw'] / 1e6:.2f} MB raw, {m['packed'] / 1e6:.2f} MB packed (python_stdlib.zip "
                f"{std / 1e6:.2f} MB); zero pages {m['zero'] / 1e6:.2f} MB and pages equal to the wasm's initial memory "
                f"{m['initial'] / 1e6:.2f} MB not shipped, the rest {m['rest'] / 1e6:.2f} MB; shipping the pages equal "
                f"to the initial memory too it would pack to {pack(m['full']) / 1e6:.2f} MB")
    alone = floor(runtime)
    report.note(f"of it, Pyodide alone (no wheel, nothing of ours imported) packs to {alone / 1e6:.2f} MB, "
                f"{alone / std:.2f} of the standard library: ours adds {(m['packed'] - alone) / 1e6:.2f} MB")
    declared = declared_memory((runtime / "pyodide.asm.wasm").read_bytes())
    report.note(f"headroom: the snapshot's heap {m['raw'] / 2**20:.1f} MiB, the wasm's declared memory {declared / 2**20:.1f} MiB "
                "(Pyodide 314 restores into that; runtime/pyodide-private.mjs growTo grows it, and "
                "tests/test_snapshot_headroom.py restores one 14 MB bigger)")


def slow_links(bench: Bench, report: Report) -> None:
    """6. The loopback figures above are all CPU; a phone mostly waits for bytes."""
    browser, path = bench.browser, CALC_PAGE + SHARE
    with serving(bench.site, Link(SLOW_LINK_MBPS, SLOW_LINK_LATENCY_MS)) as (_, base, _):
        firsts = [visits.first_result_ms(browser, base + path) for _ in range(SLOW_LINK_RUNS)]
        bares = [visits.stamped_ms(browser, base + "__bench/bare.html") for _ in range(SLOW_LINK_RUNS)]
    report.note(f"on a {SLOW_LINK_MBPS:g} Mbit/s link with {SLOW_LINK_LATENCY_MS:g} ms latency (cold, median of {SLOW_LINK_RUNS}): first "
                f"result {median(firsts):.0f} ms, bare boot {median(bares):.0f} ms "
                f"({median(firsts) / median(bares):.2f}), for information")
    if not bench.phone_runs:
        report.not_measured("phone", "BENCH_PHONE_RUNS=0")
        return
    phone_firsts, phone_plains = [], []
    our_timeline: list[dict] = []
    plain_timeline: list[dict] = []
    with serving(bench.site, Link(PHONE_MBPS, PHONE_RTT_MS)) as (_, base, _):
        for _ in range(bench.phone_runs):
            phone_firsts.append(visits.first_result_ms(browser, base + path, our_timeline))
            phone_plains.append(visits.stamped_ms(browser, base + "__bench/pyodide.html", plain_timeline))
    report.row("phone", median(phone_firsts) / median(phone_plains))
    report.note(f"first result {median(phone_firsts):.0f} ms [{min(phone_firsts):.0f}-{max(phone_firsts):.0f}], "
                f"plain page {median(phone_plains):.0f} ms [{min(phone_plains):.0f}-{max(phone_plains):.0f}] "
                f"(cold, service worker blocked, median of {bench.phone_runs} [min-max])")
    report.timeline("our page on the slow phone", our_timeline, phases.OUR_PAGE)
    report.timeline("the plain page on the slow phone", plain_timeline, phases.PLAIN_PAGE)


def repeat_visits(bench: Bench, report: Report) -> None:
    """8. A reader's repeat visit, service worker in charge, against a first visit and an HTTP-cache-only repeat."""
    browser, server = bench.browser, bench.server
    visits.worker_repeat_ms(browser, bench.share, server)  # warm the server's gzip cache
    firsts, http_repeats, repeats, seconds, offline = [], [], [], [], []
    timeline: list[dict] = []
    second_timeline: list[dict] = []
    offline_timeline: list[dict] = []
    http_timeline: list[dict] = []
    network: dict[str, int] = {}
    for _ in range(bench.runs):
        firsts.append(visits.first_result_ms(browser, bench.share))
        http_repeats.append(visits.repeat_first_result_ms(browser, bench.share, http_timeline))
        (repeat, second), sent = visits.worker_repeat_ms(browser, bench.share, server, timeline=timeline, repeats=2,
                                                                later_timeline=second_timeline)
        repeats.append(repeat)
        seconds.append(second)
        network.update(sent)
        offline.append(visits.worker_repeat_ms(browser, bench.share, server, offline=True, timeline=offline_timeline)[0][0])
    first, http_repeat, repeat = median(firsts), median(http_repeats), median(repeats)
    report.row("repeat/first", repeat / first)
    report.row("repeat/http", repeat / http_repeat)
    report.note(f"repeat visit {repeat:.0f} ms [{min(repeats):.0f}-{max(repeats):.0f}], the one after it {median(seconds):.0f} ms "
                f"[{min(seconds):.0f}-{max(seconds):.0f}] ({median(seconds) / first:.2f} of the first visit); first visit {first:.0f} ms, "
                f"HTTP cache only {http_repeat:.0f} ms (medians of {bench.runs} [min-max])")
    report.note("asked of the network in those repeat visits: " + (", ".join(f"{path} {size / 1e3:.1f} kB" for path, size in sorted(network.items())) or "nothing"))
    cache = code_cache.wasm_code_cache(browser, bench.share, server)
    report.note("V8's wasm code cache over a first visit and two repeats (Chromium's trace events): "
                + ", ".join(f"{what} {cache[what]}" for what in code_cache.EVENTS.values()))
    report.timeline("a repeat visit, service worker in charge", timeline, phases.REPEAT_VISIT)
    report.timeline("the repeat visit after it", second_timeline, phases.REPEAT_VISIT)
    report.timeline("a repeat visit, HTTP cache only", http_timeline, phases.OUR_PAGE)
    phone, slower = [], []
    phone_timeline: list[dict] = []
    for _ in range(bench.phone_runs):
        phone.append(visits.worker_repeat_ms(browser, bench.share, server, Link(PHONE_MBPS, PHONE_RTT_MS), timeline=phone_timeline)[0][0])
        slower.append(visits.worker_repeat_ms(browser, bench.share, server, Link(PHONE_MBPS, 2 * PHONE_RTT_MS))[0][0])
    if phone:
        report.row("repeat phone", median(phone))
        report.row("repeat phone delay", median(slower) / median(phone))
        report.note(f"{median(phone):.0f} ms [{min(phone):.0f}-{max(phone):.0f}] with {PHONE_RTT_MS:g} ms, "
                    f"{median(slower):.0f} ms [{min(slower):.0f}-{max(slower):.0f}] with {2 * PHONE_RTT_MS:g} ms "
                    f"(median of {bench.phone_runs} [min-max])")
        report.timeline("a repeat visit on the slow phone", phone_timeline, phases.REPEAT_VISIT)
    else:
        report.not_measured("repeat phone", "BENCH_PHONE_RUNS=0")
        report.not_measured("repeat phone delay", "BENCH_PHONE_RUNS=0")
    report.row("repeat offline", median(offline) / repeat)
    report.note(f"offline {median(offline):.0f} ms [{min(offline):.0f}-{max(offline):.0f}]")
    report.timeline("a repeat visit offline", offline_timeline, phases.REPEAT_VISIT)


def memory(bench: Bench, report: Report) -> None:
    """7. A phone's visit of 100 pages by instant navigation (tests/support/memory.py): what stays alive
    after page 100 against page 10, the same page, each after a forced garbage collection."""
    from tests.support.helpers import PHONE
    from tests.support.memory import walk

    context = bench.browser.new_context(service_workers="block", **PHONE)
    browser_cdp = bench.browser.new_browser_cdp_session()
    try:
        counts = walk(context.new_page(), bench.base, 100, {10, 100}, browser_cdp)
    finally:
        browser_cdp.detach()
        context.close()
    early, late = counts[10], counts[100]
    report.row("memory nodes", late.nodes / early.nodes)
    report.row("memory listeners", late.listeners / early.listeners)
    report.row("memory heap", late.heap / early.heap)
    if early.renderer and late.renderer:
        report.row("memory renderer", late.renderer / early.renderer)
    else:
        report.not_measured("memory renderer", "its resident memory is read from /proc: Linux only")
    mb = lambda n: f"{n / 1e6:.1f} MB" if n else "not measured"  # noqa: E731
    report.note(f"after page 10: {early.nodes:,} nodes, {early.listeners:,} listeners, JS heap {mb(early.heap)}, renderer {mb(early.renderer)}; "
                f"after page 100: {late.nodes:,}, {late.listeners:,}, {mb(late.heap)}, {mb(late.renderer)}")


def lighthouse(site: Path, report: Report) -> None:
    """Lighthouse's mobile scores of LIGHTHOUSE_PAGES, the browser closed by then."""
    from benchmarks.lighthouse import format_scores, scores_of

    with serving(site) as (_, base, _):
        results = scores_of([base + path for path in LIGHTHOUSE_PAGES])
    for path in LIGHTHOUSE_PAGES:
        report.row("lighthouse", results[base + path], page=path)
        report.note(format_scores(path or "/", results[base + path]))


def in_browser(report: Report, runtime: str, plain_site: Path, plain_error: str | None) -> None:
    """Rows 1 to 6: one browser, the site and the comparison site served for them all."""
    from playwright.sync_api import sync_playwright

    with contextlib.ExitStack() as stack:  # closed in reverse: the browser, Playwright, then the servers
        server, base, sent = stack.enter_context(serving(SITE))
        _, plain_base, _ = stack.enter_context(serving(SITE if plain_error else plain_site))
        playwright = stack.enter_context(sync_playwright())
        browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS)
        stack.callback(browser.close)
        bench = Bench(browser=browser, site=SITE, runtime=runtime, base=base, server=server, sent=sent, plain_base=plain_base,
                      plain_error=plain_error, runs=RUNS, phone_runs=PHONE_RUNS)
        if "1" in ROWS:
            bare_ms = first_result(bench, report)
        elif "3" in ROWS:
            bare_ms = median(visits.stamped_ms(browser, base + "__bench/bare.html") for _ in range(bench.runs + 1))
        for row, measure in (("2", without_calculator), ("3", lambda b, r: instant_switch(b, r, bare_ms)),
                             ("4", input_latency), ("5", transfer), ("5", snapshot), ("6", slow_links),
                             ("7", memory), ("8", repeat_visits)):
            if row in ROWS:
                measure(bench, report)


def main(argv: list[str]) -> int:
    if "--goals" in argv:
        print(describe())
        return 0
    if not (SITE / "rules.json").exists():
        print("Build the site first: make build", file=sys.stderr)
        return 1
    runtime = runtime_path(SITE)
    work = Path(tempfile.mkdtemp(prefix="bench-"))
    report = Report()
    try:
        write_bench_pages(SITE / "__bench", runtime)
        plain_site = work / "site"
        plain_error = build_without_calculator_hooks(plain_site)
        in_browser(report, runtime, plain_site, plain_error)
        if LIGHTHOUSE:
            lighthouse(SITE, report)
    finally:
        shutil.rmtree(SITE / "__bench", ignore_errors=True)
        shutil.rmtree(work, ignore_errors=True)
    print("\n".join(report.lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
