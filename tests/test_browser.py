"""The calculators in the rule pages, in a real Chromium against the built site.

Every calculator's examples (one per outcome, from the registry) must give
in the browser's runtime the answer CPython gives: one page load per
calculator page; each calculator's first example opened as a share link and
drawn by its form, the others asked of the same runtime (tests/test_pyodide.py
checks the answers on the same runtime under Node too).
"""

from __future__ import annotations

import contextlib
import itertools
import re
from datetime import datetime
from urllib.parse import urlencode

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect
from support import ROOT, load_module
from support.helpers import BOOT, DOCS, FOLLOW, address, calculator_pages, follow, share_url

from calculators.registry import all_calculators
from calculators.runner import run

pytestmark = pytest.mark.browser
CALCS = all_calculators()


@pytest.fixture(scope="module")
def pages_of(site):
    return calculator_pages(site)


def result_of(page, name, fresh=False):
    """The outcome, headline and error the form shows, once it shows one;
    `fresh`: of the form the last link brought (FOLLOW marks the old ones)."""
    form = page.locator(f'form[data-calculator="{name}"]' + (":not([data-stale])" if fresh else ""))
    form.locator("[data-outcome], [role=alert]:not(:empty)").first.wait_for(timeout=BOOT)
    outcome = form.locator(".calc-result").get_attribute("data-outcome")
    return {
        "outcome": outcome,
        "headline": form.locator(".calc-headline").text_content() if outcome else None,
        "error": form.locator("[role=alert]").text_content(),
    }


def test_every_calculator_is_on_a_page(pages_of):
    assert set(CALCS) <= set(pages_of), f"not embedded: {sorted(set(CALCS) - set(pages_of))}"


EXAMPLES = [(name, i, ex) for name, calc in CALCS.items() for i, ex in enumerate(calc.examples)]


def examples_by_page() -> dict[str, list[tuple[str, int, dict]]]:
    """The examples, grouped by the page (docs/<page>.md) whose calculator fence shows them."""
    where: dict[str, str] = {}
    for md in sorted(DOCS.rglob("*.md")):
        for name in re.findall(r"^```calculator[ \t]*\n[ \t]*(\S+)", md.read_text(encoding="utf-8"), re.M):
            where.setdefault(name, md.relative_to(DOCS).with_suffix("").as_posix())
    groups: dict[str, list[tuple[str, int, dict]]] = {}
    for name, i, example in EXAMPLES:
        groups.setdefault(where.get(name, "on no page"), []).append((name, i, example))
    return groups


BY_PAGE = examples_by_page()


# Ask the page's own runtime, through the function its forms call
# (calc-runtime.js computeInWorker): the module is imported at the address
# the page loaded it from, so it is that same module, with that worker.
ASK_THE_PAGE = """async ([name, params, seed]) => {
  const url = performance.getEntriesByType("resource").map((e) => e.name).find((u) => new URL(u).pathname.endsWith("/calc-runtime.js"));
  const { computeInWorker } = await import(url);
  return computeInWorker(name, params, seed);
}"""


@pytest.mark.parametrize("examples", BY_PAGE.values(), ids=BY_PAGE.keys())
def test_examples_from_share_links_match_cpython(page, base_url, pages_of, examples):
    """Every example, computed by the browser's runtime, is CPython's answer
    to the letter; each calculator's first example comes as a share link,
    whose form must show CPython's outcome and headline.

    The page is loaded once, with its first calculator's first example; each
    other calculator's first example is a link followed from the home page,
    which Material swaps in (it fetches only when the path changes, hence the
    stop at home) and the page reads from the address just the same
    (calc-form.js, setUpForm), without starting the calculators again. The other
    examples are asked of the same runtime as the forms ask it, with the
    values as a share link carries them (text): a swap of a long page costs
    about a second each, and what it would check is checked once per form."""
    wrong = {}
    shown = set()
    for name, i, example in examples:
        seed = example.get("seed")
        params = {key: v for key, v in example.items() if key != "seed"}
        expected = run(name, params, seed)
        assert expected["ok"], expected
        if name in shown:
            got = page.evaluate(ASK_THE_PAGE, [name, {key: str(v) for key, v in params.items()}, None if seed is None else str(seed)])
            if got != expected:
                wrong[f"{name}-{i}"] = {"got": got, "want": expected}
            continue
        url = share_url(base_url, pages_of, name, example)
        if not shown:
            page.goto(url)
        else:
            follow(page, base_url)
            page.evaluate(FOLLOW, url)
        shown.add(name)
        got = result_of(page, name, fresh=True)
        want = {"outcome": expected["outcome"], "headline": expected["headline"], "error": ""}
        if got != want:
            wrong[f"{name}-{i}"] = {"got": got, "want": want}
    assert not wrong
    assert len(shown) == len({name for name, _, _ in examples})
    assert not page.errors


