"""Page helpers several test modules share (the package's docstring says
what lives where): a test module imports these, never another test module."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from urllib.parse import urlencode

from markdown_it import MarkdownIt

from . import ROOT

BOOT = 90_000  # ms: a page's worker ready, a step answered: generous, the machine is shared (every browser test reads it here)
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.rglob("*.md"))

# Browser contexts: a small phone and a desktop.
PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}


# Every option of every visible select whose text is wider than the closed
# select shows, on the page as it is now: the text is measured in the
# select's own font on a canvas, against its inner width less the native
# arrow (20 px). A cut option hides its end, often "(ruling)", the mark of
# the site's choice.
CUT_OPTIONS_JS = """() => {
  const pen = document.createElement('canvas').getContext('2d');
  return [...document.querySelectorAll('select')].filter((s) => s.checkVisibility()).flatMap((s) => {
    const cs = getComputedStyle(s);
    pen.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
    const room = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 20;
    return [...s.options].filter((o) => pen.measureText(o.text).width > room)
      .map((o) => `${location.pathname} ${s.name || s.id || s.dataset.enc}: "${o.text}" is ${Math.round(pen.measureText(o.text).width)} px in ${Math.round(room)} px`);
  });
}"""


# ---------------------------------------------------------------- moving about as a reader does

# Follow a link as a reader does: Material's instant navigation fetches the
# page and swaps it in without a reload, so a calculators' runtime started
# on an earlier page goes on. The forms and the content being left are
# marked first, so a wait can tell the new ones (`form:not([data-stale])`).
FOLLOW = """url => {
  for (const form of document.querySelectorAll('form[data-calculator]')) form.dataset.stale = '';
  document.querySelector('[data-md-component=container]').dataset.left = '';
  const a = document.createElement('a'); a.href = url; document.querySelector('.md-content').append(a); a.click();
}"""


def follow(page, url: str) -> None:
    """Go to `url` (a page in the sitemap, not the one shown) by a link, and
    wait until Material has swapped it in and the page's scripts have drawn
    it (page-start.js's copy buttons beside the rule IDs). The wait answers a
    boolean: Playwright keeps what it answers (a handle) for as long as the
    page lives, and an element of the page left behind would keep that whole
    page alive (tests/test_memory.py counts what stays)."""
    page.evaluate(FOLLOW, url)
    page.wait_for_function(
        "url => location.href === url && !document.querySelector('[data-md-component=container][data-left]')"
        " && (!document.querySelector('.rule-id') || Boolean(document.querySelector('.rule-id button')))",
        arg=url,
    )


def address(page, has=(), lacks=()) -> str:
    """The page's address once it holds every part of `has` and none of
    `lacks`: a calculator writes its values there once typing pauses
    (calc-address.js ADDRESS_PAUSE_MS), not at each result."""
    page.wait_for_function("([has, lacks]) => has.every((p) => location.href.includes(p)) && !lacks.some((p) => location.href.includes(p))",
                           arg=[list(has), list(lacks)])
    return page.url


def sitemap_pages(site: Path) -> set[str]:
    """The pages Material's instant navigation swaps in (those in the sitemap)."""
    text = (site / "sitemap.xml").read_text(encoding="utf-8")
    return {re.sub(r"^https?://[^/]+/", "", loc) for loc in re.findall(r"<loc>([^<]*)</loc>", text)}


# A rule marker the extension left unrendered: an [[ID]] link, a {{ shortcode }}, an r[id] heading mark.
MARKER = re.compile(r"\[\[|\{\{|(?<![\w-])r\[")


def reader_text(html: str) -> str:
    """What a reader sees of a page: its text outside code, scripts, styles and attributes (a tracker's
    vocabulary is JSON in an attribute)."""
    return re.sub(r"<[^>]*>", "", re.sub(r"<(pre|code|script|style)\b.*?</\1>", "", html, flags=re.S))


# ---------------------------------------------------------------- the worked examples


def examples(page: Path) -> list[tuple[int, str]]:
    """(line number, source) of each pycon fence in the page."""
    tokens = MarkdownIt("commonmark").parse(page.read_text(encoding="utf-8"))
    return [(t.map[0] + 1, t.content) for t in tokens if t.type == "fence" and t.info.strip() == "pycon"]


PAGES_WITH_EXAMPLES = [p for p in PAGES if examples(p)]


# ---------------------------------------------------------------- the calculators in the built site


def calculator_pages(site: Path) -> dict[str, str]:
    """Calculator name -> page URL (relative to the site root)."""
    found = {}
    for html in sorted(site.rglob("*.html")):
        for name in re.findall(r'data-calculator="([^"]+)"', html.read_text(encoding="utf-8")):
            rel = html.relative_to(site).parent.as_posix()
            found.setdefault(name, "" if rel == "." else rel + "/")
    return found


def calculator_page(site: Path, name: str) -> str | None:
    for html in sorted(site.rglob("index.html")):
        if f'data-calculator="{name}"' in html.read_text(encoding="utf-8"):
            return html.relative_to(site).parent.as_posix() + "/"
    return None


def share_url(base_url, pages_of, name, params, seed=None):
    query = {"calc": name, **{k: v for k, v in params.items() if k != "seed"}}
    if seed is not None or "seed" in params:
        query["seed"] = seed if seed is not None else params["seed"]
    return f"{base_url}{pages_of[name]}?{urlencode(query)}"


# ---------------------------------------------------------------- the service worker


def worker_data(site: Path) -> dict:
    text = (site / "sw.js").read_text(encoding="utf-8")
    return json.loads(re.search(r"const OFFLINE = (\{.*?\n\});", text, re.S).group(1))


def poll(page, script, arg=None, timeout=BOOT / 1000):
    """Evaluate an async script until it is truthy (wait_for_function does
    not await a promise): the page checks again after each answer, at most
    every 100 ms, until `timeout` seconds have passed."""
    return page.evaluate(
        f"""async ([arg, ms]) => {{
              const check = {script};
              const deadline = performance.now() + ms;
              for (;;) {{
                const value = await check(arg);
                if (value) return value;
                if (performance.now() > deadline) throw new Error("timed out waiting for: " + check);
                await new Promise((next) => setTimeout(next, 100));
              }}
            }}""",
        [arg, timeout * 1000],
    )


KEPT_SNAPSHOT = "snapshot.bin"  # the snapshot unpacked, kept by the calculators' worker (runtime/sparse-snapshot.mjs)


def wait_until_offline_ready(page, data, compiled: bool = False):
    """The worker controls the page, and both its caches are complete (with
    `compiled`, the runtime's with what a first result leaves there too: the
    plain wasm, and the snapshot kept unpacked)."""
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=BOOT)
    runtime = data["runtimeFill"] + (data["runtimeCompiled"] + [KEPT_SNAPSHOT] if compiled else [])
    poll(
        page,
        """async ([pages, runtime, nPages, files]) => {
             const keys = async (name) => (await caches.has(name)) ? (await (await caches.open(name)).keys()).map((r) => r.url) : [];
             const have = new Set((await keys(runtime)).map((url) => url.split("/").pop()));
             return (await keys(pages)).length === nPages && files.every((file) => have.has(file));
           }""",
        [data["prefix"] + "pages-" + data["digest"], data["prefix"] + "runtime-" + data["runtimeDigest"],
         len(data["precache"]), runtime],
    )