def test_typing_updates_the_result_and_the_address(page, base_url, pages_of):
    name = "tell_tale.resolve_attack"
    page.goto(base_url + pages_of[name])
    form = page.locator(f'form[data-calculator="{name}"]')
    form.locator("[name=power]").fill("5")
    form.locator("[name=d20]").fill("17")
    form.locator('.calc-result[data-outcome="full"]').wait_for(timeout=BOOT)
    address(page, has=["power=5", "d20=17"])  # written once typing pauses
    form.locator("[name=d20]").fill("3")
    form.locator('.calc-result[data-outcome="miss"]').wait_for()
    # The odds are a table with a text percentage for every outcome.
    rows = form.locator(".calc-odds tbody tr")
    expect(rows.nth(3)).to_be_attached()  # four outcomes or more
    expect(rows.locator(".calc-pct")).to_have_text([re.compile(r"\d%$")] * rows.count())
    # The rules that decided it are links to those rules.
    link = form.locator(".calc-rules a").first
    expect(link).to_have_attribute("href", re.compile(r"#tt\."))
    assert not page.errors


def test_the_address_is_written_once_typing_pauses_and_before_a_link_is_followed(page, base_url, pages_of):
    """Each address written made Chromium draw the page's icon again, and the
    answer waited for it: the values go into the address once typing pauses
    (calc-address.js ADDRESS_PAUSE_MS), and at once when the reader follows a link,
    so the page left behind in the history holds the last values. Once the
    first result is in, the page's clock is paused (Playwright's): its timers
    run only when the test says."""
    name = "tell_tale.resolve_attack"
    page.clock.install(time=datetime(2027, 1, 1))
    page.goto(base_url + pages_of[name])
    form = page.locator(f'form[data-calculator="{name}"]')
    form.locator("[name=power]").fill("5")
    form.locator("[name=d20]").fill("17")
    form.locator('.calc-result[data-outcome="full"]').wait_for(timeout=BOOT)
    address(page, has=["power=5", "d20=17"])
    page.clock.pause_at(datetime(2027, 1, 2))
    form.locator("[name=d20]").fill("3")
    form.locator('.calc-result[data-outcome="miss"]').wait_for()
    assert "d20=17" in page.url  # typing has not paused yet
    page.clock.run_for(1000)
    address(page, has=["d20=3"])
    form.locator("[name=d20]").fill("16")
    form.locator('.calc-result[data-outcome="full"]').wait_for()
    assert "d20=3" in page.url  # not yet
    page.locator("a.md-logo").first.click()  # home, swapped in by Material at once
    page.wait_for_url(base_url)
    page.go_back()
    assert "d20=16" in page.url and "power=5" in page.url
    assert not page.errors


def test_bad_input_shows_the_calculators_sentence_and_drops_the_old_result(page, base_url, pages_of):
    name = "tell_tale.resolve_attack"
    page.goto(share_url(base_url, pages_of, name, {"power": "5", "d20": "17"}))
    form = page.locator(f'form[data-calculator="{name}"]')
    form.locator('.calc-result[data-outcome="full"]').wait_for(timeout=BOOT)
    form.locator("[name=d20]").fill("23")
    alert = form.locator("[role=alert]")
    alert.filter(has_text="23").wait_for()
    expect(alert).to_have_text(run(name, {"power": "5", "d20": "23"})["error"])
    expect(form.locator("[data-outcome]")).to_have_count(0)
    expect(form.locator("[name=d20]")).to_have_attribute("aria-invalid", "true")
    assert not page.errors


def test_share_link_round_trip(browser, base_url, pages_of):
    name = "tell_tale.resolve_attack"
    first = browser.new_context()
    page = first.new_page()
    page.goto(base_url + pages_of[name])
    form = page.locator(f'form[data-calculator="{name}"]')
    form.locator("[name=power]").fill("7")
    form.locator("[name=mode]").select_option("advantage")
    form.locator("[name=d20]").fill("4 16")
    form.locator("[data-outcome]").wait_for(timeout=BOOT)
    shown = {part: form.locator(part).inner_text() for part in (".calc-result", ".calc-explain")}
    link = address(page, has=["power=7", "mode=advantage", "d20=4+16"])
    first.close()
    other = browser.new_context()
    page = other.new_page()
    page.goto(link)
    form = page.locator(f'form[data-calculator="{name}"]')
    form.locator("[data-outcome]").wait_for(timeout=BOOT)
    for part, text in shown.items():
        expect(form.locator(part)).to_have_text(text, use_inner_text=True)
    expect(form.locator("[name=power]")).to_have_value("7")
    other.close()


def test_roll_for_me_is_reproducible_by_seed(browser, base_url, pages_of):
    name = "tell_tale.resolve_attack"
    ctx = browser.new_context()
    page = ctx.new_page()
    page.goto(base_url + pages_of[name])
    form = page.locator(f'form[data-calculator="{name}"]')
    form.locator("[name=power]").fill("4")
    form.locator("[data-action=roll]").click()
    form.locator("[data-outcome]").wait_for(timeout=BOOT)
    seed_note = form.locator(".calc-seed").text_content()
    seed = re.search(r"seed (\d+)", seed_note).group(1)
    link = address(page, has=[f"seed={seed}"])
    result = form.locator(".calc-result").inner_text()
    ctx.close()
    expected = run(name, {"power": "4"}, seed)
    assert expected["headline"] in result
    ctx = browser.new_context()
    page = ctx.new_page()
    page.goto(link)
    form = page.locator(f'form[data-calculator="{name}"]')
    form.locator("[data-outcome]").wait_for(timeout=BOOT)
    expect(form.locator(".calc-seed")).to_have_text(seed_note)
    expect(form.locator(".calc-result")).to_have_text(result, use_inner_text=True)
    ctx.close()


def test_instant_navigation_keeps_one_runtime(page, base_url, pages_of):
    first, second = "tell_tale.resolve_attack", "talislanta.resolve_action"
    workers = []
    page.on("worker", lambda w: "calc-worker" in w.url and workers.append(w))  # not the search worker
    page.goto(share_url(base_url, pages_of, first, {"power": "5", "d20": "17"}))
    page.locator("[data-outcome]").first.wait_for(timeout=BOOT)
    # The worker the head created as the page was read (overrides/main.html), before calc-runtime.js was
    # even in, is the one that answered: taken over, not made again (one worker in all, below).
    created, script_in, left = page.evaluate("""() => [globalThis.__calcRuntime.timings.created,
        performance.getEntriesByType("resource").find((e) => new URL(e.name).pathname.endsWith("/calc-runtime.js")).responseEnd,
        "__calcEarlyWorker" in globalThis]""")
    assert created < script_in and not left, (created, script_in, left)
    # Follow a link the way a reader does, so Material swaps the page in place.
    target = base_url + pages_of[second]
    page.evaluate("url => { window.__sameDocument = true; const a = document.createElement('a'); a.href = url; document.querySelector('.md-content').append(a); a.click(); }", target)
    form = page.locator(f'form[data-calculator="{second}"]')
    form.wait_for()
    assert page.evaluate("() => window.__sameDocument") is True  # swapped in place, not reloaded
    form.locator("[name=rating]").fill("9")
    form.locator("[name=opposing_rating]").fill("7")
    form.locator("[name=d20]").fill("10")
    form.locator("[data-outcome]").wait_for(timeout=5_000)
    assert len(workers) == 1
    assert not page.errors