# ---------------------------------------------------------------- the search


def material_search(site: Path, queries: list[str]) -> dict[str, list[list[str]]]:
    """Each query's results from Material's own search worker, run under Node
    over the built index (tests/search_runner.mjs): the result groups (one a
    page) in the order the page lists them, each with its locations."""
    node = shutil.which("node")
    assert node, "Node.js is needed for the search tests (make setup installs the npm tools)"
    proc = subprocess.run([node, str(ROOT / "tests" / "search_runner.mjs"), str(site)], input=json.dumps(queries),
                          capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout)


SHOWN_AT_ONCE = 10  # Material draws the first ten result groups, the rest as the reader scrolls


def shown_links(groups: list[list[str]]) -> list[str]:
    """The result links as the page lists them: each group's page first, then
    its sections in the worker's order (Material's renderSearchResultItem)."""
    out = []
    for group in groups[:SHOWN_AT_ONCE]:
        out += [loc for loc in group if "#" not in loc][:1] + [loc for loc in group if "#" in loc]
    return out


# ---------------------------------------------------------------- pages as first drawn, cheaply

# A page with a calculator starts the Pyodide runtime at once (a Web Worker
# that restores a 31 MB snapshot), and the first page of a context installs
# the service worker, which fetches the whole site and the runtime. A test of
# a page's own markup (axe, widths, links) needs neither: this stand-in worker
# never answers, so every form shows "Loading the calculator…", the state a
# reader sees first. The forms with their results drawn by the real runtime
# are checked elsewhere (test_accessibility.py's calculators-with-results test).
IDLE_WORKER = "// A stand-in for the calculators' worker (tests/support/helpers.py): it never answers.\n"


def idle_runtime(route):
    """Route handler for the runtime folder: the worker script is the idle
    stand-in, every other runtime file is refused (none should be asked for)."""
    if route.request.url.split("?")[0].endswith("/calc-worker.mjs"):
        route.fulfill(status=200, content_type="text/javascript", body=IDLE_WORKER)
    else:
        route.abort()


def static_context(browser, **options):
    """A browser context for checking pages as first drawn: no service worker
    and an idle calculator runtime (see IDLE_WORKER)."""
    context = browser.new_context(service_workers="block", **options)
    context.route("**/pyodide/**", idle_runtime)
    return context


def set_fields(form, values: dict[str, str]) -> None:
    """Put each value in the form's field of that name, in order, in one call:
    each field gets the events typing (or choosing) gives it, "input" (and
    "change" for a select), so the page's own handlers run after each as they
    would. For long forms where how a value gets in is not what is tested:
    fifty fills cost fifty round trips, seconds on a loaded machine."""
    missing = form.evaluate(
        """(f, values) => values.filter(([name, value]) => {
             const field = f.querySelector(`[name="${CSS.escape(name)}"]`);
             if (!field) return true;
             field.value = value;
             field.dispatchEvent(new Event("input", { bubbles: true }));
             if (field.tagName === "SELECT") field.dispatchEvent(new Event("change", { bubbles: true }));
             return field.value !== value;
           }).map(([name]) => name)""",
        list(values.items()),
    )
    assert not missing, f"fields missing, or refusing the value: {missing}"