def test_the_heads_early_worker_is_started_as_the_runtime_starts_one():
    """overrides/main.html creates and boots the worker before calc-runtime.js is in, so it says two things
    of calc-runtime.js's itself: the hashes of a window that computes nothing (the players' view, a
    player's phone: SHOW_ONLY) and how the worker is told to boot (its address's #boot=…&origin=…, read by
    calc-worker.mjs). Both the same, to the letter."""
    runtime = (ROOT / "docs/assets/calc-runtime.js").read_text(encoding="utf-8")
    head = (ROOT / "overrides/main.html").read_text(encoding="utf-8")
    shown = re.search(r'export const SHOW_ONLY = (/[^\n]+/);', runtime)
    skipped = re.search(r'if \((/[^ ]+/)\.test\(location\.hash\)\) return;', head)
    assert shown and skipped and shown.group(1) == skipped.group(1)
    boot = re.compile(r'"#" \+ new URLSearchParams\(\{ boot: .*?\}\)')
    assert boot.findall(runtime) == boot.findall(head) and len(boot.findall(head)) == 1


# the wasm is fetched as pyodide.asm.wasm.zst, the plain file when that fails:
# "*.wasm*" matches both
@pytest.mark.parametrize("blocked", ["**/*.wasm*", "**/pyodide.asm.mjs"])
def test_runtime_that_cannot_load_is_reported_in_words(browser, base_url, pages_of, blocked):
    ctx = browser.new_context()
    ctx.add_init_script("globalThis.__calcBootTimeoutMs = 20000")
    ctx.route(blocked, lambda route: route.abort())
    page = ctx.new_page()
    page.goto(base_url + pages_of["tell_tale.resolve_attack"])
    status = page.locator("form[data-calculator] .calc-status.calc-failed").first
    status.wait_for(timeout=BOOT)
    expect(status).to_contain_text("could not start")
    expect(page.locator(".md-content h1")).to_be_visible()  # the rules stay readable
    ctx.close()


def test_a_hanging_runtime_times_out(browser, base_url, pages_of):
    ctx = browser.new_context()
    ctx.add_init_script("globalThis.__calcBootTimeoutMs = 3000")
    ctx.route("**/*.wasm*", lambda route: None)  # never answered, .zst or plain
    page = ctx.new_page()
    page.goto(base_url + pages_of["tell_tale.resolve_attack"])
    status = page.locator("form[data-calculator] .calc-status.calc-failed").first
    status.wait_for(timeout=20_000)
    expect(status).to_contain_text("did not start within 3 seconds")
    ctx.close()


# The helper thread that unpacks the snapshot (runtime/snapshot-worker.mjs)
# is a worker the calculators' worker starts: Playwright's routes do not see
# its requests, so the calculators' worker is served changed instead.
# Each way: the worker's text replaced, and the reason the worker then warns of.
HELPER_FAILS = {
    # the helper cannot be loaded at all
    "no helper": ('base+"snapshot-worker.mjs"', 'base+"no-such-helper.mjs"', "the snapshot helper could not start"),
    # the helper fails with an Error of no message: an empty text
    "silent helper": ("helper.onmessage=({data})=>{", 'helper.onmessage=({data})=>{if(data.bytes)data={error:""};',
                      "the snapshot helper stopped without saying why"),
}


def worker_changed(old: str, new: str):
    def change(route):
        body = route.fetch().text()
        assert old in body, "the worker changed: update this test"
        route.fulfill(body=body.replace(old, new), content_type="text/javascript")
    return change


# make bench's timeline (benchmarks/timeline.py): every step of a snapshot
# start stamped, in the page's clock, each chain in the order one step causes
# the next. A stamp taken in another thread is converted through the threads'
# time origins: allowed a millisecond off.
TIMELINE_CHAINS = (
    ("created", "workerStarted", "bootStarted", "wasmRequested", "wasmResponse", "wasmFetched", "wasmCompiled", "restored"),
    ("workerStarted", "pyodideImported"),
    ("workerStarted", "wasmRequested"),  # from the worker's first lines (fetchWasmEarly), not after Pyodide's scripts
    ("wasmRequested", "wasmCompiling", "wasmCompiled"),
    ("wasmCompiled", "initialCopied", "moduleReady", "snapshotCopied", "pyodideLoaded", "restored"),
    ("workerStarted", "snapshotHeader", "restored"),
    ("workerStarted", "snapshotArrived", "snapshotDecoded", "snapshotFetched", "restored"),
    ("restored", "readyAt", "readySeen", "computeSent", "computeStarted", "computeDone", "resultReceived", "painted"),
)


def assert_timeline_in_order(page):
    with contextlib.suppress(PlaywrightTimeout):  # the check below names what is missing
        page.wait_for_function("() => globalThis.__calcRuntime.timings?.painted", timeout=10_000)
    stamps = page.evaluate("() => globalThis.__calcRuntime.timings")
    rows = load_module("benchmarks/timeline.py").OUR_PAGE  # the bench prints these: each one the runtime stamps
    unknown = {key for key, _ in rows} - {"html", "domContentLoaded", "firstResult"} - set(stamps)
    assert not unknown, f"make bench's timeline asks for stamps the runtime does not take: {sorted(unknown)}"
    for chain in TIMELINE_CHAINS:
        missing = [name for name in chain if not isinstance(stamps.get(name), (int, float))]
        assert not missing, f"not stamped: {missing} in {stamps}"
        for before, after in itertools.pairwise(chain):
            assert stamps[before] <= stamps[after] + 1, f"{before} {stamps[before]:.1f} came after {after} {stamps[after]:.1f}"


@pytest.mark.parametrize("blocked", [None, "no helper", "silent helper", "**/python_stdlib.zip", "**/pyodide.asm.wasm.zst"])
def test_the_calculator_starts_from_the_snapshot(browser, base_url, pages_of, blocked):
    """The fast path is the one taken, with pyodide.asm.wasm fetched as its
    .zst; on a host without the .zst, from the plain file. Without its
    helper thread, or with a helper that fails without a word, the worker
    unpacks the snapshot itself and still restores it; and it does not wait
    for the standard library, which comes after (here: never)."""
    ctx = browser.new_context()
    held = []
    if blocked == "**/python_stdlib.zip":
        ctx.route(blocked, lambda route: held.append(route))  # never answered while the test runs
    elif blocked == "**/pyodide.asm.wasm.zst":
        ctx.route(blocked, lambda route: route.fulfill(status=404, body="Not found"))
    elif blocked:
        ctx.route("**/calc-worker.mjs", worker_changed(*HELPER_FAILS[blocked][:2]))
    page = ctx.new_page()
    said, wasm = [], []
    page.on("console", lambda m: "snapshot helper failed" in m.text and said.append(m.text))
    ctx.on("request", lambda r: ".asm.wasm" in r.url and wasm.append(r.url.rsplit("/", 1)[-1]))
    page.goto(share_url(base_url, pages_of, "tell_tale.resolve_attack", {"power": "5", "d20": "20", "crit_d4": "3"}))
    page.locator('[data-outcome="critical"]').wait_for(timeout=BOOT)
    assert page.evaluate("() => globalThis.__calcRuntime.how") == "snapshot"
    no_zst = blocked == "**/pyodide.asm.wasm.zst"
    assert wasm == (["pyodide.asm.wasm.zst", "pyodide.asm.wasm"] if no_zst else ["pyodide.asm.wasm.zst"])
    assert_timeline_in_order(page)
    reason = HELPER_FAILS[blocked][2] if blocked in HELPER_FAILS else None
    assert [reason in text for text in said] == ([True] if reason else [])
    if held:
        assert held[0].request.url.endswith("python_stdlib.zip")  # asked for, and not waited on
        for route in held:
            route.abort()
    ctx.close()


@pytest.mark.parametrize("first_fails", [False, True], ids=["held", "first download fails"])
def test_a_calculation_that_needs_the_standard_library_waits_for_it(browser, base_url, pages_of, first_fails):
    """The standard library comes after the snapshot (runtime/late-stdlib.mjs):
    a calculation that imports a module nobody imported yet fails until it is
    in, and is then retried. Forced here by making the calculators import one,
    through a copy of the worker that leaves its interpreter where the test
    can reach it. A download that fails (a dropped connection) is asked for
    again, so the calculation still comes."""
    ctx = browser.new_context()

    def worker_with_handle(route):
        body = route.fetch().text()
        line = 'compute=pyodide.globals.get("compute");'
        assert line in body, "the worker changed: update this test"
        route.fulfill(body=body.replace(line, line + " globalThis.__pyodide = pyodide;"), content_type="text/javascript")

    ctx.route("**/calc-worker.mjs", worker_with_handle)
    # What the worker tells the page, kept for the test: "waiting" means a
    # calculation missed a module and waits for the standard library.
    ctx.add_init_script("""{
      const Base = globalThis.Worker;
      globalThis.__workerSaid = [];
      globalThis.Worker = class extends Base {
        constructor(url, options) {
          super(url, options);
          this.addEventListener("message", (event) => globalThis.__workerSaid.push(event.data && event.data.type));
        }
      };
    }""")
    held, released, failed = [], [], []

    def hold_until_released(route):  # the service worker, once in charge, asks too
        if first_fails and not failed and route.request.service_worker is None:
            failed.append(route.request.url)  # the worker's first download: the connection drops
            route.abort()
        else:
            route.continue_() if released else held.append(route)

    ctx.route("**/python_stdlib.zip", hold_until_released)
    page = ctx.new_page()
    name = "tell_tale.resolve_attack"
    page.goto(base_url + pages_of[name])
    page.wait_for_function("() => globalThis.__calcRuntime.status === 'ready'", timeout=BOOT)
    [worker] = [w for w in page.workers if "calc-worker" in w.url]
    worker.evaluate("""() => __pyodide.runPython(`
import calculators.web as web  # the worker's compute calls web.run
_run = web.run
def _run_needing_colorsys(*args):
    import colorsys  # in the standard library, imported by no calculator
    return _run(*args)
web.run = _run_needing_colorsys
`)""")
    form = page.locator(f'form[data-calculator="{name}"]')
    form.locator("[name=power]").fill("5")
    form.locator("[name=d20]").fill("17")
    page.wait_for_function("() => globalThis.__workerSaid.includes('waiting')", timeout=BOOT)
    expect(form.locator(".calc-result")).not_to_have_attribute("data-outcome", re.compile(""))  # waiting, not failed
    expect(form).to_have_attribute("aria-busy", "true")
    expect(form.locator("[role=alert]")).to_have_text("")
    for _ in range(200):  # a dropped download is asked for again after a second; routes are answered while we wait
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "the worker never asked for the standard library"
    assert len(failed) == first_fails
    released.append(True)
    for route in held:
        route.continue_()
    form.locator('.calc-result[data-outcome="full"]').wait_for(timeout=BOOT)
    assert worker.evaluate("() => __pyodide.runPython(\"'colorsys' in __import__('sys').modules\")")
    ctx.close()


def test_a_snapshot_cut_short_falls_back_to_a_normal_boot(browser, site, base_url, pages_of):
    """The worst case of the overlapped start: the header arrives (so Pyodide
    has begun with memory of the snapshot's size) and the rest never does."""
    runtime = next((site / "pyodide").iterdir())
    head = (runtime / "snapshot.bin.zst").read_bytes()[:100_000]  # its header and a little more
    ctx = browser.new_context()
    ctx.route("**/snapshot.bin.zst", lambda route: route.fulfill(body=head, content_type="application/octet-stream"))
    page = ctx.new_page()
    warnings = []
    page.on("console", lambda m: m.type == "warning" and warnings.append(m.text))
    page.goto(share_url(base_url, pages_of, "tell_tale.resolve_attack", {"power": "5", "d20": "20", "crit_d4": "3"}))
    page.locator('[data-outcome="critical"]').wait_for(timeout=BOOT)
    assert page.evaluate("() => globalThis.__calcRuntime.how") == "boot"
    assert any("cut short" in w for w in warnings), warnings
    ctx.close()


def test_snapshot_failure_falls_back_to_a_normal_boot(browser, base_url, pages_of):
    ctx = browser.new_context()
    ctx.route("**/snapshot.bin*", lambda route: route.abort())
    page = ctx.new_page()
    page.goto(share_url(base_url, pages_of, "tell_tale.resolve_attack", {"power": "5", "d20": "20", "crit_d4": "3"}))
    page.locator('[data-outcome="critical"]').wait_for(timeout=BOOT)
    assert page.evaluate("() => globalThis.__calcRuntime.how") == "boot"
    ctx.close()


PAYLOADS = [
    '<img src=x onerror="window.__pwned=1">',
    '"><script>window.__pwned=1</script>',
    "javascript:window.__pwned=1",
]


@pytest.mark.parametrize("payload", PAYLOADS)
def test_hostile_input_never_runs(page, base_url, pages_of, payload):
    name = "tell_tale.resolve_attack"
    query = {"calc": name, "power": payload, "d20": payload, "mode": payload, payload: payload, "seed": payload}
    page.goto(f"{base_url}{pages_of[name]}?{urlencode(query)}#{payload}")
    form = page.locator(f'form[data-calculator="{name}"]')
    form.locator("[role=alert]:not(:empty)").wait_for(timeout=BOOT)
    form.locator("[name=power]").fill(payload)
    expect(form).not_to_have_attribute("aria-busy", "true", timeout=BOOT)  # its answer is drawn
    assert page.evaluate("() => window.__pwned") is None
    expect(page.locator("img[src=x]")).to_have_count(0)
    expect(page.locator("script:text('__pwned')")).to_have_count(0)
    assert payload[:5] not in form.locator(".calc-result").inner_html()


def test_rule_ids_have_copy_buttons_and_anchors(page, base_url):
    page.goto(base_url + "tell-tale/combat/#tt.combat.attack-table")
    heading = page.locator('[id="tt.combat.attack-table"]')
    expect(heading).to_be_visible()
    button = page.locator(".rule-id button").first
    button.wait_for()
    expect(button).to_contain_text("Copy")
    assert not page.errors


def test_a_page_without_a_calculator_loads_no_runtime(page, base_url):
    requests = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(base_url + "tell-tale/glossary/")
    page.wait_for_load_state("networkidle")
    assert not [u for u in requests if "/pyodide/" in u]


def test_a_rule_page_prints_as_clean_rules_with_ids(page, base_url, pages_of):
    page.goto(base_url + pages_of["tell_tale.resolve_attack"])
    page.locator(".rule-id button").first.wait_for()
    page.emulate_media(media="print")
    for chrome in (".md-header", ".md-sidebar--primary", ".md-footer", "form.calc", ".rule-copy"):
        expect(page.locator(chrome).first, f"{chrome} shows in print").to_be_hidden()
    expect(page.locator('[id="tt.combat.attack-table"]')).to_be_visible()
    expect(page.locator(".rule-id a", has_text="tt.combat.attack-table")).to_be_visible()


def test_hovering_a_term_previews_its_rule(browser, base_url):
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    page.goto(base_url + "tell-tale/combat/")
    link = page.locator(".md-content a.term").first
    target = link.get_attribute("href").split("#")[1]
    link.scroll_into_view_if_needed()
    link.hover()
    tooltip = page.locator(".rule-preview")  # the site's own preview, at any address
    tooltip.wait_for(timeout=10_000)
    expect(tooltip.locator(".rule-preview-meta")).to_contain_text(target, use_inner_text=True)  # the preview shows that very rule, ID and all
    ctx.close()
